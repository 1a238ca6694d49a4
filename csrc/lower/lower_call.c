/* lower_call.c: calls. Builtins and math lower inline (math through the target's library:
 * libm on the CPU, libdevice on CUDA), cmath by its formulas over real math, jitted callees
 * as calls following the calling convention with their status propagated, and `raise` as a
 * return of the exception's registry id. */
#include "lower/lower_internal.h"

#include <math.h>
#include <string.h>

static const cj_type *vt(cj_lower *L, int var) { return CJ_VAR(L->ir, var)->type; }

/* Argument i of a call record, converted to `to`. */
static LLVMValueRef arg_as(cj_lower *L, const cj_call *call, int i, const cj_type *to) {
    return cj_cast(L, cj_load_var(L, call->args[i]), vt(L, call->args[i]), to);
}

static const cj_type *part_of(const cj_type *complex_t) { return cj_complex_part(complex_t); }

/* ---- real math ---- */

static LLVMValueRef fabs_of(cj_lower *L, const cj_type *t, LLVMValueRef x) {
    return cj_math1(L, "fabs", t, x);
}

static LLVMValueRef isnan_of(cj_lower *L, LLVMValueRef x) {
    return LLVMBuildFCmp(L->b, LLVMRealUNO, x, x, "isnan");
}

static LLVMValueRef isinf_of(cj_lower *L, const cj_type *t, LLVMValueRef x) {
    return LLVMBuildFCmp(L->b, LLVMRealOEQ, fabs_of(L, t, x), cj_float_const(L, t, INFINITY),
                         "isinf");
}

static LLVMValueRef predicate(cj_lower *L, int id, LLVMValueRef x, const cj_type *t) {
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx);
    if (cj_type_is_integer(t)) {
        int finite = id == CJ_B_M_ISFINITE || id == CJ_B_NP_ISFINITE || id == CJ_B_C_ISFINITE;
        return LLVMConstInt(i1, (unsigned long long)finite, 0);
    }
    LLVMValueRef re = x, im = NULL;
    const cj_type *pt = t;
    if (t->kind == CJ_COMPLEX) {
        re = cj_complex_parts(L, x, &im);
        pt = part_of(t);
    }
    LLVMValueRef r;
    switch (id) {
    case CJ_B_M_ISNAN:
    case CJ_B_NP_ISNAN:
    case CJ_B_C_ISNAN:
        r = isnan_of(L, re);
        return im ? LLVMBuildOr(L->b, r, isnan_of(L, im), "") : r;
    case CJ_B_M_ISINF:
    case CJ_B_NP_ISINF:
    case CJ_B_C_ISINF:
        r = isinf_of(L, pt, re);
        return im ? LLVMBuildOr(L->b, r, isinf_of(L, pt, im), "") : r;
    default: { /* isfinite: neither nan nor inf */
        LLVMValueRef inf = cj_float_const(L, pt, INFINITY);
        r = LLVMBuildFCmp(L->b, LLVMRealOLT, fabs_of(L, pt, re), inf, "");
        return im ? LLVMBuildAnd(L->b, r,
                                 LLVMBuildFCmp(L->b, LLVMRealOLT, fabs_of(L, pt, im), inf, ""), "")
                  : r;
    }
    }
}

/* ---- builtins ---- */

static LLVMValueRef abs_of(cj_lower *L, LLVMValueRef v, const cj_type *t, const cj_type *rt) {
    if (t->kind == CJ_COMPLEX) {
        LLVMValueRef im;
        LLVMValueRef re = cj_complex_parts(L, v, &im);
        return cj_math2(L, "hypot", part_of(t), re, im);
    }
    v = cj_cast(L, v, t, rt);
    if (rt->kind == CJ_FLOAT) {
        return fabs_of(L, rt, v);
    }
    if (rt->kind == CJ_INT && !rt->is_signed) {
        return v;
    }
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, v, LLVMConstNull(LLVMTypeOf(v)), "");
    return LLVMBuildSelect(L->b, neg, LLVMBuildNeg(L->b, v, ""), v, "abs");
}

/* Python's max/min: keeps the first of equal values; a NaN first stays. */
LLVMValueRef cj_pick_minmax(cj_lower *L, int is_max, LLVMValueRef acc, LLVMValueRef x,
                            const cj_type *t) {
    const cj_type *ot;
    (void)cj_rule_compare(CJ_GT, t, t, &ot);
    LLVMValueRef better = cj_lower_compare(L, is_max ? CJ_GT : CJ_LT, x, t, acc, t, ot);
    return better ? LLVMBuildSelect(L->b, better, x, acc, "") : NULL;
}

