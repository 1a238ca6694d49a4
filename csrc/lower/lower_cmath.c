/* lower_cmath.c: the cmath functions of a complex number, by their formulas over real math
 * (the target's libm on the CPU, libdevice on CUDA), and the NumPy ufuncs of complex numbers
 * numba computes by its own formulas (log1p, expm1, exp2, log2, rint, sign). exp, sinh and cosh
 * keep C99's values on the real axis; elsewhere an infinite or NaN part gives what the formulas
 * give, which can differ from C99's Annex G (and NumPy's, CPython's) in which parts are NaN. */
#include "lower/lower_internal.h"

#include <math.h>

static const cj_type *part_of(const cj_type *complex_t) { return cj_complex_part(complex_t); }

static LLVMValueRef cbin(cj_lower *L, int op, LLVMValueRef a, LLVMValueRef b, const cj_type *t) {
    return cj_lower_binop(L, op, a, t, b, t, t, t);
}

static LLVMValueRef cconst(cj_lower *L, const cj_type *t, double re, double im) {
    const cj_type *pt = part_of(t);
    return cj_make_complex(L, t, cj_float_const(L, pt, re), cj_float_const(L, pt, im));
}

/* i*z */
static LLVMValueRef times_i(cj_lower *L, LLVMValueRef z, const cj_type *t) {
    LLVMValueRef im;
    LLVMValueRef re = cj_complex_parts(L, z, &im);
    return cj_make_complex(L, t, LLVMBuildFNeg(L->b, im, ""), re);
}

/* -i*z */
static LLVMValueRef times_minus_i(cj_lower *L, LLVMValueRef z, const cj_type *t) {
    LLVMValueRef im;
    LLVMValueRef re = cj_complex_parts(L, z, &im);
    return cj_make_complex(L, t, im, LLVMBuildFNeg(L->b, re, ""));
}

/* The inverse functions by their logarithmic forms:
 *   asinh z = log(z + sqrt(z^2 + 1))       asin z = -i asinh(iz)
 *   acosh z = log(z + sqrt(z+1) sqrt(z-1)) acos z = pi/2 - asin z
 *   atanh z = (log(1+z) - log(1-z)) / 2    atan z = -i atanh(iz) */
static LLVMValueRef cmath_inverse(cj_lower *L, int id, LLVMValueRef z, const cj_type *t) {
    LLVMValueRef one = cconst(L, t, 1.0, 0.0);
    switch (id) {
    case CJ_B_C_ASINH:
        return cj_lower_cmath1(L, CJ_B_C_LOG, cbin(L, CJ_ADD, z, cj_lower_cmath1(L, CJ_B_C_SQRT,
                      cbin(L, CJ_ADD, cbin(L, CJ_MUL, z, z, t), one, t), t), t), t);
    case CJ_B_C_ASIN:
        return times_minus_i(L, cmath_inverse(L, CJ_B_C_ASINH, times_i(L, z, t), t), t);
    case CJ_B_C_ACOSH: {
        LLVMValueRef a = cj_lower_cmath1(L, CJ_B_C_SQRT, cbin(L, CJ_ADD, z, one, t), t);
        LLVMValueRef b = cj_lower_cmath1(L, CJ_B_C_SQRT, cbin(L, CJ_SUB, z, one, t), t);
        return cj_lower_cmath1(L, CJ_B_C_LOG, cbin(L, CJ_ADD, z, cbin(L, CJ_MUL, a, b, t), t), t);
    }
    case CJ_B_C_ACOS:
        return cbin(L, CJ_SUB, cconst(L, t, 1.57079632679489661923132169163975144, 0.0),
                    cmath_inverse(L, CJ_B_C_ASIN, z, t), t);
    case CJ_B_C_ATANH: {
        LLVMValueRef d = cbin(L, CJ_SUB, cj_lower_cmath1(L, CJ_B_C_LOG, cbin(L, CJ_ADD, one, z, t), t),
                              cj_lower_cmath1(L, CJ_B_C_LOG, cbin(L, CJ_SUB, one, z, t), t), t);
        return cbin(L, CJ_MUL, d, cconst(L, t, 0.5, 0.0), t);
    }
    default: /* atan */
        return times_minus_i(L, cmath_inverse(L, CJ_B_C_ATANH, times_i(L, z, t), t), t);
    }
}

