/* lower_record.c: records' fields (typing/record_access.c resolved them: CJ_SUB_FIELD, index).
 * A record is a pointer to its bytes (lower_types.c); a field is read or written at its
 * dtype offset, with the alignment the offset and the record's alignment guarantee (a packed
 * dtype's fields may sit at any byte). A nested record is a pointer into its parent; an array
 * field is a C-contiguous array over the record's bytes (no parent, no allocation); a field of
 * an array of records (a.x) is a view of the array at the field's offset. */
#include "lower/lower_internal.h"

/* The alignment a field at `offset` of record `t` has for a value of natural alignment
 * `natural`: the largest power of two dividing both the offset and the record's alignment. */
static unsigned field_align(const cj_type *t, int64_t offset, size_t natural) {
    size_t a = natural;
    while (a > 1 && ((size_t)offset % a != 0 || (size_t)t->alignment % a != 0)) {
        a /= 2;
    }
    return (unsigned)a;
}

static LLVMValueRef field_ptr(cj_lower *L, LLVMValueRef rec, const cj_field *f) {
    LLVMValueRef off = cj_i64(L, f->offset);
    return LLVMBuildInBoundsGEP2(L->b, LLVMInt8TypeInContext(L->ctx), rec, &off, 1, f->name);
}

/* An array field: {data, null parent, shape, C strides, null meminfo} over the record. */
static LLVMValueRef array_field(cj_lower *L, LLVMValueRef p, const cj_field *f) {
    const cj_type *at = f->type;
    LLVMValueRef v = LLVMConstNull(cj_llvm_type(L->ctx, at));
    LLVMTypeRef elem_p = LLVMPointerType(cj_elem_type(L->ctx, at->dtype), 0);
    v = LLVMBuildInsertValue(L->b, v, LLVMBuildBitCast(L->b, p, elem_p, ""), CJ_ARR_DATA, "");
    long long stride = (long long)cj_abi_size(at->dtype);
    for (int d = at->ndim - 1; d >= 0; d--) {
        LLVMValueRef sh = LLVMBuildExtractValue(L->b, v, CJ_ARR_SHAPE, "");
        LLVMValueRef st = LLVMBuildExtractValue(L->b, v, CJ_ARR_STRIDES, "");
        sh = LLVMBuildInsertValue(L->b, sh, cj_i64(L, f->shape[d]), (unsigned)d, "");
        st = LLVMBuildInsertValue(L->b, st, cj_i64(L, stride), (unsigned)d, "");
        v = LLVMBuildInsertValue(L->b, v, sh, CJ_ARR_SHAPE, "");
        v = LLVMBuildInsertValue(L->b, v, st, CJ_ARR_STRIDES, "");
        stride *= f->shape[d];
    }
    return v;
}

LLVMValueRef cj_record_field(cj_lower *L, LLVMValueRef rec, const cj_type *t, int i) {
    const cj_field *f = &t->fields[i];
    LLVMValueRef p = field_ptr(L, rec, f);
    if (f->type->kind == CJ_RECORD) {
        return p;
    }
    if (f->type->kind == CJ_ARRAY) {
        return array_field(L, p, f);
    }
    LLVMTypeRef et = cj_elem_type(L->ctx, f->type);
    p = LLVMBuildBitCast(L->b, p, LLVMPointerType(et, 0), "");
    LLVMValueRef v = LLVMBuildLoad2(L->b, et, p, f->name);
    LLVMSetAlignment(v, field_align(t, f->offset, cj_abi_align(f->type)));
    if (f->type->kind == CJ_BOOL) {
        v = LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(et), "");
    }
    return v;
}

int cj_record_set_field(cj_lower *L, LLVMValueRef rec, const cj_type *t, int i, LLVMValueRef v,
                        const cj_type *vt) {
    const cj_field *f = &t->fields[i];
    LLVMValueRef value = cj_cast(L, v, vt, f->type); /* numba casts to the field's type */
    if (value == NULL) {
        return -1;
    }
    LLVMTypeRef et = cj_elem_type(L->ctx, f->type);
    if (f->type->kind == CJ_BOOL) {
        value = LLVMBuildZExt(L->b, value, et, "");
    }
    LLVMValueRef p = LLVMBuildBitCast(L->b, field_ptr(L, rec, f), LLVMPointerType(et, 0), "");
    LLVMValueRef st = LLVMBuildStore(L->b, value, p);
    LLVMSetAlignment(st, field_align(t, f->offset, cj_abi_align(f->type)));
    return 0;
}

LLVMValueRef cj_record_array_field(cj_lower *L, LLVMValueRef arr, const cj_type *at, int i,
                                   const cj_type *rt) {
    LLVMValueRef shape[CJ_MAXDIM], strides[CJ_MAXDIM];
    for (int d = 0; d < at->ndim; d++) {
        shape[d] = cj_array_dim(L, arr, CJ_ARR_SHAPE, d);
        strides[d] = cj_array_dim(L, arr, CJ_ARR_STRIDES, d);
    }
    return cj_array_view(L, arr, cj_i64(L, at->dtype->fields[i].offset), at->ndim, shape,
                         strides, rt);
}
