/* lower_tuple.c: the tuple operations typing/tuples.c and infer.c typed beyond indexing: a
 * slice by constants (the items it picks, in a new tuple value), `x in t` and t.index(x) (x ==
 * each item that compares with it, by cj_lower_compare's one comparison per type) and sum(t)
 * (the additions of CPython's sum, each by the binop rule of its operands). A tuple value is an LLVM struct
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

/* x == t[i] as an i1: false for an item of a kind that does not compare with x; NULL + error. */
static LLVMValueRef item_equals(cj_lower *L, LLVMValueRef x, const cj_type *xt,
                                LLVMValueRef tup, const cj_type *tt, int i) {
    const cj_type *optype;
    if (cj_rule_compare(CJ_EQ, xt, tt->items[i], &optype) == NULL) {
        return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
    }
    return cj_lower_compare(L, CJ_EQ, x, xt, LLVMBuildExtractValue(L->b, tup, (unsigned)i, ""),
                            tt->items[i], optype);
}

LLVMValueRef cj_lower_tuple_contains(cj_lower *L, const cj_instr *in) {
    const cj_type *xt = CJ_VAR(L->ir, in->args[0])->type, *tt = CJ_VAR(L->ir, in->args[1])->type;
    LLVMValueRef x = cj_load_var(L, in->args[0]), tup = cj_load_var(L, in->args[1]);
    LLVMValueRef found = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
    for (int i = 0; found != NULL && i < tt->n; i++) {
        LLVMValueRef eq = item_equals(L, x, xt, tup, tt, i);
        found = eq != NULL ? LLVMBuildOr(L->b, found, eq, "") : NULL;
    }
    return found == NULL ? NULL : in->sub == CJ_NOTIN ? LLVMBuildNot(L->b, found, "") : found;
}

/* t.index(x): the first i with x == t[i] (the items compared from the last, each match taking
 * the place of a later one); ValueError with CPython's text when none is. */
LLVMValueRef cj_lower_tuple_index(cj_lower *L, const cj_call *call, LLVMValueRef tup,
                                  const cj_type *tt) {
    const cj_type *xt = CJ_VAR(L->ir, call->args[0])->type;
    LLVMValueRef x = cj_load_var(L, call->args[0]), at = cj_i64(L, -1);
    for (int i = tt->n - 1; at != NULL && i >= 0; i--) {
        LLVMValueRef eq = item_equals(L, x, xt, tup, tt, i);
        at = eq != NULL ? LLVMBuildSelect(L->b, eq, cj_i64(L, i), at, "") : NULL;
    }
    if (at == NULL) {
        return NULL;
    }
    LLVMValueRef missing = LLVMBuildICmp(L->b, LLVMIntSLT, at, cj_i64(L, 0), "");
    if (cj_emit_raise_text_if(L, missing, PyExc_ValueError,
                              "tuple.index(x): x not in tuple") < 0) {
        return NULL;
    }
    return at;
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
