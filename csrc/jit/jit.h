/* jit: the top floor, what Python calls; it may include every folder below it.
 *   pipeline.c     the front half both targets share (build_ir -> infer -> lower), dumps
 *   compile.c      the CPU driver (front -> wrapper -> optimise -> ORC)     cache.c  its disk
 *   compile_cuda.c the CUDA driver (front -> kernel entry -> NVVM -> PTX), device functions
 *   boxing.c       Python values <-> the compiled code's C layout
 *   dispatcher.c   the CPU Dispatcher: one table of overloads, one per argument types
 *   kernel.c, launch.c, launch_config.c, forall.c  the CUDA dispatcher's table and launch
 *                  path (kernel_internal.h; its C API for other launch paths in kernel.h)
 *   ufunc.c        CPU ufunc objects (ufunc_parallel.c: target='parallel')
 *   ufunc_cuda*.c  the CUDA ufunc call path
 *   threads.c      compiling from several threads: compilations under way, growable tables
 * This header declares what the files share; kernel.h and ufunc_cuda.h say the rest. */
#ifndef CJ_JIT_H
#define CJ_JIT_H

#include <llvm-c/Core.h>

#include "lower/lower.h"
#include "target/target.h"
#include "types/types.h"
#include "typing/infer.h"

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
    PyObject *parallel;           /* list of str: the prange loops run on the pool; NULL: none */
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
    int parallel;     /* parallel=True: prange loops on the thread pool */
    int opt;          /* LLVM optimisation level 0..3 */
    int cache;        /* keep what an on-disk cache entry needs */
} cj_options;

typedef struct cj_dispatcher cj_dispatcher;

/* ---- pipeline.c: build_ir -> infer -> annotation -> symbol -> module -> lower ---- */

#define CJ_SYMBOL_MAX 256

extern const cj_target cj_target_cpu, cj_target_cuda;

/* What to compile, for cj_pipeline_front. */
typedef struct cj_request {
    const cj_target *target;
    PyObject *pyfunc;
    const cj_type *const *argtypes;
    int nargs;
    const cj_type *declared_ret;  /* NULL: the inferred one */
    cj_typing_env *tenv;          /* the target's id is set here */
    cj_lower_env *lenv;           /* the target's id (and with lineinfo at_line) are set here */
    LLVMContextRef ctx;           /* the module's context; NULL: the target's own */
    int lineinfo;                 /* line tables in the module (debug locations per line) */
} cj_request;

/* The front half's result: the caller owns the module, the annotation and the DIBuilder
 * (cj_front_clear frees what is left). */
typedef struct cj_front {
    LLVMModuleRef mod;
    LLVMValueRef inner;           /* the lowered function, `symbol` in `mod` */
    const cj_type *ret;
    PyObject *annotation;         /* str: typed IR per source line (inspect_types) */
    char symbol[CJ_SYMBOL_MAX];
    LLVMDIBuilderRef di;          /* line tables being built, or NULL */
    LLVMMetadataRef file, cu;
    int firstline;
} cj_front;

/* Compiles `rq->pyfunc` into a fresh module; 0, or -1 with an exception and `out` empty. */
int cj_pipeline_front(const cj_request *rq, cj_front *out);
/* Completes the line tables (after the last function is added) and drops the builder. */
void cj_front_finish_debug(cj_front *f);
/* Frees what `f` still holds. */
void cj_front_clear(cj_front *f);
/* Whether CUJIT_DUMP names `stage` (or is "all"); cj_dump prints "---- title ----" and text
 * (nothing when text is NULL). */
int cj_dump_enabled(const char *stage);
void cj_dump(const char *title, PyObject *text);
PyObject *cj_module_bitcode(LLVMModuleRef mod);   /* new bytes, NULL + exception */
PyObject *cj_module_text(LLVMModuleRef mod);      /* new str, NULL + exception */
/* A module read from `bitcode` (bytes) into `ctx`, its identifier `name`; NULL with
 * cj_LoweringError(`error`: LLVM's message) for malformed bitcode, never LLVM's exit(1). */
LLVMModuleRef cj_module_parse(LLVMContextRef ctx, PyObject *bitcode, const char *name,
                              const char *error);
