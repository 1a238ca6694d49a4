/* cai.c: __cuda_array_interface__ (versions 0 to 3) parsed into `cj_cai`.
 * The dict comes from any object, so each key is checked: its presence, its type, its range.
 * Python code can run while it is read (an item's __index__), and may change the dict or the
 * lists in it: every value is held by a strong reference and a shape or strides list is read
 * from a tuple copy. Success leaves no Python objects behind, so the launcher can call this. */
#include "cuda/cuda.h"

static int bad(PyObject *exc, const char *fmt, ...) {
    va_list va;
    va_start(va, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, va);
    va_end(va);
    if (msg != NULL) {
        PyObject *full = PyUnicode_FromFormat("invalid __cuda_array_interface__: %U", msg);
        Py_DECREF(msg);
        if (full != NULL) {
            PyErr_SetObject(exc, full);
            Py_DECREF(full);
        }
    }
    return -1;
}

/* An int (or an object with __index__) as Py_ssize_t; -1 with TypeError/OverflowError set. */
static int as_ssize(PyObject *v, const char *what, int axis, Py_ssize_t *out) {
    if (PyBool_Check(v) || !PyIndex_Check(v)) {
        return bad(PyExc_TypeError, "%s of axis %d must be an int, not %.100s", what, axis,
                   Py_TYPE(v)->tp_name);
    }
    *out = PyNumber_AsSsize_t(v, PyExc_OverflowError);
    if (*out == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return bad(PyExc_ValueError, "%s of axis %d is out of range", what, axis);
    }
    return 0;
}

int cj_cai_set_typestr(const char *s, cj_cai *out) {
    size_t len = strlen(s);
    if (len < 3 || len >= sizeof(out->typestr) || strchr("<>|=", s[0]) == NULL) {
        return bad(PyExc_ValueError, "unknown typestr '%s'", s);
    }
    char *end = NULL;
    long size = strtol(s + 2, &end, 10);
    if (end == NULL || *end != '\0' || size <= 0) {
        return bad(PyExc_ValueError, "unknown typestr '%s'", s);
    }
    char kind = s[1];
    int ok = 0;
    switch (kind) {
    case 'b': ok = size == 1; break;
    case 'i':
    case 'u': ok = size == 1 || size == 2 || size == 4 || size == 8; break;
    case 'f': ok = size == 2 || size == 4 || size == 8; break;
    case 'c': ok = size == 8 || size == 16; break;
    default: ok = 0;
    }
    if (!ok) {
        return bad(PyExc_ValueError,
                   "unsupported typestr '%s' (bool, int, uint, float and complex are supported)",
                   s);
    }
    if (s[0] == '>' && size > 1) {
        return bad(PyExc_ValueError, "big-endian typestr '%s' is not supported", s);
    }
    memcpy(out->typestr, s, len + 1);
    out->kind = kind;
    out->itemsize = (int)size;
    return 0;
}

static int parse_typestr(PyObject *v, cj_cai *out) {
    if (v == NULL) {
        return bad(PyExc_ValueError, "missing key 'typestr'");
    }
    if (!PyUnicode_Check(v)) {
        return bad(PyExc_TypeError, "'typestr' must be a str, not %.100s", Py_TYPE(v)->tp_name);
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(v, &len);
    if (s == NULL) {
        return -1;
    }
    if ((size_t)len != strlen(s)) {
        return bad(PyExc_ValueError, "unknown typestr %R", v);
    }
    return cj_cai_set_typestr(s, out);
}

/* A tuple or list's items as a tuple (new): an item's __index__ may change a list. */
static PyObject *frozen_items(PyObject *v) {
    return PyTuple_Check(v) ? Py_NewRef(v) : PyList_AsTuple(v);
}

static int parse_shape_items(PyObject *items, cj_cai *out) {
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if (n > CJ_MAXDIM) {
        return bad(PyExc_ValueError, "%zd dimensions exceed the limit of %d", n, CJ_MAXDIM);
    }
    out->ndim = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (as_ssize(PyTuple_GET_ITEM(items, i), "shape", (int)i, &out->shape[i]) < 0) {
            return -1;
        }
        if (out->shape[i] < 0) {
            return bad(PyExc_ValueError, "negative extent %zd in axis %d", out->shape[i],
                       (int)i);
        }
    }
    return 0;
}

