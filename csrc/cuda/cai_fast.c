/* cai_fast.c: the launch path's reader of CuPy arrays and PyTorch CUDA tensors. Their
 * __cuda_array_interface__ builds a dict on every access (CuPy also asks for its current
 * stream), which costs more than the launch itself; their own attributes give the same
 * pointer, shape, strides and dtype. Each is read afresh on every launch (an array resized or
 * freed is seen as it is now) and checked by cai.c's rules. The kind of each argument type is
 * decided once and remembered (a few types, held): a subclass of cupy.ndarray or of
 * torch.Tensor when that module is already imported (never imported here), else neither.
 * A tensor that is not plainly readable (on the CPU, requiring grad, of a dtype NumPy lacks,
 * conjugated) is left to the dict, whose error then names the problem. */
#include "cuda/cuda.h"

enum { KIND_OTHER, KIND_CUPY, KIND_TORCH };

#define KNOWN_TYPES 8
static struct {
    PyTypeObject *type; /* strong */
    int kind;
} known[KNOWN_TYPES];
static int nknown;

static PyObject *torch_dtypes; /* torch.dtype -> typestr (str), built as met */

/* Whether `tp` subclasses `module`.`name`, `module` being imported already; -1 + exception. */
static int subclasses(PyTypeObject *tp, const char *module, const char *name) {
    PyObject *modname = PyUnicode_FromString(module);
    if (modname == NULL) {
        return -1;
    }
    PyObject *mod = PyImport_GetModule(modname); /* new, or NULL when not imported */
    Py_DECREF(modname);
    if (mod == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *cls = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    if (cls == NULL) {
        PyErr_Clear();
        return 0;
    }
    int is = PyType_Check(cls) && PyType_IsSubtype(tp, (PyTypeObject *)cls);
    Py_DECREF(cls);
    return is;
}

static int kind_of(PyTypeObject *tp) {
    for (int i = 0; i < nknown; i++) {
        if (known[i].type == tp) {
            return known[i].kind;
        }
    }
    int cupy = subclasses(tp, "cupy", "ndarray");
    int torch = cupy == 0 ? subclasses(tp, "torch", "Tensor") : 0;
    if (cupy < 0 || torch < 0) {
        return -1;
    }
    int kind = cupy ? KIND_CUPY : torch ? KIND_TORCH : KIND_OTHER;
    if (nknown < KNOWN_TYPES) {
        known[nknown].type = (PyTypeObject *)Py_NewRef((PyObject *)tp);
        known[nknown++].kind = kind;
    }
    return kind;
}

/* obj.name, a new reference or NULL + exception; the names interned once (a launch reads
 * several per argument: making each name's str every time cost as much as the reads) */
static PyObject *attr(PyObject *obj, const char *name) {
    static const char *texts[] = {"dtype", "shape", "strides", "data", "ptr", "is_cuda",
                                  "requires_grad", "is_sparse", "_c_contiguous"};
    static PyObject *interned[sizeof(texts) / sizeof(texts[0])];
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        if (texts[i] == name || strcmp(texts[i], name) == 0) {
            if (interned[i] == NULL && (interned[i] = PyUnicode_InternFromString(name)) == NULL) {
                return NULL;
            }
            return PyObject_GetAttr(obj, interned[i]);
        }
    }
    return PyObject_GetAttrString(obj, name);
}

/* Whether obj.name is True (1), False (0) or anything else (-1, no exception). */
static int flag(PyObject *obj, const char *name) {
    PyObject *v = attr(obj, name);
    int f = v == Py_True ? 1 : v == Py_False ? 0 : -1;
    Py_XDECREF(v);
    PyErr_Clear();
    return f;
}

/* out->data from an int pointer (a new reference, consumed); -1 + exception. */
static int take_pointer(PyObject *ptr, cj_cai *out) {
    if (ptr == NULL) {
        return -1;
    }
    unsigned long long p = PyLong_Check(ptr) ? PyLong_AsUnsignedLongLong(ptr) : 0;
    int bad = !PyLong_Check(ptr) || (p == (unsigned long long)-1 && PyErr_Occurred());
    Py_DECREF(ptr);
    if (bad) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "the array's data pointer is not a device address");
        return -1;
    }
    out->data = (CUdeviceptr)p;
    return 0;
}

/* A CuPy array's strides (a new reference): None, meaning C order, when its own flag says it
 * is C-contiguous (building the strides tuple was a fifth of the read); NULL + exception. */
static PyObject *cupy_strides(PyObject *obj) {
    if (flag(obj, "_c_contiguous") == 1) {
        return Py_NewRef(Py_None);
    }
    return attr(obj, "strides");
}

/* CuPy: dtype (a NumPy dtype), shape and strides (bytes), data.ptr. */
static int read_cupy(PyObject *obj, cj_cai *out) {
    PyObject *dtype = attr(obj, "dtype");
    if (dtype == NULL) {
        return -1;
    }
    int plain = PyArray_DescrCheck(dtype) && strchr("biufc", ((PyArray_Descr *)dtype)->kind);
    char typestr[8] = {0};
    if (plain) { /* "<f8": sizes are 1 to 16, the checks below reject any other */
        PyArray_Descr *d = (PyArray_Descr *)dtype;
        int size = (int)PyDataType_ELSIZE(d);
        typestr[0] = d->byteorder == '>' ? '>' : size == 1 ? '|' : '<';
        typestr[1] = d->kind;
        typestr[2] = (char)('0' + (size >= 10 ? size / 10 : size % 10));
        typestr[3] = size >= 10 ? (char)('0' + size % 10) : '\0';
        plain = size >= 1 && size <= 16;
    }
    Py_DECREF(dtype);
    if (!plain) {
        return 0;
    }
    PyObject *shape = attr(obj, "shape"), *strides = shape ? cupy_strides(obj) : NULL;
    int rc = strides != NULL && cj_cai_set_typestr(typestr, out) == 0 &&
                     cj_cai_set_layout(shape, strides, out) == 0
                 ? 0
                 : -1;
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    PyObject *mem = rc == 0 ? attr(obj, "data") : NULL;
    rc = mem != NULL ? take_pointer(attr(mem, "ptr"), out) : -1;
    Py_XDECREF(mem);
    return rc < 0 ? -1 : 1;
}

