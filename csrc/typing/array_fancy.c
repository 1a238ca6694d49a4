/* array_fancy.c: typing of indexing an array with an array (numba's one advanced index):
 *   a[mask]      mask a bool array of a's shape: a new 1-D C array of the selected elements;
 *   a[idx]       idx a 1-D integer array: a new C array, a.shape with its first length
 *                replaced by len(idx) (negative indices count from the end);
 *   a[mask] = v  v a number, or a 1-D array of as many elements as the mask selects;
 *   a[idx] = v   v a number, or an array broadcasting to a[idx]'s shape.
 * in->optype is the index type. Lowering: lower/lower_array_fancy.c. */
#include "typing/infer_internal.h"

/* 1: a mask, 2: an integer index array, 0: neither (an error is set, -1 returned, when it is
 * an array index cujit does not take). */
static int fancy_kind(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx) {
    if (idx->dtype->kind == CJ_BOOL) {
        if (idx->ndim != t->ndim) {
            return cj_typing_error(c, in, "a boolean index must have the array's %d "
                                          "dimension%s, not %d", t->ndim,
                                   t->ndim == 1 ? "" : "s", idx->ndim);
        }
        return 1;
    }
    if (cj_type_is_integer(idx->dtype) && idx->ndim == 1 && t->ndim >= 1) {
        return 2;
    }
    return cj_unsupported_error(c, in, "indexing %s with %s is not supported (one 1-D integer "
                                       "array or a boolean mask of the array's shape is)",
                                t->name, idx->name);
}

int cj_type_fancy_getitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                          const cj_type **out) {
    int kind = fancy_kind(c, in, t, idx);
    if (kind < 0) {
        return -1;
    }
    in->optype = idx;
    *out = cj_type_array(t->dtype, kind == 1 ? 1 : t->ndim, 'C', 0);
    return *out ? 1 : -1;
}

int cj_type_fancy_setitem(cj_infer_ctx *c, cj_instr *in, const cj_type *t, const cj_type *idx,
                          const cj_type *val) {
    int kind = fancy_kind(c, in, t, idx);
    if (kind < 0) {
        return -1;
    }
    int complex_into_real = val->kind != CJ_ARRAY && val->kind == CJ_COMPLEX &&
                            t->dtype->kind != CJ_COMPLEX;
    if (val->kind == CJ_ARRAY) {
        complex_into_real = val->dtype->kind == CJ_COMPLEX && t->dtype->kind != CJ_COMPLEX;
    }
    int fits = cj_type_is_number(val) ||
               (val->kind == CJ_ARRAY && (kind == 1 ? val->ndim == 1 : val->ndim <= t->ndim));
    if (!fits || complex_into_real) {
        return cj_typing_error(c, in, "cannot assign %s to %s indexed by %s", val->name,
                               t->name, idx->name);
    }
    in->optype = idx;
    return 1;
}
