/* array_reduce.c: typing of the reductions of arrays, np.sum(a) and a.sum(), and prod,
 * min/amin, max/amax, mean, any, all, var, std, argmin, argmax, cumsum, cumprod (functions and
 * methods), nansum, nanprod, nanmean, nanmin, nanmax, median, count_nonzero (functions), with
 * numba's result types (cj_reduce_result). sum ... mean also take axis= (an int, positional
 * or keyword; None is the whole array): an array of one rank less, a number from a 1-D array;
 * var and std take ddof= (NumPy's; numba has none). dtype=, out= and the other keywords are
 * not supported yet: an UnsupportedError names them.
 * Lowering: lower/lower_array_reduce.c, lower_reduce_axis.c, lower_reduce_scan.c. */
#include "typing/infer_internal.h"

#include <string.h>

const cj_type *cj_reduce_result(int id, const cj_type *dtype) {
    switch (id) {
    case CJ_B_NP_SUM:
    case CJ_B_NP_PROD:
    case CJ_B_NP_NANSUM:
    case CJ_B_NP_NANPROD:
    case CJ_B_NP_CUMSUM: /* the element type of the result */
    case CJ_B_NP_CUMPROD:
        if (dtype->kind == CJ_BOOL) {
            return cj_t_int64;
        }
        return dtype->kind == CJ_INT ? (dtype->is_signed ? cj_t_int64 : cj_t_uint64) : dtype;
    case CJ_B_NP_MEAN:
        return cj_type_is_integer(dtype) ? cj_t_float64 : dtype;
    case CJ_B_NP_NANMEAN: /* numba sums in float64 or complex128 */
        return dtype->kind == CJ_COMPLEX ? cj_type_complex(128) : cj_t_float64;
    case CJ_B_NP_VAR:
    case CJ_B_NP_STD:
    case CJ_B_NP_MEDIAN:
        return cj_t_float64;
    case CJ_B_NP_ARGMIN:
    case CJ_B_NP_ARGMAX:
    case CJ_B_NP_COUNT_NONZERO:
        return cj_t_int64;
    case CJ_B_NP_ANY:
    case CJ_B_NP_ALL:
        return cj_t_bool;
    default:
        return dtype;
    }
}

int cj_reduction_by_name(const char *name) {
    for (int id = CJ_B_NP_SUM; id <= CJ_B_NP_CUMPROD; id++) { /* numba's array methods */
        if (strcmp(cj_builtin_table[id].attr, name) == 0) {
            return id;
        }
    }
    return -1;
}

static int takes_axis(int id) { return id >= CJ_B_NP_SUM && id <= CJ_B_NP_MEAN; }

/* The parameter a keyword names: 0 the array (the function's), 1 axis, 2 ddof (var, std);
 * -1 for any other. */
static int param_of(const char *kw, int id, const cj_type *receiver) {
    if (strcmp(kw, "axis") == 0) {
        return 1;
    }
    if (strcmp(kw, "a") == 0 && receiver == NULL) {
        return 0;
    }
    return strcmp(kw, "ddof") == 0 && (id == CJ_B_NP_VAR || id == CJ_B_NP_STD) ? 2 : -1;
}

/* The variables (-1: absent) of the array, axis= and ddof= of the function or method form. */
static int fold(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver, int vars[3]) {
    const char *name = cj_builtin_table[id].attr, *form = receiver ? "array." : "np.";
    int nkw = in->index, npos = in->nargs - 1 - nkw, first = receiver ? 1 : 0;
    vars[0] = vars[1] = vars[2] = -1;
    if (npos > 2 - first) {
        return cj_unsupported_error(c, in, "%s%s() with arguments beyond the array and axis "
                                           "(dtype=, out=) is not supported yet", form, name);
    }
    for (int i = 0; i < npos; i++) {
        vars[first + i] = in->args[1 + i];
    }
    for (int k = 0; k < nkw; k++) {
        const char *kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(in->obj, k));
        if (kw == NULL) {
            return -1;
        }
        int p = param_of(kw, id, receiver);
        if (p < 0) {
            return cj_unsupported_error(c, in, "%s%s() with the keyword argument %s= is not "
                                               "supported yet", form, name, kw);
        }
        if (vars[p] != -1) {
            return cj_typing_error(c, in, "%s%s() got multiple values for argument '%s'",
                                   form, name, kw);
        }
        vars[p] = in->args[1 + npos + k];
    }
    if (vars[1] >= 0 && !takes_axis(id)) {
        return cj_unsupported_error(c, in, "%s%s() with an axis is not supported yet", form,
                                    name);
    }
    return 0;
}

