/* lower_num.c: operators on numbers with Python's semantics on fixed-width values:
 * floor division and modulo take the divisor's sign, division by zero raises
 * ZeroDivisionError (error_model 'python') or gives inf/nan ('numpy'), INT64_MIN // -1 wraps
 * instead of trapping, shifts past the width give 0 (or the sign), 0.0 ** -x raises as CPython,
 * complex division is CPython's algorithm (powers with an integer exponent and complex powers:
 * lower_pow.c); round(x, ndigits) for the round() call. */
#include "lower/lower_internal.h"

#include <math.h>
#include <string.h>

LLVMValueRef cj_float_const(cj_lower *L, const cj_type *t, double v) {
    return LLVMConstReal(cj_llvm_type(L->ctx, t), v);
}

LLVMValueRef cj_complex_parts(cj_lower *L, LLVMValueRef c, LLVMValueRef *im) {
    *im = LLVMBuildExtractValue(L->b, c, 1, "im");
    return LLVMBuildExtractValue(L->b, c, 0, "re");
}

LLVMValueRef cj_make_complex(cj_lower *L, const cj_type *t, LLVMValueRef re, LLVMValueRef im) {
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, t));
    r = LLVMBuildInsertValue(L->b, r, re, 0, "");
    return LLVMBuildInsertValue(L->b, r, im, 1, "");
}

/* ---- math functions of the target ---- */

static LLVMValueRef get_or_declare(cj_lower *L, const char *name, LLVMTypeRef ret,
                                   LLVMTypeRef *params, unsigned n) {
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    if (f == NULL) {
        f = LLVMAddFunction(L->mod, name, LLVMFunctionType(ret, params, n, 0));
        /* pure functions: lets LLVM hoist and fold them (sqrt becomes an instruction) */
        unsigned kind = LLVMGetEnumAttributeKindForName("readnone", 8);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(L->ctx, kind, 0));
        kind = LLVMGetEnumAttributeKindForName("nounwind", 8);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(L->ctx, kind, 0));
    }
    return f;
}

LLVMValueRef cj_math_call(cj_lower *L, const char *cname, const cj_type *t, int nargs,
                          LLVMValueRef *args) {
    char name[64];
    int single = t->bits <= 32;
    if (L->env->target == CJ_TARGET_CUDA) {
        PyOS_snprintf(name, sizeof(name), "__nv_%s%s", cname, single ? "f" : "");
    } else {
        PyOS_snprintf(name, sizeof(name), "%s%s", cname, single ? "f" : "");
    }
    LLVMTypeRef ft = cj_llvm_type(L->ctx, t->bits == 16 ? cj_t_float32 : t);
    LLVMTypeRef params[3] = {ft, ft, ft};
    if (strcmp(cname, "ldexp") == 0) {
        params[1] = LLVMInt32TypeInContext(L->ctx);
    }
    LLVMValueRef f = get_or_declare(L, name, ft, params, (unsigned)nargs);
    LLVMTypeRef half = LLVMHalfTypeInContext(L->ctx);
    if (t->bits != 16 || LLVMTypeOf(args[0]) != half) {
        return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(f)), f, args, (unsigned)nargs, "");
    }
    /* float16: computed in float32 (no half libm/libdevice), rounded back */
    LLVMValueRef wide[3];
    for (int i = 0; i < nargs && i < 3; i++) {
        wide[i] = LLVMTypeOf(args[i]) == half ? LLVMBuildFPExt(L->b, args[i], ft, "") : args[i];
    }
    LLVMValueRef r = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(f)), f, wide,
                                    (unsigned)nargs, "");
    return LLVMBuildFPTrunc(L->b, r, half, "");
}

int cj_cuda_float_minmax(cj_lower *L, const cj_call *call, int is_max, const cj_type *rt,
                         LLVMValueRef *out) {
    if (L->env->target != CJ_TARGET_CUDA || call->nargs != 2 || rt->kind != CJ_FLOAT) {
        return 0;
    }
    LLVMValueRef args[2];
    for (int i = 0; i < 2; i++) {
        const cj_type *t = CJ_VAR(L->ir, call->args[i])->type;
        if (t->kind != CJ_FLOAT || t->bits < 32) {
            return 0;
        }
        args[i] = cj_cast(L, cj_load_var(L, call->args[i]), t, rt);
    }
    *out = cj_math_call(L, is_max ? "fmax" : "fmin", rt, 2, args);
    return 1;
}

static LLVMValueRef intrinsic1(cj_lower *L, const char *base, LLVMValueRef x) {
    char name[64];
    LLVMTypeRef t = LLVMTypeOf(x);
    const char *suffix = t == LLVMFloatTypeInContext(L->ctx) ? "f32"
                         : t == LLVMHalfTypeInContext(L->ctx) ? "f16" : "f64";
    PyOS_snprintf(name, sizeof(name), "llvm.%s.%s", base, suffix);
    LLVMValueRef f = get_or_declare(L, name, t, &t, 1);
    return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(f)), f, &x, 1, "");
}

