/* launch_cooperative.c: kernels that sync their grid (cuda.cg.this_grid().sync(), whose
 * barrier lower_cuda_sync.c emits) need every block resident at once, so they are launched
 * with cuLaunchCooperativeKernel, and a grid larger than the device holds at once (the
 * occupancy API's blocks per SM x the SMs, numba-cuda's max_cooperative_grid_blocks) is a
 * ValueError before the driver is asked, instead of the driver's
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE. */
#include "jit/kernel_internal.h"

#include "cuda/cuda.h"

long long cj_cooperative_max_blocks(const version *v, unsigned long long threads, size_t shmem) {
    int per_sm, sms;
    if (threads == 0 || threads > (unsigned long long)v->max_threads) {
        PyErr_Format(PyExc_ValueError, "a block of %llu threads is more than the kernel can run "
                                       "(%d)", threads, v->max_threads);
        return -1;
    }
    if (CJ_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor, &per_sm, v->fn, (int)threads,
              shmem) < 0 ||
        CJ_CU(cuDeviceGetAttribute, &sms, CJ_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
              v->device) < 0) {
        return -1;
    }
    return (long long)per_sm * sms;
}

int cj_launch_cooperative(cj_KernelLauncher *k, version *v, const unsigned int *grid,
                          const unsigned int *block, unsigned int shmem, CUstream stream,
                          void **params) {
    unsigned long long blocks = (unsigned long long)grid[0] * grid[1] * grid[2];
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    long long most = cj_cooperative_max_blocks(v, threads, shmem);
    if (most < 0) {
        return -1;
    }
    if (blocks > (unsigned long long)most) {
        PyErr_Format(PyExc_ValueError, "kernel %U syncs its grid (cuda.cg), so all its blocks "
                                       "must run at once: a grid of %llu blocks of %llu threads "
                                       "is too large for device %d, which holds at most %lld "
                                       "(max_cooperative_grid_blocks)", k->name, blocks, threads,
                     v->device, most);
        return -1;
    }
    return CJ_CU(cuLaunchCooperativeKernel, v->fn, grid[0], grid[1], grid[2], block[0],
                 block[1], block[2], shmem, stream, params);
}
