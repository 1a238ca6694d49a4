/* lower_random.c: np.random calls (typing/array_random.c) as calls of abi/random.c's
 * generator, NumPy's legacy RandomState: the arguments are checked here first with NumPy's
 * errors (seed out of [0, 2**32), randint's empty range, a negative scale, a non-finite
 * uniform range, a bad lam, n or p, choice from nothing; the other distributions by a table of
 * NumPy's constraints, their ValueErrors registered by their words); a scalar is drawn into a
 * stack slot, an array of `size` is a new C array (cj_new_array) the run time fills in one
 * call, which the call hands over (cj_random_makes_array). choice(a) draws its indices as
 * randint(0, len(a)) does; permutation is arange or a copy, then shuffled as NumPy's shuffle
 * does. */
#include "lower/lower_internal.h"

#include <math.h>
#include <stdint.h>

static LLVMTypeRef i8p(cj_lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }

static LLVMValueRef f64c(cj_lower *L, double v) {
    return LLVMConstReal(LLVMDoubleTypeInContext(L->ctx), v);
}

static LLVMValueRef i32c(cj_lower *L, int v) {
    return LLVMConstInt(LLVMInt32TypeInContext(L->ctx), (unsigned long long)v, 1);
}

/* Parameter i of the call as a float64 (or int64), or `dflt` when left out. */
static LLVMValueRef param(cj_lower *L, const cj_call *call, int i, const cj_type *as,
                          double dflt) {
    if (call->args[i] < 0) {
        return as == cj_t_int64 ? cj_i64(L, (long long)dflt) : f64c(L, dflt);
    }
    return cj_cast(L, cj_load_var(L, call->args[i]), call->argtypes[i], as);
}

/* out[0..n) (an i8*) from the run time: doubles (ints 0; p a third parameter) or int64s
 * (ints 1; p and q their real parameters). */
static void fill(cj_lower *L, int ints, int kind, LLVMValueRef a, LLVMValueRef b, LLVMValueRef p,
                 LLVMValueRef q, LLVMValueRef n, LLVMValueRef out) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(L->ctx), vd = LLVMVoidTypeInContext(L->ctx);
    if (ints) {
        LLVMTypeRef params[7] = {i32, i64, i64, f64, f64, i64, i8p(L)};
        LLVMValueRef fn = cj_runtime_fn(L, "cj_random_ints", vd, params, 7);
        LLVMValueRef args[7] = {i32c(L, kind), a, b, p, q, n, out};
        LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 7, "");
        return;
    }
    LLVMTypeRef params[6] = {i32, f64, f64, f64, i64, i8p(L)};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_random_doubles", vd, params, 6);
    LLVMValueRef args[6] = {i32c(L, kind), a, b, p, n, out}; /* p: a third parameter */
    LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 6, "");
}

/* The product of the dimensions (what a new array of them holds). */
static LLVMValueRef count_of(cj_lower *L, int ndim, LLVMValueRef *shape) {
    LLVMValueRef n = cj_i64(L, 1);
    for (int d = 0; d < ndim; d++) {
        n = LLVMBuildMul(L->b, n, shape[d], "");
    }
    return n;
}

/* One value (shape NULL: in->rtype's scalar) or a new array of in->rtype filled. */
static LLVMValueRef sample_q(cj_lower *L, cj_instr *in, LLVMValueRef *shape, int ints, int kind,
                             LLVMValueRef a, LLVMValueRef b, LLVMValueRef p, LLVMValueRef q) {
    if (shape == NULL) {
        LLVMTypeRef t = cj_llvm_type(L->ctx, ints ? cj_t_int64 : cj_t_float64);
        LLVMValueRef slot = cj_entry_alloca(L, t, "draw");
        fill(L, ints, kind, a, b, p, q, cj_i64(L, 1), LLVMBuildBitCast(L->b, slot, i8p(L), ""));
        return LLVMBuildLoad2(L->b, t, slot, "");
    }
    LLVMValueRef arr = cj_new_array(L, in->rtype, shape, 0);
    fill(L, ints, kind, a, b, p, q, count_of(L, in->rtype->ndim, shape),
         cj_array_bytes(L, arr));
    return arr;
}

