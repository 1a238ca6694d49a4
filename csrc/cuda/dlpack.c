/* dlpack.c: DLPack export (__dlpack__, __dlpack_device__) and import (from_dlpack), zero copy.
 * The structs follow dlpack.h (v1.0: versioned capsules "dltensor_versioned", and the legacy
 * "dltensor" ones for consumers that do not pass max_version). Stream semantics follow the
 * array API: the consumer names its stream and the producer orders it after its own work. */
#include <stdlib.h>

#include "cuda/cuda.h"

typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct { uint32_t major; uint32_t minor; } DLPackVersion;
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLComplex = 5, kDLBool = 6 };
#define DLPACK_FLAG_READ_ONLY 1ULL

/* One malloc block per export: the tensor header, then shape and strides. */
typedef struct export_block {
    union {
        DLManagedTensor legacy;
        DLManagedTensorVersioned versioned;
    } t;
    int versioned;
    PyObject *owner; /* the exported DeviceNDArray (owned until the deleter runs) */
    int64_t dims[];  /* shape[ndim] then strides[ndim] */
} export_block;

static void release_block(export_block *b) {
    if (Py_IsInitialized()) {
        PyGILState_STATE gil = PyGILState_Ensure();
        Py_XDECREF(b->owner);
        PyGILState_Release(gil);
    }
    free(b);
}

static void delete_legacy(DLManagedTensor *t) {
    release_block((export_block *)t->manager_ctx);
}

static void delete_versioned(DLManagedTensorVersioned *t) {
    release_block((export_block *)t->manager_ctx);
}

static void capsule_destructor(PyObject *capsule) {
    /* a capsule nobody consumed still owns the tensor */
    if (PyCapsule_IsValid(capsule, "dltensor")) {
        DLManagedTensor *t = PyCapsule_GetPointer(capsule, "dltensor");
        if (t->deleter) {
            t->deleter(t);
        }
    } else if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
        DLManagedTensorVersioned *t = PyCapsule_GetPointer(capsule, "dltensor_versioned");
        if (t->deleter) {
            t->deleter(t);
        }
    }
}

static int dtype_to_dl(PyArray_Descr *d, DLDataType *out) {
    out->lanes = 1;
    out->bits = (uint8_t)(PyDataType_ELSIZE(d) * 8);
    switch (d->kind) {
    case 'b': out->code = kDLBool; return 0;
    case 'i': out->code = kDLInt; return 0;
    case 'u': out->code = kDLUInt; return 0;
    case 'f': out->code = kDLFloat; return 0;
    case 'c': out->code = kDLComplex; return 0;
    }
    PyErr_Format(PyExc_BufferError, "dtype %R has no DLPack equivalent", (PyObject *)d);
    return -1;
}

/* Orders `consumer` after the array's stream: an event recorded on one, waited on the other. */
static int order_streams(cj_DeviceNDArrayObject *a, PyObject *stream_obj) {
    if (stream_obj == Py_None) {
        stream_obj = NULL; /* the array API: None means the legacy default stream for CUDA */
    }
    long long consumer = 1;
    if (stream_obj != NULL) {
        if (PyBool_Check(stream_obj) || !PyLong_Check(stream_obj)) {
            PyErr_SetString(PyExc_TypeError, "__dlpack__ stream must be an int or None");
            return -1;
        }
        consumer = PyLong_AsLongLong(stream_obj);
        if (consumer == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (consumer == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "__dlpack__ stream 0 is disallowed for CUDA (ambiguous)");
            return -1;
        }
        if (consumer == -1) {
            return 0; /* the consumer asked for no synchronisation */
        }
    }
    CUstream producer = NULL;
    if (cj_stream_handle(a->stream, &producer) < 0) {
        return -1;
    }
    uintptr_t p = (uintptr_t)producer == 0 ? 1 : (uintptr_t)producer;
    if (p == (uintptr_t)consumer) {
        return 0;
    }
    CUevent ev;
    if (CJ_CU(cuEventCreate, &ev, 2u /* no timing */) < 0) {
        return -1;
    }
    int rc = CJ_CU(cuEventRecord, ev, producer);
    if (rc == 0) {
        rc = CJ_CU(cuStreamWaitEvent, (CUstream)(uintptr_t)consumer, ev, 0);
    }
    CJ_CU_RAW(cuEventDestroy, ev); /* released once the wait is satisfied */
    return rc;
}