static LLVMValueRef minmax(cj_lower *L, cj_instr *in, const cj_call *call, int is_max) {
    const cj_type *rt = in->rtype;
    if (call->nargs == 1) {
        const cj_type *st = vt(L, call->args[0]);
        LLVMValueRef seq = cj_load_var(L, call->args[0]);
        if (st->kind == CJ_TUPLE) {
            LLVMValueRef acc = cj_cast(L, LLVMBuildExtractValue(L->b, seq, 0, ""), st->items[0],
                                       rt);
            for (int i = 1; acc && i < st->n; i++) { /* a literal string item: its constant */
                LLVMValueRef x = LLVMBuildExtractValue(L->b, seq, (unsigned)i, "");
                acc = cj_pick_minmax(L, is_max, acc, cj_cast(L, x, st->items[i], rt), rt);
            }
            return acc;
        }
        /* an array: iterate it (numba: ValueError on an empty sequence) */
        const cj_type *it = cj_type_iter(CJ_ITER_ARRAY, st->dtype, st, 0, NULL);
        if (it == NULL || st->ndim != 1) {
            PyErr_SetString(cj_UnsupportedError, "max()/min() of arrays of more than one "
                                                 "dimension is not supported yet");
            return NULL;
        }
        LLVMValueRef n = cj_array_dim(L, seq, CJ_ARR_SHAPE, 0);
        cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, n, cj_i64(L, 0), ""), CJ_EXC_UNPACK);
        LLVMValueRef state = cj_lower_getiter(L, seq, st, it);
        if (state == NULL) {
            return NULL;
        }
        LLVMValueRef ok;
        LLVMValueRef first = cj_lower_iternext(L, state, it, &ok);
        LLVMValueRef acc_slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, rt), "acc");
        LLVMBuildStore(L->b, first, acc_slot);
        LLVMBasicBlockRef loop = cj_new_bb(L, "mm_loop"), body = cj_new_bb(L, "mm_body"),
                          done = cj_new_bb(L, "mm_done");
        LLVMBuildBr(L->b, loop);
        LLVMPositionBuilderAtEnd(L->b, loop);
        LLVMValueRef x = cj_lower_iternext(L, state, it, &ok);
        LLVMBuildCondBr(L->b, ok, body, done);
        LLVMPositionBuilderAtEnd(L->b, body);
        LLVMValueRef acc = LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, rt), acc_slot, "");
        LLVMBuildStore(L->b, cj_pick_minmax(L, is_max, acc, x, rt), acc_slot);
        LLVMBuildBr(L->b, loop);
        LLVMPositionBuilderAtEnd(L->b, done);
        return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, rt), acc_slot, "max");
    }
    LLVMValueRef acc;
    if (cj_cuda_float_minmax(L, call, is_max, rt, &acc)) {
        return acc;
    }
    acc = arg_as(L, call, 0, rt);
    for (int i = 1; acc && i < call->nargs; i++) {
        acc = cj_pick_minmax(L, is_max, acc, arg_as(L, call, i, rt), rt);
    }
    return acc;
}

/* round(x) (half to even) and round(x, ndigits). */
static LLVMValueRef round_of(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *xt = vt(L, call->args[0]);
    if (cj_type_is_integer(xt)) {
        LLVMValueRef x = arg_as(L, call, 0, in->rtype);
        return call->nargs == 1 || x == NULL ? x
                                             : cj_round_int(L, x, arg_as(L, call, 1, cj_t_int64));
    }
    LLVMValueRef x = cj_load_var(L, call->args[0]);
    if (call->nargs == 1) {
        return cj_float_to_int_checked(L, cj_math1(L, "rint", xt, x), cj_t_int64);
    }
    return cj_round_float(L, xt, x, arg_as(L, call, 1, xt));
}

static LLVMValueRef len_of(cj_lower *L, const cj_call *call) {
    const cj_type *t = vt(L, call->args[0]);
    LLVMValueRef v = cj_load_var(L, call->args[0]);
    if (t->kind == CJ_TUPLE) {
        return cj_i64(L, t->n);
    }
    if (t->kind == CJ_ARRAY) {
        return t->ndim == 0 ? cj_i64(L, 0) : cj_array_dim(L, v, CJ_ARR_SHAPE, 0);
    }
    if (t->kind == CJ_ITER) { /* len(a.flat) */
        return cj_flat_len(L, v, t);
    }
    if (t->kind == CJ_LIST) {
        return cj_list_len(L, v);
    }
    return cj_range_len(L, v);
}

static LLVMValueRef make_range(cj_lower *L, const cj_call *call) {
    LLVMValueRef parts[3] = {cj_i64(L, 0), NULL, cj_i64(L, 1)};
    if (call->nargs == 1) {
        parts[1] = arg_as(L, call, 0, cj_t_int64);
    } else {
        parts[0] = arg_as(L, call, 0, cj_t_int64);
        parts[1] = arg_as(L, call, 1, cj_t_int64);
        if (call->nargs == 3) {
            parts[2] = arg_as(L, call, 2, cj_t_int64);
            cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, parts[2], cj_i64(L, 0), ""),
                             CJ_EXC_RANGE_STEP);
        }
    }
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, cj_type_range(0)));
    for (int i = 0; i < 3; i++) {
        r = LLVMBuildInsertValue(L->b, r, parts[i], (unsigned)i, "");
    }
    return r;
}

