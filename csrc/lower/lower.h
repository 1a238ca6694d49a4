/* lower: typed IR -> LLVM IR through the LLVM 14 C API, for both targets.
 * Every function follows the calling convention of abi/abi.h.
 * Sections: lower.c (functions, blocks, variables, constants, control flow), lower_types.c
 * (cj_type -> LLVM type, casts), lower_num.c (operators), lower_call.c (calls, builtins,
 * math; lower_cmath.c the cmath formulas, lower_objmode.c objmode blocks), lower_array.c
 * (arrays), lower_array_new.c (np.empty/zeros/ones/full), lower_array_reduce.c (a.sum() ...),
 * lower_reduce_axis.c (reductions along an axis), lower_reduce_scan.c (cumsum, cumprod, median),
 * lower_loops.c (the loop nests over arrays), lower_array_expr.c (operators on arrays),
 * lower_array_methods.c (copy, astype, fill, transpose), lower_array_create.c (np.arange,
 * linspace, eye, identity, array), lower_array_shape.c (reshape, ravel, flatten, view, item,
 * conj, real, imag),
 * lower_refs.c (references to compiled code's allocations), lower_iter.c (iterators),
 * lower_prange.c (prange loops outlined for the thread pool), lower_pool.c (an array
 * expression's rows on the pool); around
 * compiled functions:
 * lower_wrapper.c (the CPU dispatcher's entry), lower_ufunc.c (NumPy ufunc loops), and
 * debuginfo.c (line tables); lower_kernel.c (CUDA kernel entries, lower_kernel.h);
 * ub_audit.c (the undefined-behaviour audit, CUJIT_UB_CHECK). */
#ifndef CJ_LOWER_H
#define CJ_LOWER_H

#include <llvm-c/Core.h>

#include "abi/abi.h"
#include "typing/infer.h"

/* numba's fastmath flag set ({'nnan', 'arcp', ...}) as bits of cj_lower_env.fastmath; the
 * value 1 alone is fastmath=True (every flag). */
enum {
    CJ_FASTMATH_CONTRACT = 2, CJ_FASTMATH_ARCP = 4, CJ_FASTMATH_NNAN = 8, CJ_FASTMATH_NINF = 16,
    CJ_FASTMATH_NSZ = 32, CJ_FASTMATH_AFN = 64, CJ_FASTMATH_REASSOC = 128
};

typedef struct cj_lower_env cj_lower_env;
struct cj_lower_env {
    int target;          /* CJ_TARGET_CPU / CJ_TARGET_CUDA */
    int error_model;     /* CJ_ERRORS_PYTHON: raise ZeroDivisionError; CJ_ERRORS_NUMPY: inf/nan */
    int fastmath;        /* 0, 1 (numba's fastmath=True: all flags) or CJ_FASTMATH_* bits */
    int boundscheck;
    int parallel;        /* parallel=True: prange loops run on the thread pool (CPU) */
    int cc;              /* CUDA: the compute capability, 10 * major + minor (0: unknown) */
    PyObject *diagnostics; /* list or NULL: a line (str) per prange loop run on the pool */
    PyObject *keep;      /* list owned by the compiled overload: objects the code points at */
    PyObject *exc_ids;   /* set of the exception ids the code can return (for caching) */
    /* The LLVM function of a jitted callee (a handle from typing), declared or linked into
     * `module`; NULL with an exception on failure. */
    LLVMValueRef (*callee_function)(cj_lower_env *env, LLVMModuleRef module,
                                    const void *handle);
    /* The typing env of the same compile (or NULL): a lowering's context.compile_internal
     * types its callee with it (lower/irbuilder_calls.c). */
    cj_typing_env *typing;
    /* Optional: called before each IR instruction is lowered into `fn` (source line numbers
     * for debug locations); NULL when not wanted. */
    void (*at_line)(cj_lower_env *env, LLVMBuilderRef b, LLVMValueRef fn, int line);
    /* Optional (the CPU's): a `with objmode()` block's call site, kept by `keep` (*site is
     * what the code passes to objmode_call, the runtime's), -1 with an exception; NULL where
     * the target cannot call into Python. */
    int (*objmode_site)(cj_lower_env *env, PyObject *block, const cj_type *const *argtypes,
                        int nargs, const cj_type *ret, void **site);
    int (*objmode_call)(void *site, void **in, void *out);
    void *opaque;
};