/* sqrt(x + iy), zero = 0.0 in part type pt. */
static LLVMValueRef complex_sqrt(cj_lower *L, LLVMValueRef x, LLVMValueRef y, LLVMValueRef zero,
                                 const cj_type *pt, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    /* s = sqrt((|z| + |x|) / 2); x >= 0: (s, y / 2s) else (|y| / 2s, copysign(s, y)) */
    LLVMValueRef r = cj_math2(L, "hypot", pt, x, y);
    LLVMValueRef s = cj_math1(L, "sqrt", pt, LLVMBuildFMul(B, LLVMBuildFAdd(B, r,
                                                cj_math1(L, "fabs", pt, x), ""), cj_float_const(L, pt, 0.5), ""));
    LLVMValueRef two_s = LLVMBuildFMul(B, s, cj_float_const(L, pt, 2.0), "");
    LLVMValueRef s_zero = LLVMBuildFCmp(B, LLVMRealOEQ, s, zero, "");
    LLVMValueRef pos = LLVMBuildFCmp(B, LLVMRealOGE, x, zero, "");
    LLVMValueRef re = LLVMBuildSelect(B, pos, s, LLVMBuildFDiv(B, cj_math1(L, "fabs", pt, y), two_s, ""), "");
    LLVMValueRef im = LLVMBuildSelect(B, pos, LLVMBuildFDiv(B, y, two_s, ""),
                                      cj_math2(L, "copysign", pt, s, y), "");
    re = LLVMBuildSelect(B, s_zero, zero, re, "");
    im = LLVMBuildSelect(B, s_zero, y, im, "");
    return cj_make_complex(L, t, re, im);
}

/* On the real axis (y = +-0) a function that is real there keeps y as its imaginary part
 * (C99's cexp(x + 0i) = exp(x) + 0i even where exp(x) is inf or NaN and exp(x) * 0 is not). */
static LLVMValueRef on_real_axis(cj_lower *L, LLVMValueRef y, LLVMValueRef zero, LLVMValueRef im) {
    return LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOEQ, y, zero, ""), y, im, "");
}

/* sin, cos, sinh, cosh of x + iy. */
static LLVMValueRef complex_trig(cj_lower *L, int id, LLVMValueRef x, LLVMValueRef y,
                                 const cj_type *pt, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef sx = cj_math1(L, "sin", pt, x), cx = cj_math1(L, "cos", pt, x);
    LLVMValueRef shy = cj_math1(L, "sinh", pt, y), chy = cj_math1(L, "cosh", pt, y);
    LLVMValueRef sy = cj_math1(L, "sin", pt, y), cy = cj_math1(L, "cos", pt, y);
    LLVMValueRef shx = cj_math1(L, "sinh", pt, x), chx = cj_math1(L, "cosh", pt, x);
    if (id == CJ_B_C_SIN) {
        return cj_make_complex(L, t, LLVMBuildFMul(B, sx, chy, ""), LLVMBuildFMul(B, cx, shy, ""));
    }
    if (id == CJ_B_C_COS) {
        return cj_make_complex(L, t, LLVMBuildFMul(B, cx, chy, ""),
                               LLVMBuildFNeg(B, LLVMBuildFMul(B, sx, shy, ""), ""));
    }
    LLVMValueRef zero = cj_float_const(L, pt, 0.0);
    if (id == CJ_B_C_SINH) {
        return cj_make_complex(L, t, LLVMBuildFMul(B, shx, cy, ""),
                               on_real_axis(L, y, zero, LLVMBuildFMul(B, chx, sy, "")));
    }
    return cj_make_complex(L, t, LLVMBuildFMul(B, chx, cy, ""),
                           on_real_axis(L, y, zero, LLVMBuildFMul(B, shx, sy, "")));
}

