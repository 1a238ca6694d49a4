/* lower_array_from_list.c: np.array(l) / np.asarray(l) of a list (typing/array_create.c): a
 * list of numbers makes a 1-D array of their promoted dtype, a list of lists of numbers a 2-D
 * one whose rows must all have the first's length (numba's ValueError "incompatible sequence
 * shape" otherwise); the items are cast to the array's dtype as they are copied. */
#include "lower/lower_internal.h"

typedef struct filling {
    LLVMValueRef arr, list, row, cols, at_row;
    const cj_type *lt, *rowt, *dtype;
    int failed; /* the ValueError could not be registered (an exception is set) */
} filling;

static LLVMValueRef item(cj_lower *L, LLVMValueRef list, const cj_type *lt, LLVMValueRef i) {
    return LLVMBuildLoad2(L->b, cj_llvm_type(L->ctx, lt->dtype),
                          cj_list_item_ptr(L, list, lt, i), "");
}

/* Element `i` of the C-contiguous array = v (of the array's dtype). */
static void put(cj_lower *L, const filling *f, LLVMValueRef i, LLVMValueRef v) {
    LLVMTypeRef elem = cj_elem_type(L->ctx, f->dtype);
    if (f->dtype->kind == CJ_BOOL) {
        v = LLVMBuildZExt(L->b, v, elem, "");
    }
    LLVMValueRef data = LLVMBuildExtractValue(L->b, f->arr, CJ_ARR_DATA, "");
    LLVMBuildStore(L->b, v, LLVMBuildGEP2(L->b, elem, data, &i, 1, ""));
}

static void put_number(cj_lower *L, LLVMValueRef i, void *ctx) {
    filling *f = ctx;
    LLVMValueRef v = item(L, f->list, f->lt, i);
    put(L, f, i, cj_cast(L, v, f->lt->dtype, f->dtype));
}

static void put_in_row(cj_lower *L, LLVMValueRef j, void *ctx) {
    filling *f = ctx;
    LLVMValueRef v = item(L, f->row, f->rowt, j);
    put(L, f, LLVMBuildAdd(L->b, f->at_row, j, ""), cj_cast(L, v, f->rowt->dtype, f->dtype));
}

/* Every row of the first's length (checked before the array is made, so raising leaks
 * nothing). */
static void check_row(cj_lower *L, LLVMValueRef i, void *ctx) {
    filling *f = ctx;
    LLVMValueRef row = item(L, f->list, f->lt, i);
    LLVMValueRef ragged = LLVMBuildICmp(L->b, LLVMIntNE, cj_list_len(L, row), f->cols, "");
    if (cj_emit_raise_text_if(L, ragged, PyExc_ValueError, "incompatible sequence shape") < 0) {
        f->failed = 1;
    }
}

static void put_row(cj_lower *L, LLVMValueRef i, void *ctx) {
    filling *f = ctx;
    f->row = item(L, f->list, f->lt, i);
    f->at_row = LLVMBuildMul(L->b, i, f->cols, "");
    cj_emit_for(L, f->cols, put_in_row, f);
}

LLVMValueRef cj_array_from_list(cj_lower *L, LLVMValueRef list, const cj_type *lt,
                                const cj_type *rt) {
    filling f = {.list = list, .lt = lt, .dtype = rt->dtype};
    LLVMValueRef shape[2] = {cj_list_len(L, list), NULL};
    if (rt->ndim == 1) {
        f.arr = cj_new_array(L, rt, shape, 0);
        cj_emit_for(L, shape[0], put_number, &f);
        return f.arr;
    }
    /* the first row's length (0 rows: 0 columns), read only when there is one */
    LLVMValueRef some = LLVMBuildICmp(L->b, LLVMIntSGT, shape[0], cj_i64(L, 0), "");
    LLVMValueRef first_at = cj_entry_alloca(L, LLVMInt64TypeInContext(L->ctx), "cols");
    LLVMBuildStore(L->b, cj_i64(L, 0), first_at);
    LLVMBasicBlockRef read = cj_new_bb(L, "first_row"), done = cj_new_bb(L, "rows");
    LLVMBuildCondBr(L->b, some, read, done);
    LLVMPositionBuilderAtEnd(L->b, read);
    LLVMBuildStore(L->b, cj_list_len(L, item(L, list, lt, cj_i64(L, 0))), first_at);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    f.cols = LLVMBuildLoad2(L->b, LLVMInt64TypeInContext(L->ctx), first_at, "");
    shape[1] = f.cols;
    f.rowt = lt->dtype;
    cj_emit_for(L, shape[0], check_row, &f);
    f.arr = cj_new_array(L, rt, shape, 0);
    cj_emit_for(L, shape[0], put_row, &f);
    return f.failed ? NULL : f.arr;
}