static LLVMValueRef sign_of(cj_lower *L, LLVMValueRef x, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    if (t->kind == CJ_FLOAT) {
        LLVMValueRef zero = cj_float_const(L, t, 0.0);
        LLVMValueRef r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOGT, x, zero, ""),
                                         cj_float_const(L, t, 1.0), x, "");
        return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, x, zero, ""),
                               cj_float_const(L, t, -1.0), r, "sign");
    }
    LLVMTypeRef lt = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMConstNull(lt);
    LLVMValueRef pos = LLVMBuildICmp(B, t->is_signed ? LLVMIntSGT : LLVMIntUGT, x, zero, "");
    LLVMValueRef r = LLVMBuildSelect(B, pos, LLVMConstInt(lt, 1, 0), zero, "");
    if (!t->is_signed) {
        return r;
    }
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, x, zero, ""), LLVMConstAllOnes(lt), r,
                           "sign");
}

/* np.maximum/minimum propagate NaN; np.fmax/fmin ignore it. */
static LLVMValueRef np_minmax(cj_lower *L, int id, LLVMValueRef a, LLVMValueRef b,
                              const cj_type *t) {
    int is_max = id == CJ_B_NP_MAXIMUM || id == CJ_B_NP_FMAX;
    const cj_type *ot = t; /* complex: NumPy's lexicographic order (cj_lower_compare) */
    if (t->kind != CJ_COMPLEX) {
        (void)cj_rule_compare(CJ_GT, t, t, &ot);
    }
    LLVMValueRef a_wins = cj_lower_compare(L, is_max ? CJ_GE : CJ_LE, a, t, b, t, ot);
    if (a_wins == NULL) {
        return NULL;
    }
    if (t->kind != CJ_FLOAT && t->kind != CJ_COMPLEX) {
        return LLVMBuildSelect(L->b, a_wins, a, b, "");
    }
    /* maximum/minimum: a NaN on either side wins; fmax/fmin: a NaN on b's side loses */
    int propagate = id == CJ_B_NP_MAXIMUM || id == CJ_B_NP_MINIMUM;
    LLVMValueRef v = propagate ? a : b, vi = NULL;
    LLVMValueRef nan = isnan_of(L, t->kind == CJ_COMPLEX ? cj_complex_parts(L, v, &vi) : v);
    nan = vi ? LLVMBuildOr(L->b, nan, isnan_of(L, vi), "") : nan;
    return LLVMBuildSelect(L->b, LLVMBuildOr(L->b, a_wins, nan, ""), a, b, "");
}

static LLVMValueRef gcd_of(cj_lower *L, LLVMValueRef a, LLVMValueRef b) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef zero = cj_i64(L, 0);
    a = abs_of(L, a, cj_t_int64, cj_t_int64);
    b = abs_of(L, b, cj_t_int64, cj_t_int64);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef loop = cj_new_bb(L, "gcd_loop"), body = cj_new_bb(L, "gcd_body"),
                      done = cj_new_bb(L, "gcd_done");
    LLVMBuildBr(B, loop);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef x = LLVMBuildPhi(B, LLVMInt64TypeInContext(L->ctx), "x");
    LLVMValueRef y = LLVMBuildPhi(B, LLVMInt64TypeInContext(L->ctx), "y");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, y, zero, ""), done, body);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef r = LLVMBuildURem(B, x, y, "");
    cj_ub_proof(r, "divisor: the loop ends when y == 0");
    LLVMBuildBr(B, loop);
    LLVMValueRef xin[2] = {a, y}, yin[2] = {b, r};
    LLVMBasicBlockRef from[2] = {pre, body};
    LLVMAddIncoming(x, xin, from, 2);
    LLVMAddIncoming(y, yin, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
    return x;
}

static LLVMValueRef lower_rule_math(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_builtin_info *bi = &cj_builtin_table[id];
    const cj_type *rt = in->rtype;
    switch (bi->rule) {
    case CJ_R_F1: {
        LLVMValueRef x = arg_as(L, call, 0, rt);
        if (id == CJ_B_M_DEGREES || id == CJ_B_NP_RAD2DEG) {
            return LLVMBuildFMul(L->b, x, cj_float_const(L, rt, 180.0 / M_PI), "");
        }
        if (id == CJ_B_M_RADIANS || id == CJ_B_NP_DEG2RAD) {
            return LLVMBuildFMul(L->b, x, cj_float_const(L, rt, M_PI / 180.0), "");
        }
        return cj_math1(L, bi->cname, rt, x);
    }
    case CJ_R_F2: {
        const cj_type *nt = vt(L, call->args[1]);
        if (id == CJ_B_M_POW && cj_type_is_integer(nt)) {
            /* an integer n: numba's float64 ** int64 (or uint64), multiplications */
            nt = nt->kind == CJ_INT && !nt->is_signed ? cj_t_uint64 : cj_t_int64;
            LLVMValueRef n = arg_as(L, call, 1, nt), x = arg_as(L, call, 0, rt);
            return n && x ? cj_lower_float_int_pow(L, x, rt, n, nt) : NULL;
        }
        return cj_math2(L, bi->cname, rt, arg_as(L, call, 0, rt), arg_as(L, call, 1, rt));
    }
    case CJ_R_TO_INT: {
        const cj_type *at = vt(L, call->args[0]);
        if (cj_type_is_integer(at)) {
            return arg_as(L, call, 0, cj_t_int64);
        }
        LLVMValueRef f = cj_math1(L, bi->cname, at, cj_load_var(L, call->args[0]));
        return rt->kind == CJ_FLOAT ? f : cj_float_to_int_checked(L, f, cj_t_int64); /* f16 */
    }
    case CJ_R_PRED:
        return predicate(L, id, cj_load_var(L, call->args[0]), vt(L, call->args[0]));
    case CJ_R_C1:
        return cj_lower_cmath1(L, id, arg_as(L, call, 0, rt), rt);
    case CJ_R_MINMAX2:
        return np_minmax(L, id, arg_as(L, call, 0, rt), arg_as(L, call, 1, rt), rt);
    default:
        return NULL;
    }
}

