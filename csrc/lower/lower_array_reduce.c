/* lower_array_reduce.c: whole-array reductions to a number, a.sum() / np.sum(a) and prod, min,
 * max, mean, any, all, var, std, argmin, argmax, nansum, nanprod, nanmean, nanmin, nanmax,
 * count_nonzero (numba's result types, typing/array_reduce.c; NumPy's values: min/max and
 * argmin/argmax propagate NaN, the first NaN winning; the nan* forms skip NaN; complex
 * numbers compare real parts first; an empty min/max/argmin/argmax is NumPy's ValueError).
 * Elements are visited in C order by nested loops over any strides (cj_array_for_each), accumulating in a slot; cj_reduce_step is one
 * step, shared with the reductions along an axis (lower_reduce_axis.c). Under parallel=True a
 * big array's sum/mean/prod/min/max/argmin/argmax/any/all/count_nonzero (and nansum, nanprod,
 * nanmin, nanmax) run by rows on the thread pool (lower_pool.c), a partial per chunk (argmin/
 * argmax: the winner and its flat index) combined in chunk order. */
#include "lower/lower_internal.h"

typedef struct reduction {
    int id;                  /* the builtin: CJ_B_NP_SUM ... */
    const cj_type *dtype;    /* the array's */
    const cj_type *acc_type; /* what the slot holds */
    LLVMValueRef slot;
    LLVMValueRef index, best; /* argmin/argmax: the element's flat index, the winner's */
    LLVMValueRef count;       /* nanmean: the elements that are not NaN */
    LLVMValueRef mean;        /* var/std's second pass: the mean (acc_type of NANMEAN) */
} reduction;

static LLVMValueRef is_nan(cj_lower *L, LLVMValueRef x) {
    return LLVMBuildFCmp(L->b, LLVMRealUNO, x, x, "");
}

/* Whether a number of type t is NaN (a complex when either part is); false for integers. */
static LLVMValueRef value_is_nan(cj_lower *L, LLVMValueRef x, const cj_type *t) {
    if (t->kind == CJ_FLOAT) {
        return is_nan(L, x);
    }
    if (t->kind == CJ_COMPLEX) {
        LLVMValueRef im;
        LLVMValueRef re = cj_complex_parts(L, x, &im);
        return LLVMBuildOr(L->b, is_nan(L, re), is_nan(L, im), "");
    }
    return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
}

static int is_extreme(int id) {
    return (id >= CJ_B_NP_MIN && id <= CJ_B_NP_AMAX) || id == CJ_B_NP_NANMIN ||
           id == CJ_B_NP_NANMAX || id == CJ_B_NP_ARGMIN || id == CJ_B_NP_ARGMAX;
}

static int wants_min(int id) {
    return id == CJ_B_NP_MIN || id == CJ_B_NP_AMIN || id == CJ_B_NP_ARGMIN ||
           id == CJ_B_NP_NANMIN;
}

/* x < acc (x > acc for max) of complex numbers: NumPy's order, the real parts first. */
static LLVMValueRef complex_before(cj_lower *L, int want_min, LLVMValueRef x, LLVMValueRef acc) {
    LLVMValueRef xi, ai;
    LLVMValueRef xr = cj_complex_parts(L, x, &xi), ar = cj_complex_parts(L, acc, &ai);
    LLVMRealPredicate p = want_min ? LLVMRealOLT : LLVMRealOGT;
    LLVMValueRef tie = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOEQ, xr, ar, ""),
                                    LLVMBuildFCmp(L->b, p, xi, ai, ""), "");
    return LLVMBuildOr(L->b, LLVMBuildFCmp(L->b, p, xr, ar, ""), tie, "");
}

/* Whether x replaces acc in min/max (argmin/argmax, nanmin/nanmax): smaller (larger), or a NaN
 * when acc is none (min/max: the first NaN propagates), or acc is NaN (nanmin/nanmax: NaN gives
 * way). */
