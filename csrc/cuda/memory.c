/* memory.c: the Memory owner type and the memory managers.
 *
 * Every block of memory cujit hands out is owned by one Memory object; releasing it (its
 * dealloc, or free()) gives the memory back the way its kind requires:
 *   DEVICE      numba's deferred deallocation: queued, and the queue is flushed when it holds more
 *               than `max_count` entries or `max_ratio` of device memory, when an allocation
 *               fails (then retried once), and never inside defer_cleanup();
 *   POOL        cuMemFreeAsync on the stream it was allocated on (stream-ordered, no sync);
 *   HOST        pinned host memory, queued like DEVICE;
 *   REGISTERED  unregistered at once, then the Python buffer released;
 *   IPC         cuIpcCloseMemHandle at once;   DLPACK  the producer's deleter called.
 * Memory of a context that close() released is never freed by us (the pointer may belong to
 * someone else by then). State is process-wide and touched only with the GIL held. */
#include <stdlib.h>

#include "cuda/cuda.h"

PyTypeObject *cj_Memory_Type;

enum manager_kind { MANAGER_DEFAULT, MANAGER_POOL, MANAGER_PLUGIN };
static enum manager_kind manager = MANAGER_DEFAULT;
static PyObject *plugin; /* MANAGER_PLUGIN: the EMM plugin instance (owned) */
static int pool_configured[CJ_MAX_DEVICES];
/* Called once before the first allocation (owned): loads the CUJIT_CUDA_MEMORY_MANAGER plugin
 * then, not at import, so the plugin module may itself import cujit. */
static PyObject *first_use_hook;

static int run_first_use_hook(void) {
    if (first_use_hook == NULL) {
        return 0;
    }
    PyObject *hook = first_use_hook;
    first_use_hook = NULL;
    PyObject *r = PyObject_CallNoArgs(hook);
    Py_DECREF(hook);
    Py_XDECREF(r);
    return r == NULL ? -1 : 0;
}

/* ---- deferred deallocation queue ---- */
typedef struct pending {
    cj_memory_kind kind;
    CUdeviceptr device_pointer;
    void *host_pointer;
    size_t size;
    int device;
    unsigned long generation;
} pending;

static pending *queue;
static Py_ssize_t queue_len, queue_cap;
static size_t queue_bytes;
static Py_ssize_t max_count = 10;
static double max_ratio = 0.2;
static int defer_depth;

/* Makes `device`'s primary context current if another one is; *saved gets the previous one.
 * Returns 0, 1 when the context is gone (nothing to free), -1 on error. */
static int enter_device(int device, unsigned long generation, CUcontext *saved) {
    *saved = NULL;
    CUcontext ctx = cj_ctx_primary(device);
    if (ctx == NULL || cj_ctx_generation[device] != generation) {
        return 1;
    }
    if (CJ_CU(cuCtxGetCurrent, saved) < 0) {
        return -1;
    }
    if (*saved != ctx && CJ_CU(cuCtxSetCurrent, ctx) < 0) {
        return -1;
    }
    return 0;
}

static void leave_device(int device, CUcontext saved) {
    if (saved != cj_ctx_primary(device)) {
        CJ_CU_RAW(cuCtxSetCurrent, saved);
    }
}

#define CUDA_ERROR_DEINITIALIZED 4

static int free_pending(const pending *p) {
    CUcontext saved;
    int entered = enter_device(p->device, p->generation, &saved);
    if (entered != 0) {
        return entered < 0 ? -1 : 0;
    }
    CUresult res;
    /* a free may wait for the device, and a stream callback may wait for the GIL */
    Py_BEGIN_ALLOW_THREADS
    res = p->kind == CJ_MEM_HOST ? CJ_CU_RAW(cuMemFreeHost, p->host_pointer)
                                 : CJ_CU_RAW(cuMemFree, p->device_pointer);
    Py_END_ALLOW_THREADS
    leave_device(p->device, saved);
    if (res == CUDA_ERROR_DEINITIALIZED) {
        return 0; /* the process is exiting: the driver has already let everything go */
    }
    return cj_cu_result(res, p->kind == CJ_MEM_HOST ? "cuMemFreeHost" : "cuMemFree");
}

