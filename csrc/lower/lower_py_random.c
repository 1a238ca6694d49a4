/* lower_py_random.c: Python's random module (typing/py_random.c) with numba's semantics, drawn
 * inline as numba draws it from the thread's state of abi/py_random.c (cj_py_random_state,
 * declared readnone as numba declares its own, so that LLVM hoists it out of loops): a word is
 * the key's word at pos (twisted by the run time when pos reached 624), tempered, as
 * random_internal.h's next_uint32; random() = (a * 2**26 + b) / 2**53 of two words' top 27 and
 * 26 bits; getrandbits(k) CPython's words (numba's OverflowError outside 1..64); an int below
 * n CPython's _randbelow (n.bit_length() bits again until below n). uniform(a, b) = a + (b -
 * a) * random(); gauss/normalvariate = mu + sigma * the run time's polar normal;
 * expovariate(lambd) = -log(1 - random()) / lambd (a zero lambd divides by zero as compiled
 * code does); randrange computes numba's count (stop - start; (n + step + 1) // step for a
 * negative step, (n + step - 1) // step above 1, truncating; in the result's width, wrapping),
 * raises numba's ValueError when it is not positive (and CPython's for a zero step, which
 * numba lets through), then start + step * an int below it; randint(a, b) = randrange(a, b +
 * 1); seed(n) seeds with abs(n) (CPython's seeding of an int); shuffle(x) walks x's first axis
 * from the last row down, j below i + 1, rows i and j swapped (by the run time above rank 1). */
#include "lower/lower_internal.h"

static LLVMTypeRef i8p(cj_lower *L) { return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0); }

static LLVMValueRef f64c(cj_lower *L, double v) {
    return LLVMConstReal(LLVMDoubleTypeInContext(L->ctx), v);
}

/* A call of run-time function `name` (abi.h). */
static LLVMValueRef call_rt(cj_lower *L, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                            LLVMValueRef *args, unsigned n) {
    LLVMValueRef fn = cj_runtime_fn(L, name, ret, params, n);
    return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, n, "");
}

/* The thread's state (an i8*). readnone, as numba declares its own: the same pointer for the
 * thread's life, so LLVM may hoist the call out of loops. */
static LLVMValueRef state_of(cj_lower *L) {
    LLVMValueRef fn = cj_runtime_fn(L, "cj_py_random_state", i8p(L), NULL, 0);
    unsigned kind = LLVMGetEnumAttributeKindForName("readnone", 8);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(L->ctx, kind, 0));
    return LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, NULL, 0, "py_random");
}

static LLVMValueRef temper(cj_lower *L, LLVMValueRef y) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    y = LLVMBuildXor(L->b, y, LLVMBuildLShr(L->b, y, LLVMConstInt(i32, 11, 0), ""), "");
    y = LLVMBuildXor(L->b, y, LLVMBuildAnd(L->b, LLVMBuildShl(L->b, y, LLVMConstInt(i32, 7, 0), ""),
                                           LLVMConstInt(i32, 0x9d2c5680u, 0), ""), "");
    y = LLVMBuildXor(L->b, y, LLVMBuildAnd(L->b, LLVMBuildShl(L->b, y, LLVMConstInt(i32, 15, 0),
                                                              ""),
                                           LLVMConstInt(i32, 0xefc60000u, 0), ""), "");
    return LLVMBuildXor(L->b, y, LLVMBuildLShr(L->b, y, LLVMConstInt(i32, 18, 0), ""), "");
}

