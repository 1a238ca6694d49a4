/* typed_dict.c: the C base of cujit.typed.Dict (numba's typed.Dict), a Python object over a
 * compiled-code dict (abi/dict.c) typed DictType[key,value]. Passed to a compiled function it
 * is the same memory (what the function does, the object sees); a dict a function returns is
 * a new object over that memory. This base gives the mapping primitives (d[k], d[k] = v,
 * del d[k], len, `in`, iteration over a snapshot of the keys, popitem, copy, Dict.empty);
 * pkg/cujit/typed/typeddict.py's Dict subclasses it with collections.abc.MutableMapping for
 * the rest (get, pop, setdefault, update, keys, values, items, ==), as numba's typed.Dict is.
 * Keys and values stored from Python are numbers and tuples of numbers (an array would need
 * the NRT to own a Python object: not yet); arrays compiled code put in are read. */
#include "abi/dict.h"
#include "jit/jit.h"

#include <string.h>

PyTypeObject *cj_TypedDictType;
static PyObject *dict_class; /* the Python subclass results are made as (or NULL) */

#define SELF(o) ((cj_typed_dict_obj *)(o))

/* The key and value bytes as large as they may be from Python (numbers and tuples of them). */
#define MAX_BYTES 2048

static int holds_refs(const cj_type *t) {
    int32_t offs[CJ_LIST_MAX_REFS];
    int n = 0;
    return cj_abi_ref_offsets(t, 0, offs, &n, CJ_LIST_MAX_REFS) < 0 || n > 0;
}