/* ---- integers ---- */

static int error_python(cj_lower *L) { return L->env->error_model == CJ_ERRORS_PYTHON; }

static LLVMValueRef is_zero(cj_lower *L, LLVMValueRef v) {
    return LLVMBuildICmp(L->b, LLVMIntEQ, v, LLVMConstNull(LLVMTypeOf(v)), "is_zero");
}

/* Python's a // b and a % b for signed integers (b != 0 checked by the caller). */
static LLVMValueRef int_floordiv_mod(cj_lower *L, LLVMValueRef a, LLVMValueRef b, int is_signed,
                                     int want_mod) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = LLVMTypeOf(a);
    if (!is_signed) {
        LLVMValueRef r = want_mod ? LLVMBuildURem(B, a, b, "") : LLVMBuildUDiv(B, a, b, "");
        cj_ub_proof(r, "divisor: b != 0 checked by the caller");
        return r;
    }
    /* b == -1 would trap on INT_MIN: compute with 1 and fix up */
    LLVMValueRef minus1 = LLVMBuildICmp(B, LLVMIntEQ, b, LLVMConstAllOnes(t), "");
    LLVMValueRef safe_b = LLVMBuildSelect(B, minus1, LLVMConstInt(t, 1, 0), b, "");
    LLVMValueRef q = LLVMBuildSDiv(B, a, safe_b, "");
    LLVMValueRef r = LLVMBuildSRem(B, a, safe_b, "");
    cj_ub_proof(q, "divisor: b != 0 checked by the caller, -1 replaced by 1");
    cj_ub_proof(r, "divisor: b != 0 checked by the caller, -1 replaced by 1");
    /* when the remainder is nonzero and its sign differs from the divisor's, step down:
     * differ = (r ^ b) >> (bits - 1) is -1 then, else 0. Written so (and not as a select on
     * the two signs) LLVM sees that with r known non-negative (a range loop's i) the step is
     * b's part alone, smin(b, 0), and hoists it: i % n costs test, cmov and add per use. */
    LLVMValueRef zero = LLVMConstNull(t);
    LLVMValueRef r_zero = LLVMBuildICmp(B, LLVMIntEQ, r, zero, "");
    LLVMValueRef differ =
        LLVMBuildAShr(B, LLVMBuildXor(B, r, safe_b, ""),
                      LLVMConstInt(t, LLVMGetIntTypeWidth(t) - 1, 0), "");
    if (want_mod) {
        /* b == -1 needs no fix-up here: with safe_b = 1 the remainder is 0 and nothing is
         * added, so this is already Python's a % -1 == 0. A select on minus1 (LLVM cannot
         * see it is redundant) costs a compare and a cmov per `i % n` and, in an unrolled loop,
         * made the scheduler bunch every division ahead of the loads (about 1.2x the time). */
        LLVMValueRef step = LLVMBuildSelect(B, r_zero, zero,
                                            LLVMBuildAnd(B, safe_b, differ, ""), "");
        return LLVMBuildAdd(B, r, step, "mod");
    }
    LLVMValueRef fq = LLVMBuildAdd(B, q, LLVMBuildSelect(B, r_zero, zero, differ, ""), "");
    return LLVMBuildSelect(B, minus1, LLVMBuildNeg(B, a, ""), fq, "floordiv");
}

/* Shifts: a count past the width gives 0 (left, logical right) or the sign (arithmetic). */
static LLVMValueRef int_shift(cj_lower *L, int op, LLVMValueRef a, LLVMValueRef b,
                              int is_signed) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = LLVMTypeOf(a);
    unsigned bits = LLVMGetIntTypeWidth(t);
    LLVMValueRef too_far = LLVMBuildICmp(B, LLVMIntUGE, b, LLVMConstInt(t, bits, 0), "");
    LLVMValueRef count = LLVMBuildSelect(B, too_far, LLVMConstInt(t, bits - 1, 0), b, "");
    const char *why = "count: clamped below the width";
    if (op == CJ_LSHIFT) {
        LLVMValueRef r = LLVMBuildShl(B, a, count, "");
        cj_ub_proof(r, why);
        return LLVMBuildSelect(B, too_far, LLVMConstNull(t), r, "shl");
    }
    if (is_signed) {
        LLVMValueRef r = LLVMBuildAShr(B, a, count, "shr");
        cj_ub_proof(r, why);
        return r;
    }
    LLVMValueRef r = LLVMBuildLShr(B, a, count, "");
    cj_ub_proof(r, why);
    return LLVMBuildSelect(B, too_far, LLVMConstNull(t), r, "shr");
}