static LLVMValueRef wins(cj_lower *L, int id, const cj_type *t, LLVMValueRef acc,
                         LLVMValueRef x) {
    if (t->kind == CJ_BOOL) { /* False < True */
        LLVMValueRef a = wants_min(id) ? acc : x, b = wants_min(id) ? x : acc;
        return LLVMBuildAnd(L->b, a, LLVMBuildNot(L->b, b, ""), "");
    }
    LLVMValueRef w = t->kind == CJ_COMPLEX
                         ? complex_before(L, wants_min(id), x, acc)
                         : cj_lower_compare(L, wants_min(id) ? CJ_LT : CJ_GT, x, t, acc, t, t);
    if (t->kind != CJ_FLOAT && t->kind != CJ_COMPLEX) {
        return w;
    }
    if (id == CJ_B_NP_NANMIN || id == CJ_B_NP_NANMAX) { /* a complex NaN may compare less */
        w = LLVMBuildOr(L->b, w, value_is_nan(L, acc, t), "");
        return LLVMBuildAnd(L->b, w, LLVMBuildNot(L->b, value_is_nan(L, x, t), ""), "");
    }
    w = LLVMBuildOr(L->b, w, value_is_nan(L, x, t), "");
    return LLVMBuildAnd(L->b, w, LLVMBuildNot(L->b, value_is_nan(L, acc, t), ""), "");
}

LLVMValueRef cj_reduce_step(cj_lower *L, int id, const cj_type *dtype, const cj_type *acc_type,
                            LLVMValueRef acc, LLVMValueRef x) {
    switch (id) {
    case CJ_B_NP_ANY:
        return LLVMBuildOr(L->b, acc, cj_truth(L, x, dtype), "");
    case CJ_B_NP_ALL:
        return LLVMBuildAnd(L->b, acc, cj_truth(L, x, dtype), "");
    case CJ_B_NP_COUNT_NONZERO:
        return LLVMBuildAdd(L->b, acc, LLVMBuildZExt(L->b, cj_truth(L, x, dtype),
                                                     LLVMTypeOf(acc), ""), "");
    case CJ_B_NP_MIN:
    case CJ_B_NP_AMIN:
    case CJ_B_NP_MAX:
    case CJ_B_NP_AMAX:
    case CJ_B_NP_NANMIN:
    case CJ_B_NP_NANMAX:
        return LLVMBuildSelect(L->b, wins(L, id, dtype, acc, x), x, acc, "");
    default: { /* sum, mean (a sum first), prod and their nan* forms (NaN counts as 0 or 1) */
        int mul = id == CJ_B_NP_PROD || id == CJ_B_NP_NANPROD;
        LLVMValueRef v = cj_cast(L, x, dtype, acc_type);
        LLVMValueRef next = cj_lower_binop(L, mul ? CJ_MUL : CJ_ADD, acc, acc_type, v,
                                           acc_type, acc_type, acc_type);
        if (id == CJ_B_NP_NANSUM || id == CJ_B_NP_NANPROD || id == CJ_B_NP_NANMEAN) {
            next = LLVMBuildSelect(L->b, value_is_nan(L, x, dtype), acc, next, "");
        }
        return next;
    }
    }
}

static LLVMValueRef load(cj_lower *L, const cj_type *t, LLVMValueRef slot) {
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, t), slot, "");
}

static void bump(cj_lower *L, LLVMValueRef slot, LLVMValueRef by) {
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, load(L, cj_t_int64, slot), by, ""), slot);
}

/* min/max (nanmin/nanmax, argmin/argmax: the winner's index too; a NaN winner stays, the
 * first NaN). A branch, not selects: a new winner is rare, and selects chain every element to
 * the one before (argmin of 4M float64: 17 ms with selects, 2.7 ms so). */
