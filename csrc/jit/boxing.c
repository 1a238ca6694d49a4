/* boxing.c: Python values <-> the C layout compiled code uses (lower_types.c's cj_abi_*).
 * Scalars unbox from Python numbers and NumPy scalars; arrays to {data, parent, shape,
 * strides, meminfo} with the array object as parent (borrowed for the call) and no meminfo,
 * and back to that very object while they view all of it (else a view based on it); an array
 * compiled code allocated boxes as a NumPy array over its memory, whose base holds a
 * reference to the allocation (boxing borrows: the caller's references stay its own);
 * tuples item by item; records (np.void) by reference, and back as a copy; a list compiled
 * code made boxes as a new Python list; an extension type's value is its Python object, which
 * the CPU wrapper unboxes and boxes with the user's unbox/box (lower_extension.c); a str unboxes
 * as a string over its own data (abi/unicode.c; reflect.c's cj_reflect_args drops it after the
 * call) and a string boxes as a str (the very one it was read from, else a new one of its code
 * points); a dict boxes as a cujit.typed.Dict over it (typed_dict.c); sets go both ways
 * through reflect_set.c. */
#include "jit/jit.h"

#include <string.h>

#include "lower/lower.h"
#include "util/npy.h"

/* IEEE half <-> double, bit by bit (NumPy's helpers live in libnpymath). */
static uint16_t double_to_half(double d) {
    float f = (float)d;
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
    int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    if (((x >> 23) & 0xff) == 0xff) { /* inf / nan */
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    }
    if (exp >= 31) {
        return (uint16_t)(sign | 0x7c00u);
    }
    if (exp <= 0) { /* subnormal or zero, round to nearest */
        if (exp < -10) {
            return (uint16_t)sign;
        }
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1u))) {
            h++;
        }
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) {
        h++;
    }
    return (uint16_t)(sign | h);
}

static double half_to_double(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t x;
    if (exp == 0) {
        if (mant == 0) {
            x = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                mant <<= 1;
            } while (!(mant & 0x400u));
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
        }
    } else if (exp == 31) {
        x = sign | 0x7f800000u | (mant << 13);
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static int unbox_int(PyObject *value, const cj_type *t, void *dst) {
    if (!PyLong_CheckExact(value) &&
        (PyArray_IsScalar(value, Integer) || PyArray_IsScalar(value, Bool))) {
        PyObject *as_int = PyNumber_Index(value);
        if (as_int == NULL) {
            return -1;
        }
        int rc = unbox_int(as_int, t, dst);
        Py_DECREF(as_int);
        return rc;
    }
    if (PyFloat_Check(value) || PyArray_IsScalar(value, Floating)) {
        /* an unsafe conversion dispatch allows for fixed signatures: truncated, as int() */
        PyObject *as_int = PyNumber_Long(value);
        if (as_int == NULL) {
            return -1;
        }
        int rc = unbox_int(as_int, t, dst);
        Py_DECREF(as_int);
        return rc;
    }
    if (!PyLong_Check(value)) { /* an exact int, a bool or an int subclass pass */
        PyErr_Format(PyExc_TypeError, "expected an integer for %s, got %.200s", t->name,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long u;
    if (t->is_signed && t->bits == 64) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_OverflowError, "%R does not fit in int64", value);
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        memcpy(dst, &v, 8);
        return 0;
    }
    if (t->is_signed) {
        long long v = PyLong_AsLongLong(value);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        u = (unsigned long long)v;
    } else {
        u = PyLong_AsUnsignedLongLongMask(value);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            return -1;
        }
    }
    switch (t->bits) { /* little-endian truncation, as a C cast */
    case 8: {
        uint8_t v = (uint8_t)u;
        memcpy(dst, &v, 1);
        break;
    }
    case 16: {
        uint16_t v = (uint16_t)u;
        memcpy(dst, &v, 2);
        break;
    }
    case 32: {
        uint32_t v = (uint32_t)u;
        memcpy(dst, &v, 4);
        break;
    }
    default:
        memcpy(dst, &u, 8);
    }
    return 0;
}

static int unbox_float(PyObject *value, const cj_type *t, void *dst) {
    if (t->bits == 32 && PyArray_IsScalar(value, Float)) {
        memcpy(dst, &PyArrayScalar_VAL(value, Float), 4);
        return 0;
    }
    double d = PyFloat_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (t->bits == 64) {
        memcpy(dst, &d, 8);
    } else if (t->bits == 32) {
        float f = (float)d;
        memcpy(dst, &f, 4);
    } else {
        uint16_t h = double_to_half(d);
        memcpy(dst, &h, 2);
    }
    return 0;
}

