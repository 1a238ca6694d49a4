/* extension_type.c: the C types of the low-level extension API (cujit.extending's
 * typeof_impl and register_model). A user's subclass of cujit.types.Type is a Python object
 * with no C type; once its class has a data model, the first use of one of its instances
 * interns a CJ_EXT type for it (keyed by the object: types are interned by identity here, as
 * the user's type objects are), whose members are the model's, and sets the object's C slot,
 * so the object flows through signatures, tuples and typeof like a built-in type.
 * The registry is Python (pkg/cujit/core/lowlevel.py); it gives the core two functions:
 * typeof(value) -> Type or None, unify(a, b) -> Type or None (the types' unify and
 * can_convert_to hooks), and model(type) -> None or (kind, member types), kind
 * "struct", "primitive" (one member: held as that type's LLVM value) or "opaque". */
#include "types/types.h"

#include <string.h>

static PyObject *typeof_hook; /* lowlevel.typeof_value */
static PyObject *model_hook;  /* lowlevel.model_layout */
static PyObject *unify_hook;  /* lowlevel.unify_types */
static int making;            /* nesting of models being made (a model holding itself) */

#define MAX_MEMBERS 64

/* A new CJ_EXT type for `obj` from the model's ("struct", (types...)) or ("opaque", ()). */
static const cj_type *make_type(PyObject *obj, PyObject *layout) {
    const char *kind;
    PyObject *members;
    if (!PyArg_ParseTuple(layout, "sO!:data model", &kind, &PyTuple_Type, &members)) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(members);
    int primitive = strcmp(kind, "primitive") == 0;
    if (n > MAX_MEMBERS || (strcmp(kind, "opaque") == 0) != (n == 0) || (primitive && n != 1)) {
        PyErr_Format(cj_UnsupportedError, "data model of %R: %zd members (a StructModel takes "
                     "1 to %d, a PrimitiveModel 1, an OpaqueModel none)", obj, n, MAX_MEMBERS);
        return NULL;
    }
    const cj_type *items[MAX_MEMBERS];
    for (Py_ssize_t i = 0; i < n; i++) {
        items[i] = cj_type_from_py_checked(PyTuple_GET_ITEM(members, i), "a data model member");
        if (items[i] == NULL) {
            return NULL;
        }
    }
    PyObject *name = PyObject_Str(obj);
    const char *cname = name != NULL ? PyUnicode_AsUTF8(name) : NULL;
    const cj_type *t = NULL;
    if (cname != NULL) {
        char key[64];
        PyOS_snprintf(key, sizeof(key), "extension type %p", (void *)obj);
        cj_type proto = {.kind = CJ_EXT, .n = (int)n, .items = n ? items : NULL, .obj = obj,
                         .name = cname, .bits = primitive ? CJ_EXT_PRIMITIVE : 0};
        t = cj_type_intern(&proto, key);
    }
    Py_XDECREF(name);
    return t;
}

const cj_type *cj_type_extension_of(PyObject *obj) {
    if (model_hook == NULL) {
        return NULL;
    }
    if (making > 16) {
        PyErr_Format(cj_UnsupportedError, "data model of %R nests too deeply (a type holding "
                     "itself?)", obj);
        return NULL;
    }
    making++;
    PyObject *layout = PyObject_CallOneArg(model_hook, obj);
    const cj_type *t = NULL;
    if (layout != NULL && layout != Py_None) {
        t = make_type(obj, layout);
    }
    making--;
    Py_XDECREF(layout);
    if (t != NULL && t->pyobj == NULL) {
        ((cj_type *)t)->pyobj = Py_NewRef(obj); /* owned by the type, for the process */
        cj_type_py_set_slot(obj, t);
    }
    return t;
}

const cj_type *cj_typeof_extension(PyObject *value) {
    if (typeof_hook == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_CallOneArg(typeof_hook, value);
    if (r == NULL || r == Py_None) {
        Py_XDECREF(r);
        return NULL;
    }
    const cj_type *t = cj_type_from_py_checked(r, "typeof_impl");
    Py_DECREF(r);
    return t;
}

const cj_type *cj_unify_extension(const cj_type *a, const cj_type *b) {
    PyObject *pa = unify_hook ? cj_type_to_py(a) : NULL;
    PyObject *pb = pa ? cj_type_to_py(b) : NULL;
    PyObject *r = pb ? PyObject_CallFunctionObjArgs(unify_hook, pa, pb, NULL) : NULL;
    const cj_type *t = r != NULL && r != Py_None ? cj_type_from_py(r) : NULL;
    Py_XDECREF(r);
    PyErr_Clear(); /* unification has no error channel: the caller reports "cannot unify" */
    return t;
}

int cj_type_nests_extension(const cj_type *t) {
    if (t->kind == CJ_LIST && t->dtype != NULL) {
        return t->dtype->kind == CJ_EXT || cj_type_nests_extension(t->dtype);
    }
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        if (t->items[i]->kind == CJ_EXT || cj_type_nests_extension(t->items[i])) {
            return 1;
        }
    }
    return 0;
}

/* _core.set_type_extension_hooks(typeof, model, unify): cujit.extending's low-level
 * registry. */
static PyObject *set_hooks(PyObject *module, PyObject *args) {
    PyObject *typeof_fn, *model_fn, *unify_fn;
    if (!PyArg_ParseTuple(args, "OOO:set_type_extension_hooks", &typeof_fn, &model_fn,
                          &unify_fn)) {
        return NULL;
    }
    if (!PyCallable_Check(typeof_fn) || !PyCallable_Check(model_fn) ||
        !PyCallable_Check(unify_fn)) {
        PyErr_SetString(PyExc_TypeError, "set_type_extension_hooks takes three callables");
        return NULL;
    }
    Py_XSETREF(unify_hook, Py_NewRef(unify_fn));
    Py_XSETREF(typeof_hook, Py_NewRef(typeof_fn));
    Py_XSETREF(model_hook, Py_NewRef(model_fn));
    Py_RETURN_NONE;
}

static PyMethodDef extension_type_methods[] = {
    {"set_type_extension_hooks", set_hooks, METH_VARARGS,
     "set_type_extension_hooks(typeof, model, unify): the low-level API's typing hooks"},
    {NULL},
};

int cj_extension_types_init(PyObject *module) {
    return PyModule_AddFunctions(module, extension_type_methods);
}
