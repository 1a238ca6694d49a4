/* nvjitlink.c: nvJitLink through dlopen (see nvjitlink.h), and the private hook
 * _core.nvjitlink(inputs, cc=(major, minor)) -> cubin bytes, inputs being ((kind, name,
 * bytes), ...). The library stays loaded for the life of the process. */
#include "target/nvjitlink.h"

#include <dlfcn.h>
#include <string.h>

#include "target/nvvm.h"
#include "target/toolkit.h"

typedef int njl_result;
typedef void *njl_handle;

static struct {
    njl_result (*Create)(njl_handle *, unsigned int, const char **);
    njl_result (*AddData)(njl_handle, int, const void *, size_t, const char *);
    njl_result (*Complete)(njl_handle);
    njl_result (*GetLinkedCubinSize)(njl_handle, size_t *);
    njl_result (*GetLinkedCubin)(njl_handle, void *);
    njl_result (*GetErrorLogSize)(njl_handle, size_t *);
    njl_result (*GetErrorLog)(njl_handle, char *);
    njl_result (*Destroy)(njl_handle *);
} njl;

static int load(void) {
    static void *handle;
    if (njl.Destroy != NULL) {
        return 0;
    }
    char root[4096];
    if (handle == NULL && (handle = cj_toolkit_dlopen("CUJIT_LIBNVJITLINK", "libnvJitLink.so",
                                                      root, sizeof(root))) == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "linking .cubin, .fatbin, .o, .a or .ltoir files "
                                             "(or a kernel compiled with lto=True) needs nvJitLink (libnvJitLink.so), which was not "
                                             "found: install the CUDA toolkit (12 or newer) or "
                                             "set CUJIT_LIBNVJITLINK to the library");
        return -1;
    }
    static const char *const names[] = {
        "nvJitLinkCreate", "nvJitLinkAddData", "nvJitLinkComplete",
        "nvJitLinkGetLinkedCubinSize", "nvJitLinkGetLinkedCubin", "nvJitLinkGetErrorLogSize",
        "nvJitLinkGetErrorLog", "nvJitLinkDestroy"};
    void *fns[8];
    for (int i = 0; i < 8; i++) {
        if ((fns[i] = dlsym(handle, names[i])) == NULL) {
            PyErr_Format(PyExc_RuntimeError, "libnvJitLink lacks %s", names[i]);
            return -1;
        }
    }
    memcpy(&njl, fns, sizeof(fns)); /* the table's fields are in `names` order */
    return 0;
}

/* nvJitLinkInputType of a file kind, or 0. */
static int input_type(const char *kind) {
    static const char *const kinds[] = {"cubin", "ptx", "ltoir", "fatbin", "o", "a"};
    for (int i = 0; i < 6; i++) {
        if (strcmp(kind, kinds[i]) == 0) {
            return i + 1; /* NVJITLINK_INPUT_CUBIN = 1, PTX, LTOIR, FATBIN, OBJECT, LIBRARY */
        }
    }
    return 0;
}

/* LinkerError("<what> <name>: <log>"); -1. */
static int link_failed(njl_handle h, const char *what, const char *name) {
    size_t size = 0;
    char *log = NULL;
    if (njl.GetErrorLogSize(h, &size) == 0 && (log = PyMem_Calloc(1, size + 1)) != NULL &&
        njl.GetErrorLog(h, log) != 0) {
        log[0] = '\0';
    }
    PyObject *mod = PyImport_ImportModule("cujit.cuda.linking");
    PyObject *cls = mod ? PyObject_GetAttrString(mod, "LinkerError") : NULL;
    if (cls != NULL) {
        PyErr_Format(cls, "nvJitLink: %s %s failed:\n%s", what, name, log ? log : "");
    }
    Py_XDECREF(cls);
    Py_XDECREF(mod);
    PyMem_Free(log);
    return -1;
}

static PyObject *linked_cubin(njl_handle h) {
    size_t size = 0;
    if (njl.GetLinkedCubinSize(h, &size) != 0 || size == 0) {
        link_failed(h, "getting", "the cubin");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (out != NULL && njl.GetLinkedCubin(h, PyBytes_AS_STRING(out)) != 0) {
        Py_CLEAR(out);
        link_failed(h, "getting", "the cubin");
    }
    return out;
}

PyObject *cj_nvjitlink(const cj_link_input *inputs, int n, int cc_major, int cc_minor) {
    int lto = 0;
    for (int i = 0; i < n; i++) {
        if (input_type(inputs[i].kind) == 0) {
            PyErr_Format(PyExc_ValueError, "nvJitLink cannot link .%s files", inputs[i].kind);
            return NULL;
        }
        lto |= strcmp(inputs[i].kind, "ltoir") == 0;
    }
    if (load() < 0) {
        return NULL;
    }
    char arch[32];
    PyOS_snprintf(arch, sizeof(arch), "-arch=sm_%d%d", cc_major, cc_minor);
    const char *opts[2] = {arch, "-lto"};
    njl_handle h = NULL;
    if (njl.Create(&h, lto ? 2 : 1, opts) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "nvJitLinkCreate failed");
        return NULL;
    }
    PyObject *cubin = NULL;
    int rc = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        if (njl.AddData(h, input_type(inputs[i].kind), inputs[i].data, inputs[i].size,
                        inputs[i].name) != 0) {
            rc = link_failed(h, "adding", inputs[i].name);
        }
    }
    if (rc == 0 && njl.Complete(h) != 0) {
        rc = link_failed(h, "linking", "the kernel");
    }
    if (rc == 0) {
        cubin = linked_cubin(h);
    }
    njl.Destroy(&h);
    return cubin;
}

/* _core.nvjitlink(((kind, name, bytes), ...), cc=(9, 0)) -> cubin bytes */
static PyObject *nvjitlink_py(PyObject *self, PyObject *args) {
    PyObject *items;
    int major = 9, minor = 0;
    if (!PyArg_ParseTuple(args, "O!|(ii):nvjitlink", &PyTuple_Type, &items, &major, &minor)) {
        return NULL;
    }
    cj_nvvm_options check = {.cc_major = major, .cc_minor = minor, .opt = 3};
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if (cj_nvvm_check_options(&check) < 0 || n > 256) {
        return n > 256 ? PyErr_Format(PyExc_ValueError, "at most 256 inputs") : NULL;
    }
    cj_link_input inputs[256];
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t size;
        PyObject *item = PyTuple_GET_ITEM(items, i);
        if (!PyTuple_Check(item) ||
            !PyArg_ParseTuple(item, "ssy#", &inputs[i].kind, &inputs[i].name, &inputs[i].data,
                              &size)) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "an input must be (kind, name, bytes)");
            }
            return NULL;
        }
        inputs[i].size = (size_t)size;
    }
    return cj_nvjitlink(inputs, (int)n, major, minor);
}

static PyMethodDef nvjitlink_methods[] = {
    {"nvjitlink", nvjitlink_py, METH_VARARGS,
     "nvjitlink(((kind, name, bytes), ...), cc=(9, 0)) -> cubin: device code linked by "
     "nvJitLink"},
    {NULL},
};

int cj_nvjitlink_init(PyObject *module) {
    return PyModule_AddFunctions(module, nvjitlink_methods);
}
