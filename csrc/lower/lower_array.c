/* lower_array.c: arrays as {T* data, i8* parent, [n x i64] shape, [n x i64] strides}.
 * Integer indices wrap when negative (as numba; no bounds check unless boundscheck),
 * slices follow Python's slice.indices(), None adds an axis of length 1 (stride 0), and
 * indexing that leaves dimensions gives a view sharing the data, the parent and the allocation
 * (cj_array_view, which reshape, view and .real/.imag use too). Global arrays are frozen into
 * the module as constants. */
#include "lower/lower_internal.h"

#include <string.h>

#include "util/npy.h"

LLVMValueRef cj_array_dim(cj_lower *L, LLVMValueRef arr, int field, int i) {
    unsigned idx[2] = {(unsigned)field, (unsigned)i};
    LLVMValueRef dims = LLVMBuildExtractValue(L->b, arr, idx[0], "");
    return LLVMBuildExtractValue(L->b, dims, idx[1], field == CJ_ARR_SHAPE ? "dim" : "stride");
}

LLVMValueRef cj_array_size(cj_lower *L, LLVMValueRef arr, const cj_type *at) {
    LLVMValueRef n = cj_i64(L, 1);
    for (int d = 0; d < at->ndim; d++) {
        n = LLVMBuildMul(L->b, n, cj_array_dim(L, arr, CJ_ARR_SHAPE, d), "");
    }
    return n;
}

static LLVMValueRef dims_tuple(cj_lower *L, LLVMValueRef arr, const cj_type *at, int field) {
    const cj_type *items[32];
    for (int d = 0; d < at->ndim; d++) {
        items[d] = cj_t_int64;
    }
    const cj_type *tt = cj_type_tuple(at->ndim, items);
    if (tt == NULL) {
        return NULL;
    }
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, tt));
    for (int d = 0; d < at->ndim; d++) {
        r = LLVMBuildInsertValue(L->b, r, cj_array_dim(L, arr, field, d), (unsigned)d, "");
    }
    return r;
}

LLVMValueRef cj_array_attr(cj_lower *L, LLVMValueRef arr, const cj_type *at, const char *name) {
    if (strcmp(name, "shape") == 0) {
        return dims_tuple(L, arr, at, CJ_ARR_SHAPE);
    }
    if (strcmp(name, "strides") == 0) {
        return dims_tuple(L, arr, at, CJ_ARR_STRIDES);
    }
    if (strcmp(name, "T") == 0) {
        return cj_array_transpose(L, arr, at);
    }
    LLVMValueRef size = cj_array_size(L, arr, at);
    if (strcmp(name, "nbytes") == 0) {
        return LLVMBuildMul(L->b, size, cj_i64(L, (long long)cj_abi_size(at->dtype)), "");
    }
    return size;
}

/* &data[offset bytes] as T* */
static LLVMValueRef offset_ptr(cj_lower *L, LLVMValueRef data, LLVMValueRef offset) {
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef raw = LLVMBuildBitCast(L->b, data, LLVMPointerType(i8, 0), "");
    LLVMValueRef p = LLVMBuildGEP2(L->b, i8, raw, &offset, 1, "");
    return LLVMBuildBitCast(L->b, p, LLVMTypeOf(data), "");
}

static LLVMValueRef wrap_index(cj_lower *L, LLVMValueRef i, LLVMValueRef dim) {
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, i, cj_i64(L, 0), "");
    i = LLVMBuildSelect(L->b, neg, LLVMBuildAdd(L->b, i, dim, ""), i, "idx");
    if (L->env->boundscheck) {
        cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntUGE, i, dim, ""), CJ_EXC_INDEX);
    }
    return i;
}