PyObject *cj_devicearray_dlpack(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
    PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO:__dlpack__", kwlist, &stream,
                                     &max_version, &dl_device, &copy)) {
        return NULL;
    }
    cj_DeviceNDArrayObject *a = (cj_DeviceNDArrayObject *)self;
    if (cj_devicearray_ready(a) < 0) {
        return NULL;
    }
    if (copy == Py_True) {
        PyErr_SetString(PyExc_BufferError, "__dlpack__(copy=True) is not supported: "
                                           "cujit exports device arrays without copying");
        return NULL;
    }
    if (dl_device != Py_None) {
        int type, id;
        if (!PyArg_ParseTuple(dl_device, "ii:dl_device", &type, &id)) {
            return NULL;
        }
        if (type != kDLCUDA || id != a->device) {
            PyErr_SetString(PyExc_BufferError, "__dlpack__ cannot export to another device");
            return NULL;
        }
    }
    int versioned = 0;
    if (max_version != Py_None) {
        int major, minor;
        if (!PyArg_ParseTuple(max_version, "ii:max_version", &major, &minor)) {
            return NULL;
        }
        versioned = major >= 1;
    }
    DLDataType dt;
    if (dtype_to_dl(a->dtype, &dt) < 0 || order_streams(a, stream) < 0) {
        return NULL;
    }
    export_block *b = calloc(1, sizeof(export_block) + sizeof(int64_t) * 2 * (size_t)a->ndim);
    if (b == NULL) {
        return PyErr_NoMemory();
    }
    DLTensor *t = versioned ? &b->t.versioned.dl_tensor : &b->t.legacy.dl_tensor;
    t->data = (void *)(uintptr_t)a->data;
    t->device.device_type = kDLCUDA;
    t->device.device_id = a->device;
    t->ndim = a->ndim;
    t->dtype = dt;
    t->shape = b->dims;
    t->strides = b->dims + a->ndim;
    t->byte_offset = 0;
    for (int i = 0; i < a->ndim; i++) {
        b->dims[i] = a->shape[i];
        b->dims[a->ndim + i] = a->strides[i] / PyDataType_ELSIZE(a->dtype);
    }
    b->versioned = versioned;
    b->owner = Py_NewRef(self);
    if (versioned) {
        b->t.versioned.version.major = 1;
        b->t.versioned.version.minor = 0;
        b->t.versioned.manager_ctx = b;
        b->t.versioned.deleter = delete_versioned;
        b->t.versioned.flags = a->readonly ? DLPACK_FLAG_READ_ONLY : 0;
    } else {
        b->t.legacy.manager_ctx = b;
        b->t.legacy.deleter = delete_legacy;
    }
    PyObject *capsule = PyCapsule_New(&b->t, versioned ? "dltensor_versioned" : "dltensor",
                                      capsule_destructor);
    if (capsule == NULL) {
        Py_DECREF(b->owner);
        free(b);
    }
    return capsule;
}

PyObject *cj_devicearray_dlpack_device(PyObject *self, PyObject *unused) {
    return Py_BuildValue("(ii)", kDLCUDA, ((cj_DeviceNDArrayObject *)self)->device);
}

/* A consumed tensor's deleter, run when its Memory owner goes (cj_MemoryObject.release). */
static void dlpack_release(cj_MemoryObject *mem) {
    if (mem->dlpack == NULL) {
        return;
    }
    if (mem->dlpack_versioned) {
        DLManagedTensorVersioned *t = mem->dlpack;
        if (t->deleter) {
            t->deleter(t);
        }
    } else {
        DLManagedTensor *t = mem->dlpack;
        if (t->deleter) {
            t->deleter(t);
        }
    }
    mem->dlpack = NULL;
}

static int dl_to_dtype(DLDataType dt, PyArray_Descr **out) {
    int num = -1;
    if (dt.lanes == 1) {
        switch (dt.code) {
        case kDLBool: num = dt.bits == 8 ? NPY_BOOL : -1; break;
        case kDLInt:
            num = dt.bits == 8 ? NPY_INT8 : dt.bits == 16 ? NPY_INT16 : dt.bits == 32 ? NPY_INT32
                  : dt.bits == 64 ? NPY_INT64 : -1;
            break;
        case kDLUInt:
            num = dt.bits == 8 ? NPY_UINT8 : dt.bits == 16 ? NPY_UINT16 : dt.bits == 32 ? NPY_UINT32
                  : dt.bits == 64 ? NPY_UINT64 : -1;
            break;
        case kDLFloat:
            num = dt.bits == 16 ? NPY_HALF : dt.bits == 32 ? NPY_FLOAT32
                  : dt.bits == 64 ? NPY_FLOAT64 : -1;
            break;
        case kDLComplex:
            num = dt.bits == 64 ? NPY_COMPLEX64 : dt.bits == 128 ? NPY_COMPLEX128 : -1;
            break;
        }
    }
    if (num < 0) {
        PyErr_Format(PyExc_BufferError,
                     "DLPack dtype (code %d, %d bits, %d lanes) is not supported", dt.code,
                     dt.bits, dt.lanes);
        return -1;
    }
    *out = PyArray_DescrFromType(num);
    return *out == NULL ? -1 : 0;
}

/* The tensor of an unconsumed capsule (not consumed here): *ptr the managed tensor, *t its
 * DLTensor; 0, or -1 with TypeError (not a capsule) or BufferError (a version not taken). */
