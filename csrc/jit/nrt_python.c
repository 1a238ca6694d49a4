/* nrt_python.c: allocations of compiled code (abi/nrt.c) seen from Python. A returned array is a
 * NumPy array over the allocation's memory, with a MemInfo object as its base that holds one
 * reference (dropped when NumPy frees the array): no copy. `_core.nrt_stats()` gives the
 * counters (cujit.core.runtime.rtsys, numba's spelling). */
#include "jit/jit.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    cj_meminfo *meminfo;
} meminfo_object;

static PyTypeObject *meminfo_type;

PyObject *cj_meminfo_object(cj_meminfo *mi) {
    meminfo_object *o = PyObject_New(meminfo_object, meminfo_type);
    if (o != NULL) {
        cj_nrt_incref(mi);
        o->meminfo = mi;
    }
    return (PyObject *)o;
}

static void meminfo_dealloc(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    cj_nrt_decref(((meminfo_object *)self)->meminfo);
    PyObject_Free(self);
    Py_DECREF(type);
}

static PyObject *meminfo_repr(PyObject *self) {
    cj_meminfo *mi = ((meminfo_object *)self)->meminfo;
    return PyUnicode_FromFormat("<cujit MemInfo: %lld bytes at %p>", (long long)mi->size,
                                mi->data);
}

static PyType_Slot meminfo_slots[] = {
    {Py_tp_dealloc, meminfo_dealloc},
    {Py_tp_repr, meminfo_repr},
    {Py_tp_doc, "Memory compiled code allocated: the base of the NumPy arrays over it."},
    {0, NULL},
};

static PyType_Spec meminfo_spec = {
    .name = "cujit.MemInfo",
    .basicsize = sizeof(meminfo_object),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = meminfo_slots,
};

void cj_nrt_release_value(const void *src, const cj_type *t) {
    if (t->kind == CJ_ARRAY) {
        cj_meminfo *mi;
        memcpy(&mi, (const char *)src + 16 + 16 * (size_t)t->ndim, sizeof(void *));
        cj_nrt_decref(mi);
    }
    if (t->kind == CJ_LIST || t->kind == CJ_UNICODE || t->kind == CJ_DICT ||
        t->kind == CJ_SET ||
        t->kind == CJ_GENERATOR) { /* its meminfo */
        cj_meminfo *mi;
        memcpy(&mi, src, sizeof(void *));
        cj_nrt_decref(mi);
    }
    for (int i = 0; (t->kind == CJ_TUPLE || t->kind == CJ_OPTIONAL) && i < t->n; i++) {
        cj_nrt_release_value((const char *)src + cj_abi_tuple_offset(t, i), t->items[i]);
    }
}

static PyObject *nrt_stats(PyObject *module, PyObject *unused) {
    unsigned long long allocated, freed;
    cj_nrt_stats(&allocated, &freed);
    return Py_BuildValue("(KK)", allocated, freed);
}

static PyMethodDef nrt_functions[] = {
    {"nrt_stats", nrt_stats, METH_NOARGS,
     "nrt_stats() -> (allocations, frees) of memory compiled code allocated"},
    {NULL},
};

int cj_nrt_python_init(PyObject *module) {
    meminfo_type = (PyTypeObject *)PyType_FromSpec(&meminfo_spec);
    if (meminfo_type == NULL) {
        return -1;
    }
    return PyModule_AddFunctions(module, nrt_functions);
}
