/* lower_wrapper.c: the entry the CPU dispatcher calls, around a compiled function:
 *     i32 @<name>(i8* ret, i8** args)
 * It loads each argument from its slot, calls `i32 @f(ret*, args...)` and returns the status
 * (0, or an exception id). An extension type's slot holds its Python object, unboxed here by
 * the user's unbox, and its result slot gets the object the user's box makes
 * (lower_extension.c), and after the call its reflect runs; a failing unbox, reflect or box
 * returns CJ_EXC_PYTHON. An extension type whose
 * values hold arrays does not cross: the wrapper returns an UnsupportedError's id. */
#include "lower/lower_extension.h"

/* Returns CJ_EXC_PYTHON when `failed` (an i1), else goes on in a new block. */
static void return_if(LLVMContextRef ctx, LLVMBuilderRef b, LLVMValueRef w, LLVMValueRef failed) {
    LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(ctx, w, "ext_failed");
    LLVMBasicBlockRef good = LLVMAppendBasicBlockInContext(ctx, w, "ext_ok");
    LLVMBuildCondBr(b, failed, bad, good);
    LLVMPositionBuilderAtEnd(b, bad);
    LLVMBuildRet(b, LLVMConstInt(LLVMInt32TypeInContext(ctx), CJ_EXC_PYTHON, 0));
    LLVMPositionBuilderAtEnd(b, good);
}

static int refuse_nested(const cj_type *t) {
    if (cj_type_nests_extension(t)) {
        PyErr_Format(cj_UnsupportedError, "%s: extension types inside tuples or lists cannot "
                     "be passed to or returned from a jitted function yet", t->name);
        return -1;
    }
    return 0;
}

/* The argument in slot `p` (i8*) of type `t`; NULL + exception. */
static LLVMValueRef load_arg(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef w,
                             const cj_type *t, LLVMValueRef p) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    if (refuse_nested(t) < 0) {
        return NULL;
    }
    if (t->kind != CJ_EXT) {
        LLVMTypeRef at = cj_llvm_type(ctx, t);
        return LLVMBuildLoad2(b, at, LLVMBuildBitCast(b, p, LLVMPointerType(at, 0), ""), "arg");
    }
    LLVMValueRef obj = LLVMBuildLoad2(b, i8p, LLVMBuildBitCast(b, p, LLVMPointerType(i8p, 0),
                                                               ""), "obj");
    LLVMValueRef failed;
    LLVMValueRef v = cj_ext_unbox(mod, b, w, t, obj, &failed);
    if (v != NULL) {
        return_if(ctx, b, w, failed);
    }
    return v;
}

/* Boxes the extension result in `tmp` into the slot `slot` (i8*); -1 + exception. */
static int box_result(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef w, const cj_type *ret,
                      LLVMValueRef tmp, LLVMValueRef slot) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMValueRef v = LLVMBuildLoad2(b, cj_llvm_type(ctx, ret), tmp, "result");
    LLVMValueRef obj = cj_ext_box(mod, b, w, ret, v);
    if (obj == NULL) {
        return -1;
    }
    return_if(ctx, b, w, LLVMBuildIsNull(b, obj, ""));
    LLVMBuildStore(b, obj, LLVMBuildBitCast(b, slot, LLVMPointerType(i8p, 0), ""));
    return 0;
}

/* After the call, each extension argument's reflect (numba's reflect_native_value); one
 * that sets its error flag returns CJ_EXC_PYTHON (its Python exception). -1 + exception. */
static int reflect_args(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef w,
                        const cj_type *const *argtypes, int nargs, LLVMValueRef *values) {
    for (int i = 0; i < nargs; i++) {
        if (argtypes[i]->kind != CJ_EXT) {
            continue;
        }
        LLVMValueRef failed = cj_ext_reflect(mod, b, w, argtypes[i], values[i]);
        if (failed == NULL) {
            return -1;
        }
        if (!LLVMIsConstant(failed) || LLVMConstIntGetZExtValue(failed) != 0) {
            return_if(LLVMGetModuleContext(mod), b, w, failed);
        }
    }
    return 0;
}

