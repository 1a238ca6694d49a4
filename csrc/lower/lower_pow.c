/* lower_pow.c: powers as numba computes them, bit for bit: an integer exponent (int or float
 * base) by numba's int_power_impl, multiplied out when the exponent is a constant, and complex
 * powers by numba's complex_power_impl (CPython's _Py_c_pow). float ** float stays in
 * lower_num.c (the C library's pow). */
#include "lower/lower_internal.h"

#include <math.h>
#include <stdint.h>

static int error_python(cj_lower *L) { return L->env->error_model == CJ_ERRORS_PYTHON; }

static LLVMValueRef is_zero(cj_lower *L, LLVMValueRef v) {
    return LLVMBuildICmp(L->b, LLVMIntEQ, v, LLVMConstNull(LLVMTypeOf(v)), "is_zero");
}

/* Ends the current block with a branch to `join` and there makes the phi of `first` (from
 * block `from_first`) and the current block's `second`. */
static LLVMValueRef join_two(cj_lower *L, LLVMBasicBlockRef join, LLVMValueRef first,
                             LLVMBasicBlockRef from_first, LLVMValueRef second, const char *name) {
    LLVMBasicBlockRef from_second = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, join);
    LLVMPositionBuilderAtEnd(L->b, join);
    LLVMValueRef phi = LLVMBuildPhi(L->b, LLVMTypeOf(first), name);
    LLVMValueRef in[2] = {first, second};
    LLVMBasicBlockRef from[2] = {from_first, from_second};
    LLVMAddIncoming(phi, in, from, 2);
    return phi;
}

/* ---- powers with an integer exponent: numba's int_power_impl ----
 * numba computes `a ** n` for an integer n and an int or float a as
 *     r = 1
 *     if n < 0: OverflowError if -n overflows; an int a: 0 raises ZeroDivisionError
 *               (error_model='numpy': the result is the type's minimum), |a| != 1 gives 0
 *     if |n| > 0x10000: return math.pow(a, float(n))
 *     while |n|: if |n| & 1: r *= a;  |n| >>= 1;  a *= a
 *     return 1.0 / r if n < 0 else r
 * where a float's `1.0 / r` divides in float64 (a float64 literal over r) and raises
 * ZeroDivisionError for r == 0 under error_model='python'. Its typing also has a static
 * version for a literal exponent, which numba 0.68 never reaches: LLVM unrolls the loop for a
 * constant n instead. A constant exponent (CJ_F_CONST_EXP, or any LLVM constant) is multiplied
 * out here, the same products in the same order, so the values are numba's bit for bit. An
 * int a with |n| > 0x10000 keeps the loop (int64 wraparound: numba converts math.pow's float
 * back, undefined beyond int64 for |a| >= 2). */
#define POW_LOOP_LIMIT 0x10000

static LLVMValueRef pow_mul(cj_lower *L, LLVMValueRef x, LLVMValueRef y, int is_float) {
    return is_float ? LLVMBuildFMul(L->b, x, y, "pow") : LLVMBuildMul(L->b, x, y, "pow");
}

/* a ** k for a constant k >= 0: the loop's products, unrolled (its first r = 1 * a is a). */
static LLVMValueRef pow_unrolled(cj_lower *L, LLVMValueRef a, unsigned long long k,
                                 LLVMValueRef one, int is_float) {
    LLVMValueRef r = NULL;
    while (k != 0) {
        if (k & 1) {
            r = r == NULL ? a : pow_mul(L, r, a, is_float);
        }
        k >>= 1;
        if (k != 0) {
            a = pow_mul(L, a, a, is_float);
        }
    }
    return r != NULL ? r : one;
}

