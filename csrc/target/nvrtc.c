/* nvrtc.c: NVRTC through dlopen (see nvrtc.h; found by target/toolkit.c), and the private hook
 * _core.nvrtc_compile(source: bytes, name: str, cc=(major, minor)) -> PTX str. The library
 * stays loaded for the life of the process; compiles hold the GIL (a .cu file compiles once
 * per kernel version load). */
#include "target/nvrtc.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "target/nvvm.h"
#include "target/toolkit.h"

typedef int nvrtc_result;
typedef void *nvrtc_program;

static struct {
    nvrtc_result (*CreateProgram)(nvrtc_program *, const char *, const char *, int,
                                  const char *const *, const char *const *);
    nvrtc_result (*CompileProgram)(nvrtc_program, int, const char *const *);
    nvrtc_result (*GetProgramLogSize)(nvrtc_program, size_t *);
    nvrtc_result (*GetProgramLog)(nvrtc_program, char *);
    nvrtc_result (*GetPTXSize)(nvrtc_program, size_t *);
    nvrtc_result (*GetPTX)(nvrtc_program, char *);
    nvrtc_result (*DestroyProgram)(nvrtc_program *);
    const char *(*GetErrorString)(nvrtc_result);
    nvrtc_result (*GetLTOIRSize)(nvrtc_program, size_t *); /* CUDA 12+: looked up when used */
    nvrtc_result (*GetLTOIR)(nvrtc_program, char *);
} nvrtc;
static void *handle;
static char include_dir[4096]; /* "-I<root>/include", or empty */

/* Opens libnvrtc (target/toolkit.c's search): 0, or -1 with RuntimeError. */
static int open_library(void) {
    char root[4096];
    handle = cj_toolkit_dlopen("CUJIT_LIBNVRTC", "libnvrtc.so", root, sizeof(root));
    if (handle == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "linking a .cu file needs NVRTC (libnvrtc.so), "
                                             "which was not found: install the CUDA toolkit "
                                             "or set CUJIT_LIBNVRTC to the library");
        return -1;
    }
    if (root[0]) {
        PyOS_snprintf(include_dir, sizeof(include_dir), "-I%s/include", root);
    }
    return 0;
}

static int load(void) {
    if (nvrtc.GetErrorString != NULL) {
        return 0;
    }
    if (handle == NULL && open_library() < 0) {
        return -1;
    }
    static const char *const names[] = {
        "nvrtcCreateProgram", "nvrtcCompileProgram", "nvrtcGetProgramLogSize",
        "nvrtcGetProgramLog", "nvrtcGetPTXSize", "nvrtcGetPTX", "nvrtcDestroyProgram",
        "nvrtcGetErrorString"};
    void *fns[8];
    for (int i = 0; i < 8; i++) {
        if ((fns[i] = dlsym(handle, names[i])) == NULL) {
            PyErr_Format(PyExc_RuntimeError, "libnvrtc lacks %s", names[i]);
            return -1;
        }
    }
    memcpy(&nvrtc, fns, sizeof(fns)); /* the table's first fields are in `names` order */
    nvrtc.GetLTOIRSize = (nvrtc_result(*)(nvrtc_program, size_t *))dlsym(handle,
                                                                        "nvrtcGetLTOIRSize");
    nvrtc.GetLTOIR = (nvrtc_result(*)(nvrtc_program, char *))dlsym(handle, "nvrtcGetLTOIR");
    return 0;
}

/* Raises cujit.cuda.linking.NvrtcError(message) (numba-cuda's class and words). */
static void raise_nvrtc(PyObject *message) {
    PyObject *mod = PyImport_ImportModule("cujit.cuda.linking");
    PyObject *cls = mod ? PyObject_GetAttrString(mod, "NvrtcError") : NULL;
    if (cls != NULL) {
        PyErr_SetObject(cls, message);
    }
    Py_XDECREF(cls);
    Py_XDECREF(mod);
}

/* NvrtcError with the program's log; -1. */
static int compile_failed(nvrtc_program prog, nvrtc_result rc, const char *name) {
    size_t size = 0;
    char *log = NULL;
    if (nvrtc.GetProgramLogSize(prog, &size) == 0 && (log = PyMem_Malloc(size + 1)) != NULL &&
        nvrtc.GetProgramLog(prog, log) == 0) {
        log[size] = '\0';
    } else if (log != NULL) {
        log[0] = '\0';
    }
    PyObject *msg = PyUnicode_FromFormat("NVRTC Compilation failure whilst compiling %s "
                                         "(%s):\n\n%s", name, nvrtc.GetErrorString(rc),
                                         log ? log : "");
    PyMem_Free(log);
    if (msg != NULL) {
        raise_nvrtc(msg);
        Py_DECREF(msg);
    }
    return -1;
}

