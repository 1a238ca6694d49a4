/* devicearray_copy.c: host <-> device and device <-> device copies, __setitem__ and to_device;
 * also the DeviceNDArray slots that copy (__array__, __getitem__ of one element).
 *
 * A copy uses the given stream, else the array's own stream (numba's rule), and is
 * asynchronous exactly when that stream is not the default one. Contiguous layouts copy in one
 * driver call; others go through a host staging buffer covering the array's byte extent (read,
 * modify, write back), after which the stream is synchronised because the buffer dies. Large
 * copies to or from pageable memory go through staging.c (synchronous for the caller, as the
 * driver's pageable copies are). Every blocking driver call runs without the GIL. */
#include "cuda/cuda.h"

typedef struct copy_stream {
    CUstream handle;
    int async;
} copy_stream;

static int pick_stream(cj_DeviceNDArrayObject *a, PyObject *arg, copy_stream *cs) {
    int given = arg != NULL && arg != Py_None &&
                !(PyLong_CheckExact(arg) && PyLong_AsLong(arg) == 0);
    PyObject *stream = given ? arg : a->stream;
    if (cj_stream_handle(stream, &cs->handle) < 0) {
        return -1;
    }
    cs->async = stream != NULL;
    return 0;
}

static int sync_stream(const copy_stream *cs) {
    if (!cs->async) {
        return 0;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = CJ_CU_RAW(cuStreamSynchronize, cs->handle);
    Py_END_ALLOW_THREADS
    return cj_cu_result(res, "cuStreamSynchronize");
}

static int dtoh(void *dst, CUdeviceptr src, size_t n, const copy_stream *cs) {
    if (n == 0) {
        return 0;
    }
    int staged = cj_staged_dtoh(dst, src, n, cs->handle); /* big pageable copies: faster */
    if (staged != 0) {
        return staged < 0 ? -1 : 0;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = cs->async ? CJ_CU_RAW(cuMemcpyDtoHAsync, dst, src, n, cs->handle)
                    : CJ_CU_RAW(cuMemcpyDtoH, dst, src, n);
    Py_END_ALLOW_THREADS
    return cj_cu_result(res, cs->async ? "cuMemcpyDtoHAsync" : "cuMemcpyDtoH");
}

static int htod(CUdeviceptr dst, const void *src, size_t n, const copy_stream *cs) {
    if (n == 0) {
        return 0;
    }
    int staged = cj_staged_htod(dst, src, n, cs->handle); /* big pageable copies: faster */
    if (staged != 0) {
        return staged < 0 ? -1 : 0;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = cs->async ? CJ_CU_RAW(cuMemcpyHtoDAsync, dst, src, n, cs->handle)
                    : CJ_CU_RAW(cuMemcpyHtoD, dst, src, n);
    Py_END_ALLOW_THREADS
    return cj_cu_result(res, cs->async ? "cuMemcpyHtoDAsync" : "cuMemcpyHtoD");
}

static int dtod(CUdeviceptr dst, CUdeviceptr src, size_t n, const copy_stream *cs) {
    if (n == 0) {
        return 0;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = cs->async ? CJ_CU_RAW(cuMemcpyDtoDAsync, dst, src, n, cs->handle)
                    : CJ_CU_RAW(cuMemcpyDtoD, dst, src, n);
    Py_END_ALLOW_THREADS
    return cj_cu_result(res, cs->async ? "cuMemcpyDtoDAsync" : "cuMemcpyDtoD");
}

/* Same memory order for the device array and the host array, so one memcpy suffices. */
static int same_layout(cj_DeviceNDArrayObject *a, PyArrayObject *h) {
    return (cj_devicearray_is_c_contiguous(a) && PyArray_IS_C_CONTIGUOUS(h)) ||
           (cj_devicearray_is_f_contiguous(a) && PyArray_IS_F_CONTIGUOUS(h));
}

/* A host array laid out exactly like `a` (same strides) over a fresh staging buffer holding
 * `a`'s byte extent, filled from the device when `read`. New reference or NULL. */
static PyArrayObject *staging(cj_DeviceNDArrayObject *a, int read, const copy_stream *cs) {
    Py_ssize_t lo, hi;
    cj_devicearray_extent(a, &lo, &hi);
    npy_intp one = hi - lo > 0 ? hi - lo : 1;
    PyArrayObject *bytes = (PyArrayObject *)PyArray_SimpleNew(1, &one, NPY_UINT8);
    if (bytes == NULL) {
        return NULL;
    }
    if (read && dtoh(PyArray_DATA(bytes), a->data + (CUdeviceptr)lo, (size_t)(hi - lo), cs) < 0) {
        Py_DECREF(bytes);
        return NULL;
    }
    Py_INCREF(a->dtype);
    PyArrayObject *view = (PyArrayObject *)PyArray_NewFromDescr(
        &PyArray_Type, a->dtype, a->ndim, (npy_intp *)a->shape, (npy_intp *)a->strides,
        (char *)PyArray_DATA(bytes) - lo, NPY_ARRAY_WRITEABLE, NULL); /* steals dtype */
    if (view == NULL) {
        Py_DECREF(bytes);
        return NULL;
    }
    if (PyArray_SetBaseObject(view, (PyObject *)bytes) < 0) { /* steals bytes */
        Py_DECREF(view);
        return NULL;
    }
    return view;
}

static int check_host_target(cj_DeviceNDArrayObject *a, PyObject *host) {
    if (!PyArray_Check(host)) {
        PyErr_Format(PyExc_TypeError, "copy_to_host target must be a NumPy array, not %.100s",
                     Py_TYPE(host)->tp_name);
        return -1;
    }
    PyArrayObject *h = (PyArrayObject *)host;
    if (PyArray_NDIM(h) != a->ndim ||
        (a->ndim > 0 &&
         memcmp(PyArray_SHAPE(h), a->shape, sizeof(npy_intp) * (size_t)a->ndim) != 0)) {
        PyErr_SetString(PyExc_ValueError, "copy_to_host target has a different shape");
        return -1;
    }
    if (!PyArray_EquivTypes(PyArray_DESCR(h), a->dtype)) {
        PyErr_Format(PyExc_TypeError, "copy_to_host target has dtype %R, the array %R",
                     (PyObject *)PyArray_DESCR(h), (PyObject *)a->dtype);
        return -1;
    }
    if (!PyArray_ISWRITEABLE(h)) {
        PyErr_SetString(PyExc_ValueError, "copy_to_host target is read-only");
        return -1;
    }
    return 0;
}

PyObject *cj_copy_to_host(cj_DeviceNDArrayObject *a, PyObject *host, PyObject *stream) {
    copy_stream cs;
    if (cj_devicearray_ready(a) < 0 || pick_stream(a, stream, &cs) < 0) {
        return NULL;
    }
    if (host != NULL && host != Py_None) {
        if (check_host_target(a, host) < 0) {
            return NULL;
        }
        PyArrayObject *h = (PyArrayObject *)host;
        if (same_layout(a, h)) {
            if (dtoh(PyArray_DATA(h), a->data, (size_t)PyArray_NBYTES(h), &cs) < 0) {
                return NULL;
            }
            return Py_NewRef(host);
        }
        PyArrayObject *tmp = staging(a, 1, &cs);
        if (tmp == NULL || sync_stream(&cs) < 0 || PyArray_CopyInto(h, tmp) < 0) {
            Py_XDECREF(tmp);
            return NULL;
        }
        Py_DECREF(tmp);
        return Py_NewRef(host);
    }
    int c = cj_devicearray_is_c_contiguous(a), f = cj_devicearray_is_f_contiguous(a);
    if (c || f) {
        Py_INCREF(a->dtype);
        PyObject *out = PyArray_Empty(a->ndim, (npy_intp *)a->shape, a->dtype, !c);
        if (out == NULL ||
            dtoh(PyArray_DATA((PyArrayObject *)out), a->data,
                 (size_t)PyArray_NBYTES((PyArrayObject *)out), &cs) < 0) {
            Py_XDECREF(out);
            return NULL;
        }
        return out;
    }
    return (PyObject *)staging(a, 1, &cs); /* strided like the device array, as numba does */
}

/* Writes the host array `h` (same shape and dtype as `a`) into `a`. */
static int write_host(cj_DeviceNDArrayObject *a, PyArrayObject *h, const copy_stream *cs) {
    if (a->size == 0) {
        return 0;
    }
    if (same_layout(a, h)) {
        return htod(a->data, PyArray_DATA(h), (size_t)PyArray_NBYTES(h), cs);
    }
    int c = cj_devicearray_is_c_contiguous(a), f = cj_devicearray_is_f_contiguous(a);
    if (c || f) {
        PyArrayObject *tmp = (PyArrayObject *)PyArray_NewCopy(h, c ? NPY_CORDER : NPY_FORTRANORDER);
        if (tmp == NULL) {
            return -1;
        }
        int rc = htod(a->data, PyArray_DATA(tmp), (size_t)PyArray_NBYTES(tmp), cs);
        if (rc == 0) {
            rc = sync_stream(cs);
        }
        Py_DECREF(tmp);
        return rc;
    }
    /* strided view: read the extent, overwrite the elements, write the extent back (the gaps
     * between elements are written with what they held) */
    PyArrayObject *tmp = staging(a, 1, cs);
    if (tmp == NULL) {
        return -1;
    }
    Py_ssize_t lo, hi;
    cj_devicearray_extent(a, &lo, &hi);
    int rc = sync_stream(cs);
    if (rc == 0) {
        rc = PyArray_CopyInto(tmp, h);
    }
    if (rc == 0) {
        rc = htod(a->data + (CUdeviceptr)lo, (char *)PyArray_DATA(tmp) + lo, (size_t)(hi - lo), cs);
    }
    if (rc == 0) {
        rc = sync_stream(cs);
    }
    Py_DECREF(tmp);
    return rc;
}

static int same_shape(cj_DeviceNDArrayObject *a, int ndim, const Py_ssize_t *shape) {
    return a->ndim == ndim &&
           (ndim == 0 || memcmp(a->shape, shape, sizeof(Py_ssize_t) * (size_t)ndim) == 0);
}

/* Device -> device of equal shape; a dtype or layout mismatch goes through the host. */
static int write_device(cj_DeviceNDArrayObject *a, cj_DeviceNDArrayObject *src,
                        const copy_stream *cs) {
    if (cj_devicearray_ready(src) < 0) {
        return -1;
    }
    if (PyArray_EquivTypes(a->dtype, src->dtype) &&
        ((cj_devicearray_is_c_contiguous(a) && cj_devicearray_is_c_contiguous(src)) ||
         (cj_devicearray_is_f_contiguous(a) && cj_devicearray_is_f_contiguous(src)))) {
        return dtod(a->data, src->data, (size_t)(a->size * PyDataType_ELSIZE(a->dtype)), cs);
    }
    PyObject *h = cj_copy_to_host(src, NULL, NULL);
    if (h == NULL) {
        return -1;
    }
    PyArrayObject *cast = (PyArrayObject *)PyArray_FromAny(
        h, (PyArray_Descr *)Py_NewRef((PyObject *)a->dtype), 0, 0, 0, NULL); /* steals dtype */
    Py_DECREF(h);
    if (cast == NULL) {
        return -1;
    }
    int rc = write_host(a, cast, cs);
    Py_DECREF(cast);
    return rc;
}

/* A device-side source: a DeviceNDArray or any object with __cuda_array_interface__ (that is
 * not a NumPy array). New reference, NULL without an exception when `obj` is host data. */
static cj_DeviceNDArrayObject *device_source(PyObject *obj) {
    if (cj_DeviceNDArray_Check(obj)) {
        return (cj_DeviceNDArrayObject *)Py_NewRef(obj);
    }
    if (PyArray_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj) ||
        PyBool_Check(obj) || PyArray_IsScalar(obj, Generic)) {
        return NULL;
    }
    if (!PyObject_HasAttrString(obj, "__cuda_array_interface__")) {
        return NULL;
    }
    cj_cai cai;
    if (cj_cai_parse(obj, &cai) < 0) {
        return (cj_DeviceNDArrayObject *)Py_None; /* marks an error: the caller checks */
    }
    return cj_devicearray_from_cai(&cai, obj, 1);
}

static int check_writable(cj_DeviceNDArrayObject *a) {
    if (a->readonly) {
        PyErr_SetString(PyExc_ValueError, "the device array is read-only");
        return -1;
    }
    return 0;
}

int cj_copy_to_device(cj_DeviceNDArrayObject *a, PyObject *src, PyObject *stream) {
    copy_stream cs;
    if (check_writable(a) < 0 || cj_devicearray_ready(a) < 0 || pick_stream(a, stream, &cs) < 0) {
        return -1;
    }
    cj_DeviceNDArrayObject *d = device_source(src);
    if ((PyObject *)d == Py_None) {
        return -1;
    }
    if (d != NULL) {
        int rc = -1;
        if (!same_shape(a, d->ndim, d->shape)) {
            PyErr_SetString(PyExc_ValueError, "copy_to_device source has a different shape");
        } else if (!PyArray_EquivTypes(a->dtype, d->dtype)) {
            PyErr_Format(PyExc_TypeError, "copy_to_device source has dtype %R, the array %R",
                         (PyObject *)d->dtype, (PyObject *)a->dtype);
        } else {
            rc = write_device(a, d, &cs);
        }
        Py_DECREF(d);
        return rc;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    PyArrayObject *h = (PyArrayObject *)PyArray_FromAny(src, NULL, 0, 0, 0, NULL);
    if (h == NULL) {
        return -1;
    }
    int rc = -1;
    if (!same_shape(a, PyArray_NDIM(h), (Py_ssize_t *)PyArray_SHAPE(h))) {
        PyErr_SetString(PyExc_ValueError, "copy_to_device source has a different shape");
    } else if (!PyArray_EquivTypes(PyArray_DESCR(h), a->dtype)) {
        PyErr_Format(PyExc_TypeError, "copy_to_device source has dtype %R, the array %R",
                     (PyObject *)PyArray_DESCR(h), (PyObject *)a->dtype);
    } else {
        rc = write_host(a, h, &cs);
    }
    Py_DECREF(h);
    return rc;
}

/* Fills a contiguous array with one value through cuMemsetD8/16/32 when its bytes repeat. */
static int try_memset(cj_DeviceNDArrayObject *a, PyArrayObject *value, const copy_stream *cs,
                      int *done) {
    *done = 0;
    if (!cj_devicearray_is_c_contiguous(a) && !cj_devicearray_is_f_contiguous(a)) {
        return 0;
    }
    const unsigned char *b = PyArray_DATA(value);
    size_t n = (size_t)a->size, size = (size_t)PyDataType_ELSIZE(a->dtype);
    unsigned int word = 0;
    int unit = 0;
    if (size == 1) {
        unit = 1;
        word = b[0];
    } else if (size == 2) {
        unit = 2;
        word = (unsigned)b[0] | ((unsigned)b[1] << 8);
    } else if (size % 4 == 0) {
        memcpy(&word, b, 4);
        for (size_t i = 4; i < size; i += 4) {
            if (memcmp(b, b + i, 4) != 0) {
                return 0;
            }
        }
        unit = 4;
        n *= size / 4;
    } else {
        return 0;
    }
    CUresult res;
    if (unit == 1) {
        res = cs->async ? CJ_CU_RAW(cuMemsetD8Async, a->data, (unsigned char)word, n, cs->handle)
                        : CJ_CU_RAW(cuMemsetD8, a->data, (unsigned char)word, n);
    } else if (unit == 2) {
        res = cs->async
                  ? CJ_CU_RAW(cuMemsetD16Async, a->data, (unsigned short)word, n, cs->handle)
                  : CJ_CU_RAW(cuMemsetD16, a->data, (unsigned short)word, n);
    } else {
        res = cs->async ? CJ_CU_RAW(cuMemsetD32Async, a->data, word, n, cs->handle)
                        : CJ_CU_RAW(cuMemsetD32, a->data, word, n);
    }
    *done = 1;
    return cj_cu_result(res, "cuMemset");
}

static int is_scalar(PyObject *v) {
    return PyLong_Check(v) || PyFloat_Check(v) || PyComplex_Check(v) || PyBool_Check(v) ||
           PyArray_IsScalar(v, Generic) || (PyArray_Check(v) && PyArray_NDIM((PyArrayObject *)v) == 0);
}

static int assign(cj_DeviceNDArrayObject *view, PyObject *value) {
    copy_stream cs;
    if (check_writable(view) < 0 || cj_devicearray_ready(view) < 0 ||
        pick_stream(view, NULL, &cs) < 0) {
        return -1;
    }
    if (view->size == 0) {
        return 0;
    }
    cj_DeviceNDArrayObject *d = device_source(value);
    if ((PyObject *)d == Py_None) {
        return -1;
    }
    if (d != NULL) {
        int rc;
        if (same_shape(view, d->ndim, d->shape)) {
            rc = write_device(view, d, &cs);
        } else { /* broadcasting: through the host */
            PyObject *h = cj_copy_to_host(d, NULL, NULL);
            rc = h == NULL ? -1 : assign(view, h);
            Py_XDECREF(h);
        }
        Py_DECREF(d);
        return rc;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    if (is_scalar(value)) {
        Py_INCREF(view->dtype);
        PyArrayObject *one = (PyArrayObject *)PyArray_FromAny(
            value, view->dtype, 0, 0, NPY_ARRAY_FORCECAST | NPY_ARRAY_CARRAY, NULL);
        if (one == NULL) {
            return -1;
        }
        int done;
        int rc = try_memset(view, one, &cs, &done);
        Py_DECREF(one);
        if (rc < 0 || done) {
            return rc;
        }
    }
    Py_INCREF(view->dtype);
    PyArrayObject *h = (PyArrayObject *)PyArray_Empty(view->ndim, (npy_intp *)view->shape,
                                                      view->dtype, 0);
    if (h == NULL) {
        return -1;
    }
    int rc = PyArray_CopyObject(h, value); /* broadcasts and casts like NumPy's h[...] = v */
    if (rc == 0) {
        rc = write_host(view, h, &cs);
    }
    if (rc == 0) {
        rc = sync_stream(&cs); /* `h` dies here */
    }
    Py_DECREF(h);
    return rc;
}

int cj_devicearray_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "device array elements cannot be deleted");
        return -1;
    }
    PyObject *view = cj_devicearray_subview((cj_DeviceNDArrayObject *)self, key);
    if (view == NULL) {
        return -1;
    }
    int rc = assign((cj_DeviceNDArrayObject *)view, value);
    Py_DECREF(view);
    return rc;
}

PyObject *cj_devicearray_copy_to_host_meth(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"ary", "stream", NULL};
    PyObject *ary = NULL, *stream = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:copy_to_host", kwlist, &ary, &stream)) {
        return NULL;
    }
    return cj_copy_to_host((cj_DeviceNDArrayObject *)self, ary, stream);
}