/* a ** k by squaring for a run-time k (an i64 read as unsigned): numba's while loop. */
static LLVMValueRef pow_loop(cj_lower *L, LLVMValueRef a, LLVMValueRef k, LLVMValueRef one,
                             int is_float) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = LLVMTypeOf(a), kt = LLVMTypeOf(k);
    LLVMValueRef kzero = LLVMConstNull(kt), kone = LLVMConstInt(kt, 1, 0);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = cj_new_bb(L, "pow_head"), body = cj_new_bb(L, "pow_body"),
                      done = cj_new_bb(L, "pow_done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef r = LLVMBuildPhi(B, t, "r"), x = LLVMBuildPhi(B, t, "x"),
                 n = LLVMBuildPhi(B, kt, "k");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, n, kzero, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, n, kone, ""), kzero, "");
    LLVMValueRef r2 = LLVMBuildSelect(B, odd, pow_mul(L, r, x, is_float), r, "");
    LLVMValueRef x2 = pow_mul(L, x, x, is_float);
    LLVMValueRef n2 = LLVMBuildLShr(B, n, kone, "");
    LLVMBuildBr(B, head);
    LLVMValueRef r_in[2] = {one, r2}, x_in[2] = {a, x2}, n_in[2] = {k, n2};
    LLVMBasicBlockRef from[2] = {pre, body};
    LLVMAddIncoming(r, r_in, from, 2);
    LLVMAddIncoming(x, x_in, from, 2);
    LLVMAddIncoming(n, n_in, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
    return r;
}

/* numba's OverflowError (no text) where -n overflows: n the minimum of its signed type (numba's
 * float ** int takes int8..int32 as int32, so for those `n` is widened and `min` INT32_MIN). */
static int pow_overflow_check(cj_lower *L, LLVMValueRef n, long long min) {
    int id = cj_exc_id(L, PyExc_OverflowError);
    if (id < 0) {
        return -1;
    }
    LLVMValueRef m = LLVMConstInt(LLVMTypeOf(n), (unsigned long long)min, 1);
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, n, m, ""), id);
    return 0;
}

/* An int's result for a negative exponent, p = a ** -n: 0 ** -n raises (error_model='python')
 * or is the type's minimum ('numpy'); 1 and -1 give p; every other base 0. */
static LLVMValueRef int_pow_negative(cj_lower *L, LLVMValueRef base, LLVMValueRef p,
                                     LLVMValueRef negative) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = LLVMTypeOf(base);
    LLVMValueRef base_zero = is_zero(L, base);
    LLVMValueRef other = LLVMConstNull(t);
    if (error_python(L)) {
        cj_emit_raise_if(L, LLVMBuildAnd(B, negative, base_zero, ""), CJ_EXC_POW_ZERO);
    } else {
        unsigned bits = LLVMGetIntTypeWidth(t);
        other = LLVMBuildSelect(B, base_zero, LLVMConstInt(t, 1ULL << (bits - 1), 0), other, "");
    }
    LLVMValueRef unit = LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntEQ, base, LLVMConstInt(t, 1, 0), ""),
                                    LLVMBuildICmp(B, LLVMIntEQ, base, LLVMConstAllOnes(t), ""), "");
    return LLVMBuildSelect(B, unit, p, other, "");
}

/* The constant exponent of `exp` in [-POW_LOOP_LIMIT, POW_LOOP_LIMIT] into *k, or 0. */
static int small_constant(LLVMValueRef exp, int is_signed, long long *k) {
    if (LLVMIsAConstantInt(exp) == NULL) {
        return 0;
    }
    unsigned long long u = LLVMConstIntGetZExtValue(exp);
    long long v = is_signed ? LLVMConstIntGetSExtValue(exp) : (long long)u;
    if ((!is_signed && u > POW_LOOP_LIMIT) || v < -POW_LOOP_LIMIT || v > POW_LOOP_LIMIT) {
        return 0;
    }
    *k = v;
    return 1;
}

/* i ** n for integers of one type: int64 or uint64 (narrower in NumPy's ufunc loops, where
 * numba's int_power_impl works in the loop's type too). */
