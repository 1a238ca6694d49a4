/* lower_cuda_atomic.c: cuda.atomic.* as NVVM IR, with numba-cuda's semantics. Integer ops are
 * atomicrmw/cmpxchg (monotonic, as numba-cuda); float32/float64 adds are
 * llvm.nvvm.atomic.load.add (sub adds the negation); float16 adds are PTX atom.add.noftz.f16
 * (sm_70+). Where PTX has no instruction (float max/min/nanmax/nanmin, inc/dec) a
 * compare-and-swap loop computes the new value from the old: 16-bit ones through PTX
 * atom.cas.b16 (sm_70+), as NVVM IR has no 16-bit cmpxchg. NaN rules (numba-cuda's): max/min
 * leave the element alone when either value is NaN; nanmax/nanmin ignore a NaN value and
 * replace a NaN element. Every op returns the element's old value. */
#include "lower/lower_internal.h"

#include <string.h>

#include "typing/cuda_intrinsics.h"

static const cj_type *vt(cj_lower *L, int var) { return CJ_VAR(L->ir, var)->type; }

static LLVMValueRef arg_as(cj_lower *L, const cj_call *call, int i, const cj_type *to) {
    return cj_cast(L, cj_load_var(L, call->args[i]), vt(L, call->args[i]), to);
}

static LLVMTypeRef int_type(cj_lower *L, const cj_type *t) {
    return LLVMIntTypeInContext(L->ctx, (unsigned)t->bits);
}

/* &ary[idx] (negative indices wrap, as getitem). */
static LLVMValueRef elem_ptr(cj_lower *L, LLVMValueRef arr, const cj_type *at, LLVMValueRef idx,
                             const cj_type *it) {
    LLVMValueRef offset = cj_i64(L, 0);
    for (int d = 0; d < at->ndim; d++) {
        LLVMValueRef i = idx;
        const cj_type *t = it;
        if (it->kind == CJ_TUPLE) {
            i = LLVMBuildExtractValue(L->b, idx, (unsigned)d, "");
            t = it->items[d];
        }
        i = cj_cast(L, i, t, cj_t_int64);
        LLVMValueRef dim = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, i, cj_i64(L, 0), "");
        i = LLVMBuildSelect(L->b, neg, LLVMBuildAdd(L->b, i, dim, ""), i, "");
        if (L->env->boundscheck) {
            cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntUGE, i, dim, ""), CJ_EXC_INDEX);
        }
        LLVMValueRef stride = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
        offset = LLVMBuildAdd(L->b, offset, LLVMBuildMul(L->b, i, stride, ""), "");
    }
    LLVMValueRef data = LLVMBuildExtractValue(L->b, arr, CJ_ARR_DATA, "");
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef raw = LLVMBuildBitCast(L->b, data, LLVMPointerType(i8, 0), "");
    LLVMValueRef p = LLVMBuildGEP2(L->b, i8, raw, &offset, 1, "");
    return LLVMBuildBitCast(L->b, p, LLVMTypeOf(data), "");
}

static LLVMValueRef rmw(cj_lower *L, LLVMAtomicRMWBinOp op, LLVMValueRef p, LLVMValueRef v) {
    return LLVMBuildAtomicRMW(L->b, op, p, v, LLVMAtomicOrderingMonotonic, 0);
}

/* The value *ip held before the swap (the swap happened when that equals `old`). */
static LLVMValueRef cmpxchg(cj_lower *L, LLVMValueRef ip, LLVMValueRef old, LLVMValueRef newv) {
    if (LLVMGetIntTypeWidth(LLVMTypeOf(old)) == 16) {
        LLVMValueRef ops[3] = {LLVMBuildPtrToInt(L->b, ip, LLVMInt64TypeInContext(L->ctx), ""),
                               old, newv};
        return cj_ptx_asm(L, "atom.cas.b16 $0, [$1], $2, $3;", "=h,l,h,h,~{memory}",
                          LLVMTypeOf(old), ops, 3);
    }
    LLVMValueRef pair = LLVMBuildAtomicCmpXchg(L->b, ip, old, newv, LLVMAtomicOrderingMonotonic,
                                               LLVMAtomicOrderingMonotonic, 0);
    return LLVMBuildExtractValue(L->b, pair, 0, "");
}

typedef LLVMValueRef (*cas_update)(cj_lower *L, LLVMValueRef old, LLVMValueRef v);

