/* driver: the CUDA driver API opened with dlopen at first use, never at import.
 *
 * driver.c   the function table `cj_cu`, lazy loading, CUresult -> CudaAPIError
 * context.c  primary contexts per device, the current device of a thread, close()
 *
 * Later layers call the driver as `CJ_CU(cuMemAlloc, &ptr, size)`: 0 on success, -1 with
 * CudaAPIError (code, name, message) set on failure, CudaSupportError when the entry point is
 * missing. Every call needs `cj_driver_load()` (or `cj_ctx_ensure()`) to have succeeded first. */
#ifndef CJ_DRIVER_H
#define CJ_DRIVER_H

#include <Python.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the driver's types, declared here so no CUDA header is needed to build ---- */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlinkState_st *CUlinkState;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef struct { char reserved[64]; } CUipcMemHandle;
typedef struct { char bytes[16]; } CUuuid;
typedef void (*CUstreamCallback)(CUstream stream, CUresult status, void *user_data);
typedef size_t (*CUoccupancyB2DSize)(int block_size);

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_NOT_READY 600
/* not a driver code: the entry point is absent from this libcuda */
#define CJ_CUDA_ERROR_MISSING_ENTRY (-1)

#define CJ_STREAM_LEGACY ((CUstream)0x1)
#define CJ_STREAM_PER_THREAD ((CUstream)0x2)
#define CJ_MAX_DEVICES 64
#define CJ_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CJ_DEVICE_ATTRIBUTE_CC_MAJOR 75
#define CJ_DEVICE_ATTRIBUTE_CC_MINOR 76