static LLVMValueRef int_binop(cj_lower *L, int op, LLVMValueRef a, LLVMValueRef b,
                              const cj_type *t) {
    LLVMBuilderRef B = L->b;
    int s = t->kind == CJ_INT ? t->is_signed : 1;
    switch (op) {
    case CJ_ADD:
        return LLVMBuildAdd(B, a, b, "add");
    case CJ_SUB:
        return LLVMBuildSub(B, a, b, "sub");
    case CJ_MUL:
        return LLVMBuildMul(B, a, b, "mul");
    case CJ_FLOORDIV:
    case CJ_MOD: {
        LLVMValueRef z = is_zero(L, b);
        if (error_python(L)) {
            cj_emit_raise_if(L, z, op == CJ_MOD ? CJ_EXC_INT_MOD_ZERO : CJ_EXC_INT_DIV_ZERO);
            return int_floordiv_mod(L, a, b, s, op == CJ_MOD);
        }
        /* numpy model: x // 0 and x % 0 give 0 */
        LLVMValueRef safe = LLVMBuildSelect(B, z, LLVMConstInt(LLVMTypeOf(b), 1, 0), b, "");
        LLVMValueRef r = int_floordiv_mod(L, a, safe, s, op == CJ_MOD);
        return LLVMBuildSelect(B, z, LLVMConstNull(LLVMTypeOf(a)), r, "");
    }
    case CJ_POW:
        return cj_lower_int_pow(L, a, b, s);
    case CJ_LSHIFT:
    case CJ_RSHIFT:
        return int_shift(L, op, a, b, s);
    case CJ_AND:
        return LLVMBuildAnd(B, a, b, "and");
    case CJ_OR:
        return LLVMBuildOr(B, a, b, "or");
    case CJ_XOR:
        return LLVMBuildXor(B, a, b, "xor");
    default:
        PyErr_SetString(cj_LoweringError, "unsupported integer operator");
        return NULL;
    }
}

/* ---- floats ---- */

/* CPython's float divmod: the remainder takes the divisor's sign. */
static LLVMValueRef float_floordiv_mod(cj_lower *L, LLVMValueRef a, LLVMValueRef b,
                                       const cj_type *t, int want_mod) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef zero = cj_float_const(L, t, 0.0), one = cj_float_const(L, t, 1.0);
    LLVMValueRef mod = LLVMBuildFRem(B, a, b, "fmod");
    LLVMValueRef div = LLVMBuildFDiv(B, LLVMBuildFSub(B, a, mod, ""), b, "");
    LLVMValueRef mod_nz = LLVMBuildFCmp(B, LLVMRealUNE, mod, zero, "");
    LLVMValueRef signs = LLVMBuildICmp(B, LLVMIntNE,
                                       LLVMBuildFCmp(B, LLVMRealOLT, b, zero, ""),
                                       LLVMBuildFCmp(B, LLVMRealOLT, mod, zero, ""), "");
    LLVMValueRef adjust = LLVMBuildAnd(B, mod_nz, signs, "");
    LLVMValueRef args2[2] = {zero, b};
    LLVMValueRef signed_zero = cj_math_call(L, "copysign", t, 2, args2);
    mod = LLVMBuildSelect(B, adjust, LLVMBuildFAdd(B, mod, b, ""),
                          LLVMBuildSelect(B, mod_nz, mod, signed_zero, ""), "mod");
    if (want_mod) {
        return mod;
    }
    div = LLVMBuildSelect(B, adjust, LLVMBuildFSub(B, div, one, ""), div, "");
    LLVMValueRef fl = intrinsic1(L, "floor", div);
    LLVMValueRef up = LLVMBuildFCmp(B, LLVMRealOGT, LLVMBuildFSub(B, div, fl, ""),
                                    cj_float_const(L, t, 0.5), "");
    fl = LLVMBuildSelect(B, up, LLVMBuildFAdd(B, fl, one, ""), fl, "");
    LLVMValueRef div_nz = LLVMBuildFCmp(B, LLVMRealUNE, div, zero, "");
    LLVMValueRef args3[2] = {zero, LLVMBuildFDiv(B, a, b, "")};
    return LLVMBuildSelect(B, div_nz, fl, cj_math_call(L, "copysign", t, 2, args3), "floordiv");
}