/* Gives an untyped dict its DictType and memory; -1 with an exception. */
static int set_type(cj_typed_dict_obj *self, const cj_type *dt) {
    cj_dict_layout lay;
    if (cj_abi_dict_layout(dt, &lay) < 0 || lay.key_size > MAX_BYTES ||
        lay.val_size > MAX_BYTES) {
        PyErr_Format(PyExc_TypeError, "%s as key is forbidden (cujit.typed.Dict keys are bool, "
                     "integers, floats, complex and tuples of them)", dt->items[0]->name);
        return -1;
    }
    cj_meminfo *mi = cj_dict_new(lay.key_size, lay.val_size, lay.code, lay.ncode, lay.refs,
                                 lay.nkeyrefs, lay.nvalrefs);
    if (mi == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->mi = mi;
    self->type = dt;
    return 0;
}

static PyObject *alloc(PyTypeObject *cls) {
    PyObject *self = cls->tp_alloc(cls, 0);
    if (self != NULL) {
        SELF(self)->mi = NULL;
        SELF(self)->type = NULL;
    }
    return self;
}

PyObject *cj_typed_dict_wrap(cj_meminfo *mi, const cj_type *dt) {
    if (dict_class == NULL) { /* cujit.typed registers its Dict class on import */
        PyObject *m = PyImport_ImportModule("cujit.typed.typeddict");
        if (m == NULL) {
            return NULL;
        }
        Py_DECREF(m);
    }
    PyTypeObject *cls = dict_class ? (PyTypeObject *)dict_class : cj_TypedDictType;
    PyObject *self = alloc(cls);
    if (self != NULL) {
        cj_nrt_incref(mi);
        SELF(self)->mi = mi;
        SELF(self)->type = dt;
    }
    return self;
}

int cj_unbox_typed_dict(PyObject *value, const cj_type *t, void *dst) {
    if (!PyObject_TypeCheck(value, cj_TypedDictType) || SELF(value)->type != t) {
        PyErr_Format(PyExc_TypeError, "expected a cujit.typed.Dict for %s", t->name);
        return -1;
    }
    memcpy(dst, &SELF(value)->mi, sizeof(cj_meminfo *));
    return 0;
}

/* Whether the keys and values of a dict compiled code made fit this file's buffers. */
static int fits(PyObject *self) {
    const cj_type *dt = SELF(self)->type;
    if (cj_abi_size(dt->items[0]) > MAX_BYTES || cj_abi_size(dt->items[1]) > MAX_BYTES) {
        PyErr_Format(PyExc_NotImplementedError, "%s: keys or values of more than %d bytes "
                     "are not handled from Python yet", dt->name, MAX_BYTES);
        return 0;
    }
    return 1;
}

/* `key` as the dict's key bytes at `buf`; -1 with an exception (no type yet: KeyError). */
static int key_bytes(PyObject *self, PyObject *key, char *buf) {
    if (SELF(self)->type == NULL) {
        PyErr_SetObject(PyExc_KeyError, key);
        return -1;
    }
    if (!fits(self)) {
        return -1;
    }
    memset(buf, 0, MAX_BYTES); /* tuple padding compares as bytes nowhere, but is defined */
    return cj_unbox(key, SELF(self)->type->items[0], buf);
}

/* Drops the references a key made by key_bytes holds (a string's) once it was looked up. */
static void drop_key(PyObject *self, const char *buf) {
    const cj_dict *d = SELF(self)->mi->data;
    for (int32_t k = 0; k < d->nkeyrefs; k++) {
        cj_meminfo *held;
        memcpy(&held, buf + d->refs[k] - 8, sizeof(held)); /* refs count from the entry */
        cj_nrt_decref(held);
    }
}

static PyObject *dict_subscript(PyObject *self, PyObject *key) {
    char buf[MAX_BYTES];
    if (key_bytes(self, key, buf) < 0) {
        return NULL;
    }
    const char *v = cj_dict_lookup(SELF(self)->mi, buf);
    drop_key(self, buf);
    if (v == NULL) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    return cj_box(v, SELF(self)->type->items[1]);
}

static int dict_delete(PyObject *self, PyObject *key) {
    char buf[MAX_BYTES];
    if (key_bytes(self, key, buf) < 0) {
        return -1;
    }
    int popped = cj_dict_pop(SELF(self)->mi, buf, NULL);
    drop_key(self, buf);
    if (!popped) {
        PyErr_SetObject(PyExc_KeyError, key);
        return -1;
    }
    return 0;
}

/* The first store of an untyped Dict() types it by its key and value (numba's). */
static int type_from(PyObject *self, PyObject *key, PyObject *value) {
    const cj_type *k = cj_typeof(key), *v = k ? cj_typeof(value) : NULL;
    const cj_type *dt = v ? cj_type_dict(k, v) : NULL;
    return dt == NULL ? -1 : set_type(SELF(self), dt);
}

static int dict_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
    if (value == NULL) {
        return dict_delete(self, key);
    }
    if (SELF(self)->type == NULL && type_from(self, key, value) < 0) {
        return -1;
    }
    const cj_type *vt = SELF(self)->type->items[1];
    if (holds_refs(vt)) {
        PyErr_Format(PyExc_NotImplementedError, "storing %s values into a cujit.typed.Dict "
                     "from Python is not supported yet", vt->name);
        return -1;
    }
    char kbuf[MAX_BYTES], vbuf[MAX_BYTES];
    memset(vbuf, 0, sizeof(vbuf));
    if (key_bytes(self, key, kbuf) < 0 || cj_unbox(value, vt, vbuf) < 0) {
        return -1;
    }
    return cj_dict_insert(SELF(self)->mi, kbuf, vbuf) < 0 ? (PyErr_NoMemory(), -1) : 0;
}

static Py_ssize_t dict_len(PyObject *self) {
    return SELF(self)->mi ? (Py_ssize_t)cj_dict_len(SELF(self)->mi) : 0;
}

