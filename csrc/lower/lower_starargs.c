/* lower_starargs.c: the argument slots of a jitted call that are no plain variable
 * (typing/starargs.c): item k of the tuple of a call g(*t) (CJ_ARG_STAR_ITEM, t the call's
 * last argument), and the *args tuple a call packs (CJ_ARG_PACKED) of the slots recorded
 * after the call's arguments, each converted to its item type. Items' references stay with
 * their variables (a callee borrows its arguments). */
#include "lower/lower_internal.h"

/* The value of slot v (a variable or a star item) of call `in`, converted to `to`. */
static LLVMValueRef slot_value(cj_lower *L, const cj_instr *in, int v, const cj_type *to) {
    if (v >= 0) {
        return cj_cast(L, cj_load_var(L, v), CJ_VAR(L->ir, v)->type, to);
    }
    int tuple = in->args[in->nargs - 1];
    const cj_type *tt = CJ_VAR(L->ir, tuple)->type;
    int k = CJ_ARG_STAR_INDEX(v);
    LLVMValueRef item = LLVMBuildExtractValue(L->b, cj_load_var(L, tuple), (unsigned)k, "");
    return cj_cast(L, item, tt->items[k], to);
}

LLVMValueRef cj_lower_star_slot(cj_lower *L, const cj_instr *in, const cj_call *call, int i) {
    const cj_type *t = call->argtypes[i];
    if (call->args[i] != CJ_ARG_PACKED) {
        return slot_value(L, in, call->args[i], t);
    }
    LLVMValueRef r = t->n == 0 ? LLVMConstNull(cj_llvm_type(L->ctx, t))
                               : LLVMGetUndef(cj_llvm_type(L->ctx, t));
    for (int k = 0; k < t->n; k++) {
        LLVMValueRef item = slot_value(L, in, call->args[call->nargs + k], t->items[k]);
        if (item == NULL) {
            return NULL;
        }
        r = LLVMBuildInsertValue(L->b, r, item, (unsigned)k, "");
    }
    return r;
}
