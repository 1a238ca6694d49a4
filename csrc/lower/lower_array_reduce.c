/* lower_array_reduce.c: whole-array reductions, a.sum() / np.sum(a) and prod, min, max, mean,
 * any, all (numba's results: sum and prod of integers in int64/uint64, of bool in int64;
 * mean of integers in float64; min/max keep the dtype and propagate NaN; an empty min/max is
 * NumPy's ValueError). Elements are visited in C order by nested loops over any strides
 * (cj_array_for_each), accumulating in a slot. */
#include "lower/lower_internal.h"

typedef struct reduction {
    int id;                  /* the builtin: CJ_B_NP_SUM ... */
    const cj_type *dtype;    /* the array's */
    const cj_type *acc_type; /* what the slot holds */
    LLVMValueRef slot;
} reduction;

static LLVMValueRef is_nan(cj_lower *L, LLVMValueRef x) {
    return LLVMBuildFCmp(L->b, LLVMRealUNO, x, x, "");
}

/* min/max step: the new value wins when it is smaller (larger) or NaN (NaN stays). */
static LLVMValueRef extreme(cj_lower *L, const reduction *r, LLVMValueRef acc, LLVMValueRef x) {
    int want_min = r->id == CJ_B_NP_MIN || r->id == CJ_B_NP_AMIN;
    if (r->dtype->kind == CJ_BOOL) { /* the min of bools is all(), the max any() */
        return want_min ? LLVMBuildAnd(L->b, acc, x, "") : LLVMBuildOr(L->b, acc, x, "");
    }
    LLVMValueRef wins = cj_lower_compare(L, want_min ? CJ_LT : CJ_GT, x, r->dtype, acc, r->dtype,
                                         r->dtype);
    if (r->dtype->kind == CJ_FLOAT) {
        wins = LLVMBuildOr(L->b, wins, is_nan(L, x), "");
    }
    return LLVMBuildSelect(L->b, wins, x, acc, "");
}

static void reduce_element(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    reduction *r = ctx;
    LLVMValueRef x = cj_load_element(L, ptr, r->dtype);
    LLVMValueRef acc = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, r->acc_type), r->slot, "acc");
    LLVMValueRef next;
    switch (r->id) {
    case CJ_B_NP_ANY:
        next = LLVMBuildOr(L->b, acc, cj_truth(L, x, r->dtype), "");
        break;
    case CJ_B_NP_ALL:
        next = LLVMBuildAnd(L->b, acc, cj_truth(L, x, r->dtype), "");
        break;
    case CJ_B_NP_MIN:
    case CJ_B_NP_AMIN:
    case CJ_B_NP_MAX:
    case CJ_B_NP_AMAX:
        next = extreme(L, r, acc, x);
        break;
    default: /* sum, mean (a sum first), prod */
        next = cj_lower_binop(L, r->id == CJ_B_NP_PROD ? CJ_MUL : CJ_ADD, acc, r->acc_type,
                              cj_cast(L, x, r->dtype, r->acc_type), r->acc_type, r->acc_type,
                              r->acc_type);
    }
    LLVMBuildStore(L->b, next, r->slot);
}

/* The slot's first value: 0, 1, False, True, or the first element (min/max, after raising
 * NumPy's error for an empty array). */
static LLVMValueRef initial(cj_lower *L, const reduction *r, LLVMValueRef arr,
                            const cj_type *at) {
    switch (r->id) {
    case CJ_B_NP_PROD:
        return cj_cast(L, cj_i64(L, 1), cj_t_int64, r->acc_type);
    case CJ_B_NP_ALL:
        return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
    case CJ_B_NP_MIN:
    case CJ_B_NP_AMIN:
    case CJ_B_NP_MAX:
    case CJ_B_NP_AMAX: {
        int want_min = r->id == CJ_B_NP_MIN || r->id == CJ_B_NP_AMIN;
        LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntEQ, cj_array_size(L, arr, at),
                                           cj_i64(L, 0), "");
        cj_emit_raise_if(L, empty, want_min ? CJ_EXC_EMPTY_MIN : CJ_EXC_EMPTY_MAX);
        LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
        return cj_load_element(
            L, LLVMBuildBitCast(L->b, LLVMBuildExtractValue(L->b, arr, CJ_ARR_DATA, ""), i8p, ""),
            r->dtype);
    }
    default:
        return LLVMConstNull(cj_llvm_type(L->ctx, r->acc_type));
    }
}

LLVMValueRef cj_lower_array_reduce(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                   const cj_type *rt) {
    /* mean sums as numba does (integers in int64/uint64), then divides */
    const cj_type *acc_type = rt;
    if (id == CJ_B_NP_MEAN && cj_type_is_integer(at->dtype)) {
        acc_type = at->dtype->kind == CJ_INT && !at->dtype->is_signed ? cj_t_uint64 : cj_t_int64;
    }
    reduction r = {.id = id, .dtype = at->dtype, .acc_type = acc_type};
    r.slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, acc_type), "reduction");
    LLVMBuildStore(L->b, initial(L, &r, arr, at), r.slot);
    cj_array_for_each(L, arr, at, reduce_element, &r);
    LLVMValueRef acc = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, acc_type), r.slot, "");
    if (id != CJ_B_NP_MEAN) {
        return acc;
    }
    /* a plain division: the mean of nothing is NaN, as NumPy's */
    const cj_type *part = rt->kind == CJ_COMPLEX ? cj_complex_part(rt) : rt;
    LLVMValueRef n = cj_cast(L, cj_array_size(L, arr, at), cj_t_int64, part);
    LLVMValueRef sum = cj_cast(L, acc, acc_type, rt);
    if (rt->kind != CJ_COMPLEX) {
        return LLVMBuildFDiv(L->b, sum, n, "mean");
    }
    LLVMValueRef im;
    LLVMValueRef re = cj_complex_parts(L, sum, &im);
    return cj_make_complex(L, rt, LLVMBuildFDiv(L->b, re, n, ""), LLVMBuildFDiv(L->b, im, n, ""));
}
