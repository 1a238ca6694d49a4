/* pytype.c: the Signature object and the _core functions cujit.types builds its classes on
 * (interned constructors, typeof, type_by_name). The Type objects themselves, and the map
 * between C types and cujit.types' classes, are pyclass.c's. */
#include "types/types.h"
#include "util/npy.h"

PyTypeObject *cj_SignatureType;

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
    const cj_type *ret = NULL;
    if (ret_obj != Py_None && (ret = cj_type_from_py_checked(ret_obj, "return type")) == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(arg_tuple);
    if (n > CJ_MAX_ARGS) {
        PyErr_Format(PyExc_ValueError, "a signature takes at most %d arguments", CJ_MAX_ARGS);
        return NULL;
    }
    const cj_type *items[CJ_MAX_ARGS];
    for (Py_ssize_t i = 0; i < n; i++) {
        char what[48];
        PyOS_snprintf(what, sizeof(what), "argument %zd of the signature", i);
        if ((items[i] = cj_type_from_py_checked(PyTuple_GET_ITEM(arg_tuple, i), what)) == NULL) {
            return NULL;
        }
    }
    return cj_signature_new(ret, (int)n, items);
}

/* The Type object of `t` (new reference), or NULL with the exception of a failed making. */
static PyObject *new_ref_to_py(const cj_type *t) {
    return Py_XNewRef(t ? cj_type_to_py(t) : NULL);
}

/* The C types of the Type objects `objs`: 1, 0 when one is a type only Python knows (the
 * caller answers None: cujit.types makes a Python-only type), -1 + TypeError on a non-type. */
static int types_of(PyObject *const *objs, Py_ssize_t n, const cj_type **out, const char *fn) {
    int known = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyObject_TypeCheck(objs[i], cj_TypeType)) {
            PyErr_Format(PyExc_TypeError, "%s takes cujit types, not %.200s", fn,
                         Py_TYPE(objs[i])->tp_name);
            return -1;
        }
        out[i] = cj_type_from_py(objs[i]);
        known = known && out[i] != NULL;
    }
    return known;
}

/* _core.tuple_type(items): the interned tuple type, or None if an item is Python-only. */
static PyObject *make_tuple_type(PyObject *module, PyObject *items) {
    if (!PyTuple_Check(items) || PyTuple_GET_SIZE(items) > 256) {
        PyErr_SetString(PyExc_TypeError, "tuple_type takes a tuple of at most 256 types");
        return NULL;
    }
    const cj_type *types[256];
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    int known = types_of(&PyTuple_GET_ITEM(items, 0), n, types, "tuple_type");
    if (known <= 0) {
        return known < 0 ? NULL : Py_NewRef(Py_None);
    }
    return new_ref_to_py(cj_type_tuple((int)n, types));
}

static PyObject *py_typeof(PyObject *module, PyObject *value) {
    return new_ref_to_py(cj_typeof(value));
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
    return new_ref_to_py(t);
}

/* _core.array_type(dtype, ndim, layout, readonly): None when the compiler has no arrays of
 * `dtype` (cujit.types then makes a Python-only Array). */
static PyObject *py_array_type(PyObject *module, PyObject *args) {
    PyObject *dtype_obj;
    int ndim, readonly = 0;
    const char *layout;
    if (!PyArg_ParseTuple(args, "Ois|p:array_type", &dtype_obj, &ndim, &layout, &readonly)) {
        return NULL;
    }
    const cj_type *dtype;
    int known = types_of(&dtype_obj, 1, &dtype, "array_type");
    if (known < 0) {
        return NULL;
    }
    if (strlen(layout) != 1 || !strchr("CFA", layout[0])) {
        PyErr_SetString(PyExc_ValueError, "layout must be 'C', 'F' or 'A'");
        return NULL;
    }
    if (!known || (!cj_type_is_number(dtype) && dtype->kind != CJ_RECORD)) {
        Py_RETURN_NONE;
    }
    return new_ref_to_py(cj_type_array(dtype, ndim, layout[0], readonly));
}

