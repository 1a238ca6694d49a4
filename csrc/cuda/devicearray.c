/* devicearray.c: DeviceNDArray, an N-d view of device memory (numba's DeviceNDArray).
 * Layout (shape, byte strides, dtype) lives inline so the launcher reads it without Python;
 * `base` keeps the memory alive (a Memory, an EMM plugin's MemoryPointer or a foreign object).
 * This file: the type, its construction (C and Python) and attributes. Views (transpose,
 * reshape, ravel, view, bind, indexing) are in devicearray_view.c, copies in
 * devicearray_copy.c, DLPack in dlpack.c, IPC in ipc.c. */
#include "cuda/cuda.h"

PyTypeObject *cj_DeviceNDArray_Type;

int cj_layout_check(int ndim, const Py_ssize_t *shape, Py_ssize_t *strides, Py_ssize_t itemsize,
                    int fortran, Py_ssize_t *size) {
    if (cj_layout_check_ndim(ndim) < 0) {
        return -1;
    }
    Py_ssize_t n = 1;
    int empty = 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed (axis %d is %zd)",
                         i, shape[i]);
            return -1;
        }
        if (shape[i] == 0) {
            empty = 1;
        } else if (n > PY_SSIZE_T_MAX / shape[i]) {
            PyErr_SetString(PyExc_ValueError, "array is too big (its size overflows)");
            return -1;
        } else {
            n *= shape[i];
        }
    }
    if (itemsize > 0 && n > PY_SSIZE_T_MAX / itemsize) {
        PyErr_SetString(PyExc_ValueError, "array is too big (its byte size overflows)");
        return -1;
    }
    *size = empty ? 0 : n;
    if (strides != NULL && fortran >= 0) { /* fill default strides */
        cj_layout_default_strides(ndim, shape, itemsize, fortran, strides);
    }
    return 0;
}

void cj_devicearray_extent(const cj_DeviceNDArrayObject *a, Py_ssize_t *lo, Py_ssize_t *hi) {
    *lo = *hi = 0;
    if (a->size == 0) {
        return;
    }
    Py_ssize_t l = 0, h = PyDataType_ELSIZE(a->dtype);
    for (int i = 0; i < a->ndim; i++) {
        Py_ssize_t span = (a->shape[i] - 1) * a->strides[i];
        if (span < 0) {
            l += span;
        } else {
            h += span;
        }
    }
    *lo = l;
    *hi = h;
}

static int contiguous(const cj_DeviceNDArrayObject *a, int fortran) {
    return cj_layout_is_contiguous(a->ndim, a->shape, a->strides, PyDataType_ELSIZE(a->dtype),
                                   fortran);
}

int cj_devicearray_is_c_contiguous(const cj_DeviceNDArrayObject *a) {
    return contiguous(a, 0);
}

int cj_devicearray_is_f_contiguous(const cj_DeviceNDArrayObject *a) {
    return contiguous(a, 1);
}

int cj_devicearray_ready(const cj_DeviceNDArrayObject *a) {
    if (cj_ctx_check_generation(a->device, a->generation) < 0) {
        return -1;
    }
    return cj_ctx_ensure() < 0 ? -1 : 0;
}

cj_DeviceNDArrayObject *cj_devicearray_new(CUdeviceptr data, int ndim, const Py_ssize_t *shape,
                                           const Py_ssize_t *strides, PyArray_Descr *dtype,
                                           PyObject *base, PyObject *stream, int device) {
    Py_ssize_t size;
    Py_ssize_t tmp[CJ_MAXDIM];
    if (cj_layout_check(ndim, shape, strides ? NULL : tmp, PyDataType_ELSIZE(dtype), 0, &size) < 0) {
        return NULL;
    }
    cj_DeviceNDArrayObject *a = PyObject_GC_New(cj_DeviceNDArrayObject, cj_DeviceNDArray_Type);
    if (a == NULL) {
        return NULL;
    }
    a->data = data;
    a->ndim = ndim;
    if (ndim > 0) { /* shape may be NULL for 0-d (NumPy gives NULL) */
        memcpy(a->shape, shape, sizeof(Py_ssize_t) * (size_t)ndim);
        memcpy(a->strides, strides ? strides : tmp, sizeof(Py_ssize_t) * (size_t)ndim);
    }
    a->size = size;
    Py_INCREF(dtype);
    a->dtype = dtype;
    Py_XINCREF(base);
    a->base = base;
    a->stream = NULL;
    if (stream != NULL && stream != Py_None && cj_Stream_Check(stream)) {
        Py_INCREF(stream);
        a->stream = stream;
    }
    a->device = device;
    a->generation = device >= 0 && device < CJ_MAX_DEVICES ? cj_ctx_generation[device] : 0;
    a->readonly = 0;
    a->weakreflist = NULL;
    PyObject_GC_Track(a);
    return a;
}