/* old = *p; do { new = f(old, v) } while (!cas(p, old, new)); returns old (in type t). */
static LLVMValueRef cas_loop(cj_lower *L, LLVMValueRef p, LLVMValueRef v, const cj_type *t,
                             cas_update f) {
    LLVMBuilderRef B = L->b;
    LLVMTypeRef it = int_type(L, t);
    LLVMTypeRef lt = cj_llvm_type(L->ctx, t);
    LLVMValueRef ip = LLVMBuildBitCast(B, p, LLVMPointerType(it, 0), "");
    LLVMValueRef first = LLVMBuildLoad2(B, it, ip, "");
    LLVMSetVolatile(first, 1);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef loop = cj_new_bb(L, "cas_loop"), done = cj_new_bb(L, "cas_done");
    LLVMBuildBr(B, loop);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef old = LLVMBuildPhi(B, it, "old");
    LLVMValueRef oldv = t->kind == CJ_FLOAT ? LLVMBuildBitCast(B, old, lt, "") : old;
    LLVMValueRef newv = f(L, oldv, v);
    LLVMValueRef newi = t->kind == CJ_FLOAT ? LLVMBuildBitCast(B, newv, it, "") : newv;
    LLVMValueRef seen = cmpxchg(L, ip, old, newi);
    LLVMBasicBlockRef from[2] = {pre, LLVMGetInsertBlock(B)};
    LLVMValueRef vals[2] = {first, seen};
    LLVMAddIncoming(old, vals, from, 2);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, seen, old, ""), done, loop);
    LLVMPositionBuilderAtEnd(B, done);
    return oldv == old ? old : LLVMBuildBitCast(B, old, lt, "");
}

/* max/min: v when it compares greater (less); a NaN on either side compares false. */
static LLVMValueRef upd_fmax(cj_lower *L, LLVMValueRef old, LLVMValueRef v) {
    return LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOGT, v, old, ""), v, old, "");
}
static LLVMValueRef upd_fmin(cj_lower *L, LLVMValueRef old, LLVMValueRef v) {
    return LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOLT, v, old, ""), v, old, "");
}
/* nanmax/nanmin: a NaN value is ignored, a NaN element replaced ('unordered or greater') */
static LLVMValueRef upd_nan(cj_lower *L, LLVMValueRef old, LLVMValueRef v, LLVMRealPredicate p) {
    LLVMValueRef v_ok = LLVMBuildFCmp(L->b, LLVMRealORD, v, v, "");
    LLVMValueRef better = LLVMBuildFCmp(L->b, p, v, old, "");
    return LLVMBuildSelect(L->b, LLVMBuildAnd(L->b, v_ok, better, ""), v, old, "");
}
static LLVMValueRef upd_nanmax(cj_lower *L, LLVMValueRef old, LLVMValueRef v) {
    return upd_nan(L, old, v, LLVMRealUGT);
}
static LLVMValueRef upd_nanmin(cj_lower *L, LLVMValueRef old, LLVMValueRef v) {
    return upd_nan(L, old, v, LLVMRealULT);
}
/* inc: old >= v ? 0 : old + 1; dec: (old == 0 || old > v) ? v : old - 1 (unsigned) */
static LLVMValueRef upd_inc(cj_lower *L, LLVMValueRef old, LLVMValueRef v) {
    LLVMValueRef wrap = LLVMBuildICmp(L->b, LLVMIntUGE, old, v, "");
    LLVMValueRef next = LLVMBuildAdd(L->b, old, LLVMConstInt(LLVMTypeOf(old), 1, 0), "");
    return LLVMBuildSelect(L->b, wrap, LLVMConstNull(LLVMTypeOf(old)), next, "");
}
static LLVMValueRef upd_dec(cj_lower *L, LLVMValueRef old, LLVMValueRef v) {
    LLVMValueRef wrap = LLVMBuildOr(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, old,
                                                        LLVMConstNull(LLVMTypeOf(old)), ""),
                                    LLVMBuildICmp(L->b, LLVMIntUGT, old, v, ""), "");
    LLVMValueRef next = LLVMBuildSub(L->b, old, LLVMConstInt(LLVMTypeOf(old), 1, 0), "");
    return LLVMBuildSelect(L->b, wrap, v, next, "");
}