/* The cmath function computing NumPy's `id` on complex numbers (np.arcsin: cmath.asin). */
static int cmath_twin(int id) {
    const char *attr = cj_builtin_table[id].attr;
    char name[32];
    PyOS_snprintf(name, sizeof(name), "%s%s", strncmp(attr, "arc", 3) == 0 ? "a" : "",
                  strncmp(attr, "arc", 3) == 0 ? attr + 3 : attr);
    for (int k = CJ_B_C_SQRT; k <= CJ_B_C_ATANH; k++) {
        if (strcmp(cj_builtin_table[k].attr, name) == 0) {
            return k;
        }
    }
    return -1;
}

LLVMValueRef cj_lower_ufunc_element(cj_lower *L, int id, LLVMValueRef x, LLVMValueRef y,
                                    const cj_type *loop_in, const cj_type *loop_out) {
    const cj_builtin_info *bi = &cj_builtin_table[id];
    int complex_own = id == CJ_B_NP_LOG1P || id == CJ_B_NP_EXPM1 || id == CJ_B_NP_EXP2 ||
                      id == CJ_B_NP_LOG2 || id == CJ_B_NP_RINT || id == CJ_B_NP_SIGN;
    if (loop_in->kind == CJ_COMPLEX && complex_own) {
        return cj_lower_complex_ufunc1(L, id, x, loop_in); /* lower_cmath.c */
    }
    switch (id) {
    case CJ_B_ABS:
    case CJ_B_NP_ABSOLUTE:
        return loop_in->kind == CJ_BOOL ? x : abs_of(L, x, loop_in, loop_out);
    case CJ_B_NP_SIGN:
        return sign_of(L, x, loop_in);
    case CJ_B_NP_SQUARE:
        return cj_lower_binop(L, CJ_MUL, x, loop_in, x, loop_in, loop_in, loop_out);
    case CJ_B_NP_POWER:
        return cj_lower_binop(L, CJ_POW, x, loop_in, y, loop_in, loop_in, loop_out);
    case CJ_B_NP_LOGICAL_NOT:
        return LLVMBuildNot(L->b, cj_truth(L, x, loop_in), "");
    case CJ_B_NP_LOGICAL_AND:
        return LLVMBuildAnd(L->b, cj_truth(L, x, loop_in), cj_truth(L, y, loop_in), "");
    case CJ_B_NP_LOGICAL_OR:
        return LLVMBuildOr(L->b, cj_truth(L, x, loop_in), cj_truth(L, y, loop_in), "");
    case CJ_B_NP_LOGICAL_XOR:
        return LLVMBuildXor(L->b, cj_truth(L, x, loop_in), cj_truth(L, y, loop_in), "");
    default:
        break;
    }
    switch (bi->rule) {
    case CJ_R_F1:
        if (loop_in->kind == CJ_COMPLEX && cmath_twin(id) >= 0) {
            return cj_lower_cmath1(L, cmath_twin(id), x, loop_in);
        }
        if (loop_in->kind != CJ_FLOAT) { /* floor, ceil, trunc, rint of integers */
            return x;
        }
        if (id == CJ_B_NP_RAD2DEG || id == CJ_B_NP_DEG2RAD) {
            double k = id == CJ_B_NP_RAD2DEG ? 180.0 / M_PI : M_PI / 180.0;
            return LLVMBuildFMul(L->b, x, cj_float_const(L, loop_in, k), "");
        }
        return cj_math1(L, bi->cname, loop_out, x);
    case CJ_R_F2:
        return cj_math2(L, bi->cname, loop_out, x, y);
    case CJ_R_PRED:
        return predicate(L, id, x, loop_in);
    case CJ_R_MINMAX2:
        return np_minmax(L, id, x, y, loop_in);
    default:
        PyErr_Format(cj_LoweringError, "ufunc '%s' has no element loop", bi->attr);
        return NULL;
    }
}