PyObject *cj_devicearray_copy_to_device_meth(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"ary", "stream", NULL};
    PyObject *ary, *stream = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:copy_to_device", kwlist, &ary, &stream)) {
        return NULL;
    }
    if (cj_copy_to_device((cj_DeviceNDArrayObject *)self, ary, stream) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _core.to_device(obj, stream=0, copy=True): a new device array shaped like the host data
 * (C or F order kept, other layouts made C-contiguous), filled unless copy is False. */
static PyObject *py_to_device(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"obj", "stream", "copy", NULL};
    PyObject *obj, *stream = NULL;
    int copy = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Op:to_device", kwlist, &obj, &stream,
                                     &copy)) {
        return NULL;
    }
    CUstream handle;
    if (cj_stream_handle(stream, &handle) < 0) {
        return NULL;
    }
    cj_DeviceNDArrayObject *d = device_source(obj);
    if ((PyObject *)d == Py_None) {
        return NULL;
    }
    if (d != NULL) {
        return (PyObject *)d; /* already on the device: numba returns it as is */
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    PyArrayObject *h = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (h == NULL) {
        return NULL;
    }
    if (cj_layout_check_ndim(PyArray_NDIM(h)) < 0) {
        Py_DECREF(h);
        return NULL;
    }
    int fortran = !PyArray_IS_C_CONTIGUOUS(h) && PyArray_IS_F_CONTIGUOUS(h);
    cj_DeviceNDArrayObject *a =
        cj_devicearray_empty(PyArray_NDIM(h), (Py_ssize_t *)PyArray_SHAPE(h), NULL, fortran,
                             PyArray_DESCR(h), stream);
    if (a == NULL) {
        Py_DECREF(h);
        return NULL;
    }
    if (copy) {
        copy_stream cs = {handle, stream != NULL && stream != Py_None &&
                                      !(PyLong_CheckExact(stream) && PyLong_AsLong(stream) == 0)};
        if (write_host(a, h, &cs) < 0) {
            Py_DECREF(h);
            Py_DECREF(a);
            return NULL;
        }
    }
    Py_DECREF(h);
    return (PyObject *)a;
}

