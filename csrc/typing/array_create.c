/* array_create.c: typing of the functions that make arrays from numbers (numba's rules):
 * np.arange(stop) / (start, stop[, step]) with dtype= (all ints: int64, any float: float64),
 * np.linspace(start, stop, num=50, endpoint=True) (float64; complex128 from complex numbers),
 * np.eye(N, M=None, k=0, dtype=float), np.identity(n, dtype=float), np.array(x, dtype=None) of
 * a number, a nested tuple (or list literal) of numbers (its shape known now: every level the
 * same length) or an array (a copy), and np.asarray(x, dtype=None) (an array of that dtype is
 * returned as it is). The results are new C-contiguous arrays, made by
 * lower/lower_array_create.c; the call record holds the folded arguments (-1 where left out). */
#include "typing/infer_internal.h"

#include <string.h>

int cj_fold_args(cj_infer_ctx *c, cj_instr *in, int first, const char *const *names,
                 int nparams, int *vars) {
    int nkw = in->index, npos = in->nargs - first - nkw;
    for (int p = 0; p < nparams; p++) {
        vars[p] = -1;
    }
    if (npos > nparams) {
        return cj_typing_error(c, in, "too many arguments");
    }
    for (int i = 0; i < npos; i++) {
        vars[i] = in->args[first + i];
    }
    for (int k = 0; k < nkw; k++) {
        const char *kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(in->obj, k));
        if (kw == NULL) {
            return -1;
        }
        int found = -1;
        for (int p = 0; p < nparams; p++) {
            found = strcmp(kw, names[p]) == 0 ? p : found;
        }
        if (found < 0 || vars[found] != -1) {
            return cj_typing_error(c, in, found < 0 ? "unexpected keyword argument '%s'"
                                                    : "multiple values for argument '%s'", kw);
        }
        vars[found] = in->args[first + npos + k];
    }
    return 0;
}

/* A variable given and not None. */
static int given(cj_infer_ctx *c, int var) {
    return var >= 0 && cj_vt(c, var)->kind != CJ_NONE;
}

static int real_number(const cj_type *t) {
    return t->kind == CJ_INT || t->kind == CJ_FLOAT;
}

/* The dtype= argument (default when not given); NULL with an exception when it is bad. */
static const cj_type *dtype_arg(cj_infer_ctx *c, cj_instr *in, int var, const char *fname,
                                const cj_type *dflt) {
    if (!given(c, var)) {
        return dflt;
    }
    const cj_type *dtype = cj_dtype_of_var(c, var);
    if (dtype == NULL) {
        cj_typing_error(c, in, "np.%s(): the dtype must be a NumPy number type known at "
                               "compile time, not %s", fname, cj_vt(c, var)->name);
    }
    return dtype;
}

static cj_call *record(cj_infer_ctx *c, cj_instr *in, int id, int n, const int *vars) {
    cj_call *call = cj_call_record(c, in, CJ_CALL_BUILTIN, n);
    if (call == NULL) {
        return NULL;
    }
    call->builtin = id;
    for (int i = 0; i < n; i++) {
        call->args[i] = given(c, vars[i]) ? vars[i] : -1;
        call->argtypes[i] = call->args[i] >= 0 ? cj_vt(c, vars[i]) : NULL;
    }
    return call;
}