static LLVMValueRef sample(cj_lower *L, cj_instr *in, LLVMValueRef *shape, int ints, int kind,
                           LLVMValueRef a, LLVMValueRef b, LLVMValueRef p) {
    return sample_q(L, in, shape, ints, kind, a, b, p, f64c(L, 0.0));
}

/* if (!isnan(x) && signbit(x)) raise #exc: NumPy's CONS_NON_NEGATIVE. */
static void check_non_negative(cj_lower *L, LLVMValueRef x, int exc) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef sign = LLVMBuildICmp(L->b, LLVMIntSLT, LLVMBuildBitCast(L->b, x, i64, ""),
                                      cj_i64(L, 0), "");
    LLVMValueRef number = LLVMBuildFCmp(L->b, LLVMRealORD, x, x, "");
    cj_emit_raise_if(L, LLVMBuildAnd(L->b, sign, number, ""), exc);
}

static LLVMValueRef lower_seed(cj_lower *L, const cj_call *call) {
    LLVMValueRef s = param(L, call, 0, cj_t_int64, 0); /* negative: huge as unsigned */
    LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntUGT, s, cj_i64(L, 0xFFFFFFFFll), "");
    cj_emit_raise_if(L, bad, CJ_EXC_RANDOM_SEED);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMValueRef fn = cj_runtime_fn(L, "cj_random_seed", LLVMVoidTypeInContext(L->ctx), &i32, 1);
    LLVMValueRef arg = LLVMBuildTrunc(L->b, s, i32, "");
    LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, &arg, 1, "");
    return cj_empty(L);
}

/* randint(low, high): [low, high), or [0, low) without high; NumPy's errors for an empty
 * range unless no value is drawn. */
static LLVMValueRef lower_randint(cj_lower *L, cj_instr *in, const cj_call *call,
                                  LLVMValueRef *shape) {
    LLVMValueRef low = param(L, call, 0, cj_t_int64, 0), high = low;
    if (call->args[1] >= 0) {
        high = param(L, call, 1, cj_t_int64, 0);
    } else {
        low = cj_i64(L, 0);
    }
    LLVMValueRef empty = LLVMBuildICmp(L->b, LLVMIntSLE, high, low, "");
    if (shape != NULL) {
        LLVMValueRef n = count_of(L, in->rtype->ndim, shape);
        empty = LLVMBuildAnd(L->b, empty, LLVMBuildICmp(L->b, LLVMIntNE, n, cj_i64(L, 0), ""),
                             "");
    }
    LLVMValueRef low0 = LLVMBuildICmp(L->b, LLVMIntEQ, low, cj_i64(L, 0), "");
    cj_emit_raise_if(L, LLVMBuildAnd(L->b, empty, low0, ""), CJ_EXC_RANDOM_HIGH);
    cj_emit_raise_if(L, empty, CJ_EXC_RANDOM_LOW_HIGH);
    return sample(L, in, shape, 1, CJ_RANDOM_INT, low, high, f64c(L, 0));
}

/* uniform(low, high): low + (high - low) * random(), the range finite (NumPy's check). */
static LLVMValueRef lower_uniform(cj_lower *L, cj_instr *in, const cj_call *call,
                                  LLVMValueRef *shape) {
    LLVMValueRef low = param(L, call, 0, cj_t_float64, 0.0);
    LLVMValueRef range = LLVMBuildFSub(L->b, param(L, call, 1, cj_t_float64, 1.0), low, "");
    LLVMValueRef finite = LLVMBuildFCmp(L->b, LLVMRealOEQ, LLVMBuildFSub(L->b, range, range, ""),
                                        f64c(L, 0.0), ""); /* inf - inf and NaN are NaN */
    cj_emit_raise_if(L, LLVMBuildNot(L->b, finite, ""), CJ_EXC_RANDOM_RANGE);
    return sample(L, in, shape, 0, CJ_RANDOM_UNIFORM, low, range, f64c(L, 0));
}