/* divmod(x, y): (x // y, x % y). */
static LLVMValueRef divmod_of(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *rt = in->rtype;
    const cj_type *a = vt(L, call->args[0]);
    const cj_type *q = rt->items[0];
    LLVMValueRef x = cj_load_var(L, call->args[0]), y = cj_load_var(L, call->args[1]);
    const cj_type *yt = vt(L, call->args[1]);
    LLVMValueRef d = cj_lower_binop(L, CJ_FLOORDIV, x, a, y, yt, in->optype, q);
    LLVMValueRef m = d ? cj_lower_binop(L, CJ_MOD, x, a, y, yt, in->optype, q) : NULL;
    if (m == NULL) {
        return NULL;
    }
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, rt));
    r = LLVMBuildInsertValue(L->b, r, d, 0, "");
    return LLVMBuildInsertValue(L->b, r, m, 1, "");
}

/* math.modf(x): (fractional, integral); math.frexp(x): (mantissa, exponent). */
static LLVMValueRef modf_frexp(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_type *rt = in->rtype;
    const cj_type *ft = rt->items[0];
    LLVMValueRef x = arg_as(L, call, 0, ft);
    LLVMValueRef first, second;
    if (id == CJ_B_M_MODF) { /* (fractional part, integral part), signs of x */
        LLVMValueRef ip = cj_math1(L, "trunc", ft, x);
        LLVMValueRef inf = LLVMBuildFCmp(L->b, LLVMRealOEQ, fabs_of(L, ft, x),
                                         cj_float_const(L, ft, INFINITY), "");
        first = cj_math2(L, "copysign", ft,
                      LLVMBuildSelect(L->b, inf, cj_float_const(L, ft, 0.0),
                                      LLVMBuildFSub(L->b, x, ip, ""), ""), x);
        second = ip;
    } else { /* x = m * 2**e with 0.5 <= |m| < 1: e from log2, fixed up */
        LLVMValueRef ax = fabs_of(L, ft, x);
        LLVMValueRef zero_or_odd = LLVMBuildOr(L->b,
            LLVMBuildFCmp(L->b, LLVMRealOEQ, x, cj_float_const(L, ft, 0.0), ""),
            LLVMBuildFCmp(L->b, LLVMRealUGE, ax, cj_float_const(L, ft, INFINITY), ""), "");
        LLVMValueRef e = LLVMBuildFAdd(L->b, cj_math1(L, "floor", ft, cj_math1(L, "log2", ft, ax)),
                                       cj_float_const(L, ft, 1.0), "");
        /* log2 of 0, inf, nan is not finite: convert 0 instead (those x return early) */
        e = LLVMBuildSelect(L->b, zero_or_odd, cj_float_const(L, ft, 0.0), e, "");
        LLVMValueRef ei = LLVMBuildFPToSI(L->b, e, LLVMInt32TypeInContext(L->ctx), "");
        cj_ub_proof(ei, "operand: the exponent of a finite non-zero float, |e| < 1100");
        LLVMValueRef args[2] = {x, LLVMBuildNeg(L->b, ei, "")};
        LLVMValueRef m = cj_math_call(L, "ldexp", ft, 2, args);
        /* log2 rounding can leave |m| at 1.0: one more halving */
        LLVMValueRef big = LLVMBuildFCmp(L->b, LLVMRealOGE, fabs_of(L, ft, m),
                                         cj_float_const(L, ft, 1.0), "");
        m = LLVMBuildSelect(L->b, big, LLVMBuildFMul(L->b, m, cj_float_const(L, ft, 0.5), ""), m, "");
        ei = LLVMBuildSelect(L->b, big, LLVMBuildAdd(L->b, ei, LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 1, 0), ""), ei, "");
        first = LLVMBuildSelect(L->b, zero_or_odd, x, m, "");
        second = LLVMBuildSelect(L->b, zero_or_odd, LLVMConstNull(LLVMInt32TypeInContext(L->ctx)),
                                 ei, "");
    }
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, rt));
    r = LLVMBuildInsertValue(L->b, r, first, 0, "");
    return LLVMBuildInsertValue(L->b, r, second, 1, "");
}

/* cmath.phase(z); cmath.polar(z): (abs(z), phase(z)). */
static LLVMValueRef phase_polar(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_type *rt = in->rtype;
    LLVMValueRef z = arg_as(L, call, 0, cj_t_complex128), im;
    LLVMValueRef re = cj_complex_parts(L, z, &im);
    LLVMValueRef phase = cj_math2(L, "atan2", cj_t_float64, im, re);
    if (id == CJ_B_C_PHASE) {
        return phase;
    }
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, rt));
    r = LLVMBuildInsertValue(L->b, r, cj_math2(L, "hypot", cj_t_float64, re, im), 0, "");
    return LLVMBuildInsertValue(L->b, r, phase, 1, "");
}

