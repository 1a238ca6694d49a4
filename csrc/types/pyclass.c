/* pyclass.c: the one map between interned C types and cujit.types' Python classes.
 * A C type's Python object is an instance of a cujit.types class (Integer, Array, UniTuple, ...)
 * whose C slot points back at the type: made once, on first use, and owned by the type for the
 * process. Python classes subclass _core.Type; an instance whose slot is NULL is a type the
 * compiler does not know (Optional, a CPointer of a record, a user's subclass): using it to
 * compile raises UnsupportedError naming it (the extension API will give such an object a C
 * type by setting its slot). cujit.types registers its factory, which picks the class and
 * the constructor arguments from a kind name and the type's fields (core_fields). */
#include "types/types.h"

PyTypeObject *cj_TypeType;
static PyObject *class_factory; /* cujit.types' _from_core(kind, fields) -> (class, args) */

typedef struct {
    PyObject_HEAD
    const cj_type *type;
} cj_type_obj;

static const char *const iter_kind_names[] = {
    [CJ_ITER_RANGE] = "range", [CJ_ITER_ARRAY] = "array", [CJ_ITER_TUPLE] = "tuple",
    [CJ_ITER_ENUMERATE] = "enumerate", [CJ_ITER_ZIP] = "zip", [CJ_ITER_FLAT] = "flat",
    [CJ_ITER_NDENUMERATE] = "ndenumerate", [CJ_ITER_NDINDEX] = "ndindex",
    [CJ_ITER_LIST] = "list", [CJ_ITER_UNICODE] = "unicode", [CJ_ITER_DICT_KEYS] = "dict_keys",
    [CJ_ITER_SET] = "set",
    [CJ_ITER_DICT_VALUES] = "dict_values", [CJ_ITER_DICT_ITEMS] = "dict_items",
    [CJ_ITER_GENERATOR] = "generator",
};

static PyObject *py_or_none(const cj_type *t) {
    PyObject *o = t ? cj_type_to_py(t) : Py_None;
    return Py_XNewRef(o);
}

/* (kind name, fields) of `t` for the factory (new reference). */
static PyObject *core_fields(const cj_type *t) {
    switch (t->kind) {
    case CJ_NONE:
        return Py_BuildValue("(s())", "none");
    case CJ_VOID:
        return Py_BuildValue("(s())", "void");
    case CJ_UNICODE:
        return Py_BuildValue("(s())", "unicode");
    case CJ_BOOL:
        return Py_BuildValue("(s())", "bool");
    case CJ_INT:
        return Py_BuildValue("(s(iO))", "int", t->bits, t->is_signed ? Py_True : Py_False);
    case CJ_FLOAT:
        return Py_BuildValue("(s(i))", "float", t->bits);
    case CJ_COMPLEX:
        return Py_BuildValue("(s(i))", "complex", t->bits);
    case CJ_ARRAY:
        return Py_BuildValue("(s(NiCO))", "array", py_or_none(t->dtype), t->ndim, (int)t->layout,
                             t->readonly ? Py_True : Py_False);
    case CJ_TUPLE:
        return Py_BuildValue("(s(N))", "tuple", cj_types_tuple(t->items, t->n));
    case CJ_SLICE:
        return Py_BuildValue("(s(i))", "slice", t->n);
    case CJ_RANGE:
        return Py_BuildValue("(s(O))", "range", t->step_one ? Py_True : Py_False);
    case CJ_ITER:
        return Py_BuildValue("(s(sNNN))", "iter", iter_kind_names[t->iter_kind],
                             py_or_none(t->yield), py_or_none(t->source),
                             cj_types_tuple(t->items, t->items ? t->n : 0));
    case CJ_OMITTED:
        return Py_BuildValue("(s(O))", "omitted", t->obj);
    case CJ_CONST_OBJ:
        return Py_BuildValue("(s(O))", "object", t->obj);
    case CJ_BOUND:
        return Py_BuildValue("(s(NO))", "bound", py_or_none(t->source), t->obj);
    case CJ_LIST: /* reflected: 0, 1 (a Python list passed in) or CJ_LIST_TYPED */
        return Py_BuildValue("(s(Nis))", "list", py_or_none(t->dtype), t->reflected, t->name);
    case CJ_RECORD:
        return Py_BuildValue("(s(Os))", "record", t->obj, t->name); /* dtype, numba's name */
    case CJ_OPTIONAL:
        return Py_BuildValue("(s(N))", "optional", py_or_none(t->dtype));
    case CJ_EXT: /* its object is the user's, set when made (extension_type.c) */
        break;
    case CJ_SET: /* element (None: undefined), reflected (a Python set passed in), name */
        return Py_BuildValue("(s(Nis))", "set", py_or_none(t->dtype), t->reflected, t->name);
    case CJ_DICT: /* key, value (None: undefined), numba's name */
        return Py_BuildValue("(s(NNs))", "dict", py_or_none(t->n ? t->items[0] : NULL),
                             py_or_none(t->n ? t->items[1] : NULL), t->name);
    case CJ_CPOINTER: /* the element (None: voidptr) */
        return Py_BuildValue("(s(N))", "cpointer", py_or_none(t->dtype));
    case CJ_GENERATOR: /* the function, what it yields, its argument types */
        return Py_BuildValue("(s(ONN))", "generator", t->obj, py_or_none(t->yield),
                             cj_types_tuple(t->items, t->n));
    }
    PyErr_Format(PyExc_SystemError, "type %s has no Python class", t->name);
    return NULL;
}