static int open_capsule(PyObject *capsule, int *versioned, void **ptr, DLTensor **t,
                        int *readonly) {
    if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
        *versioned = 1;
        *ptr = PyCapsule_GetPointer(capsule, "dltensor_versioned");
    } else if (PyCapsule_IsValid(capsule, "dltensor")) {
        *versioned = 0;
        *ptr = PyCapsule_GetPointer(capsule, "dltensor");
    } else {
        PyErr_SetString(PyExc_TypeError, "expected an unconsumed DLPack capsule");
        return -1;
    }
    *readonly = 0;
    if (*versioned) {
        DLManagedTensorVersioned *v = *ptr;
        if (v->version.major != 1) {
            PyErr_Format(PyExc_BufferError, "DLPack version %u.%u is not supported",
                         v->version.major, v->version.minor);
            return -1;
        }
        *t = &v->dl_tensor;
        *readonly = (v->flags & DLPACK_FLAG_READ_ONLY) != 0;
    } else {
        *t = &((DLManagedTensor *)*ptr)->dl_tensor;
    }
    return 0;
}

/* The tensor's dtype (new reference) and layout (byte strides; C order when it gives none);
 * 0, or -1 with BufferError for a tensor off the GPU or one cujit cannot describe. */
static int tensor_layout(const DLTensor *t, PyArray_Descr **dtype, Py_ssize_t *shape,
                         Py_ssize_t *strides, Py_ssize_t *size) {
    if (t->device.device_type != kDLCUDA && t->device.device_type != kDLCUDAManaged) {
        PyErr_Format(PyExc_BufferError,
                     "DLPack tensor lives on device type %d, not on a CUDA device",
                     t->device.device_type);
        return -1;
    }
    if (t->ndim < 0 || t->ndim > CJ_MAXDIM || (t->ndim > 0 && t->shape == NULL)) {
        PyErr_Format(PyExc_BufferError, "DLPack tensor has a bad ndim %d", t->ndim);
        return -1;
    }
    if (dl_to_dtype(t->dtype, dtype) < 0) {
        return -1;
    }
    Py_ssize_t item = PyDataType_ELSIZE(*dtype);
    for (int i = 0; i < t->ndim; i++) {
        shape[i] = (Py_ssize_t)t->shape[i];
    }
    if (cj_layout_check(t->ndim, shape, strides, item, 0, size) < 0) {
        Py_CLEAR(*dtype);
        return -1;
    }
    for (int i = 0; t->strides != NULL && i < t->ndim; i++) {
        int64_t s = t->strides[i];
        if (s > PY_SSIZE_T_MAX / item || s < -(PY_SSIZE_T_MAX / item)) {
            Py_CLEAR(*dtype);
            PyErr_SetString(PyExc_BufferError, "DLPack strides overflow");
            return -1;
        }
        strides[i] = (Py_ssize_t)s * item;
    }
    return 0;
}

/* _core.from_dlpack_capsule(capsule): consumes a DLPack capsule into a DeviceNDArray. */
static PyObject *py_from_capsule(PyObject *self, PyObject *capsule) {
    int versioned, readonly;
    void *ptr;
    DLTensor *t;
    PyArray_Descr *dtype;
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM], size;
    if (open_capsule(capsule, &versioned, &ptr, &t, &readonly) < 0 ||
        tensor_layout(t, &dtype, shape, strides, &size) < 0) {
        return NULL;
    }
    CUdeviceptr data = (CUdeviceptr)(uintptr_t)t->data + t->byte_offset;
    if (data == 0 && size > 0) {
        Py_DECREF(dtype);
        PyErr_SetString(PyExc_BufferError, "DLPack tensor has a NULL data pointer");
        return NULL;
    }
    int device = cj_ctx_ensure();
    if (device < 0) {
        Py_DECREF(dtype);
        return NULL;
    }
    cj_MemoryObject *owner = cj_memory_new(CJ_MEM_DLPACK, device);
    if (owner == NULL) {
        Py_DECREF(dtype);
        return NULL;
    }
    owner->device_pointer = data;
    owner->dlpack = ptr;
    owner->dlpack_versioned = versioned;
    owner->release = dlpack_release;
    if (PyCapsule_SetName(capsule, versioned ? "used_dltensor_versioned" : "used_dltensor") < 0) {
        owner->dlpack = NULL; /* still the capsule's */
        Py_DECREF(owner);
        Py_DECREF(dtype);
        return NULL;
    }
    cj_DeviceNDArrayObject *a = cj_devicearray_new(data, t->ndim, shape, strides, dtype,
                                                   (PyObject *)owner, NULL, device);
    Py_DECREF(owner); /* the array holds it (or, on failure, the deleter has run) */
    Py_DECREF(dtype);
    if (a != NULL) {
        a->readonly = readonly;
    }
    return (PyObject *)a;
}

static PyMethodDef dlpack_functions[] = {
    {"from_dlpack_capsule", py_from_capsule, METH_O,
     "Consumes a DLPack capsule (versioned or not) into a DeviceNDArray."},
    {NULL, NULL, 0, NULL},
};

int cj_dlpack_init(PyObject *module) {
    return PyModule_AddFunctions(module, dlpack_functions);
}