int cj_deallocations_flush(int force) {
    if (defer_depth > 0 && !force) {
        return 0;
    }
    int rc = 0;
    /* take the queue first: a free may run Python (never here, but keep it re-entrant) */
    pending *items = queue;
    Py_ssize_t n = queue_len;
    queue = NULL;
    queue_len = queue_cap = 0;
    queue_bytes = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (free_pending(&items[i]) < 0 && rc == 0) {
            rc = -1; /* keep freeing the rest; report the first error */
        } else if (rc < 0) {
            PyErr_Clear();
        }
    }
    free(items);
    return rc;
}

static int enqueue(const pending *p) {
    if (queue_len == queue_cap) {
        Py_ssize_t cap = queue_cap ? queue_cap * 2 : 16;
        pending *grown = realloc(queue, (size_t)cap * sizeof(pending));
        if (grown == NULL) {
            return free_pending(p); /* no room to defer: free now */
        }
        queue = grown;
        queue_cap = cap;
    }
    queue[queue_len++] = *p;
    queue_bytes += p->size;
    if (defer_depth > 0) {
        return 0;
    }
    size_t total = cj_ctx_primary(p->device) ? cj_device_total_memory(p->device) : 0;
    if (total == 0 && PyErr_Occurred()) {
        PyErr_Clear();
    }
    if (queue_len > max_count || (total && (double)queue_bytes > max_ratio * (double)total)) {
        return cj_deallocations_flush(0);
    }
    return 0;
}

/* ---- releasing one Memory ---- */
static int release(cj_MemoryObject *m) {
    if (m->released) {
        return 0;
    }
    m->released = 1;
    pending p = {m->kind, m->device_pointer, m->host_pointer, m->size, m->device, m->generation};
    switch (m->kind) {
    case CJ_MEM_DEVICE:
        return m->device_pointer ? enqueue(&p) : 0;
    case CJ_MEM_HOST:
        return m->host_pointer ? enqueue(&p) : 0;
    case CJ_MEM_POOL: {
        int rc = 0;
        if (m->device_pointer) {
            CUstream stream = NULL;
            CUcontext saved;
            int entered = enter_device(m->device, m->generation, &saved);
            if (entered == 0) {
                rc = cj_stream_handle(m->stream, &stream);
                if (rc == 0) {
                    rc = CJ_CU(cuMemFreeAsync, m->device_pointer, stream);
                }
                leave_device(m->device, saved);
            } else if (entered < 0) {
                rc = -1;
            }
        }
        Py_CLEAR(m->stream);
        return rc;
    }
    case CJ_MEM_REGISTERED: {
        int rc = 0;
        CUcontext saved;
        int entered = m->host_pointer ? enter_device(m->device, m->generation, &saved) : 1;
        if (entered == 0) {
            rc = CJ_CU(cuMemHostUnregister, m->host_pointer);
            leave_device(m->device, saved);
        } else if (entered < 0) {
            rc = -1;
        }
        PyBuffer_Release(&m->view);
        return rc;
    }
    case CJ_MEM_IPC: {
        int rc = 0;
        CUcontext saved;
        int entered = enter_device(m->device, m->generation, &saved);
        if (entered == 0) {
            rc = CJ_CU(cuIpcCloseMemHandle, m->device_pointer);
            leave_device(m->device, saved);
        } else if (entered < 0) {
            rc = -1;
        }
        return rc;
    }
    case CJ_MEM_DLPACK:
        if (m->release != NULL) {
            m->release(m);
        }
        return 0;
    }
    return 0;
}

