/* reflect_set.c: sets crossing the call boundary. A Python set argument (numba's reflected
 * set) is unboxed into a new compiled-code set (abi/set.h) of its elements, each unboxed as
 * the first one's type (numba's "can't unbox heterogeneous set" otherwise). After the call
 * (that returned or raised, as numba's), a set whose elements changed is written back into
 * the caller's Python set (its contents replaced by the elements boxed); then the compiled
 * set is dropped. Returned, a reflected set is that Python set; a set compiled code made
 * comes back as a new Python set of its elements boxed (numba's). */
#include "abi/set.h"
#include "jit/jit.h"

#include <string.h>

/* The most bytes one element takes (a tuple of hash.c's scalars, CJ_KEY_MAX_CODE of them). */
#define MAX_ELEMENT 1024

/* A new Python set of the elements of compiled set `mi` of type `t`. */
static PyObject *pyset_of(cj_meminfo *mi, const cj_type *t) {
    PyObject *out = PySet_New(NULL);
    int64_t pos = 0;
    for (char *e = cj_dict_next(mi, &pos); out != NULL && e != NULL; e = cj_dict_next(mi, &pos)) {
        PyObject *item = cj_box(e + 8, t->dtype);
        if (item == NULL || PySet_Add(out, item) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(item);
    }
    return out;
}

PyObject *cj_box_set(const void *src, const cj_type *t) {
    cj_meminfo *mi;
    memcpy(&mi, src, sizeof(mi));
    PyObject *parent = ((cj_dict *)mi->data)->parent;
    if (parent != NULL) { /* a reflected set: the caller's (cj_reflect_set updates it) */
        Py_INCREF(parent);
        return parent;
    }
    return pyset_of(mi, t);
}

/* Adds Python object `item` to compiled set `mi` as an element of type `t`: 0 or -1. */
static int add_unboxed(cj_meminfo *mi, const cj_type *t, PyObject *item) {
    _Alignas(16) char key[MAX_ELEMENT];
    const cj_type *it = PyUnicode_CheckExact(item) ? cj_t_unicode : cj_typeof(item);
    if (it != t->dtype) {
        if (it != NULL) {
            PyErr_Format(PyExc_TypeError, "can't unbox heterogeneous set: %s != %s",
                         t->dtype->name, it->name);
        }
        return -1;
    }
    if (cj_unbox(item, t->dtype, key) < 0) {
        return -1;
    }
    if (cj_set_add(mi, key) < 0) { /* it takes what the key holds */
        cj_nrt_release_value(key, t->dtype);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

int cj_unbox_set(PyObject *value, const cj_type *t, void *dst) {
    cj_dict_layout lay;
    if (!PySet_CheckExact(value)) {
        PyErr_Format(PyExc_TypeError, "expected a set for %s", t->name);
        return -1;
    }
    if (cj_abi_set_layout(t, &lay) < 0 || lay.key_size > MAX_ELEMENT) {
        PyErr_Format(PyExc_TypeError, "cujit cannot unbox %s", t->name);
        return -1;
    }
    cj_meminfo *mi = cj_dict_new(lay.key_size, 0, lay.code, lay.ncode, lay.refs, lay.nkeyrefs,
                                 0);
    PyObject *it = mi != NULL ? PyObject_GetIter(value) : NULL, *item;
    if (it == NULL) {
        cj_nrt_decref(mi);
        return mi == NULL ? (PyErr_NoMemory(), -1) : -1;
    }
    while ((item = PyIter_Next(it)) != NULL) {
        int rc = add_unboxed(mi, t, item);
        Py_DECREF(item);
        if (rc < 0) {
            break;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        cj_nrt_decref(mi);
        return -1;
    }
    ((cj_dict *)mi->data)->parent = value;
    memcpy(dst, &mi, sizeof(mi));
    return 0;
}

/* The caller's set takes the compiled set's elements, if they differ. */
static int write_back(PyObject *value, cj_meminfo *mi, const cj_type *t) {
    PyObject *now = pyset_of(mi, t), *item;
    int same = now != NULL ? PyObject_RichCompareBool(now, value, Py_EQ) : -1;
    if (same != 0) {
        Py_XDECREF(now);
        return same < 0 ? -1 : 0; /* untouched: the Python objects stay as they were */
    }
    PyObject *it = PySet_Clear(value) == 0 ? PyObject_GetIter(now) : NULL;
    while (it != NULL && (item = PyIter_Next(it)) != NULL) {
        int rc = PySet_Add(value, item);
        Py_DECREF(item);
        if (rc < 0) {
            break;
        }
    }
    Py_XDECREF(it);
    Py_DECREF(now);
    return PyErr_Occurred() ? -1 : 0;
}

int cj_reflect_set(PyObject *value, const cj_type *t, cj_meminfo *mi, int write) {
    int rc = write ? write_back(value, mi, t) : 0;
    ((cj_dict *)mi->data)->parent = NULL; /* borrowed for the call only */
    cj_nrt_decref(mi);
    return rc;
}
