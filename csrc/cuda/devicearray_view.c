/* devicearray_view.c: the views of a DeviceNDArray, which share its memory and never copy:
 * .T and transpose, reshape and ravel (contiguous arrays only, as in numba), view(dtype),
 * bind(stream), and basic indexing a[ints, slices, None, ...] (cj_devicearray_subview; the
 * __getitem__ slot, which copies an element to the host for an all-int index, is in
 * devicearray_copy.c). The type itself is in devicearray.c. */
#include "cuda/cuda.h"

#define SELF ((cj_DeviceNDArrayObject *)self)

static int contiguous_in(const cj_DeviceNDArrayObject *a, int fortran) {
    return fortran ? cj_devicearray_is_f_contiguous(a) : cj_devicearray_is_c_contiguous(a);
}

/* A view of `a` with a new layout: shares base, stream, device and generation. */
static cj_DeviceNDArrayObject *view_of(cj_DeviceNDArrayObject *a, CUdeviceptr data, int ndim,
                                       const Py_ssize_t *shape, const Py_ssize_t *strides,
                                       PyArray_Descr *dtype) {
    cj_DeviceNDArrayObject *v =
        cj_devicearray_new(data, ndim, shape, strides, dtype ? dtype : a->dtype, a->base,
                           a->stream, a->device);
    if (v != NULL) {
        v->generation = a->generation;
        v->readonly = a->readonly;
    }
    return v;
}

static PyObject *transpose_axes(cj_DeviceNDArrayObject *a, const int *perm) {
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    for (int i = 0; i < a->ndim; i++) {
        shape[i] = a->shape[perm[i]];
        strides[i] = a->strides[perm[i]];
    }
    return (PyObject *)view_of(a, a->data, a->ndim, shape, strides, NULL);
}

PyObject *cj_devicearray_get_T(PyObject *self, void *c) {
    int perm[CJ_MAXDIM];
    for (int i = 0; i < SELF->ndim; i++) {
        perm[i] = SELF->ndim - 1 - i;
    }
    return transpose_axes(SELF, perm);
}

PyObject *cj_devicearray_transpose_meth(PyObject *self, PyObject *args) {
    PyObject *axes = args;
    if (PyTuple_GET_SIZE(args) == 0 ||
        (PyTuple_GET_SIZE(args) == 1 && PyTuple_GET_ITEM(args, 0) == Py_None)) {
        return cj_devicearray_get_T(self, NULL);
    }
    if (PyTuple_GET_SIZE(args) == 1 && !PyIndex_Check(PyTuple_GET_ITEM(args, 0))) {
        axes = PyTuple_GET_ITEM(args, 0);
    }
    int n;
    Py_ssize_t ax[CJ_MAXDIM];
    if (cj_parse_shape(axes, &n, ax) < 0) {
        return NULL;
    }
    if (n != SELF->ndim) {
        PyErr_SetString(PyExc_ValueError, "axes don't match array");
        return NULL;
    }
    int perm[CJ_MAXDIM], seen[CJ_MAXDIM] = {0};
    for (int i = 0; i < n; i++) {
        Py_ssize_t a = ax[i] < 0 ? ax[i] + n : ax[i];
        if (a < 0 || a >= n || seen[a]) {
            PyErr_SetString(PyExc_ValueError, "axes must be a permutation of the dimensions");
            return NULL;
        }
        seen[a] = 1;
        perm[i] = (int)a;
    }
    return transpose_axes(SELF, perm);
}

/* reshape(*shape, order='C'): a view when the array is contiguous in `order`; numba refuses
 * reshapes that need a copy, and so does cujit. */
