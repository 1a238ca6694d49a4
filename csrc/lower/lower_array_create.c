/* lower_array_create.c: np.arange, np.linspace, np.eye/np.identity and np.array/np.asarray of
 * numbers (typing/array_create.c): new C-contiguous arrays the call hands over, with NumPy's
 * values: arange writes start, start + step, then start + i * delta with delta the difference
 * of those two in the dtype (NumPy's fill); linspace i * step + start (float64, or complex128
 * from complex numbers as numba) and stop last; eye the
 * ones of diagonal k into zeroed memory. Its length ceil((stop - start) / step) is NumPy's;
 * a step of 0, or a length that is NaN or past int64, is numba's ValueError. */
#include "lower/lower_internal.h"

LLVMValueRef cj_new_array_as(cj_lower *L, const cj_type *at, LLVMValueRef *shape, int zeroed) {
    if (at->layout != 'F' || at->ndim < 2) {
        return cj_new_array(L, at, shape, zeroed);
    }
    LLVMValueRef rev[CJ_MAXDIM]; /* F order: the transpose of a C array of reversed shape */
    for (int d = 0; d < at->ndim; d++) {
        rev[d] = shape[at->ndim - 1 - d];
    }
    return cj_array_transpose(L, cj_new_array(L, at, rev, zeroed), at);
}

/* Stores v (of the array's dtype) at element i of the C-contiguous array `arr`. */
static void store_at(cj_lower *L, LLVMValueRef arr, const cj_type *dtype, LLVMValueRef i,
                     LLVMValueRef v) {
    LLVMTypeRef elem = cj_elem_type(L->ctx, dtype);
    if (dtype->kind == CJ_BOOL) {
        v = LLVMBuildZExt(L->b, v, elem, "");
    }
    LLVMValueRef data = LLVMBuildExtractValue(L->b, arr, CJ_ARR_DATA, "");
    LLVMBuildStore(L->b, v, LLVMBuildGEP2(L->b, elem, data, &i, 1, ""));
}

static LLVMValueRef arg(cj_lower *L, const cj_call *call, int k, const cj_type *to) {
    return cj_cast(L, cj_load_var(L, call->args[k]), call->argtypes[k], to);
}

/* ---- np.arange ---- */

typedef struct arange_fill {
    LLVMValueRef arr, v0, v1, delta;
    const cj_type *dtype;
} arange_fill;

static void arange_element(cj_lower *L, LLVMValueRef i, void *ctx) {
    const arange_fill *f = ctx;
    LLVMValueRef v;
    if (f->dtype->kind == CJ_FLOAT) {
        LLVMValueRef fi = LLVMBuildSIToFP(L->b, i, cj_llvm_type(L->ctx, f->dtype), "");
        v = LLVMBuildFAdd(L->b, f->v0, LLVMBuildFMul(L->b, fi, f->delta, ""), "");
    } else {
        LLVMValueRef ii = LLVMBuildTrunc(L->b, i, LLVMTypeOf(f->delta), "");
        v = LLVMBuildAdd(L->b, f->v0, LLVMBuildMul(L->b, ii, f->delta, ""), "");
    }
    v = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, i, cj_i64(L, 1), ""), f->v1, v, "");
    v = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, i, cj_i64(L, 0), ""), f->v0, v, "");
    store_at(L, f->arr, f->dtype, i, v);
}

/* The length ceil((stop - start) / step), computed in ct (int64 or float64) as Python would. */
static LLVMValueRef arange_length(cj_lower *L, const cj_type *ct, LLVMValueRef start,
                                  LLVMValueRef stop, LLVMValueRef step) {
    LLVMValueRef zero = LLVMConstNull(cj_llvm_type(L->ctx, ct));
    LLVMValueRef step0 = ct->kind == CJ_FLOAT ? LLVMBuildFCmp(L->b, LLVMRealOEQ, step, zero, "")
                                              : LLVMBuildICmp(L->b, LLVMIntEQ, step, zero, "");
    cj_emit_raise_if(L, step0, CJ_EXC_ARANGE_SIZE);
    LLVMValueRef span = ct->kind == CJ_FLOAT ? LLVMBuildFSub(L->b, stop, start, "")
                                             : LLVMBuildSub(L->b, stop, start, "");
    LLVMValueRef q = LLVMBuildFDiv(L->b, cj_cast(L, span, ct, cj_t_float64),
                                   cj_cast(L, step, ct, cj_t_float64), "");
    LLVMValueRef n = cj_math1(L, "ceil", cj_t_float64, q);
    /* NaN, inf and lengths past int64 (not less than 2**63) */
    cj_emit_raise_if(L, LLVMBuildFCmp(L->b, LLVMRealUGE, n, cj_float_const(L, cj_t_float64,
                                                                           9223372036854775808.0),
                                      ""), CJ_EXC_ARANGE_SIZE);
    LLVMValueRef neg = LLVMBuildFCmp(L->b, LLVMRealOLE, n, cj_float_const(L, cj_t_float64, 0), "");
    n = LLVMBuildSelect(L->b, neg, cj_float_const(L, cj_t_float64, 0), n, "");
    LLVMValueRef len = LLVMBuildFPToSI(L->b, n, LLVMInt64TypeInContext(L->ctx), "len");
    cj_ub_proof(len, "in [0, 2**63): NaN and larger raised above, the rest clamped to 0");
    return len;
}

