/* compile_cuda.c: the CUDA driver: the shared front half (pipeline.c: build_ir -> infer (CUDA
 * env) -> lower, with line tables for lineinfo/debug), then [kernel entry] -> verify -> NVVM
 * -> PTX
 * Device functions (cuda.jit(device=True), and CPU jit/njit functions called from kernels)
 * are compiled with the same options into bitcode, cached per (function, types, options),
 * and linked into their callers' modules with internal linkage, with cuda.jit(inline=...)'s
 * alwaysinline/noinline. Functions declared by cuda.declare_device are declared (not defined)
 * in their callers' modules, the call's arguments converted to the declared types; their own
 * link files (collected into the result's `link`, through device functions too) or the
 * kernel's link=[...] define them. Kernels get launch_bounds' NVVM annotations.
 *
 * cj_cuda_compile is what dispatchers call (jit/kernel.c), into a C result (jit.h); the
 * private Python hook _core.cuda_compile(pyfunc, argtypes, device=False, options={}) returns
 * that result as a dict (ptx, llvm, annotation, signature, restype, entry, params, link, ...)
 * for compile_ptx. options (cuda_options.c): debug, lineinfo, fastmath, max_registers, opt,
 * cc=(major, minor), launch_bounds. */
#include <llvm-c/DebugInfo.h>

#include <string.h>

#include "lower/lower.h"
#include "lower/lower_kernel.h"
#include "jit/jit.h"
#include "target/nvvm.h"
#include "target/target.h"
#include "typing/infer.h"

typedef cj_cuda_options cuda_options;

/* A compiled device function: `i32 @symbol(ret*, args...)` in `bitcode`; or, with no
 * bitcode, an external one declared by cuda.declare_device (numba's ABI, the same), resolved
 * when the kernel is linked with the code defining it (link=[...], kernel_link.c). */
typedef struct devfn {
    char symbol[256];
    PyObject *bitcode;  /* bytes, or NULL for an external function */
    const cj_type *ret;
    int inline_mode;    /* cuda.jit(inline=): 1 'always', -1 'never', 0 NVVM decides */
    int nparams;        /* an external function's declared parameter types */
    const cj_type *params[CJ_MAX_ARGS];
    PyObject *link;     /* tuple: the files its code needs (declare_device(link=...)) */
} devfn;

/* One compilation's state (nothing of it is global: other threads compile meanwhile). */
typedef struct cuda_compile {
    cuda_options opt;
    PyObject *self;     /* the device function being compiled (for recursion), or NULL */
    int depth;
    PyObject *keep;     /* list: the device functions this compilation uses, kept alive */
    PyObject *link;     /* dict (ordered set): the link files of the external functions used */
} cuda_compile;

/* dict: (pyfunc, argtypes, debug, fastmath, inline) -> capsule(devfn). Two threads may compile one
 * device function at once: the first stored stays (the other's is dropped), and a compilation
 * keeps the capsules it uses, so cuda_clear_device_cache in another thread frees none. */
static PyObject *devfn_cache;

static void devfn_destroy(PyObject *capsule) {
    devfn *f = PyCapsule_GetPointer(capsule, "cujit.devfn");
    if (f != NULL) {
        Py_XDECREF(f->bitcode);
        Py_XDECREF(f->link);
        PyMem_Free(f);
    }
}

/* The devfn in `cap`, kept alive by the compilation, its link files added to the
 * compilation's; NULL + exception. */
static devfn *use_devfn(cuda_compile *cc, PyObject *cap) {
    devfn *f = PyCapsule_GetPointer(cap, "cujit.devfn");
    if (f == NULL || PyList_Append(cc->keep, cap) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; f->link != NULL && i < PyTuple_GET_SIZE(f->link); i++) {
        if (PyDict_SetItem(cc->link, PyTuple_GET_ITEM(f->link, i), Py_None) < 0) {
            return NULL;
        }
    }
    return f;
}

/* ---- typing env: device functions ---- */

