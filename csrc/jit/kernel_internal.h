/* kernel_internal.h: what the CUDA dispatcher's three files share.
 *   kernel.c         _core.KernelLauncher: the dispatcher's one overload table (compiled
 *                    signatures) and its loaded versions per device; compiles on a miss, in C
 *   launch.c         the launch path: argument typing, packing, copies, cuLaunchKernel, the
 *                    debug exception record; the C API of kernel.h
 *   launch_config.c  kernel[griddim, blockdim, stream, sharedmem]: the validated configuration
 *   kernel_link.c    cuda.jit(link=[...]): the PTX linked with .ptx/.cu files into a cubin
 *   forall.c         kernel.forall(ntasks, tpb, stream, sharedmem): a 1-D grid over ntasks, its
 *                    block size from the occupancy API when tpb is 0
 * Python (cuda/compiler.py) keeps no table of its own: it asks the launcher. */
#ifndef CJ_KERNEL_INTERNAL_H
#define CJ_KERNEL_INTERNAL_H

#include "jit/jit.h"
#include "jit/kernel.h"

/* One compiled signature: what launches load and Python inspects. */
typedef struct cj_cuda_overload {
    int nargs;
    const cj_type *argtypes[CJ_MAX_ARGS]; /* the compiled signature's */
    cj_cuda_result result;
    PyObject *dict;                        /* Python's view of `result`, made on request */
} cj_cuda_overload;

/* An overload loaded on one device for one tuple of launch argument types. */
struct cj_kernel_version {
    int nargs;
    const cj_type *key[CJ_MAX_ARGS]; /* the launch's argument types */
    const cj_cuda_overload *ov;      /* borrowed from the launcher's table */
    int device;
    unsigned long generation;
    CUmodule module;
    CUfunction fn;
    CUdeviceptr exc_info;            /* debug versions: the exception record, else 0 */
    int max_threads;
    int static_shared;               /* bytes of static shared memory */
    int best_block;                  /* forall: the occupancy API's block size, 0 until asked */
    long best_block_shmem;           /* ... for this much dynamic shared memory */
    int cooperative;                 /* syncs its grid: launched cooperatively */
};
typedef struct cj_kernel_version version;

typedef struct cj_KernelLauncher {
    PyObject_HEAD
    PyObject *name;          /* str: the function's qualname */
    PyObject *pyfunc;
    PyObject *cache;         /* None, or load(argtypes, cc) / store(argtypes, cc, result) */
    PyObject *link;          /* tuple of (kind, name, bytes): files linked into each version */
    cj_cuda_options opt;     /* cc: each compilation's own */
    int device_fn;           /* a device function: compiled and inspected, never launched */
    int locked;              /* signatures fixed: arguments convert to the best one */
    cj_cuda_overload **ovs;  /* the table, in compile order */
    int nov, capov;
    version **vs;            /* both cj_table_reserve's: old arrays stay valid (threads.c) */
    int n, cap;
    cj_pending_list pending; /* compilations and loads under way, by argument types */
} cj_KernelLauncher;

extern PyTypeObject *cj_KernelLauncherType;

/* ---- kernel.c ---- */
/* The loaded version for launch types on `device`: found, or the best overload (compiled on a
 * miss) loaded now. Borrowed; NULL + exception. */
version *cj_launcher_version(cj_KernelLauncher *k, const cj_type *const *types, int nargs,
                             int device);

/* A launch's grid: given (kernel[griddim, blockdim]), or made from a task count (forall) once
 * the version, and so its occupancy, is known. */
typedef struct cj_launch_dims {
    unsigned int grid[3], block[3];
    long long ntasks; /* -1: grid and block are given; >= 0: forall's task count */
    int tpb;          /* forall: threads per block, 0 for the occupancy API's choice */
} cj_launch_dims;

/* ---- kernel_link.c ---- */
/* The cubin (new bytes) of version `r`'s PTX linked with `files` (a tuple of (kind, name,
 * bytes), kind 'ptx' or 'cu') by the driver's linker; NULL + exception (LinkerError). */
PyObject *cj_kernel_link(const cj_cuda_result *r, PyObject *files);

/* ---- launch.c ---- */
/* Types, copies, packs and launches `args` (borrowed) in a validated configuration. */
PyObject *cj_launch(cj_KernelLauncher *k, cj_launch_dims *dims, PyObject *stream, long shmem,
                    PyObject *const *args, Py_ssize_t nargs);
/* KernelLauncher.launch(griddim, blockdim, stream, sharedmem, args). */
PyObject *cj_launcher_launch(PyObject *self, PyObject *const *fargs, Py_ssize_t nfargs);

/* ---- launch_cooperative.c: kernels that sync their grid (cuda.cg) ---- */
/* The most blocks of `threads` threads (and `shmem` bytes of dynamic shared memory) that
 * version `v` can have resident at once on its device; -1 with an exception. */
long long cj_cooperative_max_blocks(const version *v, unsigned long long threads, size_t shmem);
/* cuLaunchCooperativeKernel, after checking that the grid fits at once. 0, or -1. */
int cj_launch_cooperative(cj_KernelLauncher *k, version *v, const unsigned int *grid,
                          const unsigned int *block, unsigned int shmem, CUstream stream,
                          void **params);

/* ---- launch_config.c ---- */
/* KernelLauncher.configure((griddim, blockdim[, stream[, sharedmem]])) -> KernelLaunch. */
PyObject *cj_launcher_configure(PyObject *self, PyObject *config);
/* A blockdim (an int or 1 to 3 ints within the block limits) as 3 extents; -1 + ValueError. */
int cj_parse_blockdim(PyObject *blockdim, unsigned int *out);
int cj_launch_config_init(void);

/* ---- forall.c ---- */
/* KernelLauncher.forall(ntasks, tpb=0, stream=0, sharedmem=0) -> ForAll (validated). */
PyObject *cj_launcher_forall(PyObject *self, PyObject *args, PyObject *kwargs);
/* Fills dims->grid and dims->block for forall's task count on version `v`; 0 or -1. */
int cj_forall_dims(cj_KernelLauncher *k, version *v, cj_launch_dims *dims, long shmem);
int cj_forall_init(void);

#endif
