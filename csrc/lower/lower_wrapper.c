/* lower_wrapper.c: the entry the CPU dispatcher calls, around a compiled function:
 *     i32 @<name>(i8* ret, i8** args)
 * It loads each argument from its slot, calls `i32 @f(ret*, args...)` and returns the status
 * (0, or an exception id). */
#include "lower/lower.h"

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
    return w;
}
