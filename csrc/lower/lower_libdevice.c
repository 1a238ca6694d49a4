/* lower_libdevice.c: calls of libdevice functions (cujit.cuda.libdevice, typed by
 * typing/cuda_libdevice.c) as calls of __nv_<name> with libdevice's LLVM types: each argument
 * cast to its declared type, each out-parameter a pointer to an entry-block alloca whose value
 * is read back after the call; the result is the C return value and those values, as a tuple
 * when there are several (numba-cuda's rule). NVVM links libdevice when the module declares
 * __nv_* functions (target/nvvm.c). */
#include "lower/lower_internal.h"

#include <ctype.h>
#include <string.h>

#include "typing/cuda_intrinsics.h"

LLVMValueRef cj_cuda_lower_libdevice(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_libdevice_fn *fn = call->callee;
    LLVMTypeRef params[CJ_LIBDEVICE_MAX_PARAMS];
    LLVMValueRef args[CJ_LIBDEVICE_MAX_PARAMS], outs[CJ_LIBDEVICE_MAX_PARAMS];
    LLVMTypeRef out_types[CJ_LIBDEVICE_MAX_PARAMS];
    unsigned n = (unsigned)strlen(fn->sig) - 1;
    int nout = 0, k = 0;
    for (unsigned i = 0; i < n; i++) {
        char code = fn->sig[1 + i];
        const cj_type *t = cj_libdevice_type(code);
        LLVMTypeRef lt = cj_llvm_type(L->ctx, t);
        if (isupper((unsigned char)code)) {
            out_types[nout] = lt;
            outs[nout] = cj_entry_alloca(L, lt, "libdevice.out");
            args[i] = outs[nout++];
            params[i] = LLVMPointerType(lt, 0);
        } else {
            int var = call->args[k++];
            args[i] = cj_cast(L, cj_load_var(L, var), CJ_VAR(L->ir, var)->type, t);
            params[i] = lt;
        }
    }
    int has_ret = fn->sig[0] != 'v';
    LLVMTypeRef rt = has_ret ? cj_llvm_type(L->ctx, cj_libdevice_type(fn->sig[0]))
                             : LLVMVoidTypeInContext(L->ctx);
    LLVMValueRef f = cj_runtime_fn(L, fn->cname, rt, params, n);
    LLVMValueRef r = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(f)), f, args, n, "");
    if (nout == 0) {
        return r;
    }
    LLVMValueRef items[CJ_LIBDEVICE_MAX_PARAMS + 1];
    int nitems = 0;
    if (has_ret) {
        items[nitems++] = r;
    }
    for (int i = 0; i < nout; i++) {
        items[nitems++] = LLVMBuildLoad2(L->b, out_types[i], outs[i], "");
    }
    if (nitems == 1) {
        return items[0];
    }
    LLVMValueRef tuple = LLVMGetUndef(cj_llvm_type(L->ctx, in->rtype));
    for (int i = 0; i < nitems; i++) {
        tuple = LLVMBuildInsertValue(L->b, tuple, items[i], (unsigned)i, "");
    }
    return tuple;
}
