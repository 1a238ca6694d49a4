/* lower_iter.c: iterators as pointers to a state struct in the entry block.
 *   range:     {cur, stop, step}
 *   array:     {array, index}   yields elements (1-d) or row views
 *   tuple:     {tuple, index}   homogeneous tuples only
 *   enumerate: {counter (a range state), inner}
 *   zip:       {inner...}       stops at the first exhausted inner iterator
 * len(range) is counted here too (cj_range_len). */
#include "lower/lower_internal.h"

/* len(range): CPython's count, in unsigned arithmetic so no int64 end overflows:
 * (|stop - start| - 1) / |step| + 1 when the range is not empty (step != 0: checked).
 * A count past int64 is CPython's OverflowError under error_model='python'; under 'numpy'
 * it wraps, as numba's never raises. */
LLVMValueRef cj_range_len(cj_lower *L, LLVMValueRef v) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef start = LLVMBuildExtractValue(B, v, 0, ""), stop = LLVMBuildExtractValue(B, v, 1, "");
    LLVMValueRef step = LLVMBuildExtractValue(B, v, 2, "");
    LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntSGT, step, cj_i64(L, 0), "");
    LLVMValueRef more = LLVMBuildSelect(B, pos, LLVMBuildICmp(B, LLVMIntSLT, start, stop, ""),
                                        LLVMBuildICmp(B, LLVMIntSGT, start, stop, ""), "");
    LLVMValueRef dist = LLVMBuildSelect(B, pos, LLVMBuildSub(B, stop, start, ""),
                                        LLVMBuildSub(B, start, stop, ""), "");
    LLVMValueRef mag = LLVMBuildSelect(B, pos, step, LLVMBuildSub(B, cj_i64(L, 0), step, ""), "");
    mag = LLVMBuildSelect(B, more, mag, cj_i64(L, 1), ""); /* never a division by 0 */
    LLVMValueRef q = LLVMBuildUDiv(B, LLVMBuildSub(B, dist, cj_i64(L, 1), ""), mag, "");
    cj_ub_proof(q, "divisor: |step| of a non-empty range, else 1");
    LLVMValueRef n = LLVMBuildAdd(B, q, cj_i64(L, 1), "");
    n = LLVMBuildSelect(B, more, n, cj_i64(L, 0), "len");
    if (L->env->error_model == CJ_ERRORS_PYTHON) {
        cj_emit_raise_if(L, LLVMBuildICmp(B, LLVMIntSLT, n, cj_i64(L, 0), ""), CJ_EXC_SSIZE_RANGE);
    }
    return n;
}

static LLVMValueRef field(cj_lower *L, LLVMTypeRef st, LLVMValueRef state, int i) {
    return LLVMBuildStructGEP2(L->b, st, state, (unsigned)i, "");
}

int cj_iter_init(cj_lower *L, LLVMValueRef state, LLVMValueRef v, const cj_type *vt,
                 const cj_type *it) {
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it);
    if (vt->kind == CJ_ITER) { /* an iterator made by enumerate()/zip(): copy its state */
        LLVMBuildStore(L->b, LLVMBuildLoad2(L->b, st, v, ""), state);
        return 0;
    }
    switch (it->iter_kind) {
    case CJ_ITER_RANGE:
        for (int i = 0; i < 3; i++) {
            LLVMBuildStore(L->b, LLVMBuildExtractValue(L->b, v, (unsigned)i, ""),
                           field(L, st, state, i));
        }
        return 0;
    case CJ_ITER_ARRAY:
    case CJ_ITER_TUPLE:
        if (cj_hold(L, v, vt) < 0) { /* the loop may drop the array from its variable */
            return -1;
        }
        LLVMBuildStore(L->b, v, field(L, st, state, 0));
        LLVMBuildStore(L->b, cj_i64(L, 0), field(L, st, state, 1));
        return 0;
    default:
        return 0; /* enumerate/zip states are made by their call */
    }
}

LLVMValueRef cj_lower_getiter(cj_lower *L, LLVMValueRef v, const cj_type *vt,
                              const cj_type *it) {
    if (vt->kind == CJ_ITER) {
        return v; /* iter(iterator) is the iterator itself */
    }
    LLVMValueRef state = cj_entry_alloca(L, cj_iter_state_type(L->ctx, it), "iter");
    return cj_iter_init(L, state, v, vt, it) < 0 ? NULL : state;
}

/* A range of step 1 (range(n), range(a, b), enumerate's counter): `cur + 1` is an nsw add,
 * since cur < stop <= INT64_MAX while the range has items. LLVM then reads the loop index as a
 * non-wrapping induction variable: a negative-index check on it folds away and addresses
 * become pointer increments. (Once exhausted, a range is not advanced by its for loop again;
 * only a zip/enumerate object iterated a second time would read a range ended at INT64_MAX.) */
static LLVMValueRef range_next_step_one(cj_lower *L, LLVMValueRef state, const cj_type *it,
                                        LLVMValueRef *ok) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef cur = LLVMBuildLoad2(B, i64, field(L, st, state, 0), "cur");
    LLVMValueRef stop = LLVMBuildLoad2(B, i64, field(L, st, state, 1), "stop");
    *ok = LLVMBuildICmp(B, LLVMIntSLT, cur, stop, "more");
    LLVMValueRef next = LLVMBuildNSWAdd(B, cur, cj_i64(L, 1), "");
    cj_ub_proof(next, "position: at most a length (< 2**62), plus 1");
    LLVMBuildStore(B, next, field(L, st, state, 0));
    return cur;
}

