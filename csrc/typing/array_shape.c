/* array_shape.c: typing of the array methods that reshape or reinterpret (numba's rules):
 * a.reshape(shape) / a.reshape(d0, d1, ...) / np.reshape(a, shape) (a C-contiguous view of a C
 * array, a view of layout A of an F array; numba refuses arrays not known contiguous),
 * a.ravel() / np.ravel(a) (a view of a C array, else a copy: typed as flatten), a.flatten() (a
 * copy), a.view(dtype) (the same memory as another dtype), a.item() (the one element),
 * a.conj() / a.conjugate() / np.conj(a) (a new array) and the attributes a.real / a.imag.
 * Lowering: lower/lower_array_shape.c. */
#include "typing/infer_internal.h"

#include <string.h>

static const struct {
    const char *name;
    int id;
} methods[] = {
    {"reshape", CJ_B_NP_RESHAPE}, {"ravel", CJ_B_NP_RAVEL}, {"flatten", CJ_B_METH_FLATTEN},
    {"view", CJ_B_METH_VIEW},     {"item", CJ_B_METH_ITEM}, {"conj", CJ_B_NP_CONJ},
    {"conjugate", CJ_B_NP_CONJ},
};

int cj_shape_method_by_name(const char *name) {
    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        if (strcmp(methods[i].name, name) == 0) {
            return methods[i].id;
        }
    }
    return -1;
}

const cj_type *cj_array_part_type(cj_infer_ctx *c, cj_instr *in, const cj_type *at) {
    const char *name = PyUnicode_AsUTF8(in->obj);
    if (name == NULL) {
        return NULL;
    }
    if (at->dtype->kind == CJ_COMPLEX) { /* a strided view of the parts */
        return cj_type_array(cj_type_float(at->dtype->bits / 2), at->ndim, 'A', at->readonly);
    }
    if (at->dtype->kind == CJ_BOOL) {
        cj_typing_error(c, in, "cannot access .%s of array of %s", name, at->dtype->name);
        return NULL;
    }
    if (name[0] == 'i' && c->env->target == CJ_TARGET_CUDA) {
        cj_unsupported_error(c, in, ".imag of a real array makes an array: not supported in "
                                    "CUDA code");
        return NULL;
    }
    /* real: the array itself; imag: zeros, read-only */
    return cj_type_array(at->dtype, at->ndim, at->layout, at->readonly || name[0] == 'i');
}

/* The new shape's rank from the arguments (one int, one tuple of ints, or several ints). */
static int reshape_rank(cj_infer_ctx *c, cj_instr *in, const int *args, int n) {
    const cj_type *t = n == 1 ? cj_vt(c, args[0]) : NULL;
    if (t != NULL && t->kind == CJ_TUPLE) {
        for (int i = 0; i < t->n; i++) {
            if (t->items[i]->kind != CJ_INT) {
                return cj_typing_error(c, in, "reshape() arg cannot be %s", t->items[i]->name);
            }
        }
        return t->n;
    }
    for (int i = 0; i < n; i++) {
        if (cj_vt(c, args[i])->kind != CJ_INT) {
            return cj_typing_error(c, in, "reshape() arg cannot be %s", cj_vt(c, args[i])->name);
        }
    }
    return n > 0 ? n : cj_typing_error(c, in, "reshape() takes a shape");
}

static const cj_type *reshaped(cj_infer_ctx *c, cj_instr *in, const cj_type *at,
                               const int *args, int n) {
    if (at->layout == 'A') {
        cj_typing_error(c, in, "reshape() supports contiguous array only");
        return NULL;
    }
    /* an F-ordered array: a view when no copy is needed (NumPy's rule), of layout A (numba
     * says F, yet the strides of a split dimension are not F's) */
    char layout = at->layout == 'F' && at->ndim > 1 ? 'A' : 'C';
    if (layout == 'A' && c->env->target == CJ_TARGET_CUDA) {
        cj_unsupported_error(c, in, "reshape() of an F-ordered array in CUDA code");
        return NULL;
    }
    int ndim = reshape_rank(c, in, args, n);
    return ndim < 0 ? NULL : cj_type_array(at->dtype, ndim, layout, at->readonly);
}

