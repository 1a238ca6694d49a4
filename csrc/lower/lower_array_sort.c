/* lower_array_sort.c: np.sort(a), a.sort(), np.argsort(a), a.argsort() (typing/array_sort.c).
 * The array is first copied into a new C array (cj_array_assign), whose rows along the last
 * axis are then contiguous: the run time (abi/sort.c) sorts each row in place, or writes each
 * row's sorted indices into the int64 result. np.sort returns the copy; a.sort() copies it
 * back into a and drops it; argsort drops it and returns the indices. */
#include "lower/lower_internal.h"

typedef struct rows {
    LLVMValueRef data, out, n; /* the copy's data, the indices' data, the row length */
    LLVMValueRef item;         /* the copy's element size */
    LLVMValueRef failed;       /* i1 slot: a scratch buffer could not be allocated */
    int kind, argsort;
} rows;

int cj_sort_kind(const cj_type *dtype) {
    if (dtype->kind == CJ_UNICODE) {
        return CJ_SORT_STR; /* a list of strings (abi/list.c) */
    }
    if (dtype->kind == CJ_FLOAT) {
        return dtype->bits == 32 ? CJ_SORT_FLOAT32 : CJ_SORT_FLOAT64;
    }
    if (dtype->kind == CJ_BOOL) {
        return CJ_SORT_UINT8;
    }
    int signed_base = dtype->bits == 8 ? CJ_SORT_INT8 : dtype->bits == 16 ? CJ_SORT_INT16
                      : dtype->bits == 32                              ? CJ_SORT_INT32
                                                                       : CJ_SORT_INT64;
    return signed_base + !dtype->is_signed; /* each unsigned kind follows its signed one */
}

static LLVMValueRef byte_at(cj_lower *L, LLVMValueRef base, LLVMValueRef offset) {
    return LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), base, &offset, 1, "");
}

static void sort_row(cj_lower *L, LLVMValueRef r, void *ctx) {
    const rows *w = ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx), i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMValueRef first = LLVMBuildMul(L->b, r, w->n, "");
    LLVMValueRef row = byte_at(L, w->data, LLVMBuildMul(L->b, first, w->item, ""));
    LLVMValueRef kind = LLVMConstInt(i32, (unsigned)w->kind, 0);
    if (!w->argsort) {
        LLVMTypeRef params[3] = {i32, i8p, i64};
        LLVMValueRef fn = cj_runtime_fn(L, "cj_sort", LLVMVoidTypeInContext(L->ctx), params, 3);
        LLVMValueRef args[3] = {kind, row, w->n};
        LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 3, "");
        return;
    }
    LLVMTypeRef params[4] = {i32, i8p, i64, i8p};
    LLVMValueRef fn = cj_runtime_fn(L, "cj_argsort", i32, params, 4);
    LLVMValueRef args[4] = {kind, row, w->n,
                            byte_at(L, w->out, LLVMBuildMul(L->b, first, cj_i64(L, 8), ""))};
    LLVMValueRef status = LLVMBuildCall2(L->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, 4,
                                         "");
    LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntNE, status, LLVMConstInt(i32, 0, 0), "");
    LLVMValueRef so_far = LLVMBuildLoad2(L->b, LLVMInt1TypeInContext(L->ctx), w->failed, "");
    LLVMBuildStore(L->b, LLVMBuildOr(L->b, so_far, bad, ""), w->failed);
}

/* Every row of the copy (rank ndim, C order): sorted, or argsorted into `out`. */
static void each_row(cj_lower *L, rows *w, LLVMValueRef copy, int ndim) {
    LLVMValueRef count = cj_i64(L, 1);
    for (int d = 0; d < ndim - 1; d++) {
        count = LLVMBuildMul(L->b, count, cj_array_dim(L, copy, CJ_ARR_SHAPE, d), "");
    }
    w->n = cj_array_dim(L, copy, CJ_ARR_SHAPE, ndim - 1);
    w->data = cj_array_bytes(L, copy);
    w->failed = cj_entry_alloca(L, LLVMInt1TypeInContext(L->ctx), "argsort_failed");
    LLVMBuildStore(L->b, LLVMConstNull(LLVMInt1TypeInContext(L->ctx)), w->failed);
    cj_emit_for(L, count, sort_row, w);
}

LLVMValueRef cj_lower_array_sort(cj_lower *L, cj_instr *in, int id, LLVMValueRef arr,
                                 const cj_type *at, int in_place, int *fresh) {
    const cj_type *ct = cj_type_array(at->dtype, at->ndim, 'C', 0);
    LLVMValueRef shape[CJ_MAXDIM];
    for (int d = 0; d < at->ndim; d++) {
        shape[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
    }
    LLVMValueRef copy = ct ? cj_new_array(L, ct, shape, 0) : NULL;
    if (copy == NULL || cj_array_assign(L, copy, ct, arr, at) < 0) {
        return NULL;
    }
    rows w = {.kind = cj_sort_kind(at->dtype), .argsort = id == CJ_B_NP_ARGSORT,
              .item = cj_i64(L, (long long)cj_abi_size(at->dtype))};
    *fresh = !in_place;
    if (!w.argsort) {
        each_row(L, &w, copy, at->ndim);
        if (!in_place) {
            return copy;
        }
        int rc = cj_array_assign(L, arr, at, copy, ct);
        cj_decref(L, copy, ct);
        return rc < 0 ? NULL : cj_empty(L);
    }
    LLVMValueRef out = cj_new_array(L, in->rtype, shape, 0);
    w.out = cj_array_bytes(L, out);
    each_row(L, &w, copy, at->ndim);
    cj_decref(L, copy, ct);
    LLVMValueRef failed = LLVMBuildLoad2(L->b, LLVMInt1TypeInContext(L->ctx), w.failed, "");
    LLVMBasicBlockRef bad = cj_new_bb(L, "argsort_failed"), ok = cj_new_bb(L, "argsort_ok");
    LLVMBuildCondBr(L->b, failed, bad, ok);
    LLVMPositionBuilderAtEnd(L->b, bad);
    cj_decref(L, out, in->rtype);
    cj_emit_raise(L, CJ_EXC_MEMORY);
    LLVMBuildBr(L->b, ok);
    LLVMPositionBuilderAtEnd(L->b, ok);
    return out;
}