static LLVMValueRef lower_poisson(cj_lower *L, cj_instr *in, const cj_call *call,
                                  LLVMValueRef *shape) {
    LLVMValueRef lam = param(L, call, 0, cj_t_float64, 1.0);
    LLVMValueRef ok = LLVMBuildFCmp(L->b, LLVMRealOGE, lam, f64c(L, 0.0), "");
    cj_emit_raise_if(L, LLVMBuildNot(L->b, ok, ""), CJ_EXC_RANDOM_LAM);
    double lam_max = (double)INT64_MAX - sqrt((double)INT64_MAX) * 10; /* NumPy's */
    cj_emit_raise_if(L, LLVMBuildFCmp(L->b, LLVMRealOGT, lam, f64c(L, lam_max), ""),
                     CJ_EXC_RANDOM_LAM_BIG);
    return sample(L, in, shape, 1, CJ_RANDOM_POISSON, cj_i64(L, 0), cj_i64(L, 0), lam);
}

/* binomial(n, p): NumPy's checks, p first. */
static LLVMValueRef lower_binomial(cj_lower *L, cj_instr *in, const cj_call *call,
                                   LLVMValueRef *shape) {
    LLVMValueRef n = param(L, call, 0, cj_t_int64, 0), p = param(L, call, 1, cj_t_float64, 0);
    LLVMValueRef ok = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOGE, p, f64c(L, 0.0), ""),
                                   LLVMBuildFCmp(L->b, LLVMRealOLE, p, f64c(L, 1.0), ""), "");
    cj_emit_raise_if(L, LLVMBuildNot(L->b, ok, ""), CJ_EXC_RANDOM_P);
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, n, cj_i64(L, 0), ""), CJ_EXC_RANDOM_N);
    return sample(L, in, shape, 1, CJ_RANDOM_BINOMIAL, n, cj_i64(L, 0), p);
}

/* if (cond) raise ValueError(text) (lower.c's rule). */
static int raise_value_error_if(cj_lower *L, LLVMValueRef cond, const char *text) {
    return cj_emit_raise_text_if(L, cond, PyExc_ValueError, text);
}

/* The distributions that only check their parameters and draw (NumPy's constraints: 'n'
 * not negative, -0.0 included, NaN passing; 'p' positive, NaN passing; 'g' in (0, 1]; 'b' in
 * [0, 1]; 'l' in [0, 1); '1' above 1). */
typedef struct distribution {
    int id, kind;
    const char *names[2];
    double dflt[2];
    char cons[2];
    int ints; /* int64s, by cj_random_ints with the parameters as p and q */
} distribution;

