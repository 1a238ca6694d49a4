/* lower_objmode.c: the call a `with objmode()` block became. Each input is stored in a slot
 * of its C layout (boxing.c's), the runtime's call (env->objmode_call) gets the site, the
 * slots and an output slot, and its status propagates like a callee's: a Python exception
 * the block raised leaves the function as CJ_EXC_PYTHON. */
#include "lower/lower_internal.h"

static LLVMValueRef const_pointer(cj_lower *L, const void *p, LLVMTypeRef to) {
    LLVMValueRef addr = LLVMConstInt(LLVMInt64TypeInContext(L->ctx),
                                     (unsigned long long)(uintptr_t)p, 0);
    return LLVMConstIntToPtr(addr, to);
}

LLVMValueRef cj_lower_objmode_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    cj_lower_env *env = L->env;
    if (env->objmode_site == NULL || env->objmode_call == NULL) {
        PyErr_SetString(cj_LoweringError, "with objmode() blocks need the CPU target");
        return NULL;
    }
    void *site;
    if (env->objmode_site(env, (PyObject *)call->callee, call->argtypes, call->nargs,
                          in->rtype, &site) < 0) {
        return NULL;
    }
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef slots_t = LLVMArrayType(i8p, (unsigned)(call->nargs > 0 ? call->nargs : 1));
    LLVMValueRef slots = cj_entry_alloca(L, slots_t, "objmode_in");
    for (int i = 0; i < call->nargs; i++) {
        LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, call->argtypes[i]),
                                            "objmode_arg");
        LLVMBuildStore(L->b, cj_load_var(L, call->args[i]), slot);
        LLVMValueRef idx[2] = {LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned)i, 0)};
        LLVMValueRef at = LLVMBuildGEP2(L->b, slots_t, slots, idx, 2, "");
        LLVMBuildStore(L->b, LLVMBuildBitCast(L->b, slot, i8p, ""), at);
    }
    LLVMTypeRef out_t = cj_llvm_type(L->ctx, in->rtype);
    LLVMValueRef out = cj_entry_alloca(L, out_t, "objmode_out");
    LLVMTypeRef params[3] = {i8p, LLVMPointerType(i8p, 0), i8p};
    LLVMTypeRef fn_t = LLVMFunctionType(i32, params, 3, 0);
    LLVMValueRef args[3] = {
        const_pointer(L, site, i8p),
        LLVMBuildBitCast(L->b, slots, LLVMPointerType(i8p, 0), ""),
        LLVMBuildBitCast(L->b, out, i8p, ""),
    };
    LLVMValueRef fn = const_pointer(L, (const void *)(uintptr_t)env->objmode_call,
                                    LLVMPointerType(fn_t, 0));
    LLVMValueRef status = LLVMBuildCall2(L->b, fn_t, fn, args, 3, "objmode_status");
    cj_emit_check_status(L, status);
    return LLVMBuildLoad2(L->b, out_t, out, "objmode_result");
}