/* tan, tanh of x + iy, zero = 0.0 in part type pt. */
static LLVMValueRef complex_tanh(cj_lower *L, int id, LLVMValueRef x, LLVMValueRef y,
                                 LLVMValueRef zero, const cj_type *pt, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    /* tanh(x+iy) = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y); tan(z) = -i tanh(iz) */
    LLVMValueRef a = x, bb = y;
    if (id == CJ_B_C_TAN) {
        a = LLVMBuildFNeg(B, y, "");
        bb = x;
    }
    LLVMValueRef two = cj_float_const(L, pt, 2.0);
    LLVMValueRef a2 = LLVMBuildFMul(B, a, two, ""), b2 = LLVMBuildFMul(B, bb, two, "");
    LLVMValueRef d = LLVMBuildFAdd(B, cj_math1(L, "cosh", pt, a2), cj_math1(L, "cos", pt, b2), "");
    LLVMValueRef re = LLVMBuildFDiv(B, cj_math1(L, "sinh", pt, a2), d, "");
    LLVMValueRef im = LLVMBuildFDiv(B, cj_math1(L, "sin", pt, b2), d, "");
    /* tanh(a) saturates to +-1 where cosh overflows */
    LLVMValueRef big = LLVMBuildFCmp(B, LLVMRealOGT, cj_math1(L, "fabs", pt, a), cj_float_const(L, pt, 20.0), "");
    re = LLVMBuildSelect(B, big, cj_math2(L, "copysign", pt, cj_float_const(L, pt, 1.0), a), re, "");
    im = LLVMBuildSelect(B, big, zero, im, "");
    if (id == CJ_B_C_TAN) { /* -i * (re + i im) = im - i re */
        return cj_make_complex(L, t, im, LLVMBuildFNeg(B, re, ""));
    }
    return cj_make_complex(L, t, re, im);
}

LLVMValueRef cj_lower_cmath1(cj_lower *L, int id, LLVMValueRef z, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    const cj_type *pt = part_of(t);
    LLVMValueRef y;
    LLVMValueRef x = cj_complex_parts(L, z, &y);
    LLVMValueRef zero = cj_float_const(L, pt, 0.0);
    switch (id) {
    case CJ_B_C_EXP: {
        LLVMValueRef e = cj_math1(L, "exp", pt, x);
        LLVMValueRef im = LLVMBuildFMul(B, e, cj_math1(L, "sin", pt, y), "");
        return cj_make_complex(L, t, LLVMBuildFMul(B, e, cj_math1(L, "cos", pt, y), ""),
                               on_real_axis(L, y, zero, im));
    }
    case CJ_B_C_LOG:
    case CJ_B_C_LOG10: {
        LLVMValueRef re = cj_math1(L, "log", pt, cj_math2(L, "hypot", pt, x, y));
        LLVMValueRef im = cj_math2(L, "atan2", pt, y, x);
        if (id == CJ_B_C_LOG10) {
            LLVMValueRef ln10 = cj_float_const(L, pt, 2.302585092994045684017991454684364208);
            re = LLVMBuildFDiv(B, re, ln10, "");
            im = LLVMBuildFDiv(B, im, ln10, "");
        }
        return cj_make_complex(L, t, re, im);
    }
    case CJ_B_C_SQRT:
        return complex_sqrt(L, x, y, zero, pt, t);
    case CJ_B_C_SIN:
    case CJ_B_C_COS:
    case CJ_B_C_SINH:
    case CJ_B_C_COSH:
        return complex_trig(L, id, x, y, pt, t);
    case CJ_B_C_TAN:
    case CJ_B_C_TANH:
        return complex_tanh(L, id, x, y, zero, pt, t);
    case CJ_B_C_ASIN:
    case CJ_B_C_ACOS:
    case CJ_B_C_ATAN:
    case CJ_B_C_ASINH:
    case CJ_B_C_ACOSH:
    case CJ_B_C_ATANH:
        return cmath_inverse(L, id, z, t);
    default:
        PyErr_SetString(cj_LoweringError, "unsupported cmath function");
        return NULL;
    }
}

