/* array_new.c: typing of the array creation functions, np.empty/zeros/ones/full and their
 * *_like forms (numba's rules). The shape is an int or a tuple of ints; the dtype a NumPy
 * type, a dtype, a string, a Python type or a cujit type, known at compile time (default
 * float64; np.full: the fill value's type; *_like: the array's). The result is a new
 * C-contiguous array (lower/lower_array_new.c). The call record holds the shape (or the array
 * for *_like) and the fill value (-1 where there is none): the dtype is the result's. */
#include "typing/infer_internal.h"

#include <string.h>

#include "util/npy.h"

const cj_type *cj_dtype_of_object(PyObject *obj) {
    if (obj == NULL) {
        return NULL;
    }
    const cj_type *t = cj_type_from_py(obj); /* a cujit type: float32 */
    if (t != NULL) {
        return cj_type_is_number(t) ? t : NULL;
    }
    PyErr_Clear();
    PyArray_Descr *descr = NULL; /* np.float32, np.dtype('f4'), 'float32', float, int */
    if (!PyArray_DescrConverter2(obj, &descr) || descr == NULL) {
        PyErr_Clear();
        return NULL;
    }
    t = cj_type_from_npy_typenum(descr->type_num);
    Py_DECREF(descr);
    return t;
}

static PyObject *constant(cj_infer_ctx *c, int var) {
    const cj_type *t = cj_vt(c, var);
    return t->kind == CJ_CONST_OBJ ? t->obj : cj_const_of(c, var);
}

const cj_type *cj_dtype_of_var(cj_infer_ctx *c, int var) {
    return cj_dtype_of_object(constant(c, var));
}

/* Positional and keyword arguments into (first, fill, dtype) variables; -1 if absent. */
static int fold(cj_infer_ctx *c, cj_instr *in, int has_fill, int vars[3]) {
    int nkw = in->index, npos = in->nargs - 1 - nkw;
    const char *names[3] = {"shape", has_fill ? "fill_value" : "dtype", "dtype"};
    int nparams = has_fill ? 3 : 2;
    vars[0] = vars[1] = vars[2] = -1;
    if (npos > nparams) {
        return cj_typing_error(c, in, "too many arguments");
    }
    for (int i = 0; i < npos; i++) {
        vars[i] = in->args[1 + i];
    }
    for (int k = 0; k < nkw; k++) {
        const char *kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(in->obj, k));
        if (kw == NULL) {
            return -1;
        }
        int found = -1;
        for (int p = 0; p < nparams; p++) {
            if (strcmp(kw, names[p]) == 0 || (p == 0 && strcmp(kw, "a") == 0) ||
                (p == 0 && strcmp(kw, "prototype") == 0)) {
                found = p;
            }
        }
        if (strcmp(kw, "order") == 0) {
            PyObject *order = constant(c, in->args[1 + npos + k]);
            if (order == NULL || !PyUnicode_Check(order) ||
                PyUnicode_CompareWithASCIIString(order, "C") != 0) {
                return cj_unsupported_error(c, in, "order= other than 'C' in array creation");
            }
            continue;
        }
        if (found < 0 || vars[found] != -1) {
            return cj_typing_error(c, in, found < 0 ? "unexpected keyword argument '%s'"
                                                    : "multiple values for argument '%s'", kw);
        }
        vars[found] = in->args[1 + npos + k];
    }
    if (!has_fill) { /* (shape, dtype): the dtype sits in the second place */
        vars[2] = vars[1];
        vars[1] = -1;
    }
    return 0;
}

/* The shape argument's rank: an int is 1, a tuple of ints its length; -1 if neither. */
int cj_shape_rank(const cj_type *t) {
    if (cj_type_is_integer(t) && t->kind != CJ_BOOL) {
        return 1;
    }
    if (t->kind != CJ_TUPLE) {
        return -1;
    }
    for (int i = 0; i < t->n; i++) {
        if (!cj_type_is_integer(t->items[i]) || t->items[i]->kind == CJ_BOOL) {
            return -1;
        }
    }
    return t->n;
}

int cj_type_array_new(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const char *fname = cj_builtin_table[id].attr;
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "np.%s() is not supported in CUDA code: use "
                                           "cuda.local.array() or cuda.shared.array()", fname);
    }
    int like = id >= CJ_B_NP_EMPTY_LIKE, full = id == CJ_B_NP_FULL || id == CJ_B_NP_FULL_LIKE;
    int vars[3];
    if (fold(c, in, full, vars) < 0) {
        return -1;
    }
    if (vars[0] < 0 || (full && vars[1] < 0)) {
        return cj_typing_error(c, in, "np.%s() is missing its %s", fname,
                               vars[0] < 0 ? (like ? "array" : "shape") : "fill_value");
    }
    const cj_type *first = cj_vt(c, vars[0]), *fill = full ? cj_vt(c, vars[1]) : NULL;
    int ndim = like ? (first->kind == CJ_ARRAY ? first->ndim : -1) : cj_shape_rank(first);
    if (ndim < 0) {
        return cj_typing_error(c, in, like ? "np.%s() takes an array, not %s"
                                           : "np.%s(): the shape must be an int or a tuple of "
                                             "ints, not %s", fname, first->name);
    }
    if (fill != NULL && !cj_type_is_number(fill)) {
        return cj_typing_error(c, in, "np.%s(): the fill value must be a number, not %s",
                               fname, fill->name);
    }
    const cj_type *dtype = like ? first->dtype : fill ? fill : cj_t_float64;
    if (vars[2] >= 0 && cj_vt(c, vars[2])->kind != CJ_NONE) {
        dtype = cj_dtype_of_var(c, vars[2]);
        if (dtype == NULL) {
            return cj_typing_error(c, in, "np.%s(): the dtype must be a NumPy number type "
                                          "known at compile time, not %s", fname,
                                   cj_vt(c, vars[2])->name);
        }
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_BUILTIN, 2);
    if (call == NULL) {
        return -1;
    }
    call->builtin = id;
    call->nargs = 2;
    call->args[0] = vars[0];
    call->argtypes[0] = first;
    call->args[1] = vars[1];
    call->argtypes[1] = fill;
    *out = cj_type_array(dtype, ndim, 'C', 0);
    return *out ? 1 : -1;
}