static LLVMValueRef float_binop(cj_lower *L, int op, LLVMValueRef a, LLVMValueRef b,
                                const cj_type *t) {
    LLVMBuilderRef B = L->b;
    if ((op == CJ_TRUEDIV || op == CJ_FLOORDIV || op == CJ_MOD) && error_python(L)) {
        LLVMValueRef z = LLVMBuildFCmp(B, LLVMRealOEQ, b, cj_float_const(L, t, 0.0), "");
        cj_emit_raise_if(L, z, op == CJ_MOD ? CJ_EXC_MOD_ZERO : CJ_EXC_DIV_ZERO);
    }
    switch (op) {
    case CJ_ADD:
        return LLVMBuildFAdd(B, a, b, "fadd");
    case CJ_SUB:
        return LLVMBuildFSub(B, a, b, "fsub");
    case CJ_MUL:
        return LLVMBuildFMul(B, a, b, "fmul");
    case CJ_TRUEDIV:
        return LLVMBuildFDiv(B, a, b, "fdiv");
    case CJ_FLOORDIV:
        return float_floordiv_mod(L, a, b, t, 0);
    case CJ_MOD:
        return float_floordiv_mod(L, a, b, t, 1);
    case CJ_POW: {
        LLVMValueRef args[2] = {a, b};
        return cj_math_call(L, "pow", t, 2, args);
    }
    default:
        PyErr_SetString(cj_LoweringError, "unsupported float operator");
        return NULL;
    }
}

/* ---- complex ---- */

/* CPython's _Py_c_quot: scales by the larger component of the divisor. */
static LLVMValueRef complex_div(cj_lower *L, LLVMValueRef a, LLVMValueRef b, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    const cj_type *pt = cj_type_float(t->bits / 2);
    LLVMValueRef ai, bi;
    LLVMValueRef ar = cj_complex_parts(L, a, &ai), br = cj_complex_parts(L, b, &bi);
    if (error_python(L)) {
        LLVMValueRef zero = cj_float_const(L, pt, 0.0);
        LLVMValueRef z = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOEQ, br, zero, ""),
                                      LLVMBuildFCmp(B, LLVMRealOEQ, bi, zero, ""), "");
        cj_emit_raise_if(L, z, CJ_EXC_DIV_ZERO);
    }
    LLVMValueRef abs_br = intrinsic1(L, "fabs", br), abs_bi = intrinsic1(L, "fabs", bi);
    LLVMValueRef real_big = LLVMBuildFCmp(B, LLVMRealOGE, abs_br, abs_bi, "");
    /* real_big: ratio = bi/br, denom = br + bi*ratio; re = (ar + ai*ratio)/denom,
     *           im = (ai - ar*ratio)/denom
     * else:     ratio = br/bi, denom = br*ratio + bi; re = (ar*ratio + ai)/denom,
     *           im = (ai*ratio - ar)/denom */
    LLVMValueRef r1 = LLVMBuildFDiv(B, bi, br, ""), d1 = LLVMBuildFAdd(B, br, LLVMBuildFMul(B, bi, r1, ""), "");
    LLVMValueRef re1 = LLVMBuildFDiv(B, LLVMBuildFAdd(B, ar, LLVMBuildFMul(B, ai, r1, ""), ""), d1, "");
    LLVMValueRef im1 = LLVMBuildFDiv(B, LLVMBuildFSub(B, ai, LLVMBuildFMul(B, ar, r1, ""), ""), d1, "");
    LLVMValueRef r2 = LLVMBuildFDiv(B, br, bi, ""), d2 = LLVMBuildFAdd(B, LLVMBuildFMul(B, br, r2, ""), bi, "");
    LLVMValueRef re2 = LLVMBuildFDiv(B, LLVMBuildFAdd(B, LLVMBuildFMul(B, ar, r2, ""), ai, ""), d2, "");
    LLVMValueRef im2 = LLVMBuildFDiv(B, LLVMBuildFSub(B, LLVMBuildFMul(B, ai, r2, ""), ar, ""), d2, "");
    return cj_make_complex(L, t, LLVMBuildSelect(B, real_big, re1, re2, ""),
                           LLVMBuildSelect(B, real_big, im1, im2, ""));
}

LLVMValueRef cj_complex_mul(cj_lower *L, LLVMValueRef a, LLVMValueRef b, const cj_type *t) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef ai, bi;
    LLVMValueRef ar = cj_complex_parts(L, a, &ai), br = cj_complex_parts(L, b, &bi);
    return cj_make_complex(
        L, t, LLVMBuildFSub(B, LLVMBuildFMul(B, ar, br, ""), LLVMBuildFMul(B, ai, bi, ""), ""),
        LLVMBuildFAdd(B, LLVMBuildFMul(B, ar, bi, ""), LLVMBuildFMul(B, ai, br, ""), ""));
}