/* _core.object_type(kind, obj): kind "omitted" (an argument's default), "object" (a
 * compile-time object: module, function, dispatcher, class, str). */
static PyObject *py_object_type(PyObject *module, PyObject *args) {
    const char *kind;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "sO:object_type", &kind, &obj)) {
        return NULL;
    }
    if (strcmp(kind, "omitted") == 0) {
        return new_ref_to_py(cj_type_omitted(obj));
    }
    if (strcmp(kind, "object") == 0) {
        return new_ref_to_py(cj_type_const_obj(obj));
    }
    PyErr_Format(PyExc_ValueError, "object_type: unknown kind %s", kind);
    return NULL;
}

/* _core.slice_type(members) and _core.range_type(): numba's slice2/3_type and range_state. */
static PyObject *py_slice_type(PyObject *module, PyObject *members) {
    long n = PyLong_Check(members) ? PyLong_AsLong(members) : -1;
    if (n != 2 && n != 3) {
        PyErr_SetString(PyExc_ValueError, "a slice type has 2 or 3 members");
        return NULL;
    }
    return new_ref_to_py(cj_type_slice((int)n));
}

/* _core.optional_type(t): OptionalType(t), or None where the compiler has no such type (t
 * none, an Optional, a type only Python knows, one no Optional holds): cujit.types then
 * makes (or refuses) a Python-only Optional. */
static PyObject *py_optional_type(PyObject *module, PyObject *obj) {
    const cj_type *t = cj_type_from_py(obj);
    if (t == NULL || t->kind == CJ_NONE || t->kind == CJ_OPTIONAL || t->kind == CJ_VOID) {
        Py_RETURN_NONE;
    }
    const cj_type *opt = cj_type_optional(t);
    if (opt == NULL) {
        PyErr_Clear(); /* no compiled Optional of this type: a Python-only one */
        Py_RETURN_NONE;
    }
    return new_ref_to_py(opt);
}

static PyObject *py_range_type(PyObject *module, PyObject *unused) {
    return new_ref_to_py(cj_type_range(0));
}

/* _core.cpointer_type(dtype or None): CPointer(dtype) or voidptr; None when `dtype` is not
 * a number (cujit.types then makes a Python-only CPointer). */
static PyObject *py_cpointer_type(PyObject *module, PyObject *dtype_obj) {
    const cj_type *dtype = NULL;
    if (dtype_obj != Py_None) {
        int known = types_of(&dtype_obj, 1, &dtype, "cpointer_type");
        if (known <= 0 || !cj_type_is_number(dtype)) {
            return known < 0 ? NULL : Py_NewRef(Py_None);
        }
    }
    return new_ref_to_py(cj_type_cpointer(dtype));
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
    {"object_type", py_object_type, METH_VARARGS, "object_type(kind, obj) -> object type"},
    {"slice_type", py_slice_type, METH_O, "slice_type(members) -> slice<a:b> / slice<a:b:c>"},
    {"optional_type", py_optional_type, METH_O, "optional_type(t) -> OptionalType(t) or None"},
    {"range_type", py_range_type, METH_NOARGS, "range_type() -> range_state64"},
    {"cpointer_type", py_cpointer_type, METH_O, "cpointer_type(dtype) -> float32* (None: void*)"},
    {"register_type_factory", cj_register_type_factory, METH_O,
     "register_type_factory(fn): cujit.types' map from C types to its classes"},
    {"can_convert", (PyCFunction)(void (*)(void))cj_can_convert_py, METH_FASTCALL,
     "can_convert(from_type, to_type) -> 'exact', 'promote', 'safe', 'unsafe' or None"},
    {NULL},
};

int cj_pytype_init(PyObject *module) {
    cj_TypeType = cj_type_class_new();
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
