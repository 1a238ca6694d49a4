/* staging.c: large copies between pageable host memory and the device, through pinned staging
 * buffers and a memcpy split over the threads of the prange pool (abi/workqueue.c).
 *
 * The driver copies pageable memory through its own pinned buffers on the calling thread, at
 * one core's memcpy speed (measured on the H200 host: 9.6 GB/s host-to-device for 256 MB).
 * Here a copy of at least STAGING_MIN bytes goes in CHUNK-byte pieces through two pinned
 * buffers: while the DMA engine moves one piece, the threads memcpy the next (22 GB/s with 8
 * threads in the same measurement). Pinned or registered host memory is left to the driver
 * (its DMA reads it directly), as are small copies.
 *
 * One copy uses the buffers at a time: a thread that finds them busy takes the driver's path.
 * The buffers and events belong to a device's context and are remade after cuda.close().
 * CUJIT_STAGING_THREADS sets how many threads copy (0 turns staging off; the default is half
 * the CPUs, at most 8, and staging is off below 2; the pool's size caps it, and a pool busy
 * with a prange loop leaves the memcpy to the calling thread). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/cuda.h"

#define CHUNK ((size_t)8 << 20)
#define STAGING_MIN ((size_t)16 << 20)
#define MAX_THREADS 8
#define SLICE_MIN ((size_t)256 << 10)
#define CU_POINTER_ATTRIBUTE_MEMORY_TYPE 2
#define CU_MEMHOSTALLOC_PORTABLE 1
#define CU_EVENT_DISABLE_TIMING 2

/* ---- a parallel memcpy over the thread pool (abi/workqueue.c) ---- */

typedef struct memcpy_job {
    char *dst;
    const char *src;
    size_t n;
} memcpy_job;

/* Slices [start, stop) of SLICE_MIN bytes (the last one shorter). */
static int32_t copy_slices(void *ctx, int64_t start, int64_t stop, void *unused) {
    const memcpy_job *job = ctx;
    size_t from = (size_t)start * SLICE_MIN, to = (size_t)stop * SLICE_MIN;
    to = to < job->n ? to : job->n;
    memcpy(job->dst + from, job->src + from, to - from);
    return 0;
}

static int nthreads = -1; /* copying threads, the caller included; 0: staging off; -1: not read */

static void parallel_memcpy(void *dst, const void *src, size_t n) {
    memcpy_job job = {dst, src, n};
    int32_t status;
    (void)cj_parallel_run(copy_slices, &job, (int64_t)((n + SLICE_MIN - 1) / SLICE_MIN), NULL,
                          0, nthreads, &status);
}

/* Held by the copy that uses the staging buffers. */
static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;

/* A copy in progress left behind by fork() does not exist in the child. */
static void after_fork_in_child(void) {
    pthread_mutex_init(&busy, NULL);
}