/* The Python function of a callee usable as a device function (borrowed), or NULL. */
static PyObject *device_pyfunc(PyObject *obj) {
    PyObject *f = cj_dispatcher_pyfunc(obj);
    if (f != NULL) {
        return f;
    }
    if (PyFunction_Check(obj) || PyType_Check(obj) || PyModule_Check(obj)) {
        return NULL;
    }
    /* cujit.cuda dispatchers made with device=True carry their function here */
    PyObject *pf = PyObject_GetAttrString(obj, "__cujit_device_function__");
    if (pf == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(pf); /* the dispatcher keeps it alive */
    return PyFunction_Check(pf) ? pf : NULL;
}

static devfn *compile_device(cuda_compile *cc, PyObject *callee, PyObject *pyfunc,
                             const cj_type *const *argtypes, int nargs);

/* A device function's cuda.jit(inline=...) as cuda/compiler.py stores it on the dispatcher
 * (__cujit_inline__: 'always', 'never' or None): 1, -1 or 0; -2 with an exception. */
static int inline_mode(PyObject *callee) {
    PyObject *v = PyFunction_Check(callee) ? NULL
                                           : PyObject_GetAttrString(callee, "__cujit_inline__");
    if (v == NULL) {
        PyErr_Clear();
        return 0;
    }
    int mode = v == Py_None ? 0 : -2;
    if (PyUnicode_Check(v)) {
        mode = PyUnicode_CompareWithASCIIString(v, "always") == 0  ? 1
               : PyUnicode_CompareWithASCIIString(v, "never") == 0 ? -1
                                                                    : -2;
    }
    if (mode == -2) {
        PyErr_Format(PyExc_ValueError, "inline must be 'always' or 'never', not %R", v);
    }
    Py_DECREF(v);
    return mode;
}

static devfn *extern_device(cuda_compile *cc, PyObject *callee);

/* The call of an external function: its declared types, the arguments converted to them. */
static int resolve_extern(devfn *f, int nargs, const cj_type **argtypes, const cj_type **ret,
                          const void **handle) {
    if (nargs != f->nparams) {
        PyErr_Format(cj_TypingError, "%s() takes %d arguments (%d given)", f->symbol,
                     f->nparams, nargs);
        return -1;
    }
    for (int i = 0; i < nargs; i++) {
        if (!cj_can_convert(argtypes[i], f->params[i])) {
            PyErr_Format(cj_TypingError, "%s(): argument %d of type %s cannot be passed as "
                                         "%s", f->symbol, i + 1, argtypes[i]->name,
                         f->params[i]->name);
            return -1;
        }
        argtypes[i] = f->params[i];
    }
    *ret = f->ret;
    *handle = f;
    return 1;
}

static int resolve_device(cj_typing_env *env, PyObject *callee, int nargs,
                          const cj_type **argtypes, const cj_type **ret,
                          const void **handle) {
    cuda_compile *cc = env->opaque;
    devfn *ext = extern_device(cc, callee);
    if (ext != NULL || PyErr_Occurred()) {
        return ext == NULL ? -1 : resolve_extern(ext, nargs, argtypes, ret, handle);
    }
    PyObject *pyfunc = device_pyfunc(callee);
    if (pyfunc == NULL) {
        return 0;
    }
    devfn *f = compile_device(cc, callee, pyfunc, (const cj_type *const *)argtypes, nargs);
    if (f == NULL) {
        return -1;
    }
    *ret = f->ret;
    *handle = f;
    return 1;
}

/* ---- lowering env: link a device function's module in ---- */

/* `i32 @symbol(ret*, params...)` declared in `module` (an external device function). */
static LLVMValueRef declare_extern(LLVMModuleRef module, const devfn *f) {
    LLVMValueRef fn = LLVMGetNamedFunction(module, f->symbol);
    if (fn != NULL) {
        return fn;
    }
    LLVMContextRef ctx = LLVMGetModuleContext(module);
    LLVMTypeRef params[CJ_MAX_ARGS + 1];
    const cj_type *rt = f->ret->kind == CJ_VOID ? cj_t_none : f->ret;
    params[0] = LLVMPointerType(cj_llvm_type(ctx, rt), 0);
    for (int i = 0; i < f->nparams; i++) {
        params[i + 1] = cj_llvm_type(ctx, f->params[i]);
    }
    LLVMTypeRef ft = LLVMFunctionType(LLVMInt32TypeInContext(ctx), params,
                                      (unsigned)f->nparams + 1, 0);
    return LLVMAddFunction(module, f->symbol, ft);
}

static LLVMValueRef link_device(cj_lower_env *env, LLVMModuleRef module, const void *handle) {
    const devfn *f = handle;
    if (f->bitcode == NULL) {
        return declare_extern(module, f);
    }
    LLVMValueRef fn = cj_link_bitcode(module, f->bitcode, f->symbol);
    if (fn != NULL && f->inline_mode != 0) {
        const char *attr = f->inline_mode > 0 ? "alwaysinline" : "noinline";
        LLVMContextRef ctx = LLVMGetModuleContext(module);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(
                                                                 attr, strlen(attr)), 0));
    }
    return fn;
}

