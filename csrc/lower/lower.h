/* lower: typed IR -> LLVM IR through the LLVM 14 C API, for both targets.
 * Calling convention of every compiled function (CPU and CUDA device functions):
 *     i32 @name(<ret>* %ret, <arg0>, <arg1>, ...)
 * returning 0, or the id (1-based) of the exception to raise, from cj_exc_* (excinfo.c).
 * Sections: lower.c (functions, blocks, variables, constants, control flow), lower_types.c
 * (cj_type -> LLVM type, casts), lower_num.c (operators), lower_call.c (calls, builtins,
 * math), lower_array.c (arrays), lower_iter.c (iterators), excinfo.c (exception registry). */
#ifndef CJ_LOWER_H
#define CJ_LOWER_H

#include <llvm-c/Core.h>

#include "types/infer.h"

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
/* The C-side layout of a value of type `t` (x86-64 / NVPTX natural alignment). */
size_t cj_abi_size(const cj_type *t);
size_t cj_abi_align(const cj_type *t);
/* Byte offset of item `i` of a tuple type, or of field i of an array struct. */
size_t cj_abi_tuple_offset(const cj_type *t, int i);

/* ---- fastmath.c ---- */
/* The module with `fast` on every floating-point operation; takes `mod` (disposed on
 * success), returns the new module, NULL with an exception on failure. */
LLVMModuleRef cj_apply_fastmath(LLVMModuleRef mod);

/* ---- excinfo.c: exceptions raised by compiled code, by id ---- */
/* Registers an exception class or instance to raise; its id (>= 1), or -1 with an exception. */
int cj_exc_register(PyObject *exc);
/* Sets the Python exception for an id returned by compiled code. */
void cj_exc_raise(int id);
/* Puts `exc` at `id` (for cached code): 0 done or already there, 1 the id holds another
 * exception, -1 with an exception set. */
int cj_exc_register_at(int id, PyObject *exc);
/* The exception registered at `id` (borrowed), or NULL. */
PyObject *cj_exc_lookup(int id);
/* Ids of the built-in errors (numba's messages). */
enum {
    CJ_EXC_INT_DIV_ZERO = 1,  /* ZeroDivisionError('integer division by zero') */
    CJ_EXC_INT_MOD_ZERO,      /* ZeroDivisionError('integer modulo by zero') */
    CJ_EXC_DIV_ZERO,          /* ZeroDivisionError('division by zero') */
    CJ_EXC_MOD_ZERO,          /* ZeroDivisionError('modulo by zero') */
    CJ_EXC_INDEX,             /* IndexError('index is out of bounds') */
    CJ_EXC_UNPACK,            /* ValueError('cannot unpack: length mismatch') */
    CJ_EXC_RANGE_STEP,        /* ValueError('range() arg 3 must not be zero') */
    CJ_EXC_POW_ZERO,          /* ZeroDivisionError('0 cannot be raised to a negative power') */
    CJ_EXC_BUILTIN_COUNT,
};
int cj_excinfo_init(PyObject *module);

#endif