static int parse_shape(PyObject *v, cj_cai *out) {
    if (v == NULL) {
        return bad(PyExc_ValueError, "missing key 'shape'");
    }
    if (!PyTuple_Check(v) && !PyList_Check(v)) {
        return bad(PyExc_TypeError, "'shape' must be a tuple, not %.100s", Py_TYPE(v)->tp_name);
    }
    PyObject *items = frozen_items(v);
    if (items == NULL) {
        return -1;
    }
    int rc = parse_shape_items(items, out);
    Py_DECREF(items);
    return rc;
}

/* Element count and byte span, refusing sizes that overflow. */
static int check_size(cj_cai *out) {
    Py_ssize_t size = 1;
    for (int i = 0; i < out->ndim; i++) {
        if (out->shape[i] != 0 && size > PY_SSIZE_T_MAX / out->shape[i]) {
            size = -1;
            break;
        }
        size *= out->shape[i];
    }
    for (int i = 0; i < out->ndim && size != 0; i++) {
        if (out->shape[i] == 0) {
            size = 0;
        }
    }
    if (size < 0 || (size > 0 && size > PY_SSIZE_T_MAX / out->itemsize)) {
        return bad(PyExc_ValueError, "shape is too large (the byte size overflows)");
    }
    out->size = size;
    return 0;
}

static int parse_stride_items(PyObject *items, cj_cai *out) {
    if (PyTuple_GET_SIZE(items) != out->ndim) {
        return bad(PyExc_ValueError, "'strides' has %zd entries for %d dimensions",
                   PyTuple_GET_SIZE(items), out->ndim);
    }
    for (int i = 0; i < out->ndim; i++) {
        if (as_ssize(PyTuple_GET_ITEM(items, i), "stride", i, &out->strides[i]) < 0) {
            return -1;
        }
        if (out->strides[i] % out->itemsize != 0) {
            return bad(PyExc_ValueError,
                       "misaligned stride %zd in axis %d (not a multiple of the itemsize %d)",
                       out->strides[i], i, out->itemsize);
        }
        /* the span of the axis must stay addressable */
        if (out->shape[i] > 1 && out->strides[i] != 0 &&
            (out->strides[i] > PY_SSIZE_T_MAX / (out->shape[i] - 1) ||
             out->strides[i] < -(PY_SSIZE_T_MAX / (out->shape[i] - 1)))) {
            return bad(PyExc_ValueError, "stride %zd in axis %d overflows", out->strides[i], i);
        }
    }
    return 0;
}

static int parse_strides(PyObject *v, cj_cai *out) {
    if (v == NULL || v == Py_None) {
        cj_layout_default_strides(out->ndim, out->shape, out->itemsize, 0,
                                  out->strides);
        return 0;
    }
    if (!PyTuple_Check(v) && !PyList_Check(v)) {
        return bad(PyExc_TypeError, "'strides' must be a tuple or None, not %.100s",
                   Py_TYPE(v)->tp_name);
    }
    PyObject *items = frozen_items(v);
    if (items == NULL) {
        return -1;
    }
    int rc = parse_stride_items(items, out);
    Py_DECREF(items);
    return rc;
}