static const distribution distributions[] = {
    {CJ_B_NPR_LOGNORMAL, CJ_RANDOM_LOGNORMAL, {"mean", "sigma"}, {0.0, 1.0}, {0, 'n'}},
    {CJ_B_NPR_STD_GAMMA, CJ_RANDOM_GAMMA, {"shape", ""}, {0.0, 1.0}, {'n', 0}},
    {CJ_B_NPR_GAMMA, CJ_RANDOM_GAMMA, {"shape", "scale"}, {0.0, 1.0}, {'n', 'n'}},
    {CJ_B_NPR_CHISQUARE, CJ_RANDOM_CHISQUARE, {"df", ""}, {0.0, 0.0}, {'p', 0}},
    {CJ_B_NPR_BETA, CJ_RANDOM_BETA, {"a", "b"}, {0.0, 0.0}, {'p', 'p'}},
    {CJ_B_NPR_PARETO, CJ_RANDOM_PARETO, {"a", ""}, {0.0, 0.0}, {'p', 0}},
    {CJ_B_NPR_WEIBULL, CJ_RANDOM_WEIBULL, {"a", ""}, {0.0, 0.0}, {'n', 0}},
    {CJ_B_NPR_POWER, CJ_RANDOM_POWER, {"a", ""}, {0.0, 0.0}, {'p', 0}},
    {CJ_B_NPR_STD_CAUCHY, CJ_RANDOM_CAUCHY, {"", ""}, {0.0, 0.0}, {0, 0}},
    {CJ_B_NPR_STD_T, CJ_RANDOM_STANDARD_T, {"df", ""}, {0.0, 0.0}, {'p', 0}},
    {CJ_B_NPR_LAPLACE, CJ_RANDOM_LAPLACE, {"loc", "scale"}, {0.0, 1.0}, {0, 'n'}},
    {CJ_B_NPR_GUMBEL, CJ_RANDOM_GUMBEL, {"loc", "scale"}, {0.0, 1.0}, {0, 'n'}},
    {CJ_B_NPR_LOGISTIC, CJ_RANDOM_LOGISTIC, {"loc", "scale"}, {0.0, 1.0}, {0, 'n'}},
    {CJ_B_NPR_RAYLEIGH, CJ_RANDOM_RAYLEIGH, {"scale", ""}, {1.0, 0.0}, {'n', 0}},
    {CJ_B_NPR_GEOMETRIC, CJ_RANDOM_GEOMETRIC, {"p", ""}, {0.0, 0.0}, {'g', 0}, 1},
    {CJ_B_NPR_NEG_BINOMIAL, CJ_RANDOM_NEGATIVE_BINOMIAL, {"n", "p"}, {0.0, 0.0}, {'p', 'b'}, 1},
    {CJ_B_NPR_LOGSERIES, CJ_RANDOM_LOGSERIES, {"p", ""}, {0.0, 0.0}, {'l', 0}, 1},
    {CJ_B_NPR_ZIPF, CJ_RANDOM_ZIPF, {"a", ""}, {0.0, 0.0}, {'1', 0}, 1},
    {CJ_B_NPR_F, CJ_RANDOM_F, {"dfnum", "dfden"}, {0.0, 0.0}, {'p', 'p'}},
    {CJ_B_NPR_WALD, CJ_RANDOM_WALD, {"mean", "scale"}, {0.0, 0.0}, {'p', 'p'}},
    {CJ_B_NPR_VONMISES, CJ_RANDOM_VONMISES, {"mu", "kappa"}, {0.0, 0.0}, {0, 'n'}},
};


static int check_param(cj_lower *L, LLVMValueRef x, char cons, const char *name) {
    char text[64];
    LLVMValueRef bad;
    if (cons == 'n') {
        LLVMValueRef sign = LLVMBuildICmp(L->b, LLVMIntSLT,
                                          LLVMBuildBitCast(L->b, x, LLVMInt64TypeInContext(L->ctx),
                                                           ""), cj_i64(L, 0), "");
        bad = LLVMBuildAnd(L->b, sign, LLVMBuildFCmp(L->b, LLVMRealORD, x, x, ""), "");
        PyOS_snprintf(text, sizeof(text), "%s < 0", name);
    } else if (cons == 'p') {
        bad = LLVMBuildFCmp(L->b, LLVMRealOLE, x, f64c(L, 0.0), "");
        PyOS_snprintf(text, sizeof(text), "%s <= 0", name);
    } else if (cons == '1') {
        bad = LLVMBuildNot(L->b, LLVMBuildFCmp(L->b, LLVMRealOGT, x, f64c(L, 1.0), ""), "");
        PyOS_snprintf(text, sizeof(text), "%s <= 1 or %s is NaN", name, name);
    } else { /* 'g', 'b', 'l': bounded by 0 and 1 */
        LLVMRealPredicate lo = cons == 'g' ? LLVMRealOGT : LLVMRealOGE;
        LLVMRealPredicate hi = cons == 'l' ? LLVMRealOLT : LLVMRealOLE;
        LLVMValueRef ok = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, lo, x, f64c(L, 0.0), ""),
                                       LLVMBuildFCmp(L->b, hi, x, f64c(L, 1.0), ""), "");
        bad = LLVMBuildNot(L->b, ok, "");
        PyOS_snprintf(text, sizeof(text),
                      cons == 'g' ? "%s <= 0, %s > 1 or %s contains NaNs"
                      : cons == 'b' ? "%s < 0, %s > 1 or %s is NaN"
                                    : "%s < 0, %s >= 1 or %s is NaN", name, name, name);
    }
    return raise_value_error_if(L, bad, text);
}