LLVMValueRef cj_lower_int_pow(cj_lower *L, LLVMValueRef base, LLVMValueRef exp, int is_signed) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = LLVMTypeOf(base);
    LLVMValueRef one = LLVMConstInt(t, 1, 0);
    long long k;
    if (small_constant(exp, is_signed, &k)) {
        LLVMValueRef p = pow_unrolled(L, base, (unsigned long long)(k < 0 ? -k : k), one, 0);
        return k >= 0 ? p
                      : int_pow_negative(L, base, p, LLVMConstInt(LLVMInt1TypeInContext(L->ctx),
                                                                  1, 0));
    }
    if (!is_signed) {
        return pow_loop(L, base, exp, one, 0);
    }
    LLVMValueRef negative = LLVMBuildICmp(B, LLVMIntSLT, exp, LLVMConstNull(t), "");
    unsigned width = LLVMGetIntTypeWidth(t);
    if (pow_overflow_check(L, exp, width >= 64 ? INT64_MIN : -(1LL << (width - 1))) < 0) {
        return NULL;
    }
    LLVMValueRef n = LLVMBuildSelect(B, negative, LLVMBuildNeg(B, exp, ""), exp, "n");
    LLVMValueRef p = pow_loop(L, base, n, one, 0);
    return LLVMBuildSelect(B, negative, int_pow_negative(L, base, p, negative), p, "ipow");
}

/* numba's `1.0 / r` for a negative exponent: float64 division, rounded to r's type; a zero r
 * raises ZeroDivisionError under error_model='python' (numpy: inf). `negative` may be NULL
 * (known negative). */
static LLVMValueRef float_pow_invert(cj_lower *L, LLVMValueRef r, const cj_type *t,
                                     LLVMValueRef negative) {
    LLVMBuilderRef B = L->b;
    if (error_python(L)) {
        LLVMValueRef z = LLVMBuildFCmp(B, LLVMRealOEQ, r, cj_float_const(L, t, 0.0), "");
        cj_emit_raise_if(L, negative ? LLVMBuildAnd(B, negative, z, "") : z, CJ_EXC_DIV_ZERO);
    }
    LLVMTypeRef d = LLVMDoubleTypeInContext(L->ctx);
    int narrow = t->bits < 64;
    LLVMValueRef q = LLVMBuildFDiv(B, LLVMConstReal(d, 1.0),
                                   narrow ? LLVMBuildFPExt(B, r, d, "") : r, "pow_inv");
    if (narrow) {
        q = LLVMBuildFPTrunc(B, q, cj_llvm_type(L->ctx, t), "");
    }
    return negative ? LLVMBuildSelect(B, negative, q, r, "") : q;
}

