/* kernel_link.c: cuda.jit(link=[...]): a kernel's PTX linked with the files given into the
 * cubin that kernel.c loads. The files come from cuda/linking.py as ((kind, name, bytes), ...):
 * 'ptx' is added as it is, 'cu' compiled first by NVRTC (target/nvrtc.c) for the version's
 * compute capability. PTX alone goes through the driver's linker (cuLinkCreate / cuLinkAddData
 * / cuLinkComplete); with a .cubin, .fatbin, .o, .a or .ltoir file, or a kernel compiled with
 * lto=True (its LTO-IR, r->ltoir), the whole link goes through nvJitLink (target/nvjitlink.c),
 * the driver's linker's successor; in an LTO link .cu files are compiled to LTO-IR too. A failed link
 * is cujit.cuda.linking.LinkerError with the linker's log. */
#include <string.h>

#include "jit/kernel_internal.h"
#include "target/nvjitlink.h"
#include "target/nvrtc.h"

enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
       CU_JIT_INPUT_PTX = 1, LOG_SIZE = 4096 };

/* LinkerError("<what>: <driver error>\n<log>"), replacing the CudaAPIError set; -1. */
static int link_failed(const char *what, const char *log) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *mod = PyImport_ImportModule("cujit.cuda.linking");
    PyObject *cls = mod ? PyObject_GetAttrString(mod, "LinkerError") : NULL;
    if (cls != NULL) {
        PyErr_Format(cls, "%s: %S\n%s", what, value ? value : Py_None, log);
    } else {
        Py_XDECREF(type); /* the import's own error stands */
        type = NULL;
    }
    Py_XDECREF(cls);
    Py_XDECREF(mod);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return -1;
}

/* Adds one PTX text (NUL-terminated) to the link: 0, or -1. */
static int add_ptx(CUlinkState state, const char *ptx, const char *name, const char *log) {
    if (CJ_CU(cuLinkAddData, state, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, name, 0,
              NULL, NULL) < 0) {
        char what[300];
        PyOS_snprintf(what, sizeof(what), "cannot link %s", name);
        return link_failed(what, log);
    }
    return 0;
}

/* Adds link file `item` ((kind, name, bytes)) for compute capability cc: 0, or -1. */
static int add_file(CUlinkState state, PyObject *item, const cj_cuda_result *r,
                    const char *log) {
    const char *kind, *name, *data;
    Py_ssize_t size;
    if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "ssy#", &kind, &name, &data, &size)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "a link file must be (kind, name, bytes)");
        }
        return -1;
    }
    if ((Py_ssize_t)strlen(data) != size) {
        PyErr_Format(PyExc_ValueError, "link file %s contains a NUL byte", name);
        return -1;
    }
    if (strcmp(kind, "ptx") == 0) {
        return add_ptx(state, data, name, log);
    }
    if (strcmp(kind, "cu") != 0) {
        PyErr_Format(PyExc_NotImplementedError, "cujit cannot link .%s files", kind);
        return -1;
    }
    PyObject *ptx = cj_nvrtc_compile(data, name, r->cc_major, r->cc_minor, 0);
    const char *text = ptx ? PyUnicode_AsUTF8(ptx) : NULL;
    int rc = text == NULL ? -1 : add_ptx(state, text, name, log);
    Py_XDECREF(ptx);
    return rc;
}

/* 1 when a file of `files` is neither PTX nor CUDA C++ (nvJitLink links it). */
static int needs_nvjitlink(PyObject *files) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(files); i++) {
        PyObject *item = PyTuple_GET_ITEM(files, i);
        PyObject *kind = PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 3
                             ? PyTuple_GET_ITEM(item, 0)
                             : NULL;
        if (kind != NULL && PyUnicode_Check(kind) &&
            PyUnicode_CompareWithASCIIString(kind, "ptx") != 0 &&
            PyUnicode_CompareWithASCIIString(kind, "cu") != 0) {
            return 1;
        }
    }
    return 0;
}

/* Fills `in` from link file `item`, a .cu compiled to PTX, or to LTO-IR for an LTO link (kept
 * alive in `keep`): 0 or -1. */
