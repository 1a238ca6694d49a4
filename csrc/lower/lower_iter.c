/* lower_iter.c: iterators as pointers to a state struct in the entry block.
 *   range:     {cur, stop, step}
 *   array:     {array, index}   yields elements (1-d) or row views
 *   tuple:     {tuple, index}   homogeneous tuples only
 *   enumerate: {counter (a range state), inner}
 *   zip:       {inner...}       stops at the first exhausted inner iterator
 *   a.flat, np.ndenumerate(a), np.ndindex(shape):
 *              {array or shape tuple, flat index, coordinates, the element's byte offset}
 *              in C order
 * len(range) is counted here too (cj_range_len); a.flat[i] reads and writes by flat index.
 * cj_emit_for_each_item is the one emitted loop over an iterable's items that methods
 * taking an iterable (set.update, list.extend, a set's sum/min/max) share. */
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
    case CJ_ITER_LIST:
    case CJ_ITER_UNICODE:
    case CJ_ITER_GENERATOR:
        if (cj_hold(L, v, vt) < 0) { /* the loop may drop the array from its variable */
            return -1;
        }
        LLVMBuildStore(L->b, v, field(L, st, state, 0));
        LLVMBuildStore(L->b, cj_i64(L, 0), field(L, st, state, 1));
        return 0;
    case CJ_ITER_DICT_KEYS: /* lower_dict.c */
    case CJ_ITER_DICT_VALUES:
    case CJ_ITER_DICT_ITEMS:
    case CJ_ITER_SET: /* a set is a dict (abi/set.h) */
        return cj_dict_iter_init(L, state, v, vt);
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
    if (ct->kind == CJ_LIST) { /* lower_list.c */
        return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, yield),
                              cj_list_item_ptr(L, container, ct, index), "");
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
    LLVMValueRef len = ct->kind == CJ_ARRAY  ? cj_array_dim(L, container, CJ_ARR_SHAPE, 0)
                       : ct->kind == CJ_LIST ? cj_list_len(L, container) /* it may grow */
                                             : cj_i64(L, ct->n);
    *ok = LLVMBuildICmp(B, LLVMIntSLT, index, len, "more");
    LLVMBuildStore(B, LLVMBuildAdd(B, index, cj_i64(L, 1), ""), field(L, st, state, 1));
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, it->yield), "next");
    /* exhausted, the loop's variable still takes this value: none, not junk (an array or a
     * list item holds references that storing it counts) */
    LLVMBuildStore(B, LLVMConstNull(cj_llvm_type(L->ctx, it->yield)), slot);
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

/* ---- a.flat, np.ndenumerate, np.ndindex: a flat index and its coordinates ---- */

static int index_iter_ndim(const cj_type *it) {
    return it->iter_kind == CJ_ITER_NDINDEX ? it->source->n : it->source->ndim;
}

/* The length of dimension d of the iterated array or shape tuple `src`. */
static LLVMValueRef extent(cj_lower *L, LLVMValueRef src, const cj_type *it, int d) {
    return it->iter_kind == CJ_ITER_NDINDEX ? LLVMBuildExtractValue(L->b, src, (unsigned)d, "")
                                            : cj_array_dim(L, src, CJ_ARR_SHAPE, d);
}

static LLVMValueRef count_of(cj_lower *L, LLVMValueRef src, const cj_type *it) {
    LLVMValueRef n = cj_i64(L, 1);
    for (int d = 0; d < index_iter_ndim(it); d++) {
        n = LLVMBuildMul(L->b, n, extent(L, src, it, d), "");
    }
    return n;
}

/* A new state at index 0 over `src` (an array is held: the loop may drop its variable). */
static LLVMValueRef index_iter_state(cj_lower *L, const cj_type *it, LLVMValueRef src) {
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef state = cj_entry_alloca(L, st, "iter");
    if (it->iter_kind != CJ_ITER_NDINDEX && cj_hold(L, src, it->source) < 0) {
        return NULL;
    }
    LLVMBuildStore(L->b, src, field(L, st, state, 0));
    LLVMBuildStore(L->b, cj_i64(L, 0), field(L, st, state, 1));
    LLVMBuildStore(L->b, LLVMConstNull(LLVMArrayType(i64, (unsigned)index_iter_ndim(it))),
                   field(L, st, state, 2));
    LLVMBuildStore(L->b, cj_i64(L, 0), field(L, st, state, 3));
    return state;
}

