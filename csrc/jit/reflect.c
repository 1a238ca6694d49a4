/* reflect.c: Python lists passed to compiled code (numba's reflected lists); after a call it
 * also drops the strings boxing.c unboxed, alone or in tuples, and hands Python sets to
 * reflect_set.c (cj_reflect_args). A list argument is
 * unboxed into a new compiled-code list (abi/list.c) of its items, each unboxed as the first
 * item's type (numba's "can't unbox heterogeneous list" otherwise), with a snapshot of those
 * bytes. After the call (that returned or raised, as numba's), a list whose items or length
 * changed is written back into the caller's Python list (its contents replaced by the items
 * boxed, as numba reflects); then the compiled list is dropped. Returned, it is that Python
 * list (boxing.c), as in numba. Arrays in a reflected list are borrowed from
 * the Python list, which keeps them alive through the call. */
#include "jit/jit.h"

#include <stdlib.h>
#include <string.h>

int cj_unbox_list(PyObject *value, const cj_type *t, void *dst) {
    if (t->reflected == CJ_LIST_TYPED) { /* its own memory, borrowed for the call */
        if (Py_TYPE(value) != cj_TypedListType || ((cj_typed_list_obj *)value)->type != t) {
            PyErr_Format(PyExc_TypeError, "expected a cujit.typed.List for %s", t->name);
            return -1;
        }
        memcpy(dst, &((cj_typed_list_obj *)value)->mi, sizeof(cj_meminfo *));
        return 0;
    }
    if (!PyList_CheckExact(value)) {
        PyErr_Format(PyExc_TypeError, "expected a list for %s", t->name);
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(value);
    int32_t offs[CJ_LIST_MAX_REFS];
    int nrefs = 0;
    size_t size = cj_abi_size(t->dtype);
    if (cj_abi_ref_offsets(t->dtype, 0, offs, &nrefs, CJ_LIST_MAX_REFS) < 0) {
        PyErr_Format(PyExc_TypeError, "list items of type %s hold too many arrays",
                     t->dtype->name);
        return -1;
    }
    cj_meminfo *mi = cj_list_new((int64_t)size, nrefs, offs, (int64_t)n);
    cj_list *l = mi != NULL ? mi->data : NULL;
    if (l == NULL || (l->snapshot = malloc(n * size > 0 ? n * size : 1)) == NULL) {
        cj_nrt_decref(mi);
        PyErr_NoMemory();
        return -1;
    }
    l->len = 0; /* items count as they are unboxed: the destructor drops only those */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(value, i);
        const cj_type *it = cj_typeof(item);
        if (it != t->dtype || cj_unbox(item, t->dtype, l->items + (size_t)i * size) < 0) {
            if (it != NULL && it != t->dtype) {
                PyErr_Format(PyExc_TypeError, "can't unbox heterogeneous list: %s != %s",
                             t->dtype->name, it->name);
            }
            cj_nrt_decref(mi);
            return -1;
        }
        l->len = i + 1;
    }
    memcpy(l->snapshot, l->items, n * size);
    l->parent = value;
    memcpy(dst, &mi, sizeof(mi));
    return 0;
}

/* The caller's list takes the compiled list's items, if they changed. */
static int write_back(PyObject *value, const cj_type *t, const cj_list *l) {
    size_t size = (size_t)l->item_size;
    if ((Py_ssize_t)l->len == PyList_GET_SIZE(value) &&
        memcmp(l->items, l->snapshot, (size_t)l->len * size) == 0) {
        return 0; /* untouched: the Python objects stay as they were */
    }
    PyObject *items = PyList_New((Py_ssize_t)l->len);
    for (int64_t i = 0; items != NULL && i < l->len; i++) {
        PyObject *item = cj_box(l->items + (size_t)i * size, t->dtype);
        if (item == NULL) {
            Py_CLEAR(items);
            break;
        }
        PyList_SET_ITEM(items, (Py_ssize_t)i, item);
    }
    int rc = items != NULL ? PyList_SetSlice(value, 0, PY_SSIZE_T_MAX, items) : -1;
    Py_XDECREF(items);
    return rc;
}

/* Drops the strings an unboxed str or tuple holds (NULL where unboxing stopped; an array in a
 * tuple has no meminfo of its own, NULL too). */
static void drop_strings(const cj_type *t, const void *p) {
    int32_t offs[CJ_LIST_MAX_REFS];
    int n = 0;
    if (cj_abi_ref_offsets(t, 0, offs, &n, CJ_LIST_MAX_REFS) < 0) {
        n = 0; /* too many to hold: boxing refused it before unboxing any */
    }
    for (int k = 0; k < n; k++) {
        cj_meminfo *mi;
        memcpy(&mi, (const char *)p + offs[k], sizeof(mi));
        cj_nrt_decref(mi);
    }
}

int cj_reflect_args(const cj_type *const *types, int n, PyObject *const *values,
                    void *const *ptrs, int called) {
    int rc = 0;
    PyObject *type, *exc, *tb; /* the function's exception, kept through the write-back */
    PyErr_Fetch(&type, &exc, &tb);
    for (int i = 0; i < n; i++) {
        const cj_type *t = types[i];
        if (t->kind == CJ_OPTIONAL) { /* its value, at the same place, unless it was None */
            if (values[i] == Py_None) {
                continue;
            }
            t = t->dtype;
        }
        if ((t->kind == CJ_UNICODE || t->kind == CJ_TUPLE) && values[i] != NULL) {
            drop_strings(t, ptrs[i]); /* boxing.c's unboxed str, alone or in tuples */
            continue;
        }
        cj_meminfo *mi;
        if (t->kind == CJ_SET && values[i] != NULL) { /* reflect_set.c */
            memcpy(&mi, ptrs[i], sizeof(mi));
            rc = cj_reflect_set(values[i], t, mi, called && rc == 0) < 0 ? -1 : rc;
            continue;
        }
        if (t->kind != CJ_LIST || t->reflected == CJ_LIST_TYPED || values[i] == NULL) {
            continue;
        }
        memcpy(&mi, ptrs[i], sizeof(mi));
        if (called && rc == 0 && write_back(values[i], t, mi->data) < 0) {
            rc = -1;
        }
        cj_nrt_decref(mi);
    }
    if (type != NULL) {
        if (rc < 0) {
            PyErr_Clear(); /* the function's own exception wins */
        }
        PyErr_Restore(type, exc, tb);
    }
    return rc;
}
