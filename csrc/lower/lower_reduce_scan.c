/* lower_reduce_scan.c: np.cumsum/np.cumprod and a.cumsum()/a.cumprod() (a new 1-D array of
 * the running sums or products in C order, in numba's types: cj_reduce_result) and np.median
 * (the elements as float64 copied into a scratch array, its median by the run-time helper
 * cj_median_f64 of abi/select.c, the scratch array dropped). */
#include "lower/lower_internal.h"

typedef struct scan {
    int step_id;          /* CJ_B_NP_SUM or CJ_B_NP_PROD */
    const cj_type *dtype; /* the input's */
    const cj_type *rtype; /* the result's dtype */
    LLVMValueRef acc;     /* slot: the running value */
    LLVMValueRef dst;     /* slot: where the next result goes (an i8*) */
} scan;

/* The next element of the result: x converted (scan->step_id < 0) or accumulated. */
static void scan_element(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    scan *s = ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef rt = cj_llvm_type(L->ctx, s->rtype);
    LLVMValueRef x = cj_load_element(L, ptr, s->dtype), next;
    if (s->step_id < 0) {
        next = cj_cast(L, x, s->dtype, s->rtype);
    } else {
        LLVMValueRef acc = LLVMBuildLoad2(L->b, rt, s->acc, "");
        next = cj_reduce_step(L, s->step_id, s->dtype, s->rtype, acc, x);
        LLVMBuildStore(L->b, next, s->acc);
    }
    LLVMValueRef dst = LLVMBuildLoad2(L->b, i8p, s->dst, "");
    LLVMBuildStore(L->b, next, LLVMBuildBitCast(L->b, dst, LLVMPointerType(rt, 0), ""));
    LLVMValueRef size = cj_i64(L, (long long)cj_abi_size(s->rtype));
    LLVMBuildStore(L->b, LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), dst, &size, 1, ""),
                   s->dst);
}

/* A new 1-D array of rt's dtype (not bool) with the elements of `arr` in C order, each
 * converted, or accumulated by step_id. */
static LLVMValueRef flat_scan(cj_lower *L, int step_id, LLVMValueRef arr, const cj_type *at,
                              const cj_type *rt) {
    LLVMValueRef n = cj_array_size(L, arr, at);
    LLVMValueRef out = cj_new_array(L, rt, &n, 0);
    scan s = {.step_id = step_id, .dtype = at->dtype, .rtype = rt->dtype};
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    s.acc = cj_entry_alloca(L, cj_llvm_type(L->ctx, rt->dtype), "running");
    s.dst = cj_entry_alloca(L, i8p, "dst");
    long long identity = step_id == CJ_B_NP_PROD;
    LLVMBuildStore(L->b, cj_cast(L, cj_i64(L, identity), cj_t_int64, rt->dtype), s.acc);
    LLVMBuildStore(L->b, cj_array_bytes(L, out), s.dst);
    cj_array_for_each(L, arr, at, scan_element, &s);
    return out;
}

LLVMValueRef cj_lower_cumulative(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                 const cj_type *rt) {
    return flat_scan(L, id == CJ_B_NP_CUMSUM ? CJ_B_NP_SUM : CJ_B_NP_PROD, arr, at, rt);
}

LLVMValueRef cj_lower_median(cj_lower *L, LLVMValueRef arr, const cj_type *at) {
    const cj_type *scratch_t = cj_type_array(cj_t_float64, 1, 'C', 0);
    LLVMValueRef scratch = flat_scan(L, -1, arr, at, scratch_t);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef params[2] = {LLVMPointerType(f64, 0), i64};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_median_f64", f64, params, 2);
    LLVMValueRef args[2] = {
        LLVMBuildBitCast(L->b, cj_array_bytes(L, scratch), params[0], ""),
        cj_array_size(L, arr, at),
    };
    LLVMValueRef median = LLVMBuildCall2(L->b, LLVMFunctionType(f64, params, 2, 0), fn, args, 2,
                                         "median");
    cj_decref(L, scratch, scratch_t);
    return median;
}
