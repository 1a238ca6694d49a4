/* pytype.c: the Python-facing Type and Signature objects.
 * One Type object per interned type, so identity is equality. `float64(float64, int32)` makes a
 * Signature; `float32[:, ::1]` makes an array type; `float64(3)` casts a Python value. */
#include "types/types.h"

#include <structmember.h>

#include "util/npy.h"

PyTypeObject *cj_TypeType;
PyTypeObject *cj_SignatureType;

typedef struct {
    PyObject_HEAD
    const cj_type *type;
} cj_type_obj;

PyObject *cj_type_to_py(const cj_type *t) {
    if (t->pyobj == NULL) {
        cj_type_obj *o = PyObject_New(cj_type_obj, cj_TypeType);
        if (o == NULL) {
            return NULL;
        }
        o->type = t;
        ((cj_type *)t)->pyobj = (PyObject *)o; /* owned by the type, for the process */
    }
    return t->pyobj;
}

PyObject *cj_types_tuple(const cj_type *const *items, int n) {
    PyObject *tup = PyTuple_New(n);
    for (int i = 0; tup != NULL && i < n; i++) {
        PyObject *item = cj_type_to_py(items[i]);
        if (item == NULL) {
            Py_CLEAR(tup);
            break;
        }
        PyTuple_SET_ITEM(tup, i, Py_NewRef(item));
    }
    return tup;
}

const cj_type *cj_type_from_py(PyObject *obj) {
    if (Py_IS_TYPE(obj, cj_TypeType)) {
        return ((cj_type_obj *)obj)->type;
    }
    return NULL;
}

static PyObject *type_repr(PyObject *self) {
    return PyUnicode_FromString(((cj_type_obj *)self)->type->name);
}

/* A NumPy scalar of this type holding `value`, as numba's `float32(x)` outside jit. */
static PyObject *cast_value(const cj_type *t, PyObject *value) {
    char code = cj_type_npy_char(t);
    if (code == 0) {
        PyErr_Format(PyExc_TypeError, "cannot cast a value to %s", t->name);
        return NULL;
    }
    char spec[2] = {code, 0};
    PyObject *dtype_name = PyUnicode_FromString(spec);
    if (dtype_name == NULL) {
        return NULL;
    }
    PyArray_Descr *d = NULL;
    int ok = PyArray_DescrConverter(dtype_name, &d);
    Py_DECREF(dtype_name);
    if (!ok) {
        return NULL;
    }
    PyObject *scalar_type = (PyObject *)d->typeobj;
    Py_INCREF(scalar_type);
    Py_DECREF(d);
    PyObject *result = PyObject_CallOneArg(scalar_type, value);
    Py_DECREF(scalar_type);
    return result;
}

static PyObject *type_call(PyObject *self, PyObject *args, PyObject *kwargs) {
    const cj_type *t = ((cj_type_obj *)self)->type;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0) {
        PyErr_SetString(PyExc_TypeError, "types take no keyword arguments");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    int all_types = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        all_types = all_types && cj_type_from_py(PyTuple_GET_ITEM(args, i)) != NULL;
    }
    if (n == 1 && !all_types) {
        return cast_value(t, PyTuple_GET_ITEM(args, 0));
    }
    if (!all_types) {
        PyErr_Format(PyExc_TypeError,
                     "%s(...) takes types to make a signature, or one value to cast", t->name);
        return NULL;
    }
    const cj_type *items[CJ_MAX_ARGS];
    if (n > CJ_MAX_ARGS) {
        PyErr_Format(PyExc_ValueError, "a signature takes at most %d arguments", CJ_MAX_ARGS);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        items[i] = cj_type_from_py(PyTuple_GET_ITEM(args, i));
    }
    return cj_signature_new(t, (int)n, items);
}