static void extreme_step(cj_lower *L, reduction *r, LLVMValueRef x) {
    LLVMValueRef acc = load(L, r->acc_type, r->slot);
    LLVMValueRef i = r->index ? load(L, cj_t_int64, r->index) : NULL;
    LLVMValueRef w = wins(L, r->id, r->dtype, acc, x);
    LLVMBasicBlockRef take = cj_new_bb(L, "new_winner"), next = cj_new_bb(L, "next");
    LLVMValueRef expect = LLVMGetNamedFunction(L->mod, "llvm.expect.i1");
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx), params[2] = {i1, i1};
    LLVMTypeRef ft = LLVMFunctionType(i1, params, 2, 0);
    if (expect == NULL) {
        expect = LLVMAddFunction(L->mod, "llvm.expect.i1", ft);
    }
    LLVMValueRef args[2] = {w, LLVMConstInt(i1, 0, 0)};
    LLVMBuildCondBr(L->b, LLVMBuildCall2(L->b, ft, expect, args, 2, ""), take, next);
    LLVMPositionBuilderAtEnd(L->b, take);
    LLVMBuildStore(L->b, x, r->slot);
    if (i != NULL) {
        LLVMBuildStore(L->b, i, r->best);
    }
    LLVMBuildBr(L->b, next);
    LLVMPositionBuilderAtEnd(L->b, next);
    if (i != NULL) {
        bump(L, r->index, cj_i64(L, 1));
    }
}

/* var/std's second pass: |x - mean|**2 summed in float64. */
static LLVMValueRef squared_deviation(cj_lower *L, const reduction *r, LLVMValueRef x) {
    const cj_type *mt = cj_reduce_result(CJ_B_NP_NANMEAN, r->dtype);
    LLVMValueRef d = cj_lower_binop(L, CJ_SUB, cj_cast(L, x, r->dtype, mt), mt, r->mean, mt,
                                    mt, mt);
    if (mt->kind != CJ_COMPLEX) {
        return LLVMBuildFMul(L->b, d, d, "");
    }
    LLVMValueRef im;
    LLVMValueRef re = cj_complex_parts(L, d, &im);
    return LLVMBuildFAdd(L->b, LLVMBuildFMul(L->b, re, re, ""), LLVMBuildFMul(L->b, im, im, ""),
                         "");
}

static void reduce_element(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    reduction *r = ctx;
    LLVMValueRef x = cj_load_element(L, ptr, r->dtype);
    if (r->index != NULL || (r->mean == NULL && is_extreme(r->id))) {
        extreme_step(L, r, x);
        return;
    }
    LLVMValueRef acc = load(L, r->acc_type, r->slot), next;
    if (r->mean != NULL) {
        next = LLVMBuildFAdd(L->b, acc, squared_deviation(L, r, x), "");
    } else {
        next = cj_reduce_step(L, r->id, r->dtype, r->acc_type, acc, x);
    }
    LLVMBuildStore(L->b, next, r->slot);
    if (r->count != NULL) {
        bump(L, r->count, LLVMBuildZExt(L->b, LLVMBuildNot(L->b, value_is_nan(L, x, r->dtype),
                                                           ""), cj_llvm_type(L->ctx, cj_t_int64), ""));
    }
}

/* NumPy's error for an empty min/max/argmin/argmax. */
static void raise_if_empty(cj_lower *L, int id, LLVMValueRef n) {
    int exc = id == CJ_B_NP_ARGMIN   ? CJ_EXC_EMPTY_ARGMIN
              : id == CJ_B_NP_ARGMAX ? CJ_EXC_EMPTY_ARGMAX
              : id == CJ_B_NP_NANMIN ? CJ_EXC_EMPTY_FMIN
              : id == CJ_B_NP_NANMAX ? CJ_EXC_EMPTY_FMAX
              : wants_min(id)        ? CJ_EXC_EMPTY_MIN
                                     : CJ_EXC_EMPTY_MAX;
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, n, cj_i64(L, 0), ""), exc);
}

/* The slot's first value: 0, 1, False, True, or the first element (min/max, after raising
 * NumPy's error for an empty array). */