cj_MemoryObject *cj_memory_new(cj_memory_kind kind, int device) {
    cj_MemoryObject *m = PyObject_New(cj_MemoryObject, cj_Memory_Type);
    if (m == NULL) {
        return NULL;
    }
    m->kind = kind;
    m->device_pointer = 0;
    m->host_pointer = NULL;
    m->size = 0;
    m->device = device;
    m->generation = device >= 0 && device < CJ_MAX_DEVICES ? cj_ctx_generation[device] : 0;
    m->released = 0;
    m->stream = NULL;
    memset(&m->view, 0, sizeof(m->view));
    m->dlpack = NULL;
    m->dlpack_versioned = 0;
    m->release = NULL;
    m->weakreflist = NULL;
    return m;
}

static void memory_dealloc(PyObject *self) {
    cj_MemoryObject *m = (cj_MemoryObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (m->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
#if PY_VERSION_HEX >= 0x030D0000
    int finalizing = Py_IsFinalizing();
#else
    int finalizing = _Py_IsFinalizing();
#endif
    /* at interpreter exit the driver may be shutting down too: the process frees it all */
    if (!finalizing || m->kind == CJ_MEM_DLPACK || m->kind == CJ_MEM_REGISTERED) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        if (release(m) < 0) {
            PyErr_WriteUnraisable(self);
        }
        PyErr_Restore(type, value, tb);
    }
    PyObject_Free(self);
    Py_DECREF(tp);
}

/* ---- allocation ---- */
static PyObject *alloc_default(size_t size, int device, CUdeviceptr *ptr) {
    CUdeviceptr p = 0;
    if (size > 0) {
        CUresult res = CJ_CU_RAW(cuMemAlloc, &p, size);
        if (res == CUDA_ERROR_OUT_OF_MEMORY) {
            if (cj_deallocations_flush(0) < 0) {
                return NULL;
            }
            res = CJ_CU_RAW(cuMemAlloc, &p, size);
        }
        if (cj_cu_result(res, "cuMemAlloc") < 0) {
            return NULL;
        }
    }
    cj_MemoryObject *m = cj_memory_new(CJ_MEM_DEVICE, device);
    if (m == NULL) {
        if (p) {
            CJ_CU_RAW(cuMemFree, p);
        }
        return NULL;
    }
    m->device_pointer = p;
    m->size = size;
    *ptr = p;
    return (PyObject *)m;
}

static int configure_pool(int device) {
    if (pool_configured[device]) {
        return 0;
    }
    CUmemoryPool pool;
    /* keep freed memory cached in the pool (like CuPy's pool) instead of returning it to the
     * driver at each synchronisation */
    unsigned long long threshold = ~0ULL;
    if (CJ_CU(cuDeviceGetDefaultMemPool, &pool, (CUdevice)device) < 0 ||
        CJ_CU(cuMemPoolSetAttribute, pool, 4 /* CU_MEMPOOL_ATTR_RELEASE_THRESHOLD */,
              &threshold) < 0) {
        return -1;
    }
    pool_configured[device] = 1;
    return 0;
}

static PyObject *alloc_pool(size_t size, int device, PyObject *stream, CUdeviceptr *ptr) {
    CUstream handle = NULL;
    if (cj_stream_handle(stream, &handle) < 0 || configure_pool(device) < 0) {
        return NULL;
    }
    CUdeviceptr p = 0;
    if (size > 0) {
        CUresult res = CJ_CU_RAW(cuMemAllocAsync, &p, size, handle);
        if (res == CUDA_ERROR_OUT_OF_MEMORY) {
            if (cj_deallocations_flush(0) < 0) {
                return NULL;
            }
            res = CJ_CU_RAW(cuMemAllocAsync, &p, size, handle);
        }
        if (cj_cu_result(res, "cuMemAllocAsync") < 0) {
            return NULL;
        }
    }
    cj_MemoryObject *m = cj_memory_new(CJ_MEM_POOL, device);
    if (m == NULL) {
        if (p) {
            CJ_CU_RAW(cuMemFreeAsync, p, handle);
        }
        return NULL;
    }
    m->device_pointer = p;
    m->size = size;
    if (stream != NULL && cj_Stream_Check(stream)) {
        Py_INCREF(stream);
        m->stream = stream; /* owned: frees are ordered on it */
    }
    *ptr = p;
    return (PyObject *)m;
}

/* Reads the device address from an EMM plugin's MemoryPointer (device_pointer_value, or
 * device_pointer as an int or a ctypes value). */
int cj_memory_pointer_of(PyObject *mem, CUdeviceptr *ptr) {
    PyObject *value = PyObject_GetAttrString(mem, "device_pointer_value");
    if (value == NULL) {
        PyErr_Clear();
        PyObject *dp = PyObject_GetAttrString(mem, "device_pointer");
        if (dp == NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%.100s has no device_pointer: device memory must be a "
                         "cujit.cuda.MemoryPointer (what a memory manager's memalloc returns)",
                         Py_TYPE(mem)->tp_name);
            return -1;
        }
        if (PyLong_Check(dp)) {
            value = dp;
        } else {
            value = PyObject_GetAttrString(dp, "value");
            Py_DECREF(dp);
            if (value == NULL) {
                return -1;
            }
        }
    }
    if (value == Py_None) {
        *ptr = 0;
        Py_DECREF(value);
        return 0;
    }
    *ptr = (CUdeviceptr)PyLong_AsUnsignedLongLong(value);
    Py_DECREF(value);
    return PyErr_Occurred() ? -1 : 0;
}

