/* array_join.c: typing of the functions that join arrays (numba's rules and words):
 * np.concatenate(arrays, axis=0) and np.stack(arrays, axis=0) (axis a constant or run-time
 * int, negative from the end; out of range is NumPy's AxisError at run time), np.hstack,
 * np.vstack, np.dstack and np.column_stack(tup), where `arrays` / `tup` is a non-empty tuple
 * of arrays (a UniTuple, a heterogeneous Tuple, or a list literal written in the call) of one
 * rank (column_stack: 1-d and 2-d mixed); the result's dtype is NumPy's promotion of theirs,
 * its layout 'F' when every input is 'F', else 'C' (numba's). np.atleast_1d/2d/3d(a, ...) of
 * arrays: a view of each with 1-sized axes inserted (numba's places) in its layout; a tuple of
 * them for several.
 * The call record holds (arrays, axis): the axis a variable, or -1 with its constant (NULL:
 * the function's own axis). Lowering: lower/lower_array_join.c. */
#include "typing/infer_internal.h"

/* The result's rank for inputs of rank `ndim` (numba's). */
static int joined_ndim(int id, int ndim) {
    switch (id) {
    case CJ_B_NP_STACK:
        return ndim + 1;
    case CJ_B_NP_HSTACK:
    case CJ_B_NP_ATLEAST_1D:
        return ndim > 1 ? ndim : 1;
    case CJ_B_NP_VSTACK:
    case CJ_B_NP_COLUMN_STACK:
    case CJ_B_NP_ATLEAST_2D:
        return ndim > 2 ? ndim : 2;
    case CJ_B_NP_DSTACK:
    case CJ_B_NP_ATLEAST_3D:
        return ndim > 3 ? ndim : 3;
    default:
        return ndim;
    }
}

/* np.atleast_<k>d(a): a's view; of several arrays (at most 256), a tuple of their views. */
static int type_atleast(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const char *name = cj_builtin_table[id].attr;
    int n = in->nargs - 1;
    if (in->index > 0 || n < 1 || n > 256) {
        return cj_typing_error(c, in, "np.%s() takes one array or more, and no keywords",
                               name);
    }
    const cj_type *items[256];
    for (int i = 0; i < n; i++) {
        const cj_type *at = cj_vt(c, in->args[i + 1]);
        if (at->kind != CJ_ARRAY) {
            return cj_typing_error(c, in, "np.%s() takes arrays, not %s", name, at->name);
        }
        items[i] = cj_type_array(at->dtype, joined_ndim(id, at->ndim), at->layout,
                                 at->readonly);
        if (items[i] == NULL) {
            return -1;
        }
    }
    if (cj_plain_call(c, in, CJ_CALL_BUILTIN, id) == NULL) {
        return -1;
    }
    *out = n == 1 ? items[0] : cj_type_tuple(n, items);
    return *out ? 1 : -1;
}

/* The inputs' rank and promoted dtype (*dtype), or -1 with numba's TypingError. */
static int check_arrays(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *tt,
                        const cj_type **dtype, char *layout) {
    const char *name = cj_builtin_table[id].attr;
    int ok = tt->kind == CJ_TUPLE && tt->n > 0;
    for (int i = 0; ok && i < tt->n; i++) {
        ok = tt->items[i]->kind == CJ_ARRAY;
    }
    if (!ok) {
        return cj_typing_error(c, in, "np.%s(): expecting a non-empty tuple of arrays, got %s",
                               name, tt->name);
    }
    int ndim = tt->items[0]->ndim;
    *dtype = tt->items[0]->dtype;
    *layout = 'F';
    for (int i = 0; i < tt->n; i++) {
        const cj_type *a = tt->items[i];
        if (id == CJ_B_NP_COLUMN_STACK && (a->ndim < 1 || a->ndim > 2)) {
            return cj_typing_error(c, in, "np.column_stack() is only defined on 1-d and 2-d "
                                          "arrays");
        }
        if (id != CJ_B_NP_COLUMN_STACK && a->ndim != ndim) {
            return cj_typing_error(c, in, "np.%s(): all the input arrays must have same number "
                                          "of dimensions", name);
        }
        *dtype = cj_promote(*dtype, a->dtype);
        if (*dtype == NULL) {
            return cj_typing_error(c, in, "np.%s(): input arrays must have compatible dtypes",
                                   name);
        }
        *layout = a->layout == 'F' ? *layout : 'C';
    }
    if (id == CJ_B_NP_CONCATENATE && ndim == 0) {
        return cj_typing_error(c, in, "zero-dimensional arrays cannot be concatenated");
    }
    return ndim;
}

int cj_type_array_join(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    static const char *const axis_names[] = {"arrays", "axis"};
    static const char *const tup_names[] = {"tup"};
    const char *name = cj_builtin_table[id].attr;
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "np.%s() is not supported in CUDA code", name);
    }
    if (!cj_builtin_joins_fresh(id)) {
        return type_atleast(c, in, id, out);
    }
    int takes_axis = id == CJ_B_NP_CONCATENATE || id == CJ_B_NP_STACK, v[2] = {-1, -1};
    if (cj_fold_args(c, in, 1, takes_axis ? axis_names : tup_names, takes_axis ? 2 : 1, v) < 0) {
        return -1;
    }
    if (v[0] < 0) {
        return cj_typing_error(c, in, "np.%s() is missing its arrays", name);
    }
    const cj_type *tt = cj_vt(c, v[0]), *dtype = NULL;
    char layout = 'C';
    int ndim = check_arrays(c, in, id, tt, &dtype, &layout);
    if (ndim < 0) {
        return -1;
    }
    const cj_type *axis_t = v[1] >= 0 ? cj_vt(c, v[1]) : NULL;
    if (axis_t != NULL && axis_t->kind != CJ_INT) {
        return cj_typing_error(c, in, "np.%s(): axis must be an integer, not %s%s", name,
                               axis_t->name, axis_t->kind == CJ_NONE ? " (axis=None is not "
                                                                       "supported, as in numba)"
                                                                     : "");
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_BUILTIN, 2);
    if (call == NULL) {
        return -1;
    }
    PyObject *constant = v[1] >= 0 ? cj_const_of(c, v[1]) : NULL;
    call->builtin = id;
    call->args[0] = v[0];
    call->argtypes[0] = tt;
    call->args[1] = constant && PyLong_Check(constant) ? -1 : v[1];
    call->defaults[1] = constant && PyLong_Check(constant) ? constant : NULL;
    call->argtypes[1] = axis_t;
    *out = cj_type_array(dtype, joined_ndim(id, ndim), layout, 0);
    return *out ? 1 : -1;
}