LLVMValueRef cj_lower_flat(cj_lower *L, LLVMValueRef arr, const cj_type *it) {
    return index_iter_state(L, it, arr);
}

/* np.ndindex's shape: its int arguments, or the items of its one tuple argument. */
static LLVMValueRef ndindex_shape(cj_lower *L, const cj_call *call, const cj_type *shape_t) {
    const cj_type *first = call->nargs > 0 ? CJ_VAR(L->ir, call->args[0])->type : NULL;
    int from_tuple = first != NULL && first->kind == CJ_TUPLE;
    LLVMValueRef tuple = from_tuple ? cj_load_var(L, call->args[0]) : NULL;
    LLVMValueRef shape = LLVMConstNull(cj_llvm_type(L->ctx, shape_t));
    LLVMValueRef negative = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
    for (int d = 0; d < shape_t->n; d++) {
        LLVMValueRef v = from_tuple ? LLVMBuildExtractValue(L->b, tuple, (unsigned)d, "")
                                    : cj_load_var(L, call->args[d]);
        const cj_type *t = from_tuple ? first->items[d] : CJ_VAR(L->ir, call->args[d])->type;
        v = cj_cast(L, v, t, cj_t_int64);
        negative = LLVMBuildOr(L->b, negative,
                               LLVMBuildICmp(L->b, LLVMIntSLT, v, cj_i64(L, 0), ""), "");
        shape = LLVMBuildInsertValue(L->b, shape, v, (unsigned)d, "");
    }
    cj_emit_raise_if(L, negative, CJ_EXC_NEGATIVE_DIM); /* NumPy's ValueError */
    return shape;
}

/* enumerate(x[, start]) / zip(a, b, ...): the iterator state, filled from the arguments. */
static LLVMValueRef make_enumerate_zip(cj_lower *L, const cj_type *it, const cj_call *call) {
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it);
    LLVMValueRef state = cj_entry_alloca(L, st, "iter");
    int first = 0;
    if (it->iter_kind == CJ_ITER_ENUMERATE) {
        LLVMValueRef counter = LLVMBuildStructGEP2(L->b, st, state, 0, "");
        LLVMTypeRef ct = cj_iter_state_type(L->ctx, it->items[0]);
        LLVMValueRef start = cj_i64(L, 0);
        if (call->nargs == 2) {
            start = cj_cast(L, cj_load_var(L, call->args[1]), CJ_VAR(L->ir, call->args[1])->type,
                            cj_t_int64);
        }
        LLVMBuildStore(L->b, start, LLVMBuildStructGEP2(L->b, ct, counter, 0, ""));
        LLVMBuildStore(L->b, cj_i64(L, INT64_MAX), LLVMBuildStructGEP2(L->b, ct, counter, 1, ""));
        LLVMBuildStore(L->b, cj_i64(L, 1), LLVMBuildStructGEP2(L->b, ct, counter, 2, ""));
        first = 1;
    }
    int nsrc = it->iter_kind == CJ_ITER_ENUMERATE ? 1 : call->nargs;
    for (int i = 0; i < nsrc; i++) {
        LLVMValueRef inner = LLVMBuildStructGEP2(L->b, st, state, (unsigned)(first + i), "");
        if (cj_iter_init(L, inner, cj_load_var(L, call->args[i]),
                         CJ_VAR(L->ir, call->args[i])->type, it->items[first + i]) < 0) {
            return NULL;
        }
    }
    return state;
}

LLVMValueRef cj_lower_make_iterator(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *it = in->rtype;
    switch (it->iter_kind) {
    case CJ_ITER_NDENUMERATE:
        return index_iter_state(L, it, cj_load_var(L, call->args[0]));
    case CJ_ITER_NDINDEX:
        return index_iter_state(L, it, ndindex_shape(L, call, it->source));
    default:
        return make_enumerate_zip(L, it, call);
    }
}