static LLVMValueRef lower_distribution(cj_lower *L, cj_instr *in, const cj_call *call,
                                       LLVMValueRef *shape, const distribution *d) {
    LLVMValueRef v[2];
    for (int i = 0; i < 2; i++) {
        v[i] = param(L, call, i, cj_t_float64, d->dflt[i]);
        if (d->cons[i] != 0 && check_param(L, v[i], d->cons[i], d->names[i]) < 0) {
            return NULL;
        }
    }
    if (d->ints) {
        return sample_q(L, in, shape, 1, d->kind, cj_i64(L, 0), cj_i64(L, 0), v[0], v[1]);
    }
    return sample(L, in, shape, 0, d->kind, v[0], v[1], f64c(L, 0.0));
}

/* triangular(left, mode, right): NumPy's three checks in its order. */
static LLVMValueRef lower_triangular(cj_lower *L, cj_instr *in, const cj_call *call,
                                     LLVMValueRef *shape) {
    LLVMValueRef v[3];
    for (int i = 0; i < 3; i++) {
        v[i] = param(L, call, i, cj_t_float64, 0.0);
    }
    if (raise_value_error_if(L, LLVMBuildFCmp(L->b, LLVMRealOGT, v[0], v[1], ""),
                             "left > mode") < 0 ||
        raise_value_error_if(L, LLVMBuildFCmp(L->b, LLVMRealOGT, v[1], v[2], ""),
                             "mode > right") < 0 ||
        raise_value_error_if(L, LLVMBuildFCmp(L->b, LLVMRealOEQ, v[0], v[2], ""),
                             "left == right") < 0) {
        return NULL;
    }
    return sample(L, in, shape, 0, CJ_RANDOM_TRIANGULAR, v[0], v[1], v[2]);
}

/* hypergeometric(ngood, nbad, nsample): NumPy's checks in its order. */
static LLVMValueRef lower_hypergeometric(cj_lower *L, cj_instr *in, const cj_call *call,
                                         LLVMValueRef *shape) {
    LLVMValueRef v[3];
    for (int i = 0; i < 3; i++) {
        v[i] = param(L, call, i, cj_t_int64, 0);
    }
    LLVMValueRef zero = cj_i64(L, 0);
    if (raise_value_error_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, v[0], zero, ""),
                             "ngood < 0") < 0 ||
        raise_value_error_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, v[1], zero, ""), "nbad < 0") < 0 ||
        raise_value_error_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, v[2], cj_i64(L, 1), ""),
                             "nsample < 1 or nsample is NaN") < 0 ||
        raise_value_error_if(L, LLVMBuildICmp(L->b, LLVMIntSLT, LLVMBuildAdd(L->b, v[0], v[1], ""),
                                              v[2], ""), "ngood + nbad < nsample") < 0) {
        return NULL;
    }
    LLVMValueRef sample_d = LLVMBuildSIToFP(L->b, v[2], LLVMDoubleTypeInContext(L->ctx), "");
    return sample(L, in, shape, 1, CJ_RANDOM_HYPERGEOMETRIC, v[0], v[1], sample_d);
}

typedef struct picking {
    const cj_type *dtype;
    LLVMValueRef data, stride, pop, slot; /* a's i8* data, its stride, len(a), an int64 slot */
} picking;

/* The element of a at randint(0, len(a)) (an i8* to it). */
static LLVMValueRef pick(cj_lower *L, const picking *p) {
    LLVMValueRef zero = cj_i64(L, 0);
    fill(L, 1, CJ_RANDOM_INT, zero, p->pop, f64c(L, 0), f64c(L, 0), cj_i64(L, 1),
         LLVMBuildBitCast(L->b, p->slot, i8p(L), ""));
    LLVMValueRef idx = LLVMBuildLoad2(L->b, LLVMInt64TypeInContext(L->ctx), p->slot, "");
    LLVMValueRef off = LLVMBuildMul(L->b, idx, p->stride, "");
    return LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), p->data, &off, 1, "");
}

static void pick_element(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    const picking *p = ctx;
    LLVMTypeRef elem = cj_elem_type(L->ctx, p->dtype), elem_p = LLVMPointerType(elem, 0);
    LLVMValueRef v = LLVMBuildLoad2(L->b, elem, LLVMBuildBitCast(L->b, pick(L, p), elem_p, ""),
                                    "");
    LLVMBuildStore(L->b, v, LLVMBuildBitCast(L->b, ptr, elem_p, ""));
}

