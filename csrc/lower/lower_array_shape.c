/* lower_array_shape.c: a.reshape (numba's rule for the new shape: one negative value is
 * inferred, the size must be unchanged) and a.ravel() of a C-contiguous array: a view with C
 * strides; a.flatten() (and ravel of any other array): a C-ordered copy seen as 1-d;
 * a.view(dtype): the same memory as another dtype, NumPy's checks and last-axis rule when the
 * item size changes; a.item(): the one element (ValueError otherwise); a.conj(): a new array
 * of the same shape (F-ordered for an F array); a.real / a.imag: strided views of a complex
 * array's parts, the array itself and read-only zeros for real arrays. Views share the
 * receiver's data, parent and allocation (typing/array_shape.c). */
#include "lower/lower_internal.h"

/* The requested dimensions: one tuple argument, or one int argument each. */
static int requested(cj_lower *L, const cj_call *call, int first, LLVMValueRef *dims) {
    const cj_type *t = call->argtypes[first];
    LLVMValueRef v = cj_load_var(L, call->args[first]);
    if (t->kind == CJ_TUPLE) {
        for (int d = 0; d < t->n; d++) {
            dims[d] = cj_cast(L, LLVMBuildExtractValue(L->b, v, (unsigned)d, ""), t->items[d],
                              cj_t_int64);
        }
        return t->n;
    }
    int n = call->nargs - first;
    for (int d = 0; d < n; d++) {
        dims[d] = cj_cast(L, cj_load_var(L, call->args[first + d]), call->argtypes[first + d],
                          cj_t_int64);
    }
    return n;
}

/* C strides of `shape` (a 0 counts as 1, as cj_new_array's). */
static void c_strides(cj_lower *L, int ndim, LLVMValueRef *shape, long long item,
                      LLVMValueRef *strides) {
    LLVMValueRef stride = cj_i64(L, item);
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = stride;
        LLVMValueRef zero = LLVMBuildICmp(L->b, LLVMIntEQ, shape[d], cj_i64(L, 0), "");
        stride = LLVMBuildMul(L->b, stride, LLVMBuildSelect(L->b, zero, cj_i64(L, 1), shape[d], ""),
                              "");
    }
}

/* numba's normalize_reshape_value: dims with one negative value inferred from `size`. */
static void normalize(cj_lower *L, int n, LLVMValueRef *dims, LLVMValueRef size) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef negatives = cj_i64(L, 0), known = cj_i64(L, 1), zero = cj_i64(L, 0);
    LLVMValueRef neg[CJ_MAXDIM];
    for (int d = 0; d < n; d++) {
        neg[d] = LLVMBuildICmp(B, LLVMIntSLT, dims[d], zero, "");
        negatives = LLVMBuildAdd(B, negatives, LLVMBuildZExt(B, neg[d], LLVMTypeOf(zero), ""), "");
        known = LLVMBuildMul(B, known, LLVMBuildSelect(B, neg[d], cj_i64(L, 1), dims[d], ""), "");
    }
    cj_emit_raise_if(L, LLVMBuildICmp(B, LLVMIntUGT, negatives, cj_i64(L, 1), ""),
                     CJ_EXC_RESHAPE_NEG);
    LLVMValueRef none = LLVMBuildICmp(B, LLVMIntEQ, negatives, zero, "");
    LLVMValueRef known0 = LLVMBuildICmp(B, LLVMIntEQ, known, zero, "");
    LLVMValueRef divisor = LLVMBuildSelect(B, known0, cj_i64(L, 1), known, "");
    LLVMValueRef quot = LLVMBuildSDiv(B, size, divisor, "");
    LLVMValueRef rem = LLVMBuildSRem(B, size, divisor, "");
    cj_ub_proof(quot, "divisor: known, 1 where it is 0; the size is >= 0: no INT64_MIN / -1");
    cj_ub_proof(rem, "divisor: known, 1 where it is 0; the size is >= 0: no INT64_MIN % -1");
    LLVMValueRef inferred = LLVMBuildSelect(B, known0, zero, quot, "inferred");
    LLVMValueRef ok_one = LLVMBuildSelect(B, known0, LLVMBuildICmp(B, LLVMIntEQ, size, zero, ""),
                                          LLVMBuildICmp(B, LLVMIntEQ, rem, zero, ""), "");
    LLVMValueRef ok = LLVMBuildSelect(B, none, LLVMBuildICmp(B, LLVMIntEQ, size, known, ""),
                                      ok_one, "");
    cj_emit_raise_if(L, LLVMBuildNot(B, ok, ""), CJ_EXC_RESHAPE_SIZE);
    for (int d = 0; d < n; d++) {
        dims[d] = LLVMBuildSelect(B, neg[d], inferred, dims[d], "");
    }
}