/* ---- cuda.declare_device ---- */

/* An external function's devfn from its declaration (name, restype, argtypes, link files:
 * cuda/linking.py's ((kind, name, bytes), ...)): new, or NULL
 * with an exception. Its parameters are scalars and pointers (CPointer, voidptr: a T* /
 * void* in C): numba's ABI flattens other types (arrays), cujit's does not, so they could
 * not be passed the same way. */
static devfn *extern_from_declaration(PyObject *decl) {
    PyObject *name, *restype, *params, *link;
    if (!PyTuple_Check(decl) || !PyArg_ParseTuple(decl, "UOO!O!", &name, &restype,
                                                  &PyTuple_Type, &params, &PyTuple_Type,
                                                  &link)) {
        PyErr_SetString(PyExc_TypeError, "__cujit_extern__ must be (name, restype, argtypes, "
                                         "link files)");
        return NULL;
    }
    const char *sym = PyUnicode_AsUTF8(name);
    devfn *f = sym ? PyMem_Calloc(1, sizeof(devfn)) : NULL;
    if (f == NULL) {
        return sym ? (devfn *)PyErr_NoMemory() : NULL;
    }
    if (strlen(sym) == 0 || strlen(sym) >= sizeof(f->symbol) ||
        PyTuple_GET_SIZE(params) > CJ_MAX_ARGS) {
        PyErr_Format(PyExc_ValueError, "cannot declare device function %R", name);
        goto fail;
    }
    memcpy(f->symbol, sym, strlen(sym) + 1);
    f->nparams = (int)PyTuple_GET_SIZE(params);
    if ((f->ret = cj_type_from_py_checked(restype, "return type")) == NULL) {
        goto fail;
    }
    for (int i = 0; i < f->nparams; i++) {
        const cj_type *t = cj_type_from_py_checked(PyTuple_GET_ITEM(params, i), "argument");
        if (t == NULL) {
            goto fail;
        }
        if (t->kind != CJ_INT && t->kind != CJ_FLOAT && t->kind != CJ_BOOL &&
            t->kind != CJ_CPOINTER) {
            PyErr_Format(cj_UnsupportedError, "cuda.declare_device: parameters of type %s "
                                              "(integers, floats, bools and pointers are "
                                              "passed%s)", t->name,
                         t->kind == CJ_ARRAY ? "; pass an array's data as a CPointer(dtype) "
                                               "parameter, ffi.from_buffer(array)" : "");
            goto fail;
        }
        f->params[i] = t;
    }
    f->link = Py_NewRef(link);
    return f;
fail:
    PyMem_Free(f);
    return NULL;
}

/* The devfn of a cuda.declare_device function (callee.__cujit_extern__), made once per
 * callee; NULL without an exception when `callee` is not one. */
static devfn *extern_device(cuda_compile *cc, PyObject *callee) {
    if (PyFunction_Check(callee) || PyType_Check(callee) || PyModule_Check(callee)) {
        return NULL;
    }
    PyObject *decl = PyObject_GetAttrString(callee, "__cujit_extern__");
    if (decl == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *key = Py_BuildValue("(sO)", "extern", decl);
    PyObject *cap = key ? PyDict_GetItemWithError(devfn_cache, key) : NULL; /* borrowed */
    devfn *f = NULL;
    if (cap == NULL && key != NULL && !PyErr_Occurred() &&
        (f = extern_from_declaration(decl)) != NULL) {
        PyObject *made = PyCapsule_New(f, "cujit.devfn", devfn_destroy);
        cap = made ? PyDict_SetDefault(devfn_cache, key, made) : NULL;
        Py_XDECREF(made);
        if (made == NULL) {
            PyMem_Free(f);
        }
    }
    Py_DECREF(decl);
    Py_XDECREF(key);
    if (cap == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "cuda.declare_device: no declaration");
        }
        return NULL;
    }
    return use_devfn(cc, cap);
}