/* The address (an i8*) of the element at byte `offset` of array `arr`; for a C-contiguous
 * array the flat `index` times the item size (the offset's updates then fold away). */
static LLVMValueRef element_at(cj_lower *L, LLVMValueRef arr, const cj_type *at,
                               LLVMValueRef index, LLVMValueRef offset) {
    if (at->layout == 'C') {
        offset = LLVMBuildMul(L->b, index, cj_i64(L, (long long)cj_abi_size(at->dtype)), "");
    }
    return LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), cj_array_bytes(L, arr), &offset, 1,
                         "");
}

/* The coordinates after `coords` in C order: the last one counts, carrying leftwards; *offset
 * moves with them (one stride forward, or back to the dimension's start when it wraps). */
static LLVMValueRef next_coords(cj_lower *L, LLVMValueRef src, const cj_type *it,
                                LLVMValueRef coords, LLVMValueRef *offset) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef carry = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
    for (int d = index_iter_ndim(it) - 1; d >= 0; d--) {
        LLVMValueRef c = LLVMBuildExtractValue(B, coords, (unsigned)d, "");
        LLVMValueRef up = LLVMBuildAdd(B, c, LLVMBuildZExt(B, carry, LLVMTypeOf(c), ""), "");
        LLVMValueRef wrap = LLVMBuildICmp(B, LLVMIntEQ, up, extent(L, src, it, d), "");
        coords = LLVMBuildInsertValue(B, coords, LLVMBuildSelect(B, wrap, cj_i64(L, 0), up, ""),
                                      (unsigned)d, "");
        if (it->iter_kind != CJ_ITER_NDINDEX) {
            LLVMValueRef stride = cj_array_dim(L, src, CJ_ARR_STRIDES, d);
            LLVMValueRef back = LLVMBuildMul(B, c, stride, ""); /* to coordinate 0 */
            LLVMValueRef step = LLVMBuildSelect(B, wrap, LLVMBuildNeg(B, back, ""), stride, "");
            step = LLVMBuildSelect(B, carry, step, cj_i64(L, 0), "");
            *offset = LLVMBuildAdd(B, *offset, step, "");
        }
        carry = LLVMBuildAnd(B, carry, wrap, "");
    }
    return coords;
}

/* Stores the coordinates and offset after (coords, offset) into the state. Most steps only
 * move along the last axis: that is a branch of its own, the carry chain the other one. */
static void advance(cj_lower *L, LLVMValueRef state, const cj_type *it, LLVMValueRef src,
                    LLVMValueRef coords, LLVMValueRef offset) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it);
    int last = index_iter_ndim(it) - 1;
    LLVMBasicBlockRef carry = cj_new_bb(L, "coords_carry"), moved = cj_new_bb(L, "coords_moved");
    if (last >= 0) {
        LLVMBasicBlockRef along = cj_new_bb(L, "coords_along");
        LLVMValueRef up = LLVMBuildAdd(B, LLVMBuildExtractValue(B, coords, (unsigned)last, ""),
                                       cj_i64(L, 1), "");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, up, extent(L, src, it, last), ""), along,
                        carry);
        LLVMPositionBuilderAtEnd(B, along);
        LLVMBuildStore(B, LLVMBuildInsertValue(B, coords, up, (unsigned)last, ""),
                       field(L, st, state, 2));
        if (it->iter_kind != CJ_ITER_NDINDEX) {
            LLVMBuildStore(B, LLVMBuildAdd(B, offset, cj_array_dim(L, src, CJ_ARR_STRIDES, last),
                                           ""), field(L, st, state, 3));
        }
        LLVMBuildBr(B, moved);
    } else {
        LLVMBuildBr(B, carry);
    }
    LLVMPositionBuilderAtEnd(B, carry);
    LLVMBuildStore(B, next_coords(L, src, it, coords, &offset), field(L, st, state, 2));
    LLVMBuildStore(B, offset, field(L, st, state, 3));
    LLVMBuildBr(B, moved);
    LLVMPositionBuilderAtEnd(B, moved);
}