/* The call record: the function's (array, axis, ddof), the method's (axis, ddof); an absent
 * or None axis is the default None, a constant int the default of that value, else the
 * variable; ddof its variable or the default None. */
static int record(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                  const int vars[3]) {
    int first = receiver ? 1 : 0, n = 3 - first;
    cj_call *call = cj_call_record(c, in, receiver ? CJ_CALL_METHOD : CJ_CALL_BUILTIN, n);
    if (call == NULL) {
        return -1;
    }
    call->builtin = id;
    if (!receiver) {
        call->args[0] = vars[0];
        call->argtypes[0] = cj_vt(c, vars[0]);
    }
    const cj_type *axis_t = vars[1] >= 0 ? cj_vt(c, vars[1]) : cj_t_none;
    PyObject *constant = vars[1] >= 0 ? cj_const_of(c, vars[1]) : NULL;
    int i = 1 - first;
    call->args[i] = axis_t->kind == CJ_NONE || (constant && PyLong_Check(constant)) ? -1
                                                                                   : vars[1];
    call->defaults[i] = axis_t->kind == CJ_NONE ? Py_None : constant;
    call->argtypes[i] = axis_t;
    const cj_type *ddof_t = vars[2] >= 0 ? cj_vt(c, vars[2]) : cj_t_none;
    call->args[i + 1] = ddof_t->kind == CJ_NONE ? -1 : vars[2];
    call->defaults[i + 1] = Py_None;
    call->argtypes[i + 1] = ddof_t;
    return 0;
}

int cj_type_array_reduce(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                         const cj_type **out) {
    const char *name = cj_builtin_table[id].attr;
    int vars[3];
    if (fold(c, in, id, receiver, vars) < 0) {
        return -1;
    }
    const cj_type *ddof_t = vars[2] >= 0 ? cj_vt(c, vars[2]) : cj_t_none;
    if (ddof_t == NULL) {
        return 0;
    }
    if (ddof_t->kind != CJ_NONE && (!cj_type_is_number(ddof_t) || ddof_t->kind == CJ_COMPLEX)) {
        return cj_typing_error(c, in, "np.%s(): ddof must be a real number, not %s", name,
                               ddof_t->name);
    }
    const cj_type *at = receiver ? receiver : vars[0] >= 0 ? cj_vt(c, vars[0]) : NULL;
    const cj_type *axis_t = vars[1] >= 0 ? cj_vt(c, vars[1]) : cj_t_none;
    if ((vars[0] >= 0 && at == NULL) || axis_t == NULL) {
        return 0;
    }
    if (at == NULL || at->kind != CJ_ARRAY) {
        return cj_typing_error(c, in, "np.%s() takes an array in cujit, not %s", name,
                               at ? at->name : "nothing");
    }
    int has_axis = axis_t->kind != CJ_NONE;
    if (has_axis && (axis_t->kind != CJ_INT)) {
        return cj_typing_error(c, in, "np.%s(): axis must be an integer, not %s", name,
                               axis_t->name);
    }
    int complex_unsupported = id == CJ_B_NP_ARGMIN || id == CJ_B_NP_ARGMAX ||
                              id == CJ_B_NP_MEDIAN; /* as numba */
    if (at->dtype->kind == CJ_COMPLEX && complex_unsupported) {
        return cj_unsupported_error(c, in, "%s() of complex arrays is not supported yet", name);
    }
    const cj_type *elem = cj_reduce_result(id, at->dtype);
    int cumulative = id == CJ_B_NP_CUMSUM || id == CJ_B_NP_CUMPROD;
    int new_array = cumulative || id == CJ_B_NP_MEDIAN || (has_axis && at->ndim >= 2);
    if (new_array && c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "np.%s()%s is not supported in CUDA code", name,
                                    has_axis ? " with an axis" : "");
    }
    if (record(c, in, id, receiver, vars) < 0) {
        return -1;
    }
    *out = cumulative ? cj_type_array(elem, 1, 'C', 0)
           : has_axis && at->ndim >= 2 ? cj_type_array(elem, at->ndim - 1, 'C', 0)
                                       : elem;
    return *out ? 1 : -1;
}