/* ---- the pipeline ---- */

/* The front half's result, a module with its kernel or device function still to come. */
typedef cj_front compiled;

/* build_ir -> infer -> lower into a fresh module (in `ctx`): fills `out`. */
static int compile_function(cuda_compile *cc, PyObject *self, PyObject *pyfunc,
                            const cj_type *const *argtypes, int nargs, const cj_type *declared,
                            LLVMContextRef ctx, compiled *out) {
    cj_typing_env tenv = {.self_dispatcher = self, .resolve_dispatcher = resolve_device,
                          .dispatcher_pyfunc = device_pyfunc, .opaque = cc};
    cj_lower_env lenv = {.error_model = cc->opt.debug ? CJ_ERRORS_PYTHON : CJ_ERRORS_NUMPY,
                         .fastmath = cc->opt.fastmath, .boundscheck = cc->opt.debug,
                         .cc = cc->opt.cc_major * 10 + cc->opt.cc_minor,
                         .callee_function = link_device, .typing = &tenv};
    cj_request rq = {.target = &cj_target_cuda, .pyfunc = pyfunc, .argtypes = argtypes,
                     .nargs = nargs, .declared_ret = declared, .tenv = &tenv, .lenv = &lenv,
                     .ctx = ctx, .lineinfo = cc->opt.lineinfo || cc->opt.debug};
    return cj_pipeline_front(&rq, out);
}

/* A new devfn: `pyfunc` compiled for these types into bitcode, with the link files of the
 * external functions it uses (from a compilation of its own); NULL + exception. */
static devfn *build_device(cuda_compile *cc, PyObject *callee, PyObject *pyfunc,
                           const cj_type *const *argtypes, int nargs, int mode) {
    cuda_compile inner = *cc;
    inner.depth = cc->depth + 1;
    if ((inner.link = PyDict_New()) == NULL) {
        return NULL;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    compiled out = {0};
    devfn *f = NULL;
    if (compile_function(&inner, callee, pyfunc, argtypes, nargs, NULL, ctx, &out) == 0) {
        cj_front_finish_debug(&out);
        f = PyMem_Calloc(1, sizeof(devfn));
        if (f == NULL) {
            PyErr_NoMemory();
        } else if (cj_verify_module(out.mod) < 0 ||
                   (f->bitcode = cj_module_bitcode(out.mod)) == NULL ||
                   (f->link = PySequence_Tuple(inner.link)) == NULL) {
            Py_XDECREF(f->bitcode);
            PyMem_Free(f);
            f = NULL;
        } else {
            memcpy(f->symbol, out.symbol, sizeof(f->symbol));
            f->ret = out.ret;
            f->inline_mode = mode;
        }
        LLVMDisposeModule(out.mod);
        Py_XDECREF(out.annotation);
    }
    LLVMContextDispose(ctx);
    Py_DECREF(inner.link);
    return f;
}

static devfn *compile_device(cuda_compile *cc, PyObject *callee, PyObject *pyfunc,
                             const cj_type *const *argtypes, int nargs) {
    int mode = inline_mode(callee);
    PyObject *types = mode == -2 ? NULL : cj_types_tuple(argtypes, nargs);
    PyObject *key = types ? Py_BuildValue("(OOiii)", pyfunc, types, cc->opt.debug,
                                          cc->opt.fastmath, mode)
                          : NULL;
    Py_XDECREF(types);
    if (key == NULL) {
        return NULL;
    }
    PyObject *cap = PyDict_GetItemWithError(devfn_cache, key); /* borrowed */
    if (cap != NULL) {
        Py_DECREF(key);
        return use_devfn(cc, cap);
    }
    if (PyErr_Occurred() || cc->depth > 32) {
        if (!PyErr_Occurred()) {
            PyErr_Format(cj_TypingError, "cujit cannot type mutually recursive device "
                                         "functions (%S)",
                         PyFunction_Check(pyfunc) ? ((PyFunctionObject *)pyfunc)->func_qualname
                                                  : pyfunc);
        }
        Py_DECREF(key);
        return NULL;
    }
    devfn *f = build_device(cc, callee, pyfunc, argtypes, nargs, mode);
    if (f == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    cap = PyCapsule_New(f, "cujit.devfn", devfn_destroy);
    if (cap == NULL) {
        Py_XDECREF(f->bitcode);
        Py_XDECREF(f->link);
        PyMem_Free(f);
        Py_DECREF(key);
        return NULL;
    }
    PyObject *stored = PyDict_SetDefault(devfn_cache, key, cap); /* borrowed */
    Py_DECREF(key);
    Py_DECREF(cap); /* the first one stored stays */
    return stored == NULL ? NULL : use_devfn(cc, stored);
}

/* ---- results ---- */

void cj_cuda_result_clear(cj_cuda_result *r) {
    Py_CLEAR(r->ptx);
    Py_CLEAR(r->llvm);
    Py_CLEAR(r->annotation);
    Py_CLEAR(r->signature);
    Py_CLEAR(r->params);
    Py_CLEAR(r->link);
    Py_CLEAR(r->ltoir);
}

/* Fills the signature and parameter counts of `r` for these types; -1 + exception. */
static int set_signature(cj_cuda_result *r, const cj_type *ret, const cj_type *const *argtypes,
                         int nargs) {
    r->signature = cj_signature_new(ret, nargs, argtypes);
    r->params = PyList_New(0);
    for (int i = 0; r->params != NULL && i < nargs; i++) {
        PyObject *n = PyLong_FromLong(cj_cuda_param_count(argtypes[i]));
        if (n == NULL || PyList_Append(r->params, n) < 0) {
            Py_CLEAR(r->params);
        }
        Py_XDECREF(n);
    }
    return r->signature != NULL && r->params != NULL ? 0 : -1;
}

PyObject *cj_cuda_result_dict(const cj_cuda_result *r) {
    const cj_type *ret = ((cj_signature_obj *)r->signature)->ret;
    PyObject *restype = cj_type_to_py(ret == NULL || ret->kind == CJ_VOID ? cj_t_none : ret);
    if (restype == NULL) {
        return NULL;
    }
    PyObject *link = r->link ? Py_NewRef(r->link) : PyTuple_New(0);
    PyObject *d = link == NULL ? NULL
                  : Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:s,s:O,s:O,s:O,s:(ii),s:O,s:O}", "ptx",
                                  r->ptx, "llvm", r->llvm, "annotation", r->annotation,
                                  "signature", r->signature, "restype", restype, "entry",
                                  r->entry, "params", r->params, "debug",
                                  r->debug ? Py_True : Py_False, "cached",
                                  r->cached ? Py_True : Py_False, "cc", r->cc_major,
                                  r->cc_minor, "link", link, "ltoir",
                                  r->ltoir ? r->ltoir : Py_None);
    Py_XDECREF(link);
    return d;
}