static LLVMValueRef float_add(cj_lower *L, LLVMValueRef p, LLVMValueRef v, const cj_type *t) {
    LLVMValueRef args[2] = {p, v};
    if (t->bits == 16) {
        LLVMTypeRef i16 = LLVMInt16TypeInContext(L->ctx);
        LLVMValueRef ops[2] = {LLVMBuildPtrToInt(L->b, p, LLVMInt64TypeInContext(L->ctx), ""),
                               LLVMBuildBitCast(L->b, v, i16, "")};
        LLVMValueRef old = cj_ptx_asm(L, "atom.add.noftz.f16 $0, [$1], $2;",
                                      "=h,l,h,~{memory}", i16, ops, 2);
        return LLVMBuildBitCast(L->b, old, LLVMTypeOf(v), "");
    }
    const char *name = t->bits == 32 ? "llvm.nvvm.atomic.load.add.f32.p0f32"
                                     : "llvm.nvvm.atomic.load.add.f64.p0f64";
    LLVMTypeRef params[2] = {LLVMTypeOf(p), LLVMTypeOf(v)};
    LLVMTypeRef ft = LLVMFunctionType(LLVMTypeOf(v), params, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (fn == NULL) {
        fn = LLVMAddFunction(L->mod, name, ft);
    }
    return LLVMBuildCall2(L->b, ft, fn, args, 2, "");
}

static LLVMValueRef exchange(cj_lower *L, LLVMValueRef p, LLVMValueRef v, const cj_type *t) {
    if (t->kind != CJ_FLOAT) {
        return rmw(L, LLVMAtomicRMWBinOpXchg, p, v);
    }
    LLVMTypeRef it = int_type(L, t);
    LLVMValueRef ip = LLVMBuildBitCast(L->b, p, LLVMPointerType(it, 0), "");
    LLVMValueRef old = rmw(L, LLVMAtomicRMWBinOpXchg, ip, LLVMBuildBitCast(L->b, v, it, ""));
    return LLVMBuildBitCast(L->b, old, LLVMTypeOf(v), "");
}

static LLVMValueRef max_min(cj_lower *L, int id, LLVMValueRef p, LLVMValueRef v,
                            const cj_type *t) {
    int is_max = id == CJ_CU_ATOMIC_MAX || id == CJ_CU_ATOMIC_NANMAX;
    if (t->kind == CJ_FLOAT) {
        static const cas_update f[4] = {upd_fmax, upd_fmin, upd_nanmax, upd_nanmin};
        int nan = id == CJ_CU_ATOMIC_NANMAX || id == CJ_CU_ATOMIC_NANMIN;
        return cas_loop(L, p, v, t, f[nan * 2 + !is_max]);
    }
    LLVMAtomicRMWBinOp op = t->is_signed ? (is_max ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpMin)
                                         : (is_max ? LLVMAtomicRMWBinOpUMax
                                                   : LLVMAtomicRMWBinOpUMin);
    return rmw(L, op, p, v);
}

LLVMValueRef cj_cuda_lower_atomic(cj_lower *L, const cj_call *call, int id) {
    const cj_type *at = vt(L, call->args[0]);
    const cj_type *t = at->dtype;
    LLVMValueRef arr = cj_load_var(L, call->args[0]);
    int vi = id == CJ_CU_ATOMIC_CAS2 ? 1 : 2; /* compare_and_swap(ary, old, val): ary[0] */
    LLVMValueRef p = vi == 1 ? elem_ptr(L, arr, at, cj_i64(L, 0), cj_t_int64)
                             : elem_ptr(L, arr, at, cj_load_var(L, call->args[1]),
                                        vt(L, call->args[1]));
    if (t->bits == 16 && L->env->cc > 0 && L->env->cc < 70) { /* atom.*.f16/b16: sm_70+ */
        PyErr_Format(cj_UnsupportedError, "cuda.%s on float16 needs compute capability 7.0 "
                     "or later (compiling for %d.%d)", cj_cuda_intrinsic_names[id],
                     L->env->cc / 10, L->env->cc % 10);
        return NULL;
    }
    LLVMValueRef v = arg_as(L, call, vi, t);
    if (v == NULL) {
        return NULL;
    }
    int fl = t->kind == CJ_FLOAT;
    switch (id) {
    case CJ_CU_ATOMIC_ADD:
        return fl ? float_add(L, p, v, t) : rmw(L, LLVMAtomicRMWBinOpAdd, p, v);
    case CJ_CU_ATOMIC_SUB:
        return fl ? float_add(L, p, LLVMBuildFNeg(L->b, v, ""), t)
                  : rmw(L, LLVMAtomicRMWBinOpSub, p, v);
    case CJ_CU_ATOMIC_AND:
        return rmw(L, LLVMAtomicRMWBinOpAnd, p, v);
    case CJ_CU_ATOMIC_OR:
        return rmw(L, LLVMAtomicRMWBinOpOr, p, v);
    case CJ_CU_ATOMIC_XOR:
        return rmw(L, LLVMAtomicRMWBinOpXor, p, v);
    case CJ_CU_ATOMIC_MAX:
    case CJ_CU_ATOMIC_MIN:
    case CJ_CU_ATOMIC_NANMAX:
    case CJ_CU_ATOMIC_NANMIN:
        return max_min(L, id, p, v, t);
    case CJ_CU_ATOMIC_EXCH:
        return exchange(L, p, v, t);
    case CJ_CU_ATOMIC_INC:
        return cas_loop(L, p, v, t, upd_inc);
    case CJ_CU_ATOMIC_DEC:
        return cas_loop(L, p, v, t, upd_dec);
    default: { /* cas(ary, idx, old, val), compare_and_swap(ary, old, val) */
        LLVMValueRef newv = arg_as(L, call, vi + 1, t);
        return newv ? cmpxchg(L, p, v, newv) : NULL;
    }
    }
}