static LLVMValueRef complex_binop(cj_lower *L, int op, LLVMValueRef a, LLVMValueRef b,
                                  const cj_type *t) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef ai, bi;
    LLVMValueRef ar = cj_complex_parts(L, a, &ai), br = cj_complex_parts(L, b, &bi);
    switch (op) {
    case CJ_ADD:
        return cj_make_complex(L, t, LLVMBuildFAdd(B, ar, br, ""), LLVMBuildFAdd(B, ai, bi, ""));
    case CJ_SUB:
        return cj_make_complex(L, t, LLVMBuildFSub(B, ar, br, ""), LLVMBuildFSub(B, ai, bi, ""));
    case CJ_MUL:
        return cj_complex_mul(L, a, b, t);
    case CJ_TRUEDIV:
        return complex_div(L, a, b, t);
    case CJ_POW:
        return cj_lower_complex_pow(L, a, b, t);
    default:
        PyErr_SetString(cj_LoweringError, "unsupported complex operator");
        return NULL;
    }
}

static LLVMValueRef tuple_concat(cj_lower *L, LLVMValueRef a, const cj_type *at, LLVMValueRef b,
                                 const cj_type *bt, const cj_type *rt) {
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, rt));
    for (int i = 0; i < at->n; i++) {
        r = LLVMBuildInsertValue(L->b, r, LLVMBuildExtractValue(L->b, a, (unsigned)i, ""),
                                 (unsigned)i, "");
    }
    for (int i = 0; i < bt->n; i++) {
        r = LLVMBuildInsertValue(L->b, r, LLVMBuildExtractValue(L->b, b, (unsigned)i, ""),
                                 (unsigned)(at->n + i), "");
    }
    return r;
}

LLVMValueRef cj_lower_binop(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                            LLVMValueRef b, const cj_type *bt, const cj_type *optype,
                            const cj_type *rtype) {
    if (at->kind == CJ_TUPLE) {
        return tuple_concat(L, a, at, b, bt, rtype);
    }
    const cj_type *ot = optype ? optype : rtype;
    if (op == CJ_POW && ot->kind == CJ_FLOAT && cj_type_is_integer(bt)) {
        /* float ** int: the exponent stays an integer (numba's int_power_impl) */
        a = cj_cast(L, a, at, ot);
        LLVMValueRef r = a ? cj_lower_float_int_pow(L, a, ot, b, bt) : NULL;
        return r ? cj_cast(L, r, ot, rtype) : NULL;
    }
    /* shifts keep the count in the result's type too */
    a = cj_cast(L, a, at, ot);
    b = cj_cast(L, b, bt, ot);
    if (a == NULL || b == NULL) {
        return NULL;
    }
    if (op == CJ_POW && ot->kind == CJ_FLOAT && error_python(L)) {
        /* 0.0 ** y for y < 0: ZeroDivisionError, as CPython (numba: for an integer y only),
         * except y = -inf (inf, as CPython); under error_model='numpy' NumPy's inf */
        LLVMValueRef zero = cj_float_const(L, ot, 0.0);
        LLVMValueRef neg = LLVMBuildAnd(
            L->b, LLVMBuildFCmp(L->b, LLVMRealOLT, b, zero, ""),
            LLVMBuildFCmp(L->b, LLVMRealONE, b, cj_float_const(L, ot, -INFINITY), ""), "");
        LLVMValueRef bad = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOEQ, a, zero, ""),
                                        neg, "");
        cj_emit_raise_if(L, bad, CJ_EXC_DIV_ZERO);
    }
    LLVMValueRef r;
    if (ot->kind == CJ_COMPLEX) {
        r = complex_binop(L, op, a, b, ot);
    } else if (ot->kind == CJ_FLOAT) {
        r = float_binop(L, op, a, b, ot);
    } else {
        r = int_binop(L, op, a, b, ot);
    }
    return r ? cj_cast(L, r, ot, rtype) : NULL;
}

LLVMValueRef cj_lower_unary(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                            const cj_type *rtype) {
    LLVMBuilderRef B = L->b;
    if (op == CJ_NOT) {
        return LLVMBuildNot(B, cj_truth(L, a, at), "not");
    }
    LLVMValueRef v = cj_cast(L, a, at, rtype);
    if (v == NULL || op == CJ_POS) {
        return v;
    }
    if (op == CJ_INVERT) {
        return LLVMBuildNot(B, v, "invert");
    }
    if (rtype->kind == CJ_FLOAT) {
        return LLVMBuildFNeg(B, v, "fneg");
    }
    if (rtype->kind == CJ_COMPLEX) {
        LLVMValueRef im;
        LLVMValueRef re = cj_complex_parts(L, v, &im);
        return cj_make_complex(L, rtype, LLVMBuildFNeg(B, re, ""), LLVMBuildFNeg(B, im, ""));
    }
    return LLVMBuildNeg(B, v, "neg");
}

/* INT64_MAX or INT64_MIN // p for p = 10**k >= 1. */
static LLVMValueRef proven_div(LLVMBuilderRef B, LLVMValueRef end, LLVMValueRef p) {
    LLVMValueRef q = LLVMBuildSDiv(B, end, p, "");
    cj_ub_proof(q, "divisor: 10**k >= 1");
    return q;
}