/* NumPy ufuncs of complex numbers beyond the cmath functions, by numba's formulas: log1p
 * (log|1+z| + i arg(1+z)), expm1 (e^x cos y - 1 + i e^x sin y), exp2 (exp(z ln 2)), log2
 * (log(z) log2 e), rint (of each part) and sign (z/|z|, 0 at 0). NULL with an exception for
 * any other. */
LLVMValueRef cj_lower_complex_ufunc1(cj_lower *L, int id, LLVMValueRef z, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    const cj_type *pt = part_of(t);
    LLVMValueRef y, x = cj_complex_parts(L, z, &y);
    switch (id) {
    case CJ_B_NP_LOG1P: {
        LLVMValueRef x1 = LLVMBuildFAdd(B, x, cj_float_const(L, pt, 1.0), "");
        return cj_make_complex(L, t, cj_math1(L, "log", pt, cj_math2(L, "hypot", pt, x1, y)),
                               cj_math2(L, "atan2", pt, y, x1));
    }
    case CJ_B_NP_EXPM1: {
        LLVMValueRef e = cj_math1(L, "exp", pt, x);
        LLVMValueRef re = LLVMBuildFMul(B, e, cj_math1(L, "cos", pt, y), "");
        return cj_make_complex(L, t, LLVMBuildFAdd(B, re, cj_float_const(L, pt, -1.0), ""),
                               LLVMBuildFMul(B, e, cj_math1(L, "sin", pt, y), ""));
    }
    case CJ_B_NP_EXP2: {
        LLVMValueRef ln2 = cj_float_const(L, pt, 0.693147180559945309417232121458176568);
        LLVMValueRef xl = LLVMBuildFMul(B, ln2, x, ""), yl = LLVMBuildFMul(B, ln2, y, "");
        LLVMValueRef e = cj_lower_cmath1(L, CJ_B_C_EXP, cj_make_complex(L, t, xl, yl), t);
        LLVMValueRef real = LLVMBuildFCmp(B, LLVMRealOEQ, y, cj_float_const(L, pt, 0.0), "");
        return LLVMBuildSelect(B, real, cj_make_complex(L, t, cj_math1(L, "exp", pt, xl), y),
                               e, ""); /* a real z: exp of it, the zero kept (NaN + 0j) */
    }
    case CJ_B_NP_LOG2: {
        LLVMValueRef log2e = cj_float_const(L, pt, 1.442695040888963407359924681001892137);
        LLVMValueRef li, lr = cj_complex_parts(L, cj_lower_cmath1(L, CJ_B_C_LOG, z, t), &li);
        return cj_make_complex(L, t, LLVMBuildFMul(B, log2e, lr, ""),
                               LLVMBuildFMul(B, log2e, li, ""));
    }
    case CJ_B_NP_RINT:
        return cj_make_complex(L, t, cj_math1(L, "rint", pt, x), cj_math1(L, "rint", pt, y));
    case CJ_B_NP_SIGN: {
        LLVMValueRef a = cj_math2(L, "hypot", pt, x, y);
        LLVMValueRef q = cj_lower_binop(L, CJ_TRUEDIV, z, t, a, pt, t, t);
        if (q == NULL) {
            return NULL;
        }
        LLVMValueRef zero = LLVMBuildFCmp(B, LLVMRealOEQ, a, cj_float_const(L, pt, 0.0), "");
        return LLVMBuildSelect(B, zero, cconst(L, t, 0.0, 0.0), q, "csign");
    }
    default:
        PyErr_SetString(cj_LoweringError, "unsupported complex ufunc");
        return NULL;
    }
}