static int ensure_factory(void) {
    if (class_factory == NULL) { /* cujit.types registers it on import */
        PyObject *m = PyImport_ImportModule("cujit.core.types");
        Py_XDECREF(m);
        if (m != NULL && class_factory == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "cujit.core.types did not register its classes");
        }
    }
    return class_factory != NULL ? 0 : -1;
}

/* A new instance of the class the factory picks, its slot set, initialised by its
 * _init_from_core(*args) (which runs the class's __init__ with the same arguments). */
static PyObject *make_pyobj(const cj_type *t) {
    PyObject *fields = ensure_factory() == 0 ? core_fields(t) : NULL;
    PyObject *picked = fields ? PyObject_CallObject(class_factory, fields) : NULL;
    Py_XDECREF(fields);
    if (picked == NULL) {
        return NULL;
    }
    PyObject *cls, *args, *obj = NULL;
    if (!PyArg_ParseTuple(picked, "O!O!:_from_core", &PyType_Type, &cls, &PyTuple_Type, &args) ||
        !PyType_IsSubtype((PyTypeObject *)cls, cj_TypeType)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "_from_core must pick a subclass of _core.Type");
        }
        Py_DECREF(picked);
        return NULL;
    }
    obj = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    if (obj != NULL) {
        ((cj_type_obj *)obj)->type = t;
        PyObject *init = PyObject_GetAttrString(obj, "_init_from_core");
        PyObject *r = init ? PyObject_Call(init, args, NULL) : NULL;
        Py_XDECREF(init);
        if (r == NULL) {
            Py_CLEAR(obj);
        }
        Py_XDECREF(r);
    }
    Py_DECREF(picked);
    return obj;
}

PyObject *cj_type_to_py(const cj_type *t) {
    if (t->pyobj == NULL) {
        PyObject *o = make_pyobj(t);
        if (o == NULL) {
            return NULL;
        }
        if (t->pyobj != NULL) { /* made meanwhile by another thread (__init__ ran Python) */
            Py_DECREF(o);
        } else {
            ((cj_type *)t)->pyobj = o; /* owned by the type, for the process */
        }
    }
    return t->pyobj;
}

const cj_type *cj_type_from_py(PyObject *obj) {
    if (PyObject_TypeCheck(obj, cj_TypeType)) {
        const cj_type *t = ((cj_type_obj *)obj)->type;
        if (t == NULL && (t = cj_type_extension_of(obj)) == NULL) { /* a user's, with a model */
            PyErr_Clear(); /* no exception here: the checked variant reports the model's */
        }
        return t;
    }
    return NULL;
}

void cj_type_py_set_slot(PyObject *obj, const cj_type *t) { ((cj_type_obj *)obj)->type = t; }

const cj_type *cj_type_from_py_checked(PyObject *obj, const char *what) {
    int user = PyObject_TypeCheck(obj, cj_TypeType) && ((cj_type_obj *)obj)->type == NULL;
    const cj_type *t = user ? cj_type_extension_of(obj) : cj_type_from_py(obj);
    if (t != NULL || PyErr_Occurred()) {
        return t;
    }
    if (PyObject_TypeCheck(obj, cj_TypeType)) {
        PyErr_Format(cj_UnsupportedError,
                     "%s: type %S (%s) is not supported by cujit's compiler yet", what, obj,
                     Py_TYPE(obj)->tp_name);
    } else {
        PyErr_Format(PyExc_TypeError, "%s: expected a cujit type, got %.200s %R", what,
                     Py_TYPE(obj)->tp_name, obj);
    }
    return NULL;
}

/* ---- the base class: _core.Type ---- */

static PyObject *type_new(PyTypeObject *cls, PyObject *args, PyObject *kwargs) {
    return cls->tp_alloc(cls, 0); /* slot NULL: a type only Python knows */
}

static void type_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *type_get_compiled(PyObject *self, void *closure) {
    return PyBool_FromLong(((cj_type_obj *)self)->type != NULL);
}

static PyGetSetDef type_getset[] = {
    {"_compilable", type_get_compiled, NULL, "whether cujit's compiler knows this type", NULL},
    {NULL},
};

static PyType_Slot type_slots[] = {
    {Py_tp_new, type_new},
    {Py_tp_dealloc, type_dealloc},
    {Py_tp_getset, type_getset},
    {Py_tp_doc, "The C base of cujit.types.Type: holds the interned C type, if any."},
    {0, NULL},
};

static PyType_Spec type_spec = {
    .name = "cujit._core.Type",
    .basicsize = sizeof(cj_type_obj),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = type_slots,
};

PyTypeObject *cj_type_class_new(void) {
    return (PyTypeObject *)PyType_FromSpec(&type_spec);
}

/* _core.register_type_factory(fn): cujit.core.types' _from_core. */
PyObject *cj_register_type_factory(PyObject *module, PyObject *fn) {
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "register_type_factory takes a callable");
        return NULL;
    }
    Py_XSETREF(class_factory, Py_NewRef(fn));
    Py_RETURN_NONE;
}
