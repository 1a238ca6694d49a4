/* record.c: records, the types of NumPy structured dtypes (numba's Record, from_dtype).
 * A record's layout is the dtype's, read once here: each field's offset, the itemsize, the
 * alignment and the align=True flag. Fields are numeric scalars, nested records or fixed-size
 * arrays (subarray dtypes) of those; other kinds are refused naming the field. The type keeps
 * the dtype (obj) so boxing and dtype constants give NumPy the very same layout back. The name
 * is numba's: Record(x[type=int32;offset=0],y[type=float64;offset=8];16;False). */
#include "types/types.h"

#include <string.h>

#include "util/npy.h"

#define RECORD_NAME_MAX 8192

static const cj_type *element_type(PyArray_Descr *descr, int depth);

/* A subarray field's type (a C-contiguous array of its base) and its shape. */
static const cj_type *subarray_type(PyArray_Descr *descr, cj_field *f, int depth) {
    PyArray_ArrayDescr *sub = PyDataType_SUBARRAY(descr);
    PyObject *shape = PyTuple_Check(sub->shape) ? Py_NewRef(sub->shape)
                                                : PyTuple_Pack(1, sub->shape);
    if (shape == NULL) {
        return NULL;
    }
    Py_ssize_t nd = PyTuple_GET_SIZE(shape);
    if (nd < 1 || nd > CJ_MAX_FIELD_DIMS) {
        PyErr_Format(cj_UnsupportedError, "cujit does not support record field '%s' with a "
                     "%zd-dimensional array (at most %d)", f->name, nd, CJ_MAX_FIELD_DIMS);
        Py_DECREF(shape);
        return NULL;
    }
    for (Py_ssize_t d = 0; d < nd; d++) {
        f->shape[d] = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, d));
        if (f->shape[d] == -1 && PyErr_Occurred()) {
            Py_DECREF(shape);
            return NULL;
        }
    }
    Py_DECREF(shape);
    const cj_type *base = element_type(sub->base, depth + 1);
    if (base == NULL || base->kind == CJ_RECORD) {
        if (base != NULL) {
            PyErr_Format(cj_UnsupportedError, "cujit does not support record field '%s': an "
                         "array of records inside a record", f->name);
        }
        return NULL;
    }
    return cj_type_array(base, (int)nd, 'C', 0);
}

/* `pos` advanced past numba's text of field `f` appended to buf; -1 when it does not fit. */
static int field_text(char *buf, size_t *pos, const cj_field *f, int first) {
    size_t n = RECORD_NAME_MAX - *pos;
    int w;
    if (f->type->kind == CJ_ARRAY) {
        char shape[256];
        size_t sp = 0;
        for (int d = 0; d < f->type->ndim && sp < sizeof(shape); d++) {
            sp += (size_t)PyOS_snprintf(shape + sp, sizeof(shape) - sp, "%s%lld",
                                        d ? ", " : "", (long long)f->shape[d]);
        }
        w = PyOS_snprintf(buf + *pos, n, "%s%s[type=nestedarray(%s, (%s%s));offset=%lld]",
                          first ? "" : ",", f->name, f->type->dtype->name, shape,
                          f->type->ndim == 1 ? "," : "", (long long)f->offset);
    } else {
        w = PyOS_snprintf(buf + *pos, n, "%s%s[type=%s;offset=%lld]", first ? "" : ",",
                          f->name, f->type->name, (long long)f->offset);
    }
    if (w < 0 || (size_t)w >= n) {
        return -1;
    }
    *pos += (size_t)w;
    return 0;
}

/* Fills field `f` from entry `name` of the dtype's fields; the name is borrowed from the
 * dtype (the interned type copies it). */
static int read_field(PyArray_Descr *descr, PyObject *name, cj_field *f, int depth) {
    PyObject *entry = PyDict_GetItemWithError(PyDataType_FIELDS(descr), name); /* borrowed */
    if (entry == NULL || (f->name = PyUnicode_AsUTF8(name)) == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "malformed structured dtype %R", (PyObject *)descr);
        }
        return -1;
    }
    PyArray_Descr *fd;
    PyObject *off;
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) < 2 ||
        !PyArray_DescrCheck(fd = (PyArray_Descr *)PyTuple_GET_ITEM(entry, 0)) ||
        !PyLong_Check(off = PyTuple_GET_ITEM(entry, 1))) {
        PyErr_Format(PyExc_TypeError, "malformed structured dtype %R", (PyObject *)descr);
        return -1;
    }
    if ((f->offset = PyLong_AsLongLong(off)) == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (PyDataType_HASSUBARRAY(fd)) {
        f->type = subarray_type(fd, f, depth);
    } else {
        f->type = element_type(fd, depth + 1);
    }
    if (f->type == NULL && !PyErr_Occurred()) {
        PyErr_Format(cj_UnsupportedError, "cujit does not support record field '%s' of "
                     "dtype %R (fields must be numbers, records or arrays of numbers)",
                     f->name, (PyObject *)fd);
    }
    return f->type == NULL ? -1 : 0;
}