/* Layout of one slice in an array spec: 1 for `::1`, 0 for `:`, -1 if not a bare slice. */
static int slice_kind(PyObject *s) {
    if (!PySlice_Check(s)) {
        return -1;
    }
    PySliceObject *sl = (PySliceObject *)s;
    if (sl->start != Py_None || sl->stop != Py_None) {
        return -1;
    }
    if (sl->step == Py_None) {
        return 0;
    }
    if (PyLong_Check(sl->step) && PyLong_AsLong(sl->step) == 1) {
        return 1;
    }
    return -1;
}

/* float32[:, ::1] -> array(float32, 2d, C); the `::1` first means F, last means C. */
static PyObject *type_getitem(PyObject *self, PyObject *key) {
    const cj_type *dtype = ((cj_type_obj *)self)->type;
    if (!cj_type_is_number(dtype) && dtype->kind != CJ_RECORD) {
        PyErr_Format(PyExc_TypeError, "cannot make an array of %s", dtype->name);
        return NULL;
    }
    PyObject *parts = PyTuple_Check(key) ? key : NULL;
    Py_ssize_t ndim = parts ? PyTuple_GET_SIZE(parts) : 1;
    if (ndim < 1 || ndim > 32) {
        PyErr_SetString(PyExc_TypeError, "array type needs 1 to 32 slices");
        return NULL;
    }
    int contiguous_at = -1;
    for (Py_ssize_t i = 0; i < ndim; i++) {
        int kind = slice_kind(parts ? PyTuple_GET_ITEM(parts, i) : key);
        if (kind < 0) {
            PyErr_SetString(PyExc_TypeError,
                            "array type spec takes only ':' and '::1' (as in float32[:, ::1])");
            return NULL;
        }
        if (kind == 1) {
            if (contiguous_at >= 0) {
                PyErr_SetString(PyExc_TypeError, "only one '::1' is allowed in an array type");
                return NULL;
            }
            contiguous_at = (int)i;
        }
    }
    char layout = 'A';
    if (contiguous_at == ndim - 1) {
        layout = 'C';
    } else if (contiguous_at == 0) {
        layout = 'F';
    } else if (contiguous_at > 0) {
        PyErr_SetString(PyExc_TypeError, "'::1' must be on the first or last dimension");
        return NULL;
    }
    const cj_type *t = cj_type_array(dtype, (int)ndim, layout, 0);
    if (t == NULL) {
        return NULL;
    }
    PyObject *o = cj_type_to_py(t);
    Py_XINCREF(o);
    return o;
}

static PyObject *type_get_name(PyObject *self, void *closure) {
    return PyUnicode_FromString(((cj_type_obj *)self)->type->name);
}

static PyObject *type_get_bitwidth(PyObject *self, void *closure) {
    const cj_type *t = ((cj_type_obj *)self)->type;
    if (t->kind == CJ_BOOL) {
        return PyLong_FromLong(8);
    }
    if (t->kind != CJ_INT && t->kind != CJ_FLOAT && t->kind != CJ_COMPLEX) {
        PyErr_Format(PyExc_AttributeError, "%s has no bitwidth", t->name);
        return NULL;
    }
    return PyLong_FromLong(t->bits);
}

static PyObject *array_attr_check(const cj_type *t) {
    if (t->kind != CJ_ARRAY) {
        PyErr_Format(PyExc_AttributeError, "%s is not an array type", t->name);
    }
    return NULL;
}

static PyObject *type_get_ndim(PyObject *self, void *closure) {
    const cj_type *t = ((cj_type_obj *)self)->type;
    return t->kind == CJ_ARRAY ? PyLong_FromLong(t->ndim) : array_attr_check(t);
}

static PyObject *type_get_layout(PyObject *self, void *closure) {
    const cj_type *t = ((cj_type_obj *)self)->type;
    return t->kind == CJ_ARRAY ? PyUnicode_FromStringAndSize(&t->layout, 1)
                               : array_attr_check(t);
}

static PyObject *type_get_dtype(PyObject *self, void *closure) {
    const cj_type *t = ((cj_type_obj *)self)->type;
    if (t->kind == CJ_RECORD) { /* numba's Record.dtype: the NumPy dtype */
        return Py_NewRef(t->obj);
    }
    if (t->kind != CJ_ARRAY) {
        return array_attr_check(t);
    }
    PyObject *o = cj_type_to_py(t->dtype);
    Py_XINCREF(o);
    return o;
}

