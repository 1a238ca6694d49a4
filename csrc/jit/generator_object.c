/* generator_object.c: what a compiled generator function returns to Python (numba's
 * generator object): an iterator over the generator's frame (abi/generator.h). Each
 * __next__ resumes the compiled body once, so an infinite generator stops where its
 * consumer does (itertools.islice). The object holds one reference to the frame, dropped
 * when it is exhausted, closed or freed (the frame's destructor drops what its variables
 * hold), and the call's arguments, whose arrays and strings the frame reads in place. */
#include "jit/jit.h"

#include "abi/generator.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    cj_meminfo *mi;     /* the frame; NULL once exhausted or closed */
    const cj_type *type; /* a CJ_GENERATOR */
    PyObject *args;     /* tuple: the call's arguments (None for a default), or NULL */
    int running;        /* inside its next: a second next (from an objmode block) is refused */
} gen_object;

static PyTypeObject *generator_type;

/* The arguments of the call whose result is being boxed (cj_box_result), or NULL. */
static _Thread_local PyObject *boxing_args;

PyObject *cj_generator_wrap(cj_meminfo *mi, const cj_type *t) {
    gen_object *self = PyObject_New(gen_object, generator_type);
    if (self == NULL) {
        return NULL;
    }
    cj_nrt_incref(mi);
    self->mi = mi;
    self->type = t;
    self->args = Py_XNewRef(boxing_args);
    self->running = 0;
    return (PyObject *)self;
}

static int holds_generator(const cj_type *t) {
    if (t == NULL || t->kind == CJ_GENERATOR) {
        return t != NULL;
    }
    int found = t->kind == CJ_LIST && holds_generator(t->dtype);
    for (int i = 0; !found && (t->kind == CJ_TUPLE || t->kind == CJ_DICT) && i < t->n; i++) {
        found = holds_generator(t->items[i]);
    }
    return found;
}

PyObject *cj_box_result(const void *src, const cj_type *t, PyObject *const *args, int n) {
    if (!holds_generator(t)) {
        return cj_box(src, t);
    }
    PyObject *kept = PyTuple_New(n);
    for (int i = 0; kept != NULL && i < n; i++) {
        PyTuple_SET_ITEM(kept, i, Py_NewRef(args[i] != NULL ? args[i] : Py_None));
    }
    if (kept == NULL) {
        return NULL;
    }
    PyObject *outer = boxing_args;
    boxing_args = kept;
    PyObject *result = cj_box(src, t);
    boxing_args = outer;
    Py_DECREF(kept);
    return result;
}

static void release_frame(gen_object *self) {
    cj_meminfo *mi = self->mi;
    self->mi = NULL;
    cj_nrt_decref(mi); /* the last reference closes it (cj_gen_dtor) */
}

static PyObject *gen_iternext(gen_object *self) {
    if (self->mi == NULL) {
        return NULL; /* exhausted: StopIteration, as CPython's generators */
    }
    if (self->running) {
        PyErr_SetString(PyExc_ValueError, "generator already executing");
        return NULL;
    }
    const cj_type *yt = self->type->yield;
    _Alignas(16) char small[256];
    size_t size = cj_abi_value_size(yt);
    char *out = size <= sizeof(small) ? small : PyMem_Calloc(1, size);
    if (out == NULL) {
        return PyErr_NoMemory();
    }
    memset(out, 0, size <= sizeof(small) ? sizeof(small) : size);
    cj_gen_frame *frame = self->mi->data;
    self->running = 1;
    int32_t status = frame->next(out, frame);
    self->running = 0;
    PyObject *value = NULL;
    if (status == 0) {
        value = cj_box(out, yt); /* borrowed from the frame: the box takes its own */
    } else {
        release_frame(self);
        if (status != CJ_GEN_EXHAUSTED) {
            cj_exc_raise(status);
        }
    }
    if (out != small) {
        PyMem_Free(out);
    }
    return value;
}

static PyObject *gen_close(gen_object *self, PyObject *unused) {
    if (self->running) {
        PyErr_SetString(PyExc_ValueError, "generator already executing");
        return NULL;
    }
    if (self->mi != NULL) {
        release_frame(self);
    }
    Py_RETURN_NONE;
}

static PyObject *gen_send(gen_object *self, PyObject *value) {
    PyErr_SetString(cj_UnsupportedError, "cujit's generators do not support send() (as "
                                         "numba's): iterate them with next() or a for loop");
    return NULL;
}

static PyObject *gen_throw(gen_object *self, PyObject *args) {
    PyErr_SetString(cj_UnsupportedError, "cujit's generators do not support throw() (as "
                                         "numba's)");
    return NULL;
}

static void gen_dealloc(gen_object *self) {
    PyTypeObject *tp = Py_TYPE(self);
    if (self->mi != NULL) {
        release_frame(self);
    }
    Py_XDECREF(self->args);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *gen_repr(gen_object *self) {
    PyFunctionObject *fn = (PyFunctionObject *)self->type->obj;
    return PyUnicode_FromFormat("<cujit generator object %U at %p>", fn->func_qualname,
                                (void *)self);
}

static PyObject *gen_get_type(gen_object *self, void *unused) {
    return Py_XNewRef(cj_type_to_py(self->type));
}

static PyMethodDef gen_methods[] = {
    {"close", (PyCFunction)gen_close, METH_NOARGS, "Closes the generator: drops its frame."},
    {"send", (PyCFunction)gen_send, METH_O, "Not supported (numba's generators neither)."},
    {"throw", (PyCFunction)gen_throw, METH_VARARGS, "Not supported (numba's neither)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef gen_getset[] = {
    {"_numba_type_", (getter)gen_get_type, NULL, "the generator's type", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot gen_slots[] = {
    {Py_tp_dealloc, gen_dealloc},
    {Py_tp_repr, gen_repr},
    {Py_tp_iter, PyObject_SelfIter},
    {Py_tp_iternext, gen_iternext},
    {Py_tp_methods, gen_methods},
    {Py_tp_getset, gen_getset},
    {Py_tp_doc, "A compiled generator's state: iterate it (numba's generator object)."},
    {0, NULL},
};

static PyType_Spec gen_spec = {
    .name = "cujit.generator",
    .basicsize = sizeof(gen_object),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, /* only calls make them */
    .slots = gen_slots,
};

int cj_generator_init(PyObject *module) {
    generator_type = (PyTypeObject *)PyType_FromSpec(&gen_spec);
    if (generator_type == NULL) {
        return -1;
    }
    Py_INCREF(generator_type);
    return PyModule_AddObject(module, "Generator", (PyObject *)generator_type);
}