int cj_cuda_result_from_entry(PyObject *entry, const cj_type *const *argtypes, int nargs,
                              cj_cuda_result *out) {
    PyObject *ptx = PyDict_GetItemString(entry, "ptx"), *llvm = PyDict_GetItemString(entry, "llvm");
    PyObject *ann = PyDict_GetItemString(entry, "annotation");
    PyObject *name = PyDict_GetItemString(entry, "entry");
    const char *name_s = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (ptx == NULL || !PyUnicode_Check(ptx) || llvm == NULL || !PyUnicode_Check(llvm) ||
        ann == NULL || !PyUnicode_Check(ann) || name_s == NULL ||
        strlen(name_s) >= sizeof(out->entry)) {
        PyErr_SetString(PyExc_ValueError, "a malformed cached kernel entry");
        return -1;
    }
    *out = (cj_cuda_result){.ptx = Py_NewRef(ptx), .llvm = Py_NewRef(llvm),
                            .annotation = Py_NewRef(ann), .cached = 1};
    memcpy(out->entry, name_s, strlen(name_s) + 1);
    if (set_signature(out, cj_t_none, argtypes, nargs) < 0) {
        cj_cuda_result_clear(out);
        return -1;
    }
    return 0;
}

/* ---- the CUDA pipeline's back half: kernel entry, checks, NVVM ---- */

