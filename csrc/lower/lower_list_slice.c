/* lower_list_slice.c: l[a:b:c] = other and del l[a:b:c] (typed by typing/lists.c), over
 * abi/list_slice.c: the slice resolved against the list's length as slice.indices() does,
 * then one run-time call; CPython's ValueError for an extended slice given a wrong number of
 * items (its text names no sizes here: the message is a constant). */
#include "lower/lower_internal.h"

static LLVMValueRef runtime_call(cj_lower *L, const char *name, LLVMTypeRef ret,
                                 LLVMValueRef *args, unsigned n) {
    LLVMTypeRef params[5];
    for (unsigned i = 0; i < n; i++) {
        params[i] = LLVMTypeOf(args[i]);
    }
    LLVMValueRef fn = cj_runtime_fn(L, name, ret, params, n);
    return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, n, "");
}

int cj_list_assign_slice_lower(cj_lower *L, LLVMValueRef list, LLVMValueRef sl,
                               LLVMValueRef src) {
    LLVMValueRef start, step, n;
    cj_slice_indices(L, sl, cj_list_len(L, list), &start, &step, &n);
    LLVMValueRef args[5] = {list, start, step, n, src};
    LLVMValueRef rc = runtime_call(L, "cj_list_assign_slice", LLVMInt32TypeInContext(L->ctx),
                                   args, 5);
    LLVMValueRef minus2 = LLVMConstInt(LLVMTypeOf(rc), (unsigned long long)-2, 1);
    if (cj_emit_raise_text_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, rc, minus2, ""),
                              PyExc_ValueError, "attempt to assign sequence of another size "
                                                "to extended slice") < 0) {
        return -1;
    }
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, rc, LLVMConstNull(LLVMTypeOf(rc)), ""),
                     CJ_EXC_MEMORY);
    return 0;
}

void cj_list_delete_slice_lower(cj_lower *L, LLVMValueRef list, LLVMValueRef sl) {
    LLVMValueRef start, step, n;
    cj_slice_indices(L, sl, cj_list_len(L, list), &start, &step, &n);
    LLVMValueRef args[4] = {list, start, step, n};
    runtime_call(L, "cj_list_delete_slice", LLVMVoidTypeInContext(L->ctx), args, 4);
}