/* X-macro: (name, return-less parameter list). Versioned `_v2` symbols are tried first. */
#define CJ_DRIVER_FUNCTIONS(X)                                                                \
    X(cuInit, (unsigned int flags))                                                           \
    X(cuDriverGetVersion, (int *version))                                                     \
    X(cuGetErrorName, (CUresult err, const char **name))                                      \
    X(cuGetErrorString, (CUresult err, const char **msg))                                     \
    X(cuDeviceGetCount, (int *count))                                                         \
    X(cuDeviceGet, (CUdevice * dev, int ordinal))                                             \
    X(cuDeviceGetName, (char *name, int len, CUdevice dev))                                   \
    X(cuDeviceGetAttribute, (int *value, int attrib, CUdevice dev))                           \
    X(cuDeviceTotalMem, (size_t * bytes, CUdevice dev))                                       \
    X(cuDeviceGetUuid, (CUuuid * uuid, CUdevice dev))                                         \
    X(cuDeviceGetPCIBusId, (char *bus_id, int len, CUdevice dev))                             \
    X(cuDevicePrimaryCtxRetain, (CUcontext * ctx, CUdevice dev))                              \
    X(cuDevicePrimaryCtxRelease, (CUdevice dev))                                              \
    X(cuDevicePrimaryCtxReset, (CUdevice dev))                                                \
    X(cuDeviceGetDefaultMemPool, (CUmemoryPool * pool, CUdevice dev))                         \
    X(cuCtxGetCurrent, (CUcontext * ctx))                                                     \
    X(cuCtxSetCurrent, (CUcontext ctx))                                                       \
    X(cuCtxGetDevice, (CUdevice * dev))                                                       \
    X(cuCtxSynchronize, (void))                                                               \
    X(cuMemGetInfo, (size_t * free_bytes, size_t *total_bytes))                               \
    X(cuMemAlloc, (CUdeviceptr * ptr, size_t size))                                           \
    X(cuMemFree, (CUdeviceptr ptr))                                                           \
    X(cuMemAllocAsync, (CUdeviceptr * ptr, size_t size, CUstream stream))                     \
    X(cuMemFreeAsync, (CUdeviceptr ptr, CUstream stream))                                     \
    X(cuMemPoolSetAttribute, (CUmemoryPool pool, int attr, void *value))                      \
    X(cuMemPoolTrimTo, (CUmemoryPool pool, size_t min_bytes_to_keep))                         \
    X(cuMemGetAddressRange, (CUdeviceptr * base, size_t *size, CUdeviceptr ptr))              \
    X(cuMemAllocManaged, (CUdeviceptr * ptr, size_t size, unsigned int flags))                \
    X(cuProfilerStart, (void))                                                                \
    X(cuProfilerStop, (void))                                                                 \
    X(cuMemHostAlloc, (void **ptr, size_t size, unsigned int flags))                          \
    X(cuMemFreeHost, (void *ptr))                                                             \
    X(cuMemHostRegister, (void *ptr, size_t size, unsigned int flags))                        \
    X(cuMemHostUnregister, (void *ptr))                                                       \
    X(cuMemHostGetDevicePointer, (CUdeviceptr * dptr, void *ptr, unsigned int flags))         \
    X(cuMemcpyHtoD, (CUdeviceptr dst, const void *src, size_t size))                          \
    X(cuMemcpyDtoH, (void *dst, CUdeviceptr src, size_t size))                                \
    X(cuMemcpyDtoD, (CUdeviceptr dst, CUdeviceptr src, size_t size))                          \
    X(cuMemcpyHtoDAsync, (CUdeviceptr dst, const void *src, size_t size, CUstream s))         \
    X(cuMemcpyDtoHAsync, (void *dst, CUdeviceptr src, size_t size, CUstream s))               \
    X(cuMemcpyDtoDAsync, (CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream s))         \
    X(cuMemsetD8, (CUdeviceptr dst, unsigned char value, size_t n))                           \
    X(cuMemsetD16, (CUdeviceptr dst, unsigned short value, size_t n))                         \
    X(cuMemsetD32, (CUdeviceptr dst, unsigned int value, size_t n))                           \
    X(cuMemsetD8Async, (CUdeviceptr dst, unsigned char value, size_t n, CUstream s))          \
    X(cuMemsetD16Async, (CUdeviceptr dst, unsigned short value, size_t n, CUstream s))        \
    X(cuMemsetD32Async, (CUdeviceptr dst, unsigned int value, size_t n, CUstream s))          \
    X(cuPointerGetAttributes, (unsigned int n, int *attributes, void **data, CUdeviceptr ptr)) \
    X(cuIpcGetMemHandle, (CUipcMemHandle * handle, CUdeviceptr ptr))                          \
    X(cuIpcOpenMemHandle, (CUdeviceptr * ptr, CUipcMemHandle handle, unsigned int flags))     \
    X(cuIpcCloseMemHandle, (CUdeviceptr ptr))                                                 \
    X(cuStreamCreate, (CUstream * stream, unsigned int flags))                                \
    X(cuStreamDestroy, (CUstream stream))                                                     \
    X(cuStreamSynchronize, (CUstream stream))                                                 \
    X(cuStreamQuery, (CUstream stream))                                                       \
    X(cuStreamWaitEvent, (CUstream stream, CUevent event, unsigned int flags))                \
    X(cuStreamAddCallback, (CUstream s, CUstreamCallback cb, void *data, unsigned int flags)) \
    X(cuEventCreate, (CUevent * event, unsigned int flags))                                   \
    X(cuEventDestroy, (CUevent event))                                                        \
    X(cuEventRecord, (CUevent event, CUstream stream))                                        \
    X(cuEventQuery, (CUevent event))                                                          \
    X(cuEventSynchronize, (CUevent event))                                                    \
    X(cuEventElapsedTime, (float *ms, CUevent start, CUevent end))                            \
    X(cuModuleLoadData, (CUmodule * module, const void *image))                               \
    X(cuModuleLoadDataEx, (CUmodule * module, const void *image, unsigned int n_options,     \
                           int *options, void **option_values))                               \
    X(cuModuleGetFunction, (CUfunction * fn, CUmodule module, const char *name))              \
    X(cuModuleGetGlobal, (CUdeviceptr * ptr, size_t *size, CUmodule module, const char *name)) \
    X(cuModuleUnload, (CUmodule module))                                                      \
    X(cuFuncGetAttribute, (int *value, int attrib, CUfunction fn))                            \
    X(cuFuncSetAttribute, (CUfunction fn, int attrib, int value))                             \
    X(cuLaunchKernel, (CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz,     \
                       unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem, \
                       CUstream stream, void **params, void **extra))                         \
    X(cuLinkCreate, (unsigned int n_options, int *options, void **option_values,             \
                     CUlinkState *state))                                                     \
    X(cuLinkAddData, (CUlinkState state, int type, void *data, size_t size, const char *name, \
                      unsigned int n_options, int *options, void **option_values))           \
    X(cuLinkComplete, (CUlinkState state, void **cubin, size_t *size))                        \
    X(cuLinkDestroy, (CUlinkState state))                                                     \
    X(cuLaunchCooperativeKernel, (CUfunction fn, unsigned int gx, unsigned int gy,            \
                                  unsigned int gz, unsigned int bx, unsigned int by,          \
                                  unsigned int bz, unsigned int shmem, CUstream stream,       \
                                  void **params))                                             \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor,                                            \
      (int *blocks, CUfunction fn, int block_size, size_t dynamic_smem))                       \
    X(cuOccupancyMaxPotentialBlockSize,                                                       \
      (int *min_grid, int *block, CUfunction fn, CUoccupancyB2DSize smem_of_block,           \
       size_t dynamic_smem, int block_limit))

