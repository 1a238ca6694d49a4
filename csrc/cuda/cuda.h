/* cuda: the CUDA runtime of cujit, the object model users touch around a launch, over the
 * driver layer. driver.h is the bottom (the dlopen'ed driver table, contexts); this header is
 * everything above it. The files, in their order: a file calls only the ones before it (the
 * DeviceNDArray type's method table is the one exception: it names the methods that
 * devicearray_view/copy, dlpack and ipc define, as declared here).
 *
 *   driver.c         the function table `cj_cu`, lazy loading, CUresult -> CudaAPIError
 *   cuda_exception.c a debug kernel's exception record -> the Python exception
 *   context.c        primary contexts per device, a thread's current device, close()
 *   stream.c         Stream, and any `stream=` argument -> CUstream      event.c  Event
 *   memory.c         the Memory owner type (device, pool, pinned/mapped host, registered host,
 *                    IPC, DLPack: given back through its `release` hook) and the memory
 *                    managers (default with deferred deallocation, stream-ordered pool, Python
 *                    EMM plugins)
 *   cai.c            __cuda_array_interface__ v3 parsing into `cj_cai` (untrusted dicts)
 *   staging.c        big pageable host <-> device copies through pinned buffers
 *   devicearray.c    DeviceNDArray: the type, construction, attributes
 *   devicearray_view.c  its views: transpose, reshape, ravel, view, bind, indexing
 *   devicearray_attrs.c .flags and squeeze (numba-cuda's)
 *   devicearray_copy.c  host/device copies, __setitem__, and the slots that copy (__array__,
 *                    __getitem__ of one element)
 *   dlpack.c         __dlpack__ export and from_dlpack import
 *   ipc.c            IPC handles
 *
 * Layout rules (default strides, contiguity) are abi/layout.c's; array types are types/'s.
 * The C API below lets the kernel launcher recognise a DeviceNDArray and read its layout, and
 * parse any object's __cuda_array_interface__, without Python-level allocations of its own. */
#ifndef CJ_CUDA_H
#define CJ_CUDA_H

#include "abi/abi.h"
#include "cuda/driver.h"
#include "util/npy.h"
#include "util/util.h"
#include <structmember.h>


/* ---- stream.c ---- */
typedef struct cj_StreamObject {
    PyObject_HEAD
    CUstream handle;
    int owned;      /* created by cujit (destroyed at dealloc) or external */
    int device;
    unsigned long generation;
    PyObject *owner; /* external_stream: an object to keep alive, or NULL */
} cj_StreamObject;
extern PyTypeObject *cj_Stream_Type;
#define cj_Stream_Check(o) PyObject_TypeCheck((o), cj_Stream_Type)
/* `stream` argument (0, None, a Stream or an object with __cuda_stream__) -> handle; 0 or -1. */
int cj_stream_handle(PyObject *stream, CUstream *handle);
/* A Stream object (new reference) for the legacy (1) or per-thread (2) default stream handle,
 * or an external one for any other handle. */
PyObject *cj_stream_for_handle(uintptr_t handle, PyObject *owner);

/* ---- memory.c ---- */
typedef enum cj_memory_kind {
    CJ_MEM_DEVICE,     /* cuMemAlloc, freed through the deferred queue */
    CJ_MEM_POOL,       /* cuMemAllocAsync, freed stream-ordered */
    CJ_MEM_HOST,       /* cuMemHostAlloc (pinned, maybe mapped) */
    CJ_MEM_REGISTERED, /* cuMemHostRegister over a Python buffer */
    CJ_MEM_IPC,        /* cuIpcOpenMemHandle */
    CJ_MEM_DLPACK,     /* a DLPack tensor consumed by from_dlpack: its deleter is called */
} cj_memory_kind;

typedef struct cj_MemoryObject {
    PyObject_HEAD
    cj_memory_kind kind;
    CUdeviceptr device_pointer; /* 0 for unmapped host memory */
    void *host_pointer;         /* host kinds only */
    size_t size;
    int device;
    unsigned long generation;
    int released;
    PyObject *stream;  /* POOL: the Stream it was allocated on (owned) or NULL */
    Py_buffer view;    /* REGISTERED: the pinned buffer (held) */
    void *dlpack;      /* DLPACK: the managed tensor */
    int dlpack_versioned;
    /* DLPACK: gives the tensor back to its producer (set by dlpack.c, so memory.c need not
     * know DLPack), or NULL */
    void (*release)(struct cj_MemoryObject *m);
    PyObject *weakreflist;
} cj_MemoryObject;
extern PyTypeObject *cj_Memory_Type;

/* Allocates `size` bytes of device memory on the current device through the active memory
 * manager (default, pool or a Python plugin), ordered on `stream` (borrowed, may be NULL) for
 * the pool. Returns the owner that keeps the memory alive (new reference) and sets *ptr and
 * *device; NULL with an exception set (CudaAPIError after flushing deferred frees on OOM). */