static LLVMValueRef tuple_equal(cj_lower *L, LLVMValueRef a, const cj_type *at, LLVMValueRef b,
                                const cj_type *bt) {
    LLVMValueRef all = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), at->n == bt->n, 0);
    for (int i = 0; at->n == bt->n && i < at->n; i++) {
        const cj_type *ot;
        const cj_type *r = cj_rule_compare(CJ_EQ, at->items[i], bt->items[i], &ot);
        if (r == NULL) {
            return LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
        }
        LLVMValueRef e = cj_lower_compare(L, CJ_EQ, LLVMBuildExtractValue(L->b, a, (unsigned)i, ""),
                                          at->items[i],
                                          LLVMBuildExtractValue(L->b, b, (unsigned)i, ""),
                                          bt->items[i], ot);
        if (e == NULL) {
            return NULL;
        }
        all = LLVMBuildAnd(L->b, all, e, "");
    }
    return all;
}

static LLVMValueRef item_compare(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                                 LLVMValueRef b, const cj_type *bt, int i) {
    const cj_type *ot;
    if (cj_rule_compare(op, at->items[i], bt->items[i], &ot) == NULL) {
        CJ_UNREACHABLE("tuple items typing let through");
        return NULL;
    }
    return cj_lower_compare(L, op, LLVMBuildExtractValue(L->b, a, (unsigned)i, ""), at->items[i],
                            LLVMBuildExtractValue(L->b, b, (unsigned)i, ""), bt->items[i], ot);
}

/* CPython's tuple ordering: the first pair of items that are not equal decides (compared with
 * `op` itself); when one tuple is a prefix of the other, the lengths do. Built from the last
 * item back: result = items equal ? (what the rest gives) : a[i] op b[i]. */
static LLVMValueRef tuple_order(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                                LLVMValueRef b, const cj_type *bt) {
    static const int holds[][3] = {/* op: does it hold for len(a) <, ==, > len(b) */
        [CJ_LT] = {1, 0, 0}, [CJ_LE] = {1, 1, 0}, [CJ_GT] = {0, 0, 1}, [CJ_GE] = {0, 1, 1}};
    int by_len = at->n < bt->n ? 0 : at->n == bt->n ? 1 : 2;
    LLVMValueRef r = LLVMConstInt(LLVMInt1TypeInContext(L->ctx),
                                  (unsigned long long)holds[op][by_len], 0);
    int common = at->n < bt->n ? at->n : bt->n;
    for (int i = common - 1; i >= 0; i--) {
        LLVMValueRef eq = item_compare(L, CJ_EQ, a, at, b, bt, i);
        LLVMValueRef decided = eq ? item_compare(L, op, a, at, b, bt, i) : NULL;
        if (decided == NULL) {
            return NULL;
        }
        r = LLVMBuildSelect(L->b, eq, r, decided, "");
    }
    return r;
}