/* The state's next tempered word (an i32): random_internal.h's next_uint32. */
static LLVMValueRef next_word(cj_lower *L, LLVMValueRef st) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMValueRef words = LLVMBuildBitCast(L->b, st, LLVMPointerType(i32, 0), "");
    LLVMValueRef n = LLVMConstInt(i32, 624, 0); /* MT_N: pos follows the key */
    LLVMValueRef pos_ptr = LLVMBuildInBoundsGEP2(L->b, i32, words, &n, 1, "pos_ptr");
    LLVMValueRef pos = LLVMBuildLoad2(L->b, i32, pos_ptr, "pos");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef twist = cj_new_bb(L, "twist"), drawn = cj_new_bb(L, "drawn");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntUGE, pos, n, ""), twist, drawn);
    LLVMPositionBuilderAtEnd(L->b, twist);
    LLVMTypeRef p = i8p(L);
    call_rt(L, "cj_py_random_twist", LLVMVoidTypeInContext(L->ctx), &p, &st, 1);
    LLVMBuildBr(L->b, drawn);
    LLVMPositionBuilderAtEnd(L->b, drawn);
    LLVMValueRef idx = LLVMBuildPhi(L->b, i32, "idx"), zero = LLVMConstInt(i32, 0, 0);
    LLVMBasicBlockRef preds[2] = {from, twist};
    LLVMValueRef vals[2] = {pos, zero};
    LLVMAddIncoming(idx, vals, preds, 2);
    LLVMValueRef at = LLVMBuildZExt(L->b, idx, LLVMInt64TypeInContext(L->ctx), "");
    LLVMValueRef word_ptr = LLVMBuildInBoundsGEP2(L->b, i32, words, &at, 1, "");
    cj_ub_proof(word_ptr, "pos < 624: the key was twisted (pos 0) when pos reached 624");
    LLVMValueRef word = LLVMBuildLoad2(L->b, i32, word_ptr, "");
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, idx, LLVMConstInt(i32, 1, 0), ""), pos_ptr);
    return temper(L, word);
}

/* random(): (a * 2**26 + b) / 2**53 of the next two words' top 27 and 26 bits. */
static LLVMValueRef next_double(cj_lower *L, LLVMValueRef st) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), f64 = LLVMDoubleTypeInContext(L->ctx);
    LLVMValueRef a = LLVMBuildLShr(L->b, next_word(L, st), LLVMConstInt(i32, 5, 0), "");
    LLVMValueRef b = LLVMBuildLShr(L->b, next_word(L, st), LLVMConstInt(i32, 6, 0), "");
    LLVMValueRef sum = LLVMBuildFAdd(L->b, LLVMBuildFMul(L->b, LLVMBuildUIToFP(L->b, a, f64, ""),
                                                         f64c(L, 67108864.0), ""),
                                     LLVMBuildUIToFP(L->b, b, f64, ""), "");
    return LLVMBuildFDiv(L->b, sum, f64c(L, 9007199254740992.0), "random");
}

/* getrandbits(k) for an i64 k in 1..64, as an i64: CPython's words, the first the low bits,
 * the last one's top bits the high ones. */
static LLVMValueRef draw_bits(cj_lower *L, LLVMValueRef st, LLVMValueRef k) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBasicBlockRef one = cj_new_bb(L, "one_word"), two = cj_new_bb(L, "two_words");
    LLVMBasicBlockRef join = cj_new_bb(L, "bits"), from[2];
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLE, k, cj_i64(L, 32), ""), one, two);
    LLVMValueRef r[2];
    for (int words = 1; words <= 2; words++) {
        LLVMPositionBuilderAtEnd(L->b, words == 1 ? one : two);
        LLVMValueRef low = words == 2 ? next_word(L, st) : NULL, top = next_word(L, st);
        LLVMValueRef shift = LLVMBuildTrunc(L->b, LLVMBuildSub(L->b, cj_i64(L, 32 * words), k, ""),
                                            i32, "");
        top = LLVMBuildLShr(L->b, top, shift, "");
        cj_ub_proof(top, words == 1 ? "32 - k in 0..31: 1 <= k <= 32 on this path"
                                    : "64 - k in 0..31: 32 < k <= 64 on this path");
        r[words - 1] = LLVMBuildZExt(L->b, top, i64, "");
        if (words == 2) {
            r[1] = LLVMBuildOr(L->b, LLVMBuildZExt(L->b, low, i64, ""),
                               LLVMBuildShl(L->b, r[1], cj_i64(L, 32), ""), "");
        }
        from[words - 1] = LLVMGetInsertBlock(L->b);
        LLVMBuildBr(L->b, join);
    }
    LLVMPositionBuilderAtEnd(L->b, join);
    LLVMValueRef phi = LLVMBuildPhi(L->b, i64, "bits");
    LLVMAddIncoming(phi, r, from, 2);
    return phi;
}

/* An int in [0, n) for an i64 n >= 1: CPython's _randbelow (and numba's randrange), k =
 * n.bit_length() bits drawn again until they are below n. */