enum { CJ_ERRORS_PYTHON = 0, CJ_ERRORS_NUMPY = 1 };

/* Lowers `ir` (typed for `argtypes` -> `ret`) into a new function `name` of `module`, with
 * the calling convention above. NULL with an exception on failure. */
LLVMValueRef cj_lower_function(cj_func_ir *ir, const cj_type *const *argtypes, int nargs,
                               const cj_type *ret, LLVMModuleRef module, const char *name,
                               cj_lower_env *env);

/* lower_refs.c: whether values of type `t` hold arrays (an array, or a tuple or extension
 * struct holding one); whether `t` is such an aggregate (an LLVM struct of its items). */
int cj_type_has_refs(const cj_type *t);
int cj_type_is_aggregate(const cj_type *t);

/* The LLVM type of a value of type `t`. */
LLVMTypeRef cj_llvm_type(LLVMContextRef ctx, const cj_type *t);

/* ---- lower_wrapper.c ---- */
/* Adds `i32 @name(i8* ret, i8** args)` to `mod`: loads the arguments from their slots and
 * returns the status of `fn` (typed `argtypes` -> `ret`). The wrapper. */
LLVMValueRef cj_lower_wrapper(LLVMModuleRef mod, LLVMValueRef fn, const cj_type *const *argtypes,
                              int nargs, const cj_type *ret, const char *name);

/* ---- lower_ufunc.c ---- */
/* Adds the ufunc inner loop `void @name(i8** args, i64* dims, i64* steps, i8* data)` to `mod`,
 * calling `fn` (typed `argtypes` -> `ret`) once per element: `nin` inputs then `nout`
 * outputs; for a gufunc `core_dims` (borrowed) holds each argument's tuple of core-dimension
 * indices, else NULL. A non-zero status calls `raise(status)` and returns. The loop. */
LLVMValueRef cj_lower_ufunc_loop(LLVMModuleRef mod, const char *name, LLVMValueRef fn,
                                 const cj_type *const *argtypes, int nargs, const cj_type *ret,
                                 int nin, int nout, PyObject *core_dims,
                                 void (*raise)(int status));

/* ---- debuginfo.c ---- */
/* Starts line tables for `mod` (`full`: full DWARF emission) in a new DIBuilder, which the
 * caller keeps with *file and *cu until cj_debuginfo_finish (or disposes on failure). */
LLVMDIBuilderRef cj_debuginfo_start(LLVMModuleRef mod, const char *filename, int full,
                                    LLVMMetadataRef *file, LLVMMetadataRef *cu);
/* Sets `b`'s debug location to `line` of `fn` (given a subprogram on first use). */
void cj_debuginfo_at_line(LLVMDIBuilderRef di, LLVMMetadataRef file, LLVMBuilderRef b,
                          LLVMValueRef fn, int line);
/* Gives functions made after lowering (a kernel entry) a subprogram at `firstline`, and every
 * call in a function a location (LLVM's verifier requires it); finalises and disposes `di`. */
void cj_debuginfo_finish(LLVMDIBuilderRef di, LLVMMetadataRef file, LLVMModuleRef mod,
                         int firstline);

/* ---- fastmath.c ---- */
/* The module with `fast` on every floating-point operation; takes `mod` (disposed on
 * success), returns the new module, NULL with an exception on failure. */
LLVMModuleRef cj_apply_fastmath(LLVMModuleRef mod);

/* ---- ub_audit.c ---- */
/* Whether CUJIT_UB_CHECK asks for the audit (read at each compile). */
int cj_ub_audit_enabled(void);
/* Tags `inst` (when it is an instruction and the audit is on) with why it cannot make poison
 * or undefined behaviour: `why` is the proof the audit asks for. */
void cj_ub_proof(LLVMValueRef inst, const char *why);
/* 0, or -1 with LoweringError naming the first poison-capable instruction of `mod` that has
 * neither a proof nor safe constant operands (see ub_audit.c for the list). */
int cj_ub_audit(LLVMModuleRef mod);

#endif