LLVMValueRef cj_lower_compare(cj_lower *L, int op, LLVMValueRef a, const cj_type *at,
                              LLVMValueRef b, const cj_type *bt, const cj_type *optype) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx);
    if (at->kind == CJ_OPTIONAL || bt->kind == CJ_OPTIONAL) { /* is / ==, None (typing) */
        return cj_optional_is_none(L, op == CJ_EQ ? CJ_IS : op == CJ_NE ? CJ_ISNOT : op, a, at,
                                   b, bt); /* lower_optional.c */
    }
    if (op == CJ_IS || op == CJ_ISNOT || at->kind == CJ_NONE || bt->kind == CJ_NONE) {
        int a_none = at->kind == CJ_NONE, b_none = bt->kind == CJ_NONE;
        int same;
        if (a_none || b_none) {
            same = a_none && b_none;
        } else if (cj_type_is_number(at) && cj_type_is_number(bt)) {
            return cj_lower_compare(L, op == CJ_ISNOT ? CJ_NE : CJ_EQ, a, at, b, bt,
                                    cj_promote(at, bt));
        } else {
            same = 0;
        }
        int want = op == CJ_IS || op == CJ_EQ ? same : !same;
        return LLVMConstInt(i1, (unsigned long long)want, 0);
    }
    if (at->kind == CJ_TUPLE && op != CJ_EQ && op != CJ_NE) {
        return tuple_order(L, op, a, at, b, bt);
    }
    if (at->kind == CJ_TUPLE) {
        LLVMValueRef eq = tuple_equal(L, a, at, b, bt);
        return eq == NULL ? NULL : op == CJ_EQ ? eq : LLVMBuildNot(B, eq, "");
    }
    if (cj_type_is_str(at) && cj_type_is_str(bt)) { /* a literal: its borrowed constant */
        return cj_str_compare_lower(L, op, cj_cast(L, a, at, cj_t_unicode),
                                    cj_cast(L, b, bt, cj_t_unicode));
    }
    if (at->kind == CJ_LIST && bt->kind == CJ_LIST) {
        return cj_list_compare(L, op, a, at, b, bt); /* lower_list_concat.c */
    }
    if (optype == NULL) {
        (void)cj_rule_compare(op, at, bt, &optype);
        if (optype == NULL) {
            CJ_UNREACHABLE("a comparison typing did not let through");
            return NULL;
        }
    }
    a = cj_cast(L, a, at, optype);
    b = cj_cast(L, b, bt, optype);
    if (a == NULL || b == NULL) {
        return NULL;
    }
    if (optype->kind == CJ_COMPLEX) {
        LLVMValueRef ai, bi;
        LLVMValueRef ar = cj_complex_parts(L, a, &ai), br = cj_complex_parts(L, b, &bi);
        if (op != CJ_EQ && op != CJ_NE) { /* NumPy's lexicographic order, its NaN rule */
            static const LLVMRealPredicate preds[] = {[CJ_LT] = LLVMRealOLT,
                                                      [CJ_LE] = LLVMRealOLE,
                                                      [CJ_GT] = LLVMRealOGT,
                                                      [CJ_GE] = LLVMRealOGE};
            int less = op == CJ_LT || op == CJ_LE;
            LLVMValueRef ordered = LLVMBuildFCmp(B, LLVMRealORD, ai, bi, "");
            LLVMValueRef first = LLVMBuildAnd(B, LLVMBuildFCmp(B, less ? LLVMRealOLT
                                                                       : LLVMRealOGT,
                                                               ar, br, ""), ordered, "");
            LLVMValueRef tie = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOEQ, ar, br, ""),
                                            LLVMBuildFCmp(B, preds[op], ai, bi, ""), "");
            return LLVMBuildOr(B, first, tie, "corder");
        }
        LLVMValueRef eq = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOEQ, ar, br, ""),
                                       LLVMBuildFCmp(B, LLVMRealOEQ, ai, bi, ""), "");
        return op == CJ_EQ ? eq : LLVMBuildNot(B, eq, "");
    }
    if (optype->kind == CJ_FLOAT) {
        static const LLVMRealPredicate preds[] = {LLVMRealOLT, LLVMRealOLE, LLVMRealOEQ,
                                                  LLVMRealUNE, LLVMRealOGT, LLVMRealOGE};
        return LLVMBuildFCmp(B, preds[op], a, b, "fcmp");
    }
    int s = optype->kind == CJ_INT ? optype->is_signed : 0;
    static const LLVMIntPredicate spreds[] = {LLVMIntSLT, LLVMIntSLE, LLVMIntEQ,
                                              LLVMIntNE,  LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate upreds[] = {LLVMIntULT, LLVMIntULE, LLVMIntEQ,
                                              LLVMIntNE,  LLVMIntUGT, LLVMIntUGE};
    return LLVMBuildICmp(B, s ? spreds[op] : upreds[op], a, b, "icmp");
}

/* ---- round(x, ndigits) ---- */

/* round(x, ndigits) for a float x: numba's algorithm (half to even on x * 10**ndigits, the
 * power split at 1e22 so it does not overflow early), and CPython's answers at the ends: x when
 * x * 10**ndigits is not finite (ndigits large, x inf or nan), a zero of x's sign when
 * 10**-ndigits is (ndigits very negative). */
LLVMValueRef cj_round_float(cj_lower *L, const cj_type *xt, LLVMValueRef x, LLVMValueRef nd) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef zero = cj_float_const(L, xt, 0.0), inf = cj_float_const(L, xt, INFINITY);
    LLVMValueRef neg = LLVMBuildFCmp(B, LLVMRealOLT, nd, zero, "");
    LLVMValueRef big = LLVMBuildFCmp(B, LLVMRealOGT, nd, cj_float_const(L, xt, 22.0), "");
    LLVMValueRef e1 = LLVMBuildSelect(B, neg, LLVMBuildFNeg(B, nd, ""),
                                      LLVMBuildSelect(B, big, LLVMBuildFSub(B, nd,
                                                      cj_float_const(L, xt, 22.0), ""), nd, ""),
                                      "");
    LLVMValueRef pow1 = cj_math2(L, "pow", xt, cj_float_const(L, xt, 10.0), e1);
    LLVMValueRef pow2 = LLVMBuildSelect(B, big, cj_float_const(L, xt, 1e22),
                                        cj_float_const(L, xt, 1.0), "");
    /* ndigits >= 0 */
    LLVMValueRef y = LLVMBuildFMul(B, LLVMBuildFMul(B, x, pow1, ""), pow2, "");
    LLVMValueRef up = LLVMBuildFDiv(B, LLVMBuildFDiv(B, cj_math1(L, "rint", xt, y), pow2, ""),
                                    pow1, "");
    LLVMValueRef finite = LLVMBuildFCmp(B, LLVMRealOLT, cj_math1(L, "fabs", xt, y), inf, "");
    up = LLVMBuildSelect(B, finite, up, x, "");
    /* ndigits < 0 */
    LLVMValueRef down = LLVMBuildFMul(B, cj_math1(L, "rint", xt, LLVMBuildFDiv(B, x, pow1, "")),
                                      pow1, "");
    LLVMValueRef huge = LLVMBuildFCmp(B, LLVMRealOEQ, pow1, inf, "");
    LLVMValueRef signed_zero = cj_math2(L, "copysign", xt, zero, x);
    down = LLVMBuildSelect(B, huge, signed_zero, down, "");
    LLVMValueRef r = LLVMBuildSelect(B, neg, down, up, "");
    LLVMValueRef special = LLVMBuildFCmp(B, LLVMRealUGE, cj_math1(L, "fabs", xt, x), inf, ""); /* nan, inf */
    return LLVMBuildSelect(B, special, x, r, "round");
}