static LLVMValueRef draw_below(cj_lower *L, LLVMValueRef st, LLVMValueRef n) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef ctlz = LLVMGetIntrinsicDeclaration(
        L->mod, LLVMLookupIntrinsicID("llvm.ctlz", 9), &i64, 1);
    LLVMValueRef args[2] = {n, LLVMConstNull(LLVMInt1TypeInContext(L->ctx))};
    LLVMValueRef zeros = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(ctlz)), ctlz, args,
                                        2, "");
    LLVMValueRef k = LLVMBuildSub(L->b, cj_i64(L, 64), zeros, "k");
    LLVMBasicBlockRef again = cj_new_bb(L, "below"), done = cj_new_bb(L, "below_done");
    LLVMBuildBr(L->b, again);
    LLVMPositionBuilderAtEnd(L->b, again);
    LLVMValueRef r = draw_bits(L, st, k);
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, r, n, ""), done, again);
    LLVMPositionBuilderAtEnd(L->b, done);
    return r;
}

static LLVMValueRef arg_as(cj_lower *L, const cj_call *call, int i, const cj_type *to) {
    return cj_cast(L, cj_load_var(L, call->args[i]), call->argtypes[i], to);
}

/* random.seed(n): abs(n) (an unsigned n as it is) seeds the state. */
static LLVMValueRef lower_seed(cj_lower *L, const cj_call *call) {
    LLVMValueRef v = arg_as(L, call, 0, cj_t_int64), mag = v;
    if (call->argtypes[0]->is_signed) {
        LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, v, cj_i64(L, 0), "");
        mag = LLVMBuildSelect(L->b, neg, LLVMBuildNeg(L->b, v, ""), v, "");
    }
    LLVMTypeRef params[2] = {i8p(L), LLVMInt64TypeInContext(L->ctx)};
    LLVMValueRef args[2] = {state_of(L), mag};
    call_rt(L, "cj_py_random_seed", LLVMVoidTypeInContext(L->ctx), params, args, 2);
    return cj_empty(L);
}

/* getrandbits(k): numba's OverflowError for k outside 1..64. */
static LLVMValueRef lower_getrandbits(cj_lower *L, const cj_call *call) {
    LLVMValueRef k = arg_as(L, call, 0, cj_t_int64);
    LLVMValueRef bad = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, k, cj_i64(L, 1), ""),
                                   LLVMBuildICmp(L->b, LLVMIntSGT, k, cj_i64(L, 64), ""), "");
    if (cj_emit_raise_text_if(L, bad, PyExc_OverflowError, "getrandbits() limited to 64 bits") < 0) {
        return NULL;
    }
    return draw_bits(L, state_of(L), k);
}

/* numba's count of randrange(start, stop, step) for a step known not to be 0 (ty's width,
 * wrapping, truncating division; a step of -1 negates, where the division could overflow). */
static LLVMValueRef stepped_count(cj_lower *L, LLVMValueRef n, LLVMValueRef step,
                                  LLVMTypeRef ty) {
    LLVMValueRef one = LLVMConstInt(ty, 1, 0), minus_one = LLVMConstAllOnes(ty);
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, step, LLVMConstInt(ty, 0, 0), "");
    LLVMValueRef w = LLVMBuildAdd(L->b, n, step, "");
    w = LLVMBuildSelect(L->b, neg, LLVMBuildAdd(L->b, w, one, ""), LLVMBuildSub(L->b, w, one, ""),
                        "");
    LLVMValueRef by_minus_one = LLVMBuildICmp(L->b, LLVMIntEQ, step, minus_one, "");
    LLVMValueRef divisor = LLVMBuildSelect(L->b, by_minus_one, one, step, "");
    LLVMValueRef q = LLVMBuildSDiv(L->b, w, divisor, "");
    cj_ub_proof(q, "divisor: the step, not 0 (ValueError above), and -1 replaced by 1");
    return LLVMBuildSelect(L->b, by_minus_one, LLVMBuildNeg(L->b, q, ""), q, "count");
}