/* choice(a[, size]) with replacement: randint(0, n) for an int a, else
 * a[randint(0, len(a))]. */
static LLVMValueRef choice_replacing(cj_lower *L, cj_instr *in, LLVMValueRef *shape,
                                     LLVMValueRef a, const cj_type *at, picking p) {
    int array = at->kind == CJ_ARRAY;
    if (!array) {
        return sample(L, in, shape, 1, CJ_RANDOM_INT, cj_i64(L, 0), p.pop, f64c(L, 0));
    }
    p.data = cj_array_bytes(L, a);
    p.stride = cj_array_dim(L, a, CJ_ARR_STRIDES, 0);
    p.slot = cj_entry_alloca(L, LLVMInt64TypeInContext(L->ctx), "index");
    if (shape == NULL) {
        return cj_load_element(L, pick(L, &p), p.dtype);
    }
    LLVMValueRef out = cj_new_array(L, in->rtype, shape, 0);
    cj_array_for_each(L, out, in->rtype, pick_element, &p);
    return out;
}

/* choice(a[, size], replace=False): the first items of permutation(len(a)), as NumPy's. */
static LLVMValueRef choice_unique(cj_lower *L, cj_instr *in, LLVMValueRef *shape,
                                  LLVMValueRef a, const cj_type *at, LLVMValueRef pop) {
    int array = at->kind == CJ_ARRAY;
    const cj_type *dtype = array ? at->dtype : cj_t_int64;
    LLVMValueRef count = shape != NULL ? count_of(L, in->rtype->ndim, shape) : cj_i64(L, 1);
    if (raise_value_error_if(L, LLVMBuildICmp(L->b, LLVMIntSGT, count, pop, ""),
                             "Cannot take a larger sample than population when "
                             "'replace=False'") < 0) {
        return NULL;
    }
    LLVMValueRef out = NULL, slot = NULL;
    if (shape != NULL) {
        out = cj_new_array(L, in->rtype, shape, 0);
    } else {
        slot = LLVMBuildBitCast(L->b, cj_entry_alloca(L, cj_elem_type(L->ctx, dtype), "chosen"),
                                i8p(L), "");
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef params[6] = {i64, i64, i8p(L), i64, i64, i8p(L)};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_random_choice_unique", i32, params, 6);
    LLVMValueRef args[6] = {pop, count,
                            array ? cj_array_bytes(L, a) : LLVMConstNull(i8p(L)),
                            array ? cj_array_dim(L, a, CJ_ARR_STRIDES, 0) : cj_i64(L, 0),
                            cj_i64(L, (long long)cj_abi_size(dtype)),
                            out != NULL ? cj_array_bytes(L, out) : slot};
    LLVMValueRef status = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 6,
                                         "");
    LLVMBasicBlockRef fail = cj_new_bb(L, "no_memory"), ok = cj_new_bb(L, "chosen");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntNE, status, LLVMConstInt(i32, 0, 0), ""),
                    fail, ok);
    LLVMPositionBuilderAtEnd(L->b, fail);
    if (out != NULL) {
        cj_decref(L, out, in->rtype);
    }
    cj_emit_raise(L, CJ_EXC_MEMORY);
    LLVMBuildBr(L->b, ok); /* from the unreachable block cj_emit_raise leaves */
    LLVMPositionBuilderAtEnd(L->b, ok);
    return out != NULL ? out : cj_load_element(L, slot, dtype);
}

/* choice(a, size=None, replace=True): NumPy's checks of a, then either way (replace may be
 * known only at run time). */
