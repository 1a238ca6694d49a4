/* fake_libcuda.c: a host-memory stand-in for libcuda.so.1, for testing cujit's runtime on
 * machines without a GPU (CUJIT_CUDA_DRIVER=path/to/fake.so). Device memory is malloc'd, copies
 * are memcpy, streams and events complete at once. FAKE_CUDA_MEMORY caps the device memory
 * (bytes) so out-of-memory paths can be tested; fake_stats() reports alloc/free counts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static size_t limit = (size_t)1 << 34, used;
static long allocs, frees;
static int inited;
static void *current;
static char primary_ctx[4];

typedef struct { CUdeviceptr ptr; size_t size; } block;
static block blocks[1 << 16];
static int nblocks;

void fake_stats(long *a, long *f, size_t *u) { *a = allocs; *f = frees; *u = used; }

CUresult cuInit(unsigned int flags) {
    const char *lim = getenv("FAKE_CUDA_MEMORY");
    if (lim) limit = strtoull(lim, NULL, 10);
    inited = 1;
    return 0;
}
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuGetErrorName(CUresult e, const char **s) {
    *s = e == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : e == 1 ? "CUDA_ERROR_INVALID_VALUE"
         : e == 600 ? "CUDA_ERROR_NOT_READY" : "CUDA_ERROR_UNKNOWN";
    return 0;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
    *s = e == 2 ? "out of memory" : e == 1 ? "invalid argument" : "unknown error";
    return 0;
}
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int o) { if (o != 0) return 101; *d = 0; return 0; }
CUresult cuDeviceGetName(char *n, int len, int d) { strncpy(n, "Fake GPU", len); return 0; }
CUresult cuDeviceGetAttribute(int *v, int a, int d) {
    *v = a == 75 ? 9 : a == 76 ? 0 : a == 16 ? 132 : a == 1 ? 1024 : a == 10 ? 32 : 1;
    return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int d) { *b = limit; return 0; }
CUresult cuDeviceGetUuid_v2(char *u, int d) { memset(u, 0xab, 16); return 0; }
CUresult cuDeviceGetPCIBusId(char *b, int len, int d) { strncpy(b, "0000:00:01.0", len); return 0; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { *c = primary_ctx; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
CUresult cuCtxGetCurrent(void **c) { *c = current; return 0; }
CUresult cuCtxSetCurrent(void *c) { current = c; return 0; }
CUresult cuCtxGetDevice(int *d) { *d = 0; return current ? 0 : 201; }
CUresult cuCtxSynchronize(void) { return 0; }
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) { *f = limit - used; *t = limit; return 0; }

static CUresult alloc(CUdeviceptr *p, size_t size) {
    if (size == 0) return 1;
    if (used + size > limit || nblocks == (int)(sizeof(blocks) / sizeof(blocks[0]))) return 2;
    void *m = malloc(size);
    if (!m) return 2;
    *p = (CUdeviceptr)(uintptr_t)m;
    blocks[nblocks++] = (block){*p, size};
    used += size;
    allocs++;
    return 0;
}
static CUresult release(CUdeviceptr p) {
    for (int i = 0; i < nblocks; i++) {
        if (blocks[i].ptr == p) {
            used -= blocks[i].size;
            blocks[i] = blocks[--nblocks];
            free((void *)(uintptr_t)p);
            frees++;
            return 0;
        }
    }
    return 1;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) { return alloc(p, size); }
CUresult cuMemFree_v2(CUdeviceptr p) { return release(p); }
/* managed memory is host memory here as everything else */
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t size, unsigned int flags) {
    return flags == 1 || flags == 2 ? alloc(p, size) : 1;
}
CUresult cuProfilerStart(void) { return 0; }
CUresult cuProfilerStop(void) { return 0; }
CUresult cuMemAllocAsync(CUdeviceptr *p, size_t size, void *s) { return alloc(p, size); }
CUresult cuMemFreeAsync(CUdeviceptr p, void *s) { return release(p); }
CUresult cuDeviceGetDefaultMemPool(void **pool, int d) { *pool = primary_ctx; return 0; }
CUresult cuMemPoolSetAttribute(void *pool, int a, void *v) { return 0; }
CUresult cuMemPoolTrimTo(void *pool, size_t n) { return 0; }
CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p) {
    for (int i = 0; i < nblocks; i++) {
        if (p >= blocks[i].ptr && p < blocks[i].ptr + blocks[i].size) {
            *base = blocks[i].ptr;
            *size = blocks[i].size;
            return 0;
        }
    }
    return 1;
}
CUresult cuMemHostAlloc(void **p, size_t size, unsigned int flags) {
    *p = malloc(size);
    return *p ? 0 : 2;
}
CUresult cuMemFreeHost(void *p) { free(p); return 0; }
/* memory type of a pointer: the fake tracks no host allocations, so host memory reads as
 * unknown to the driver (pageable), as real pageable memory does */
CUresult cuPointerGetAttributes(unsigned int n, int *attributes, void **data, CUdeviceptr ptr) {
    for (unsigned int i = 0; i < n; i++) { /* every pointer is unknown host memory */
        *(unsigned int *)data[i] = 0;
    }
    return 0;
}
CUresult cuMemHostRegister_v2(void *p, size_t size, unsigned int flags) { return 0; }
CUresult cuMemHostUnregister(void *p) { return 0; }
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned int f) {
    *d = (CUdeviceptr)(uintptr_t)p;
    return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) {
    memcpy((void *)(uintptr_t)d, s, n); return 0;
}
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) {
    memcpy(d, (void *)(uintptr_t)s, n); return 0;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) {
    memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return 0;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, void *st) {
    return cuMemcpyHtoD_v2(d, s, n);
}
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, void *st) {
    return cuMemcpyDtoH_v2(d, s, n);
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void *st) {
    return cuMemcpyDtoD_v2(d, s, n);
}
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) {
    memset((void *)(uintptr_t)d, v, n); return 0;
}
CUresult cuMemsetD16_v2(CUdeviceptr d, unsigned short v, size_t n) {
    for (size_t i = 0; i < n; i++) ((unsigned short *)(uintptr_t)d)[i] = v;
    return 0;
}
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned int v, size_t n) {
    for (size_t i = 0; i < n; i++) ((unsigned int *)(uintptr_t)d)[i] = v;
    return 0;
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, void *s) { return cuMemsetD8_v2(d, v, n); }
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, void *s) { return cuMemsetD16_v2(d, v, n); }
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, void *s) { return cuMemsetD32_v2(d, v, n); }
CUresult cuIpcGetMemHandle(char *h, CUdeviceptr p) { memset(h, 0, 64); memcpy(h, &p, 8); return 0; }
static int nstreams;
CUresult cuStreamCreate(void **s, unsigned int f) { *s = (void *)(uintptr_t)(0x1000 + 16 * ++nstreams); return 0; }
CUresult cuStreamDestroy_v2(void *s) { return 0; }
CUresult cuStreamSynchronize(void *s) { return 0; }
CUresult cuStreamQuery(void *s) { return 0; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned int f) { return 0; }
typedef void (*cb_t)(void *, CUresult, void *);
CUresult cuStreamAddCallback(void *s, cb_t cb, void *data, unsigned int f) { cb(s, 0, data); return 0; }
CUresult cuEventCreate(void **e, unsigned int f) { *e = malloc(8); return 0; }
CUresult cuEventDestroy_v2(void *e) { free(e); return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventQuery(void *e) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) { *ms = 0.5f; return 0; }