/* np.power in its loop's type (float ** int is pow(x, float(n))), pow() as `**`. */
static LLVMValueRef power_of(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_type *bt = vt(L, call->args[1]);
    LLVMValueRef y = cj_load_var(L, call->args[1]);
    if (id == CJ_B_NP_POWER && in->optype != NULL && in->optype->kind == CJ_FLOAT &&
        cj_type_is_integer(bt)) {
        y = cj_cast(L, y, bt, in->optype);
        bt = in->optype;
    }
    return y ? cj_lower_binop(L, CJ_POW, cj_load_var(L, call->args[0]), vt(L, call->args[0]), y,
                              bt, in->optype, in->rtype)
             : NULL;
}

static LLVMValueRef lower_special(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_type *rt = in->rtype;
    const cj_type *a = call->nargs > 0 ? vt(L, call->args[0]) : NULL;
    switch (id) {
    case CJ_B_ABS:
    case CJ_B_OP_ABS:
    case CJ_B_NP_ABSOLUTE:
        return abs_of(L, cj_load_var(L, call->args[0]), a, rt);
    case CJ_B_NP_SIGN:
        return sign_of(L, arg_as(L, call, 0, rt), rt);
    case CJ_B_NP_SQUARE: {
        LLVMValueRef x = arg_as(L, call, 0, rt);
        return cj_lower_binop(L, CJ_MUL, x, rt, x, rt, rt, rt);
    }
    case CJ_B_SUM: /* of a tuple: the others' sum() are not CJ_CALL_BUILTIN */
        return cj_lower_tuple_sum(L, in, call);
    case CJ_B_MIN:
    case CJ_B_MAX:
        return minmax(L, in, call, id == CJ_B_MAX);
    case CJ_B_ROUND:
        return round_of(L, in, call);
    case CJ_B_LEN:
        return len_of(L, call);
    case CJ_B_TYPE: /* a class, a constant of typing (typing/type_builtin.c) */
        return cj_empty(L);
    case CJ_B_ISINSTANCE: /* decided by typing (typing/isinstance.c) */
        return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), (unsigned long long)call->truth, 0);
    case CJ_B_RANGE:
    case CJ_B_PRANGE:
        return make_range(L, call);
    case CJ_B_GET_THREAD_ID:
    case CJ_B_GET_NUM_THREADS:
        return cj_lower_thread_query(L, id); /* lower_prange.c */
    case CJ_B_ENUMERATE:
    case CJ_B_ZIP:
    case CJ_B_NP_NDENUMERATE:
    case CJ_B_NP_NDINDEX:
        return cj_lower_make_iterator(L, in, call); /* lower_iter.c */
    case CJ_B_POW:
    case CJ_B_NP_POWER:
        return power_of(L, in, call, id);
    case CJ_B_DIVMOD:
        return divmod_of(L, in, call);
    case CJ_B_COMPLEX: /* complex(re, im) */
        return cj_make_complex(L, rt, arg_as(L, call, 0, cj_t_float64),
                               arg_as(L, call, 1, cj_t_float64));
    case CJ_B_M_LOG: {
        LLVMValueRef x = arg_as(L, call, 0, rt);
        LLVMValueRef lx = cj_math1(L, "log", rt, x);
        if (call->nargs == 1) {
            return lx;
        }
        return LLVMBuildFDiv(L->b, lx, cj_math1(L, "log", rt, arg_as(L, call, 1, rt)), "");
    }
    case CJ_B_M_GCD:
        return gcd_of(L, arg_as(L, call, 0, cj_t_int64), arg_as(L, call, 1, cj_t_int64));
    case CJ_B_M_LDEXP: {
        LLVMValueRef args[2] = {arg_as(L, call, 0, rt),
                                LLVMBuildTrunc(L->b, arg_as(L, call, 1, cj_t_int64),
                                               LLVMInt32TypeInContext(L->ctx), "")};
        return cj_math_call(L, "ldexp", rt, 2, args);
    }
    case CJ_B_M_MODF:
    case CJ_B_M_FREXP:
        return modf_frexp(L, in, call, id);
    case CJ_B_C_PHASE:
    case CJ_B_C_POLAR:
        return phase_polar(L, in, call, id);
    case CJ_B_C_RECT: {
        LLVMValueRef r = arg_as(L, call, 0, cj_t_float64), phi = arg_as(L, call, 1, cj_t_float64);
        return cj_make_complex(L, rt, LLVMBuildFMul(L->b, r, cj_math1(L, "cos", cj_t_float64, phi), ""),
                               LLVMBuildFMul(L->b, r, cj_math1(L, "sin", cj_t_float64, phi), ""));
    }
    case CJ_B_OP_TRUTH:
        return cj_truth(L, cj_load_var(L, call->args[0]), a);
    default:
        PyErr_Format(cj_LoweringError, "cujit cannot lower %s()", cj_builtin_table[id].attr);
        return NULL;
    }
}