static LLVMValueRef lower_choice(cj_lower *L, cj_instr *in, const cj_call *call,
                                 LLVMValueRef *shape) {
    const cj_type *at = call->argtypes[0];
    LLVMValueRef a = cj_load_var(L, call->args[0]);
    int array = at->kind == CJ_ARRAY;
    picking p = {.dtype = array ? at->dtype : cj_t_int64,
                 .pop = array ? cj_array_dim(L, a, CJ_ARR_SHAPE, 0)
                              : cj_cast(L, a, at, cj_t_int64)};
    LLVMValueRef none = LLVMBuildICmp(L->b, LLVMIntSLE, p.pop, cj_i64(L, 0), "");
    if (shape != NULL) {
        LLVMValueRef n = count_of(L, in->rtype->ndim, shape);
        none = LLVMBuildAnd(L->b, none, LLVMBuildICmp(L->b, LLVMIntNE, n, cj_i64(L, 0), ""), "");
    }
    cj_emit_raise_if(L, none, array ? CJ_EXC_RANDOM_EMPTY : CJ_EXC_RANDOM_A);
    if (call->args[1] < 0) {
        return choice_replacing(L, in, shape, a, at, p);
    }
    LLVMValueRef replace = cj_truth(L, cj_load_var(L, call->args[1]), call->argtypes[1]);
    LLVMBasicBlockRef yes = cj_new_bb(L, "replace"), no = cj_new_bb(L, "unique");
    LLVMBasicBlockRef join = cj_new_bb(L, "choice");
    LLVMBuildCondBr(L->b, replace, yes, no);
    LLVMPositionBuilderAtEnd(L->b, yes);
    LLVMValueRef v[2];
    LLVMBasicBlockRef from[2];
    v[0] = choice_replacing(L, in, shape, a, at, p);
    from[0] = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, join);
    LLVMPositionBuilderAtEnd(L->b, no);
    if ((v[1] = choice_unique(L, in, shape, a, at, p.pop)) == NULL) {
        return NULL;
    }
    from[1] = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, join);
    LLVMPositionBuilderAtEnd(L->b, join);
    LLVMValueRef phi = LLVMBuildPhi(L->b, LLVMTypeOf(v[0]), "chosen");
    LLVMAddIncoming(phi, v, from, 2);
    return phi;
}

static void shuffle(cj_lower *L, LLVMValueRef arr, const cj_type *at) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef params[4] = {i64, i64, i64, i8p(L)};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_random_shuffle", LLVMVoidTypeInContext(L->ctx),
                                    params, 4);
    LLVMValueRef args[4] = {cj_array_dim(L, arr, CJ_ARR_SHAPE, 0),
                            cj_array_dim(L, arr, CJ_ARR_STRIDES, 0),
                            cj_i64(L, (long long)cj_abi_size(at->dtype)), cj_array_bytes(L, arr)};
    LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 4, "");
}

static void count_up(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    LLVMValueRef slot = ctx;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef k = LLVMBuildLoad2(L->b, i64, slot, "");
    LLVMBuildStore(L->b, k, LLVMBuildBitCast(L->b, ptr, LLVMPointerType(i64, 0), ""));
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, k, cj_i64(L, 1), ""), slot);
}

/* permutation(n): arange(n) shuffled (empty for n < 0, as NumPy's); permutation(a): a copy
 * of a shuffled. */
static LLVMValueRef lower_permutation(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *at = call->argtypes[0];
    LLVMValueRef a = cj_load_var(L, call->args[0]), out;
    if (at->kind == CJ_ARRAY) {
        out = cj_lower_array_method(L, CJ_B_NP_COPY, a, at, in, call, 0);
    } else {
        LLVMValueRef n = cj_cast(L, a, at, cj_t_int64);
        LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, n, cj_i64(L, 0), "");
        n = LLVMBuildSelect(L->b, neg, cj_i64(L, 0), n, "");
        out = cj_new_array(L, in->rtype, &n, 0);
        LLVMValueRef slot = cj_entry_alloca(L, LLVMInt64TypeInContext(L->ctx), "k");
        LLVMBuildStore(L->b, cj_i64(L, 0), slot);
        cj_array_for_each(L, out, in->rtype, count_up, slot);
    }
    shuffle(L, out, in->rtype);
    return out;
}

int cj_random_makes_array(const cj_call *call) {
    int id = call->builtin;
    if (!cj_builtin_random(id) || id == CJ_B_NPR_SEED || id == CJ_B_NPR_SHUFFLE) {
        return 0;
    }
    if (id == CJ_B_NPR_RAND || id == CJ_B_NPR_RANDN) {
        return call->nargs > 0;
    }
    return id == CJ_B_NPR_PERMUTATION || call->args[3] >= 0; /* size= */
}