/* Python's slice.indices(dim): start, step and the length of the selection. */
void cj_slice_indices(cj_lower *L, LLVMValueRef sl, LLVMValueRef dim, LLVMValueRef *start,
                          LLVMValueRef *step, LLVMValueRef *len) {
    LLVMBuilderRef B = L->b;
    LLVMValueRef none = cj_i64(L, INT64_MIN), zero = cj_i64(L, 0), m1 = cj_i64(L, -1);
    LLVMValueRef s = LLVMBuildExtractValue(B, sl, 0, ""), e = LLVMBuildExtractValue(B, sl, 1, "");
    *step = LLVMBuildExtractValue(B, sl, 2, "step");
    cj_emit_raise_if(L, LLVMBuildICmp(B, LLVMIntEQ, *step, zero, ""), CJ_EXC_RANGE_STEP);
    LLVMValueRef neg_step = LLVMBuildICmp(B, LLVMIntSLT, *step, zero, "");
    /* bounds: [0, dim] for a positive step, [-1, dim - 1] for a negative one */
    LLVMValueRef lower = LLVMBuildSelect(B, neg_step, m1, zero, "");
    LLVMValueRef upper = LLVMBuildSelect(B, neg_step, LLVMBuildAdd(B, dim, m1, ""), dim, "");
    LLVMValueRef bound[2] = {s, e};
    LLVMValueRef dflt[2] = {LLVMBuildSelect(B, neg_step, upper, lower, ""),
                            LLVMBuildSelect(B, neg_step, lower, upper, "")};
    for (int k = 0; k < 2; k++) {
        LLVMValueRef v = bound[k];
        LLVMValueRef is_none = LLVMBuildICmp(B, LLVMIntEQ, v, none, "");
        LLVMValueRef vn = LLVMBuildICmp(B, LLVMIntSLT, v, zero, "");
        LLVMValueRef adj = LLVMBuildSelect(B, vn, LLVMBuildAdd(B, v, dim, ""), v, "");
        /* clamp into [lower, upper] */
        adj = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, adj, lower, ""), lower, adj, "");
        adj = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, adj, upper, ""), upper, adj, "");
        bound[k] = LLVMBuildSelect(B, is_none, dflt[k], adj, "");
    }
    *start = bound[0];
    /* len = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step */
    LLVMValueRef span = LLVMBuildSelect(B, neg_step, LLVMBuildSub(B, bound[0], bound[1], ""),
                                        LLVMBuildSub(B, bound[1], bound[0], ""), "");
    LLVMValueRef astep = LLVMBuildSelect(B, neg_step, LLVMBuildNeg(B, *step, ""), *step, "");
    LLVMValueRef n = LLVMBuildSDiv(B, LLVMBuildAdd(B, span, LLVMBuildSub(B, astep, cj_i64(L, 1), ""), ""),
                                   astep, "");
    cj_ub_proof(n, "divisor: |step|, step == 0 raised above; INT64_MIN stays negative, not -1");
    *len = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, n, zero, ""), zero, n, "len");
}

/* The indices of a getitem/setitem as a list of values with their types. */
static int split_index(cj_lower *L, LLVMValueRef idx, const cj_type *it, LLVMValueRef *vals,
                       const cj_type **types) {
    if (it->kind != CJ_TUPLE) {
        vals[0] = idx;
        types[0] = it;
        return 1;
    }
    for (int i = 0; i < it->n; i++) {
        vals[i] = LLVMBuildExtractValue(L->b, idx, (unsigned)i, "");
        types[i] = it->items[i];
    }
    return it->n;
}

/* offset + i * stride for an integer index i (wrapped when negative). */
static LLVMValueRef index_offset(cj_lower *L, LLVMValueRef offset, LLVMValueRef v,
                                 const cj_type *vt, LLVMValueRef dim, LLVMValueRef stride) {
    LLVMValueRef i = wrap_index(L, cj_cast(L, v, vt, cj_t_int64), dim);
    /* nsw: an element's byte offset lies within the array (under 2^63 bytes); an index
     * out of bounds is undefined anyway (no bounds check without boundscheck) */
    LLVMValueRef step = LLVMBuildNSWMul(L->b, i, stride, "");
    offset = LLVMBuildNSWAdd(L->b, offset, step, "");
    const char *why = "an element's offset: within the array (numba: no check unless boundscheck)";
    cj_ub_proof(step, why);
    cj_ub_proof(offset, why);
    return offset;
}

/* Applies the indices: the byte offset into the data, and the remaining dimensions
 * (shape/stride pairs) of the view. Returns the count of remaining dimensions. A None
 * (np.newaxis) adds a dimension of length 1 and stride 0 (NumPy's) and uses none. */
