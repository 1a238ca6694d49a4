/* compile.c: the pipeline for the CPU target, as one driver function:
 *   build_ir -> infer -> lower -> verify -> (bitcode for callers) -> wrapper -> optimise -> JIT
 * Callees (other jitted functions) are linked into the caller's module from their bitcode
 * with internal linkage, so LLVM can inline across them. CUJIT_DUMP=ir,types,llvm prints the
 * stages to stderr. */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "lower/lower.h"
#include "jit/jit.h"
#include "target/target.h"
#include "typing/infer.h"

static unsigned long symbol_counter;

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
    Py_XDECREF(ov->signature);
    Py_XDECREF(ov->keep);
    Py_XDECREF(ov->exc_ids);
    Py_XDECREF(ov->jit_bitcode);
    PyMem_Free(ov->wrapper);
    PyMem_Free(ov);
}

static int dump_enabled(const char *stage) {
    const char *env = getenv("CUJIT_DUMP");
    return env != NULL && (strstr(env, stage) != NULL || strcmp(env, "all") == 0);
}

static void dump(const char *title, PyObject *text) {
    if (text != NULL) {
        PySys_FormatStderr("---- %s ----\n%U\n", title, text);
    }
}

/* ---- typing env: calls to other jitted functions ---- */

static int resolve_dispatcher(cj_typing_env *env, PyObject *callee, int nargs,
                              const cj_type *const *argtypes, const cj_type **ret,
                              const void **handle) {
    if (!PyObject_TypeCheck(callee, cj_DispatcherType)) {
        return 0;
    }
    cj_overload *ov = cj_dispatcher_get_overload((cj_dispatcher *)callee, argtypes, nargs);
    if (ov == NULL) {
        return -1;
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
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        PyBytes_AS_STRING(bitcode), (size_t)PyBytes_GET_SIZE(bitcode), "callee");
    LLVMModuleRef callee;
    int failed = LLVMParseBitcodeInContext2(ctx, buf, &callee);
    LLVMDisposeMemoryBuffer(buf);
    if (failed) {
        PyErr_SetString(cj_LoweringError, "cannot read a callee's bitcode");
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
    if (merge_exc_ids(env, handle) < 0) {
        return NULL;
    }
    return cj_link_overload(module, handle);
}

/* ---- the wrapper the dispatcher calls: i32 @wrap(i8* ret, i8** args) ---- */

static int add_wrapper(LLVMModuleRef mod, LLVMValueRef fn, const cj_type *const *argtypes,
                       int nargs, const cj_type *ret, const char *name) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMTypeRef params[2] = {i8p, LLVMPointerType(i8p, 0)};
    LLVMTypeRef ft = LLVMFunctionType(LLVMInt32TypeInContext(ctx), params, 2, 0);
    LLVMValueRef w = LLVMAddFunction(mod, name, ft);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, "entry"));
    LLVMValueRef call_args[65];
    call_args[0] = LLVMBuildBitCast(b, LLVMGetParam(w, 0),
                                    LLVMPointerType(cj_llvm_type(ctx, ret), 0), "ret");
    for (int i = 0; i < nargs; i++) {
        LLVMTypeRef at = cj_llvm_type(ctx, argtypes[i]);
        LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(ctx), (unsigned long long)i, 0);
        LLVMValueRef slot = LLVMBuildGEP2(b, i8p, LLVMGetParam(w, 1), &idx, 1, "");
        LLVMValueRef p = LLVMBuildLoad2(b, i8p, slot, "");
        p = LLVMBuildBitCast(b, p, LLVMPointerType(at, 0), "");
        call_args[i + 1] = LLVMBuildLoad2(b, at, p, "arg");
    }
    LLVMValueRef status = LLVMBuildCall2(b, LLVMGetElementType(LLVMTypeOf(fn)), fn, call_args,
                                         (unsigned)nargs + 1, "status");
    LLVMBuildRet(b, status);
    LLVMDisposeBuilder(b);
    return 0;
}

static PyObject *module_bitcode(LLVMModuleRef mod) {
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(mod);
    PyObject *bytes = PyBytes_FromStringAndSize(LLVMGetBufferStart(buf),
                                                (Py_ssize_t)LLVMGetBufferSize(buf));
    LLVMDisposeMemoryBuffer(buf);
    return bytes;
}

static PyObject *module_text(LLVMModuleRef mod) {
    char *s = LLVMPrintModuleToString(mod);
    PyObject *text = PyUnicode_FromString(s);
    LLVMDisposeMessage(s);
    return text;
}