static PyMethodDef copy_functions[] = {
    {"to_device", (PyCFunction)(void (*)(void))py_to_device, METH_VARARGS | METH_KEYWORDS,
     "to_device(obj, stream=0, copy=True) -> DeviceNDArray."},
    {NULL, NULL, 0, NULL},
};

int cj_devicearray_copy_init(PyObject *module) {
    return PyModule_AddFunctions(module, copy_functions);
}

/* ---- the DeviceNDArray slots that copy ---- */

#define SELF ((cj_DeviceNDArrayObject *)self)

/* __array__(dtype=None, copy=None): a host copy (copy=False cannot be honoured). */
PyObject *cj_devicearray_array_meth(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"dtype", "copy", NULL};
    PyObject *dtype_obj = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", kwlist, &dtype_obj, &copy)) {
        return NULL;
    }
    if (copy == Py_False) {
        PyErr_SetString(PyExc_ValueError, /* numba-cuda's text */
                        "`copy=False` is not supported. A copy is always created.");
        return NULL;
    }
    PyObject *host = cj_copy_to_host(SELF, NULL, NULL);
    if (host == NULL || dtype_obj == Py_None) {
        return host;
    }
    PyArray_Descr *dtype = NULL;
    if (!PyArray_DescrConverter(dtype_obj, &dtype)) {
        Py_DECREF(host);
        return NULL;
    }
    PyObject *r = PyArray_CastToType((PyArrayObject *)host, dtype, 0); /* steals dtype */
    Py_DECREF(host);
    return r;
}

/* a[key]: a view, or the element copied to the host when every axis got an int. */
PyObject *cj_devicearray_subscript(PyObject *self, PyObject *key) {
    PyObject *v = cj_devicearray_subview(SELF, key);
    if (v == NULL || ((cj_DeviceNDArrayObject *)v)->ndim > 0) {
        return v;
    }
    /* every axis indexed by an int: copy that element to the host (numba's behaviour) */
    PyObject *host = cj_copy_to_host((cj_DeviceNDArrayObject *)v, NULL, NULL);
    Py_DECREF(v);
    if (host == NULL) {
        return NULL;
    }
    PyObject *scalar = PyArray_Scalar(PyArray_DATA((PyArrayObject *)host),
                                      PyArray_DESCR((PyArrayObject *)host), host);
    Py_DECREF(host);
    return scalar;
}