/* What a step yields at (index, coords, offset): the element, the index tuple, or both. */
static LLVMValueRef index_item(cj_lower *L, LLVMValueRef src, const cj_type *it,
                               LLVMValueRef index, LLVMValueRef coords, LLVMValueRef offset) {
    const cj_type *tuple_t = it->iter_kind == CJ_ITER_NDENUMERATE ? it->yield->items[0]
                                                                  : it->yield;
    LLVMValueRef tuple = LLVMConstNull(cj_llvm_type(L->ctx, tuple_t));
    for (int d = 0; it->iter_kind != CJ_ITER_FLAT && d < index_iter_ndim(it); d++) {
        tuple = LLVMBuildInsertValue(L->b, tuple, LLVMBuildExtractValue(L->b, coords, (unsigned)d,
                                                                        ""), (unsigned)d, "");
    }
    if (it->iter_kind == CJ_ITER_NDINDEX) {
        return tuple;
    }
    LLVMValueRef v = cj_load_element(L, element_at(L, src, it->source, index, offset),
                                     it->source->dtype);
    if (it->iter_kind == CJ_ITER_FLAT) {
        return v;
    }
    LLVMValueRef pair = LLVMConstNull(cj_llvm_type(L->ctx, it->yield));
    pair = LLVMBuildInsertValue(L->b, pair, tuple, 0, "");
    return LLVMBuildInsertValue(L->b, pair, v, 1, "");
}

static LLVMValueRef index_next(cj_lower *L, LLVMValueRef state, const cj_type *it,
                               LLVMValueRef *ok) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef st = cj_iter_state_type(L->ctx, it), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef coords_t = LLVMArrayType(i64, (unsigned)index_iter_ndim(it));
    LLVMValueRef src = LLVMBuildLoad2(B, cj_llvm_type(L->ctx, it->source), field(L, st, state, 0),
                                      "");
    LLVMValueRef index = LLVMBuildLoad2(B, i64, field(L, st, state, 1), "index");
    *ok = LLVMBuildICmp(B, LLVMIntSLT, index, count_of(L, src, it), "more");
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, it->yield), "next");
    /* exhausted, the loop's variable still takes this value: none, not junk (an array or a
     * list item holds references that storing it counts) */
    LLVMBuildStore(B, LLVMConstNull(cj_llvm_type(L->ctx, it->yield)), slot);
    LLVMBasicBlockRef load = cj_new_bb(L, "iter_load"), done = cj_new_bb(L, "iter_done");
    LLVMBuildCondBr(B, *ok, load, done);
    LLVMPositionBuilderAtEnd(B, load); /* no read past the end */
    LLVMValueRef coords = LLVMBuildLoad2(B, coords_t, field(L, st, state, 2), "coords");
    LLVMValueRef offset = LLVMBuildLoad2(B, i64, field(L, st, state, 3), "offset");
    LLVMBuildStore(B, index_item(L, src, it, index, coords, offset), slot);
    LLVMBuildStore(B, LLVMBuildAdd(B, index, cj_i64(L, 1), ""), field(L, st, state, 1));
    advance(L, state, it, src, coords, offset);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return LLVMBuildLoad2(B, cj_llvm_type(L->ctx, it->yield), slot, "item");
}

/* ---- a.flat[i], a.flat[i] = v, len(a.flat) ---- */

static LLVMValueRef flat_array(cj_lower *L, LLVMValueRef state, const cj_type *it) {
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, it->source),
                          field(L, cj_iter_state_type(L->ctx, it), state, 0), "");
}

LLVMValueRef cj_flat_len(cj_lower *L, LLVMValueRef state, const cj_type *it) {
    return cj_array_size(L, flat_array(L, state, it), it->source);
}

/* The address of the element at flat index i (NumPy's: negative counts from the end; out of
 * range is an IndexError, checked always, as NumPy does). Other layouts than C unravel i. */