/* A fresh unique CPU symbol for a function named `qualname` (PyMem; NULL + MemoryError). */
char *cj_make_symbol(const char *qualname);
/* A C identifier from a qualified name: "outer.<locals>.f" -> "outer__locals__f". */
void cj_c_identifier(const char *name, char *out, size_t cap);

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
/* Sets an overload's types, argument layout, signature and lists (those it has not yet);
 * -1 + exception. */
int cj_fill_overload(cj_overload *ov, const cj_type *const *argtypes, int nargs,
                     const cj_type *ret);
/* The entry for an on-disk cache (new dict), None when the code holds process addresses. */
PyObject *cj_overload_export(cj_overload *ov);
/* An overload from a cache entry made by cj_overload_export; NULL + exception, or NULL with
 * no exception when the entry does not fit this process (an exception id is taken). */
cj_overload *cj_overload_import(PyObject *entry, const cj_type *const *argtypes, int nargs,
                                const cj_type *ret, const char *qualname);

/* ---- threads.c: compilations under way, and tables that readers need no lock for ---- */
typedef struct cj_pending cj_pending;
typedef struct cj_pending_list {
    cj_pending *head;   /* compilations under way on one table, any thread's */
} cj_pending_list;
/* Claims the compilation of `types` on `list` for this thread: 1 (*claim set: end it with
 * cj_pending_end), 0 after waiting for another thread's compilation of them (look the table
 * up again), -1 + TypingError when that would be `func` calling itself back (in this thread,
 * or through threads waiting on each other), MemoryError, or a signal's exception raised while
 * it waited (KeyboardInterrupt). */
int cj_pending_begin(cj_pending_list *list, const cj_type *const *types, int nargs,
                     PyObject *func, cj_pending **claim);
void cj_pending_end(cj_pending_list *list, cj_pending *claim);
/* Grows a table of pointers (`n` used of `*cap`) to hold one more; the old array stays valid
 * until cj_table_free. -1 + MemoryError. */
int cj_table_reserve(void ***items, int n, int *cap);
void cj_table_free(void **items);

/* ---- boxing.c ---- */
/* Writes the C value of `value` as type `t` at `dst`; -1 with TypeError/OverflowError. */
int cj_unbox(PyObject *value, const cj_type *t, void *dst);
/* A Python object for the C value of type `t` at `src` (new reference). An array that
 * views all of its parent (the object it was unboxed from) is that object, as in numba. */
PyObject *cj_box(const void *src, const cj_type *t);

/* ---- generator_object.c: a compiled generator's frame iterated from Python ---- */
/* A new generator object taking its own reference to frame `mi` (type t, a CJ_GENERATOR). */
PyObject *cj_generator_wrap(cj_meminfo *mi, const cj_type *t);
/* cj_box of a call's result: each generator object in it keeps the call's arguments
 * `args[0..n)` (NULL: a default) alive, as its frame reads arrays and strings of Python
 * objects in place. */
PyObject *cj_box_result(const void *src, const cj_type *t, PyObject *const *args, int n);
int cj_generator_init(PyObject *module);

/* ---- reflect.c: Python lists as arguments (numba's reflected lists) ---- */
/* A new compiled list of the items of Python list `value` (type `t`), its meminfo at `dst`;
 * -1 with TypeError (numba's texts) or MemoryError. */
int cj_unbox_list(PyObject *value, const cj_type *t, void *dst);
/* ---- reflect_set.c: sets at the call boundary ---- */
/* A Python set as a new compiled set at `dst` (reflected: cj_reflect_set drops it); -1 + exc. */
int cj_unbox_set(PyObject *value, const cj_type *t, void *dst);
/* The compiled set at `src` as Python sees it: its caller's set, or a new set (-1: NULL). */
PyObject *cj_box_set(const void *src, const cj_type *t);
/* After a call: the caller's set `value` updated when `write` and the set changed; the
 * compiled set `mi` dropped. -1 with an exception when writing back failed. */
int cj_reflect_set(PyObject *value, const cj_type *t, cj_meminfo *mi, int write);
/* After a call: each of the first `n` arguments that is a list is written back to the Python
 * list it came from when `called` (the function ran, returned or raised) and it changed, then
 * dropped.
 * -1 with an exception when a write-back failed (every list is dropped all the same). */
int cj_reflect_args(const cj_type *const *types, int n, PyObject *const *values,
                    void *const *ptrs, int called);

