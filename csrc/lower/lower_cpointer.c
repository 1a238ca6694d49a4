/* lower_cpointer.c: indexing a C pointer (numba's CPointer; typed by typing/cpointer.c), as
 * numba's getitem_cpointer/setitem_cpointer: the element at p + i, with no bounds check and no
 * wrap of a negative index (a pointer knows no length). A pointer is the element's address
 * in its memory type (lower_types.c); ffi.from_buffer's is cj_cast's array -> pointer. */
#include "lower/lower_internal.h"

/* The address of element `idx_var` of pointer `ptr_var` (an i64 offset in elements). */
static LLVMValueRef element_at(cj_lower *L, int ptr_var, int idx_var) {
    const cj_type *pt = CJ_VAR(L->ir, ptr_var)->type;
    LLVMValueRef i = cj_cast(L, cj_load_var(L, idx_var), CJ_VAR(L->ir, idx_var)->type,
                             cj_t_int64);
    return LLVMBuildGEP2(L->b, cj_elem_type(L->ctx, pt->dtype), cj_load_var(L, ptr_var), &i, 1,
                         "elem");
}

int cj_lower_cpointer_getitem(cj_lower *L, cj_instr *in) {
    const cj_type *pt = CJ_VAR(L->ir, in->args[0])->type;
    LLVMValueRef v = cj_load_element(L, element_at(L, in->args[0], in->args[1]), pt->dtype);
    return cj_store_var(L, in->dst, v, pt->dtype);
}

int cj_lower_cpointer_setitem(cj_lower *L, cj_instr *in) {
    const cj_type *pt = CJ_VAR(L->ir, in->args[0])->type;
    LLVMValueRef v = cj_cast(L, cj_load_var(L, in->args[2]), CJ_VAR(L->ir, in->args[2])->type,
                             pt->dtype);
    if (v == NULL) {
        return -1;
    }
    cj_store_element(L, element_at(L, in->args[0], in->args[1]), v, pt->dtype);
    return 0;
}
