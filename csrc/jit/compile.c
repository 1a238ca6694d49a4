/* compile.c: the CPU driver: the shared front half (pipeline.c: build_ir -> infer -> lower),
 * then verify -> (bitcode for callers) -> wrapper -> optimise -> JIT
 * Callees (other jitted functions) are linked into the caller's module from their bitcode
 * with internal linkage, so LLVM can inline across them. CUJIT_DUMP=ir,types,llvm prints the
 * stages to stderr (ir and types: pipeline.c). */
#include <llvm-c/Linker.h>

#include <stdlib.h>
#include <string.h>

#include "lower/lower.h"
#include "jit/jit.h"
#include "target/target.h"
#include "typing/infer.h"

void cj_overload_free(cj_overload *ov) {
    if (ov == NULL) {
        return;
    }
    PyMem_Free(ov->argtypes);
    PyMem_Free(ov->symbol);
    PyMem_Free(ov->arg_offsets);
    Py_XDECREF(ov->bitcode);
    Py_XDECREF(ov->llvm_ir);
    Py_XDECREF(ov->annotation);
    Py_XDECREF(ov->parallel);
    Py_XDECREF(ov->signature);
    Py_XDECREF(ov->keep);
    Py_XDECREF(ov->exc_ids);
    Py_XDECREF(ov->jit_bitcode);
    PyMem_Free(ov->wrapper);
    PyMem_Free(ov);
}

/* ---- typing env: calls to other jitted functions ---- */

static int resolve_dispatcher(cj_typing_env *env, PyObject *callee, int nargs,
                              const cj_type **argtypes, const cj_type **ret,
                              const void **handle) {
    if (!PyObject_TypeCheck(callee, cj_DispatcherType)) {
        return 0;
    }
    cj_overload *ov = cj_dispatcher_get_overload((cj_dispatcher *)callee,
                                                 (const cj_type *const *)argtypes, nargs);
    if (ov == NULL) {
        return -1;
    }
    /* an overload of a declared signature may take what was passed by conversion (an int32
     * for an int64, an Optional for its value): the call casts to what it declares */
    for (int i = 0; i < nargs && i < ov->nargs; i++) {
        if (argtypes[i]->kind != CJ_OMITTED) {
            argtypes[i] = ov->argtypes[i];
        }
    }
    *ret = ov->ret;
    *handle = ov;
    return 1;
}

/* ---- lowering env: link a callee's module in ---- */

