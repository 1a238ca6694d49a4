/* ipc.c: CUDA IPC. get_ipc_handle() exports the allocation that holds an array (handle, offset
 * of the array inside it, layout); ipc_open() maps it in another process. The picklable handle
 * object itself is Python (cujit.cuda.ipc.IpcHandle), which this file builds. */
#include "cuda/cuda.h"

PyObject *cj_devicearray_ipc_handle(PyObject *self, PyObject *unused) {
    cj_DeviceNDArrayObject *a = (cj_DeviceNDArrayObject *)self;
    if (cj_devicearray_ready(a) < 0) {
        return NULL;
    }
    if (a->size == 0) {
        PyErr_SetString(PyExc_ValueError, "an empty array has no memory to share over IPC");
        return NULL;
    }
    CUdeviceptr base = 0;
    size_t range = 0;
    CUipcMemHandle handle;
    if (CJ_CU(cuMemGetAddressRange, &base, &range, a->data) < 0 ||
        CJ_CU(cuIpcGetMemHandle, &handle, base) < 0) {
        return NULL;
    }
    PyObject *module = PyImport_ImportModule("cujit.cuda.ipc");
    if (module == NULL) {
        return NULL;
    }
    PyObject *shape = PyObject_GetAttrString(self, "shape");
    PyObject *strides = PyObject_GetAttrString(self, "strides");
    PyObject *r = NULL;
    if (shape != NULL && strides != NULL) {
        r = PyObject_CallMethod(module, "IpcHandle", "y#nnOOOi", handle.reserved,
                                (Py_ssize_t)sizeof(handle.reserved), (Py_ssize_t)range,
                                (Py_ssize_t)(a->data - base), shape, strides,
                                (PyObject *)a->dtype, a->device);
    }
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    Py_DECREF(module);
    return r;
}

/* _core.ipc_open(handle_bytes, offset, shape, strides, dtype) -> DeviceNDArray over the mapping. */
static PyObject *py_ipc_open(PyObject *self, PyObject *args) {
    const char *bytes;
    Py_ssize_t len, offset;
    PyObject *shape_obj, *strides_obj, *dtype_obj;
    if (!PyArg_ParseTuple(args, "y#nOOO:ipc_open", &bytes, &len, &offset, &shape_obj,
                          &strides_obj, &dtype_obj)) {
        return NULL;
    }
    CUipcMemHandle handle;
    if (len != (Py_ssize_t)sizeof(handle.reserved) || offset < 0) {
        PyErr_SetString(PyExc_ValueError, "not a CUDA IPC handle (64 bytes) and offset");
        return NULL;
    }
    memcpy(handle.reserved, bytes, sizeof(handle.reserved));
    PyArray_Descr *dtype = NULL;
    if (!PyArray_DescrConverter(dtype_obj, &dtype)) {
        return NULL;
    }
    Py_ssize_t shape[CJ_MAXDIM], strides[CJ_MAXDIM], size;
    int ndim = -1;
    PyObject *sh = PySequence_Fast(shape_obj, "shape must be a tuple");
    PyObject *st = sh ? PySequence_Fast(strides_obj, "strides must be a tuple") : NULL;
    if (st != NULL && PySequence_Fast_GET_SIZE(sh) == PySequence_Fast_GET_SIZE(st) &&
        PySequence_Fast_GET_SIZE(sh) <= CJ_MAXDIM) {
        ndim = (int)PySequence_Fast_GET_SIZE(sh);
        for (int i = 0; i < ndim; i++) {
            shape[i] = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(sh, i));
            strides[i] = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(st, i));
        }
    }
    Py_XDECREF(sh);
    Py_XDECREF(st);
    if (PyErr_Occurred() || ndim < 0 ||
        cj_layout_check(ndim, shape, NULL, PyDataType_ELSIZE(dtype), -1, &size) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "bad IPC array layout");
        }
        Py_DECREF(dtype);
        return NULL;
    }
    int device = cj_ctx_ensure();
    CUdeviceptr ptr = 0;
    if (device < 0 || CJ_CU(cuIpcOpenMemHandle, &ptr, handle, 1 /* lazy peer access */) < 0) {
        Py_DECREF(dtype);
        return NULL;
    }
    cj_MemoryObject *owner = cj_memory_new(CJ_MEM_IPC, device);
    if (owner == NULL) {
        CJ_CU_RAW(cuIpcCloseMemHandle, ptr);
        Py_DECREF(dtype);
        return NULL;
    }
    owner->device_pointer = ptr;
    cj_DeviceNDArrayObject *a = cj_devicearray_new(ptr + (CUdeviceptr)offset, ndim, shape, strides,
                                                   dtype, (PyObject *)owner, NULL, device);
    Py_DECREF(owner);
    Py_DECREF(dtype);
    return (PyObject *)a;
}

static PyMethodDef ipc_functions[] = {
    {"ipc_open", py_ipc_open, METH_VARARGS,
     "ipc_open(handle, offset, shape, strides, dtype) -> DeviceNDArray (closed when freed)."},
    {NULL, NULL, 0, NULL},
};

int cj_ipc_init(PyObject *module) {
    return PyModule_AddFunctions(module, ipc_functions);
}