/* ---- typed_list.c: cujit.typed.List ---- */
/* A new cujit.typed.List object over `mi` (its own reference), of ListType `lt`. */
PyObject *cj_typed_list_wrap(cj_meminfo *mi, const cj_type *lt);

/* ---- typed_dict.c: cujit.typed.Dict ---- */
/* A new cujit.typed.Dict object over `mi` (its own reference), of DictType `dt`. */
PyObject *cj_typed_dict_wrap(cj_meminfo *mi, const cj_type *dt);
/* The meminfo of a cujit.typed.Dict of type `t` at `dst` (borrowed); -1 with TypeError. */
int cj_unbox_typed_dict(PyObject *value, const cj_type *t, void *dst);

/* ---- nrt_python.c: compiled code's allocations seen from Python ---- */
/* A new MemInfo object holding a reference to `mi` (the base of NumPy arrays over it). */
PyObject *cj_meminfo_object(cj_meminfo *mi);
/* Drops the references a value of type `t` at `src` holds (a compiled function's result,
 * once boxed). */
void cj_nrt_release_value(const void *src, const cj_type *t);

/* ---- objmode.c: `with objmode()` blocks at run time ---- */
/* The lowering's objmode_site (lower.h): a new site for `block` (an ObjModeBlock), appended
 * to env->keep; *site receives what the code passes to cj_objmode_call. -1 + exception. */
int cj_objmode_site(cj_lower_env *env, PyObject *block, const cj_type *const *argtypes,
                    int nargs, const cj_type *ret, void **site);
/* Runs a block: `in` points at each input, `out` receives the outputs. 0, or CJ_EXC_PYTHON
 * with the exception set. Takes the GIL itself. */
int cj_objmode_call(void *site, void **in, void *out);
/* Whether code that keeps `keep` (an overload's list, callees' lists inside) has blocks. */
int cj_objmode_used(PyObject *keep);
/* Drops the arrays blocks returned on this thread: called when a jitted call returns. */
void cj_objmode_release(void);

/* ---- dispatcher.c ---- */
extern PyTypeObject *cj_DispatcherType;
PyObject *cj_dispatcher_pyfunc(PyObject *obj);   /* borrowed, or NULL if not a dispatcher */
/* call_args.c: the arguments of a Python call of `py_func` (`np` parameters, a *args one
 * last) in parameter order: full[i] borrowed, or NULL with defaults[i] the default (borrowed);
 * a *args tuple in full[np - 1] is a new reference. -1 with CPython's TypeError. */
int cj_fold_call_args(PyObject *py_func, int np, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames, PyObject **full, PyObject **defaults);
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
    int fastmath;          /* 0, 1 (all) or a mask of CJ_FASTMATH_* (lower/lower.h) */
    int max_registers;
    int opt;
    int cc_major, cc_minor;
    int launch_bounds[3];  /* maxntid, minctasm, cluster_max_blocks; 0 = none */
    int lto;               /* lto=True: LTO-IR too, and the kernel linked by nvJitLink -lto */
} cj_cuda_options;

/* A compiled kernel or device function: what the launcher loads and Python inspects. */
typedef struct cj_cuda_result {
    PyObject *ptx;         /* str */
    PyObject *llvm;        /* str: the module handed to NVVM */
    PyObject *annotation;  /* str: typed IR per source line (inspect_types) */
    PyObject *signature;   /* Signature: ret(args) */
    PyObject *params;      /* list: kernel parameters per argument */
    PyObject *link;        /* tuple (or NULL): files the external functions called need */
    PyObject *ltoir;       /* bytes (lto=True), or NULL: what nvJitLink links instead of ptx */
    char entry[256];       /* the PTX entry (kernels) or function (device functions) */
    int debug;             /* the module has the exception record (debug=True) */
    int cached;            /* read from the on-disk cache */
    int cc_major, cc_minor; /* the compute capability compiled for */
} cj_cuda_result;

/* Options from cuda.jit's dict (debug, lineinfo, fastmath, max_registers, opt, cc,
 * launch_bounds, lto), in cuda_options.c; -1 + exception. */
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
 * debug, cached, cc, link) (new reference). */
PyObject *cj_cuda_result_dict(const cj_cuda_result *r);

#endif
