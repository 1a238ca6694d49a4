/* lower_array_linalg.c: np.dot, np.vdot and @ (typing/array_linalg.c) as calls of the BLAS
 * run time (abi/blas.c: cj_blas_gemm, cj_blas_dot, any strides): numba's ValueErrors when the
 * sizes do not match, a new C array for the result (or the given out, whose shape must be the
 * result's), a number for vector . vector. A matrix and a vector are a gemm with one column
 * (or row), so every shape takes one path. */
#include "lower/lower_internal.h"

typedef struct product {
    LLVMValueRef m, n, k;       /* result m x n, inner size k */
    LLVMValueRef as[2], bs[2];  /* byte strides of a as m x k, b as k x n */
    LLVMValueRef k_b;           /* b's inner size, to compare with k */
    int exc;                    /* the size error of this pair of ranks */
} product;

static int kind_of(const cj_type *dtype) {
    return (dtype->kind == CJ_COMPLEX ? 2 : 0) + (dtype->bits == (dtype->kind == CJ_COMPLEX
                                                                       ? 128 : 64));
}

/* a (rank ra) and b (rank rb) as an m x k and a k x n matrix. */
static product as_matrices(cj_lower *L, LLVMValueRef a, int ra, LLVMValueRef b, int rb,
                           LLVMValueRef item) {
    product p;
    LLVMValueRef one = cj_i64(L, 1);
    if (ra == 2) {
        p.m = cj_array_dim(L, a, CJ_ARR_SHAPE, 0);
        p.k = cj_array_dim(L, a, CJ_ARR_SHAPE, 1);
        p.as[0] = cj_array_dim(L, a, CJ_ARR_STRIDES, 0);
        p.as[1] = cj_array_dim(L, a, CJ_ARR_STRIDES, 1);
    } else { /* a row */
        p.m = one;
        p.k = cj_array_dim(L, a, CJ_ARR_SHAPE, 0);
        p.as[0] = LLVMBuildMul(L->b, p.k, item, "");
        p.as[1] = cj_array_dim(L, a, CJ_ARR_STRIDES, 0);
    }
    p.k_b = cj_array_dim(L, b, CJ_ARR_SHAPE, 0);
    p.bs[0] = cj_array_dim(L, b, CJ_ARR_STRIDES, 0);
    p.n = rb == 2 ? cj_array_dim(L, b, CJ_ARR_SHAPE, 1) : one; /* b a column */
    p.bs[1] = rb == 2 ? cj_array_dim(L, b, CJ_ARR_STRIDES, 1) : item;
    p.exc = ra == 2 ? (rb == 2 ? CJ_EXC_DOT_MM : CJ_EXC_DOT_MV)
                    : (rb == 2 ? CJ_EXC_DOT_VM : CJ_EXC_DOT_VV);
    return p;
}

static LLVMTypeRef i8p(cj_lower *L) {
    return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
}

/* if (status != 0) raise MemoryError (the run time could not copy an operand), dropping the
 * new result array `made` first (NULL: none). */
static void check_copied(cj_lower *L, LLVMValueRef status, LLVMValueRef made,
                         const cj_type *rt) {
    LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntNE, status,
                                     LLVMConstNull(LLVMTypeOf(status)), "");
    LLVMBasicBlockRef fail = cj_new_bb(L, "blas_failed"), ok = cj_new_bb(L, "blas_ok");
    LLVMBuildCondBr(L->b, bad, fail, ok);
    LLVMPositionBuilderAtEnd(L->b, fail);
    if (made != NULL) {
        cj_decref(L, made, rt);
    }
    cj_emit_raise(L, CJ_EXC_MEMORY);
    LLVMBuildBr(L->b, ok); /* from the unreachable block cj_emit_raise leaves */
    LLVMPositionBuilderAtEnd(L->b, ok);
}

static LLVMValueRef vector_dot(cj_lower *L, const product *p, int kind, int conj,
                               LLVMValueRef a, LLVMValueRef b, const cj_type *dtype) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef params[8] = {i32, i32, i64, i8p(L), i64, i8p(L), i64, i8p(L)};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_blas_dot", i32, params, 8);
    LLVMValueRef slot = cj_entry_alloca(L, cj_llvm_type(L->ctx, dtype), "dot");
    LLVMValueRef args[8] = {LLVMConstInt(i32, (unsigned)kind, 0),
                            LLVMConstInt(i32, (unsigned)conj, 0), p->k, cj_array_bytes(L, a),
                            p->as[1], cj_array_bytes(L, b), p->bs[0],
                            LLVMBuildBitCast(L->b, slot, i8p(L), "")};
    check_copied(L, LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 8, ""),
                 NULL, NULL);
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, dtype), slot, "");
}

/* The result array: out (its shape checked) or a new one. */
static LLVMValueRef result_array(cj_lower *L, const cj_type *rt, const product *p, int ra,
                                 int rb, int out_var) {
    LLVMValueRef shape[2];
    int rank = 0;
    if (ra == 2) {
        shape[rank++] = p->m;
    }
    if (rb == 2) {
        shape[rank++] = p->n;
    }
    if (out_var < 0) {
        return cj_new_array(L, rt, shape, 0);
    }
    LLVMValueRef out = cj_load_var(L, out_var);
    LLVMValueRef bad = LLVMConstNull(LLVMInt1TypeInContext(L->ctx));
    for (int d = 0; d < rank; d++) {
        LLVMValueRef differ = LLVMBuildICmp(L->b, LLVMIntNE, shape[d],
                                            cj_array_dim(L, out, CJ_ARR_SHAPE, d), "");
        bad = LLVMBuildOr(L->b, bad, differ, "");
    }
    cj_emit_raise_if(L, bad, CJ_EXC_DOT_OUT);
    return out;
}

LLVMValueRef cj_lower_dot(cj_lower *L, cj_instr *in, int a_var, int b_var, int out_var,
                          int conj, int *fresh) {
    const cj_type *at = CJ_VAR(L->ir, a_var)->type, *bt = CJ_VAR(L->ir, b_var)->type;
    LLVMValueRef a = cj_load_var(L, a_var), b = cj_load_var(L, b_var);
    int kind = kind_of(at->dtype);
    LLVMValueRef item = cj_i64(L, (long long)cj_abi_size(at->dtype));
    product p = as_matrices(L, a, at->ndim, b, bt->ndim, item);
    cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, p.k, p.k_b, ""), p.exc);
    *fresh = 0;
    if (at->ndim == 1 && bt->ndim == 1) {
        return vector_dot(L, &p, kind, conj, a, b, at->dtype);
    }
    LLVMValueRef out = result_array(L, in->rtype, &p, at->ndim, bt->ndim, out_var);
    *fresh = out_var < 0;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef params[11] = {i32, i64, i64, i64, i8p(L), i64, i64, i8p(L), i64, i64, i8p(L)};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_blas_gemm", i32, params, 11);
    LLVMValueRef args[11] = {LLVMConstInt(i32, (unsigned)kind, 0), p.m, p.n, p.k,
                             cj_array_bytes(L, a), p.as[0], p.as[1], cj_array_bytes(L, b),
                             p.bs[0], p.bs[1], cj_array_bytes(L, out)};
    LLVMValueRef status = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 11,
                                         "");
    check_copied(L, status, *fresh ? out : NULL, in->rtype);
    return out;
}
