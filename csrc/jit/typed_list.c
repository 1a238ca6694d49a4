/* typed_list.c: cujit.typed.List, numba's typed.List: a Python object over a compiled-code list
 * (abi/list.c), typed ListType[item]. Passed to a compiled function it is the same memory (no
 * copy: what the function does, the object sees); a ListType list a function returns is a new
 * object over that memory (typing/lists.c types List() and List.empty_list() in compiled code).
 * From Python: List(), List(iterable), List.empty_list(item_type), append, extend, pop, len,
 * l[i], l[i] = v, iteration, repr. Items stored from Python are numbers and tuples of numbers
 * (an array would need the NRT to own a Python object: not yet); arrays compiled code put in
 * are read. */
#include "jit/jit.h"

#include <string.h>

PyTypeObject *cj_TypedListType;

#define SELF(o) ((cj_typed_list_obj *)(o))

/* Whether items of type `t` hold references (arrays, lists). */
static int holds_refs(const cj_type *t) {
    int32_t offs[CJ_LIST_MAX_REFS];
    int n = 0;
    return cj_abi_ref_offsets(t, 0, offs, &n, CJ_LIST_MAX_REFS) < 0 || n > 0;
}

/* Gives the list its item type `item` (numbers and tuples of numbers); -1 with an exception. */
static int set_item_type(cj_typed_list_obj *self, const cj_type *item) {
    if (holds_refs(item) || (!cj_type_is_number(item) && item->kind != CJ_TUPLE)) {
        PyErr_Format(PyExc_NotImplementedError, "cujit.typed.List of %s items is not supported "
                     "yet (numbers and tuples of numbers)", item->name);
        return -1;
    }
    const cj_type *lt = cj_type_list(item, CJ_LIST_TYPED);
    cj_meminfo *mi = lt ? cj_list_new((int64_t)cj_abi_size(item), 0, NULL, 0) : NULL;
    if (mi == NULL) {
        return PyErr_Occurred() ? -1 : (PyErr_NoMemory(), -1);
    }
    self->mi = mi;
    self->type = lt;
    return 0;
}

PyObject *cj_typed_list_wrap(cj_meminfo *mi, const cj_type *lt) {
    cj_typed_list_obj *self = PyObject_New(cj_typed_list_obj, cj_TypedListType);
    if (self != NULL) {
        cj_nrt_incref(mi);
        self->mi = mi;
        self->type = lt;
    }
    return (PyObject *)self;
}

/* An item from Python: numbers and tuples of numbers (a list compiled code made may hold
 * arrays, which Python reads but cannot store: the list would not own them). */
static int storable(const cj_type *item) {
    if (holds_refs(item)) {
        PyErr_Format(PyExc_NotImplementedError, "storing %s items into a cujit.typed.List from "
                     "Python is not supported yet", item->name);
        return 0;
    }
    return 1;
}

static int append_value(cj_typed_list_obj *self, PyObject *v) {
    if (self->type == NULL) {
        const cj_type *t = cj_typeof(v);
        if (t == NULL || set_item_type(self, t) < 0) {
            return -1;
        }
    }
    const cj_type *item = self->type->dtype;
    if (!storable(item)) {
        return -1;
    }
    char buf[256];
    if (cj_abi_size(item) > sizeof(buf) || cj_unbox(v, item, buf) < 0) {
        return PyErr_Occurred() ? -1 : (PyErr_SetString(PyExc_TypeError, "item too large"), -1);
    }
    if (cj_list_reserve(self->mi, 1) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    cj_list *l = self->mi->data;
    memcpy(l->items + l->len * l->item_size, buf, (size_t)l->item_size);
    l->len++;
    return 0;
}

static PyObject *list_append(PyObject *self, PyObject *v) {
    return append_value(SELF(self), v) < 0 ? NULL : Py_NewRef(Py_None);
}

static PyObject *list_extend(PyObject *self, PyObject *iterable) {
    PyObject *it = PyObject_GetIter(iterable), *v;
    while (it != NULL && (v = PyIter_Next(it)) != NULL) {
        int rc = append_value(SELF(self), v);
        Py_DECREF(v);
        if (rc < 0) {
            Py_DECREF(it);
            return NULL;
        }
    }
    Py_XDECREF(it);
    return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
}

static Py_ssize_t list_len(PyObject *self) {
    return SELF(self)->mi ? (Py_ssize_t)((cj_list *)SELF(self)->mi->data)->len : 0;
}

/* Index `i` from the end when negative; IndexError (CPython's text) out of range. */
static char *item_at(PyObject *self, Py_ssize_t i, const char *text) {
    Py_ssize_t n = list_len(self);
    i = i < 0 ? i + n : i;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, text);
        return NULL;
    }
    cj_list *l = SELF(self)->mi->data;
    return l->items + i * l->item_size;
}

static PyObject *list_item(PyObject *self, Py_ssize_t i) {
    char *p = item_at(self, i, "list index out of range");
    return p ? cj_box(p, SELF(self)->type->dtype) : NULL;
}

