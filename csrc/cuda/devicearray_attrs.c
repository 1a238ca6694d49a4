/* devicearray_attrs.c: numba-cuda's DeviceNDArray.flags (a new dict {'C_CONTIGUOUS': bool,
 * 'F_CONTIGUOUS': bool} each time, as numba-cuda's defensive copy) and squeeze(axis=None,
 * stream=0), a view without (the chosen) axes of length 1; ValueError naming an axis longer
 * than 1, as numba-cuda's. The type is in devicearray.c. */
#include "cuda/cuda.h"

#define SELF ((cj_DeviceNDArrayObject *)self)

PyObject *cj_devicearray_get_flags(PyObject *self, void *closure) {
    return Py_BuildValue("{sOsO}", "C_CONTIGUOUS",
                         cj_devicearray_is_c_contiguous(SELF) ? Py_True : Py_False,
                         "F_CONTIGUOUS",
                         cj_devicearray_is_f_contiguous(SELF) ? Py_True : Py_False);
}

/* Marks in drop[] the axes `axis` names (None: every axis of length 1); -1 with an
 * exception for a bad axis. */
static int squeezed_axes(const cj_DeviceNDArrayObject *a, PyObject *axis, int *drop) {
    for (int d = 0; d < a->ndim; d++) {
        drop[d] = axis == Py_None && a->shape[d] == 1;
    }
    if (axis == Py_None) {
        return 0;
    }
    PyObject *seq = PyTuple_Check(axis) ? Py_NewRef(axis) : PyTuple_Pack(1, axis);
    if (seq == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seq); i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!PyLong_Check(item) || PyBool_Check(item)) {
            PyErr_Format(PyExc_TypeError, "squeeze: axis must be None, an int or a tuple of "
                         "ints, not %.80s", Py_TYPE(item)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t d = PyLong_AsSsize_t(item);
        if (d == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        d = d < 0 ? d + a->ndim : d;
        if (d < 0 || d >= a->ndim) {
            PyErr_Format(PyExc_ValueError, "squeeze: axis %R is out of bounds for an array "
                         "of %d dimensions", item, a->ndim);
            Py_DECREF(seq);
            return -1;
        }
        if (a->shape[d] != 1) {
            PyErr_Format(PyExc_ValueError, "cannot select an axis to squeeze out which has "
                         "size not equal to one");
            Py_DECREF(seq);
            return -1;
        }
        drop[d] = 1;
    }
    Py_DECREF(seq);
    return 0;
}

PyObject *cj_devicearray_squeeze_meth(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"axis", "stream", NULL};
    PyObject *axis = Py_None, *stream = NULL;
    int drop[CJ_MAXDIM];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:squeeze", kwlist, &axis, &stream) ||
        squeezed_axes(SELF, axis, drop) < 0) {
        return NULL;
    }
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    int ndim = 0;
    for (int d = 0; d < SELF->ndim; d++) {
        if (!drop[d]) {
            shape[ndim] = SELF->shape[d];
            strides[ndim++] = SELF->strides[d];
        }
    }
    cj_DeviceNDArrayObject *v = cj_devicearray_new(SELF->data, ndim, shape, strides, SELF->dtype,
                                                   SELF->base, SELF->stream, SELF->device);
    if (v == NULL) {
        return NULL;
    }
    v->generation = SELF->generation;
    v->readonly = SELF->readonly;
    /* stream 0 (or none): the array's own stream, as numba-cuda's _default_stream */
    int overflow = 0;
    int keep = stream == NULL || stream == Py_None ||
               (PyLong_CheckExact(stream) && PyLong_AsLongAndOverflow(stream, &overflow) == 0 &&
                !overflow);
    if (keep) {
        return (PyObject *)v;
    }
    /* numba-cuda: the stream given becomes the view's default (as bind(stream)) */
    PyObject *bound = PyObject_CallMethod((PyObject *)v, "bind", "O", stream);
    Py_DECREF(v);
    return bound;
}