static LLVMValueRef lower_operator_fn(cj_lower *L, cj_instr *in, const cj_call *call, int id) {
    const cj_builtin_info *bi = &cj_builtin_table[id];
    LLVMValueRef a = cj_load_var(L, call->args[0]);
    const cj_type *at = vt(L, call->args[0]);
    if (bi->rule == CJ_R_UNOP) {
        return cj_lower_unary(L, id - CJ_B_OP_NEG, a, at, in->rtype);
    }
    LLVMValueRef b = cj_load_var(L, call->args[1]);
    const cj_type *bt = vt(L, call->args[1]);
    if (bi->rule == CJ_R_CMPOP) {
        return cj_lower_compare(L, id - CJ_B_OP_LT, a, at, b, bt, in->optype);
    }
    return cj_lower_binop(L, cj_binop_of_builtin(id), a, at, b, bt, in->optype, in->rtype);
}

static LLVMValueRef lower_builtin(cj_lower *L, cj_instr *in, const cj_call *call) {
    int id = call->builtin;
    if (id == CJ_B_NP_SORT || id == CJ_B_NP_ARGSORT) { /* lower_array_sort.c */
        int fresh;
        return cj_lower_array_sort(L, in, id, cj_load_var(L, call->args[0]), call->argtypes[0],
                                   0, &fresh);
    }
    if (cj_builtin_searches(id)) { /* lower_array_search.c: np.nonzero, np.argwhere */
        return cj_lower_array_search(L, in, id, cj_load_var(L, call->args[0]),
                                     call->argtypes[0]);
    }
    if (cj_builtin_joins(id)) { /* lower_array_join.c */
        return cj_lower_array_join(L, in, call);
    }
    if (id == CJ_B_NP_DOT || id == CJ_B_NP_VDOT) { /* lower_array_linalg.c */
        int fresh;
        return cj_lower_dot(L, in, call->args[0], call->args[1],
                            call->nargs > 2 ? call->args[2] : -1, id == CJ_B_NP_VDOT, &fresh);
    }
    if (cj_builtin_makes_array(id)) {
        return cj_lower_array_new(L, in, call);
    }
    if (cj_builtin_random(id)) { /* lower_random.c */
        return cj_lower_random(L, in, call);
    }
    if (cj_builtin_py_random(id)) { /* lower_py_random.c: Python's random module */
        return cj_lower_py_random(L, in, call);
    }
    if (cj_builtin_reduces(id)) {
        return cj_lower_reduction(L, in, call, cj_load_var(L, call->args[0]), call->argtypes[0],
                                  1);
    }
    if (cj_builtin_array_method(id)) { /* np.copy(a), np.transpose(a) */
        return cj_lower_array_method(L, id, cj_load_var(L, call->args[0]), call->argtypes[0],
                                     in, call, 1);
    }
    if (cj_builtin_creates(id)) { /* np.arange, np.linspace, np.eye, np.array ... */
        return cj_lower_array_create(L, in, call);
    }
    if (cj_builtin_shapes(id)) { /* np.reshape(a, shape), np.ravel(a), np.conj(a) */
        return cj_lower_array_shape(L, id, cj_load_var(L, call->args[0]), call->argtypes[0],
                                    in, call, 1);
    }
    switch (cj_builtin_table[id].rule) {
    case CJ_R_SPECIAL:
        return lower_special(L, in, call, id);
    case CJ_R_BINOP:
    case CJ_R_CMPOP:
    case CJ_R_UNOP:
        return lower_operator_fn(L, in, call, id);
    default:
        return lower_rule_math(L, in, call, id);
    }
}

/* A call to a jitted function: fn(ret*, args...) -> status, propagated. */
static LLVMValueRef lower_jitted_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    LLVMValueRef fn = call->kind == CJ_CALL_SELF ? L->fn
                                                 : L->env->callee_function(L->env, L->mod,
                                                                           call->callee);
    if (fn == NULL) {
        return NULL;
    }
    const cj_type *rt = in->rtype->kind == CJ_VOID ? cj_t_none : in->rtype;
    LLVMValueRef args[66];
    args[0] = cj_entry_alloca(L, cj_llvm_type(L->ctx, rt), "callret");
    for (int i = 0; i < call->nargs; i++) {
        const cj_type *to = call->argtypes[i];
        if (call->args[i] == CJ_ARG_PACKED || call->args[i] <= CJ_ARG_STAR_ITEM(0)) {
            if ((args[i + 1] = cj_lower_star_slot(L, in, call, i)) == NULL) { /* *args */
                return NULL;
            }
        } else if (call->args[i] < 0 || to->kind == CJ_OMITTED) {
            args[i + 1] = cj_empty(L);
        } else if ((args[i + 1] = arg_as(L, call, i, to)) == NULL) {
            return NULL;
        }
    }
    LLVMTypeRef ft = LLVMGetElementType(LLVMTypeOf(fn));
    LLVMValueRef status = LLVMBuildCall2(L->b, ft, fn, args, (unsigned)call->nargs + 1, "status");
    cj_emit_check_status(L, status);
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, rt), args[0], "result");
}

