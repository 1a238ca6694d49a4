/* lower_loops.c: loops over the elements of arrays: cj_emit_loop_nest (C order, any strides,
 * several arrays in step; the innermost loop has a second, vectorisable copy for when every
 * array steps by its element size), cj_emit_for (i from 0 to n), cj_array_for_each over one array, and the element load that reads
 * a bool as an i1. */
#include "lower/lower_internal.h"

/* One loop over dimension d: `i` from 0 to shape[d], each pointer moved by i * its stride
 * (a run-time value, or `unit[k]` bytes when unit is given: the contiguous version). */
static void nest_dim(cj_lower *L, const cj_loop_nest *n, int d, LLVMValueRef *bases,
                     const int *unit);

static void inner_loops(cj_lower *L, const cj_loop_nest *n, int d, LLVMValueRef *bases) {
    /* the innermost loop twice: LLVM vectorises the copy whose strides are the element sizes,
     * taken when every pointer steps by its element size (the common, contiguous case) */
    LLVMValueRef contiguous = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 1, 0);
    for (int k = 0; k < n->nptrs; k++) {
        if (n->elem_size[k] == 0) {
            continue; /* a pointer that stays */
        }
        LLVMValueRef size = cj_i64(L, n->elem_size[k]);
        contiguous = LLVMBuildAnd(L->b, contiguous,
                                  LLVMBuildICmp(L->b, LLVMIntEQ, n->strides[k][d], size, ""), "");
    }
    LLVMBasicBlockRef fast = cj_new_bb(L, "contiguous"), slow = cj_new_bb(L, "strided"),
                      done = cj_new_bb(L, "inner_done");
    LLVMBuildCondBr(L->b, contiguous, fast, slow);
    LLVMPositionBuilderAtEnd(L->b, fast);
    nest_dim(L, n, d, bases, n->elem_size);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, slow);
    nest_dim(L, n, d, bases, NULL);
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

static void nest(cj_lower *L, const cj_loop_nest *n, int d, LLVMValueRef *bases) {
    if (d == n->ndim) {
        n->fn(L, bases, n->ctx);
        return;
    }
    if (n->versioned && d == n->ndim - 1) {
        inner_loops(L, n, d, bases);
    } else {
        nest_dim(L, n, d, bases, NULL);
    }
}

typedef struct dim_step {
    const cj_loop_nest *n;
    int d;
    LLVMValueRef *bases;
    const int *unit;
} dim_step;

/* Index i of dimension d: each pointer moved by i * its step, then the dimensions inside. */
static void dim_body(cj_lower *L, LLVMValueRef i, void *ctx) {
    const dim_step *s = ctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef here[CJ_LOOP_NEST_PTRS];
    for (int k = 0; k < s->n->nptrs; k++) {
        LLVMValueRef step = s->unit ? cj_i64(L, s->unit[k]) : s->n->strides[k][s->d];
        LLVMValueRef offset = LLVMBuildMul(L->b, i, step, "");
        here[k] = LLVMBuildGEP2(L->b, i8, s->bases[k], &offset, 1, "");
    }
    nest(L, s->n, s->d + 1, here);
}

static void nest_dim(cj_lower *L, const cj_loop_nest *n, int d, LLVMValueRef *bases,
                     const int *unit) {
    dim_step s = {.n = n, .d = d, .bases = bases, .unit = unit};
    cj_emit_for(L, n->shape[d], dim_body, &s);
}

void cj_emit_loop_nest(cj_lower *L, const cj_loop_nest *n, LLVMValueRef *bases) {
    nest(L, n, 0, bases);
}

void cj_emit_for(cj_lower *L, LLVMValueRef n, cj_index_fn fn, void *ctx) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMBasicBlockRef before = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef head = cj_new_bb(L, "for"), body = cj_new_bb(L, "for_body"),
                      done = cj_new_bb(L, "for_done");
    LLVMBuildBr(L->b, head);
    LLVMPositionBuilderAtEnd(L->b, head);
    LLVMValueRef i = LLVMBuildPhi(L->b, i64, "i");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(L->b, body);
    fn(L, i, ctx);
    LLVMValueRef next = LLVMBuildAdd(L->b, i, LLVMConstInt(i64, 1, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, head);
    LLVMValueRef in_v[2] = {LLVMConstInt(i64, 0, 0), next};
    LLVMBasicBlockRef in_b[2] = {before, latch};
    LLVMAddIncoming(i, in_v, in_b, 2);
    LLVMPositionBuilderAtEnd(L->b, done);
}

/* The array's data as an i8*. */
LLVMValueRef cj_array_bytes(cj_lower *L, LLVMValueRef arr) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    return LLVMBuildBitCast(L->b, LLVMBuildExtractValue(L->b, arr, CJ_ARR_DATA, ""), i8p, "");
}

typedef struct one_array {
    cj_element_fn fn;
    void *ctx;
} one_array;

static void each_element(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const one_array *o = ctx;
    o->fn(L, ptrs[0], o->ctx);
}

void cj_array_for_each(cj_lower *L, LLVMValueRef arr, const cj_type *at, cj_element_fn fn,
                       void *ctx) {
    one_array o = {.fn = fn, .ctx = ctx};
    cj_loop_nest n = {.ndim = at->ndim, .nptrs = 1, .fn = each_element, .ctx = &o,
                      .versioned = 1,
                      .elem_size = {(int)cj_abi_size(at->dtype)}};
    for (int d = 0; d < at->ndim; d++) {
        n.shape[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        n.strides[0][d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
    }
    LLVMValueRef base = cj_array_bytes(L, arr);
    cj_emit_loop_nest(L, &n, &base);
}

LLVMValueRef cj_load_element(cj_lower *L, LLVMValueRef ptr, const cj_type *dtype) {
    if (dtype->kind == CJ_RECORD) { /* a record view aliases the array (numba's) */
        return LLVMBuildBitCast(L->b, ptr, cj_llvm_type(L->ctx, dtype), "record");
    }
    LLVMTypeRef elem = cj_elem_type(L->ctx, dtype);
    LLVMValueRef v = LLVMBuildLoad2(L->b, elem,
                                    LLVMBuildBitCast(L->b, ptr, LLVMPointerType(elem, 0), ""), "");
    return dtype->kind == CJ_BOOL ? LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(elem), "")
                                  : v;
}

void cj_store_element(cj_lower *L, LLVMValueRef ptr, LLVMValueRef v, const cj_type *dtype) {
    if (dtype->kind == CJ_RECORD) { /* a[i] = record: its bytes (they may overlap) */
        LLVMBuildMemMove(L->b, ptr, 1, v, 1, cj_i64(L, dtype->itemsize));
        return;
    }
    LLVMTypeRef elem = cj_elem_type(L->ctx, dtype);
    if (dtype->kind == CJ_BOOL) {
        v = LLVMBuildZExt(L->b, v, elem, "");
    }
    LLVMBuildStore(L->b, v, LLVMBuildBitCast(L->b, ptr, LLVMPointerType(elem, 0), ""));
}