static PyObject *type_get_mutable(PyObject *self, void *closure) {
    const cj_type *t = ((cj_type_obj *)self)->type;
    return t->kind == CJ_ARRAY ? PyBool_FromLong(!t->readonly) : array_attr_check(t);
}

static PyObject *type_get_types(PyObject *self, void *closure) {
    const cj_type *t = ((cj_type_obj *)self)->type;
    if (t->kind != CJ_TUPLE) {
        PyErr_Format(PyExc_AttributeError, "%s is not a tuple type", t->name);
        return NULL;
    }
    return cj_types_tuple((const cj_type *const *)t->items, t->n);
}

static PyObject *type_reduce(PyObject *self, PyObject *unused) {
    /* pickled by name through cujit.types (scalars and arrays are enough for caching keys) */
    return PyUnicode_FromString(((cj_type_obj *)self)->type->name);
}

static PyGetSetDef type_getset[] = {
    {"name", type_get_name, NULL, "numba's name of the type", NULL},
    {"bitwidth", type_get_bitwidth, NULL, "bits of a number type", NULL},
    {"ndim", type_get_ndim, NULL, "dimensions of an array type", NULL},
    {"layout", type_get_layout, NULL, "'C', 'F' or 'A' for an array type", NULL},
    {"dtype", type_get_dtype, NULL, "element type of an array type; a record's NumPy dtype",
     NULL},
    {"mutable", type_get_mutable, NULL, "whether an array type is writable", NULL},
    {"types", type_get_types, NULL, "item types of a tuple type", NULL},
    {NULL},
};