/* Symbol names: cj.<qualname>.<n>, unique in the process. */
char *cj_make_symbol(const char *qualname) {
    size_t n = strlen(qualname) + 32;
    char *s = PyMem_Malloc(n);
    if (s == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    PyOS_snprintf(s, n, "cj.%s.%lu", qualname, ++symbol_counter);
    for (char *p = s; *p; p++) {
        if (*p == '<' || *p == '>') {
            *p = '_';
        }
    }
    return s;
}

/* numba's inspect_types header: "name (argtypes,)" */
static PyObject *signature_text(const cj_overload *ov, PyCodeObject *code) {
    PyObject *args = PyObject_GetAttrString(ov->signature, "args");
    if (args == NULL) {
        return NULL;
    }
    PyObject *text = PyUnicode_FromFormat("%U %R", code->co_name, args);
    Py_DECREF(args);
    return text;
}

int cj_fill_overload(cj_overload *ov, const cj_type *const *argtypes, int nargs,
                         const cj_type *ret) {
    ov->nargs = nargs;
    ov->ret = ret;
    ov->argtypes = PyMem_Malloc(sizeof(cj_type *) * (size_t)(nargs + 1));
    ov->arg_offsets = PyMem_Malloc(sizeof(size_t) * (size_t)(nargs + 1));
    ov->keep = PyList_New(0);
    ov->exc_ids = PySet_New(NULL);
    if (ov->argtypes == NULL || ov->arg_offsets == NULL || ov->keep == NULL || ov->exc_ids == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    size_t off = 0;
    for (int i = 0; i < nargs; i++) {
        ov->argtypes[i] = argtypes[i];
        size_t align = cj_abi_align(argtypes[i]);
        off = (off + align - 1) / align * align;
        ov->arg_offsets[i] = off;
        off += cj_abi_size(argtypes[i]);
    }
    ov->args_size = off;
    ov->signature = cj_signature_new(ret, nargs, argtypes);
    return ov->signature ? 0 : -1;
}

/* Lowers, wraps, optimises and JITs the typed IR; fills the overload's code fields. */
static int generate(cj_dispatcher *disp, cj_func_ir *ir, cj_overload *ov) {
    const cj_options *opt = cj_dispatcher_options(disp);
    cj_lower_env lenv = {.target = CJ_TARGET_CPU, .error_model = opt->error_model,
                         .fastmath = opt->fastmath, .boundscheck = opt->boundscheck,
                         .callee_function = link_callee, .keep = ov->keep,
                         .exc_ids = ov->exc_ids};
    ov->symbol = cj_make_symbol(ir->name);
    LLVMModuleRef mod = ov->symbol ? cj_cpu_new_module(ov->symbol) : NULL;
    if (mod == NULL) {
        return -1;
    }
    LLVMValueRef fn = cj_lower_function(ir, ov->argtypes, ov->nargs, ov->ret, mod, ov->symbol,
                                        &lenv);
    if (fn == NULL || cj_verify_module(mod) < 0) {
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
    if (dump_enabled("llvm")) {
        PyObject *t = module_text(mod);
        dump("LLVM (unoptimised)", t);
        Py_XDECREF(t);
    }
    ov->bitcode = module_bitcode(mod);
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
    if (ov->bitcode == NULL || add_wrapper(mod, fn, ov->argtypes, ov->nargs, ov->ret, wrapper) < 0 ||
        cj_cpu_optimize(mod, opt->opt) < 0 || (ov->llvm_ir = module_text(mod)) == NULL) {
        goto fail;
    }
    if (opt->cache && (ov->jit_bitcode = module_bitcode(mod)) == NULL) {
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

cj_overload *cj_compile_cpu(cj_dispatcher *disp, const cj_type *const *argtypes, int nargs,
                            const cj_type *declared_ret) {
    cj_overload *ov = PyMem_Calloc(1, sizeof(cj_overload));
    if (ov == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    cj_typing_env tenv = {.target = CJ_TARGET_CPU, .self_dispatcher = (PyObject *)disp,
                          .resolve_dispatcher = resolve_dispatcher,
                          .dispatcher_pyfunc = cj_dispatcher_pyfunc};
    const cj_type *ret = NULL;
    cj_func_ir *ir = cj_build_ir(cj_dispatcher_func(disp));
    if (ir == NULL) {
        goto fail;
    }
    if (dump_enabled("ir")) {
        PyObject *t = cj_ir_dump(ir, 0);
        dump("IR", t);
        Py_XDECREF(t);
    }
    if (cj_infer(ir, argtypes, nargs, &tenv, &ret) < 0) {
        goto fail;
    }
    if (declared_ret != NULL) {
        ret = declared_ret;
    }
    if (cj_fill_overload(ov, argtypes, nargs, ret) < 0) {
        goto fail;
    }
    if (dump_enabled("types")) {
        PyObject *t = cj_ir_dump(ir, 1);
        dump("typed IR", t);
        Py_XDECREF(t);
    }
    PyObject *sig = signature_text(ov, ir->code);
    const char *sig_s = sig ? PyUnicode_AsUTF8(sig) : NULL;
    ov->annotation = sig_s ? cj_ir_annotate(ir, sig_s) : NULL;
    Py_XDECREF(sig);
    if (ov->annotation == NULL || generate(disp, ir, ov) < 0) {
        goto fail;
    }
    cj_ir_free(ir);
    return ov;
fail:
    cj_ir_free(ir);
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
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        PyBytes_AS_STRING(ov->bitcode), (size_t)PyBytes_GET_SIZE(ov->bitcode), "asm");
    LLVMModuleRef mod;
    int failed = LLVMParseBitcodeInContext2(own, buf, &mod);
    LLVMDisposeMemoryBuffer(buf);
    PyObject *text = NULL;
    if (failed) {
        PyErr_SetString(cj_LoweringError, "cannot read the overload's bitcode");
    } else {
        if (cj_cpu_optimize(mod, 3) == 0) {
            text = cj_cpu_assembly(mod);
        }
        LLVMDisposeModule(mod);
    }
    LLVMContextDispose(own);
    return text;
}