static LLVMValueRef initial(cj_lower *L, const reduction *r, LLVMValueRef arr,
                            const cj_type *at) {
    switch (r->id) {
    case CJ_B_NP_PROD:
    case CJ_B_NP_NANPROD:
        return cj_cast(L, cj_i64(L, 1), cj_t_int64, r->acc_type);
    case CJ_B_NP_ALL:
        return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
    case CJ_B_NP_MIN:
    case CJ_B_NP_AMIN:
    case CJ_B_NP_MAX:
    case CJ_B_NP_AMAX:
    case CJ_B_NP_NANMIN:
    case CJ_B_NP_NANMAX:
    case CJ_B_NP_ARGMIN:
    case CJ_B_NP_ARGMAX:
        raise_if_empty(L, r->id, cj_array_size(L, arr, at));
        return cj_load_element(L, cj_array_bytes(L, arr), r->dtype);
    default:
        return LLVMConstNull(cj_llvm_type(L->ctx, r->acc_type));
    }
}

static LLVMValueRef new_slot(cj_lower *L, const cj_type *t, LLVMValueRef value) {
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, t), "reduction");
    LLVMBuildStore(L->b, value, slot);
    return slot;
}

/* sum / n in the type of the sum (float or complex): NaN for n == 0, as NumPy's. */
static LLVMValueRef divide(cj_lower *L, LLVMValueRef sum, const cj_type *t, LLVMValueRef n) {
    const cj_type *part = t->kind == CJ_COMPLEX ? cj_complex_part(t) : t;
    LLVMValueRef d = cj_cast(L, n, cj_t_int64, part);
    if (t->kind != CJ_COMPLEX) {
        return LLVMBuildFDiv(L->b, sum, d, "");
    }
    LLVMValueRef im;
    LLVMValueRef re = cj_complex_parts(L, sum, &im);
    return cj_make_complex(L, t, LLVMBuildFDiv(L->b, re, d, ""), LLVMBuildFDiv(L->b, im, d, ""));
}

/* ---- on the thread pool (parallel=True): a partial per chunk of rows, then combined ---- */

/* The step that folds one chunk's partial into another (the same as an element's, but a sum
 * of partials adds them all and a count adds counts); -1 when the pool cannot split it. */
static int combine_id(const reduction *r) {
    if (r->count != NULL || r->mean != NULL) {
        return -1; /* nanmean, var/std's second pass */
    }
    switch (r->id) {
    case CJ_B_NP_SUM:
    case CJ_B_NP_MEAN:
    case CJ_B_NP_NANSUM:
    case CJ_B_NP_COUNT_NONZERO:
        return CJ_B_NP_SUM;
    case CJ_B_NP_PROD:
    case CJ_B_NP_NANPROD:
        return CJ_B_NP_PROD;
    default:
        return is_extreme(r->id) || r->id == CJ_B_NP_ANY || r->id == CJ_B_NP_ALL ? r->id : -1;
    }
}

typedef struct split {
    const reduction *r;
    const cj_type *at;
    cj_pool_partials partials;
} split;

/* A chunk: rows [start, stop) of the array (extra[0]) reduced into the chunk's partial. */
static int chunk_partial(cj_lower *B, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef *extra,
                         void *arg) {
    const split *s = arg;
    const cj_type *at = s->at;
    const cj_type *vt = cj_type_array(at->dtype, at->ndim, 'A', at->readonly);
    if (vt == NULL) {
        return -1;
    }
    LLVMValueRef arr = LLVMBuildLoad2(B->b, cj_llvm_type(B->ctx, at), extra[0], "");
    LLVMValueRef shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    for (int d = 0; d < at->ndim; d++) {
        shape[d] = cj_array_dim(B, arr, CJ_ARR_SHAPE, d);
        strides[d] = cj_array_dim(B, arr, CJ_ARR_STRIDES, d);
    }
    shape[0] = LLVMBuildSub(B->b, stop, start, "rows");
    LLVMValueRef rows = cj_array_view(B, arr, LLVMBuildMul(B->b, start, strides[0], ""),
                                      at->ndim, shape, strides, vt);
    reduction r = {.id = s->r->id, .dtype = s->r->dtype, .acc_type = s->r->acc_type};
    r.slot = new_slot(B, r.acc_type, initial(B, &r, rows, vt)); /* a chunk has elements */
    if (s->r->index != NULL) { /* flat indices go on from the chunk's first row */
        LLVMValueRef first = start;
        for (int d = 1; d < at->ndim; d++) {
            first = LLVMBuildMul(B->b, first, shape[d], "");
        }
        r.index = new_slot(B, cj_t_int64, first);
        r.best = new_slot(B, cj_t_int64, first);
    }
    cj_array_for_each(B, rows, vt, reduce_element, &r);
    LLVMValueRef out = LLVMBuildBitCast(B->b, LLVMGetParam(B->fn, 3),
                                        LLVMPointerType(s->partials.type, 0), "");
    LLVMValueRef partial = load(B, r.acc_type, r.slot);
    if (r.index != NULL) { /* {winner, its index} */
        partial = LLVMBuildInsertValue(B->b, LLVMGetUndef(s->partials.type), partial, 0, "");
        partial = LLVMBuildInsertValue(B->b, partial, load(B, cj_t_int64, r.best), 1, "");
    }
    LLVMBuildStore(B->b, partial, out);
    return 0;
}