/* Makes `c` a kernel: the entry named after the function's qualname wraps `c->inner`. */
static int add_kernel_entry(compiled *c, PyObject *pyfunc, const cj_type *const *types,
                            int nargs, const cj_cuda_options *opt, char *entry) {
    PyObject *qual = PyObject_GetAttrString(pyfunc, "__qualname__");
    const char *q = qual ? PyUnicode_AsUTF8(qual) : NULL;
    if (q == NULL) {
        Py_XDECREF(qual);
        return -1;
    }
    char base[200];
    cj_c_identifier(q, base, sizeof(base));
    Py_DECREF(qual);
    PyOS_snprintf(entry, 256, "%s", base);
    if (LLVMGetNamedFunction(c->mod, entry) != NULL) {
        PyOS_snprintf(entry, 256, "%s_kernel", base);
    }
    LLVMSetLinkage(c->inner, LLVMInternalLinkage);
    LLVMContextRef ctx = LLVMGetModuleContext(c->mod);
    LLVMAddAttributeAtIndex(c->inner, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(
                                                             "alwaysinline", 12), 0));
    if (opt->launch_bounds[2] > 0 && opt->cc_major < 9) { /* PTX .maxclusterrank: sm_90 */
        PyErr_Format(PyExc_ValueError, "launch_bounds: a maximum of blocks per cluster needs "
                                       "compute capability 9.0 or higher, not %d.%d",
                     opt->cc_major, opt->cc_minor);
        return -1;
    }
    LLVMValueRef fn = cj_cuda_add_kernel(c->mod, c->inner, types, nargs, c->ret, entry,
                                         opt->debug, opt->max_registers);
    /* cuda.jit(launch_bounds=...): PTX .maxntid, .minnctapersm, .maxclusterrank */
    static const char *const bound_keys[3] = {"maxntidx", "minctasm", "cluster_max_blocks"};
    for (int i = 0; fn != NULL && i < 3; i++) {
        if (opt->launch_bounds[i] > 0) {
            cj_cuda_annotate(c->mod, fn, bound_keys[i], (unsigned)opt->launch_bounds[i]);
        }
    }
    return fn == NULL ? -1 : 0;
}

/* Verify -> LLVM text -> NVVM -> PTX (and LTO-IR when `lto`), into `out`. */
static int emit_ptx(compiled *c, const cj_nvvm_options *nopts, int lto, cj_cuda_result *out) {
    cj_front_finish_debug(c);
    cj_name_parameters(c->mod);
    if (cj_verify_module(c->mod) < 0 || (out->llvm = cj_module_text(c->mod)) == NULL) {
        return -1;
    }
    if (cj_dump_enabled("llvm")) {
        cj_dump("LLVM (CUDA)", out->llvm);
    }
    if ((out->ptx = cj_nvvm_compile(c->mod, nopts)) == NULL) {
        return -1;
    }
    if (cj_dump_enabled("ptx")) {
        cj_dump("PTX", out->ptx);
    }
    if (lto) {
        cj_nvvm_options lto_opts = *nopts;
        lto_opts.lto = 1;
        return (out->ltoir = cj_nvvm_compile(c->mod, &lto_opts)) == NULL ? -1 : 0;
    }
    return 0;
}

int cj_cuda_compile(PyObject *pyfunc, const cj_type *const *types, int nargs, int device,
                    const cj_cuda_options *opt, const cj_type *declared, cj_cuda_result *out) {
    *out = (cj_cuda_result){.debug = opt->debug, .cc_major = opt->cc_major,
                            .cc_minor = opt->cc_minor};
    cuda_compile cc = {.opt = *opt, .keep = PyList_New(0), .link = PyDict_New()};
    cj_nvvm_options nopts = {.cc_major = opt->cc_major, .cc_minor = opt->cc_minor,
                             .opt = opt->opt, .fastmath = opt->fastmath};
    if (cc.keep == NULL || cc.link == NULL || cj_nvvm_check_options(&nopts) < 0) {
        Py_XDECREF(cc.keep);
        Py_XDECREF(cc.link);
        return -1;
    }
    /* -generate-line-info; DWARF (-g) is not emitted */
    nopts.lineinfo = opt->lineinfo || opt->debug;
    LLVMContextRef ctx = LLVMContextCreate();
    compiled c = {0};
    int rc = -1;
    if (compile_function(&cc, NULL, pyfunc, types, nargs, declared, ctx, &c) < 0) {
        goto done;
    }
    if (!device && c.ret->kind != CJ_NONE && c.ret->kind != CJ_VOID) {
        PyErr_Format(cj_TypingError, "kernel %U must not return a value (it returns %s)",
                     ((PyFunctionObject *)pyfunc)->func_qualname, c.ret->name);
        goto done;
    }
    if (device) {
        memcpy(out->entry, c.symbol, sizeof(out->entry));
        LLVMSetLinkage(c.inner, LLVMExternalLinkage);
    } else if (add_kernel_entry(&c, pyfunc, types, nargs, opt, out->entry) < 0) {
        goto done;
    }
    if (emit_ptx(&c, &nopts, opt->lto, out) < 0 || set_signature(out, c.ret, types, nargs) < 0 ||
        (out->link = PySequence_Tuple(cc.link)) == NULL) {
        goto done;
    }
    out->annotation = Py_NewRef(c.annotation);
    rc = 0;
done:
    if (c.di != NULL) {
        LLVMDisposeDIBuilder(c.di);
    }
    Py_XDECREF(c.annotation);
    if (c.mod != NULL) {
        LLVMDisposeModule(c.mod);
    }
    LLVMContextDispose(ctx);
    Py_DECREF(cc.keep);
    Py_DECREF(cc.link);
    if (rc < 0) {
        cj_cuda_result_clear(out);
    }
    return rc;
}

