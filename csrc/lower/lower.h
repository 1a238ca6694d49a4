/* lower: typed IR -> LLVM IR through the LLVM 14 C API, for both targets.
 * Every function follows the calling convention of abi/abi.h.
 * Sections: lower.c (functions, blocks, variables, constants, control flow), lower_types.c
 * (cj_type -> LLVM type, casts), lower_num.c (operators), lower_call.c (calls, builtins,
 * math), lower_array.c (arrays), lower_iter.c (iterators). */
#ifndef CJ_LOWER_H
#define CJ_LOWER_H

#include <llvm-c/Core.h>

#include "abi/abi.h"
#include "typing/infer.h"

typedef struct cj_lower_env cj_lower_env;
struct cj_lower_env {
    int target;          /* CJ_TARGET_CPU / CJ_TARGET_CUDA */
    int error_model;     /* CJ_ERRORS_PYTHON: raise ZeroDivisionError; CJ_ERRORS_NUMPY: inf/nan */
    int fastmath;
    int boundscheck;
    PyObject *keep;      /* list owned by the compiled overload: objects the code points at */
    PyObject *exc_ids;   /* set of the exception ids the code can return (for caching) */
    /* The LLVM function of a jitted callee (a handle from typing), declared or linked into
     * `module`; NULL with an exception on failure. */
    LLVMValueRef (*callee_function)(cj_lower_env *env, LLVMModuleRef module,
                                    const void *handle);
    /* Optional: called before each IR instruction is lowered into `fn` (source line numbers
     * for debug locations); NULL when not wanted. */
    void (*at_line)(cj_lower_env *env, LLVMBuilderRef b, LLVMValueRef fn, int line);
    void *opaque;
};

enum { CJ_ERRORS_PYTHON = 0, CJ_ERRORS_NUMPY = 1 };

/* Lowers `ir` (typed for `argtypes` -> `ret`) into a new function `name` of `module`, with
 * the calling convention above. NULL with an exception on failure. */
LLVMValueRef cj_lower_function(cj_func_ir *ir, const cj_type *const *argtypes, int nargs,
                               const cj_type *ret, LLVMModuleRef module, const char *name,
                               cj_lower_env *env);

/* The LLVM type of a value of type `t`. */
LLVMTypeRef cj_llvm_type(LLVMContextRef ctx, const cj_type *t);

/* ---- fastmath.c ---- */
/* The module with `fast` on every floating-point operation; takes `mod` (disposed on
 * success), returns the new module, NULL with an exception on failure. */
LLVMModuleRef cj_apply_fastmath(LLVMModuleRef mod);


#endif