static LLVMValueRef flat_element(cj_lower *L, LLVMValueRef state, const cj_type *it,
                                 LLVMValueRef i, const cj_type *index_t) {
    LLVMBuilderRef B = L->b;
    const cj_type *at = it->source;
    LLVMValueRef arr = flat_array(L, state, it), size = cj_array_size(L, arr, at);
    i = cj_cast(L, i, index_t, cj_t_int64);
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, i, cj_i64(L, 0), ""),
                        LLVMBuildAdd(B, i, size, ""), i, "flat");
    cj_emit_raise_if(L, LLVMBuildICmp(B, LLVMIntUGE, i, size, ""), CJ_EXC_INDEX);
    LLVMValueRef offset = cj_i64(L, 0), rest = i;
    for (int d = at->ndim - 1; d >= 0 && at->layout != 'C'; d--) { /* unravel i */
        LLVMValueRef dim = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        LLVMValueRef c = LLVMBuildURem(B, rest, dim, "");
        cj_ub_proof(c, "divisor: a dimension of an array whose size exceeds the index (>= 1)");
        rest = LLVMBuildUDiv(B, rest, dim, "");
        cj_ub_proof(rest, "divisor: a dimension of an array whose size exceeds the index");
        offset = LLVMBuildAdd(B, offset,
                              LLVMBuildMul(B, c, cj_array_dim(L, arr, CJ_ARR_STRIDES, d), ""), "");
    }
    return element_at(L, arr, at, i, offset);
}

LLVMValueRef cj_flat_getitem(cj_lower *L, LLVMValueRef state, const cj_type *it,
                             LLVMValueRef i, const cj_type *index_t) {
    return cj_load_element(L, flat_element(L, state, it, i, index_t), it->yield);
}

int cj_flat_setitem(cj_lower *L, LLVMValueRef state, const cj_type *it, LLVMValueRef i,
                    const cj_type *index_t, LLVMValueRef v, const cj_type *vt) {
    LLVMValueRef value = cj_cast(L, v, vt, it->yield);
    if (value == NULL) {
        return -1;
    }
    cj_store_element(L, flat_element(L, state, it, i, index_t), value, it->yield);
    return 0;
}

LLVMValueRef cj_lower_iternext(cj_lower *L, LLVMValueRef state, const cj_type *it,
                               LLVMValueRef *ok) {
    switch (it->iter_kind) {
    case CJ_ITER_RANGE:
        return range_next(L, state, it, ok);
    case CJ_ITER_ARRAY:
    case CJ_ITER_TUPLE:
    case CJ_ITER_LIST:
        return sequence_next(L, state, it, ok);
    case CJ_ITER_UNICODE:
        return cj_str_iter_next(L, state, it, ok); /* lower_str.c */
    case CJ_ITER_ENUMERATE:
    case CJ_ITER_ZIP:
        return compound_next(L, state, it, ok);
    case CJ_ITER_FLAT:
    case CJ_ITER_NDENUMERATE:
    case CJ_ITER_NDINDEX:
        return index_next(L, state, it, ok);
    case CJ_ITER_DICT_KEYS: /* lower_dict.c */
    case CJ_ITER_DICT_VALUES:
    case CJ_ITER_DICT_ITEMS:
    case CJ_ITER_SET:
        return cj_dict_iter_next(L, state, it, ok);
    case CJ_ITER_GENERATOR:
        return cj_gen_iter_next(L, state, it, ok); /* lower_generator.c */
    }
    return NULL;
}

int cj_emit_for_each_item(cj_lower *L, LLVMValueRef v, const cj_type *vt, const cj_type *it,
                          cj_item_fn fn, void *ctx) {
    LLVMValueRef state = cj_lower_getiter(L, v, vt, it);
    if (state == NULL) {
        return -1;
    }
    LLVMBasicBlockRef head = cj_new_bb(L, "each"), body = cj_new_bb(L, "each_body"),
                      done = cj_new_bb(L, "each_done");
    LLVMBuildBr(L->b, head);
    LLVMPositionBuilderAtEnd(L->b, head);
    LLVMValueRef ok, item = cj_lower_iternext(L, state, it, &ok);
    if (item == NULL) {
        return -1;
    }
    LLVMBuildCondBr(L->b, ok, body, done);
    LLVMPositionBuilderAtEnd(L->b, body);
    fn(L, item, it->yield, ctx);
    LLVMBuildBr(L->b, head);
    LLVMPositionBuilderAtEnd(L->b, done);
    return 0;
}