static LLVMValueRef range_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                               LLVMValueRef *ok) {
    if (it->step_one) {
        return range_next_step_one(L, state, it, ok);
    }
    LLVMBuilderRef B = L->b;
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef cur = LLVMBuildLoad2(B, i64, field(L, st, state, 0), "cur");
    LLVMValueRef stop = LLVMBuildLoad2(B, i64, field(L, st, state, 1), "stop");
    LLVMValueRef step = LLVMBuildLoad2(B, i64, field(L, st, state, 2), "step");
    LLVMValueRef up = LLVMBuildICmp(B, LLVMIntSGT, step, cj_i64(L, 0), "");
    *ok = LLVMBuildSelect(B, up, LLVMBuildICmp(B, LLVMIntSLT, cur, stop, ""),
                          LLVMBuildICmp(B, LLVMIntSGT, cur, stop, ""), "more");
    /* cur + step may pass an int64 end (range(a, b, 2**62)): when the distance to stop, as
     * unsigned, is at most |step|, this is the last item and the range goes to stop */
    LLVMValueRef dist = LLVMBuildSelect(B, up, LLVMBuildSub(B, stop, cur, ""),
                                        LLVMBuildSub(B, cur, stop, ""), "");
    LLVMValueRef mag = LLVMBuildSelect(B, up, step, LLVMBuildSub(B, cj_i64(L, 0), step, ""), "");
    LLVMValueRef last = LLVMBuildICmp(B, LLVMIntULE, dist, mag, "last");
    LLVMBuildStore(B, LLVMBuildSelect(B, last, stop, LLVMBuildAdd(B, cur, step, ""), ""),
                   field(L, st, state, 0));
    return cur;
}

/* The element at `index` of an array (an element or a row view) or tuple. */
static LLVMValueRef item_at(cj_lower *L, LLVMValueRef container, const cj_type *ct,
                            LLVMValueRef index, const cj_type *yield) {
    if (ct->kind == CJ_ARRAY) {
        return cj_array_getitem(L, container, ct, index, cj_t_int64, yield);
    }
    LLVMTypeRef item_t = cj_llvm_type(L->ctx, ct->items[0]);
    LLVMTypeRef arr_t = LLVMArrayType(item_t, (unsigned)ct->n);
    LLVMValueRef mem = cj_entry_alloca(L, arr_t, "tuple");
    LLVMBuildStore(L->b, container,
                   LLVMBuildBitCast(L->b, mem, LLVMPointerType(LLVMTypeOf(container), 0), ""));
    LLVMValueRef idx[2] = {cj_i64(L, 0), index};
    LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, arr_t, mem, idx, 2, "");
    cj_ub_proof(p, "index: the iterator's position, below the tuple's length");
    return LLVMBuildLoad2(L->b, item_t, p, "");
}

/* array/tuple: the load happens only while index < length (no read past the end). */
static LLVMValueRef sequence_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                                  LLVMValueRef *ok) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it), i64 = LLVMInt64TypeInContext(L->ctx);
    const cj_type *ct = it->source;
    LLVMValueRef container = LLVMBuildLoad2(B, cj_llvm_type(L->ctx, ct), field(L, st, state, 0), "");
    LLVMValueRef index = LLVMBuildLoad2(B, i64, field(L, st, state, 1), "index");
    LLVMValueRef len = ct->kind == CJ_ARRAY ? cj_array_dim(L, container, CJ_ARR_SHAPE, 0)
                                            : cj_i64(L, ct->n);
    *ok = LLVMBuildICmp(B, LLVMIntSLT, index, len, "more");
    LLVMBuildStore(B, LLVMBuildAdd(B, index, cj_i64(L, 1), ""), field(L, st, state, 1));
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, it->yield), "next");
    LLVMBasicBlockRef load = cj_new_bb(L, "iter_load"), done = cj_new_bb(L, "iter_done");
    LLVMBuildCondBr(B, *ok, load, done);
    LLVMPositionBuilderAtEnd(B, load);
    LLVMValueRef v = item_at(L, container, ct, index, it->yield);
    if (v == NULL) {
        return NULL;
    }
    LLVMBuildStore(B, v, slot);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return LLVMBuildLoad2(B, cj_llvm_type(L->ctx, it->yield), slot, "item");
}

static LLVMValueRef compound_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                                  LLVMValueRef *ok) {
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it);
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, it->yield));
    *ok = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
    for (int i = 0; i < it->n; i++) {
        LLVMValueRef inner_ok;
        LLVMValueRef v = cj_lower_iternext(L, field(L, st, state, i), it->items[i], &inner_ok);
        if (v == NULL) {
            return NULL;
        }
        *ok = LLVMBuildAnd(L->b, *ok, inner_ok, "");
        r = LLVMBuildInsertValue(L->b, r, v, (unsigned)i, "");
    }
    return r;
}

LLVMValueRef cj_lower_iternext(cj_lower *L, LLVMValueRef state, const cj_type *it,
                               LLVMValueRef *ok) {
    switch (it->iter_kind) {
    case CJ_ITER_RANGE:
        return range_next(L, state, it, ok);
    case CJ_ITER_ARRAY:
    case CJ_ITER_TUPLE:
        return sequence_next(L, state, it, ok);
    case CJ_ITER_ENUMERATE:
    case CJ_ITER_ZIP:
        return compound_next(L, state, it, ok);
    }
    return NULL;
}