static int type_arange(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    static const char *const names[] = {"start", "stop", "step", "dtype"};
    int v[4];
    if (cj_fold_args(c, in, 1, names, 4, v) < 0) {
        return -1;
    }
    const cj_type *dflt = cj_t_int64;
    for (int i = 0; i < 3; i++) {
        if (!given(c, v[i]) && i == 0) {
            return cj_typing_error(c, in, "np.arange() is missing its stop");
        }
        const cj_type *t = given(c, v[i]) ? cj_vt(c, v[i]) : NULL;
        if (t != NULL && t->kind == CJ_COMPLEX) {
            return cj_unsupported_error(c, in, "np.arange() of complex numbers");
        }
        if (t != NULL && !real_number(t)) {
            return cj_typing_error(c, in, "np.arange() takes ints and floats, not %s", t->name);
        }
        dflt = t != NULL && t->kind == CJ_FLOAT ? cj_t_float64 : dflt;
    }
    const cj_type *dtype = dtype_arg(c, in, v[3], "arange", dflt);
    if (dtype == NULL) {
        return -1;
    }
    if (!real_number(dtype)) {
        return cj_unsupported_error(c, in, "np.arange() with dtype %s", dtype->name);
    }
    if (record(c, in, CJ_B_NP_ARANGE, 3, v) == NULL) {
        return -1;
    }
    *out = cj_type_array(dtype, 1, 'C', 0);
    return *out ? 1 : -1;
}

static int type_linspace(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    static const char *const names[] = {"start", "stop", "num", "endpoint"};
    int v[4];
    if (cj_fold_args(c, in, 1, names, 4, v) < 0) {
        return -1;
    }
    if (!given(c, v[0]) || !given(c, v[1])) {
        return cj_typing_error(c, in, "np.linspace() takes a start and a stop");
    }
    const cj_type *dtype = cj_t_float64; /* numba's: complex128 from complex numbers */
    for (int i = 0; i < 2; i++) {
        const cj_type *t = cj_vt(c, v[i]);
        if (!real_number(t) && t->kind != CJ_COMPLEX) {
            return cj_typing_error(c, in, "np.linspace() takes numbers, not %s", t->name);
        }
        dtype = t->kind == CJ_COMPLEX ? cj_t_complex128 : dtype;
    }
    if (given(c, v[2]) && cj_vt(c, v[2])->kind != CJ_INT) {
        return cj_typing_error(c, in, "The argument \"num\" must be an integer");
    }
    if (given(c, v[3]) && !cj_type_is_integer(cj_vt(c, v[3]))) {
        return cj_typing_error(c, in, "np.linspace(): endpoint must be a bool");
    }
    if (record(c, in, CJ_B_NP_LINSPACE, 4, v) == NULL) {
        return -1;
    }
    *out = cj_type_array(dtype, 1, 'C', 0);
    return *out ? 1 : -1;
}

/* np.eye(N, M=None, k=0, dtype=float) and np.identity(n, dtype=float): args N, M, k. */
static int type_eye(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    static const char *const eye_names[] = {"N", "M", "k", "dtype"};
    static const char *const identity_names[] = {"n", "dtype"};
    int eye = id == CJ_B_NP_EYE, v[4];
    if (cj_fold_args(c, in, 1, eye ? eye_names : identity_names, eye ? 4 : 2, v) < 0) {
        return -1;
    }
    if (!eye) { /* (n, dtype) -> (N, M, k, dtype) */
        v[3] = v[1];
        v[1] = v[2] = -1;
    }
    const char *fname = cj_builtin_table[id].attr;
    for (int i = 0; i < 3; i++) {
        if ((i == 0 || given(c, v[i])) &&
            (v[i] < 0 || cj_vt(c, v[i])->kind != CJ_INT)) {
            return cj_typing_error(c, in, "np.%s(): %s must be an int, not %s", fname,
                                   (eye ? eye_names : identity_names)[i],
                                   v[i] < 0 ? "missing" : cj_vt(c, v[i])->name);
        }
    }
    const cj_type *dtype = dtype_arg(c, in, v[3], fname, cj_t_float64);
    if (dtype == NULL || record(c, in, id, 3, v) == NULL) {
        return -1;
    }
    *out = cj_type_array(dtype, 2, 'C', 0);
    return *out ? 1 : -1;
}

/* The shape (dims[0..ndim)) and promoted dtype of a nested tuple of numbers; -1 when ragged
 * or not numbers. */