/* ---- _core.cuda_compile ---- */

static int parse_types(PyObject *argtypes, const cj_type **types, int *nargs) {
    if (!PyTuple_Check(argtypes) || PyTuple_GET_SIZE(argtypes) > CJ_MAX_ARGS) {
        PyErr_Format(PyExc_TypeError, "argtypes must be a tuple of at most %d cujit types",
                     CJ_MAX_ARGS);
        return -1;
    }
    *nargs = (int)PyTuple_GET_SIZE(argtypes);
    for (int i = 0; i < *nargs; i++) {
        char what[32];
        PyOS_snprintf(what, sizeof(what), "argument type %d", i);
        if ((types[i] = cj_type_from_py_checked(PyTuple_GET_ITEM(argtypes, i), what)) == NULL) {
            return -1;
        }
    }
    return 0;
}

/* cuda_compile(pyfunc, argtypes, device=False, options=None, restype=None) -> dict: the
 * pipeline for compile_ptx and tests; dispatchers call cj_cuda_compile. */
static PyObject *cuda_compile_py(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"pyfunc", "argtypes", "device", "options", "restype", NULL};
    PyObject *pyfunc, *argtypes, *options = NULL, *restype_obj = Py_None;
    int device = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|pOO:cuda_compile", kwlist, &pyfunc,
                                     &argtypes, &device, &options, &restype_obj)) {
        return NULL;
    }
    if (!PyFunction_Check(pyfunc)) {
        PyErr_Format(PyExc_TypeError, "cujit compiles Python functions, not %.200s",
                     Py_TYPE(pyfunc)->tp_name);
        return NULL;
    }
    const cj_type *types[CJ_MAX_ARGS];
    int nargs;
    cj_cuda_options opt;
    if (parse_types(argtypes, types, &nargs) < 0 || cj_cuda_parse_options(options, &opt) < 0) {
        return NULL;
    }
    const cj_type *declared = NULL;
    if (restype_obj != Py_None &&
        (declared = cj_type_from_py_checked(restype_obj, "restype")) == NULL) {
        return NULL;
    }
    cj_cuda_result r;
    if (cj_cuda_compile(pyfunc, types, nargs, device, &opt, declared, &r) < 0) {
        return NULL;
    }
    PyObject *d = cj_cuda_result_dict(&r);
    cj_cuda_result_clear(&r);
    return d;
}

static PyObject *cuda_clear_device_cache(PyObject *self, PyObject *unused) {
    PyDict_Clear(devfn_cache);
    Py_RETURN_NONE;
}

static PyMethodDef cuda_compile_methods[] = {
    {"cuda_compile", (PyCFunction)(void (*)(void))cuda_compile_py, METH_VARARGS | METH_KEYWORDS,
     "cuda_compile(pyfunc, argtypes, device=False, options=None, restype=None) -> dict"},
    {"cuda_clear_device_cache", cuda_clear_device_cache, METH_NOARGS,
     "forget the compiled device functions"},
    {NULL},
};

int cj_cuda_init(PyObject *module) {
    devfn_cache = PyDict_New();
    if (devfn_cache == NULL) {
        return -1;
    }
    return PyModule_AddFunctions(module, cuda_compile_methods);
}