/* A C-contiguous view of the C-contiguous `arr` with `n` dimensions `dims`. */
static LLVMValueRef c_view(cj_lower *L, LLVMValueRef arr, const cj_type *rt, int n,
                           LLVMValueRef *dims) {
    LLVMValueRef strides[CJ_MAXDIM];
    c_strides(L, n, dims, (long long)cj_abi_size(rt->dtype), strides);
    return cj_array_view(L, arr, cj_i64(L, 0), n, dims, strides, rt);
}

/* Prefix products of `n` dimensions. */
static void prefix_products(cj_lower *L, int n, LLVMValueRef *dims, LLVMValueRef *p) {
    LLVMValueRef acc = cj_i64(L, 1);
    for (int d = 0; d < n; d++) {
        p[d] = acc = LLVMBuildMul(L->b, acc, dims[d], "");
    }
}

/* NumPy's _attempt_nocopy_reshape (C order) of the non-empty `arr` to `n` dims `dims`:
 * dimensions end groups where the prefix products of the old and the new shape meet; old
 * dimensions merged in one group must be C-contiguous among themselves (else numba's
 * NotImplementedError); a new dimension's stride is its group's last old stride times the
 * product of the new dimensions after it in the group. Strides of length-1 dimensions may
 * differ from NumPy's. */
static void nocopy_strides(cj_lower *L, LLVMValueRef arr, const cj_type *at, int n,
                           LLVMValueRef *dims, LLVMValueRef *strides) {
    LLVMBuilderRef B = L->b;
    int m = at->ndim;
    LLVMValueRef od[CJ_MAXDIM], os[CJ_MAXDIM], po[CJ_MAXDIM], pn[CJ_MAXDIM], ends[CJ_MAXDIM];
    for (int j = 0; j < m; j++) {
        od[j] = cj_array_dim(L, arr, CJ_ARR_SHAPE, j);
        os[j] = cj_array_dim(L, arr, CJ_ARR_STRIDES, j);
    }
    prefix_products(L, m, od, po);
    prefix_products(L, n, dims, pn);
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
    LLVMValueRef next_dim = cj_i64(L, 1), next_stride = cj_i64(L, 0); /* nearest non-1 after j */
    for (int j = m - 1; j >= 0; j--) {
        LLVMValueRef real = LLVMBuildICmp(B, LLVMIntNE, od[j], cj_i64(L, 1), "");
        LLVMValueRef meets = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
        for (int i = 0; i < n; i++) {
            meets = LLVMBuildOr(B, meets, LLVMBuildICmp(B, LLVMIntEQ, po[j], pn[i], ""), "");
        }
        ends[j] = LLVMBuildAnd(B, real, meets, "group_end");
        LLVMValueRef merged = LLVMBuildICmp(B, LLVMIntNE, os[j],
                                            LLVMBuildMul(B, next_dim, next_stride, ""), "");
        bad = LLVMBuildOr(B, bad, LLVMBuildAnd(B, LLVMBuildAnd(B, real, LLVMBuildNot(B, meets, ""),
                                                               ""), merged, ""), "");
        next_dim = LLVMBuildSelect(B, real, od[j], next_dim, "");
        next_stride = LLVMBuildSelect(B, real, os[j], next_stride, "");
    }
    cj_emit_raise_if(L, bad, CJ_EXC_RESHAPE_COPY);
    for (int i = 0; i < n; i++) { /* the first group end at or past new dimension i */
        LLVMValueRef end_p = cj_i64(L, 1), end_s = cj_i64(L, 0);
        for (int j = m - 1; j >= 0; j--) {
            LLVMValueRef pick = LLVMBuildAnd(B, ends[j], LLVMBuildICmp(B, LLVMIntSGE, po[j], pn[i],
                                                                      ""), "");
            end_p = LLVMBuildSelect(B, pick, po[j], end_p, "");
            end_s = LLVMBuildSelect(B, pick, os[j], end_s, "");
        }
        LLVMValueRef q = LLVMBuildSDiv(B, end_p, pn[i], "");
        cj_ub_proof(q, "divisor: a prefix product of a non-empty shape, >= 1");
        strides[i] = LLVMBuildMul(B, end_s, q, "");
    }
}