/* argmin/argmax: a later chunk's winner replaces the one so far only when it wins outright
 * (the first of equal ones stays, as in one pass). */
static void combine_winner(cj_lower *L, const split *s, LLVMValueRef part) {
    const reduction *r = s->r;
    LLVMValueRef x = LLVMBuildExtractValue(L->b, part, 0, "");
    LLVMValueRef i = LLVMBuildExtractValue(L->b, part, 1, "");
    LLVMValueRef acc = load(L, r->acc_type, r->slot);
    LLVMValueRef w = wins(L, r->id, r->dtype, acc, x);
    LLVMBuildStore(L->b, LLVMBuildSelect(L->b, w, x, acc, ""), r->slot);
    LLVMBuildStore(L->b, LLVMBuildSelect(L->b, w, i, load(L, cj_t_int64, r->best), ""),
                   r->best);
}

static void combine_chunk(cj_lower *L, LLVMValueRef c, void *arg) {
    const split *s = arg;
    LLVMValueRef idx[2] = {cj_i64(L, 0), c};
    LLVMTypeRef all = LLVMArrayType(s->partials.type, CJ_PARALLEL_MAX_THREADS);
    LLVMValueRef part = LLVMBuildLoad2(L->b, s->partials.type,
                                       LLVMBuildGEP2(L->b, all, s->partials.slots, idx, 2, ""), "");
    const cj_type *t = s->r->acc_type;
    if (s->r->index != NULL) {
        combine_winner(L, s, part);
        return;
    }
    LLVMBuildStore(L->b, cj_reduce_step(L, combine_id(s->r), t, t, load(L, t, s->r->slot), part),
                   s->r->slot);
}

/* The slot reduced over the array's rows on the pool when it is big enough, else here. */
static int split_or_serial(cj_lower *L, reduction *r, LLVMValueRef arr, const cj_type *at) {
    LLVMBasicBlockRef pool = cj_new_bb(L, "reduce_pool"), here = cj_new_bb(L, "reduce_serial");
    LLVMBasicBlockRef done = cj_new_bb(L, "reduce_done");
    LLVMValueRef big = LLVMBuildICmp(L->b, LLVMIntSGE, cj_array_size(L, arr, at),
                                     cj_i64(L, CJ_POOL_MIN_ELEMENTS), "");
    LLVMBuildCondBr(L->b, big, pool, here);
    LLVMPositionBuilderAtEnd(L->b, pool);
    split s = {r, at, {.type = cj_llvm_type(L->ctx, r->acc_type)}};
    if (r->index != NULL) {
        LLVMTypeRef pair[2] = {s.partials.type, LLVMInt64TypeInContext(L->ctx)};
        s.partials.type = LLVMStructTypeInContext(L->ctx, pair, 2, 0);
    }
    if (cj_run_on_pool(L, cj_array_dim(L, arr, CJ_ARR_SHAPE, 0), &arr, 1, chunk_partial, &s,
                       &s.partials) < 0) {
        return -1;
    }
    cj_emit_for(L, s.partials.chunks, combine_chunk, &s);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, here);
    cj_array_for_each(L, arr, at, reduce_element, r);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    return 0;
}

