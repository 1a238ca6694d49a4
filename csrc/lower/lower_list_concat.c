/* lower_list_concat.c: the list operators typing/list_ops.c flagged CJ_F_LIST_OP, one
 * CJ_CALL_LIST record each: l1 + l2 and l * n (new lists), l += other and l *= n (the same
 * list, grown in place; its length read once, so l += l and l *= 2 double it as Python's),
 * and the comparisons (item by item until two differ, then by length, as Python's). */
#include "lower/lower_internal.h"

static LLVMValueRef item(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef i) {
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, lt->dtype),
                          cj_list_item_ptr(L, list, lt, i), "");
}

typedef struct appending {
    LLVMValueRef dst, src, n;
    const cj_type *dt, *st;
} appending;

static void append_one(cj_lower *L, LLVMValueRef i, void *ctx) {
    appending *a = ctx;
    cj_list_append(L, a->dst, a->dt, item(L, a->src, a->st, i), a->st->dtype);
}

/* dst gets src[0:n] appended (each item holding its own references). */
static void append_items(cj_lower *L, appending *a) {
    cj_list_reserve_more(L, a->dst, a->n);
    cj_emit_for(L, a->n, append_one, a);
}

static void append_round(cj_lower *L, LLVMValueRef k, void *ctx) {
    (void)k;
    append_items(L, ctx);
}

/* n >= 1 rounds of appending; none when the source is empty (so [] * 10**18 is quick). */
static void append_rounds(cj_lower *L, appending *a, LLVMValueRef rounds) {
    LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntEQ, a->n, cj_i64(L, 0), "");
    rounds = LLVMBuildSelect(L->b, empty, cj_i64(L, 0), rounds, "");
    cj_emit_for(L, rounds, append_round, a);
}

static LLVMValueRef operand_list(cj_lower *L, const cj_call *call, int i) {
    return cj_load_var(L, call->args[i]);
}

static LLVMValueRef count_of(cj_lower *L, const cj_call *call) {
    return cj_cast(L, cj_load_var(L, call->args[1]), call->argtypes[1], cj_t_int64);
}

static void drop_one(cj_lower *L, LLVMValueRef i, void *ctx) {
    appending *a = ctx;
    cj_decref(L, item(L, a->dst, a->dt, i), a->dt->dtype);
}

/* l *= n: n - 1 more rounds of l's first len(l) items; n <= 0 empties it. */
static void repeat_in_place(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef n) {
    appending a = {.dst = list, .src = list, .n = cj_list_len(L, list), .dt = lt, .st = lt};
    LLVMBasicBlockRef clear = cj_new_bb(L, "imul_clear"), grow = cj_new_bb(L, "imul_grow"),
                      done = cj_new_bb(L, "imul_done");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLE, n, cj_i64(L, 0), ""), clear, grow);
    LLVMPositionBuilderAtEnd(L->b, clear);
    if (cj_counts_refs(L, lt->dtype)) {
        cj_emit_for(L, a.n, drop_one, &a);
    }
    cj_list_set_len(L, list, cj_i64(L, 0));
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, grow);
    append_rounds(L, &a, LLVMBuildSub(L->b, n, cj_i64(L, 1), ""));
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

/* A new list of the result type holding a's items then b's (l1 + l2), or a's n times. */
static LLVMValueRef new_list_of(cj_lower *L, const cj_instr *in, const cj_call *call) {
    const cj_type *rt = in->rtype, *at = call->argtypes[0];
    LLVMValueRef dst = cj_list_new_empty(L, rt);
    if (dst == NULL) {
        return NULL;
    }
    appending a = {.dst = dst, .src = operand_list(L, call, 0), .dt = rt, .st = at};
    a.n = cj_list_len(L, a.src);
    if (call->builtin == CJ_LIST_REPEAT) {
        append_rounds(L, &a, count_of(L, call));
        return dst;
    }
    append_items(L, &a);
    a.src = operand_list(L, call, 1);
    a.st = call->argtypes[1];
    a.n = cj_list_len(L, a.src);
    append_items(L, &a);
    return dst;
}