static LLVMValueRef lower_arange(cj_lower *L, const cj_call *call, const cj_type *rt) {
    const cj_type *ct = cj_t_int64;
    for (int k = 0; k < 3; k++) {
        ct = call->args[k] >= 0 && call->argtypes[k]->kind == CJ_FLOAT ? cj_t_float64 : ct;
    }
    LLVMValueRef start = LLVMConstNull(cj_llvm_type(L->ctx, ct)), stop = arg(L, call, 0, ct);
    if (call->args[1] >= 0) {
        start = stop;
        stop = arg(L, call, 1, ct);
    }
    LLVMValueRef step = call->args[2] >= 0 ? arg(L, call, 2, ct)
                                           : cj_cast(L, cj_i64(L, 1), cj_t_int64, ct);
    LLVMValueRef n = arange_length(L, ct, start, stop, step);
    LLVMValueRef arr = cj_new_array(L, rt, &n, 0);
    const cj_type *dt = rt->dtype;
    LLVMValueRef next = ct->kind == CJ_FLOAT ? LLVMBuildFAdd(L->b, start, step, "")
                                             : LLVMBuildAdd(L->b, start, step, "");
    arange_fill f = {.arr = arr, .dtype = dt, .v0 = cj_cast(L, start, ct, dt),
                     .v1 = cj_cast(L, next, ct, dt)};
    f.delta = dt->kind == CJ_FLOAT ? LLVMBuildFSub(L->b, f.v1, f.v0, "")
                                   : LLVMBuildSub(L->b, f.v1, f.v0, "");
    cj_emit_for(L, n, arange_element, &f);
    return arr;
}

/* ---- np.linspace ---- */

/* Values as their parts: [0] the real part, [1] the imaginary part of a complex128 (NULL for a
 * float64). */
typedef struct linspace_fill {
    LLVMValueRef arr, start[2], delta[2], step[2], div, by_step;
    LLVMValueRef scale; /* complex: NumPy's division by div + 0j multiplies by 1 / div */
} linspace_fill;

static void linspace_element(cj_lower *L, LLVMValueRef i, void *ctx) {
    const linspace_fill *f = ctx;
    LLVMBuilderRef B = L->b;
    LLVMValueRef fi = LLVMBuildSIToFP(B, i, LLVMDoubleTypeInContext(L->ctx), "");
    /* NumPy: i * step + start; (i / div) * delta + start where the step is 0; a complex
     * product as NumPy's, of i + 0j */
    LLVMValueRef part = f->scale ? LLVMBuildFMul(B, fi, f->scale, "")
                                 : LLVMBuildFDiv(B, fi, f->div, "");
    LLVMValueRef x = LLVMBuildSelect(B, f->by_step, fi, part, "");
    LLVMValueRef m[2], y[2];
    for (int k = 0; k < 2 && f->start[k] != NULL; k++) {
        m[k] = LLVMBuildSelect(B, f->by_step, f->step[k], f->delta[k], "");
    }
    y[0] = LLVMBuildFMul(B, x, m[0], "");
    if (f->start[1] == NULL) {
        store_at(L, f->arr, cj_t_float64, i, LLVMBuildFAdd(B, y[0], f->start[0], ""));
        return;
    }
    LLVMValueRef zero = cj_float_const(L, cj_t_float64, 0);
    y[0] = LLVMBuildFSub(B, y[0], LLVMBuildFMul(B, zero, m[1], ""), "");
    y[1] = LLVMBuildFAdd(B, LLVMBuildFMul(B, x, m[1], ""), LLVMBuildFMul(B, zero, m[0], ""), "");
    store_at(L, f->arr, cj_t_complex128, i,
             cj_make_complex(L, cj_t_complex128, LLVMBuildFAdd(B, y[0], f->start[0], ""),
                             LLVMBuildFAdd(B, y[1], f->start[1], "")));
}