/* The typestr of a torch dtype, found by its name and remembered; "" when NumPy has no such
 * type (bfloat16, float8...), NULL with an exception. */
static const char *torch_typestr(PyObject *dtype) {
    static const char *const names[][2] = {
        {"torch.bool", "|b1"},     {"torch.uint8", "|u1"},      {"torch.int8", "|i1"},
        {"torch.int16", "<i2"},    {"torch.int32", "<i4"},      {"torch.int64", "<i8"},
        {"torch.uint16", "<u2"},   {"torch.uint32", "<u4"},     {"torch.uint64", "<u8"},
        {"torch.float16", "<f2"},  {"torch.float32", "<f4"},    {"torch.float64", "<f8"},
        {"torch.complex64", "<c8"}, {"torch.complex128", "<c16"},
    };
    if (torch_dtypes == NULL && (torch_dtypes = PyDict_New()) == NULL) {
        return NULL;
    }
    PyObject *known_str = PyDict_GetItemWithError(torch_dtypes, dtype); /* borrowed */
    if (known_str == NULL) {
        PyObject *name = PyErr_Occurred() ? NULL : PyObject_Str(dtype);
        const char *text = name ? PyUnicode_AsUTF8(name) : NULL;
        const char *typestr = "";
        for (size_t i = 0; text != NULL && i < sizeof(names) / sizeof(names[0]); i++) {
            typestr = strcmp(text, names[i][0]) == 0 ? names[i][1] : typestr;
        }
        known_str = text ? PyUnicode_FromString(typestr) : NULL;
        Py_XDECREF(name);
        if (known_str == NULL || PyDict_SetItem(torch_dtypes, dtype, known_str) < 0) {
            Py_XDECREF(known_str);
            return NULL;
        }
        Py_DECREF(known_str); /* the dict keeps it */
    }
    return PyUnicode_AsUTF8(known_str);
}

/* A tensor's strides in bytes (a new tuple): stride() counts elements. */
static PyObject *torch_strides(PyObject *obj, int itemsize) {
    PyObject *elems = PyObject_CallMethod(obj, "stride", NULL);
    if (elems == NULL || !PyTuple_Check(elems)) {
        Py_XDECREF(elems);
        return PyErr_Occurred() ? NULL : PyTuple_New(0);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(elems);
    PyObject *bytes = PyTuple_New(n);
    for (Py_ssize_t i = 0; bytes != NULL && i < n; i++) {
        long long s = PyLong_AsLongLong(PyTuple_GET_ITEM(elems, i));
        PyObject *b = s == -1 && PyErr_Occurred() ? NULL : PyLong_FromLongLong(s * itemsize);
        if (b == NULL) {
            Py_CLEAR(bytes);
            break;
        }
        PyTuple_SET_ITEM(bytes, i, b);
    }
    Py_DECREF(elems);
    return bytes;
}

/* PyTorch: a CUDA tensor not requiring grad, dense: dtype, shape, stride(), data_ptr(). */
static int read_torch(PyObject *obj, cj_cai *out) {
    if (flag(obj, "is_cuda") != 1 || flag(obj, "requires_grad") != 0 ||
        flag(obj, "is_sparse") != 0) {
        return 0;
    }
    PyObject *dtype = attr(obj, "dtype");
    const char *typestr = dtype ? torch_typestr(dtype) : NULL;
    Py_XDECREF(dtype);
    if (typestr == NULL || typestr[0] == '\0') {
        return typestr == NULL ? -1 : 0;
    }
    if (cj_cai_set_typestr(typestr, out) < 0) {
        return -1;
    }
    PyObject *shape = attr(obj, "shape");
    PyObject *strides = shape ? torch_strides(obj, out->itemsize) : NULL;
    int rc = strides != NULL ? cj_cai_set_layout(shape, strides, out) : -1;
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    if (rc < 0) {
        return -1;
    }
    if (out->size == 0) { /* as its interface: no pointer for no elements */
        out->data = 0;
        return 1;
    }
    return take_pointer(PyObject_CallMethod(obj, "data_ptr", NULL), out) < 0 ? -1 : 1;
}

int cj_cai_fast(PyObject *obj, cj_cai *out) {
    int kind = kind_of(Py_TYPE(obj));
    if (kind <= KIND_OTHER) {
        return kind < 0 ? -1 : 0;
    }
    out->readonly = 0;
    out->has_stream = 0;
    out->stream = 0;
    out->version = kind == KIND_CUPY ? 3 : 2;
    int rc = kind == KIND_CUPY ? read_cupy(obj, out) : read_torch(obj, out);
    return rc == 1 && cj_cai_check_data(out) < 0 ? -1 : rc;
}