/* The GETATTR that bound the method `in` calls (its receiver is args[0]); NULL + error. */
/* A method call: the receiver is the bound GETATTR's object. */
static LLVMValueRef lower_method_call(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_instr *get = cj_method_getattr(L, in);
    if (get == NULL) {
        return NULL;
    }
    const cj_type *rt = vt(L, get->args[0]);
    LLVMValueRef receiver = cj_load_var(L, get->args[0]);
    if (call->builtin == CJ_B_NP_SORT || call->builtin == CJ_B_NP_ARGSORT) {
        int fresh; /* lower_array_sort.c: a.sort() in place */
        return cj_lower_array_sort(L, in, call->builtin, receiver, rt,
                                   call->builtin == CJ_B_NP_SORT, &fresh);
    }
    if (call->builtin == CJ_B_METH_TUPLE_INDEX) { /* lower_tuple.c */
        return cj_lower_tuple_index(L, call, receiver, rt);
    }
    if (call->builtin == CJ_B_NP_NONZERO) { /* lower_array_search.c */
        return cj_lower_array_search(L, in, CJ_B_NP_NONZERO, receiver, rt);
    }
    if (cj_builtin_reduces(call->builtin)) {
        return cj_lower_reduction(L, in, call, receiver, rt, 0);
    }
    if (cj_builtin_array_method(call->builtin)) {
        return cj_lower_array_method(L, call->builtin, receiver, rt, in, call, 0);
    }
    if (cj_builtin_shapes(call->builtin)) {
        return cj_lower_array_shape(L, call->builtin, receiver, rt, in, call, 0);
    }
    LLVMValueRef z = cj_cast(L, receiver, rt, in->rtype); /* conjugate() */
    if (in->rtype->kind == CJ_COMPLEX) {
        LLVMValueRef im;
        LLVMValueRef re = cj_complex_parts(L, z, &im);
        z = cj_make_complex(L, in->rtype, re, LLVMBuildFNeg(L->b, im, ""));
    }
    return z;
}

int cj_lower_call(cj_lower *L, cj_instr *in) {
    const cj_call *call = in->resolved;
    LLVMValueRef r = NULL;
    if (call == NULL) {
        PyErr_SetString(cj_LoweringError, "call was not resolved by typing");
        return -1;
    }
    switch (call->kind) {
    case CJ_CALL_BUILTIN:
        r = lower_builtin(L, in, call);
        break;
    case CJ_CALL_CAST: /* int(x) of a float is Python's; np.int64(x) etc. cast */
        r = call->builtin == CJ_B_INT && vt(L, call->args[0])->kind == CJ_FLOAT
                ? cj_float_to_int_checked(L, cj_load_var(L, call->args[0]), in->rtype)
                : arg_as(L, call, 0, in->rtype);
        break;
    case CJ_CALL_METHOD: /* conjugate(), a.sum() ... a.all(), a.copy() ..., a.sort() */
        r = lower_method_call(L, in, call);
        break;
    case CJ_CALL_STR: /* flagged CJ_F_STR: lowered by lower_str_ops.c */
        return cj_lower_str_instr(L, in);
    case CJ_CALL_LIST: /* lower_list.c */
        r = cj_lower_list_call(L, in, call);
        break;
    case CJ_CALL_DICT: /* lower_dict_ops.c */
        r = cj_lower_dict_call(L, in, call);
        break;
    case CJ_CALL_SET: /* lower_set.c */
        r = cj_lower_set_call(L, in, call);
        break;
    case CJ_CALL_GENERATOR: /* lower_generator.c */
        r = cj_gen_lower_call(L, in, call);
        break;
    case CJ_CALL_DISPATCHER:
    case CJ_CALL_SELF:
        r = lower_jitted_call(L, in, call);
        break;
    case CJ_CALL_EXCEPTION:
        r = cj_empty(L);
        break;
    case CJ_CALL_EXTENSION: /* lower_extension.c */
        r = cj_lower_extension_call(L, in, call);
        break;
    case CJ_CALL_CUDA: /* lower_cuda.c */
        r = cj_cuda_lower_call(L, in, call);
        break;
    case CJ_CALL_OBJMODE: /* lower_objmode.c */
        r = cj_lower_objmode_call(L, in, call);
        break;
    case CJ_CALL_UFUNC: { /* lower_array_expr.c */
        if (L->fused[in->dst] == in) {
            return 0; /* computed in its reader's loop (lower_array_fuse.c) */
        }
        int fresh;
        r = cj_lower_array_op(L, in, &fresh);
        return r == NULL ? -1
               : fresh   ? cj_store_var_taking(L, in->dst, r, in->rtype)
                         : cj_store_var(L, in->dst, r, in->rtype);
    }
    }
    if (r == NULL) {
        return -1;
    }
    /* a jitted callee's result and a new array come with their references: the variable
     * takes them over */
    int hands_over = call->kind == CJ_CALL_DISPATCHER || call->kind == CJ_CALL_SELF ||
                     cj_call_hands_over(call) ||
                     ((call->kind == CJ_CALL_BUILTIN || call->kind == CJ_CALL_METHOD) &&
                      cj_builtin_reduces(call->builtin) && in->rtype->kind == CJ_ARRAY);
    return hands_over ? cj_store_var_taking(L, in->dst, r, in->rtype)
                      : cj_store_var(L, in->dst, r, in->rtype);
}