/* float ** int (a of the float type t, n of the integer type nt): numba's int_power_impl. */
LLVMValueRef cj_lower_float_int_pow(cj_lower *L, LLVMValueRef a, const cj_type *t,
                                    LLVMValueRef n, const cj_type *nt) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), d = LLVMDoubleTypeInContext(L->ctx);
    int is_signed = nt->kind == CJ_INT && nt->is_signed;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(n));
    if (bits < 64) {
        n = is_signed ? LLVMBuildSExt(B, n, i64, "") : LLVMBuildZExt(B, n, i64, "");
    }
    LLVMValueRef one = cj_float_const(L, t, 1.0);
    long long k;
    if (small_constant(n, is_signed, &k)) {
        LLVMValueRef r = pow_unrolled(L, a, (unsigned long long)(k < 0 ? -k : k), one, 1);
        return k >= 0 ? r : float_pow_invert(L, r, t, NULL);
    }
    LLVMValueRef negative = NULL, mag = n;
    if (is_signed) {
        if (pow_overflow_check(L, n, bits <= 32 ? INT32_MIN : INT64_MIN) < 0) {
            return NULL;
        }
        negative = LLVMBuildICmp(B, LLVMIntSLT, n, LLVMConstNull(i64), "");
        mag = LLVMBuildSelect(B, negative, LLVMBuildNeg(B, n, ""), n, "n");
    }
    /* |n| > 0x10000: math.pow(a, float(n)) in float64 */
    LLVMBasicBlockRef far = cj_new_bb(L, "pow_far"), near = cj_new_bb(L, "pow_near"),
                      join = cj_new_bb(L, "pow_join");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntUGT, mag, LLVMConstInt(i64, POW_LOOP_LIMIT, 0), ""),
                    far, near);
    LLVMPositionBuilderAtEnd(B, far);
    LLVMValueRef fn = is_signed ? LLVMBuildSIToFP(B, n, d, "") : LLVMBuildUIToFP(B, n, d, "");
    LLVMValueRef args[2] = {t->bits < 64 ? LLVMBuildFPExt(B, a, d, "") : a, fn};
    LLVMValueRef rfar = cj_math_call(L, "pow", cj_t_float64, 2, args);
    if (t->bits < 64) {
        rfar = LLVMBuildFPTrunc(B, rfar, cj_llvm_type(L->ctx, t), "");
    }
    LLVMBasicBlockRef far_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, near);
    LLVMValueRef r = pow_loop(L, a, mag, one, 1);
    if (negative != NULL) {
        r = float_pow_invert(L, r, t, negative);
    }
    return join_two(L, join, rfar, far_end, r, "fpowi");
}

/* A libm call LLVM must leave as a call (nobuiltin): numba's complex power is C code calling
 * pow(vabs, n), which LLVM would otherwise turn into 1 / vabs for n = -1. */
static LLVMValueRef libm_call(cj_lower *L, const char *name, int nargs, LLVMValueRef *args) {
    LLVMValueRef call = cj_math_call(L, name, cj_t_float64, nargs, args);
    unsigned kind = LLVMGetEnumAttributeKindForName("nobuiltin", 9);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(L->ctx, kind, 0));
    return call;
}

/* CPython's _Py_c_pow in float64, which numba's numba_cpow calls (its EDOM case, 0 ** w with
 * w not a positive real, gives NaN parts):
 *     w == 0: 1;  z == 0: 0 (EDOM: nan);
 *     else vabs = hypot(z), len = pow(vabs, w.re), at = atan2(z.im, z.re), phase = at * w.re,
 *          if w.im != 0: len /= exp(at * w.im), phase += w.im * log(vabs);
 *          len * cos(phase), len * sin(phase) */
static void c_pow(cj_lower *L, LLVMValueRef ar, LLVMValueRef ai, LLVMValueRef br,
                  LLVMValueRef bi, LLVMValueRef *re, LLVMValueRef *im) {
    LLVMBuilderRef B = L->b;
    const cj_type *d = cj_t_float64;
    LLVMValueRef zero = cj_float_const(L, d, 0.0);
    LLVMValueRef hyp_args[2] = {ar, ai}, at_args[2] = {ai, ar};
    LLVMValueRef vabs = libm_call(L, "hypot", 2, hyp_args);
    LLVMValueRef len = libm_call(L, "pow", 2, (LLVMValueRef[]){vabs, br});
    LLVMValueRef at = libm_call(L, "atan2", 2, at_args);
    LLVMValueRef phase = LLVMBuildFMul(B, at, br, "");
    LLVMValueRef bi_nz = LLVMBuildFCmp(B, LLVMRealUNE, bi, zero, "");
    LLVMValueRef e = libm_call(L, "exp", 1, (LLVMValueRef[]){LLVMBuildFMul(B, at, bi, "")});
    LLVMValueRef lg = libm_call(L, "log", 1, &vabs);
    len = LLVMBuildSelect(B, bi_nz, LLVMBuildFDiv(B, len, e, ""), len, "");
    phase = LLVMBuildSelect(B, bi_nz, LLVMBuildFAdd(B, phase, LLVMBuildFMul(B, bi, lg, ""), ""),
                            phase, "");
    LLVMValueRef r = LLVMBuildFMul(B, len, libm_call(L, "cos", 1, &phase), "");
    LLVMValueRef i = LLVMBuildFMul(B, len, libm_call(L, "sin", 1, &phase), "");
    LLVMValueRef a_zero = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOEQ, ar, zero, ""),
                                       LLVMBuildFCmp(B, LLVMRealOEQ, ai, zero, ""), "");
    LLVMValueRef edom = LLVMBuildOr(B, bi_nz, LLVMBuildFCmp(B, LLVMRealOLT, br, zero, ""), "");
    LLVMValueRef at_zero = LLVMBuildSelect(B, edom, cj_float_const(L, d, NAN), zero, "");
    r = LLVMBuildSelect(B, a_zero, at_zero, r, "");
    i = LLVMBuildSelect(B, a_zero, at_zero, i, "");
    LLVMValueRef b_zero = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOEQ, br, zero, ""),
                                       LLVMBuildFCmp(B, LLVMRealOEQ, bi, zero, ""), "");
    *re = LLVMBuildSelect(B, b_zero, cj_float_const(L, d, 1.0), r, "");
    *im = LLVMBuildSelect(B, b_zero, zero, i, "");
}