int cj_devicearray_check_dtype(PyArray_Descr *dtype) {
    if (PyDataType_REFCHK(dtype) || PyDataType_ELSIZE(dtype) <= 0) {
        PyErr_Format(PyExc_TypeError, "dtype %R cannot live on the device (objects or size 0)",
                     (PyObject *)dtype);
        return -1;
    }
    return 0;
}

cj_DeviceNDArrayObject *cj_devicearray_empty(int ndim, const Py_ssize_t *shape,
                                             const Py_ssize_t *strides, int fortran,
                                             PyArray_Descr *dtype, PyObject *stream) {
    Py_ssize_t st[CJ_MAXDIM];
    Py_ssize_t size;
    if (cj_devicearray_check_dtype(dtype) < 0 ||
        cj_layout_check(ndim, shape, strides ? NULL : st, PyDataType_ELSIZE(dtype), fortran,
                        &size) < 0) {
        return NULL;
    }
    Py_ssize_t bytes = size > 0 ? PyDataType_ELSIZE(dtype) : 0;
    if (strides != NULL) {
        for (int i = 0; i < ndim; i++) {
            if (strides[i] < 0 || strides[i] % PyDataType_ELSIZE(dtype) != 0) {
                PyErr_Format(PyExc_ValueError,
                             "strides must be non-negative multiples of the itemsize %d; "
                             "axis %d has %zd",
                             (int)PyDataType_ELSIZE(dtype), i, strides[i]);
                return NULL;
            }
            if (size > 0 && shape[i] > 1 &&
                strides[i] > (PY_SSIZE_T_MAX - bytes) / (shape[i] - 1)) {
                PyErr_SetString(PyExc_ValueError, "strides make the array too big");
                return NULL;
            }
            if (size > 0) {
                bytes += strides[i] * (shape[i] - 1);
            }
        }
        if (ndim > 0) {
            memcpy(st, strides, sizeof(Py_ssize_t) * (size_t)ndim);
        }
    } else {
        bytes = size * PyDataType_ELSIZE(dtype);
    }
    CUdeviceptr ptr = 0;
    int device = -1;
    PyObject *owner = cj_memalloc((size_t)bytes, stream, &ptr, &device); /* new */
    if (owner == NULL) {
        return NULL;
    }
    cj_DeviceNDArrayObject *a = cj_devicearray_new(ptr, ndim, shape, st, dtype, owner, stream,
                                                   device);
    Py_DECREF(owner); /* the array holds it now */
    return a;
}

cj_DeviceNDArrayObject *cj_devicearray_from_cai(const cj_cai *cai, PyObject *owner, int sync) {
    int device = cj_ctx_ensure();
    if (device < 0) {
        return NULL;
    }
    PyArray_Descr *dtype = cj_cai_dtype(cai);
    if (dtype == NULL) {
        return NULL;
    }
    PyObject *stream = NULL;
    if (cai->has_stream) {
        stream = cj_stream_for_handle(cai->stream, NULL);
        if (stream == NULL) {
            Py_DECREF(dtype);
            return NULL;
        }
        if (sync) {
            CUresult res;
            Py_BEGIN_ALLOW_THREADS
            res = CJ_CU_RAW(cuStreamSynchronize, (CUstream)cai->stream);
            Py_END_ALLOW_THREADS
            if (cj_cu_result(res, "cuStreamSynchronize") < 0) {
                Py_DECREF(stream);
                Py_DECREF(dtype);
                return NULL;
            }
        }
    }
    cj_DeviceNDArrayObject *a = cj_devicearray_new(cai->data, cai->ndim, cai->shape, cai->strides,
                                                   dtype, owner, stream, device);
    Py_XDECREF(stream);
    Py_DECREF(dtype);
    if (a != NULL) {
        a->readonly = cai->readonly;
    }
    return a;
}

/* ---- Python-level construction ---- */