PyObject *cj_memalloc(size_t size, PyObject *stream, CUdeviceptr *ptr, int *device) {
    if (run_first_use_hook() < 0) {
        return NULL;
    }
    int dev = cj_ctx_ensure();
    if (dev < 0) {
        return NULL;
    }
    *device = dev;
    switch (manager) {
    case MANAGER_DEFAULT:
        return alloc_default(size, dev, ptr);
    case MANAGER_POOL:
        return alloc_pool(size, dev, stream, ptr);
    case MANAGER_PLUGIN: {
        PyObject *mem = PyObject_CallMethod(plugin, "memalloc", "n", (Py_ssize_t)size);
        if (mem == NULL) {
            return NULL;
        }
        if (cj_memory_pointer_of(mem, ptr) < 0) {
            Py_DECREF(mem);
            return NULL;
        }
        if (*ptr == 0 && size > 0) {
            Py_DECREF(mem);
            PyErr_SetString(PyExc_ValueError, "the memory manager's memalloc returned NULL");
            return NULL;
        }
        return mem; /* new reference: the plugin's MemoryPointer owns the memory */
    }
    }
    CJ_UNREACHABLE("unknown memory manager");
    return NULL;
}

PyObject *cj_memalloc_transient(size_t size, PyObject *stream, CUdeviceptr *ptr, int *device) {
    if (manager != MANAGER_DEFAULT) {
        return cj_memalloc(size, stream, ptr, device);
    }
    if (run_first_use_hook() < 0) {
        return NULL;
    }
    int dev = cj_ctx_ensure();
    if (dev < 0) {
        return NULL;
    }
    *device = dev;
    PyObject *m = alloc_pool(size, dev, stream, ptr);
    if (m == NULL) {
        PyErr_Clear(); /* no memory pools here (or none left): the plain path decides */
        return alloc_default(size, dev, ptr);
    }
    return m;
}

/* ---- Python-facing functions ---- */

static PyObject *py_memalloc(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"size", "stream", "pool", NULL};
    Py_ssize_t size;
    PyObject *stream = NULL;
    int pool = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "n|Op:memalloc", kwlist, &size, &stream,
                                     &pool)) {
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
    CUdeviceptr ptr;
    return pool ? alloc_pool((size_t)size, dev, stream, &ptr)
                : alloc_default((size_t)size, dev, &ptr);
}