/* An extension type of the signature whose values hold arrays (a StructModel member), or
 * NULL: such values live in compiled code only (no unbox or box makes or takes arrays). */
static const cj_type *counted_extension(const cj_type *const *argtypes, int nargs,
                                        const cj_type *ret) {
    for (int i = -1; i < nargs; i++) {
        const cj_type *t = i < 0 ? ret : argtypes[i];
        if (t->kind == CJ_EXT && cj_type_has_refs(t)) {
            return t;
        }
    }
    return NULL;
}

/* The body of a wrapper that refuses the call (its code is still called by other compiled
 * code, directly): returns the id of an UnsupportedError naming `t`; -1 + exception. */
static int refusing_body(LLVMContextRef ctx, LLVMBuilderRef b, const cj_type *t) {
    PyObject *msg = PyUnicode_FromFormat("extension type %s holds arrays: its values can be "
                                         "made and used in compiled code, not passed in from "
                                         "or returned to Python", t->name);
    PyObject *exc = msg ? PyObject_CallOneArg(cj_UnsupportedError, msg) : NULL;
    int id = exc ? cj_exc_register(exc) : -1;
    Py_XDECREF(msg);
    Py_XDECREF(exc);
    if (id >= 0) {
        LLVMBuildRet(b, LLVMConstInt(LLVMInt32TypeInContext(ctx), (unsigned long long)id, 0));
    }
    return id < 0 ? -1 : 0;
}

LLVMValueRef cj_lower_wrapper(LLVMModuleRef mod, LLVMValueRef fn, const cj_type *const *argtypes,
                              int nargs, const cj_type *ret, const char *name) {
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMTypeRef params[2] = {i8p, LLVMPointerType(i8p, 0)};
    LLVMTypeRef ft = LLVMFunctionType(LLVMInt32TypeInContext(ctx), params, 2, 0);
    LLVMValueRef w = LLVMAddFunction(mod, name, ft);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, "entry"));
    LLVMValueRef call_args[CJ_MAX_ARGS + 1];
    LLVMTypeRef rt = cj_llvm_type(ctx, ret);
    call_args[0] = ret->kind == CJ_EXT ? LLVMBuildAlloca(b, rt, "ext_ret")
                                       : LLVMBuildBitCast(b, LLVMGetParam(w, 0),
                                                          LLVMPointerType(rt, 0), "ret");
    const cj_type *counted = counted_extension(argtypes, nargs, ret);
    if (counted != NULL) {
        int rc = refusing_body(ctx, b, counted);
        LLVMDisposeBuilder(b);
        return rc < 0 ? NULL : w;
    }
    int ok = refuse_nested(ret) == 0;
    for (int i = 0; ok && i < nargs; i++) {
        LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(ctx), (unsigned long long)i, 0);
        LLVMValueRef slot = LLVMBuildGEP2(b, i8p, LLVMGetParam(w, 1), &idx, 1, "");
        call_args[i + 1] = load_arg(mod, b, w, argtypes[i], LLVMBuildLoad2(b, i8p, slot, ""));
        ok = call_args[i + 1] != NULL;
    }
    LLVMValueRef status = NULL;
    if (ok) {
        status = LLVMBuildCall2(b, LLVMGetElementType(LLVMTypeOf(fn)), fn, call_args,
                                (unsigned)nargs + 1, "status");
        ok = reflect_args(mod, b, w, argtypes, nargs, call_args + 1) == 0;
    }
    if (ok) {
        if (ret->kind == CJ_EXT) {
            LLVMValueRef zero = LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0);
            LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(ctx, w, "failed");
            LLVMBasicBlockRef good = LLVMAppendBasicBlockInContext(ctx, w, "done");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, status, zero, ""), bad, good);
            LLVMPositionBuilderAtEnd(b, bad);
            LLVMBuildRet(b, status);
            LLVMPositionBuilderAtEnd(b, good);
            ok = box_result(mod, b, w, ret, call_args[0], LLVMGetParam(w, 0)) == 0;
            status = zero;
        }
        if (ok) {
            LLVMBuildRet(b, status);
        }
    }
    LLVMDisposeBuilder(b);
    return ok ? w : NULL;
}