static int list_ass_item(PyObject *self, Py_ssize_t i, PyObject *v) {
    char *p = item_at(self, i, "list assignment index out of range");
    if (p == NULL || v == NULL) {
        return p == NULL ? -1 : (PyErr_SetString(PyExc_NotImplementedError, "del of a "
                                                 "cujit.typed.List item from Python"), -1);
    }
    return storable(SELF(self)->type->dtype) ? cj_unbox(v, SELF(self)->type->dtype, p) : -1;
}

static PyObject *list_pop(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t n = list_len(self), i = n - 1;
    if (nargs > 1 || (nargs == 1 && (i = PyLong_AsSsize_t(args[0])) == -1 && PyErr_Occurred())) {
        return nargs > 1 ? (PyErr_SetString(PyExc_TypeError, "pop expected at most 1 argument"),
                            NULL) : NULL;
    }
    if (n == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    char *p = item_at(self, i, "pop index out of range");
    PyObject *v = p ? cj_box(p, SELF(self)->type->dtype) : NULL;
    if (v != NULL) {
        cj_nrt_release_value(p, SELF(self)->type->dtype); /* the box holds its own */
        cj_list *l = SELF(self)->mi->data;
        char *end = l->items + l->len * l->item_size;
        memmove(p, p + l->item_size, (size_t)(end - p - l->item_size));
        l->len--;
    }
    return v;
}

static PyObject *list_empty_list(PyObject *cls, PyObject *item_type) {
    const cj_type *item = cj_type_from_py(item_type);
    if (item == NULL) {
        item = item_type == (PyObject *)&PyFloat_Type ? cj_t_float64
               : item_type == (PyObject *)&PyLong_Type ? cj_t_int64
               : item_type == (PyObject *)&PyBool_Type ? cj_t_bool : NULL;
    }
    if (item == NULL) {
        PyErr_Format(PyExc_TypeError, "List.empty_list() takes a cujit type, not %R", item_type);
        return NULL;
    }
    cj_typed_list_obj *self = PyObject_New(cj_typed_list_obj, cj_TypedListType);
    if (self == NULL) {
        return NULL;
    }
    self->mi = NULL;
    self->type = NULL;
    if (set_item_type(self, item) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *list_new(PyTypeObject *cls, PyObject *args, PyObject *kwargs) {
    PyObject *iterable = NULL;
    if (!PyArg_ParseTuple(args, "|O:List", &iterable) ||
        (kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0 &&
         (PyErr_SetString(PyExc_TypeError, "List() takes no keyword arguments"), 1))) {
        return NULL;
    }
    cj_typed_list_obj *self = PyObject_New(cj_typed_list_obj, cj_TypedListType);
    if (self != NULL) {
        self->mi = NULL;
        self->type = NULL;
    }
    PyObject *rc = self && iterable ? list_extend((PyObject *)self, iterable) : Py_None;
    if (rc == NULL) {
        Py_CLEAR(self);
    } else if (iterable != NULL) {
        Py_DECREF(rc);
    }
    return (PyObject *)self;
}

static void list_dealloc(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    cj_nrt_decref(SELF(self)->mi);
    PyObject_Free(self);
    Py_DECREF(type);
}

static PyObject *list_repr(PyObject *self) {
    PyObject *items = PySequence_List(self);
    PyObject *r = items ? PyUnicode_FromFormat("%s(%R)", SELF(self)->type ? SELF(self)->type->name
                                               : "ListType[undefined]", items) : NULL;
    Py_XDECREF(items);
    return r;
}

static PyObject *list_dtype(PyObject *self, void *unused) {
    if (SELF(self)->type == NULL) {
        Py_RETURN_NONE;
    }
    PyObject *t = cj_type_to_py(SELF(self)->type->dtype);
    return Py_XNewRef(t);
}

static PyMethodDef list_methods[] = {
    {"append", list_append, METH_O, "L.append(item): at the end"},
    {"extend", list_extend, METH_O, "L.extend(iterable)"},
    {"pop", (PyCFunction)(void (*)(void))list_pop, METH_FASTCALL, "L.pop([index]) -> item"},
    {"empty_list", list_empty_list, METH_O | METH_CLASS,
     "List.empty_list(item_type): a new empty list of that item type (numba's)"},
    {NULL},
};

static PyGetSetDef list_getset[] = {
    {"_dtype", list_dtype, NULL, "the item type (numba's typed.List._dtype)", NULL},
    {NULL},
};

static PyType_Slot list_slots[] = {
    {Py_tp_new, list_new},
    {Py_tp_dealloc, list_dealloc},
    {Py_tp_repr, list_repr},
    {Py_tp_methods, list_methods},
    {Py_tp_getset, list_getset},
    {Py_sq_length, list_len},
    {Py_sq_item, list_item},
    {Py_sq_ass_item, list_ass_item},
    {Py_tp_doc, "cujit.typed.List: numba's typed list, shared with compiled code"},
    {0, NULL},
};

static PyType_Spec list_spec = {
    .name = "cujit.typed.List",
    .basicsize = sizeof(cj_typed_list_obj),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = list_slots,
};

int cj_typed_list_init(PyObject *module) {
    cj_TypedListType = (PyTypeObject *)PyType_FromSpec(&list_spec);
    if (cj_TypedListType == NULL) {
        return -1;
    }
    Py_INCREF(cj_TypedListType);
    return PyModule_AddObject(module, "TypedList", (PyObject *)cj_TypedListType);
}