static PyObject *program_ptx(nvrtc_program prog) {
    size_t size = 0;
    if (nvrtc.GetPTXSize(prog, &size) != 0 || size == 0) {
        PyErr_SetString(PyExc_RuntimeError, "nvrtcGetPTXSize failed");
        return NULL;
    }
    char *ptx = PyMem_Malloc(size);
    if (ptx == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *out = NULL;
    if (nvrtc.GetPTX(prog, ptx) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "nvrtcGetPTX failed");
    } else {
        out = PyUnicode_FromStringAndSize(ptx, (Py_ssize_t)strnlen(ptx, size));
    }
    PyMem_Free(ptx);
    return out;
}

/* The program's LTO-IR (new bytes). */
static PyObject *program_ltoir(nvrtc_program prog) {
    size_t size = 0;
    if (nvrtc.GetLTOIRSize(prog, &size) != 0 || size == 0) {
        PyErr_SetString(PyExc_RuntimeError, "nvrtcGetLTOIRSize failed");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (out != NULL && nvrtc.GetLTOIR(prog, PyBytes_AS_STRING(out)) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "nvrtcGetLTOIR failed");
        Py_CLEAR(out);
    }
    return out;
}

PyObject *cj_nvrtc_compile(const char *source, const char *name, int cc_major, int cc_minor,
                           int lto) {
    if (load() < 0) {
        return NULL;
    }
    if (lto && (nvrtc.GetLTOIRSize == NULL || nvrtc.GetLTOIR == NULL)) {
        PyErr_SetString(PyExc_RuntimeError, "compiling a .cu file to LTO-IR (lto=True) needs "
                                             "NVRTC 12 or newer (nvrtcGetLTOIR)");
        return NULL;
    }
    nvrtc_program prog = NULL;
    nvrtc_result rc = nvrtc.CreateProgram(&prog, source, name, 0, NULL, NULL);
    if (rc != 0) {
        PyErr_Format(PyExc_RuntimeError, "nvrtcCreateProgram failed: %s",
                     nvrtc.GetErrorString(rc));
        return NULL;
    }
    char arch[48];
    PyOS_snprintf(arch, sizeof(arch), "--gpu-architecture=compute_%d%d", cc_major, cc_minor);
    const char *opts[4] = {arch, "-rdc=true", include_dir[0] ? include_dir : "-dlto", "-dlto"};
    int nopts = 2 + (include_dir[0] != 0) + (lto != 0);
    PyObject *ptx = NULL;
    rc = nvrtc.CompileProgram(prog, nopts, opts);
    if (rc != 0) {
        compile_failed(prog, rc, name);
    } else {
        ptx = lto ? program_ltoir(prog) : program_ptx(prog);
    }
    nvrtc.DestroyProgram(&prog);
    return ptx;
}

/* _core.nvrtc_compile(source: bytes, name: str, cc=(major, minor), lto=False) -> str or bytes */
static PyObject *nvrtc_compile_py(PyObject *self, PyObject *args) {
    const char *source, *name;
    Py_ssize_t len;
    int major = 9, minor = 0, lto = 0;
    if (!PyArg_ParseTuple(args, "y#s|(ii)p:nvrtc_compile", &source, &len, &name, &major,
                          &minor, &lto)) {
        return NULL;
    }
    if ((Py_ssize_t)strlen(source) != len) {
        PyErr_SetString(PyExc_ValueError, "a .cu source must not contain NUL bytes");
        return NULL;
    }
    cj_nvvm_options check = {.cc_major = major, .cc_minor = minor, .opt = 3};
    if (cj_nvvm_check_options(&check) < 0) {
        return NULL;
    }
    return cj_nvrtc_compile(source, name, major, minor, lto);
}

static PyMethodDef nvrtc_methods[] = {
    {"nvrtc_compile", nvrtc_compile_py, METH_VARARGS,
     "nvrtc_compile(source: bytes, name, cc=(9, 0), lto=False) -> PTX (str) of a CUDA C++ "
     "source, or its LTO-IR (bytes) with lto"},
    {NULL},
};

int cj_nvrtc_init(PyObject *module) {
    return PyModule_AddFunctions(module, nvrtc_methods);
}