/* The first index below n where a and b differ, or n: a loop that stops there. */
static LLVMValueRef first_difference(cj_lower *L, LLVMValueRef a, const cj_type *at,
                                     LLVMValueRef b, const cj_type *bt, LLVMValueRef n) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBasicBlockRef before = LLVMGetInsertBlock(B), head = cj_new_bb(L, "cmp"),
                      body = cj_new_bb(L, "cmp_body"), done = cj_new_bb(L, "cmp_done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef ne = cj_lower_compare(L, CJ_NE, item(L, a, at, i), at->dtype,
                                       item(L, b, bt, i), bt->dtype, NULL);
    LLVMValueRef next = LLVMBuildAdd(B, i, cj_i64(L, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, ne, done, head);
    LLVMValueRef in_v[2] = {cj_i64(L, 0), next};
    LLVMBasicBlockRef in_b[2] = {before, latch};
    LLVMAddIncoming(i, in_v, in_b, 2);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef at_diff = LLVMBuildPhi(B, i64, "diff");
    LLVMValueRef out_v[2] = {n, i};
    LLVMBasicBlockRef out_b[2] = {head, latch};
    LLVMAddIncoming(at_diff, out_v, out_b, 2);
    return at_diff;
}

/* l1 <op> l2: the first differing items decide, else the lengths (Python's order). */
LLVMValueRef cj_list_compare(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                             LLVMValueRef b, const cj_type *bt) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef na = cj_list_len(L, a), nb = cj_list_len(L, b);
    LLVMValueRef n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, na, nb, ""), na, nb, "");
    LLVMValueRef d = first_difference(L, a, at, b, bt, n);
    LLVMBasicBlockRef differ = cj_new_bb(L, "cmp_items"), same = cj_new_bb(L, "cmp_lengths"),
                      done = cj_new_bb(L, "cmp_result");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, d, n, ""), differ, same);
    LLVMPositionBuilderAtEnd(B, differ);
    LLVMValueRef by_item = cj_lower_compare(L, op, item(L, a, at, d), at->dtype,
                                            item(L, b, bt, d), bt->dtype, NULL);
    LLVMBasicBlockRef differ_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, same);
    static const LLVMIntPredicate preds[] = {[CJ_LT] = LLVMIntSLT, [CJ_LE] = LLVMIntSLE,
                                             [CJ_EQ] = LLVMIntEQ,  [CJ_NE] = LLVMIntNE,
                                             [CJ_GT] = LLVMIntSGT, [CJ_GE] = LLVMIntSGE};
    LLVMValueRef by_length = LLVMBuildICmp(B, preds[op], na, nb, "");
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef r = LLVMBuildPhi(B, LLVMInt1TypeInContext(L->ctx), "");
    LLVMValueRef vals[2] = {by_item, by_length};
    LLVMBasicBlockRef blocks[2] = {differ_end, same};
    LLVMAddIncoming(r, vals, blocks, 2);
    return r;
}

int cj_lower_list_operator(cj_lower *L, cj_instr *in) {
    const cj_call *call = in->resolved;
    if (call == NULL || call->kind != CJ_CALL_LIST) {
        PyErr_SetString(cj_LoweringError, "cujit internal error: a list operator untyped");
        return -1;
    }
    LLVMValueRef r;
    switch (call->builtin) {
    case CJ_LIST_CONCAT:
    case CJ_LIST_REPEAT:
        r = new_list_of(L, in, call);
        return r == NULL ? -1 : cj_store_var_taking(L, in->dst, r, in->rtype);
    case CJ_LIST_IADD: {
        appending a = {.dst = operand_list(L, call, 0), .src = operand_list(L, call, 1),
                       .dt = call->argtypes[0], .st = call->argtypes[1]};
        a.n = cj_list_len(L, a.src);
        append_items(L, &a);
        return cj_store_var(L, in->dst, a.dst, in->rtype);
    }
    case CJ_LIST_IMUL:
        r = operand_list(L, call, 0);
        repeat_in_place(L, r, call->argtypes[0], count_of(L, call));
        return cj_store_var(L, in->dst, r, in->rtype);
    default:
        return cj_store_var(L, in->dst,
                            cj_list_compare(L, in->sub, operand_list(L, call, 0), call->argtypes[0],
                                            operand_list(L, call, 1), call->argtypes[1]),
                            in->rtype);
    }
}