static int nvjitlink_input(PyObject *item, const cj_cuda_result *r, PyObject *keep,
                           cj_link_input *in) {
    Py_ssize_t size;
    if (!PyTuple_Check(item) ||
        !PyArg_ParseTuple(item, "ssy#", &in->kind, &in->name, &in->data, &size)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "a link file must be (kind, name, bytes)");
        }
        return -1;
    }
    in->size = (size_t)size;
    if (strcmp(in->kind, "cu") != 0) {
        return 0;
    }
    if ((Py_ssize_t)strlen(in->data) != size) {
        PyErr_Format(PyExc_ValueError, "link file %s contains a NUL byte", in->name);
        return -1;
    }
    int lto = r->ltoir != NULL;
    PyObject *code = cj_nvrtc_compile(in->data, in->name, r->cc_major, r->cc_minor, lto);
    Py_ssize_t len = 0;
    const char *data = NULL;
    if (code != NULL && lto) {
        data = PyBytes_AS_STRING(code);
        len = PyBytes_GET_SIZE(code);
    } else if (code != NULL) {
        data = PyUnicode_AsUTF8AndSize(code, &len);
    }
    int rc = data == NULL || PyList_Append(keep, code) < 0 ? -1 : 0;
    Py_XDECREF(code);
    *in = (cj_link_input){.kind = lto ? "ltoir" : "ptx", .name = in->name, .data = data,
                          .size = (size_t)len};
    return rc;
}

/* The whole link through nvJitLink: the kernel's PTX (or LTO-IR) first, then the files. */
static PyObject *link_nvjitlink(const cj_cuda_result *r, PyObject *files) {
    Py_ssize_t n = PyTuple_GET_SIZE(files), len;
    const char *ptx;
    if (r->ltoir != NULL) {
        ptx = PyBytes_AS_STRING(r->ltoir);
        len = PyBytes_GET_SIZE(r->ltoir);
    } else {
        ptx = PyUnicode_AsUTF8AndSize(r->ptx, &len);
    }
    cj_link_input *inputs = ptx ? PyMem_Calloc((size_t)n + 1, sizeof(cj_link_input)) : NULL;
    PyObject *keep = inputs ? PyList_New(0) : NULL, *cubin = NULL;
    if (keep == NULL) {
        PyMem_Free(inputs);
        return ptx && !PyErr_Occurred() ? PyErr_NoMemory() : NULL;
    }
    inputs[0] = (cj_link_input){.kind = r->ltoir ? "ltoir" : "ptx", .name = "cujit", .data = ptx,
                                .size = (size_t)len};
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        rc = nvjitlink_input(PyTuple_GET_ITEM(files, i), r, keep, &inputs[i + 1]);
    }
    if (rc == 0) {
        cubin = cj_nvjitlink(inputs, (int)n + 1, r->cc_major, r->cc_minor);
    }
    Py_DECREF(keep);
    PyMem_Free(inputs);
    return cubin;
}

PyObject *cj_kernel_link(const cj_cuda_result *r, PyObject *files) {
    if (r->ltoir != NULL || needs_nvjitlink(files)) {
        return link_nvjitlink(r, files);
    }
    const char *ptx = PyUnicode_AsUTF8(r->ptx);
    if (ptx == NULL) {
        return NULL;
    }
    char *log = PyMem_Calloc(1, LOG_SIZE);
    if (log == NULL) {
        return PyErr_NoMemory();
    }
    int options[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[2] = {log, (void *)(size_t)(LOG_SIZE - 1)};
    CUlinkState state = NULL;
    PyObject *cubin = NULL;
    if (CJ_CU(cuLinkCreate, 2, options, values, &state) < 0) {
        PyMem_Free(log);
        return NULL;
    }
    int rc = add_ptx(state, ptx, "cujit", log);
    for (Py_ssize_t i = 0; rc == 0 && i < PyTuple_GET_SIZE(files); i++) {
        rc = add_file(state, PyTuple_GET_ITEM(files, i), r, log);
    }
    void *image = NULL;
    size_t size = 0;
    if (rc == 0 && CJ_CU(cuLinkComplete, state, &image, &size) < 0) {
        link_failed("cuLinkComplete failed", log);
    } else if (rc == 0) {
        cubin = PyBytes_FromStringAndSize(image, (Py_ssize_t)size); /* the state owns image */
    }
    (void)CJ_CU_RAW(cuLinkDestroy, state);
    PyMem_Free(log);
    return cubin;
}
