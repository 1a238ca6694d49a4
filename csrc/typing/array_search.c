/* array_search.c: typing of the searches (cj_builtin_searches), on the CPU target:
 *   np.nonzero(a), a.nonzero(), np.where(a)  a tuple of max(a.ndim, 1) new 1-D C int64 arrays
 *                                            (numba's); a number counts as a 0-d array, and a
 *                                            0-d one is numba's error under NumPy >= 2.1;
 *   np.argwhere(a)                           a new (count, a.ndim) C int64 array;
 *   np.searchsorted(a, v, side='left')       side a constant 'left' or 'right' (numba's
 *                                            ValueError text otherwise), a 1-D, v a number or
 *                                            an array: a call of cujit.np.arraymath's
 *                                            searchsorted (v a number: int64) or
 *                                            searchsorted_array (an int64 array of v's shape),
 *                                            the side passed as the constant `right`.
 * nonzero and argwhere are CJ_CALL_BUILTIN (CJ_CALL_METHOD for a.nonzero()) records of
 * builtin NP_NONZERO / NP_ARGWHERE whose one argument is the array, lowered by
 * lower/lower_array_search.c. */
#include "typing/infer_internal.h"

#include <string.h>

#include "util/npy.h"

/* NPY_2_1_API_VERSION, spelled out: the headers of NumPy 1.x do not define it. */
#define CJ_NUMPY_2_1_FEATURES 0x13

int cj_search_method_by_name(const char *name) {
    return strcmp(name, "nonzero") == 0 ? CJ_B_NP_NONZERO : -1;
}

/* np.nonzero / a.nonzero() / np.where(c) / np.argwhere of `at` (an array or a number). */
static int type_indices(cj_infer_ctx *c, cj_instr *in, int id, int var, const cj_type *at,
                        int method, const cj_type **out) {
    const char *name = id == CJ_B_NP_ARGWHERE ? "np.argwhere"
                       : id == CJ_B_NP_WHERE  ? "np.where"
                       : method               ? "array.nonzero"
                                              : "np.nonzero";
    if (at->kind != CJ_ARRAY && !cj_type_is_number(at)) {
        return cj_typing_error(c, in, "%s() takes an array or a number, not %s", name,
                               at->name);
    }
    int ndim = at->kind == CJ_ARRAY ? at->ndim : 0;
    if (ndim == 0 && id != CJ_B_NP_ARGWHERE &&
        PyArray_GetNDArrayCFeatureVersion() >= CJ_NUMPY_2_1_FEATURES) {
        return cj_typing_error(c, in, "Calling nonzero on 0d arrays is not allowed. Use "
                                      "np.atleast_1d(scalar).nonzero() instead.");
    }
    cj_call *call = cj_call_record(c, in, method ? CJ_CALL_METHOD : CJ_CALL_BUILTIN,
                                   method ? 0 : 1);
    if (call == NULL) {
        return -1;
    }
    call->builtin = id == CJ_B_NP_ARGWHERE ? CJ_B_NP_ARGWHERE : CJ_B_NP_NONZERO;
    if (!method) {
        call->args[0] = var;
        call->argtypes[0] = at;
    }
    const cj_type *index = cj_type_array(cj_t_int64, id == CJ_B_NP_ARGWHERE ? 2 : 1, 'C', 0);
    if (index == NULL || id == CJ_B_NP_ARGWHERE) {
        *out = index;
        return index ? 1 : -1;
    }
    const cj_type *items[CJ_MAXDIM];
    int n = ndim > 1 ? ndim : 1;
    for (int i = 0; i < n; i++) {
        items[i] = index;
    }
    *out = cj_type_tuple(n, items);
    return *out ? 1 : -1;
}

/* np.searchsorted(a, v, side='left'): the side read now, the search compiled from Python. */
static int type_searchsorted(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    static const char *const names[] = {"a", "v", "side"};
    int vars[3];
    if (cj_fold_args(c, in, 1, names, 3, vars) < 0) {
        return -1;
    }
    if (vars[0] < 0 || vars[1] < 0) {
        return cj_typing_error(c, in, "np.searchsorted() missing argument '%s'",
                               vars[0] < 0 ? "a" : "v");
    }
    int right = 0;
    if (vars[2] >= 0) {
        PyObject *side = cj_const_of(c, vars[2]);
        const cj_type *st = cj_vt(c, vars[2]);
        if (side == NULL && st->kind == CJ_OMITTED) {
            side = st->obj;
        }
        if (side == NULL || !PyUnicode_Check(side)) {
            return cj_typing_error(c, in, "np.searchsorted(): side must be a constant string, "
                                          "'left' or 'right', not %s", st->name);
        }
        const char *s = PyUnicode_AsUTF8(side);
        if (s == NULL) {
            return -1;
        }
        if (strcmp(s, "left") != 0 && strcmp(s, "right") != 0) {
            return cj_typing_error(c, in, "Invalid value given for 'side': %s", s);
        }
        right = strcmp(s, "right") == 0;
    }
    const cj_type *at = cj_vt(c, vars[0]), *vt = cj_vt(c, vars[1]);
    if (at->kind != CJ_ARRAY || at->ndim != 1) {
        return cj_typing_error(c, in, "np.searchsorted(): a must be a 1-D array, not %s",
                               at->name);
    }
    if (vt->kind != CJ_ARRAY && !cj_type_is_number(vt)) {
        return cj_typing_error(c, in, "np.searchsorted(): v must be a number or an array, "
                                      "not %s", vt->name);
    }
    int args[3] = {vars[0], vars[1], -1};
    PyObject *consts[3] = {NULL, NULL, right ? Py_True : Py_False};
    return cj_type_library_helper_call(c, in, vt->kind == CJ_ARRAY ? "searchsorted_array"
                                                                    : "searchsorted",
                                       3, args, consts, out);
}

int cj_type_array_search(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                         const cj_type **out) {
    const char *name = cj_builtin_table[id].attr;
    if (c->env->target != CJ_TARGET_CPU) {
        return cj_unsupported_error(c, in, "np.%s() is not supported in CUDA code", name);
    }
    if (id == CJ_B_NP_SEARCHSORTED) {
        return type_searchsorted(c, in, out);
    }
    int npos = in->nargs - 1 - in->index;
    if (in->index > 0 || npos != (receiver ? 0 : 1)) {
        return cj_typing_error(c, in, "%s%s() takes %s", receiver ? "array." : "np.", name,
                               receiver ? "no arguments" : "one positional argument");
    }
    if (receiver) {
        return type_indices(c, in, id, -1, receiver, 1, out);
    }
    return type_indices(c, in, id, in->args[1], cj_vt(c, in->args[1]), 0, out);
}