/* shape argument: an int or a sequence of ints -> *ndim, shape[]. */
int cj_parse_shape(PyObject *obj, int *ndim, Py_ssize_t *shape) {
    if (PyIndex_Check(obj) && !PyBool_Check(obj)) {
        shape[0] = PyNumber_AsSsize_t(obj, PyExc_ValueError);
        if (shape[0] == -1 && PyErr_Occurred()) {
            return -1;
        }
        *ndim = 1;
        return 0;
    }
    PyObject *seq = PySequence_Fast(obj, "shape must be an int or a tuple of ints");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (cj_layout_check_ndim(n) < 0) {
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (PyBool_Check(item) || !PyIndex_Check(item)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError, "shape entries must be ints, not %.100s",
                         Py_TYPE(item)->tp_name);
            return -1;
        }
        shape[i] = PyNumber_AsSsize_t(item, PyExc_ValueError);
        if (shape[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    *ndim = (int)n;
    return 0;
}

int cj_parse_order(const char *order, int *fortran) {
    if (order == NULL || strcmp(order, "C") == 0 || strcmp(order, "c") == 0) {
        *fortran = 0;
    } else if (strcmp(order, "F") == 0 || strcmp(order, "f") == 0) {
        *fortran = 1;
    } else {
        PyErr_Format(PyExc_ValueError, "order must be 'C' or 'F', not '%s'", order);
        return -1;
    }
    return 0;
}

/* _core.device_array(shape, dtype=float64, strides=None, order='C', stream=0) */
static PyObject *py_device_array(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"shape", "dtype", "strides", "order", "stream", NULL};
    PyObject *shape_obj, *dtype_obj = NULL, *strides_obj = Py_None, *stream = NULL;
    const char *order = "C";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOzO:device_array", kwlist, &shape_obj,
                                     &dtype_obj, &strides_obj, &order, &stream)) {
        return NULL;
    }
    int ndim, fortran, sndim;
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    PyArray_Descr *dtype = NULL;
    if (cj_parse_shape(shape_obj, &ndim, shape) < 0 || cj_parse_order(order, &fortran) < 0) {
        return NULL;
    }
    if (strides_obj != Py_None) {
        if (cj_parse_shape(strides_obj, &sndim, strides) < 0) {
            return NULL;
        }
        if (sndim != ndim) {
            PyErr_Format(PyExc_ValueError, "strides has %d entries for %d dimensions", sndim,
                         ndim);
            return NULL;
        }
    }
    if (dtype_obj == NULL || dtype_obj == Py_None) {
        dtype = PyArray_DescrFromType(NPY_FLOAT64);
    } else if (!PyArray_DescrConverter(dtype_obj, &dtype)) {
        return NULL;
    }
    if (dtype == NULL) {
        return NULL;
    }
    CUstream h;
    if (cj_stream_handle(stream, &h) < 0) {
        Py_DECREF(dtype);
        return NULL;
    }
    PyObject *a = (PyObject *)cj_devicearray_empty(
        ndim, shape, strides_obj == Py_None ? NULL : strides, fortran, dtype, stream);
    Py_DECREF(dtype);
    return a;
}

/* DeviceNDArray(shape, strides, dtype, stream=0, gpu_data=None): numba's constructor; without
 * gpu_data it allocates, with it the array views that memory (kept alive). */
static PyObject *tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"shape", "strides", "dtype", "stream", "gpu_data", NULL};
    PyObject *shape_obj, *strides_obj, *dtype_obj, *stream = NULL, *gpu_data = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|OO:DeviceNDArray", kwlist, &shape_obj,
                                     &strides_obj, &dtype_obj, &stream, &gpu_data)) {
        return NULL;
    }
    int ndim, sndim;
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM], size;
    PyArray_Descr *dtype = NULL;
    CUstream h;
    if (cj_parse_shape(shape_obj, &ndim, shape) < 0 ||
        cj_parse_shape(strides_obj, &sndim, strides) < 0 || cj_stream_handle(stream, &h) < 0) {
        return NULL;
    }
    if (sndim != ndim) {
        PyErr_Format(PyExc_ValueError, "strides has %d entries for %d dimensions", sndim, ndim);
        return NULL;
    }
    if (!PyArray_DescrConverter(dtype_obj, &dtype)) {
        return NULL;
    }
    if (gpu_data == Py_None) {
        PyObject *a = (PyObject *)cj_devicearray_empty(ndim, shape, strides, 0, dtype, stream);
        Py_DECREF(dtype);
        return a;
    }
    CUdeviceptr ptr;
    int device = cj_ctx_ensure();
    if (device < 0 || cj_devicearray_check_dtype(dtype) < 0 ||
        cj_memory_pointer_of(gpu_data, &ptr) < 0 ||
        cj_layout_check(ndim, shape, NULL, PyDataType_ELSIZE(dtype), -1, &size) < 0) {
        Py_DECREF(dtype);
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        if (strides[i] % PyDataType_ELSIZE(dtype) != 0) {
            Py_DECREF(dtype);
            PyErr_SetString(PyExc_ValueError, "strides must be multiples of the itemsize");
            return NULL;
        }
    }
    if (ptr == 0 && size > 0) {
        Py_DECREF(dtype);
        PyErr_SetString(PyExc_ValueError, "gpu_data has a NULL device pointer");
        return NULL;
    }
    PyObject *a = (PyObject *)cj_devicearray_new(ptr, ndim, shape, strides, dtype, gpu_data,
                                                 stream, device);
    Py_DECREF(dtype);
    return a;
}