static LLVMValueRef reshape(cj_lower *L, LLVMValueRef arr, const cj_type *at,
                            const cj_type *rt, const cj_call *call, int first) {
    LLVMValueRef dims[CJ_MAXDIM], strides[CJ_MAXDIM];
    int n = requested(L, call, first, dims);
    LLVMValueRef size = cj_array_size(L, arr, at);
    normalize(L, n, dims, size);
    if (rt->layout == 'C') {
        return c_view(L, arr, rt, n, dims);
    }
    /* an F array: C strides when it has at most one element, else NumPy's no-copy rule */
    LLVMBasicBlockRef before = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef general = cj_new_bb(L, "reshape_nocopy"), done = cj_new_bb(L, "reshape_done");
    c_strides(L, n, dims, (long long)cj_abi_size(rt->dtype), strides);
    LLVMValueRef c_st[CJ_MAXDIM];
    for (int i = 0; i < n; i++) {
        c_st[i] = strides[i];
    }
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLE, size, cj_i64(L, 1), ""), done, general);
    LLVMPositionBuilderAtEnd(L->b, general);
    nocopy_strides(L, arr, at, n, dims, strides);
    LLVMBasicBlockRef general_end = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    for (int i = 0; i < n; i++) {
        LLVMValueRef phi = LLVMBuildPhi(L->b, LLVMInt64TypeInContext(L->ctx), "stride");
        LLVMValueRef vals[2] = {c_st[i], strides[i]};
        LLVMBasicBlockRef from[2] = {before, general_end};
        LLVMAddIncoming(phi, vals, from, 2);
        strides[i] = phi;
    }
    return cj_array_view(L, arr, cj_i64(L, 0), n, dims, strides, rt);
}

/* ---- view(dtype) ---- */

static LLVMValueRef view_as(cj_lower *L, LLVMValueRef arr, const cj_type *at, const cj_type *rt) {
    LLVMBuilderRef B = L->b;
    long long from = (long long)cj_abi_size(at->dtype), to = (long long)cj_abi_size(rt->dtype);
    LLVMValueRef shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    for (int d = 0; d < at->ndim; d++) {
        shape[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        strides[d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
    }
    int last = at->ndim - 1;
    if (from != to && last < 0) {
        cj_emit_raise(L, CJ_EXC_VIEW_0D);
    } else if (from != to) {
        LLVMValueRef size = cj_array_size(L, arr, at);
        LLVMValueRef strided = LLVMBuildAnd(
            B, LLVMBuildICmp(B, LLVMIntNE, shape[last], cj_i64(L, 1), ""),
            LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, size, cj_i64(L, 0), ""),
                         LLVMBuildICmp(B, LLVMIntNE, strides[last], cj_i64(L, from), ""), ""),
            "");
        cj_emit_raise_if(L, strided, CJ_EXC_VIEW_AXIS);
        /* item sizes are powers of two: a smaller one always divides the larger */
        LLVMValueRef bytes = LLVMBuildMul(B, shape[last], cj_i64(L, from), "");
        if (to > from) {
            LLVMValueRef rem = LLVMBuildSRem(B, bytes, cj_i64(L, to), "");
            cj_emit_raise_if(L, LLVMBuildICmp(B, LLVMIntNE, rem, cj_i64(L, 0), ""),
                             CJ_EXC_VIEW_LARGER);
        }
        shape[last] = LLVMBuildSDiv(B, bytes, cj_i64(L, to), "");
        strides[last] = cj_i64(L, to);
    }
    return cj_array_view(L, arr, cj_i64(L, 0), at->ndim, shape, strides, rt);
}

/* ---- conj ---- */

typedef struct conj_ctx {
    const cj_type *from, *to;
} conj_ctx;