/* numba's complex_power_impl (complex ** int too: the exponent made complex): z * z for an
 * exponent of exactly 2, else _Py_c_pow in float64 (complex64 rounded back, numba_cpowf). */
LLVMValueRef cj_lower_complex_pow(cj_lower *L, LLVMValueRef a, LLVMValueRef b, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    const cj_type *pt = cj_type_float(t->bits / 2);
    LLVMValueRef ai, bi;
    LLVMValueRef ar = cj_complex_parts(L, a, &ai), br = cj_complex_parts(L, b, &bi);
    LLVMValueRef two = LLVMBuildAnd(
        B, LLVMBuildFCmp(B, LLVMRealOEQ, br, cj_float_const(L, pt, 2.0), ""),
        LLVMBuildFCmp(B, LLVMRealOEQ, bi, cj_float_const(L, pt, 0.0), ""), "");
    if (LLVMIsAConstantInt(two) != NULL && LLVMConstIntGetZExtValue(two)) {
        return cj_complex_mul(L, a, a, t); /* a constant 2 (z ** 2) */
    }
    LLVMBasicBlockRef sq_bb = cj_new_bb(L, "cpow_square"), gen_bb = cj_new_bb(L, "cpow"),
                      join = cj_new_bb(L, "cpow_join");
    LLVMBuildCondBr(B, two, sq_bb, gen_bb);
    LLVMPositionBuilderAtEnd(B, sq_bb);
    LLVMValueRef sq = cj_complex_mul(L, a, a, t);
    LLVMBasicBlockRef sq_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, gen_bb);
    LLVMTypeRef d = LLVMDoubleTypeInContext(L->ctx);
    int narrow = pt->bits < 64;
#define WIDE(v) (narrow ? LLVMBuildFPExt(B, (v), d, "") : (v))
    LLVMValueRef re, im;
    c_pow(L, WIDE(ar), WIDE(ai), WIDE(br), WIDE(bi), &re, &im);
#undef WIDE
    if (narrow) {
        /* numba_cpowf builds its result as `re + _Complex_I * im` in float: the real part is
         * re + 0 * im (NaN where im is infinite or NaN, +0 for -0 with im > 0) */
        LLVMTypeRef f = cj_llvm_type(L->ctx, pt);
        re = LLVMBuildFPTrunc(B, re, f, "");
        im = LLVMBuildFPTrunc(B, im, f, "");
        re = LLVMBuildFAdd(B, re, LLVMBuildFMul(B, cj_float_const(L, pt, 0.0), im, ""), "");
    }
    return join_two(L, join, sq, sq_end, cj_make_complex(L, t, re, im), "cpow");
}