static int parse_data(PyObject *v, cj_cai *out) {
    if (v == NULL) {
        return bad(PyExc_ValueError, "missing key 'data'");
    }
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2) {
        return bad(PyExc_TypeError, "'data' must be a (pointer, read_only) tuple");
    }
    PyObject *ptr = PyTuple_GET_ITEM(v, 0), *ro = PyTuple_GET_ITEM(v, 1);
    if (PyBool_Check(ptr) || !PyLong_Check(ptr)) {
        return bad(PyExc_TypeError, "the data pointer must be an int, not %.100s",
                   Py_TYPE(ptr)->tp_name);
    }
    unsigned long long p = PyLong_AsUnsignedLongLong(ptr);
    if (p == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return bad(PyExc_ValueError, "the data pointer %R is out of range", ptr);
    }
    if (!PyBool_Check(ro)) {
        return bad(PyExc_TypeError, "the read-only flag of 'data' must be a bool");
    }
    out->data = (CUdeviceptr)p;
    out->readonly = ro == Py_True;
    return 0;
}

static int parse_stream(PyObject *v, cj_cai *out) {
    out->has_stream = 0;
    out->stream = 0;
    if (v == NULL || v == Py_None) {
        return 0;
    }
    if (PyBool_Check(v) || !PyLong_Check(v)) {
        return bad(PyExc_TypeError, "'stream' must be an int or None, not %.100s",
                   Py_TYPE(v)->tp_name);
    }
    unsigned long long s = PyLong_AsUnsignedLongLong(v);
    if (s == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return bad(PyExc_ValueError, "'stream' %R is not a stream handle", v);
    }
    if (s == 0) {
        return bad(PyExc_ValueError,
                   "'stream' 0 is disallowed (ambiguous): use 1 (legacy) or 2 (per-thread)");
    }
    out->has_stream = 1;
    out->stream = (uintptr_t)s;
    return 0;
}

int cj_cai_set_layout(PyObject *shape, PyObject *strides, cj_cai *out) {
    return parse_shape(shape, out) == 0 && check_size(out) == 0 && parse_strides(strides, out) == 0
               ? 0
               : -1;
}

int cj_cai_check_data(const cj_cai *out) {
    if (out->data == 0 && out->size > 0) {
        return bad(PyExc_ValueError, "null data pointer with %zd elements", out->size);
    }
    if (out->data % (CUdeviceptr)out->itemsize != 0) {
        char hex[32]; /* PyUnicode_FromFormat has no %llx before Python 3.12 */
        snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)out->data);
        return bad(PyExc_ValueError, "data pointer %s is misaligned for itemsize %d", hex,
                   (int)out->itemsize);
    }
    return 0;
}

int cj_cai_parse_dict(PyObject *dict, cj_cai *out) {
    if (!PyDict_Check(dict)) {
        return bad(PyExc_TypeError, "it must be a dict, not %.100s", Py_TYPE(dict)->tp_name);
    }
    PyObject *version = PyDict_GetItemString(dict, "version"); /* borrowed */
    if (version == NULL) {
        return bad(PyExc_ValueError, "missing key 'version'");
    }
    if (PyBool_Check(version) || !PyLong_Check(version)) {
        return bad(PyExc_TypeError, "'version' must be an int");
    }
    long ver = PyLong_AsLong(version);
    if (ver < 0 || ver > 3) {
        PyErr_Clear();
        return bad(PyExc_ValueError, "unsupported version %R (0 to 3 are understood)", version);
    }
    out->version = (int)ver;
    PyObject *mask = PyDict_GetItemString(dict, "mask");
    if (mask != NULL && mask != Py_None) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "masked arrays (__cuda_array_interface__ 'mask') are not supported");
        return -1;
    }
    /* held: Python code run by the parsing may take them out of the dict */
    enum { TYPESTR, SHAPE, STRIDES, DATA, STREAM, NKEYS };
    static const char *const keys[NKEYS] = {"typestr", "shape", "strides", "data", "stream"};
    PyObject *v[NKEYS];
    for (int k = 0; k < NKEYS; k++) {
        v[k] = Py_XNewRef(PyDict_GetItemString(dict, keys[k]));
    }
    int rc = -1;
    if (parse_typestr(v[TYPESTR], out) == 0 && cj_cai_set_layout(v[SHAPE], v[STRIDES], out) == 0 &&
        parse_data(v[DATA], out) == 0 && parse_stream(v[STREAM], out) == 0) {
        rc = 0;
    }
    for (int k = 0; k < NKEYS; k++) {
        Py_XDECREF(v[k]);
    }
    return rc < 0 ? -1 : cj_cai_check_data(out);
}