static int unbox_complex(PyObject *value, const cj_type *t, void *dst) {
    if (t->bits == 64 && PyArray_IsScalar(value, CFloat)) {
        memcpy(dst, &PyArrayScalar_VAL(value, CFloat), 8);
        return 0;
    }
    Py_complex c = PyComplex_AsCComplex(value);
    if (c.real == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (t->bits == 128) {
        double parts[2] = {c.real, c.imag};
        memcpy(dst, parts, 16);
    } else {
        float parts[2] = {(float)c.real, (float)c.imag};
        memcpy(dst, parts, 8);
    }
    return 0;
}

/* The element type of an array (NULL when cujit has none): quick for scalar dtypes. */
static const cj_type *array_dtype(PyArrayObject *arr) {
    if (PyArray_TYPE(arr) != NPY_VOID) {
        return cj_type_from_npy_typenum(PyArray_TYPE(arr));
    }
    const cj_type *t = cj_type_from_descr((PyObject *)PyArray_DESCR(arr));
    PyErr_Clear(); /* the caller names the mismatch */
    return t;
}

/* A record argument is passed by reference: a pointer to the np.void scalar's bytes, which
 * for `a[i]` are the array's (numba's behaviour: writes reach the caller). */
static int unbox_record(PyObject *value, const cj_type *t, void *dst) {
    if (!PyArray_IsScalar(value, Void)) {
        PyErr_Format(PyExc_TypeError, "expected a NumPy record (np.void) for %s, got %.200s",
                     t->name, Py_TYPE(value)->tp_name);
        return -1;
    }
    PyVoidScalarObject *v = (PyVoidScalarObject *)value;
    const cj_type *given = cj_type_from_descr((PyObject *)v->descr);
    if (given != t) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "expected %s, got a record of dtype %R", t->name,
                     (PyObject *)v->descr);
        return -1;
    }
    memcpy(dst, &v->obval, sizeof(void *));
    return 0;
}

/* A record returned is a copy, as numba's (the data it points to may not outlive the call). */
static PyObject *box_record(const void *src, const cj_type *t) {
    char *data;
    memcpy(&data, src, sizeof(void *));
    return PyArray_Scalar(data, (PyArray_Descr *)t->obj, NULL);
}