static PyMethodDef type_methods[] = {
    {"__reduce__", type_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot type_slots[] = {
    {Py_tp_repr, type_repr},
    {Py_tp_str, type_repr},
    {Py_tp_call, type_call},
    {Py_mp_subscript, type_getitem},
    {Py_tp_getset, type_getset},
    {Py_tp_methods, type_methods},
    {Py_tp_doc, "A cujit type (numba's names): int64, float32[:, ::1], UniTuple(...)."},
    {0, NULL},
};

static PyType_Spec type_spec = {
    .name = "cujit.Type",
    .basicsize = sizeof(cj_type_obj),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = type_slots,
};

/* ---- Signature ---- */

PyObject *cj_signature_new(const cj_type *ret, int nargs, const cj_type *const *args) {
    cj_signature_obj *s = PyObject_New(cj_signature_obj, cj_SignatureType);
    if (s == NULL) {
        return NULL;
    }
    s->ret = ret;
    s->nargs = nargs;
    s->args = PyMem_Malloc(sizeof(cj_type *) * (size_t)(nargs ? nargs : 1));
    if (s->args == NULL) {
        s->nargs = 0;
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < nargs; i++) {
        s->args[i] = args[i];
    }
    return (PyObject *)s;
}

static void signature_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyMem_Free(((cj_signature_obj *)self)->args);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *signature_repr(PyObject *self) {
    cj_signature_obj *s = (cj_signature_obj *)self;
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    for (int i = 0; i < s->nargs; i++) {
        PyObject *name = PyUnicode_FromString(s->args[i]->name);
        if (name == NULL || PyList_Append(parts, name) < 0) {
            Py_XDECREF(name);
            Py_DECREF(parts);
            return NULL;
        }
        Py_DECREF(name);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    if (joined == NULL) {
        return NULL;
    }
    PyObject *r;
    if (s->ret) {
        r = PyUnicode_FromFormat("%s(%U)", s->ret->name, joined);
    } else {
        r = PyUnicode_FromFormat("(%U)", joined);
    }
    Py_DECREF(joined);
    return r;
}

static PyObject *signature_get_return(PyObject *self, void *closure) {
    cj_signature_obj *s = (cj_signature_obj *)self;
    if (s->ret == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *o = cj_type_to_py(s->ret);
    Py_XINCREF(o);
    return o;
}

static PyObject *signature_get_args(PyObject *self, void *closure) {
    cj_signature_obj *s = (cj_signature_obj *)self;
    return cj_types_tuple(s->args, s->nargs);
}

static PyObject *signature_richcompare(PyObject *a, PyObject *b, int op) {
    if (!PyObject_TypeCheck(b, cj_SignatureType) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    cj_signature_obj *x = (cj_signature_obj *)a, *y = (cj_signature_obj *)b;
    int eq = x->ret == y->ret && x->nargs == y->nargs;
    for (int i = 0; eq && i < x->nargs; i++) {
        eq = x->args[i] == y->args[i];
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t signature_hash(PyObject *self) {
    cj_signature_obj *s = (cj_signature_obj *)self;
    Py_uhash_t h = (Py_uhash_t)(uintptr_t)s->ret;
    for (int i = 0; i < s->nargs; i++) {
        h = h * 1000003u ^ (Py_uhash_t)(uintptr_t)s->args[i];
    }
    return h == (Py_uhash_t)-1 ? -2 : (Py_hash_t)h;
}

static PyGetSetDef signature_getset[] = {
    {"return_type", signature_get_return, NULL, "the return type, or None", NULL},
    {"args", signature_get_args, NULL, "the argument types", NULL},
    {NULL},
};

static PyType_Slot signature_slots[] = {
    {Py_tp_dealloc, signature_dealloc},
    {Py_tp_repr, signature_repr},
    {Py_tp_str, signature_repr},
    {Py_tp_richcompare, signature_richcompare},
    {Py_tp_hash, signature_hash},
    {Py_tp_getset, signature_getset},
    {Py_tp_doc, "A function signature: return type and argument types."},
    {0, NULL},
};

static PyType_Spec signature_spec = {
    .name = "cujit.Signature",
    .basicsize = sizeof(cj_signature_obj),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = signature_slots,
};

/* _core.make_signature(ret_or_None, args_tuple) for the Python layer's signature parsing. */
static PyObject *make_signature(PyObject *module, PyObject *args) {
    PyObject *ret_obj, *arg_tuple;
    if (!PyArg_ParseTuple(args, "OO!:make_signature", &ret_obj, &PyTuple_Type, &arg_tuple)) {
        return NULL;
    }
    const cj_type *ret = ret_obj == Py_None ? NULL : cj_type_from_py(ret_obj);
    if (ret_obj != Py_None && ret == NULL) {
        PyErr_SetString(PyExc_TypeError, "return type must be a cujit type or None");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(arg_tuple);
    if (n > CJ_MAX_ARGS) {
        PyErr_Format(PyExc_ValueError, "a signature takes at most %d arguments", CJ_MAX_ARGS);
        return NULL;
    }
    const cj_type *items[CJ_MAX_ARGS];
    for (Py_ssize_t i = 0; i < n; i++) {
        items[i] = cj_type_from_py(PyTuple_GET_ITEM(arg_tuple, i));
        if (items[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "argument %zd of the signature is not a cujit type",
                         i);
            return NULL;
        }
    }
    return cj_signature_new(ret, (int)n, items);
}

/* _core.tuple_type(items) / _core.typeof(value) / _core.type_by_name(name) */
static PyObject *make_tuple_type(PyObject *module, PyObject *items) {
    if (!PyTuple_Check(items) || PyTuple_GET_SIZE(items) > 256) {
        PyErr_SetString(PyExc_TypeError, "tuple_type takes a tuple of at most 256 types");
        return NULL;
    }
    const cj_type *types[256];
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    for (Py_ssize_t i = 0; i < n; i++) {
        types[i] = cj_type_from_py(PyTuple_GET_ITEM(items, i));
        if (types[i] == NULL) {
            PyErr_SetString(PyExc_TypeError, "tuple_type takes cujit types");
            return NULL;
        }
    }
    const cj_type *t = cj_type_tuple((int)n, types);
    PyObject *o = t ? cj_type_to_py(t) : NULL;
    Py_XINCREF(o);
    return o;
}

static PyObject *py_typeof(PyObject *module, PyObject *value) {
    const cj_type *t = cj_typeof(value);
    PyObject *o = t ? cj_type_to_py(t) : NULL;
    Py_XINCREF(o);
    return o;
}

static PyObject *py_type_by_name(PyObject *module, PyObject *name) {
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    const cj_type *t = s ? cj_type_by_name(s) : NULL;
    if (t == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_KeyError, "no cujit type named %R", name);
        }
        return NULL;
    }
    PyObject *o = cj_type_to_py(t);
    Py_XINCREF(o);
    return o;
}

static PyObject *py_array_type(PyObject *module, PyObject *args) {
    PyObject *dtype_obj;
    int ndim, readonly = 0;
    const char *layout;
    if (!PyArg_ParseTuple(args, "Ois|p:array_type", &dtype_obj, &ndim, &layout, &readonly)) {
        return NULL;
    }
    const cj_type *dtype = cj_type_from_py(dtype_obj);
    if (dtype == NULL || (!cj_type_is_number(dtype) && dtype->kind != CJ_RECORD)) {
        PyErr_SetString(PyExc_TypeError, "array dtype must be a cujit number or record type");
        return NULL;
    }
    if (strlen(layout) != 1 || !strchr("CFA", layout[0])) {
        PyErr_SetString(PyExc_ValueError, "layout must be 'C', 'F' or 'A'");
        return NULL;
    }
    const cj_type *t = cj_type_array(dtype, ndim, layout[0], readonly);
    PyObject *o = t ? cj_type_to_py(t) : NULL;
    Py_XINCREF(o);
    return o;
}

/* numba.np.numpy_support.from_dtype: the cujit type of a NumPy dtype (records too). */
static PyObject *py_from_dtype(PyObject *module, PyObject *obj) {
    PyArray_Descr *d = NULL;
    if (!PyArray_DescrConverter(obj, &d)) {
        return NULL;
    }
    const cj_type *t = cj_type_from_descr((PyObject *)d);
    if (t == NULL && !PyErr_Occurred()) {
        PyErr_Format(cj_UnsupportedError, "unsupported array dtype: %R", (PyObject *)d);
    }
    Py_DECREF(d);
    PyObject *o = t ? cj_type_to_py(t) : NULL;
    Py_XINCREF(o);
    return o;
}

static PyMethodDef pytype_functions[] = {
    {"from_dtype", py_from_dtype, METH_O, "from_dtype(dtype) -> the cujit type of a dtype"},
    {"make_signature", make_signature, METH_VARARGS, "make_signature(ret, args) -> Signature"},
    {"tuple_type", make_tuple_type, METH_O, "tuple_type(types) -> Tuple/UniTuple type"},
    {"array_type", py_array_type, METH_VARARGS, "array_type(dtype, ndim, layout, readonly)"},
    {"typeof", py_typeof, METH_O, "typeof(value) -> the cujit type of a Python value"},
    {"type_by_name", py_type_by_name, METH_O, "type_by_name(name) -> scalar type"},
    {"can_convert", (PyCFunction)(void (*)(void))cj_can_convert_py, METH_FASTCALL,
     "can_convert(from_type, to_type) -> 'exact', 'promote', 'safe', 'unsafe' or None"},
    {NULL},
};

int cj_pytype_init(PyObject *module) {
    cj_TypeType = (PyTypeObject *)PyType_FromSpec(&type_spec);
    if (cj_TypeType == NULL) {
        return -1;
    }
    cj_SignatureType = (PyTypeObject *)PyType_FromSpec(&signature_spec);
    if (cj_SignatureType == NULL) {
        return -1;
    }
    Py_INCREF(cj_TypeType);
    Py_INCREF(cj_SignatureType);
    if (PyModule_AddObject(module, "Type", (PyObject *)cj_TypeType) < 0 ||
        PyModule_AddObject(module, "Signature", (PyObject *)cj_SignatureType) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, pytype_functions);
}