static PyObject *py_host_alloc(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"size", "mapped", "portable", "wc", NULL};
    Py_ssize_t size;
    int mapped = 0, portable = 0, wc = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "n|ppp:host_alloc", kwlist, &size, &mapped,
                                     &portable, &wc)) {
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
    unsigned int flags = (portable ? 1u : 0u) | (mapped ? 2u : 0u) | (wc ? 4u : 0u);
    void *host = NULL;
    CUdeviceptr devptr = 0;
    /* a zero-byte request still gets a real (1-byte) block: NumPy needs a non-NULL buffer */
    size_t bytes = size > 0 ? (size_t)size : 1;
    CUresult res = CJ_CU_RAW(cuMemHostAlloc, &host, bytes, flags);
    if (res == CUDA_ERROR_OUT_OF_MEMORY) {
        if (cj_deallocations_flush(0) < 0) {
            return NULL;
        }
        res = CJ_CU_RAW(cuMemHostAlloc, &host, bytes, flags);
    }
    if (cj_cu_result(res, "cuMemHostAlloc") < 0) {
        return NULL;
    }
    if (mapped && CJ_CU(cuMemHostGetDevicePointer, &devptr, host, 0) < 0) {
        CJ_CU_RAW(cuMemFreeHost, host);
        return NULL;
    }
    cj_MemoryObject *m = cj_memory_new(CJ_MEM_HOST, dev);
    if (m == NULL) {
        CJ_CU_RAW(cuMemFreeHost, host);
        return NULL;
    }
    m->host_pointer = host;
    m->device_pointer = devptr;
    m->size = (size_t)size;
    return (PyObject *)m;
}