PyObject *cj_memalloc(size_t size, PyObject *stream, CUdeviceptr *ptr, int *device);
/* Memory that lives only during one call and never reaches the user (a CUDA ufunc's copies of
 * host inputs, results bound for the host). Under the default manager it comes stream-ordered
 * from the device's memory pool (cached by the driver: no cuMemAlloc/cuMemFree per call);
 * under the pool manager or a plugin it is an ordinary allocation of that manager. */
PyObject *cj_memalloc_transient(size_t size, PyObject *stream, CUdeviceptr *ptr, int *device);
/* The device address of a memory object (Memory, MemoryPointer: device_pointer_value, or
 * device_pointer as an int / ctypes value); 0 or -1 with TypeError. */
int cj_memory_pointer_of(PyObject *mem, CUdeviceptr *ptr);
/* A new Memory owner of `kind` around memory allocated elsewhere (no allocation). */
cj_MemoryObject *cj_memory_new(cj_memory_kind kind, int device);
/* Frees the queued deferred deallocations now (unless inside defer_cleanup when !force). */
int cj_deallocations_flush(int force);

/* ---- cai.c ---- */
typedef struct cj_cai {
    CUdeviceptr data;
    int ndim;
    Py_ssize_t shape[CJ_MAXDIM];
    Py_ssize_t strides[CJ_MAXDIM]; /* bytes; C-contiguous strides when the dict gives None */
    char typestr[16];              /* as given, e.g. "<f8" */
    char kind;                     /* 'b', 'i', 'u', 'f', 'c' */
    int itemsize;
    int readonly;
    int has_stream; /* the dict's `stream` key was an integer */
    uintptr_t stream;
    int version;
    Py_ssize_t size; /* number of elements */
} cj_cai;

/* Parses a __cuda_array_interface__ dict (borrowed) into `out`: 0, or -1 with ValueError/
 * TypeError naming the bad key. No Python objects are created on success. */
int cj_cai_parse_dict(PyObject *dict, cj_cai *out);
/* Reads obj.__cuda_array_interface__ and parses it; -1 with an exception set when absent or bad. */
int cj_cai_parse(PyObject *obj, cj_cai *out);
/* The NumPy dtype of a parsed interface (new reference) or NULL. */
PyArray_Descr *cj_cai_dtype(const cj_cai *cai);
/* The pieces of a parse, for readers of other sources (cai_fast.c), each 0 or -1 with the
 * same errors as the dict's: a typestr ("<f8"); shape and strides (a tuple or list of ints;
 * strides in bytes, or NULL/None for C order); data (after data and itemsize are set). */
int cj_cai_set_typestr(const char *typestr, cj_cai *out);
int cj_cai_set_layout(PyObject *shape, PyObject *strides, cj_cai *out);
int cj_cai_check_data(const cj_cai *out);
/* cai_fast.c: a CuPy array or a PyTorch CUDA tensor read from its own attributes, without
 * building its __cuda_array_interface__ dict: 1 when read into `out`, 0 when `obj` is neither
 * (or not plainly: the dict then says why), -1 with an exception. */
int cj_cai_fast(PyObject *obj, cj_cai *out);

/* ---- staging.c ---- */
/* Copies n bytes between pageable host memory and the device through pinned staging buffers
 * when that is faster (big copies, worker threads available): 1 done (complete on return), 0
 * not applicable (nothing done, no exception: use the driver's own copy), -1 with an
 * exception set. Call with the GIL held; it is released while copying. */
int cj_staged_htod(CUdeviceptr dst, const void *src, size_t n, CUstream stream);
int cj_staged_dtoh(void *dst, CUdeviceptr src, size_t n, CUstream stream);

/* ---- devicearray.c ---- */
typedef struct cj_DeviceNDArrayObject {
    PyObject_HEAD
    CUdeviceptr data; /* first element */
    int ndim;
    Py_ssize_t shape[CJ_MAXDIM];
    Py_ssize_t strides[CJ_MAXDIM]; /* bytes */
    Py_ssize_t size;
    PyArray_Descr *dtype; /* owned */
    PyObject *base;       /* owned: keeps the memory alive (Memory, MemoryPointer, foreign) */
    PyObject *stream;     /* owned: the array's Stream, or NULL for the default stream */
    int device;
    unsigned long generation;
    int readonly;
    PyObject *weakreflist;
} cj_DeviceNDArrayObject;
extern PyTypeObject *cj_DeviceNDArray_Type;
#define cj_DeviceNDArray_Check(o) PyObject_TypeCheck((o), cj_DeviceNDArray_Type)

/* A new array over `data` with `base` (borrowed; a reference is taken) keeping it alive;
 * strides NULL means C-contiguous. Steals nothing; `dtype` is borrowed. */