/* start, delta and step (in parts), div and by_step of linspace(start, stop, n) */
static void linspace_steps(cj_lower *L, linspace_fill *f, LLVMValueRef *stop, LLVMValueRef idiv) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef positive = LLVMBuildICmp(B, LLVMIntSGT, idiv, cj_i64(L, 0), "");
    LLVMValueRef zero = cj_float_const(L, cj_t_float64, 0);
    LLVMValueRef div = LLVMBuildSIToFP(B, idiv, LLVMDoubleTypeInContext(L->ctx), "div");
    LLVMValueRef step_zero = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0), q[2];
    f->div = LLVMBuildSelect(B, positive, div, cj_float_const(L, cj_t_float64, 1), "");
    for (int k = 0; k < 2 && f->start[k] != NULL; k++) {
        f->delta[k] = LLVMBuildFSub(B, stop[k], f->start[k], "delta");
    }
    if (f->start[1] == NULL) {
        q[0] = LLVMBuildFDiv(B, f->delta[0], f->div, "step");
    } else { /* NumPy's complex division by div + 0j: ratio 0, scale 1 / div */
        f->scale = LLVMBuildFDiv(B, cj_float_const(L, cj_t_float64, 1), f->div, "scale");
        for (int k = 0; k < 2; k++) {
            LLVMValueRef cross = LLVMBuildFMul(B, f->delta[1 - k], zero, "");
            q[k] = LLVMBuildFMul(B, k == 0 ? LLVMBuildFAdd(B, f->delta[0], cross, "")
                                           : LLVMBuildFSub(B, f->delta[1], cross, ""),
                                 f->scale, "step");
        }
    }
    for (int k = 0; k < 2 && f->start[k] != NULL; k++) {
        /* div 0 (num 1 with the endpoint): i * delta + start, as NumPy's NaN step does not */
        f->step[k] = LLVMBuildSelect(B, positive, q[k], f->delta[k], "");
        step_zero = LLVMBuildAnd(B, step_zero, LLVMBuildFCmp(B, LLVMRealOEQ, f->step[k], zero, ""),
                                 "");
    }
    f->by_step = LLVMBuildOr(B, LLVMBuildNot(B, positive, ""), LLVMBuildNot(B, step_zero, ""), "");
}

static LLVMValueRef lower_linspace(cj_lower *L, const cj_call *call, const cj_type *rt) {
    LLVMBuilderRef B = L->b;
    const cj_type *dt = rt->dtype;
    LLVMValueRef n = call->args[2] >= 0 ? arg(L, call, 2, cj_t_int64) : cj_i64(L, 50);
    LLVMValueRef endpoint = call->args[3] >= 0 ? arg(L, call, 3, cj_t_bool)
                                               : LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
    LLVMValueRef arr = cj_new_array(L, rt, &n, 0); /* a negative num: NumPy's ValueError */
    linspace_fill f = {.arr = arr};
    LLVMValueRef stop[2] = {NULL, NULL}, start = arg(L, call, 0, dt), end = arg(L, call, 1, dt);
    if (dt->kind == CJ_COMPLEX) {
        f.start[0] = cj_complex_parts(L, start, &f.start[1]);
        stop[0] = cj_complex_parts(L, end, &stop[1]);
    } else {
        f.start[0] = start;
        stop[0] = end;
    }
    linspace_steps(L, &f, stop, LLVMBuildSub(B, n, LLVMBuildZExt(B, endpoint, LLVMTypeOf(n), ""),
                                            ""));
    cj_emit_for(L, n, linspace_element, &f);
    LLVMValueRef last = LLVMBuildAnd(B, endpoint, LLVMBuildICmp(B, LLVMIntSGT, n, cj_i64(L, 1), ""),
                                     "");
    LLVMBasicBlockRef set = cj_new_bb(L, "linspace_stop"), done = cj_new_bb(L, "linspace_done");
    LLVMBuildCondBr(B, last, set, done);
    LLVMPositionBuilderAtEnd(B, set);
    store_at(L, arr, dt, LLVMBuildSub(B, n, cj_i64(L, 1), ""), end);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return arr;
}

