/* kernel.h: the C API of the kernel launcher (kernel.c) for launch paths that prepare their
 * own arguments, such as the CUDA ufuncs (ufunc_cuda.c): they describe each argument's device
 * layout or scalar value, find the loaded version for those types, and launch it. */
#ifndef CJ_KERNEL_H
#define CJ_KERNEL_H

#include "cuda/cuda.h"
#include "types/types.h"

/* An argument ready to pack (lower_kernel.h's ABI): an array's device layout, or a value. */
typedef struct cj_launch_arg {
    const cj_type *type;           /* the argument's type: part of the version key */
    CUdeviceptr data;              /* arrays: the first element */
    int ndim;
    Py_ssize_t shape[CJ_MAXDIM];
    Py_ssize_t strides[CJ_MAXDIM]; /* bytes */
    PyObject *value;               /* scalars and tuples (borrowed); NULL for arrays */
} cj_launch_arg;

typedef struct cj_kernel_version cj_kernel_version;

/* The version of `launcher` (a KernelLauncher) for these argument types on `device`, compiled
 * and loaded on first use (borrowed: the launcher owns it); NULL + exception. */
cj_kernel_version *cj_kernel_version_for(PyObject *launcher, const cj_type *const *types,
                                         int nargs, int device);
/* The most threads per block the version can run (cuFuncGetAttribute). */
int cj_kernel_max_threads(const cj_kernel_version *v);
/* Packs `args` as the version's compiled signature declares them and launches it on `stream`;
 * 0, or -1 with an exception naming the kernel. */
int cj_kernel_launch_args(PyObject *launcher, cj_kernel_version *v, const unsigned int *grid,
                          const unsigned int *block, CUstream stream, const cj_launch_arg *args,
                          int nargs);

#endif