static int dict_contains(PyObject *self, PyObject *key) {
    char buf[MAX_BYTES];
    if (SELF(self)->type == NULL) {
        return 0;
    }
    if (key_bytes(self, key, buf) < 0) { /* a key of another type is not in it */
        if (!PyErr_ExceptionMatches(PyExc_TypeError) &&
            !PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return -1;
        }
        PyErr_Clear();
        return 0;
    }
    int found = cj_dict_lookup(SELF(self)->mi, buf) != NULL;
    drop_key(self, buf);
    return found;
}

/* A list of the keys (what = 0), values (1) or (key, value) items (2), in insertion order. */
static PyObject *entries(PyObject *self, int what) {
    PyObject *out = PyList_New(0);
    int64_t pos = 0;
    char *e;
    if (out == NULL || SELF(self)->mi == NULL) {
        return out;
    }
    const cj_type *dt = SELF(self)->type;
    int64_t voff = CJ_DICT_VAL_OFFSET(cj_abi_size(dt->items[0]));
    while ((e = cj_dict_next(SELF(self)->mi, &pos)) != NULL) {
        PyObject *k = what != 1 ? cj_box(e + 8, dt->items[0]) : NULL;
        PyObject *v = what != 0 ? cj_box(e + voff, dt->items[1]) : NULL;
        PyObject *item = what == 0 ? k : what == 1 ? v : (k && v ? PyTuple_Pack(2, k, v) : NULL);
        if (what == 2) {
            Py_XDECREF(k);
            Py_XDECREF(v);
        }
        if (item == NULL || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

static PyObject *dict_iter(PyObject *self) {
    PyObject *keys = entries(self, 0);
    PyObject *it = keys ? PyObject_GetIter(keys) : NULL;
    Py_XDECREF(keys);
    return it;
}

static PyObject *dict_items_list(PyObject *self, PyObject *unused) { return entries(self, 2); }
static PyObject *dict_values_list(PyObject *self, PyObject *unused) { return entries(self, 1); }

static PyObject *dict_popitem(PyObject *self, PyObject *unused) {
    char kbuf[MAX_BYTES], vbuf[MAX_BYTES];
    if (SELF(self)->mi != NULL && !fits(self)) {
        return NULL;
    }
    if (SELF(self)->mi == NULL || !cj_dict_popitem(SELF(self)->mi, kbuf, vbuf)) {
        PyErr_SetString(PyExc_KeyError, "dictionary is empty");
        return NULL;
    }
    const cj_type *dt = SELF(self)->type;
    PyObject *k = cj_box(kbuf, dt->items[0]), *v = k ? cj_box(vbuf, dt->items[1]) : NULL;
    cj_nrt_release_value(vbuf, dt->items[1]); /* the boxes hold their own */
    PyObject *out = v ? PyTuple_Pack(2, k, v) : NULL;
    Py_XDECREF(k);
    Py_XDECREF(v);
    return out;
}

static PyObject *dict_copy(PyObject *self, PyObject *unused) {
    PyObject *out = alloc(Py_TYPE(self));
    if (out == NULL || SELF(self)->mi == NULL) {
        return out;
    }
    cj_meminfo *mi = cj_dict_copy(SELF(self)->mi);
    if (mi == NULL) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    SELF(out)->mi = mi;
    SELF(out)->type = SELF(self)->type;
    return out;
}

/* A cujit type object (or int, float, bool) as a C type; NULL with TypeError. */
static const cj_type *type_arg(PyObject *t) {
    const cj_type *c = cj_type_from_py(t);
    if (c == NULL && !PyErr_Occurred()) {
        c = t == (PyObject *)&PyFloat_Type  ? cj_t_float64
            : t == (PyObject *)&PyLong_Type ? cj_t_int64
            : t == (PyObject *)&PyBool_Type ? cj_t_bool : NULL;
    }
    if (c == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "Dict.empty() takes cujit types, not %R", t);
    }
    return c;
}

static PyObject *dict_empty(PyObject *cls, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"key_type", "value_type", "n_keys", NULL};
    PyObject *kt, *vt;
    Py_ssize_t n_keys = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|n:empty", names, &kt, &vt, &n_keys)) {
        return NULL;
    }
    const cj_type *k = type_arg(kt), *v = k ? type_arg(vt) : NULL;
    const cj_type *dt = v ? cj_type_dict(k, v) : NULL;
    PyObject *self = dt ? alloc((PyTypeObject *)cls) : NULL;
    if (self != NULL && set_type(SELF(self), dt) < 0) {
        Py_CLEAR(self);
    }
    return self;
}