/* randrange(start, stop[, step]) in the int type rt (step NULL: 1); NULL with an exception. */
static LLVMValueRef randrange(cj_lower *L, LLVMValueRef start, LLVMValueRef stop,
                              LLVMValueRef step, const cj_type *rt) {
    LLVMTypeRef ty = cj_llvm_type(L->ctx, rt), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef zero = LLVMConstInt(ty, 0, 0), n = LLVMBuildSub(L->b, stop, start, "");
    if (step != NULL) {
        if (cj_emit_raise_text_if(L, LLVMBuildICmp(L->b, LLVMIntEQ, step, zero, ""), PyExc_ValueError,
                     "zero step for randrange()") < 0) {
            return NULL;
        }
        n = stepped_count(L, n, step, ty);
    }
    if (cj_emit_raise_text_if(L, LLVMBuildICmp(L->b, LLVMIntSLE, n, zero, ""), PyExc_ValueError,
                 "empty range for randrange()") < 0) {
        return NULL;
    }
    LLVMValueRef r = draw_below(L, state_of(L), LLVMBuildSExt(L->b, n, i64, "")); /* n > 0 */
    r = LLVMBuildTrunc(L->b, r, ty, ""); /* below n: fits */
    return LLVMBuildAdd(L->b, start, step != NULL ? LLVMBuildMul(L->b, r, step, "") : r, "");
}

static LLVMValueRef lower_randrange(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *rt = in->rtype;
    if (call->builtin == CJ_B_PYR_RANDINT) { /* randrange(a, b + 1) */
        LLVMValueRef b = arg_as(L, call, 1, rt);
        return randrange(L, arg_as(L, call, 0, rt),
                         LLVMBuildAdd(L->b, b, LLVMConstInt(LLVMTypeOf(b), 1, 0), ""), NULL, rt);
    }
    if (call->args[1] < 0) { /* randrange(stop) */
        return randrange(L, LLVMConstNull(cj_llvm_type(L->ctx, rt)), arg_as(L, call, 0, rt), NULL,
                         rt);
    }
    return randrange(L, arg_as(L, call, 0, rt), arg_as(L, call, 1, rt),
                     call->args[2] >= 0 ? arg_as(L, call, 2, rt) : NULL, rt);
}

typedef struct shuffling {
    const cj_type *at;
    LLVMValueRef st, data, last, dims[2]; /* the state, x's bytes, len(x) - 1, shape/strides */
} shuffling;

/* One step of the walk from the last row down: i = last - step, j below i + 1, rows i and j
 * swapped (the run time swaps rows of rank >= 1). */
static void shuffle_step(cj_lower *L, LLVMValueRef step, void *ctx) {
    const shuffling *s = ctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef i = LLVMBuildSub(L->b, s->last, step, "");
    LLVMValueRef j = draw_below(L, s->st, LLVMBuildAdd(L->b, i, cj_i64(L, 1), ""));
    LLVMValueRef stride = LLVMBuildLoad2(L->b, i64, s->dims[1], "");
    LLVMValueRef oi = LLVMBuildMul(L->b, i, stride, ""), oj = LLVMBuildMul(L->b, j, stride, "");
    LLVMValueRef pi = LLVMBuildGEP2(L->b, i8, s->data, &oi, 1, "");
    LLVMValueRef pj = LLVMBuildGEP2(L->b, i8, s->data, &oj, 1, "");
    if (s->at->ndim > 1) {
        LLVMTypeRef i64p = LLVMPointerType(i64, 0), params[6] = {i64, i64p, i64p, i64, i8p(L),
                                                                 i8p(L)};
        LLVMValueRef one = cj_i64(L, 1);
        LLVMValueRef args[6] = {cj_i64(L, s->at->ndim - 1),
                                LLVMBuildGEP2(L->b, i64, s->dims[0], &one, 1, ""),
                                LLVMBuildGEP2(L->b, i64, s->dims[1], &one, 1, ""),
                                cj_i64(L, (long long)cj_abi_size(s->at->dtype)), pi, pj};
        call_rt(L, "cj_py_random_swap", LLVMVoidTypeInContext(L->ctx), params, args, 6);
        return;
    }
    LLVMTypeRef elem = cj_elem_type(L->ctx, s->at->dtype), elem_p = LLVMPointerType(elem, 0);
    pi = LLVMBuildBitCast(L->b, pi, elem_p, "");
    pj = LLVMBuildBitCast(L->b, pj, elem_p, "");
    LLVMValueRef xi = LLVMBuildLoad2(L->b, elem, pi, ""), xj = LLVMBuildLoad2(L->b, elem, pj, "");
    LLVMBuildStore(L->b, xj, pi);
    LLVMBuildStore(L->b, xi, pj);
}

