/* lower_array_methods.c: a.copy() / np.copy(a) and a.astype(t): a new C-contiguous array the
 * call hands over, written in C order while the source is read with any strides (with the
 * element cast for astype); a.fill(v); a.transpose() / np.transpose(a) / a.T: a view with the
 * dimensions reversed, sharing the receiver's data, parent and allocation. */
#include "lower/lower_internal.h"

typedef struct copying {
    const cj_type *from, *to;
    LLVMValueRef cursor; /* slot: the i8* of the next element to write */
} copying;

static void copy_element(cj_lower *L, LLVMValueRef ptr, void *ctx) {
    const copying *c = ctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx), i8p = LLVMPointerType(i8, 0);
    LLVMValueRef v = cj_cast(L, cj_load_element(L, ptr, c->from), c->from, c->to);
    LLVMValueRef at = LLVMBuildLoad2(L->b, i8p, c->cursor, "");
    cj_store_element(L, at, v, c->to);
    LLVMValueRef step = cj_i64(L, (long long)cj_abi_size(c->to));
    LLVMBuildStore(L->b, LLVMBuildGEP2(L->b, i8, at, &step, 1, ""), c->cursor);
}

LLVMValueRef cj_array_copy(cj_lower *L, LLVMValueRef arr, const cj_type *at, const cj_type *rt) {
    LLVMValueRef shape[CJ_MAXDIM];
    for (int d = 0; d < at->ndim; d++) {
        shape[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
    }
    LLVMValueRef out = cj_new_array(L, rt, shape, 0);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    copying c = {.from = at->dtype, .to = rt->dtype,
                 .cursor = cj_entry_alloca(L, i8p, "cursor")};
    LLVMBuildStore(L->b, LLVMBuildBitCast(L->b, LLVMBuildExtractValue(L->b, out, CJ_ARR_DATA, ""),
                                          i8p, ""), c.cursor);
    cj_array_for_each(L, arr, at, copy_element, &c);
    return out;
}

LLVMValueRef cj_array_transpose(cj_lower *L, LLVMValueRef arr, const cj_type *at) {
    LLVMValueRef v = arr;
    for (int field = CJ_ARR_SHAPE; field <= CJ_ARR_STRIDES; field++) {
        LLVMValueRef dims = LLVMBuildExtractValue(L->b, arr, (unsigned)field, "");
        LLVMValueRef rev = dims;
        for (int d = 0; d < at->ndim; d++) {
            rev = LLVMBuildInsertValue(L->b, rev,
                                       LLVMBuildExtractValue(L->b, dims,
                                                             (unsigned)(at->ndim - 1 - d), ""),
                                       (unsigned)d, "");
        }
        v = LLVMBuildInsertValue(L->b, v, rev, (unsigned)field, "");
    }
    return v;
}

LLVMValueRef cj_lower_array_method(cj_lower *L, int id, LLVMValueRef arr, const cj_type *at,
                                   cj_instr *in, const cj_call *call, int first_arg) {
    switch (id) {
    case CJ_B_NP_COPY:
    case CJ_B_METH_ASTYPE:
        return cj_array_copy(L, arr, at, in->rtype);
    case CJ_B_NP_TRANSPOSE:
        return cj_array_transpose(L, arr, at);
    default: { /* fill */
        int var = call->args[first_arg];
        const cj_type *vt = CJ_VAR(L->ir, var)->type;
        cj_fill_array(L, arr, at, cj_cast(L, cj_load_var(L, var), vt, at->dtype));
        return cj_empty(L);
    }
    }
}