/* The function table: one pointer per entry point (NULL when this libcuda lacks it). */
typedef struct cj_driver_table {
#define CJ_DRIVER_FIELD(name, params) CUresult (*name) params;
    CJ_DRIVER_FUNCTIONS(CJ_DRIVER_FIELD)
#undef CJ_DRIVER_FIELD
} cj_driver_table;

extern cj_driver_table cj_cu;

/* ---- driver.c ---- */
/* Opens libcuda and calls cuInit once per process. 0 on success; -1 with CudaSupportError
 * saying why (no library, no device, driver too old) otherwise; the failure is remembered. */
int cj_driver_load(void);
/* Whether the driver loaded and found a device, without raising; `why` gets the reason. */
int cj_driver_available(const char **why);
/* Turns a CUresult into 0 or -1 with CudaAPIError(code, "[code] NAME: message (in fn)"). */
int cj_cu_result(CUresult res, const char *fn);
/* Raises CudaAPIError for `res` from `fn`; always returns -1. */
int cj_cu_raise(CUresult res, const char *fn);

#define CJ_CU_RAW(name, ...) (cj_cu.name ? cj_cu.name(__VA_ARGS__) : CJ_CUDA_ERROR_MISSING_ENTRY)
#define CJ_CU(name, ...) cj_cu_result(CJ_CU_RAW(name, __VA_ARGS__), #name)

/* ---- context.c ---- */
/* Makes sure this thread has a current context (the selected device's primary context, device 0
 * by default, or whatever CuPy/PyTorch made current) and returns its device ordinal, or -1 with
 * an exception set. Cheap when a context is already current. */
int cj_ctx_ensure(void);
/* The generation of `device`'s primary context: bumped by close(); arrays remember theirs. */
extern unsigned long cj_ctx_generation[CJ_MAX_DEVICES];
/* Makes `device`'s primary context current on this thread (retaining it); 0 or -1. */
int cj_ctx_activate(int device);
/* 0 if `generation` is still `device`'s live generation, else -1 with CudaSupportError. */
int cj_ctx_check_generation(int device, unsigned long generation);
/* `device`'s retained primary context, or NULL when cujit does not hold it (closed). */
CUcontext cj_ctx_primary(int device);
/* Total memory of `device` in bytes (cached), or 0 with an exception set. */
size_t cj_device_total_memory(int device);
/* The device's multiprocessor count (cached), or -1 with an exception set. */
int cj_device_sm_count(int device);
/* The device's compute capability; 0, or -1 with an exception set. */
int cj_device_compute_capability(int device, int *major, int *minor);

int cj_driver_init(PyObject *module);
int cj_context_init(PyObject *module);

#endif