/* The result type of method `id` of `at` given args[0..n); NULL with an exception. */
static const cj_type *result(cj_infer_ctx *c, cj_instr *in, int *id, const cj_type *at,
                             const int *args, int n) {
    const char *name = cj_builtin_table[*id].attr;
    if (*id == CJ_B_NP_RESHAPE) {
        return reshaped(c, in, at, args, n);
    }
    if (n != (*id == CJ_B_METH_VIEW)) {
        cj_unsupported_error(c, in, "array.%s() with %s is not supported", name,
                             n ? "arguments" : "no argument");
        return NULL;
    }
    switch (*id) {
    case CJ_B_NP_RAVEL:
        if (at->layout == 'C') {
            return cj_type_array(at->dtype, 1, 'C', at->readonly);
        }
        *id = CJ_B_METH_FLATTEN; /* a copy */
        return cj_type_array(at->dtype, 1, 'C', 0);
    case CJ_B_METH_FLATTEN:
        return cj_type_array(at->dtype, 1, 'C', 0);
    case CJ_B_METH_ITEM:
        return at->dtype;
    case CJ_B_NP_CONJ: { /* numba's ufunc: bool gives int8, a 0-d array a number */
        const cj_type *dt = at->dtype->kind == CJ_BOOL ? cj_t_int8 : at->dtype;
        return at->ndim == 0 ? dt : cj_type_array(dt, at->ndim, at->layout == 'F' ? 'F' : 'C', 0);
    }
    default: { /* view */
        const cj_type *dtype = cj_dtype_of_var(c, args[0]);
        if (dtype == NULL) {
            cj_typing_error(c, in, "array.view() takes a NumPy number type known at compile "
                                   "time, not %s", cj_vt(c, args[0])->name);
            return NULL;
        }
        int same = cj_abi_size(dtype) == cj_abi_size(at->dtype);
        return cj_type_array(dtype, at->ndim, same || at->layout == 'C' ? at->layout : 'A',
                             at->readonly);
    }
    }
}

int cj_type_array_shape(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *receiver,
                        const cj_type **out) {
    static const char *const names[] = {"a", "shape"};
    const char *fname = cj_builtin_table[id].attr;
    int v[2] = {-1, -1}, n = in->nargs - 1, *args = in->args + 1, is_fn = receiver == NULL;
    if (is_fn) { /* np.reshape(a, shape), np.ravel(a), np.conj(a) */
        if (cj_fold_args(c, in, 1, names, id == CJ_B_NP_RESHAPE ? 2 : 1, v) < 0) {
            return -1;
        }
        receiver = v[0] >= 0 ? cj_vt(c, v[0]) : NULL;
        args = v + 1;
        n = v[1] >= 0;
    } else if (in->index > 0) {
        return cj_unsupported_error(c, in, "array.%s() with keyword arguments", fname);
    }
    if (receiver == NULL || receiver->kind != CJ_ARRAY) {
        return cj_typing_error(c, in, "np.%s() takes an array in cujit, not %s", fname,
                               receiver ? receiver->name : "nothing");
    }
    *out = result(c, in, &id, receiver, args, n);
    if (*out == NULL) {
        return -1;
    }
    if (c->env->target == CJ_TARGET_CUDA && cj_builtin_fresh_array(id)) {
        return cj_unsupported_error(c, in, "array.%s() makes an array: not supported in CUDA "
                                           "code", fname);
    }
    /* the function's call record holds the array first, a method's only its arguments */
    cj_call *call = cj_call_record(c, in, is_fn ? CJ_CALL_BUILTIN : CJ_CALL_METHOD, n + is_fn);
    if (call == NULL) {
        return -1;
    }
    call->builtin = id;
    if (is_fn) {
        call->args[0] = v[0];
        call->argtypes[0] = receiver;
    }
    for (int i = 0; i < n; i++) {
        call->args[i + is_fn] = args[i];
        call->argtypes[i + is_fn] = cj_vt(c, args[i]);
    }
    return 1;
}