/* _core.as_cuda_array(obj, sync=True): zero-copy view over obj's __cuda_array_interface__. */
static PyObject *py_as_cuda_array(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"obj", "sync", NULL};
    PyObject *obj;
    int sync = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p:as_cuda_array", kwlist, &obj, &sync)) {
        return NULL;
    }
    if (cj_DeviceNDArray_Check(obj)) {
        return Py_NewRef(obj);
    }
    cj_cai cai;
    if (cj_cai_parse(obj, &cai) < 0) {
        return NULL;
    }
    return (PyObject *)cj_devicearray_from_cai(&cai, obj, sync);
}

/* ---- attributes ---- */

static PyObject *ssize_tuple(int n, const Py_ssize_t *v) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromSsize_t(v[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

#define SELF ((cj_DeviceNDArrayObject *)self)

static PyObject *get_shape(PyObject *self, void *c) { return ssize_tuple(SELF->ndim, SELF->shape); }
static PyObject *get_strides(PyObject *self, void *c) {
    return ssize_tuple(SELF->ndim, SELF->strides);
}
static PyObject *get_dtype(PyObject *self, void *c) { return Py_NewRef((PyObject *)SELF->dtype); }
static PyObject *get_size(PyObject *self, void *c) { return PyLong_FromSsize_t(SELF->size); }
static PyObject *get_ndim(PyObject *self, void *c) { return PyLong_FromLong(SELF->ndim); }
static PyObject *get_itemsize(PyObject *self, void *c) {
    return PyLong_FromSsize_t(PyDataType_ELSIZE(SELF->dtype));
}
static PyObject *get_nbytes(PyObject *self, void *c) {
    return PyLong_FromSsize_t(SELF->size * PyDataType_ELSIZE(SELF->dtype));
}
static PyObject *get_alloc_size(PyObject *self, void *c) {
    Py_ssize_t lo, hi;
    cj_devicearray_extent(SELF, &lo, &hi);
    return PyLong_FromSsize_t(hi - lo);
}
static PyObject *get_device_pointer(PyObject *self, void *c) {
    return PyLong_FromUnsignedLongLong(SELF->data);
}
static PyObject *get_gpu_data(PyObject *self, void *c) {
    return Py_NewRef(SELF->base ? SELF->base : Py_None);
}
static PyObject *get_stream(PyObject *self, void *c) {
    return SELF->stream ? Py_NewRef(SELF->stream) : PyLong_FromLong(0);
}
static PyObject *get_device_id(PyObject *self, void *c) { return PyLong_FromLong(SELF->device); }
static PyObject *get_readonly(PyObject *self, void *c) { return PyBool_FromLong(SELF->readonly); }

static PyObject *get_device_ctypes_pointer(PyObject *self, void *c) {
    PyObject *ctypes = PyImport_ImportModule("ctypes");
    if (ctypes == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(ctypes, "c_void_p", "K", (unsigned long long)SELF->data);
    Py_DECREF(ctypes);
    return r;
}

static PyObject *get_cai(PyObject *self, void *c) {
    if (cj_ctx_check_generation(SELF->device, SELF->generation) < 0) {
        return NULL;
    }
    PyObject *shape = get_shape(self, NULL);
    PyObject *strides = cj_devicearray_is_c_contiguous(SELF) ? Py_NewRef(Py_None)
                                                             : get_strides(self, NULL);
    PyObject *typestr = PyObject_GetAttrString((PyObject *)SELF->dtype, "str");
    PyObject *stream = NULL;
    if (SELF->stream == NULL) {
        stream = Py_NewRef(Py_None);
    } else {
        uintptr_t h = (uintptr_t)((cj_StreamObject *)SELF->stream)->handle;
        stream = PyLong_FromSize_t(h == 0 ? 1 : h); /* handle 0 is the legacy default stream */
    }
    if (shape == NULL || strides == NULL || typestr == NULL || stream == NULL) {
        Py_XDECREF(shape);
        Py_XDECREF(strides);
        Py_XDECREF(typestr);
        Py_XDECREF(stream);
        return NULL;
    }
    unsigned long long ptr = SELF->size > 0 ? SELF->data : 0;
    return Py_BuildValue("{s:N,s:N,s:(KO),s:N,s:i,s:N}", "shape", shape, "strides", strides,
                         "data", ptr, SELF->readonly ? Py_True : Py_False, "typestr", typestr,
                         "version", 3, "stream", stream);
}

/* ---- methods ---- */

static PyObject *is_c_contiguous(PyObject *self, PyObject *u) {
    return PyBool_FromLong(cj_devicearray_is_c_contiguous(SELF));
}
static PyObject *is_f_contiguous(PyObject *self, PyObject *u) {
    return PyBool_FromLong(cj_devicearray_is_f_contiguous(SELF));
}

static Py_ssize_t length(PyObject *self) {
    if (SELF->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return -1;
    }
    return SELF->shape[0];
}

static PyObject *repr(PyObject *self) {
    PyObject *shape = get_shape(self, NULL);
    if (shape == NULL) {
        return NULL;
    }
    char ptr[32];
    snprintf(ptr, sizeof(ptr), "0x%llx", (unsigned long long)SELF->data);
    PyObject *r = PyUnicode_FromFormat(
        "<cujit.cuda.DeviceNDArray shape=%R dtype=%S device=%d ptr=%s%s%s>", shape,
        (PyObject *)SELF->dtype, SELF->device, ptr,
        cj_devicearray_is_c_contiguous(SELF)   ? " C-contiguous"
        : cj_devicearray_is_f_contiguous(SELF) ? " F-contiguous"
                                               : " strided",
        SELF->readonly ? " read-only" : "");
    Py_DECREF(shape);
    return r;
}

static int traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(SELF->base);
    Py_VISIT(SELF->stream);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int clear(PyObject *self) {
    Py_CLEAR(SELF->base);
    Py_CLEAR(SELF->stream);
    return 0;
}

static void dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (SELF->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    clear(self);
    Py_CLEAR(SELF->dtype);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyMethodDef methods[] = {
    {"copy_to_host", (PyCFunction)(void (*)(void))cj_devicearray_copy_to_host_meth,
     METH_VARARGS | METH_KEYWORDS,
     "copy_to_host(ary=None, stream=0): copies to `ary` or a new host array and returns it."},
    {"copy_to_device", (PyCFunction)(void (*)(void))cj_devicearray_copy_to_device_meth,
     METH_VARARGS | METH_KEYWORDS,
     "copy_to_device(ary, stream=0): copies a host or device array into this one."},
    {"reshape", (PyCFunction)(void (*)(void))cj_devicearray_reshape_meth,
     METH_VARARGS | METH_KEYWORDS,
     "reshape(*shape, order='C'): a view (contiguous arrays only)."},
    {"ravel", (PyCFunction)(void (*)(void))cj_devicearray_ravel_meth,
     METH_VARARGS | METH_KEYWORDS,
     "ravel(order='C', stream=0): a flat view (contiguous arrays only)."},
    {"is_c_contiguous", is_c_contiguous, METH_NOARGS, "Whether the array is C-contiguous."},
    {"is_f_contiguous", is_f_contiguous, METH_NOARGS, "Whether the array is Fortran-contiguous."},
    {"transpose", cj_devicearray_transpose_meth, METH_VARARGS, "transpose(axes=None): a view."},
    {"view", cj_devicearray_view_meth, METH_O, "view(dtype): the same bytes seen as another dtype."},
    {"bind", (PyCFunction)(void (*)(void))cj_devicearray_bind_meth, METH_VARARGS | METH_KEYWORDS,
     "bind(stream=0): a view whose operations default to `stream`."},
    {"squeeze", (PyCFunction)(void (*)(void))cj_devicearray_squeeze_meth,
     METH_VARARGS | METH_KEYWORDS, "squeeze(axis=None, stream=0): a view without axes of 1."},
    {"__array__", (PyCFunction)(void (*)(void))cj_devicearray_array_meth, METH_VARARGS | METH_KEYWORDS, NULL},
    {"__dlpack__", (PyCFunction)(void (*)(void))cj_devicearray_dlpack,
     METH_VARARGS | METH_KEYWORDS, "DLPack export (zero copy)."},
    {"__dlpack_device__", cj_devicearray_dlpack_device, METH_NOARGS, "(kDLCUDA, device)."},
    {"get_ipc_handle", cj_devicearray_ipc_handle, METH_NOARGS,
     "An IpcHandle that another process can open."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef getset[] = {
    {"shape", get_shape, NULL, "The shape, a tuple of ints (as NumPy's).", NULL},
    {"strides", get_strides, NULL, "The strides in bytes, a tuple of ints.", NULL},
    {"dtype", get_dtype, NULL, "The NumPy dtype of the elements.", NULL},
    {"size", get_size, NULL, "The number of elements.", NULL},
    {"ndim", get_ndim, NULL, "The number of dimensions.", NULL},
    {"itemsize", get_itemsize, NULL, "The size of one element in bytes.", NULL},
    {"nbytes", get_nbytes, NULL, "The size of the data in bytes.", NULL},
    {"alloc_size", get_alloc_size, NULL, "Bytes spanned by the elements.", NULL},
    {"device_pointer_value", get_device_pointer, NULL, "Address of the first element.", NULL},
    {"device_ctypes_pointer", get_device_ctypes_pointer, NULL, "ctypes.c_void_p address.", NULL},
    {"gpu_data", get_gpu_data, NULL, "The object that owns the memory.", NULL},
    {"stream", get_stream, NULL, "The array's stream (0 for the default).", NULL},
    {"device_id", get_device_id, NULL, "The id of the device that holds the memory.", NULL},
    {"readonly", get_readonly, NULL, "Whether the array may not be written (a read-only source).", NULL},
    {"T", cj_devicearray_get_T, NULL, "Transposed view.", NULL},
    {"flags", cj_devicearray_get_flags, NULL, "{'C_CONTIGUOUS': .., 'F_CONTIGUOUS': ..}", NULL},
    {"__cuda_array_interface__", get_cai, NULL, "Version 3 of the CUDA Array Interface.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(cj_DeviceNDArrayObject, weakreflist), READONLY,
     NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot slots[] = {
    {Py_tp_new, tp_new},
    {Py_tp_dealloc, dealloc},
    {Py_tp_traverse, traverse},
    {Py_tp_clear, clear},
    {Py_tp_repr, repr},
    {Py_tp_methods, methods},
    {Py_tp_getset, getset},
    {Py_tp_members, members},
    {Py_mp_subscript, cj_devicearray_subscript},
    {Py_mp_ass_subscript, cj_devicearray_ass_subscript},
    {Py_mp_length, length},
    {Py_tp_doc, "An array in CUDA device memory (numba's DeviceNDArray)."},
    {0, NULL},
};

static PyType_Spec spec = {
    .name = "cujit.cuda.DeviceNDArray",
    .basicsize = sizeof(cj_DeviceNDArrayObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = slots,
};

static PyMethodDef functions[] = {
    {"device_array", (PyCFunction)(void (*)(void))py_device_array, METH_VARARGS | METH_KEYWORDS,
     "device_array(shape, dtype=float64, strides=None, order='C', stream=0)."},
    {"as_cuda_array", (PyCFunction)(void (*)(void))py_as_cuda_array,
     METH_VARARGS | METH_KEYWORDS, "as_cuda_array(obj, sync=True): zero-copy view."},
    {NULL, NULL, 0, NULL},
};

int cj_devicearray_init(PyObject *module) {
    cj_DeviceNDArray_Type = (PyTypeObject *)PyType_FromSpec(&spec);
    if (cj_DeviceNDArray_Type == NULL) {
        return -1;
    }
    Py_INCREF(cj_DeviceNDArray_Type);
    if (PyModule_AddObject(module, "DeviceNDArray", (PyObject *)cj_DeviceNDArray_Type) < 0) {
        Py_DECREF(cj_DeviceNDArray_Type);
        return -1;
    }
    return PyModule_AddFunctions(module, functions);
}
