/* lower_array_fancy.c: indexing with an array (typing/array_fancy.c). A mask must have the
 * array's shape (IndexError otherwise); a[mask] counts the selected elements, makes a 1-D
 * array of them and copies them in C order; a[mask] = v stores v (or the next element of a
 * 1-D v, which must hold exactly as many: ValueError) where the mask is true. a[idx] and
 * a[idx] = v go through the integer indexing of lower_array.c one index at a time, so a
 * negative index counts from the end and one out of range is an IndexError, as NumPy's. */
#include "lower/lower_internal.h"

typedef struct fancy {
    LLVMValueRef arr, idx, val, out, slot; /* slot: the count / next position */
    const cj_type *at, *it, *vt, *rt, *sub; /* sub: the type of one a[j] */
} fancy;

static LLVMValueRef load_i64(cj_lower *L, LLVMValueRef slot) {
    return LLVMBuildLoad2(L->b, LLVMInt64TypeInContext(L->ctx), slot, "");
}

static void bump(cj_lower *L, LLVMValueRef slot) {
    LLVMBuildStore(L->b, LLVMBuildAdd(L->b, load_i64(L, slot), cj_i64(L, 1), ""), slot);
}

/* Opens `if (mask element at ptr)`; the caller closes it with close_if. */
static LLVMBasicBlockRef open_if(cj_lower *L, LLVMValueRef ptr) {
    LLVMBasicBlockRef then = cj_new_bb(L, "selected"), done = cj_new_bb(L, "selected_done");
    LLVMBuildCondBr(L->b, cj_load_element(L, ptr, cj_t_bool), then, done);
    LLVMPositionBuilderAtEnd(L->b, then);
    return done;
}

static void close_if(cj_lower *L, LLVMBasicBlockRef done) {
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

/* The loops over the array (pointer 0) and its mask (pointer 1), which must match. */
static void over_mask(cj_lower *L, const fancy *f, void (*fn)(cj_lower *, LLVMValueRef *, void *),
                      void *ctx) {
    cj_loop_nest n = {.ndim = f->at->ndim, .nptrs = 2, .fn = fn, .ctx = ctx, .versioned = 1,
                      .elem_size = {(int)cj_abi_size(f->at->dtype), 1}};
    LLVMValueRef bad = LLVMConstNull(LLVMInt1TypeInContext(L->ctx));
    for (int d = 0; d < f->at->ndim; d++) {
        n.shape[d] = cj_array_dim(L, f->arr, CJ_ARR_SHAPE, d);
        LLVMValueRef m = cj_array_dim(L, f->idx, CJ_ARR_SHAPE, d);
        bad = LLVMBuildOr(L->b, bad, LLVMBuildICmp(L->b, LLVMIntNE, n.shape[d], m, ""), "");
        n.strides[0][d] = cj_array_dim(L, f->arr, CJ_ARR_STRIDES, d);
        n.strides[1][d] = cj_array_dim(L, f->idx, CJ_ARR_STRIDES, d);
    }
    cj_emit_raise_if(L, bad, CJ_EXC_MASK_SHAPE);
    LLVMValueRef bases[2] = {cj_array_bytes(L, f->arr), cj_array_bytes(L, f->idx)};
    cj_emit_loop_nest(L, &n, bases);
}

static void count_one(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const fancy *f = ctx;
    LLVMBasicBlockRef done = open_if(L, ptrs[1]);
    bump(L, f->slot);
    close_if(L, done);
}

/* How many elements the mask selects (its shape checked). */
static LLVMValueRef count_selected(cj_lower *L, fancy *f) {
    f->slot = cj_entry_alloca(L, LLVMInt64TypeInContext(L->ctx), "selected");
    LLVMBuildStore(L->b, cj_i64(L, 0), f->slot);
    over_mask(L, f, count_one, f);
    return load_i64(L, f->slot);
}

/* The byte address of element k of a 1-D array. */
static LLVMValueRef element_at(cj_lower *L, LLVMValueRef arr, LLVMValueRef k) {
    LLVMValueRef offset = LLVMBuildMul(L->b, k, cj_array_dim(L, arr, CJ_ARR_STRIDES, 0), "");
    return LLVMBuildGEP2(L->b, LLVMInt8TypeInContext(L->ctx), cj_array_bytes(L, arr), &offset, 1,
                         "");
}

static void gather_one(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const fancy *f = ctx;
    LLVMBasicBlockRef done = open_if(L, ptrs[1]);
    LLVMValueRef v = cj_load_element(L, ptrs[0], f->at->dtype);
    cj_store_element(L, element_at(L, f->out, load_i64(L, f->slot)), v, f->at->dtype);
    bump(L, f->slot);
    close_if(L, done);
}

static void scatter_one(cj_lower *L, LLVMValueRef *ptrs, void *ctx) {
    const fancy *f = ctx;
    LLVMBasicBlockRef done = open_if(L, ptrs[1]);
    LLVMValueRef v = f->val;
    const cj_type *from = f->vt;
    if (f->vt->kind == CJ_ARRAY) { /* the next element of the values */
        v = cj_load_element(L, element_at(L, f->val, load_i64(L, f->slot)), f->vt->dtype);
        from = f->vt->dtype;
        bump(L, f->slot);
    }
    cj_store_element(L, ptrs[0], cj_cast(L, v, from, f->at->dtype), f->at->dtype);
    close_if(L, done);
}

/* idx[i] as a checked index of a's first axis (IndexError, before a[idx] allocates). */
static void check_one(cj_lower *L, LLVMValueRef i, void *ctx) {
    const fancy *f = ctx;
    LLVMValueRef j = cj_cast(L, cj_load_element(L, element_at(L, f->idx, i), f->it->dtype),
                             f->it->dtype, cj_t_int64);
    LLVMValueRef n = cj_array_dim(L, f->arr, CJ_ARR_SHAPE, 0);
    LLVMValueRef wrapped = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, j, cj_i64(L, 0),
                                                               ""),
                                           LLVMBuildAdd(L->b, j, n, ""), j, "");
    LLVMValueRef outside = LLVMBuildICmp(L->b, LLVMIntUGE, wrapped, n, "");
    cj_emit_raise_if(L, outside, CJ_EXC_INDEX);
}