/* ---- np.eye, np.identity ---- */

typedef struct eye_fill {
    LLVMValueRef arr, first, step, one;
    const cj_type *dtype;
} eye_fill;

static void eye_element(cj_lower *L, LLVMValueRef i, void *ctx) {
    const eye_fill *f = ctx;
    LLVMValueRef at = LLVMBuildAdd(L->b, f->first, LLVMBuildMul(L->b, i, f->step, ""), "");
    store_at(L, f->arr, f->dtype, at, f->one);
}

static LLVMValueRef smin(cj_lower *L, LLVMValueRef a, LLVMValueRef b) {
    return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, a, b, ""), a, b, "");
}

static LLVMValueRef lower_eye(cj_lower *L, const cj_call *call, const cj_type *rt) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef shape[2] = {arg(L, call, 0, cj_t_int64), NULL};
    shape[1] = call->args[1] >= 0 ? arg(L, call, 1, cj_t_int64) : shape[0];
    LLVMValueRef k = call->args[2] >= 0 ? arg(L, call, 2, cj_t_int64) : cj_i64(L, 0);
    LLVMValueRef arr = cj_new_array(L, rt, shape, 1);
    /* k >= 0: min(N, M - k) ones from (0, k); else min(N + k, M) from (-k, 0) */
    LLVMValueRef up = LLVMBuildICmp(B, LLVMIntSGE, k, cj_i64(L, 0), "");
    LLVMValueRef n = LLVMBuildSelect(B, up, smin(L, shape[0], LLVMBuildSub(B, shape[1], k, "")),
                                     smin(L, LLVMBuildAdd(B, shape[0], k, ""), shape[1]), "");
    LLVMValueRef row = LLVMBuildSelect(B, up, cj_i64(L, 0), LLVMBuildNeg(B, k, ""), "");
    LLVMValueRef col = LLVMBuildSelect(B, up, k, cj_i64(L, 0), "");
    eye_fill f = {.arr = arr, .dtype = rt->dtype,
                  .first = LLVMBuildAdd(B, LLVMBuildMul(B, row, shape[1], ""), col, ""),
                  .step = LLVMBuildAdd(B, shape[1], cj_i64(L, 1), ""),
                  .one = cj_cast(L, cj_i64(L, 1), cj_t_int64, rt->dtype)};
    cj_emit_for(L, n, eye_element, &f);
    return arr;
}

/* ---- np.array of numbers ---- */

/* Stores the numbers of `v` (a nested tuple of type t, or a number) from element *at on. */
static void store_literal(cj_lower *L, LLVMValueRef arr, const cj_type *dtype, LLVMValueRef v,
                          const cj_type *t, long long *at) {
    if (t->kind != CJ_TUPLE) {
        store_at(L, arr, dtype, cj_i64(L, (*at)++), cj_cast(L, v, t, dtype));
        return;
    }
    for (int i = 0; i < t->n; i++) {
        store_literal(L, arr, dtype, LLVMBuildExtractValue(L->b, v, (unsigned)i, ""),
                      t->items[i], at);
    }
}

static LLVMValueRef lower_array_of(cj_lower *L, const cj_call *call, const cj_type *rt) {
    LLVMValueRef shape[CJ_MAXDIM];
    const cj_type *t = call->argtypes[0];
    if (t->kind == CJ_LIST) {
        return cj_array_from_list(L, cj_load_var(L, call->args[0]), t, rt);
    }
    for (int d = 0; d < rt->ndim; d++, t = t->items[0]) {
        shape[d] = cj_i64(L, t->n);
    }
    LLVMValueRef arr = cj_new_array(L, rt, shape, 0);
    long long at = 0;
    store_literal(L, arr, rt->dtype, cj_load_var(L, call->args[0]), call->argtypes[0], &at);
    return arr;
}

LLVMValueRef cj_lower_array_create(cj_lower *L, cj_instr *in, const cj_call *call) {
    switch (call->builtin) {
    case CJ_B_NP_ARANGE:
        return lower_arange(L, call, in->rtype);
    case CJ_B_NP_LINSPACE:
        return lower_linspace(L, call, in->rtype);
    case CJ_B_NP_EYE:
    case CJ_B_NP_IDENTITY:
        return lower_eye(L, call, in->rtype);
    case CJ_B_NP_ASARRAY: /* an array of its dtype: itself */
        return cj_load_var(L, call->args[0]);
    default:
        return lower_array_of(L, call, in->rtype);
    }
}