/* shuffle(x): numba's walk over x's first axis (its shape and strides in stack arrays). */
static LLVMValueRef lower_shuffle(cj_lower *L, const cj_call *call) {
    const cj_type *at = call->argtypes[0];
    LLVMValueRef arr = cj_load_var(L, call->args[0]);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i64p = LLVMPointerType(i64, 0);
    LLVMTypeRef dims_t = LLVMArrayType(i64, (unsigned)at->ndim);
    shuffling s = {.at = at, .st = state_of(L), .data = cj_array_bytes(L, arr)};
    for (int k = 0; k < 2; k++) {
        LLVMValueRef dims = cj_entry_alloca(L, dims_t, k == 0 ? "shape" : "strides");
        for (int d = 0; d < at->ndim; d++) {
            LLVMValueRef idx[2] = {cj_i64(L, 0), cj_i64(L, d)};
            LLVMBuildStore(L->b, cj_array_dim(L, arr, k == 0 ? CJ_ARR_SHAPE : CJ_ARR_STRIDES, d),
                           LLVMBuildInBoundsGEP2(L->b, dims_t, dims, idx, 2, ""));
        }
        s.dims[k] = LLVMBuildBitCast(L->b, dims, i64p, "");
    }
    s.last = LLVMBuildSub(L->b, cj_array_dim(L, arr, CJ_ARR_SHAPE, 0), cj_i64(L, 1), "");
    cj_emit_for(L, s.last, shuffle_step, &s); /* i from len - 1 down to 1 */
    return cj_empty(L);
}

LLVMValueRef cj_lower_py_random(cj_lower *L, cj_instr *in, const cj_call *call) {
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(L->ctx), p = i8p(L);
    switch (call->builtin) {
    case CJ_B_PYR_SEED:
        return lower_seed(L, call);
    case CJ_B_PYR_RANDOM:
        return next_double(L, state_of(L));
    case CJ_B_PYR_UNIFORM: {
        LLVMValueRef a = arg_as(L, call, 0, cj_t_float64), b = arg_as(L, call, 1, cj_t_float64);
        LLVMValueRef width = LLVMBuildFSub(L->b, b, a, "");
        return LLVMBuildFAdd(L->b, a, LLVMBuildFMul(L->b, width, next_double(L, state_of(L)), ""),
                             "");
    }
    case CJ_B_PYR_GAUSS:
    case CJ_B_PYR_NORMALVARIATE: {
        LLVMValueRef mu = arg_as(L, call, 0, cj_t_float64);
        LLVMValueRef sigma = arg_as(L, call, 1, cj_t_float64), st = state_of(L);
        LLVMValueRef g = call_rt(L, "cj_py_random_gauss", f64, &p, &st, 1);
        return LLVMBuildFAdd(L->b, mu, LLVMBuildFMul(L->b, sigma, g, ""), "");
    }
    case CJ_B_PYR_EXPOVARIATE: {
        LLVMValueRef u = LLVMBuildFSub(L->b, f64c(L, 1.0), next_double(L, state_of(L)), "");
        LLVMValueRef x = LLVMBuildFNeg(L->b, cj_math1(L, "log", cj_t_float64, u), "");
        return cj_lower_binop(L, CJ_TRUEDIV, x, cj_t_float64, arg_as(L, call, 0, cj_t_float64),
                              cj_t_float64, cj_t_float64, cj_t_float64);
    }
    case CJ_B_PYR_GETRANDBITS:
        return lower_getrandbits(L, call);
    case CJ_B_PYR_RANDINT:
    case CJ_B_PYR_RANDRANGE:
        return lower_randrange(L, in, call);
    case CJ_B_PYR_SHUFFLE:
        return lower_shuffle(L, call);
    default:
        PyErr_SetString(cj_LoweringError, "random module function without its lowering");
        return NULL;
    }
}