static int apply_indices(cj_lower *L, LLVMValueRef arr, const cj_type *at, LLVMValueRef idx,
                         const cj_type *it, LLVMValueRef *offset, LLVMValueRef *shape,
                         LLVMValueRef *strides) {
    LLVMValueRef vals[64];
    const cj_type *types[64];
    int n = split_index(L, idx, it, vals, types);
    int out = 0, d = 0;
    /* The contiguous dimension of a C (F) array: the last (first). Its stride is the item
     * size whenever it has more than one element (NumPy's contiguity flags and the layout
     * rules of views say so); with one element the only index is 0, whatever the stride.
     * As numba, an integer index there steps by the constant item size: the address is a
     * scaled index (no multiply by a loaded stride). */
    int contig = at->layout == 'C' ? at->ndim - 1 : at->layout == 'F' ? 0 : -1;
    *offset = cj_i64(L, 0);
    for (int k = 0; k < n || d < at->ndim; k++) {
        if (k < n && types[k]->kind == CJ_NONE) {
            shape[out] = cj_i64(L, 1);
            strides[out++] = cj_i64(L, 0);
            continue;
        }
        LLVMValueRef dim = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        LLVMValueRef stride = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
        if (k >= n) { /* untouched trailing dimension */
            shape[out] = dim;
            strides[out++] = stride;
        } else if (types[k]->kind == CJ_SLICE) {
            LLVMValueRef start, step, len;
            cj_slice_indices(L, vals[k], dim, &start, &step, &len);
            *offset = LLVMBuildAdd(L->b, *offset, LLVMBuildMul(L->b, start, stride, ""), "");
            shape[out] = len;
            strides[out++] = LLVMBuildMul(L->b, stride, step, "");
        } else {
            *offset = index_offset(L, *offset, vals[k], types[k], dim,
                                   d == contig && cj_abi_size(at->dtype) > 0
                                       ? cj_i64(L, (long long)cj_abi_size(at->dtype))
                                       : stride);
        }
        d++;
    }
    return out;
}

LLVMValueRef cj_array_view(cj_lower *L, LLVMValueRef arr, LLVMValueRef offset, int ndim,
                           LLVMValueRef *shape, LLVMValueRef *strides, const cj_type *vt) {
    LLVMValueRef data = LLVMBuildExtractValue(L->b, arr, CJ_ARR_DATA, "");
    LLVMValueRef v = LLVMGetUndef(cj_llvm_type(L->ctx, vt));
    LLVMTypeRef elem_p = LLVMPointerType(cj_elem_type(L->ctx, vt->dtype), 0);
    LLVMValueRef at = LLVMBuildBitCast(L->b, offset_ptr(L, data, offset), elem_p, "");
    v = LLVMBuildInsertValue(L->b, v, at, CJ_ARR_DATA, "");
    v = LLVMBuildInsertValue(L->b, v, LLVMBuildExtractValue(L->b, arr, CJ_ARR_PARENT, ""),
                             CJ_ARR_PARENT, "");
    v = LLVMBuildInsertValue(L->b, v, LLVMBuildExtractValue(L->b, arr, CJ_ARR_MEMINFO, ""),
                             CJ_ARR_MEMINFO, ""); /* a view shares its base's allocation */
    LLVMTypeRef dims_t = LLVMArrayType(LLVMInt64TypeInContext(L->ctx), (unsigned)ndim);
    LLVMValueRef sh = LLVMConstNull(dims_t), st = LLVMConstNull(dims_t); /* 0-d: no undef */
    for (int d = 0; d < ndim; d++) {
        sh = LLVMBuildInsertValue(L->b, sh, shape[d], (unsigned)d, "");
        st = LLVMBuildInsertValue(L->b, st, strides[d], (unsigned)d, "");
    }
    v = LLVMBuildInsertValue(L->b, v, sh, CJ_ARR_SHAPE, "");
    return LLVMBuildInsertValue(L->b, v, st, CJ_ARR_STRIDES, "view");
}

LLVMValueRef cj_array_getitem(cj_lower *L, LLVMValueRef arr, const cj_type *at,
                              LLVMValueRef idx, const cj_type *it, const cj_type *rtype) {
    LLVMValueRef offset, shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    int ndim = apply_indices(L, arr, at, idx, it, &offset, shape, strides);
    if (rtype->kind != CJ_ARRAY) {
        LLVMValueRef data = LLVMBuildExtractValue(L->b, arr, CJ_ARR_DATA, "");
        return cj_load_element(L, offset_ptr(L, data, offset), at->dtype);
    }
    return cj_array_view(L, arr, offset, ndim, shape, strides, rtype);
}

/* Stores `v` into every element of a view (a loop nest over its dimensions). */
static void fill_view(cj_lower *L, LLVMValueRef data, int ndim, LLVMValueRef *shape,
                      LLVMValueRef *strides, LLVMValueRef v, const cj_type *dtype) {
    if (ndim == 0) {
        cj_store_element(L, data, v, dtype);
        return;
    }
    LLVMBuilderRef B = L->b;
    LLVMValueRef counter = cj_entry_alloca(L, LLVMInt64TypeInContext(L->ctx), "fill_i");
    LLVMBuildStore(B, cj_i64(L, 0), counter);
    LLVMBasicBlockRef head = cj_new_bb(L, "fill_head"), body = cj_new_bb(L, "fill_body"),
                      done = cj_new_bb(L, "fill_done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, LLVMInt64TypeInContext(L->ctx), counter, "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, shape[0], ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef p = offset_ptr(L, data, LLVMBuildMul(B, i, strides[0], ""));
    fill_view(L, p, ndim - 1, shape + 1, strides + 1, v, dtype);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, cj_i64(L, 1), ""), counter);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
}