PyObject *cj_devicearray_reshape_meth(PyObject *self, PyObject *args, PyObject *kwargs) {
    const char *order = "C";
    if (kwargs != NULL) {
        PyObject *o = PyDict_GetItemString(kwargs, "order");
        if (o == NULL || PyDict_GET_SIZE(kwargs) != 1) {
            PyErr_SetString(PyExc_TypeError, "reshape() takes only the 'order' keyword");
            return NULL;
        }
        order = PyUnicode_AsUTF8(o);
        if (order == NULL) {
            return NULL;
        }
    }
    int fortran, ndim;
    Py_ssize_t shape[CJ_MAXDIM];
    if (cj_parse_order(order, &fortran) < 0) {
        return NULL;
    }
    PyObject *shape_obj = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    if (cj_parse_shape(shape_obj, &ndim, shape) < 0) {
        return NULL;
    }
    int unknown = -1;
    Py_ssize_t known = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == -1) {
            if (unknown >= 0) {
                PyErr_SetString(PyExc_ValueError, "can only specify one unknown dimension");
                return NULL;
            }
            unknown = i;
        } else if (shape[i] < 0) {
            PyErr_Format(PyExc_ValueError, "negative dimension %zd in reshape", shape[i]);
            return NULL;
        } else if (shape[i] != 0 && known > PY_SSIZE_T_MAX / shape[i]) {
            PyErr_SetString(PyExc_ValueError, "reshape dimensions overflow");
            return NULL;
        } else {
            known *= shape[i];
        }
    }
    if (unknown >= 0) {
        if (known == 0 || SELF->size % known != 0) {
            PyErr_Format(PyExc_ValueError, "cannot reshape array of size %zd into that shape",
                         SELF->size);
            return NULL;
        }
        shape[unknown] = SELF->size / known;
        known = SELF->size;
    }
    if (known != SELF->size) {
        PyErr_Format(PyExc_ValueError, "cannot reshape array of size %zd into shape of size %zd",
                     SELF->size, known);
        return NULL;
    }
    if (!contiguous_in(SELF, fortran) && SELF->size > 1) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "reshape of a non-contiguous device array (or in the other order) "
                        "needs a copy, which DeviceNDArray.reshape does not make (as in numba)");
        return NULL;
    }
    Py_ssize_t strides[CJ_MAXDIM], size;
    if (cj_layout_check(ndim, shape, strides, PyDataType_ELSIZE(SELF->dtype), fortran, &size) < 0) {
        return NULL;
    }
    return (PyObject *)view_of(SELF, SELF->data, ndim, shape, strides, NULL);
}

PyObject *cj_devicearray_ravel_meth(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"order", "stream", NULL};
    const char *order = "C";
    PyObject *stream = NULL; /* numba's signature; a view needs no stream */
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|sO:ravel", kwlist, &order, &stream)) {
        return NULL;
    }
    int fortran;
    if (cj_parse_order(order, &fortran) < 0) {
        return NULL;
    }
    if (!contiguous_in(SELF, fortran)) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "ravel of a non-contiguous device array needs a copy (as in numba)");
        return NULL;
    }
    Py_ssize_t shape[1] = {SELF->size}, strides[1] = {PyDataType_ELSIZE(SELF->dtype)};
    return (PyObject *)view_of(SELF, SELF->data, 1, shape, strides, NULL);
}

/* view(dtype): reinterprets the bytes; a different itemsize needs a contiguous last axis. */
PyObject *cj_devicearray_view_meth(PyObject *self, PyObject *arg) {
    PyArray_Descr *dtype = NULL;
    if (!PyArray_DescrConverter(arg, &dtype)) {
        return NULL;
    }
    if (cj_devicearray_check_dtype(dtype) < 0) {
        Py_DECREF(dtype);
        return NULL;
    }
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    memcpy(shape, SELF->shape, sizeof(shape));
    memcpy(strides, SELF->strides, sizeof(strides));
    Py_ssize_t old = PyDataType_ELSIZE(SELF->dtype), new = PyDataType_ELSIZE(dtype);
    if (old != new) {
        int last = SELF->ndim - 1;
        if (last < 0 || SELF->strides[last] != old ||
            (SELF->shape[last] * old) % new != 0) {
            Py_DECREF(dtype);
            PyErr_SetString(PyExc_ValueError,
                            "changing the itemsize needs a contiguous last axis whose byte "
                            "size divides by the new itemsize");
            return NULL;
        }
        shape[last] = SELF->shape[last] * old / new;
        strides[last] = new;
    }
    PyObject *v = (PyObject *)view_of(SELF, SELF->data, SELF->ndim, shape, strides, dtype);
    Py_DECREF(dtype);
    return v;
}

PyObject *cj_devicearray_bind_meth(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"stream", NULL};
    PyObject *stream = NULL;
    CUstream h;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:bind", kwlist, &stream) ||
        cj_stream_handle(stream, &h) < 0) {
        return NULL;
    }
    cj_DeviceNDArrayObject *v = view_of(SELF, SELF->data, SELF->ndim, SELF->shape, SELF->strides,
                                        NULL);
    if (v != NULL) {
        Py_CLEAR(v->stream);
        if (stream != NULL && cj_Stream_Check(stream)) {
            v->stream = Py_NewRef(stream);
        }
    }
    return (PyObject *)v;
}

/* ---- indexing: basic slicing gives views ---- */

/* The axes of `a` that `items` consume (ints and slices) into *consumed; -1 with IndexError
 * for a second ellipsis or more indices than axes. */
static int count_consumed(const cj_DeviceNDArrayObject *a, PyObject *items,
                          Py_ssize_t *consumed) {
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    int ellipsis = 0;
    *consumed = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(items, i);
        if (k == Py_Ellipsis) {
            if (ellipsis++) {
                PyErr_SetString(PyExc_IndexError, "an index can only have one ellipsis");
                return -1;
            }
        } else if (k != Py_None) {
            (*consumed)++;
        }
    }
    if (*consumed > a->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices: array is %d-dimensional", a->ndim);
        return -1;
    }
    return 0;
}

