/* lower_tuple.c: the tuple operations typing/tuples.c and infer.c typed beyond indexing: a
 * slice by constants (the items it picks, in a new tuple value), `x in t` (x == each item that
 * compares with it, by cj_lower_compare's one comparison per type) and sum(t) (the additions
 * of CPython's sum, each by the binop rule of its operands). A tuple value is an LLVM struct
 * of its items; the items read here are borrowed, and stored results take their own
 * references (cj_store_var). */
#include "lower/lower_internal.h"

LLVMValueRef cj_lower_tuple_slice(cj_lower *L, const cj_instr *in) {
    const int *picked = in->resolved; /* start, step (typing/tuples.c) */
    const cj_type *rt = in->rtype;
    LLVMValueRef tup = cj_load_var(L, in->args[0]);
    LLVMValueRef r = rt->n == 0 ? LLVMConstNull(cj_llvm_type(L->ctx, rt))
                                : LLVMGetUndef(cj_llvm_type(L->ctx, rt));
    for (int k = 0; k < rt->n; k++) {
        unsigned i = (unsigned)(picked[0] + k * picked[1]);
        r = LLVMBuildInsertValue(L->b, r, LLVMBuildExtractValue(L->b, tup, i, ""), (unsigned)k,
                                 "");
    }
    return r;
}

LLVMValueRef cj_lower_tuple_contains(cj_lower *L, const cj_instr *in) {
    const cj_type *xt = CJ_VAR(L->ir, in->args[0])->type, *tt = CJ_VAR(L->ir, in->args[1])->type;
    LLVMValueRef x = cj_load_var(L, in->args[0]), tup = cj_load_var(L, in->args[1]);
    LLVMValueRef found = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
    for (int i = 0; i < tt->n; i++) {
        const cj_type *optype;
        if (cj_rule_compare(CJ_EQ, xt, tt->items[i], &optype) == NULL) {
            continue; /* an item of another kind: unequal */
        }
        LLVMValueRef eq = cj_lower_compare(L, CJ_EQ, x, xt,
                                           LLVMBuildExtractValue(L->b, tup, (unsigned)i, ""),
                                           tt->items[i], optype);
        if (eq == NULL) {
            return NULL;
        }
        found = LLVMBuildOr(L->b, found, eq, "");
    }
    return in->sub == CJ_NOTIN ? LLVMBuildNot(L->b, found, "") : found;
}

LLVMValueRef cj_lower_tuple_sum(cj_lower *L, const cj_instr *in, const cj_call *call) {
    const cj_type *tt = CJ_VAR(L->ir, call->args[0])->type;
    const cj_type *acct = call->nargs == 2 ? CJ_VAR(L->ir, call->args[1])->type : cj_t_int64;
    LLVMValueRef tup = cj_load_var(L, call->args[0]);
    LLVMValueRef acc = call->nargs == 2 ? cj_load_var(L, call->args[1]) : cj_i64(L, 0);
    for (int i = 0; acc != NULL && i < tt->n; i++) {
        const cj_type *optype;
        const cj_type *r = cj_rule_binop(CJ_ADD, acct, tt->items[i], &optype);
        if (r == NULL) {
            CJ_UNREACHABLE("sum() typing let through");
            return NULL;
        }
        acc = cj_lower_binop(L, CJ_ADD, acc, acct,
                             LLVMBuildExtractValue(L->b, tup, (unsigned)i, ""), tt->items[i],
                             optype, r);
        acct = r;
    }
    return acc != NULL ? cj_cast(L, acc, acct, in->rtype) : NULL;
}
