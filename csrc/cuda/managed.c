/* managed.c: managed (unified) memory, cuMemAllocManaged, for numba-cuda's
 * cuda.managed_array; and the profiler switches cuProfilerStart/Stop (cuda.profile_start,
 * profile_stop). A managed block is a Memory of the device kind (freed with cuMemFree through
 * the deferred queue) whose host_pointer is the same address, so it also exposes a host
 * buffer (memory.c's getbuffer serves any Memory with a host pointer). */
#include "cuda/cuda.h"

#define CU_MEM_ATTACH_GLOBAL 1
#define CU_MEM_ATTACH_HOST 2

/* managed_alloc(size, attach_global=True) -> Memory. */
static PyObject *py_managed_alloc(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"size", "attach_global", NULL};
    Py_ssize_t size;
    int attach_global = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "n|p:managed_alloc", kwlist, &size,
                                     &attach_global)) {
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "allocation size must be non-negative");
        return NULL;
    }
    int dev = cj_ctx_ensure();
    if (dev < 0) {
        return NULL;
    }
    /* a zero-byte request still gets a real (1-byte) block: NumPy needs a non-NULL buffer */
    size_t bytes = size > 0 ? (size_t)size : 1;
    unsigned int flags = attach_global ? CU_MEM_ATTACH_GLOBAL : CU_MEM_ATTACH_HOST;
    CUdeviceptr p = 0;
    CUresult res = CJ_CU_RAW(cuMemAllocManaged, &p, bytes, flags);
    if (res == CUDA_ERROR_OUT_OF_MEMORY) {
        if (cj_deallocations_flush(0) < 0) {
            return NULL;
        }
        res = CJ_CU_RAW(cuMemAllocManaged, &p, bytes, flags);
    }
    if (cj_cu_result(res, "cuMemAllocManaged") < 0) {
        return NULL;
    }
    cj_MemoryObject *m = cj_memory_new(CJ_MEM_DEVICE, dev);
    if (m == NULL) {
        CJ_CU_RAW(cuMemFree, p);
        return NULL;
    }
    m->device_pointer = p;
    m->host_pointer = (void *)(uintptr_t)p;
    m->size = (size_t)size;
    return (PyObject *)m;
}

static PyObject *py_profile_start(PyObject *self, PyObject *unused) {
    if (cj_ctx_ensure() < 0 || CJ_CU(cuProfilerStart) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_profile_stop(PyObject *self, PyObject *unused) {
    if (cj_ctx_ensure() < 0 || CJ_CU(cuProfilerStop) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef managed_functions[] = {
    {"managed_alloc", (PyCFunction)(void (*)(void))py_managed_alloc, METH_VARARGS | METH_KEYWORDS,
     "managed_alloc(size, attach_global=True) -> Memory in managed (unified) memory."},
    {"profile_start", py_profile_start, METH_NOARGS, "cuProfilerStart()."},
    {"profile_stop", py_profile_stop, METH_NOARGS, "cuProfilerStop()."},
    {NULL, NULL, 0, NULL},
};

int cj_managed_init(PyObject *module) {
    return PyModule_AddFunctions(module, managed_functions);
}
