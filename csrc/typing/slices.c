/* slices.c: typing of slices: `a[b:c:d]`'s BUILD_SLICE and the built-in slice(stop),
 * slice(start, stop[, step]), which becomes that BUILD_SLICE (numba's SliceType: slice2_type
 * without a step, slice3_type with one), so a slice object indexes whatever a slice in
 * brackets indexes. requires: the parts' types; produces: the slice type (a one-part
 * BUILD_SLICE is slice(stop): lower.c reads its part as the stop). */
#include "typing/infer_internal.h"

int cj_type_build_slice(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    for (int i = 0; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (t == NULL) {
            return 0;
        }
        if (!cj_type_is_integer(t) && t->kind != CJ_NONE) {
            return cj_typing_error(c, in, "slice indices must be integers or None, not %s",
                                   t->name);
        }
    }
    *out = cj_type_slice(in->nargs == 3 ? 3 : 2);
    return *out ? 1 : -1;
}

int cj_type_slice_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int n = in->nargs - 1;
    if (in->index > 0) {
        return cj_typing_error(c, in, "slice() takes no keyword arguments");
    }
    if (n < 1 || n > 3) { /* CPython's words */
        return cj_typing_error(c, in, "slice expected at %s, got %d",
                               n < 1 ? "least 1 argument" : "most 3 arguments", n);
    }
    in->op = CJ_I_BUILD_SLICE; /* the callee goes: the arguments are the parts */
    in->args = in->args + 1;
    in->nargs = n;
    in->resolved = NULL;
    return cj_type_build_slice(c, in, out);
}