int cj_array_setitem(cj_lower *L, LLVMValueRef arr, const cj_type *at, LLVMValueRef idx,
                     const cj_type *it, LLVMValueRef v, const cj_type *vt,
                     const cj_type *target) {
    if (vt->kind == CJ_ARRAY) { /* a[...] = array: lower_array_expr.c */
        LLVMValueRef view = cj_array_getitem(L, arr, at, idx, it, target);
        return view ? cj_array_assign(L, view, target, v, vt) : -1;
    }
    LLVMValueRef offset, shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    int ndim = apply_indices(L, arr, at, idx, it, &offset, shape, strides);
    LLVMValueRef value = cj_cast(L, v, vt, at->dtype);
    if (value == NULL) {
        return -1;
    }
    LLVMValueRef data = LLVMBuildExtractValue(L->b, arr, CJ_ARR_DATA, "");
    LLVMValueRef p = offset_ptr(L, data, offset);
    if (target->kind != CJ_ARRAY) {
        cj_store_element(L, p, value, at->dtype);
        return 0;
    }
    fill_view(L, p, ndim, shape, strides, value, at->dtype);
    return 0;
}

/* A global NumPy array frozen into the module: a private constant with its bytes (C order). */
LLVMValueRef cj_const_array(cj_lower *L, PyObject *array, const cj_type *t) {
    PyArrayObject *c = (PyArrayObject *)PyArray_FROM_OF(array, NPY_ARRAY_C_CONTIGUOUS |
                                                                   NPY_ARRAY_ALIGNED);
    if (c == NULL) {
        return NULL;
    }
    LLVMTypeRef elem = cj_elem_type(L->ctx, t->dtype);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef bytes = LLVMConstStringInContext(L->ctx, PyArray_BYTES(c),
                                                  (unsigned)PyArray_NBYTES(c), 1);
    LLVMValueRef g = LLVMAddGlobal(L->mod, LLVMTypeOf(bytes), "cj.const.array");
    LLVMSetInitializer(g, bytes);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetAlignment(g, 16);
    LLVMValueRef data = LLVMConstBitCast(g, LLVMPointerType(elem, 0));
    LLVMValueRef v = LLVMConstNull(cj_llvm_type(L->ctx, t)); /* no meminfo */
    v = LLVMBuildInsertValue(L->b, v, data, CJ_ARR_DATA, "");
    /* the parent is the original array, kept alive by the overload (env->keep) */
    LLVMValueRef parent = LLVMConstIntToPtr(LLVMConstInt(LLVMInt64TypeInContext(L->ctx),
                                                         (unsigned long long)(uintptr_t)array, 0),
                                            LLVMPointerType(i8, 0));
    if (L->env->target == CJ_TARGET_CUDA || L->env->keep == NULL) {
        parent = LLVMConstNull(LLVMPointerType(i8, 0));
    } else if (PyList_Append(L->env->keep, array) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    v = LLVMBuildInsertValue(L->b, v, parent, CJ_ARR_PARENT, "");
    LLVMTypeRef dims_t = LLVMArrayType(LLVMInt64TypeInContext(L->ctx), (unsigned)t->ndim);
    LLVMValueRef sh = LLVMGetUndef(dims_t), st = LLVMGetUndef(dims_t);
    long long stride = (long long)PyArray_ITEMSIZE(c);
    for (int d = t->ndim - 1; d >= 0; d--) {
        sh = LLVMBuildInsertValue(L->b, sh, cj_i64(L, (long long)PyArray_DIM(c, d)), (unsigned)d, "");
        st = LLVMBuildInsertValue(L->b, st, cj_i64(L, stride), (unsigned)d, "");
        stride *= (long long)PyArray_DIM(c, d);
    }
    v = LLVMBuildInsertValue(L->b, v, sh, CJ_ARR_SHAPE, "");
    v = LLVMBuildInsertValue(L->b, v, st, CJ_ARR_STRIDES, "");
    Py_DECREF(c);
    return v;
}