/* The conjugate of element `ptr` (of c->from) in c->to (bool: int8, as numba's ufunc). */
static LLVMValueRef conj_value(cj_lower *L, LLVMValueRef ptr, const conj_ctx *c) {
    LLVMValueRef v = cj_load_element(L, ptr, c->from);
    if (c->from->kind == CJ_COMPLEX) {
        LLVMValueRef im, re = cj_complex_parts(L, v, &im);
        v = cj_make_complex(L, c->from, re, LLVMBuildFNeg(L->b, im, ""));
    }
    return cj_cast(L, v, c->from, c->to);
}

static void conj_element(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const conj_ctx *c = ctx;
    LLVMTypeRef elem = cj_elem_type(L->ctx, c->to);
    LLVMBuildStore(L->b, conj_value(L, ptrs[0], c),
                   LLVMBuildBitCast(L->b, ptrs[1], LLVMPointerType(elem, 0), ""));
}

static LLVMValueRef conjugate(cj_lower *L, LLVMValueRef arr, const cj_type *at, const cj_type *rt) {
    conj_ctx c = {.from = at->dtype, .to = rt->kind == CJ_ARRAY ? rt->dtype : rt};
    if (rt->kind != CJ_ARRAY) { /* a 0-d array: a number */
        return conj_value(L, cj_array_bytes(L, arr), &c);
    }
    LLVMValueRef shape[CJ_MAXDIM];
    for (int d = 0; d < at->ndim; d++) {
        shape[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
    }
    LLVMValueRef out = cj_new_array_as(L, rt, shape, 0);
    cj_loop_nest n = {.ndim = at->ndim, .nptrs = 2, .fn = conj_element, .ctx = &c,
                      .versioned = 1,
                      .elem_size = {(int)cj_abi_size(c.from), (int)cj_abi_size(c.to)}};
    for (int d = 0; d < at->ndim; d++) {
        n.shape[d] = shape[d];
        n.strides[0][d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
        n.strides[1][d] = cj_array_dim(L, out, CJ_ARR_STRIDES, d);
    }
    LLVMValueRef bases[2] = {cj_array_bytes(L, arr), cj_array_bytes(L, out)};
    cj_emit_loop_nest(L, &n, bases);
    return out;
}

LLVMValueRef cj_array_part(cj_lower *L, LLVMValueRef arr, const cj_type *at, int imag,
                           const cj_type *rt, int *fresh) {
    LLVMValueRef shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    *fresh = 0;
    for (int d = 0; d < at->ndim; d++) {
        shape[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        strides[d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
    }
    if (at->dtype->kind == CJ_COMPLEX) { /* the parts: the same strides, the float's offset */
        long long part = imag ? (long long)cj_abi_size(rt->dtype) : 0;
        return cj_array_view(L, arr, cj_i64(L, part), at->ndim, shape, strides, rt);
    }
    if (!imag) {
        return arr;
    }
    *fresh = 1;
    return cj_new_array_as(L, rt, shape, 1);
}

LLVMValueRef cj_lower_array_shape(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                  cj_instr *in, const cj_call *call, int first_arg) {
    const cj_type *rt = in->rtype;
    switch (id) {
    case CJ_B_NP_RESHAPE:
        return reshape(L, arr, at, rt, call, first_arg);
    case CJ_B_NP_RAVEL: { /* C-contiguous: a view */
        LLVMValueRef n = cj_array_size(L, arr, at);
        return c_view(L, arr, rt, 1, &n);
    }
    case CJ_B_METH_FLATTEN: {
        const cj_type *ct = cj_type_array(at->dtype, at->ndim, 'C', 0);
        if (ct == NULL) {
            return NULL;
        }
        LLVMValueRef n = cj_array_size(L, arr, at); /* the copy's one reference goes on */
        return c_view(L, cj_array_copy(L, arr, at, ct), rt, 1, &n);
    }
    case CJ_B_METH_VIEW:
        return view_as(L, arr, at, rt);
    case CJ_B_METH_ITEM: {
        cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, cj_array_size(L, arr, at),
                                          cj_i64(L, 1), ""), CJ_EXC_ITEM_SIZE);
        return cj_load_element(L, cj_array_bytes(L, arr), at->dtype);
    }
    default:
        return conjugate(L, arr, at, rt);
    }
}
