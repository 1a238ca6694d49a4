/* lower_array_search.c: np.nonzero(a) / a.nonzero() / np.where(a) and np.argwhere(a)
 * (typing/array_search.c; np.searchsorted is a call of its Python implementation). A first
 * pass counts the elements whose truth is set (cj_array_for_each); the int64 results are then
 * allocated (nonzero: one 1-D array per dimension, one for a 0-d array or a number; argwhere:
 * a (count, ndim) C array) and a nest of counted loops (cj_emit_for), one per dimension in C
 * order, stores the indices of each such element. A 0-d array or a number has one element,
 * at index 0 for nonzero and with no index for argwhere. The result, a tuple of new arrays or
 * a new array, is handed over to the caller (cj_call_hands_over). */
#include "lower/lower_internal.h"

typedef struct walk {
    const cj_type *dtype;
    int ndim, depth, argwhere;
    LLVMValueRef shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    LLVMValueRef idx[CJ_MAXDIM];
    LLVMValueRef ptr[CJ_MAXDIM + 1]; /* i8*: the element at idx[0..depth) */
    LLVMValueRef count;              /* i64 slot: the elements counted, then stored */
    LLVMValueRef outs[CJ_MAXDIM];    /* i64*: the results' data */
} walk;

static void count_element(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    walk *w = ctx;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef truth = cj_truth(L, cj_load_element(L, ptr, w->dtype), w->dtype);
    LLVMValueRef n = LLVMBuildLoad2(L->b, i64, w->count, "");
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, n, LLVMBuildZExt(L->b, truth, i64, ""), ""),
                   w->count);
}

static void store_index(cj_lower *L, LLVMValueRef base, LLVMValueRef at, LLVMValueRef v) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBuildStore(L->b, v, LLVMBuildGEP2(L->b, i64, base, &at, 1, ""));
}

/* The element's indices stored at the next place when its truth (`truth`, an i1) is set. */
static void store_if_set(cj_lower *L, walk *w, LLVMValueRef truth) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBasicBlockRef set = cj_new_bb(L, "nonzero_set"), done = cj_new_bb(L, "nonzero_next");
    LLVMBuildCondBr(L->b, truth, set, done);
    LLVMPositionBuilderAtEnd(L->b, set);
    LLVMValueRef k = LLVMBuildLoad2(L->b, i64, w->count, "");
    if (w->argwhere) {
        LLVMValueRef row = LLVMBuildMul(L->b, k, cj_i64(L, w->ndim), "");
        for (int d = 0; d < w->ndim; d++) {
            store_index(L, w->outs[0], LLVMBuildAdd(L->b, row, cj_i64(L, d), ""), w->idx[d]);
        }
    } else if (w->ndim == 0) {
        store_index(L, w->outs[0], k, cj_i64(L, 0));
    } else {
        for (int d = 0; d < w->ndim; d++) {
            store_index(L, w->outs[d], k, w->idx[d]);
        }
    }
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, k, cj_i64(L, 1), ""), w->count);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

/* One loop of the nest: index i of dimension `depth`. */
static void level(cj_lower *L, LLVMValueRef i, void *ctx) {
    walk *w = ctx;
    int d = w->depth;
    LLVMValueRef offset = LLVMBuildMul(L->b, i, w->strides[d], "");
    w->idx[d] = i;
    w->ptr[d + 1] = LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), w->ptr[d], &offset, 1,
                                  "");
    if (d + 1 < w->ndim) {
        w->depth++;
        cj_emit_for(L, w->shape[d + 1], level, w);
        w->depth--;
        return;
    }
    store_if_set(L, w, cj_truth(L, cj_load_element(L, w->ptr[d + 1], w->dtype), w->dtype));
}

/* The result of builtin `id` (NP_NONZERO or NP_ARGWHERE) of `v`, an array or a number of
 * type `at`; in->rtype is the tuple or the array. */
LLVMValueRef cj_lower_array_search(cj_lower *L, cj_instr *in, int id, LLVMValueRef v,
                                   const cj_type *at) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i64p = LLVMPointerType(i64, 0);
    walk w = {.dtype = at->kind == CJ_ARRAY ? at->dtype : at,
              .ndim = at->kind == CJ_ARRAY ? at->ndim : 0,
              .argwhere = id == CJ_B_NP_ARGWHERE};
    w.count = cj_entry_alloca(L, i64, "nonzero_count");
    LLVMBuildStore(L->b, cj_i64(L, 0), w.count);
    LLVMValueRef number_truth = NULL;
    if (at->kind == CJ_ARRAY) {
        cj_array_for_each(L, v, at, count_element, &w);
    } else {
        number_truth = cj_truth(L, v, at);
        LLVMBuildStore(L->b, LLVMBuildZExt(L->b, number_truth, i64, ""), w.count);
    }
    LLVMValueRef shape[2] = {LLVMBuildLoad2(L->b, i64, w.count, "nonzero_n"),
                             cj_i64(L, w.ndim)};
    const cj_type *index = w.argwhere ? in->rtype : in->rtype->items[0];
    int nouts = w.argwhere ? 1 : in->rtype->n;
    LLVMValueRef result = w.argwhere ? NULL : LLVMGetUndef(cj_llvm_type(L->ctx, in->rtype));
    for (int k = 0; k < nouts; k++) {
        LLVMValueRef out = cj_new_array(L, index, shape, 0);
        w.outs[k] = LLVMBuildBitCast(L->b, cj_array_bytes(L, out), i64p, "");
        result = w.argwhere ? out : LLVMBuildInsertValue(L->b, result, out, (unsigned)k, "");
    }
    LLVMBuildStore(L->b, cj_i64(L, 0), w.count);
    if (number_truth != NULL) {
        store_if_set(L, &w, number_truth);
    } else if (w.ndim == 0) {
        w.ptr[0] = cj_array_bytes(L, v);
        store_if_set(L, &w, cj_truth(L, cj_load_element(L, w.ptr[0], w.dtype), w.dtype));
    } else {
        for (int d = 0; d < w.ndim; d++) {
            w.shape[d] = cj_array_dim(L, v, CJ_ARR_SHAPE, d);
            w.strides[d] = cj_array_dim(L, v, CJ_ARR_STRIDES, d);
        }
        w.ptr[0] = cj_array_bytes(L, v);
        cj_emit_for(L, w.shape[0], level, &w);
    }
    return result;
}