cj_DeviceNDArrayObject *cj_devicearray_new(CUdeviceptr data, int ndim, const Py_ssize_t *shape,
                                           const Py_ssize_t *strides, PyArray_Descr *dtype,
                                           PyObject *base, PyObject *stream, int device);
/* Allocates a fresh array through the memory manager. strides NULL: C order unless fortran. */
cj_DeviceNDArrayObject *cj_devicearray_empty(int ndim, const Py_ssize_t *shape,
                                             const Py_ssize_t *strides, int fortran,
                                             PyArray_Descr *dtype, PyObject *stream);
/* A zero-copy array over a parsed interface; `owner` (borrowed) is kept alive. */
cj_DeviceNDArrayObject *cj_devicearray_from_cai(const cj_cai *cai, PyObject *owner, int sync);
int cj_devicearray_is_c_contiguous(const cj_DeviceNDArrayObject *a);
int cj_devicearray_is_f_contiguous(const cj_DeviceNDArrayObject *a);
/* Byte range [lo, hi) that the array's elements touch, relative to `data`. */
void cj_devicearray_extent(const cj_DeviceNDArrayObject *a, Py_ssize_t *lo, Py_ssize_t *hi);
/* Checks the array's context is still open and makes it current; 0 or -1. */
int cj_devicearray_ready(const cj_DeviceNDArrayObject *a);
/* Checks shape and stride tuples, computes C/F strides when strides is NULL; 0 or -1. */
int cj_layout_check(int ndim, const Py_ssize_t *shape, Py_ssize_t *strides, Py_ssize_t itemsize,
                    int fortran, Py_ssize_t *size);
/* TypeError unless `dtype` can live on the device (no objects, not size 0); 0 or -1. */
int cj_devicearray_check_dtype(PyArray_Descr *dtype);
/* A shape argument (an int or a sequence of ints) -> *ndim, shape[]; 0 or -1. */
int cj_parse_shape(PyObject *obj, int *ndim, Py_ssize_t *shape);
/* An order argument ('C'/'c', 'F'/'f' or NULL for C) -> *fortran; 0 or -1 with ValueError. */
int cj_parse_order(const char *order, int *fortran);

/* ---- devicearray_view.c: views (the DeviceNDArray methods that make them) ---- */
/* The view a[key] (basic indexing; 0-d when every axis got an int); new reference or NULL. */
PyObject *cj_devicearray_subview(cj_DeviceNDArrayObject *a, PyObject *key);
PyObject *cj_devicearray_get_T(PyObject *self, void *closure);
PyObject *cj_devicearray_transpose_meth(PyObject *self, PyObject *args);
PyObject *cj_devicearray_reshape_meth(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *cj_devicearray_ravel_meth(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *cj_devicearray_view_meth(PyObject *self, PyObject *arg);
PyObject *cj_devicearray_bind_meth(PyObject *self, PyObject *args, PyObject *kwargs);
/* ---- devicearray_attrs.c: .flags, squeeze ---- */
PyObject *cj_devicearray_get_flags(PyObject *self, void *closure);
PyObject *cj_devicearray_squeeze_meth(PyObject *self, PyObject *args, PyObject *kwargs);

/* ---- devicearray_copy.c ---- */
/* Copies the device array into `host` (same shape and dtype), or into a new array when `host`
 * is NULL; returns a new reference to the host array. */
PyObject *cj_copy_to_host(cj_DeviceNDArrayObject *a, PyObject *host, PyObject *stream);
/* Copies `src` (host array-like, DeviceNDArray or CAI object) into the device array. */
int cj_copy_to_device(cj_DeviceNDArrayObject *a, PyObject *src, PyObject *stream);
PyObject *cj_devicearray_copy_to_host_meth(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *cj_devicearray_copy_to_device_meth(PyObject *self, PyObject *args, PyObject *kwargs);
int cj_devicearray_ass_subscript(PyObject *self, PyObject *key, PyObject *value);
/* a[key] (a view, or one element copied to the host) and __array__ (a host copy). */
PyObject *cj_devicearray_subscript(PyObject *self, PyObject *key);
PyObject *cj_devicearray_array_meth(PyObject *self, PyObject *args, PyObject *kwargs);

/* ---- dlpack.c ---- */
PyObject *cj_devicearray_dlpack(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *cj_devicearray_dlpack_device(PyObject *self, PyObject *unused);

/* ---- ipc.c ---- */
PyObject *cj_devicearray_ipc_handle(PyObject *self, PyObject *unused);

int cj_memory_init(PyObject *module);
int cj_stream_init(PyObject *module);
int cj_event_init(PyObject *module);
int cj_cai_init(PyObject *module);
int cj_devicearray_init(PyObject *module);
int cj_devicearray_copy_init(PyObject *module);
int cj_dlpack_init(PyObject *module);
int cj_ipc_init(PyObject *module);

#endif