static int literal_shape(const cj_type *t, int depth, long *dims, int *ndim,
                         const cj_type **dtype) {
    if (cj_type_is_number(t)) {
        if (*ndim < 0) {
            *ndim = depth;
        }
        *dtype = *dtype == NULL ? t : cj_promote(*dtype, t);
        return *ndim == depth && *dtype != NULL ? 0 : -1;
    }
    if (t->kind != CJ_TUPLE || t->n == 0 || depth >= CJ_MAXDIM) {
        return -1;
    }
    if (*ndim >= 0 && (depth >= *ndim || dims[depth] != t->n)) {
        return -1;
    }
    dims[depth] = t->n;
    for (int i = 0; i < t->n; i++) {
        if (literal_shape(t->items[i], depth + 1, dims, ndim, dtype) < 0) {
            return -1;
        }
    }
    return 0;
}

/* np.array(x, dtype=None) and np.asarray(x, dtype=None). */
static int type_array(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    static const char *const names[] = {"object", "dtype"};
    const char *fname = cj_builtin_table[id].attr;
    int v[2];
    if (cj_fold_args(c, in, 1, names, 2, v) < 0) {
        return -1;
    }
    if (v[0] < 0) {
        return cj_typing_error(c, in, "np.%s() is missing its object", fname);
    }
    const cj_type *src = cj_vt(c, v[0]), *dtype = NULL;
    long dims[CJ_MAXDIM];
    int ndim = -1;
    if (src->kind == CJ_ARRAY) {
        dtype = dtype_arg(c, in, v[1], fname, src->dtype);
        if (dtype == NULL) {
            return -1;
        }
        /* asarray of the same dtype: the array itself; else a copy, cast when asked */
        id = id == CJ_B_NP_ASARRAY && dtype == src->dtype ? CJ_B_NP_ASARRAY
             : dtype == src->dtype                        ? CJ_B_NP_COPY
                                                          : CJ_B_METH_ASTYPE;
        if (record(c, in, id, 1, v) == NULL) {
            return -1;
        }
        *out = id == CJ_B_NP_ASARRAY ? src : cj_type_array(dtype, src->ndim, 'C', 0);
        return *out ? 1 : -1;
    }
    if (src->kind == CJ_LIST) { /* a list of numbers, or of lists of them: 1-D or 2-D */
        const cj_type *inner = src->dtype != NULL && src->dtype->kind == CJ_LIST ? src->dtype
                                                                                : NULL;
        if (src->dtype == NULL || (inner != NULL && inner->dtype == NULL)) {
            return 0; /* an empty list waits for its first append */
        }
        dtype = inner != NULL ? inner->dtype : src->dtype;
        ndim = inner != NULL ? 2 : 1;
        if (!cj_type_is_number(dtype)) {
            return cj_typing_error(c, in, "np.%s() takes a list of numbers or a list of lists "
                                          "of numbers, not %s", fname, src->name);
        }
    } else if (literal_shape(src, 0, dims, &ndim, &dtype) < 0) {
        return cj_typing_error(c, in, "np.%s() takes a number, an array or a (nested) tuple "
                                      "of numbers with every level of one length, not %s",
                               fname, src->name);
    }
    dtype = dtype_arg(c, in, v[1], fname, dtype);
    if (dtype == NULL || record(c, in, CJ_B_NP_ARRAY, 1, v) == NULL) {
        return -1;
    }
    *out = cj_type_array(dtype, ndim, 'C', 0);
    return *out ? 1 : -1;
}

int cj_type_array_create(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const char *fname = cj_builtin_table[id].attr;
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "np.%s() is not supported in CUDA code", fname);
    }
    switch (id) {
    case CJ_B_NP_ARANGE:
        return type_arange(c, in, out);
    case CJ_B_NP_LINSPACE:
        return type_linspace(c, in, out);
    case CJ_B_NP_EYE:
    case CJ_B_NP_IDENTITY:
        return type_eye(c, in, id, out);
    default:
        return type_array(c, in, id, out);
    }
}