/* round(i, ndigits) for an int64 i, as CPython's: i itself for ndigits >= 0, else the
 * nearest multiple of 10**-ndigits, half to even (0 once 10**-ndigits passes int64). A
 * result past int64 is an OverflowError under error_model='python'; 'numpy' wraps. */
LLVMValueRef cj_round_int(cj_lower *L, LLVMValueRef x, LLVMValueRef nd) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef zero = cj_i64(L, 0), one = cj_i64(L, 1);
    LLVMValueRef keep = LLVMBuildICmp(B, LLVMIntSGE, nd, zero, "");
    LLVMValueRef far = LLVMBuildICmp(B, LLVMIntSLT, nd, cj_i64(L, -18), "");
    LLVMValueRef k = LLVMBuildSelect(B, LLVMBuildOr(B, keep, far, ""), zero,
                                     LLVMBuildNeg(B, nd, ""), "");
    LLVMValueRef pf = cj_math2(L, "pow", cj_t_float64, cj_float_const(L, cj_t_float64, 10.0),
                            LLVMBuildSIToFP(B, k, LLVMDoubleTypeInContext(L->ctx), ""));
    LLVMValueRef p = LLVMBuildFPToSI(B, pf, LLVMInt64TypeInContext(L->ctx), "p"); /* exact */
    cj_ub_proof(p, "operand: 10**k for k in 0..18, exact in int64");
    LLVMValueRef q = LLVMBuildSDiv(B, x, p, ""), r = LLVMBuildSRem(B, x, p, "");
    cj_ub_proof(q, "divisor: 10**k >= 1");
    cj_ub_proof(r, "divisor: 10**k >= 1");
    LLVMValueRef under = LLVMBuildICmp(B, LLVMIntSLT, r, zero, ""); /* floor division */
    q = LLVMBuildSelect(B, under, LLVMBuildSub(B, q, one, ""), q, "");
    r = LLVMBuildSelect(B, under, LLVMBuildAdd(B, r, p, ""), r, "");
    LLVMValueRef r2 = LLVMBuildShl(B, r, one, "");
    LLVMValueRef odd = LLVMBuildTrunc(B, q, LLVMInt1TypeInContext(L->ctx), "");
    LLVMValueRef up = LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntSGT, r2, p, ""),
                                  LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, r2, p, ""), odd,
                                               ""), "");
    q = LLVMBuildAdd(B, q, LLVMBuildZExt(B, up, LLVMInt64TypeInContext(L->ctx), ""), "");
    if (error_python(L)) { /* a result past int64: q * p overflows, or 10**19 itself */
        LLVMValueRef big = cj_i64(L, 5000000000000000000LL);
        LLVMValueRef ovf = LLVMBuildOr(
            B, LLVMBuildICmp(B, LLVMIntSGT, q, proven_div(B, cj_i64(L, INT64_MAX), p), ""),
            LLVMBuildICmp(B, LLVMIntSLT, q, proven_div(B, cj_i64(L, INT64_MIN), p), ""), "");
        LLVMValueRef tenth = LLVMBuildAnd(
            B, LLVMBuildICmp(B, LLVMIntEQ, nd, cj_i64(L, -19), ""),
            LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntSGT, x, big, ""),
                        LLVMBuildICmp(B, LLVMIntSLT, x, LLVMBuildNeg(B, big, ""), ""), ""), "");
        cj_emit_raise_if(L, LLVMBuildOr(B, ovf, tenth, ""), CJ_EXC_INT64_RANGE);
    }
    LLVMValueRef r_nd = LLVMBuildSelect(B, far, zero, LLVMBuildMul(B, q, p, ""), "");
    return LLVMBuildSelect(B, keep, x, r_nd, "round");
}