/* a[idx]'s element i: out[i] = a[idx[i]]. */
static void take_one(cj_lower *L, LLVMValueRef i, void *ctx) {
    const fancy *f = ctx;
    LLVMValueRef j = cj_cast(L, cj_load_element(L, element_at(L, f->idx, i), f->it->dtype),
                             f->it->dtype, cj_t_int64);
    LLVMValueRef item = cj_array_getitem(L, f->arr, f->at, j, cj_t_int64, f->sub);
    if (item != NULL) {
        cj_array_setitem(L, f->out, f->rt, i, cj_t_int64, item, f->sub, f->sub);
    }
}

/* a[idx] = v's element i: a[idx[i]] = v, or v[i] (v[0] when v's first length is 1). */
static void put_one(cj_lower *L, LLVMValueRef i, void *ctx) {
    const fancy *f = ctx;
    LLVMValueRef j = cj_cast(L, cj_load_element(L, element_at(L, f->idx, i), f->it->dtype),
                             f->it->dtype, cj_t_int64);
    LLVMValueRef v = f->val;
    const cj_type *vt = f->vt;
    if (vt->kind == CJ_ARRAY && vt->ndim == f->at->ndim) {
        LLVMValueRef one = LLVMBuildICmp(L->b, LLVMIntEQ, cj_array_dim(L, v, CJ_ARR_SHAPE, 0),
                                         cj_i64(L, 1), "");
        LLVMValueRef k = LLVMBuildSelect(L->b, one, cj_i64(L, 0), i, "");
        vt = vt->ndim == 1 ? vt->dtype : cj_type_array(vt->dtype, vt->ndim - 1, 'A', 0);
        v = cj_array_getitem(L, f->val, f->vt, k, cj_t_int64, vt);
    }
    if (v != NULL) {
        cj_array_setitem(L, f->arr, f->at, j, cj_t_int64, v, vt, f->sub);
    }
}

static const cj_type *sub_type(const cj_type *at) {
    return at->ndim == 1 ? at->dtype : cj_type_array(at->dtype, at->ndim - 1, 'A', 0);
}

LLVMValueRef cj_lower_fancy_getitem(cj_lower *L, cj_instr *in) {
    fancy f = {.arr = cj_load_var(L, in->args[0]), .idx = cj_load_var(L, in->args[1]),
               .at = CJ_VAR(L->ir, in->args[0])->type, .it = in->optype, .rt = in->rtype};
    f.sub = sub_type(f.at);
    LLVMValueRef shape[CJ_MAXDIM];
    if (f.it->dtype->kind == CJ_BOOL) {
        shape[0] = count_selected(L, &f);
        f.out = cj_new_array(L, f.rt, shape, 0);
        LLVMBuildStore(L->b, cj_i64(L, 0), f.slot);
        over_mask(L, &f, gather_one, &f);
        return f.out;
    }
    shape[0] = cj_array_dim(L, f.idx, CJ_ARR_SHAPE, 0);
    for (int d = 1; d < f.at->ndim; d++) {
        shape[d] = cj_array_dim(L, f.arr, CJ_ARR_SHAPE, d);
    }
    cj_emit_for(L, shape[0], check_one, &f); /* nothing raises once the array is made */
    f.out = cj_new_array(L, f.rt, shape, 0);
    cj_emit_for(L, shape[0], take_one, &f);
    return f.out;
}

int cj_lower_fancy_setitem(cj_lower *L, cj_instr *in) {
    fancy f = {.arr = cj_load_var(L, in->args[0]), .idx = cj_load_var(L, in->args[1]),
               .val = cj_load_var(L, in->args[2]), .at = CJ_VAR(L->ir, in->args[0])->type,
               .it = in->optype, .vt = CJ_VAR(L->ir, in->args[2])->type};
    f.sub = sub_type(f.at);
    if (f.it->dtype->kind == CJ_BOOL) {
        if (f.vt->kind == CJ_ARRAY) {
            LLVMValueRef n = count_selected(L, &f);
            cj_emit_raise_if(L, LLVMBuildICmp(L->b, LLVMIntNE, n,
                                              cj_array_dim(L, f.val, CJ_ARR_SHAPE, 0), ""),
                             CJ_EXC_MASK_VALUES);
            LLVMBuildStore(L->b, cj_i64(L, 0), f.slot);
        }
        over_mask(L, &f, scatter_one, &f);
        return PyErr_Occurred() ? -1 : 0;
    }
    cj_emit_for(L, cj_array_dim(L, f.idx, CJ_ARR_SHAPE, 0), put_one, &f);
    return PyErr_Occurred() ? -1 : 0;
}