int cj_cai_parse(PyObject *obj, cj_cai *out) {
    PyObject *dict = PyObject_GetAttrString(obj, "__cuda_array_interface__"); /* new */
    if (dict == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%.100s is not a CUDA array (no __cuda_array_interface__)",
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    int rc = cj_cai_parse_dict(dict, out);
    Py_DECREF(dict);
    return rc;
}

PyArray_Descr *cj_cai_dtype(const cj_cai *cai) {
    int num = -1;
    switch (cai->kind) {
    case 'b': num = NPY_BOOL; break;
    case 'i':
        num = cai->itemsize == 1   ? NPY_INT8
              : cai->itemsize == 2 ? NPY_INT16
              : cai->itemsize == 4 ? NPY_INT32
                                   : NPY_INT64;
        break;
    case 'u':
        num = cai->itemsize == 1   ? NPY_UINT8
              : cai->itemsize == 2 ? NPY_UINT16
              : cai->itemsize == 4 ? NPY_UINT32
                                   : NPY_UINT64;
        break;
    case 'f':
        num = cai->itemsize == 2 ? NPY_HALF : cai->itemsize == 4 ? NPY_FLOAT32 : NPY_FLOAT64;
        break;
    case 'c': num = cai->itemsize == 8 ? NPY_COMPLEX64 : NPY_COMPLEX128; break;
    default: CJ_UNREACHABLE("unvalidated typestr kind"); return NULL;
    }
    return PyArray_DescrFromType(num);
}

/* _core.cai_parse(obj_or_dict) -> dict of the normalised fields (tests and diagnostics). */
static PyObject *py_cai_parse(PyObject *self, PyObject *obj) {
    cj_cai cai;
    if ((PyDict_Check(obj) ? cj_cai_parse_dict(obj, &cai) : cj_cai_parse(obj, &cai)) < 0) {
        return NULL;
    }
    PyObject *shape = PyTuple_New(cai.ndim), *strides = PyTuple_New(cai.ndim);
    if (shape == NULL || strides == NULL) {
        Py_XDECREF(shape);
        Py_XDECREF(strides);
        return NULL;
    }
    for (int i = 0; i < cai.ndim; i++) {
        PyObject *n = PyLong_FromSsize_t(cai.shape[i]), *s = PyLong_FromSsize_t(cai.strides[i]);
        if (n == NULL || s == NULL) {
            Py_XDECREF(n);
            Py_XDECREF(s);
            Py_DECREF(shape);
            Py_DECREF(strides);
            return NULL;
        }
        PyTuple_SET_ITEM(shape, i, n); /* steals */
        PyTuple_SET_ITEM(strides, i, s);
    }
    PyObject *stream = cai.has_stream ? PyLong_FromSize_t(cai.stream) : Py_NewRef(Py_None);
    return Py_BuildValue("{s:K,s:N,s:N,s:s,s:i,s:O,s:N,s:i,s:n}", "data",
                         (unsigned long long)cai.data, "shape", shape, "strides", strides,
                         "typestr", cai.typestr, "itemsize", cai.itemsize, "readonly",
                         cai.readonly ? Py_True : Py_False, "stream", stream, "version",
                         cai.version, "size", cai.size);
}

static PyMethodDef cai_functions[] = {
    {"cai_parse", py_cai_parse, METH_O,
     "Validates a __cuda_array_interface__ (an object or the dict) and returns its fields."},
    {NULL, NULL, 0, NULL},
};

int cj_cai_init(PyObject *module) {
    return PyModule_AddFunctions(module, cai_functions);
}