/* The ids a callee can return become the caller's too. */
static int merge_exc_ids(cj_lower_env *env, const cj_overload *ov) {
    if (env->exc_ids == NULL || ov->exc_ids == NULL) {
        return 0;
    }
    PyObject *it = PyObject_GetIter(ov->exc_ids), *id;
    if (it == NULL) {
        return -1;
    }
    while ((id = PyIter_Next(it)) != NULL) {
        int rc = PySet_Add(env->exc_ids, id);
        Py_DECREF(id);
        if (rc < 0) {
            Py_DECREF(it);
            return -1;
        }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

LLVMValueRef cj_link_bitcode(LLVMModuleRef module, PyObject *bitcode, const char *symbol) {
    LLVMValueRef existing = LLVMGetNamedFunction(module, symbol);
    if (existing != NULL) {
        return existing;
    }
    LLVMModuleRef callee = cj_module_parse(LLVMGetModuleContext(module), bitcode, "callee",
                                           "cannot read a callee's bitcode");
    if (callee == NULL) {
        return NULL;
    }
    /* the callee's own callees are already internal in its bitcode; its entry stays
     * external while linking (the linker drops unreferenced internal functions) */
    if (LLVMLinkModules2(module, callee)) { /* destroys callee */
        PyErr_SetString(cj_LoweringError, "cannot link a callee into its caller");
        return NULL;
    }
    LLVMValueRef fn = LLVMGetNamedFunction(module, symbol);
    if (fn == NULL) {
        PyErr_SetString(cj_LoweringError, "a linked callee went missing");
        return NULL;
    }
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    return fn;
}

LLVMValueRef cj_link_overload(LLVMModuleRef module, const cj_overload *ov) {
    return cj_link_bitcode(module, ov->bitcode, ov->symbol);
}

static LLVMValueRef link_callee(cj_lower_env *env, LLVMModuleRef module, const void *handle) {
    const cj_overload *ov = handle;
    if (merge_exc_ids(env, ov) < 0) {
        return NULL;
    }
    /* what the callee's code points at, the caller's linked copy points at too */
    if (PyList_GET_SIZE(ov->keep) > 0 && PyList_Append(env->keep, ov->keep) < 0) {
        return NULL;
    }
    return cj_link_overload(module, handle);
}

int cj_fill_overload(cj_overload *ov, const cj_type *const *argtypes, int nargs,
                         const cj_type *ret) {
    ov->nargs = nargs;
    ov->ret = ret;
    ov->argtypes = PyMem_Malloc(sizeof(cj_type *) * (size_t)(nargs + 1));
    ov->arg_offsets = PyMem_Malloc(sizeof(size_t) * (size_t)(nargs + 1));
    if (ov->keep == NULL) {
        ov->keep = PyList_New(0);
    }
    if (ov->exc_ids == NULL) {
        ov->exc_ids = PySet_New(NULL);
    }
    if (ov->argtypes == NULL || ov->arg_offsets == NULL || ov->keep == NULL || ov->exc_ids == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    size_t off = 0;
    for (int i = 0; i < nargs; i++) {
        ov->argtypes[i] = argtypes[i];
        size_t align = cj_abi_value_align(argtypes[i]);
        off = (off + align - 1) / align * align;
        ov->arg_offsets[i] = off;
        off += cj_abi_value_size(argtypes[i]);
    }
    ov->args_size = off;
    ov->signature = cj_signature_new(ret, nargs, argtypes);
    return ov->signature ? 0 : -1;
}

/* A big module's optimisation and machine code, on a thread of its own (takes the module). */
static int emit_in_background(const cj_options *opt, LLVMModuleRef mod, cj_overload *ov,
                              const char *wrapper) {
    cj_cpu_code code = {0};
    if (cj_cpu_finish_in_background(mod, opt->opt, wrapper, opt->cache, &code) < 0) {
        return -1;
    }
    ov->llvm_ir = code.llvm_ir;
    ov->jit_bitcode = code.bitcode;
    ov->entry = (int (*)(void *, void **))code.entry;
    return 0;
}

/* Verifies, wraps, optimises and JITs the lowered module (taken, even on failure); fills the
 * overload's code fields. */
static int emit(const cj_options *opt, LLVMModuleRef mod, cj_overload *ov) {
    LLVMValueRef fn = LLVMGetNamedFunction(mod, ov->symbol);
    if (cj_verify_module(mod) < 0) {
        goto fail;
    }
    if (opt->fastmath) {
        LLVMModuleRef fast = cj_apply_fastmath(mod);
        if (fast == NULL) {
            goto fail;
        }
        mod = fast;
        fn = LLVMGetNamedFunction(mod, ov->symbol);
    }
    if (cj_dump_enabled("llvm")) {
        PyObject *t = cj_module_text(mod);
        cj_dump("LLVM (unoptimised)", t);
        Py_XDECREF(t);
    }
    ov->bitcode = cj_module_bitcode(mod);
    char wrapper[512];
    PyOS_snprintf(wrapper, sizeof(wrapper), "%s.wrapper", ov->symbol);
    ov->wrapper = PyMem_Malloc(strlen(wrapper) + 1);
    if (ov->wrapper == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    strcpy(ov->wrapper, wrapper);
    /* Only the wrapper calls the function in this module (jitted callers link the bitcode
     * above), so keep it out of line: inlined, its whole body would be optimised and compiled
     * twice (the seed mandelbrot's create_fractal: about half the compile time). */
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(
                                                             "noinline", 8), 0));
    if (ov->bitcode == NULL ||
        cj_lower_wrapper(mod, fn, (const cj_type *const *)ov->argtypes, ov->nargs, ov->ret,
                         wrapper) == NULL) {
        goto fail;
    }
    if (cj_module_instruction_count(mod) > CJ_CPU_BACKGROUND_INSTRUCTIONS) {
        return emit_in_background(opt, mod, ov, wrapper); /* Ctrl-C can stop it */
    }
    if (cj_cpu_optimize(mod, opt->opt) < 0 || (ov->llvm_ir = cj_module_text(mod)) == NULL) {
        goto fail;
    }
    if (opt->cache && (ov->jit_bitcode = cj_module_bitcode(mod)) == NULL) {
        goto fail;
    }
    if (cj_cpu_add_module(mod) < 0) { /* takes the module, even on failure */
        return -1;
    }
    ov->entry = (int (*)(void *, void **))cj_cpu_lookup(wrapper);
    return ov->entry ? 0 : -1;
fail:
    LLVMDisposeModule(mod);
    return -1;
}

/* A new empty overload with the lists lowering fills (keep, exc_ids); NULL + exception. */
static cj_overload *new_overload(void) {
    cj_overload *ov = PyMem_Calloc(1, sizeof(cj_overload));
    if (ov == NULL) {
        return (cj_overload *)PyErr_NoMemory();
    }
    ov->keep = PyList_New(0);
    ov->exc_ids = PySet_New(NULL);
    ov->parallel = PyList_New(0);
    if (ov->keep == NULL || ov->exc_ids == NULL || ov->parallel == NULL) {
        cj_overload_free(ov);
        return NULL;
    }
    return ov;
}

/* A copy of `s` (PyMem; NULL + MemoryError). */
static char *copy_str(const char *s) {
    char *c = PyMem_Malloc(strlen(s) + 1);
    return c ? strcpy(c, s) : (char *)PyErr_NoMemory();
}

/* The wrapper boxes and unboxes extension types with code pointing at Python objects and
 * CPython's functions (lower_extension.c): kept by the overload, which is then not cached; so
 * is a jitted function passed as an argument (its type is the object: another process has
 * another). */
static PyObject *passed_dispatcher(const cj_type *t) {
    for (int i = 0; t->kind == CJ_TUPLE && i < t->n; i++) {
        PyObject *d = passed_dispatcher(t->items[i]);
        if (d != NULL) {
            return d;
        }
    }
    return t->kind == CJ_CONST_OBJ && cj_dispatcher_pyfunc(t->obj) ? t->obj : NULL;
}

static int keep_extension_types(cj_overload *ov) {
    for (int i = -1; i < ov->nargs; i++) {
        const cj_type *t = i < 0 ? ov->ret : ov->argtypes[i];
        PyObject *kept = t->kind == CJ_EXT ? t->pyobj : passed_dispatcher(t);
        if (kept != NULL && PyList_Append(ov->keep, kept) < 0) {
            return -1;
        }
    }
    return 0;
}

cj_overload *cj_compile_cpu(cj_dispatcher *disp, const cj_type *const *argtypes, int nargs,
                            const cj_type *declared_ret) {
    const cj_options *opt = cj_dispatcher_options(disp);
    cj_overload *ov = new_overload();
    if (ov == NULL) {
        return NULL;
    }
    cj_typing_env tenv = {.self_dispatcher = (PyObject *)disp,
                          .resolve_dispatcher = resolve_dispatcher,
                          .dispatcher_pyfunc = cj_dispatcher_pyfunc};
    cj_lower_env lenv = {.error_model = opt->error_model, .fastmath = opt->fastmath,
                         .boundscheck = opt->boundscheck, .parallel = opt->parallel,
                         .diagnostics = ov->parallel,
                         .callee_function = link_callee, .typing = &tenv,
                         .keep = ov->keep, .exc_ids = ov->exc_ids,
                         .objmode_site = cj_objmode_site, .objmode_call = cj_objmode_call};
    cj_request rq = {.target = &cj_target_cpu, .pyfunc = cj_dispatcher_func(disp),
                     .argtypes = argtypes, .nargs = nargs, .declared_ret = declared_ret,
                     .tenv = &tenv, .lenv = &lenv};
    cj_front f;
    if (cj_pipeline_front(&rq, &f) < 0) {
        goto fail;
    }
    ov->annotation = f.annotation; /* the overload takes these two */
    LLVMModuleRef mod = f.mod;
    if (cj_fill_overload(ov, argtypes, nargs, f.ret) < 0 ||
        (ov->symbol = copy_str(f.symbol)) == NULL || keep_extension_types(ov) < 0) {
        LLVMDisposeModule(mod);
        goto fail;
    }
    if (emit(opt, mod, ov) < 0) {
        goto fail;
    }
    return ov;
fail:
    cj_overload_free(ov);
    return NULL;
}

PyObject *cj_overload_asm(cj_overload *ov) {
    LLVMContextRef ctx = cj_cpu_context();
    if (ctx == NULL) {
        return NULL;
    }
    /* recompile the module from its bitcode in a private context, just for the listing */
    LLVMContextRef own = LLVMContextCreate();
    LLVMModuleRef mod = cj_module_parse(own, ov->bitcode, "asm",
                                        "cannot read the overload's bitcode");
    PyObject *text = NULL;
    if (mod != NULL) {
        if (cj_cpu_optimize(mod, 3) == 0) {
            text = cj_cpu_assembly(mod);
        }
        LLVMDisposeModule(mod);
    }
    LLVMContextDispose(own);
    return text;
}