/* The requested shape (size=, or rand/randn's dimensions) into `shape`; NULL for a scalar. */
static LLVMValueRef *shape_of(cj_lower *L, cj_instr *in, const cj_call *call,
                              LLVMValueRef *shape) {
    if (!cj_random_makes_array(call)) {
        return NULL;
    }
    if (call->builtin == CJ_B_NPR_RAND || call->builtin == CJ_B_NPR_RANDN) {
        for (int d = 0; d < call->nargs; d++) {
            shape[d] = cj_cast(L, cj_load_var(L, call->args[d]), call->argtypes[d], cj_t_int64);
        }
    } else {
        cj_shape_values(L, call->args[3], call->argtypes[3], in->rtype->ndim, shape);
    }
    return shape;
}

LLVMValueRef cj_lower_random(cj_lower *L, cj_instr *in, const cj_call *call) {
    LLVMValueRef dims[CJ_MAXDIM], zero = f64c(L, 0.0), one = f64c(L, 1.0);
    LLVMValueRef *shape = call->builtin == CJ_B_NPR_PERMUTATION ? NULL
                                                                 : shape_of(L, in, call, dims);
    switch (call->builtin) {
    case CJ_B_NPR_SEED:
        return lower_seed(L, call);
    case CJ_B_NPR_RANDOM:
    case CJ_B_NPR_RANDOM_SAMPLE:
    case CJ_B_NPR_RAND:
        return sample(L, in, shape, 0, CJ_RANDOM_UNIFORM, zero, one, zero);
    case CJ_B_NPR_RANDN:
    case CJ_B_NPR_STD_NORMAL:
        return sample(L, in, shape, 0, CJ_RANDOM_NORMAL, zero, one, zero);
    case CJ_B_NPR_STD_EXPONENTIAL:
        return sample(L, in, shape, 0, CJ_RANDOM_EXPONENTIAL, one, zero, zero);
    case CJ_B_NPR_UNIFORM:
        return lower_uniform(L, in, call, shape);
    case CJ_B_NPR_NORMAL:
    case CJ_B_NPR_EXPONENTIAL: {
        int normal = call->builtin == CJ_B_NPR_NORMAL;
        LLVMValueRef loc = normal ? param(L, call, 0, cj_t_float64, 0.0) : zero;
        LLVMValueRef scale = param(L, call, normal ? 1 : 0, cj_t_float64, 1.0);
        check_non_negative(L, scale, CJ_EXC_RANDOM_SCALE);
        return normal ? sample(L, in, shape, 0, CJ_RANDOM_NORMAL, loc, scale, zero)
                      : sample(L, in, shape, 0, CJ_RANDOM_EXPONENTIAL, scale, zero, zero);
    }
    case CJ_B_NPR_RANDINT:
        return lower_randint(L, in, call, shape);
    case CJ_B_NPR_POISSON:
        return lower_poisson(L, in, call, shape);
    case CJ_B_NPR_BINOMIAL:
        return lower_binomial(L, in, call, shape);
    case CJ_B_NPR_CHOICE:
        return lower_choice(L, in, call, shape);
    case CJ_B_NPR_SHUFFLE:
        shuffle(L, cj_load_var(L, call->args[0]), call->argtypes[0]);
        return cj_empty(L);
    case CJ_B_NPR_PERMUTATION:
        return lower_permutation(L, in, call);
    case CJ_B_NPR_TRIANGULAR:
        return lower_triangular(L, in, call, shape);
    case CJ_B_NPR_HYPERGEOMETRIC:
        return lower_hypergeometric(L, in, call, shape);
    default:
        for (size_t i = 0; i < sizeof(distributions) / sizeof(distributions[0]); i++) {
            if (distributions[i].id == call->builtin) {
                return lower_distribution(L, in, call, shape, &distributions[i]);
            }
        }
        PyErr_SetString(cj_LoweringError, "np.random function without its lowering");
        return NULL;
    }
}