static const cj_type *record_type(PyArray_Descr *descr, int depth) {
    PyObject *names = PyDataType_NAMES(descr);
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    cj_field *fields = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(cj_field));
    char *name = PyMem_Malloc(RECORD_NAME_MAX);
    const cj_type *t = NULL;
    if (fields == NULL || name == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    size_t pos = (size_t)PyOS_snprintf(name, RECORD_NAME_MAX, "Record(");
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_field(descr, PyTuple_GET_ITEM(names, i), &fields[i], depth) < 0) {
            goto done;
        }
        if (field_text(name, &pos, &fields[i], i == 0) < 0) {
            PyErr_SetString(cj_UnsupportedError, "record type is too large");
            goto done;
        }
    }
    int aligned = (PyDataType_FLAGS(descr) & NPY_ALIGNED_STRUCT) != 0;
    int w = PyOS_snprintf(name + pos, RECORD_NAME_MAX - pos, ";%lld;%s)",
                          (long long)PyDataType_ELSIZE(descr), aligned ? "True" : "False");
    if (w < 0 || (size_t)w >= RECORD_NAME_MAX - pos) {
        PyErr_SetString(cj_UnsupportedError, "record type is too large");
        goto done;
    }
    cj_type proto = {.kind = CJ_RECORD, .n = (int)n, .fields = fields, .name = name,
                     .obj = (PyObject *)descr, .itemsize = PyDataType_ELSIZE(descr),
                     .alignment = PyDataType_ALIGNMENT(descr), .aligned = aligned};
    t = cj_type_intern(&proto, name);
done:
    PyMem_Free(fields);
    PyMem_Free(name);
    return t;
}

/* depth: how many records hold it; NULL without an exception for an unsupported scalar. */
static const cj_type *element_type(PyArray_Descr *descr, int depth) {
    if (depth >= CJ_MAX_NESTING) {
        PyErr_SetString(PyExc_RecursionError, CJ_NESTING_ERROR);
        return NULL;
    }
    if (!PyArray_ISNBO(descr->byteorder)) {
        return NULL;
    }
    if (PyDataType_HASFIELDS(descr)) {
        if (PyDataType_HASSUBARRAY(descr)) {
            return NULL;
        }
        return record_type(descr, depth);
    }
    return cj_type_from_npy_typenum(descr->type_num);
}

/* Records made from dtype objects seen lately, so the call path does not rebuild one per call
 * (its name alone is hundreds of bytes). An entry holds its dtype and the dtype's names tuple
 * (assigning dt.names makes a new one), so neither address is reused while cached. The GIL
 * guards it. */
#define DESCR_CACHE 16
static struct {
    PyObject *descr, *names;
    const cj_type *type;
} descr_cache[DESCR_CACHE];
static int descr_cache_next;

static void remember(PyObject *descr, const cj_type *t) {
    int i = descr_cache_next;
    descr_cache_next = (descr_cache_next + 1) % DESCR_CACHE;
    PyObject *old_descr = descr_cache[i].descr, *old_names = descr_cache[i].names;
    descr_cache[i].descr = Py_NewRef(descr);
    descr_cache[i].names = Py_NewRef(PyDataType_NAMES((PyArray_Descr *)descr));
    descr_cache[i].type = t;
    Py_XDECREF(old_descr); /* after the entry is whole: a finalizer may call back in */
    Py_XDECREF(old_names);
}

const cj_type *cj_type_from_descr(PyObject *descr) {
    if (!PyArray_DescrCheck(descr)) {
        PyErr_Format(PyExc_TypeError, "expected a NumPy dtype, got %.200s",
                     Py_TYPE(descr)->tp_name);
        return NULL;
    }
    PyArray_Descr *d = (PyArray_Descr *)descr;
    if (!PyDataType_HASFIELDS(d)) {
        return element_type(d, 0);
    }
    for (int i = 0; i < DESCR_CACHE; i++) {
        if (descr_cache[i].descr == descr && descr_cache[i].names == PyDataType_NAMES(d)) {
            return descr_cache[i].type;
        }
    }
    const cj_type *t = element_type(d, 0);
    if (t != NULL && t->kind == CJ_RECORD) {
        remember(descr, t);
    }
    return t;
}

int cj_record_field_index(const cj_type *t, const char *name) {
    for (int i = 0; t->kind == CJ_RECORD && i < t->n; i++) {
        if (strcmp(t->fields[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

PyObject *cj_record_field_names(const cj_type *t) {
    PyObject *names = PyTuple_New(t->n);
    for (int i = 0; names != NULL && i < t->n; i++) {
        PyObject *s = PyUnicode_FromString(t->fields[i].name);
        if (s == NULL) {
            Py_CLEAR(names);
            break;
        }
        PyTuple_SET_ITEM(names, i, s);
    }
    if (names == NULL) {
        return NULL;
    }
    PyObject *text = PyObject_Repr(names);
    Py_DECREF(names);
    return text;
}
