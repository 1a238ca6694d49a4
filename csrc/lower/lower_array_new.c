/* lower_array_new.c: np.empty/zeros/ones/full and the *_like forms: a new C-contiguous array
 * in memory compiled code owns (abi/nrt.c). The shape is checked first (a negative dimension
 * and a size past int64 are NumPy's ValueErrors), then one cj_nrt_allocate (MemoryError when
 * it fails), then the fill. The value holds the allocation's one reference, which the call
 * hands over (lower_call.c drops it once the variable has its own). */
#include "lower/lower_internal.h"

static LLVMValueRef i64c(cj_lower *L, long long v) {
    return LLVMConstInt(LLVMInt64TypeInContext(L->ctx), (unsigned long long)v, 1);
}

void cj_shape_values(cj_lower *L, int var, const cj_type *t, int ndim, LLVMValueRef *shape) {
    LLVMValueRef v = cj_load_var(L, var);
    for (int d = 0; d < ndim; d++) {
        shape[d] = t->kind == CJ_TUPLE ? cj_cast(L, LLVMBuildExtractValue(L->b, v, (unsigned)d,
                                                                          ""),
                                                 t->items[d], cj_t_int64)
                                       : cj_cast(L, v, t, cj_t_int64);
    }
}

/* The requested dimensions as int64s. */
static void requested_shape(cj_lower *L, const cj_call *call, int ndim, LLVMValueRef *shape) {
    if (cj_builtin_makes_array(call->builtin) && call->builtin >= CJ_B_NP_EMPTY_LIKE) {
        LLVMValueRef first = cj_load_var(L, call->args[0]);
        for (int d = 0; d < ndim; d++) {
            shape[d] = cj_array_dim(L, first, CJ_ARR_SHAPE, d);
        }
    } else {
        cj_shape_values(L, call->args[0], call->argtypes[0], ndim, shape);
    }
}

/* Bytes for the shape: raises NumPy's errors for a negative dimension or too many bytes. */
static LLVMValueRef checked_bytes(cj_lower *L, int ndim, LLVMValueRef *shape, long long item) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx), i1 = LLVMInt1TypeInContext(L->ctx);
    LLVMValueRef negative = LLVMConstNull(i1), overflow = LLVMConstNull(i1);
    LLVMValueRef bytes = i64c(L, item);
    LLVMValueRef mul = LLVMGetIntrinsicDeclaration(
        L->mod, LLVMLookupIntrinsicID("llvm.umul.with.overflow", 23), &i64, 1);
    LLVMTypeRef mul_t = LLVMGetElementType(LLVMTypeOf(mul));
    for (int d = 0; d < ndim; d++) {
        negative = LLVMBuildOr(L->b, negative,
                               LLVMBuildICmp(L->b, LLVMIntSLT, shape[d], i64c(L, 0), ""), "");
        LLVMValueRef args[2] = {bytes, shape[d]};
        LLVMValueRef r = LLVMBuildCall2(L->b, mul_t, mul, args, 2, "");
        bytes = LLVMBuildExtractValue(L->b, r, 0, "nbytes");
        overflow = LLVMBuildOr(L->b, overflow, LLVMBuildExtractValue(L->b, r, 1, ""), "");
    }
    cj_emit_raise_if(L, negative, CJ_EXC_NEGATIVE_DIM);
    /* as an int64 too: the run time takes a signed size */
    overflow = LLVMBuildOr(L->b, overflow, LLVMBuildICmp(L->b, LLVMIntSLT, bytes, i64c(L, 0), ""),
                           "");
    cj_emit_raise_if(L, overflow, CJ_EXC_TOO_BIG);
    return bytes;
}

/* A new allocation of `bytes` (zeroed or not): (meminfo, data); MemoryError when there is no
 * memory. */
static LLVMValueRef allocate(cj_lower *L, LLVMValueRef bytes, int zeroed, LLVMValueRef *data) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef fn = cj_runtime_fn(L, zeroed ? "cj_nrt_allocate_zeroed" : "cj_nrt_allocate",
                                    i8p, &i64, 1);
    LLVMValueRef mi = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, &bytes, 1,
                                     "meminfo");
    cj_emit_raise_if(L, LLVMBuildIsNull(L->b, mi, ""), CJ_EXC_MEMORY);
    LLVMTypeRef fields[4] = {i64, i8p, i64, i8p}; /* abi.h's cj_meminfo */
    LLVMTypeRef mi_t = LLVMStructTypeInContext(L->ctx, fields, 4, 0);
    LLVMValueRef at = LLVMBuildStructGEP2(L->b, mi_t,
                                          LLVMBuildBitCast(L->b, mi, LLVMPointerType(mi_t, 0), ""),
                                          1, "");
    *data = LLVMBuildLoad2(L->b, i8p, at, "data");
    return mi;
}

typedef struct filling {
    const cj_type *dtype;
    LLVMValueRef value;   /* in memory's form (bool: an i8) */
} filling;

static void store_value(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    const filling *f = ctx;
    LLVMTypeRef elem = cj_elem_type(L->ctx, f->dtype);
    LLVMBuildStore(L->b, f->value, LLVMBuildBitCast(L->b, ptr, LLVMPointerType(elem, 0), ""));
}

