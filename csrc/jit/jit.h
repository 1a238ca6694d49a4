/* runtime: what Python calls. compile.c (the pipeline, one driver function), boxing.c
 * (Python values <-> the compiled code's C layout), dispatcher.c (the Dispatcher type:
 * one compiled overload per argument-type signature). */
#ifndef CJ_RUNTIME_H
#define CJ_RUNTIME_H

#include <llvm-c/Core.h>

#include "types/types.h"

/* A compiled version of a function for one argument-type signature. */
typedef struct cj_overload {
    int nargs;
    const cj_type **argtypes;     /* PyMem */
    const cj_type *ret;
    int (*entry)(void *ret, void **args); /* the wrapper: status 0, or an exception id */
    char *symbol;                 /* the compiled function (PyMem) */
    PyObject *bitcode;            /* bytes: the module before the wrapper, for callers */
    PyObject *llvm_ir;            /* str: the optimised module */
    PyObject *annotation;         /* str: typed IR per source line (inspect_types) */
    PyObject *signature;          /* Signature: ret(args) */
    PyObject *keep;               /* list: objects the code points at (frozen arrays) */
    PyObject *exc_ids;            /* set: exception ids the code (and its callees) can return */
    PyObject *jit_bitcode;        /* bytes: the optimised module with its wrapper (cache=True) */
    char *wrapper;                /* the wrapper's symbol (PyMem) */
    size_t *arg_offsets;          /* PyMem: where each argument sits in the argument buffer */
    size_t args_size;
} cj_overload;

/* Compile options of a dispatcher. */
typedef struct cj_options {
    int error_model;  /* CJ_ERRORS_* */
    int fastmath;
    int boundscheck;
    int opt;          /* LLVM optimisation level 0..3 */
    int cache;        /* keep what an on-disk cache entry needs */
} cj_options;

typedef struct cj_dispatcher cj_dispatcher;

/* ---- compile.c ---- */
/* Compiles `disp`'s function for these argument types (`declared_ret` may be NULL: inferred).
 * A new overload (caller owns: cj_overload_free), or NULL with an exception. */
cj_overload *cj_compile_cpu(cj_dispatcher *disp, const cj_type *const *argtypes, int nargs,
                            const cj_type *declared_ret);
void cj_overload_free(cj_overload *ov);
/* Links a module's bitcode into `module` (once) and makes `symbol` internal there, so LLVM
 * can inline it; the function, or NULL + LoweringError. */
LLVMValueRef cj_link_bitcode(LLVMModuleRef module, PyObject *bitcode, const char *symbol);
/* Links an overload's code into `module` (internal linkage; once); its function, or NULL. */
LLVMValueRef cj_link_overload(LLVMModuleRef module, const cj_overload *ov);
/* Assembly of an overload (new reference). */
PyObject *cj_overload_asm(cj_overload *ov);
/* A fresh unique symbol for a function named `qualname` (PyMem; NULL + MemoryError). */
char *cj_make_symbol(const char *qualname);
/* Sets an overload's types, argument layout, signature and lists; -1 + exception. */
int cj_fill_overload(cj_overload *ov, const cj_type *const *argtypes, int nargs,
                     const cj_type *ret);
/* The entry for an on-disk cache (new dict), None when the code holds process addresses. */
PyObject *cj_overload_export(cj_overload *ov);
/* An overload from a cache entry made by cj_overload_export; NULL + exception, or NULL with
 * no exception when the entry does not fit this process (an exception id is taken). */
cj_overload *cj_overload_import(PyObject *entry, const cj_type *const *argtypes, int nargs,
                                const cj_type *ret, const char *qualname);

/* ---- boxing.c ---- */
/* Writes the C value of `value` as type `t` at `dst`; -1 with TypeError/OverflowError. */
int cj_unbox(PyObject *value, const cj_type *t, void *dst);
/* A Python object for the C value of type `t` at `src` (new reference). */
PyObject *cj_box(const void *src, const cj_type *t);

/* ---- dispatcher.c ---- */
extern PyTypeObject *cj_DispatcherType;
PyObject *cj_dispatcher_pyfunc(PyObject *obj);   /* borrowed, or NULL if not a dispatcher */
const cj_options *cj_dispatcher_options(cj_dispatcher *disp);
PyObject *cj_dispatcher_func(cj_dispatcher *disp); /* borrowed */
/* The compiled versions, in the order they were made (borrowed). */
cj_overload **cj_dispatcher_overloads(cj_dispatcher *disp, int *n);
/* The overload for these exact types, compiling it if needed (NULL + exception). */
cj_overload *cj_dispatcher_get_overload(cj_dispatcher *disp, const cj_type *const *argtypes,
                                        int nargs);

/* ---- compile_cuda.c ---- */
/* Options of a CUDA compilation (cuda.jit's, with the target's compute capability). */
typedef struct cj_cuda_options {
    int debug;
    int lineinfo;
    int fastmath;
    int max_registers;
    int opt;
    int cc_major, cc_minor;
} cj_cuda_options;

/* A compiled kernel or device function: what the launcher loads and Python inspects. */
typedef struct cj_cuda_result {
    PyObject *ptx;         /* str */
    PyObject *llvm;        /* str: the module handed to NVVM */
    PyObject *annotation;  /* str: typed IR per source line (inspect_types) */
    PyObject *signature;   /* Signature: ret(args) */
    PyObject *params;      /* list: kernel parameters per argument */
    char entry[256];       /* the PTX entry (kernels) or function (device functions) */
    int debug;             /* the module has the exception record (debug=True) */
    int cached;            /* read from the on-disk cache */
    int cc_major, cc_minor; /* the compute capability compiled for */
} cj_cuda_result;

/* Options from cuda.jit's dict (debug, lineinfo, fastmath, max_registers, opt, cc); -1 + exc. */
int cj_cuda_parse_options(PyObject *options, cj_cuda_options *o);
/* Compiles `pyfunc` for these types (a kernel, or a device function when `device`) into
 * `out` (cleared with cj_cuda_result_clear); -1 with an exception (`out` left empty). */
int cj_cuda_compile(PyObject *pyfunc, const cj_type *const *argtypes, int nargs, int device,
                    const cj_cuda_options *opt, const cj_type *declared, cj_cuda_result *out);
/* A kernel's result from an on-disk cache entry (a dict checked by cuda/cache.py); -1 + exc. */
int cj_cuda_result_from_entry(PyObject *entry, const cj_type *const *argtypes, int nargs,
                              cj_cuda_result *out);
void cj_cuda_result_clear(cj_cuda_result *r);
/* The result as Python sees it: dict(ptx, llvm, annotation, signature, restype, entry, params,
 * debug, cached, cc) (new reference). */
PyObject *cj_cuda_result_dict(const cj_cuda_result *r);

#endif