static int threads_wanted(void) {
    const char *env = getenv("CUJIT_STAGING_THREADS");
    if (env != NULL && *env) {
        int n = atoi(env);
        return n < 0 ? 0 : n > MAX_THREADS ? MAX_THREADS : n;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int n = cpus > 0 ? (int)(cpus / 2) : 1;
    n = n > MAX_THREADS ? MAX_THREADS : n;
    return n >= 2 ? n : 0;
}

/* The number of copying threads, read once (0: staging off). */
static int staging_threads(void) {
    if (nthreads < 0) {
        nthreads = threads_wanted();
        (void)pthread_atfork(NULL, NULL, after_fork_in_child);
    }
    return nthreads;
}

/* ---- per-device buffers, and the copies ---- */

typedef struct staging {
    unsigned long generation; /* of the context the buffers belong to; 0: none */
    void *buf[2];
    CUevent ev[2];
} staging;

static staging devices[CJ_MAX_DEVICES];

static int make_buffers(staging *s, int device) {
    memset(s, 0, sizeof(*s)); /* what a closed context held is gone with it */
    for (int i = 0; i < 2; i++) {
        if (CJ_CU(cuMemHostAlloc, &s->buf[i], CHUNK, CU_MEMHOSTALLOC_PORTABLE) < 0 ||
            CJ_CU(cuEventCreate, &s->ev[i], CU_EVENT_DISABLE_TIMING) < 0) {
            return -1;
        }
    }
    s->generation = cj_ctx_generation[device];
    return 0;
}

/* Pinned or registered host memory is known to the driver; pageable memory is not. The plural
 * query answers 0 for memory the driver does not know instead of failing (no API error for
 * compute-sanitizer to report on every pageable copy). */
static int pageable(const void *host) {
    unsigned int type = 0;
    int attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    void *data[1] = {&type};
    CUresult res = CJ_CU_RAW(cuPointerGetAttributes, 1, &attribute, data,
                             (CUdeviceptr)(uintptr_t)host);
    return res == CUDA_SUCCESS && type == 0;
}

/* The staging of the current device when the copy should be staged (the buffers then held:
 * release `busy` after), else NULL with no exception; -1 in *failed with an exception set. */
static staging *staging_for(const void *host, size_t n, int *failed) {
    *failed = 0;
    if (n < STAGING_MIN || staging_threads() == 0 || !pageable(host)) {
        return NULL;
    }
    int device = cj_ctx_ensure();
    if (device < 0) {
        *failed = 1;
        return NULL;
    }
    if (pthread_mutex_trylock(&busy) != 0) {
        return NULL; /* another thread's copy holds the buffers */
    }
    staging *s = &devices[device];
    if (s->generation != cj_ctx_generation[device] && make_buffers(s, device) < 0) {
        pthread_mutex_unlock(&busy);
        *failed = 1;
        return NULL;
    }
    return s;
}

static size_t chunk_len(size_t n, size_t k) {
    size_t off = k * CHUNK;
    return n - off < CHUNK ? n - off : CHUNK;
}

static CUresult htod_chunks(staging *s, CUdeviceptr dst, const char *src, size_t n,
                            CUstream stream) {
    int recorded[2] = {0, 0};
    CUresult res = CUDA_SUCCESS;
    for (size_t k = 0; res == CUDA_SUCCESS && k * CHUNK < n; k++) {
        size_t off = k * CHUNK, len = chunk_len(n, k);
        int b = (int)(k % 2);
        if (recorded[b] && (res = CJ_CU_RAW(cuEventSynchronize, s->ev[b])) != CUDA_SUCCESS) {
            break; /* the buffer's last DMA must be done before it is refilled */
        }
        parallel_memcpy(s->buf[b], src + off, len);
        res = CJ_CU_RAW(cuMemcpyHtoDAsync, dst + off, s->buf[b], len, stream);
        if (res == CUDA_SUCCESS) {
            res = CJ_CU_RAW(cuEventRecord, s->ev[b], stream);
            recorded[b] = 1;
        }
    }
    for (int b = 0; b < 2; b++) { /* the buffers are free again when we return */
        CUresult r = recorded[b] ? CJ_CU_RAW(cuEventSynchronize, s->ev[b]) : CUDA_SUCCESS;
        res = res == CUDA_SUCCESS ? r : res;
    }
    return res;
}

static CUresult dtoh_chunks(staging *s, char *dst, CUdeviceptr src, size_t n, CUstream stream) {
    size_t nchunks = (n + CHUNK - 1) / CHUNK;
    int in_flight[2] = {0, 0};
    CUresult res = CUDA_SUCCESS;
    for (size_t k = 0; k <= nchunks && res == CUDA_SUCCESS; k++) {
        if (k < nchunks) { /* start chunk k's DMA... */
            int b = (int)(k % 2);
            res = CJ_CU_RAW(cuMemcpyDtoHAsync, s->buf[b], src + k * CHUNK, chunk_len(n, k),
                            stream);
            if (res == CUDA_SUCCESS) {
                res = CJ_CU_RAW(cuEventRecord, s->ev[b], stream);
                in_flight[b] = 1;
            }
        }
        if (res == CUDA_SUCCESS && k > 0) { /* ...while chunk k-1 is copied out */
            int b = (int)((k - 1) % 2);
            res = CJ_CU_RAW(cuEventSynchronize, s->ev[b]);
            in_flight[b] = 0;
            if (res == CUDA_SUCCESS) {
                parallel_memcpy(dst + (k - 1) * CHUNK, s->buf[b], chunk_len(n, k - 1));
            }
        }
    }
    for (int b = 0; b < 2; b++) { /* after a failure: no DMA left into the buffers */
        if (in_flight[b]) {
            (void)CJ_CU_RAW(cuEventSynchronize, s->ev[b]);
        }
    }
    return res;
}

/* One staged copy in either direction; cj_staged_htod/dtoh's contract. */
static int staged_copy(void *host, CUdeviceptr dev, size_t n, CUstream stream, int to_device) {
    int failed;
    staging *s = staging_for(host, n, &failed);
    if (s == NULL) {
        return failed ? -1 : 0;
    }
    CUresult res;
    Py_BEGIN_ALLOW_THREADS
    res = to_device ? htod_chunks(s, dev, host, n, stream) : dtoh_chunks(s, host, dev, n, stream);
    Py_END_ALLOW_THREADS
    pthread_mutex_unlock(&busy);
    return cj_cu_result(res, to_device ? "cuMemcpyHtoDAsync (staged)"
                                       : "cuMemcpyDtoHAsync (staged)") < 0 ? -1 : 1;
}

int cj_staged_htod(CUdeviceptr dst, const void *src, size_t n, CUstream stream) {
    return staged_copy((void *)src, dst, n, stream, 1); /* only read through */
}

int cj_staged_dtoh(void *dst, CUdeviceptr src, size_t n, CUstream stream) {
    return staged_copy(dst, src, n, stream, 0);
}
