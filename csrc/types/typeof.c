/* typeof.c: the cujit type of a Python argument value (the dispatcher's key), as numba types it:
 * int -> int64 (uint64 past int64's range), float -> float64, complex -> complex128,
 * NumPy scalars and arrays by dtype, tuples item by item, None -> none, a list -> reflected
 * list of its first item's type, a cujit.typed.List -> its ListType, a cujit.typed.Dict -> its
 * DictType (a Python dict: numba's refusal), a jitted function its dispatcher type
 * (dispatcher_type.c), a str -> unicode_type (not yet inside tuples or
 * lists). Also the cached array
 * type of a (type number, rank, layout, read-only), which the kernel launcher and the CUDA
 * ufuncs use too (cj_array_type_of_layout), and that of any dtype, records too
 * (cj_array_type_of_descr). */
#include "types/types.h"

#include "util/npy.h"

static const cj_type *typeof_pyint(PyObject *value) {
    int overflow = 0;
    (void)PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow == 0) {
        return cj_t_int64;
    }
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(value);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
            return cj_t_uint64;
        }
        PyErr_Clear();
    }
    PyErr_Format(PyExc_OverflowError, "int %R does not fit in int64 or uint64", value);
    return NULL;
}

/* Array types seen before, by (type number, ndim, layout, read-only): the call and launch
 * paths do no string formatting or dict lookup for them. */
#define CACHED_TYPENUMS 32
#define CACHED_NDIM 8
static const cj_type *array_cache[CACHED_TYPENUMS][CACHED_NDIM + 1][3][2];

const cj_type *cj_array_type_of_layout(int typenum, int ndim, int c_contig, int f_contig,
                                       int readonly) {
    int li = c_contig ? 0 : f_contig ? 1 : 2;
    int cacheable = typenum >= 0 && typenum < CACHED_TYPENUMS && ndim >= 0 &&
                    ndim <= CACHED_NDIM;
    readonly = readonly != 0;
    if (cacheable && array_cache[typenum][ndim][li][readonly] != NULL) {
        return array_cache[typenum][ndim][li][readonly];
    }
    const cj_type *dtype = cj_type_from_npy_typenum(typenum);
    if (dtype == NULL) {
        return NULL; /* no exception: the caller names the value */
    }
    char layout = c_contig ? 'C' : f_contig ? 'F' : 'A';
    const cj_type *t = cj_type_array(dtype, ndim, layout, readonly);
    if (t != NULL && cacheable) {
        array_cache[typenum][ndim][li][readonly] = t;
    }
    return t;
}

/* Arrays of records seen lately (types live for the process: no references to hold). */
#define RECORD_ARRAY_CACHE 16
typedef struct record_array_entry {
    const cj_type *dtype;
    int ndim;
    char layout;
    int readonly;
    const cj_type *type;
} record_array_entry;
static record_array_entry record_arrays[RECORD_ARRAY_CACHE];
static int record_array_next;

const cj_type *cj_array_type_of_descr(PyObject *descr, int ndim, int c_contig, int f_contig,
                                      int readonly) {
    PyArray_Descr *d = (PyArray_Descr *)descr;
    if (!PyArray_ISNBO(d->byteorder)) {
        return NULL;
    }
    if (d->type_num != NPY_VOID) {
        return cj_array_type_of_layout(d->type_num, ndim, c_contig, f_contig, readonly);
    }
    const cj_type *dtype = cj_type_from_descr(descr); /* record.c */
    if (dtype == NULL) {
        return NULL;
    }
    char layout = c_contig ? 'C' : f_contig ? 'F' : 'A';
    readonly = readonly != 0;
    for (int i = 0; i < RECORD_ARRAY_CACHE; i++) {
        const record_array_entry *e = &record_arrays[i];
        if (e->dtype == dtype && e->ndim == ndim && e->layout == layout &&
            e->readonly == readonly) {
            return e->type;
        }
    }
    const cj_type *t = cj_type_array(dtype, ndim, layout, readonly);
    if (t != NULL) {
        record_arrays[record_array_next] = (record_array_entry){dtype, ndim, layout, readonly, t};
        record_array_next = (record_array_next + 1) % RECORD_ARRAY_CACHE;
    }
    return t;
}

static const cj_type *typeof_ndarray(PyArrayObject *arr) {
    PyArray_Descr *descr = PyArray_DESCR(arr);
    const cj_type *t = cj_array_type_of_descr((PyObject *)descr, PyArray_NDIM(arr),
                                              PyArray_IS_C_CONTIGUOUS(arr),
                                              PyArray_IS_F_CONTIGUOUS(arr),
                                              !PyArray_ISWRITEABLE(arr));
    if (t == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "cujit does not support arrays of dtype %R",
                     (PyObject *)descr);
    }
    return t;
}

static const cj_type *typeof_nested(PyObject *value, int depth);

