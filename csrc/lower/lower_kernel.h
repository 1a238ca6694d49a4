/* lower_kernel.h: the CUDA kernel entry around a compiled function, and the parameter names
 * NVVM needs (lower_kernel.c).
 *
 * Kernel ABI: `void @<name>(params...)`, marked in !nvvm.annotations, whose parameters are the
 * arguments flattened in order: an array is its data pointer (T*, generic address space), then
 * its shape (ndim x i64), then its strides in bytes (ndim x i64); a bool is an i8; a complex
 * is its real and imaginary parts; a record is the device address of its bytes (i8*, a copy
 * the launcher makes); a tuple is its items, flattened; None and other types
 * without data take no parameter; other scalars are passed as themselves. The entry rebuilds
 * the values and calls the inner function `i32 @f(ret*, args...)`. With `debug`, a non-zero
 * status (an exception id) is recorded in the global `cj_exc_info` ([7 x i32]: id, tid.xyz,
 * ctaid.xyz; the first thread to fail wins) for the host to read after the launch. */
#ifndef CJ_LOWER_KERNEL_H
#define CJ_LOWER_KERNEL_H

#include "lower/lower.h"

#define CJ_CUDA_EXC_GLOBAL "cj_exc_info"
/* The word of the grid barrier (lower_cuda_sync.c): a kernel whose PTX names it uses grid sync
 * and is launched cooperatively (launch.c). */
#define CJ_GRID_BARRIER_SYMBOL "cj_grid_barrier"

/* Adds the kernel entry `name` calling `inner`; NULL with an exception on failure. */
LLVMValueRef cj_cuda_add_kernel(LLVMModuleRef mod, LLVMValueRef inner,
                                const cj_type *const *argtypes, int nargs, const cj_type *ret,
                                const char *name, int debug, int max_registers);
/* Adds !{fn, !"key", i32 value} to !nvvm.annotations (kernel, maxnreg, maxntidx, ...). */
void cj_cuda_annotate(LLVMModuleRef mod, LLVMValueRef fn, const char *key, unsigned value);
/* Names every unnamed parameter of a defined function `arg<i>`: NVVM's LLVM 7 text reader
 * refuses numbered ones. */
void cj_name_parameters(LLVMModuleRef mod);
/* The number of kernel parameters for an argument of type `t` (its flattened leaves). */
int cj_cuda_param_count(const cj_type *t);

#endif