/* The view's position: the next axis of `a` to read, the next axis of the view to fill. */
typedef struct index_pos {
    int src, out;
    Py_ssize_t offset; /* bytes from a->data */
} index_pos;

/* Keeps `count` axes of `a` as they are (an ellipsis, the axes left after the index). */
static int keep_axes(const cj_DeviceNDArrayObject *a, Py_ssize_t count, index_pos *p,
                     Py_ssize_t *shape, Py_ssize_t *strides) {
    for (Py_ssize_t j = 0; j < count; j++, p->src++, p->out++) {
        if (p->out >= CJ_MAXDIM) {
            PyErr_SetString(PyExc_IndexError, "too many dimensions in the index");
            return -1;
        }
        shape[p->out] = a->shape[p->src];
        strides[p->out] = a->strides[p->src];
    }
    return 0;
}

/* An int index: one axis of `a` gone, the offset moved to the element. */
static int index_int(const cj_DeviceNDArrayObject *a, PyObject *k, index_pos *p) {
    Py_ssize_t idx = PyNumber_AsSsize_t(k, PyExc_IndexError);
    if (idx == -1 && PyErr_Occurred()) {
        return -1;
    }
    Py_ssize_t dim = a->shape[p->src];
    if (idx < -dim || idx >= dim) {
        PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for axis %d with size %zd",
                     idx, p->src, dim);
        return -1;
    }
    if (idx < 0) {
        idx += dim;
    }
    p->offset += idx * a->strides[p->src];
    p->src++;
    return 0;
}

/* One item of the index other than the ellipsis: None, a slice or an int. */
static int index_item(const cj_DeviceNDArrayObject *a, PyObject *k, index_pos *p,
                      Py_ssize_t *shape, Py_ssize_t *strides) {
    if (p->out >= CJ_MAXDIM && (k == Py_None || PySlice_Check(k))) {
        PyErr_SetString(PyExc_IndexError, "too many dimensions in the index");
        return -1;
    }
    if (k == Py_None) {
        shape[p->out] = 1;
        strides[p->out] = 0;
        p->out++;
    } else if (PySlice_Check(k)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(k, &start, &stop, &step) < 0) {
            return -1;
        }
        Py_ssize_t len = PySlice_AdjustIndices(a->shape[p->src], &start, &stop, step);
        p->offset += len > 0 ? start * a->strides[p->src] : 0;
        shape[p->out] = len;
        strides[p->out] = a->strides[p->src] * step;
        p->out++;
        p->src++;
    } else if (!PyBool_Check(k) && PyIndex_Check(k) && !PyArray_Check(k)) {
        return index_int(a, k, p);
    } else {
        PyErr_Format(PyExc_IndexError,
                     "device arrays support basic indexing only (ints, slices, None, "
                     "...); got %.100s: copy to the host for advanced indexing",
                     Py_TYPE(k)->tp_name);
        return -1;
    }
    return 0;
}

/* Applies `key` to `a`: fills the view's data pointer and layout. */
static int apply_index(cj_DeviceNDArrayObject *a, PyObject *key, CUdeviceptr *data, int *ndim,
                       Py_ssize_t *shape, Py_ssize_t *strides) {
    PyObject *items = PyTuple_Check(key) ? Py_NewRef(key) : PyTuple_Pack(1, key);
    if (items == NULL) {
        return -1;
    }
    Py_ssize_t consumed;
    if (count_consumed(a, items, &consumed) < 0) {
        Py_DECREF(items);
        return -1;
    }
    index_pos p = {0, 0, 0};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
        PyObject *k = PyTuple_GET_ITEM(items, i);
        int rc = k == Py_Ellipsis ? keep_axes(a, a->ndim - consumed, &p, shape, strides)
                                  : index_item(a, k, &p, shape, strides);
        if (rc < 0) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    if (keep_axes(a, a->ndim - p.src, &p, shape, strides) < 0) {
        return -1;
    }
    *data = a->data + (CUdeviceptr)p.offset;
    *ndim = p.out;
    return 0;
}

/* The view `a[key]` as an array (even 0-d); used by __getitem__ and __setitem__. */
PyObject *cj_devicearray_subview(cj_DeviceNDArrayObject *a, PyObject *key) {
    CUdeviceptr data;
    int ndim;
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    if (apply_index(a, key, &data, &ndim, shape, strides) < 0) {
        return NULL;
    }
    return (PyObject *)view_of(a, data, ndim, shape, strides, NULL);
}