static const cj_type *typeof_tuple(PyObject *value, int depth) {
    if (depth >= CJ_MAX_NESTING) {
        PyErr_SetString(PyExc_RecursionError, CJ_NESTING_ERROR);
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(value);
    if (n > 256) {
        PyErr_SetString(PyExc_TypeError, "tuples of more than 256 items are not supported");
        return NULL;
    }
    const cj_type *items[256];
    for (Py_ssize_t i = 0; i < n; i++) {
        items[i] = typeof_nested(PyTuple_GET_ITEM(value, i), depth + 1);
        if (items[i] == NULL) {
            return NULL;
        }
    }
    return cj_type_tuple((int)n, items);
}

/* A Python list argument: numba's reflected list of its first item's type (the others are
 * checked when it is unboxed, jit/reflect.c); numba's errors for an empty list and for lists
 * inside it. */
static const cj_type *typeof_list(PyObject *value) {
    if (PyList_GET_SIZE(value) == 0) {
        PyErr_SetString(PyExc_ValueError, "cannot compute fingerprint of empty list");
        return NULL;
    }
    PyObject *first = PyList_GET_ITEM(value, 0);
    const cj_type *item = PyList_CheckExact(first) ? typeof_list(first)
                                                   : typeof_nested(first, 1);
    if (item == NULL) {
        return NULL;
    }
    if (item->kind == CJ_LIST) {
        const cj_type *t = cj_type_list(item, 1);
        if (t != NULL) {
            PyErr_Format(PyExc_TypeError, "cannot reflect element of reflected container: %s",
                         t->name);
        }
        return NULL;
    }
    return cj_type_list(item, 1);
}

/* A cujit.typed.List: its ListType (jit/typed_list.c). */
static const cj_type *typeof_typed_list(PyObject *value) {
    const cj_type *t = ((cj_typed_list_obj *)value)->type;
    if (t == NULL) {
        PyErr_SetString(PyExc_TypeError, "cujit.typed.List() with no item type yet (append an "
                                         "item first, or make it with List.empty_list(type))");
    }
    return t;
}

/* A cujit.typed.Dict: its DictType (jit/typed_dict.c). */
static const cj_type *typeof_typed_dict(PyObject *value) {
    const cj_type *t = ((cj_typed_dict_obj *)value)->type;
    if (t == NULL) {
        PyErr_SetString(PyExc_TypeError, "cujit.typed.Dict() with no key and value types yet "
                                         "(store an item first, or make it with "
                                         "Dict.empty(key_type, value_type))");
    }
    return t;
}

const cj_type *cj_typeof(PyObject *value) {
    return PyUnicode_Check(value)                   ? cj_t_unicode
           : PyList_CheckExact(value)               ? typeof_list(value)
           : PySet_CheckExact(value)                ? cj_typeof_set(value) /* settype.c */
           : Py_TYPE(value) == cj_TypedListType     ? typeof_typed_list(value)
           : cj_TypedDictType != NULL && PyObject_TypeCheck(value, cj_TypedDictType)
               ? typeof_typed_dict(value)
               : typeof_nested(value, 0);
}

/* depth: how many tuples hold `value` */
static const cj_type *typeof_nested(PyObject *value, int depth) {
    if (value == Py_None) {
        return cj_t_none;
    }
    if (PyUnicode_CheckExact(value)) { /* in a tuple or list: jit/reflect.c drops it after */
        return cj_t_unicode;
    }
    if (PyBool_Check(value)) {
        return cj_t_bool;
    }
    if (PyLong_CheckExact(value)) {
        return typeof_pyint(value);
    }
    if (PyFloat_CheckExact(value)) {
        return cj_t_float64;
    }
    if (PyComplex_CheckExact(value)) {
        return cj_t_complex128;
    }
    if (PyArray_Check(value)) {
        return typeof_ndarray((PyArrayObject *)value);
    }
    if (PyArray_IsScalar(value, Generic)) {
        PyArray_Descr *descr = PyArray_DescrFromScalar(value);
        if (descr == NULL) {
            return NULL;
        }
        /* a np.void of a structured dtype is a record, passed by reference (boxing.c) */
        const cj_type *t = descr->type_num == NPY_VOID ? cj_type_from_descr((PyObject *)descr)
                                                       : cj_type_from_npy_typenum(descr->type_num);
        Py_DECREF(descr);
        if (t != NULL || PyErr_Occurred()) {
            return t;
        }
    } else if (PyTuple_Check(value)) {
        return typeof_tuple(value, depth);
    } else if (PyLong_Check(value)) {
        return typeof_pyint(value);
    } else if (PyFloat_Check(value)) {
        return cj_t_float64;
    } else if (PyComplex_Check(value)) {
        return cj_t_complex128;
    }
    const cj_type *fn = cj_typeof_dispatcher(value); /* a jitted function as a value */
    if (fn != NULL || PyErr_Occurred()) {
        return fn;
    }
    const cj_type *ext = cj_typeof_extension(value); /* cujit.extending.typeof_impl */
    if (ext != NULL || PyErr_Occurred()) {
        return ext;
    }
    const char *hint = PyList_Check(value) ? " (lists inside tuples or lists are not supported "
                                             "as arguments yet)"
                       : PySet_Check(value) ? " (sets inside tuples or lists are not supported "
                                              "as arguments yet)"
                       : PyDict_Check(value) ? " (numba's 'non-precise type pyobject': "
                                               "Cannot determine Numba type of <class 'dict'>; "
                                               "reflected dicts are not supported: pass a "
                                               "cujit.typed.Dict)"
                       : PyBytes_Check(value) ? " (bytes are not supported as arguments yet)"
                                              : "";
    PyErr_Format(PyExc_TypeError, "cujit cannot compile for an argument of type %.200s%s",
                 Py_TYPE(value)->tp_name, hint);
    return NULL;
}