/* The value np.zeros/ones/full writes, in the dtype; NULL for np.empty(_like). */
static LLVMValueRef fill_value(cj_lower *L, const cj_call *call, const cj_type *dtype) {
    switch (call->builtin) {
    case CJ_B_NP_ONES:
    case CJ_B_NP_ONES_LIKE:
        return cj_cast(L, LLVMConstInt(LLVMInt64TypeInContext(L->ctx), 1, 0), cj_t_int64, dtype);
    case CJ_B_NP_FULL:
    case CJ_B_NP_FULL_LIKE:
        return cj_cast(L, cj_load_var(L, call->args[1]), call->argtypes[1], dtype);
    default:
        return NULL;
    }
}

LLVMValueRef cj_new_array(cj_lower *L, const cj_type *at, LLVMValueRef *shape, int zeroed) {
    int ndim = at->ndim;
    long long item = (long long)cj_abi_size(at->dtype);
    LLVMValueRef strides[CJ_MAXDIM], data;
    LLVMValueRef bytes = checked_bytes(L, ndim, shape, item);
    LLVMValueRef mi = allocate(L, bytes, zeroed, &data);
    LLVMValueRef stride = i64c(L, item); /* C order; a 0 counts as 1 (abi.h layout rules) */
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = stride;
        LLVMValueRef zero = LLVMBuildICmp(L->b, LLVMIntEQ, shape[d], i64c(L, 0), "");
        stride = LLVMBuildMul(L->b, stride,
                              LLVMBuildSelect(L->b, zero, i64c(L, 1), shape[d], ""), "");
    }
    LLVMTypeRef dims_t = LLVMArrayType(LLVMInt64TypeInContext(L->ctx), (unsigned)ndim);
    LLVMValueRef sh = LLVMConstNull(dims_t), st = LLVMConstNull(dims_t); /* 0-d: no undef */
    for (int d = 0; d < ndim; d++) {
        sh = LLVMBuildInsertValue(L->b, sh, shape[d], (unsigned)d, "");
        st = LLVMBuildInsertValue(L->b, st, strides[d], (unsigned)d, "");
    }
    LLVMValueRef v = LLVMConstNull(cj_llvm_type(L->ctx, at));
    LLVMTypeRef elem_p = LLVMPointerType(cj_elem_type(L->ctx, at->dtype), 0);
    v = LLVMBuildInsertValue(L->b, v, LLVMBuildBitCast(L->b, data, elem_p, ""), CJ_ARR_DATA, "");
    v = LLVMBuildInsertValue(L->b, v, sh, CJ_ARR_SHAPE, "");
    v = LLVMBuildInsertValue(L->b, v, st, CJ_ARR_STRIDES, "");
    return LLVMBuildInsertValue(L->b, v, mi, CJ_ARR_MEMINFO, "");
}

LLVMValueRef cj_lower_array_new(cj_lower *L, cj_instr *in, const cj_call *call) {
    const cj_type *at = in->rtype;
    LLVMValueRef shape[CJ_MAXDIM];
    requested_shape(L, call, at->ndim, shape);
    int zeroed = call->builtin == CJ_B_NP_ZEROS || call->builtin == CJ_B_NP_ZEROS_LIKE;
    LLVMValueRef v = cj_new_array(L, at, shape, zeroed);
    LLVMValueRef value = fill_value(L, call, at->dtype);
    if (value != NULL) { /* ones, full */
        cj_fill_array(L, v, at, value);
    }
    return v;
}

void cj_fill_array(cj_lower *L, LLVMValueRef arr, const cj_type *at, LLVMValueRef value) {
    filling f = {.dtype = at->dtype, .value = value};
    if (at->dtype->kind == CJ_BOOL) {
        f.value = LLVMBuildZExt(L->b, value, cj_elem_type(L->ctx, at->dtype), "");
    }
    cj_array_for_each(L, arr, at, store_value, &f);
}

int cj_call_hands_over(const cj_call *call) {
    if (call->kind == CJ_CALL_DICT) {
        return cj_dict_op_hands_over(call->builtin); /* lower_dict_ops.c */
    }
    if (call->kind == CJ_CALL_SET) {
        return cj_set_op_hands_over(call->builtin); /* lower_set.c */
    }
    if (call->kind == CJ_CALL_LIST) { /* a cj_list_op: l.pop() moves the item out; new lists */
        return call->builtin == CJ_LIST_POP || call->builtin == CJ_LIST_COPY ||
               call->builtin == CJ_LIST_NEW || call->builtin == CJ_LIST_SORTED;
    }
    int id = call->builtin;
    int dot_makes_array = id == CJ_B_NP_DOT && call->nargs == 2 &&
                          call->argtypes[0]->ndim + call->argtypes[1]->ndim > 2;
    int sorted_copy = id == CJ_B_NP_ARGSORT ||
                      (id == CJ_B_NP_SORT && call->kind == CJ_CALL_BUILTIN);
    return (call->kind == CJ_CALL_BUILTIN &&
            (cj_builtin_makes_array(id) || dot_makes_array || cj_random_makes_array(call) ||
             cj_builtin_joins_fresh(id))) ||
           ((call->kind == CJ_CALL_BUILTIN || call->kind == CJ_CALL_METHOD) && sorted_copy) ||
           ((call->kind == CJ_CALL_BUILTIN || call->kind == CJ_CALL_METHOD) &&
            cj_builtin_searches(id)) ||
           ((call->kind == CJ_CALL_BUILTIN || call->kind == CJ_CALL_METHOD) &&
            (id == CJ_B_NP_COPY || id == CJ_B_METH_ASTYPE || cj_builtin_fresh_array(id)));
}