/* One pass of `r` over the array; the slot's last value (NULL + exception). */
static LLVMValueRef run(cj_lower *L, reduction *r, LLVMValueRef arr, const cj_type *at) {
    r->slot = new_slot(L, r->acc_type, initial(L, r, arr, at));
    if (cj_pool_wanted(L) && at->ndim >= 1 && combine_id(r) >= 0) {
        if (split_or_serial(L, r, arr, at) < 0) {
            return NULL;
        }
    } else {
        cj_array_for_each(L, arr, at, reduce_element, r);
    }
    return load(L, r->acc_type, r->slot);
}

LLVMValueRef cj_lower_variance(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                               LLVMValueRef ddof) {
    const cj_type *mt = cj_reduce_result(CJ_B_NP_NANMEAN, at->dtype);
    LLVMValueRef n = cj_array_size(L, arr, at);
    reduction sum = {.id = CJ_B_NP_SUM, .dtype = at->dtype, .acc_type = mt};
    LLVMValueRef total = run(L, &sum, arr, at);
    if (total == NULL) {
        return NULL;
    }
    reduction dev = {.id = CJ_B_NP_SUM, .dtype = at->dtype, .acc_type = cj_t_float64,
                     .mean = divide(L, total, mt, n)};
    LLVMValueRef ssd = run(L, &dev, arr, at);
    if (ssd == NULL) {
        return NULL;
    }
    /* NumPy's divisor: max(n - ddof, 0) */
    LLVMValueRef count = LLVMBuildFSub(L->b, cj_cast(L, n, cj_t_int64, cj_t_float64), ddof, "");
    LLVMValueRef zero = cj_float_const(L, cj_t_float64, 0.0);
    count = LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOGT, count, zero, ""), count,
                            zero, "");
    LLVMValueRef var = LLVMBuildFDiv(L->b, ssd, count, "var");
    return id == CJ_B_NP_VAR ? var : cj_math1(L, "sqrt", cj_t_float64, var);
}

LLVMValueRef cj_lower_array_reduce(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                   const cj_type *rt) {
    if (id == CJ_B_NP_VAR || id == CJ_B_NP_STD) {
        return cj_lower_variance(L, id, arr, at, cj_float_const(L, cj_t_float64, 0.0));
    }
    /* mean sums as numba does (integers in int64/uint64), then divides */
    const cj_type *acc_type = rt;
    if (id == CJ_B_NP_MEAN && cj_type_is_integer(at->dtype)) {
        acc_type = cj_reduce_result(CJ_B_NP_SUM, at->dtype);
    }
    reduction r = {.id = id, .dtype = at->dtype, .acc_type = acc_type};
    if (id == CJ_B_NP_ARGMIN || id == CJ_B_NP_ARGMAX) {
        r.acc_type = at->dtype;
        r.index = new_slot(L, cj_t_int64, cj_i64(L, 0));
        r.best = new_slot(L, cj_t_int64, cj_i64(L, 0));
        run(L, &r, arr, at);
        return load(L, cj_t_int64, r.best);
    }
    if (id == CJ_B_NP_NANMEAN) {
        r.count = new_slot(L, cj_t_int64, cj_i64(L, 0));
    }
    LLVMValueRef acc = run(L, &r, arr, at);
    if (acc == NULL) {
        return NULL;
    }
    if (id == CJ_B_NP_NANMEAN) {
        return divide(L, acc, rt, load(L, cj_t_int64, r.count));
    }
    if (id != CJ_B_NP_MEAN) {
        return acc;
    }
    /* a plain division: the mean of nothing is NaN, as NumPy's */
    return divide(L, cj_cast(L, acc, acc_type, rt), rt, cj_array_size(L, arr, at));
}