static int unbox_array(PyObject *value, const cj_type *t, void *dst) {
    if (!PyArray_Check(value)) {
        PyErr_Format(PyExc_TypeError, "expected a NumPy array for %s, got %.200s", t->name,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    PyArrayObject *arr = (PyArrayObject *)value;
    const cj_type *dtype = array_dtype(arr);
    if (dtype != t->dtype || PyArray_NDIM(arr) != t->ndim) {
        PyErr_Format(PyExc_TypeError, "expected %s, got an array of dtype %R with %d "
                                      "dimensions", t->name, (PyObject *)PyArray_DESCR(arr),
                     PyArray_NDIM(arr));
        return -1;
    }
    if (!t->readonly && !PyArray_ISWRITEABLE(arr)) {
        PyErr_Format(PyExc_TypeError, "expected a writable array for %s", t->name);
        return -1;
    }
    char *p = dst;
    void *data = PyArray_DATA(arr);
    memcpy(p, &data, sizeof(void *));
    memcpy(p + 8, &value, sizeof(void *));
    for (int d = 0; d < t->ndim; d++) {
        int64_t dim = PyArray_DIM(arr, d), stride = PyArray_STRIDE(arr, d);
        memcpy(p + 16 + 8 * (size_t)d, &dim, 8);
        memcpy(p + 16 + 8 * (size_t)(t->ndim + d), &stride, 8);
    }
    memset(p + 16 + 16 * (size_t)t->ndim, 0, sizeof(void *)); /* no meminfo: NumPy owns it */
    return 0;
}

static int unbox_tuple(PyObject *value, const cj_type *t, void *dst) {
    if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != t->n) {
        PyErr_Format(PyExc_TypeError, "expected a tuple for %s", t->name);
        return -1;
    }
    memset(dst, 0, cj_abi_size(t)); /* strings not reached yet are NULL for reflect.c */
    for (int i = 0; i < t->n; i++) {
        if (cj_unbox(PyTuple_GET_ITEM(value, i), t->items[i],
                     (char *)dst + cj_abi_tuple_offset(t, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

/* An OptionalType(T) argument (types/optional.c): None is all zero, else the value, valid. */
static int unbox_optional(PyObject *value, const cj_type *t, void *dst) {
    memset(dst, 0, cj_abi_size(t));
    if (value == Py_None) {
        return 0;
    }
    *((uint8_t *)dst + cj_abi_tuple_offset(t, 1)) = 1;
    return cj_unbox(value, t->dtype, dst);
}

int cj_unbox(PyObject *value, const cj_type *t, void *dst) {
    switch (t->kind) {
    case CJ_OPTIONAL:
        return unbox_optional(value, t, dst);
    case CJ_BOOL: {
        int truth = PyObject_IsTrue(value);
        if (truth < 0) {
            return -1;
        }
        *(uint8_t *)dst = (uint8_t)truth;
        return 0;
    }
    case CJ_INT:
        return unbox_int(value, t, dst);
    case CJ_FLOAT:
        return unbox_float(value, t, dst);
    case CJ_COMPLEX:
        return unbox_complex(value, t, dst);
    case CJ_ARRAY:
        return unbox_array(value, t, dst);
    case CJ_TUPLE:
        return unbox_tuple(value, t, dst);
    case CJ_RECORD:
        return unbox_record(value, t, dst);
    case CJ_LIST: /* reflect.c: the caller drops it (cj_reflect_args) */
        return cj_unbox_list(value, t, dst);
    case CJ_EXT: /* the object itself (borrowed): the wrapper runs the user's unbox */
        *(PyObject **)dst = value;
        return 0;
    case CJ_UNICODE: { /* read in place (abi/unicode.c); cj_reflect_args drops it */
        cj_meminfo *mi = cj_str_from_pyobject(value);
        memcpy(dst, &mi, sizeof(mi));
        return mi != NULL ? 0 : -1;
    }
    case CJ_DICT: /* typed_dict.c: its own memory, borrowed for the call */
        return cj_unbox_typed_dict(value, t, dst);
    case CJ_SET: /* reflect_set.c: the caller drops it (cj_reflect_args) */
        return cj_unbox_set(value, t, dst);
    default:
        return 0; /* no data: None, omitted arguments */
    }
}

static PyObject *box_int(const void *src, const cj_type *t) {
    switch (t->bits) {
    case 8:
        return t->is_signed ? PyLong_FromLong(*(const int8_t *)src)
                            : PyLong_FromUnsignedLong(*(const uint8_t *)src);
    case 16:
        return t->is_signed ? PyLong_FromLong(*(const int16_t *)src)
                            : PyLong_FromUnsignedLong(*(const uint16_t *)src);
    case 32:
        return t->is_signed ? PyLong_FromLong(*(const int32_t *)src)
                            : PyLong_FromUnsignedLong(*(const uint32_t *)src);
    default: {
        int64_t v;
        memcpy(&v, src, 8);
        return t->is_signed ? PyLong_FromLongLong(v) : PyLong_FromUnsignedLongLong((uint64_t)v);
    }
    }
}

/* Whether the array {data, shape, strides} of type `t` is all of `parent`, as it was
 * unboxed: then boxing gives `parent` back (numba does the same). */
static int views_all_of(PyObject *parent, const void *data, const npy_intp *shape,
                        const npy_intp *strides, const cj_type *t) {
    if (parent == NULL || !PyArray_Check(parent)) {
        return 0;
    }
    PyArrayObject *arr = (PyArrayObject *)parent;
    if (PyArray_DATA(arr) != data || PyArray_NDIM(arr) != t->ndim ||
        array_dtype(arr) != t->dtype ||
        (!t->readonly && !PyArray_ISWRITEABLE(arr))) {
        return 0;
    }
    for (int d = 0; d < t->ndim; d++) {
        if (PyArray_DIM(arr, d) != shape[d] || PyArray_STRIDE(arr, d) != strides[d]) {
            return 0;
        }
    }
    return 1;
}

static PyObject *box_array(const void *src, const cj_type *t) {
    const char *p = src;
    void *data;
    PyObject *parent;
    memcpy(&data, p, sizeof(void *));
    memcpy(&parent, p + 8, sizeof(void *));
    cj_meminfo *meminfo;
    memcpy(&meminfo, p + 16 + 16 * (size_t)t->ndim, sizeof(void *));
    npy_intp shape[32], strides[32];
    for (int d = 0; d < t->ndim; d++) {
        int64_t v;
        memcpy(&v, p + 16 + 8 * (size_t)d, 8);
        shape[d] = (npy_intp)v;
        memcpy(&v, p + 16 + 8 * (size_t)(t->ndim + d), 8);
        strides[d] = (npy_intp)v;
    }
    if (views_all_of(parent, data, shape, strides, t)) {
        Py_INCREF(parent);
        return parent;
    }
    PyArray_Descr *descr = t->dtype->kind == CJ_RECORD
                               ? (PyArray_Descr *)Py_NewRef(t->dtype->obj)
                               : PyArray_DescrFromType(cj_type_npy_typenum(t->dtype));
    if (descr == NULL) {
        return NULL;
    }
    int flags = t->readonly ? 0 : NPY_ARRAY_WRITEABLE;
    PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, shape, strides, data,
                                         flags, NULL); /* steals descr */
    if (arr == NULL) {
        return NULL;
    }
    /* the base keeps the memory alive: the object it came from, or its allocation */
    PyObject *base = parent != NULL ? (Py_INCREF(parent), parent)
                     : meminfo != NULL ? cj_meminfo_object(meminfo) : NULL;
    if ((parent != NULL || meminfo != NULL) &&
        (base == NULL || PyArray_SetBaseObject((PyArrayObject *)arr, base) < 0)) {
        Py_DECREF(arr); /* SetBaseObject steals base, even on failure */
        return NULL;
    }
    return arr;
}

/* A list compiled code made: a new Python list of its items, boxed (numba returns a copy). */
static PyObject *box_list(const void *src, const cj_type *t) {
    cj_meminfo *mi;
    memcpy(&mi, src, sizeof(void *));
    const cj_list *l = mi->data;
    if (t->reflected == CJ_LIST_TYPED) { /* a cujit.typed.List over the same memory */
        return cj_typed_list_wrap(mi, t);
    }
    if (l->parent != NULL) { /* a reflected list: the caller's list (reflect.c updates it) */
        Py_INCREF(l->parent);
        return l->parent;
    }
    PyObject *out = PyList_New((Py_ssize_t)l->len);
    for (int64_t i = 0; out != NULL && i < l->len; i++) {
        PyObject *item = cj_box(l->items + i * l->item_size, t->dtype);
        if (item == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, item);
    }
    return out;
}

/* A float of 64, 32 or 16 bits as a Python float. */
static PyObject *box_float(const void *src, const cj_type *t) {
    if (t->bits == 64) {
        double d;
        memcpy(&d, src, 8);
        return PyFloat_FromDouble(d);
    }
    if (t->bits == 32) {
        float f;
        memcpy(&f, src, 4);
        return PyFloat_FromDouble(f);
    }
    uint16_t h;
    memcpy(&h, src, 2);
    return PyFloat_FromDouble(half_to_double(h));
}

static PyObject *box_complex(const void *src, const cj_type *t) {
    if (t->bits == 128) {
        double parts[2];
        memcpy(parts, src, 16);
        return PyComplex_FromDoubles(parts[0], parts[1]);
    }
    float parts[2];
    memcpy(parts, src, 8);
    return PyComplex_FromDoubles(parts[0], parts[1]);
}

PyObject *cj_box(const void *src, const cj_type *t) {
    switch (t->kind) {
    case CJ_EXT: /* the object the wrapper's box made (a new reference: taken over) */
        return *(PyObject *const *)src;
    case CJ_BOOL:
        return PyBool_FromLong(*(const uint8_t *)src & 1);
    case CJ_INT:
        return box_int(src, t);
    case CJ_FLOAT:
        return box_float(src, t);
    case CJ_COMPLEX:
        return box_complex(src, t);
    case CJ_TUPLE: {
        PyObject *tup = PyTuple_New(t->n);
        for (int i = 0; tup != NULL && i < t->n; i++) {
            PyObject *item = cj_box((const char *)src + cj_abi_tuple_offset(t, i), t->items[i]);
            if (item == NULL) {
                Py_CLEAR(tup);
                break;
            }
            PyTuple_SET_ITEM(tup, i, item);
        }
        return tup;
    }
    case CJ_ARRAY:
        return box_array(src, t);
    case CJ_RECORD:
        return box_record(src, t);
    case CJ_LIST:
        return box_list(src, t);
    case CJ_UNICODE: {
        cj_meminfo *mi;
        memcpy(&mi, src, sizeof(mi));
        return cj_str_to_pyobject(mi);
    }
    case CJ_DICT: { /* a cujit.typed.Dict over the same memory (typed_dict.c) */
        cj_meminfo *mi;
        memcpy(&mi, src, sizeof(void *));
        return cj_typed_dict_wrap(mi, t);
    }
    case CJ_SET: /* reflect_set.c */
        return cj_box_set(src, t);
    case CJ_OPTIONAL: /* None, or the value (types/optional.c's layout) */
        if (!(*((const uint8_t *)src + cj_abi_tuple_offset(t, 1)) & 1)) {
            Py_RETURN_NONE;
        }
        return cj_box(src, t->dtype);
    case CJ_NONE:
    case CJ_VOID:
        Py_RETURN_NONE;
    case CJ_CONST_OBJ: /* a literal string (in a tuple): its value is the type's constant */
        if (PyUnicode_Check(t->obj)) {
            return Py_NewRef(t->obj);
        }
        PyErr_Format(PyExc_TypeError, "cujit cannot return a value of type %s", t->name);
        return NULL;
    case CJ_GENERATOR: { /* a generator object over the same frame (generator_object.c) */
        cj_meminfo *mi;
        memcpy(&mi, src, sizeof(void *));
        return cj_generator_wrap(mi, t);
    }
    default:
        PyErr_Format(PyExc_TypeError, "cujit cannot return a value of type %s", t->name);
        return NULL;
    }
}