/* host_register(buffer, mapped=False, portable=False) -> Memory pinning a writable buffer. */
static PyObject *py_host_register(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"buffer", "mapped", "portable", NULL};
    PyObject *obj;
    int mapped = 0, portable = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pp:host_register", kwlist, &obj, &mapped,
                                     &portable)) {
        return NULL;
    }
    int dev = cj_ctx_ensure();
    if (dev < 0) {
        return NULL;
    }
    cj_MemoryObject *m = cj_memory_new(CJ_MEM_REGISTERED, dev);
    if (m == NULL) {
        return NULL;
    }
    m->released = 1; /* nothing to undo until registration succeeds */
    if (PyObject_GetBuffer(obj, &m->view, PyBUF_WRITABLE | PyBUF_ANY_CONTIGUOUS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    m->host_pointer = m->view.buf;
    m->size = (size_t)m->view.len;
    if (m->size == 0) {
        m->released = 0;
        m->host_pointer = NULL;
        return (PyObject *)m; /* nothing to pin */
    }
    unsigned int flags = (portable ? 1u : 0u) | (mapped ? 2u : 0u);
    if (CJ_CU(cuMemHostRegister, m->host_pointer, m->size, flags) < 0) {
        PyBuffer_Release(&m->view);
        Py_DECREF(m);
        return NULL;
    }
    m->released = 0;
    if (mapped && CJ_CU(cuMemHostGetDevicePointer, &m->device_pointer, m->host_pointer, 0) < 0) {
        Py_DECREF(m); /* unregisters */
        return NULL;
    }
    return (PyObject *)m;
}

static PyObject *py_set_memory_manager(PyObject *self, PyObject *args) {
    const char *kind;
    PyObject *obj = Py_None;
    if (!PyArg_ParseTuple(args, "s|O:set_memory_manager", &kind, &obj)) {
        return NULL;
    }
    enum manager_kind next;
    if (strcmp(kind, "default") == 0) {
        next = MANAGER_DEFAULT;
    } else if (strcmp(kind, "pool") == 0) {
        next = MANAGER_POOL;
    } else if (strcmp(kind, "plugin") == 0) {
        if (obj == Py_None) {
            PyErr_SetString(PyExc_TypeError, "a plugin memory manager needs its instance");
            return NULL;
        }
        next = MANAGER_PLUGIN;
    } else {
        PyErr_Format(PyExc_ValueError, "unknown memory manager kind %R", PyTuple_GET_ITEM(args, 0));
        return NULL;
    }
    Py_XINCREF(obj);
    Py_XSETREF(plugin, next == MANAGER_PLUGIN ? obj : NULL);
    if (next != MANAGER_PLUGIN) {
        Py_XDECREF(obj);
    }
    manager = next;
    Py_RETURN_NONE;
}

static PyObject *py_set_first_use_hook(PyObject *self, PyObject *hook) {
    Py_XSETREF(first_use_hook, hook == Py_None ? NULL : Py_NewRef(hook));
    Py_RETURN_NONE;
}

static PyObject *py_run_first_use_hook(PyObject *self, PyObject *unused) {
    if (run_first_use_hook() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_flush(PyObject *self, PyObject *unused) {
    const char *why;
    if (cj_driver_available(&why) && cj_deallocations_flush(0) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_pending(PyObject *self, PyObject *unused) {
    return Py_BuildValue("(nn)", queue_len, (Py_ssize_t)queue_bytes);
}

static PyObject *py_set_limits(PyObject *self, PyObject *args) {
    Py_ssize_t count;
    double ratio;
    if (!PyArg_ParseTuple(args, "nd:set_deallocation_limits", &count, &ratio)) {
        return NULL;
    }
    if (count < 0 || !(ratio >= 0.0 && ratio <= 1.0)) {
        PyErr_SetString(PyExc_ValueError,
                        "pending deallocation count must be >= 0 and ratio within [0, 1]");
        return NULL;
    }
    max_count = count;
    max_ratio = ratio;
    Py_RETURN_NONE;
}

static PyObject *py_defer_enter(PyObject *self, PyObject *unused) {
    defer_depth++;
    Py_RETURN_NONE;
}

static PyObject *py_defer_exit(PyObject *self, PyObject *unused) {
    if (defer_depth > 0) {
        defer_depth--;
    }
    Py_RETURN_NONE;
}

/* Frees every pending deallocation (even inside defer_cleanup): close() and pool reset. */
static PyObject *py_flush_all(PyObject *self, PyObject *unused) {
    const char *why;
    if (cj_driver_available(&why) && cj_deallocations_flush(1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_pool_trim(PyObject *self, PyObject *arg) {
    Py_ssize_t keep = PyLong_AsSsize_t(arg);
    if (keep == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int dev = cj_ctx_ensure();
    CUmemoryPool pool;
    if (dev < 0 || CJ_CU(cuDeviceGetDefaultMemPool, &pool, (CUdevice)dev) < 0 ||
        CJ_CU(cuMemPoolTrimTo, pool, keep < 0 ? 0 : (size_t)keep) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- Memory: attributes, buffer protocol for host memory ---- */

static PyObject *memory_free(PyObject *self, PyObject *unused) {
    if (release((cj_MemoryObject *)self) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *memory_get_device_pointer(PyObject *self, void *closure) {
    return PyLong_FromUnsignedLongLong(((cj_MemoryObject *)self)->device_pointer);
}

static PyObject *memory_get_host_pointer(PyObject *self, void *closure) {
    return PyLong_FromVoidPtr(((cj_MemoryObject *)self)->host_pointer);
}

static PyObject *memory_get_size(PyObject *self, void *closure) {
    return PyLong_FromSize_t(((cj_MemoryObject *)self)->size);
}

static PyObject *memory_get_kind(PyObject *self, void *closure) {
    static const char *const names[] = {"device", "pool", "host", "registered", "ipc", "dlpack"};
    return PyUnicode_FromString(names[((cj_MemoryObject *)self)->kind]);
}

static PyObject *memory_get_released(PyObject *self, void *closure) {
    return PyBool_FromLong(((cj_MemoryObject *)self)->released);
}

static int memory_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    cj_MemoryObject *m = (cj_MemoryObject *)self;
    if (m->host_pointer == NULL || m->released) { /* pinned, registered or managed */
        PyErr_SetString(PyExc_BufferError,
                        m->released ? "this memory was freed" : "device memory has no host buffer");
        return -1;
    }
    return PyBuffer_FillInfo(view, self, m->host_pointer, (Py_ssize_t)m->size, 0, flags);
}

static PyObject *memory_repr(PyObject *self) {
    cj_MemoryObject *m = (cj_MemoryObject *)self;
    PyObject *kind = memory_get_kind(self, NULL);
    if (kind == NULL) {
        return NULL;
    }
    const char *kind_text = PyUnicode_AsUTF8(kind);
    if (kind_text == NULL) {
        Py_DECREF(kind);
        return NULL;
    }
    char text[200];
    snprintf(text, sizeof(text), "<cujit Memory %s %zu bytes at 0x%llx on device %d%s>",
             kind_text, m->size,
             m->device_pointer ? m->device_pointer
                               : (unsigned long long)(uintptr_t)m->host_pointer,
             m->device, m->released ? " (freed)" : "");
    PyObject *r = PyUnicode_FromString(text);
    Py_DECREF(kind);
    return r;
}

static PyMethodDef memory_methods[] = {
    {"free", memory_free, METH_NOARGS, "Gives the memory back now (deferred for device memory)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef memory_getset[] = {
    {"device_pointer_value", memory_get_device_pointer, NULL, "Device address (int).", NULL},
    {"host_pointer", memory_get_host_pointer, NULL, "Host address (int) or 0.", NULL},
    {"size", memory_get_size, NULL, "Size in bytes.", NULL},
    {"kind", memory_get_kind, NULL, "How the memory was allocated.", NULL},
    {"released", memory_get_released, NULL, "Whether it was given back.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef memory_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(cj_MemoryObject, weakreflist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot memory_slots[] = {
    {Py_tp_dealloc, memory_dealloc},
    {Py_tp_repr, memory_repr},
    {Py_tp_methods, memory_methods},
    {Py_tp_getset, memory_getset},
    {Py_tp_members, memory_members},
    {Py_bf_getbuffer, memory_getbuffer},
    {Py_tp_doc, "A block of CUDA memory owned by cujit; freed when this object goes away."},
    {0, NULL},
};

static PyType_Spec memory_spec = {
    .name = "cujit._core.Memory",
    .basicsize = sizeof(cj_MemoryObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = memory_slots,
};

static PyMethodDef memory_functions[] = {
    {"memalloc", (PyCFunction)(void (*)(void))py_memalloc, METH_VARARGS | METH_KEYWORDS,
     "memalloc(size, stream=None, pool=False) -> Memory from cuMemAlloc / cuMemAllocAsync."},
    {"host_alloc", (PyCFunction)(void (*)(void))py_host_alloc, METH_VARARGS | METH_KEYWORDS,
     "host_alloc(size, mapped=False, portable=False, wc=False) -> pinned host Memory."},
    {"host_register", (PyCFunction)(void (*)(void))py_host_register,
     METH_VARARGS | METH_KEYWORDS, "host_register(buffer, mapped=False, portable=False)."},
    {"set_memory_manager", py_set_memory_manager, METH_VARARGS,
     "set_memory_manager('default'|'pool'|'plugin', instance=None)."},
    {"set_first_use_hook", py_set_first_use_hook, METH_O,
     "Callable run once before the first device allocation (None clears it)."},
    {"run_first_use_hook", py_run_first_use_hook, METH_NOARGS, NULL},
    {"deallocations_flush", py_flush, METH_NOARGS, "Frees pending deallocations (not deferred)."},
    {"deallocations_flush_all", py_flush_all, METH_NOARGS, "Frees every pending deallocation."},
    {"deallocations_pending", py_pending, METH_NOARGS, "(count, bytes) of pending frees."},
    {"set_deallocation_limits", py_set_limits, METH_VARARGS, "(max count, max ratio)."},
    {"defer_cleanup_enter", py_defer_enter, METH_NOARGS, NULL},
    {"defer_cleanup_exit", py_defer_exit, METH_NOARGS, NULL},
    {"pool_trim", py_pool_trim, METH_O, "Trims the device's default memory pool to n bytes."},
    {NULL, NULL, 0, NULL},
};

int cj_memory_init(PyObject *module) {
    cj_Memory_Type = (PyTypeObject *)PyType_FromSpec(&memory_spec);
    if (cj_Memory_Type == NULL) {
        return -1;
    }
    Py_INCREF(cj_Memory_Type);
    if (PyModule_AddObject(module, "Memory", (PyObject *)cj_Memory_Type) < 0) {
        Py_DECREF(cj_Memory_Type);
        return -1;
    }
    return PyModule_AddFunctions(module, memory_functions);
}