static PyObject *dict_new(PyTypeObject *cls, PyObject *args, PyObject *kwargs) {
    if (PyTuple_GET_SIZE(args) > 0 || (kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0)) {
        PyErr_SetString(PyExc_TypeError, "Dict() takes no arguments (numba's typed.Dict(): "
                                         "types come from the first item stored, or use "
                                         "Dict.empty(key_type, value_type))");
        return NULL;
    }
    return alloc(cls);
}

static void dict_dealloc(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    cj_nrt_decref(SELF(self)->mi);
    type->tp_free(self);
    Py_DECREF(type);
}

static PyObject *dict_type(PyObject *self, void *unused) {
    PyObject *t = SELF(self)->type ? cj_type_to_py(SELF(self)->type) : Py_None;
    return Py_XNewRef(t);
}

/* cujit.typed registers its Dict class: what compiled code's dicts come back as. */
static PyObject *register_class(PyObject *cls, PyObject *sub) {
    if (!PyType_Check(sub) || !PyType_IsSubtype((PyTypeObject *)sub, cj_TypedDictType)) {
        PyErr_SetString(PyExc_TypeError, "expected a subclass of the typed dict base");
        return NULL;
    }
    Py_XSETREF(dict_class, Py_NewRef(sub));
    Py_RETURN_NONE;
}

static PyMethodDef dict_methods[] = {
    {"popitem", dict_popitem, METH_NOARGS, "D.popitem() -> (key, value), the last stored"},
    {"copy", dict_copy, METH_NOARGS, "D.copy(): a new typed dict of the same items"},
    {"_items_list", dict_items_list, METH_NOARGS, "[(key, value), ...] in insertion order"},
    {"_values_list", dict_values_list, METH_NOARGS, "[value, ...] in insertion order"},
    {"empty", (PyCFunction)(void (*)(void))dict_empty,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Dict.empty(key_type, value_type): a new empty dict of those types (numba's)"},
    {"_register", register_class, METH_O | METH_CLASS, "(internal) the Python Dict class"},
    {NULL},
};

static PyGetSetDef dict_getset[] = {
    {"_dict_type", dict_type, NULL, "the DictType (numba's typed.Dict._dict_type)", NULL},
    {NULL},
};

static PyType_Slot dict_slots[] = {
    {Py_tp_new, dict_new},
    {Py_tp_dealloc, dict_dealloc},
    {Py_tp_methods, dict_methods},
    {Py_tp_getset, dict_getset},
    {Py_tp_iter, dict_iter},
    {Py_mp_length, dict_len},
    {Py_mp_subscript, dict_subscript},
    {Py_mp_ass_subscript, dict_ass_subscript},
    {Py_sq_contains, dict_contains},
    {Py_tp_doc, "the C base of cujit.typed.Dict: numba's typed dict, shared with compiled "
                "code"},
    {0, NULL},
};

static PyType_Spec dict_spec = {
    .name = "cujit._core.TypedDict",
    .basicsize = sizeof(cj_typed_dict_obj),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = dict_slots,
};

int cj_typed_dict_init(PyObject *module) {
    cj_TypedDictType = (PyTypeObject *)PyType_FromSpec(&dict_spec);
    if (cj_TypedDictType == NULL) {
        return -1;
    }
    Py_INCREF(cj_TypedDictType);
    return PyModule_AddObject(module, "TypedDict", (PyObject *)cj_TypedDictType);
}
