/* array_expr.c: typing of operators on arrays (numba's rules): a + b, a < 2.0, -a, a += b.
 * Each operator is its NumPy ufunc (np.add for +, ...), whose loop is chosen as numba does:
 * the first of ufunc.types whose inputs every operand's dtype casts to safely, where an
 * integer may go to any float or complex when the inputs mix the two kinds; a scalar operand
 * counts by its cujit type (a Python int as int64, a float as float64). The result is a new
 * C-contiguous array of the broadcast rank (a number when that rank is 0), or, for an
 * in-place operator, the left array itself. in->optype is the loop's input type (the operator loops take one type for both),
 * in->resolved its output type (a cj_type).
 * Lowering: lower/lower_array_expr.c. */
#include "typing/infer_internal.h"

#include <string.h>

#include "util/npy.h"

static const char *const binop_ufuncs[] = {
    [CJ_ADD] = "add", [CJ_SUB] = "subtract", [CJ_MUL] = "multiply",
    [CJ_TRUEDIV] = "true_divide", [CJ_FLOORDIV] = "floor_divide", [CJ_MOD] = "remainder",
    [CJ_POW] = "power", [CJ_LSHIFT] = "left_shift", [CJ_RSHIFT] = "right_shift",
    [CJ_AND] = "bitwise_and", [CJ_OR] = "bitwise_or", [CJ_XOR] = "bitwise_xor",
};
static const char *const compare_ufuncs[] = {
    [CJ_LT] = "less", [CJ_LE] = "less_equal", [CJ_EQ] = "equal", [CJ_NE] = "not_equal",
    [CJ_GT] = "greater", [CJ_GE] = "greater_equal",
};
static const char *const unary_ufuncs[] = {
    [CJ_NEG] = "negative", [CJ_POS] = "positive", [CJ_INVERT] = "invert",
};

static int is_int_kind(int typenum) {
    return PyTypeNum_ISINTEGER(typenum);
}

static int is_inexact_kind(int typenum) {
    return PyTypeNum_ISFLOAT(typenum) || PyTypeNum_ISCOMPLEX(typenum);
}

/* numba's ufunc_can_cast: safe casting, and integers to any float or complex when mixed. */
static int can_cast(int from, int to, int mixed) {
    if (mixed && is_int_kind(from) && is_inexact_kind(to)) {
        return 1;
    }
    return PyArray_CanCastSafely(from, to);
}

/* The loop of ufunc `name` for `nin` inputs of these dtypes: its input and output types; 0 when
 * none takes them, -1 with an exception. */
static int find_loop(const char *name, int nin, const cj_type *const *dtypes,
                     const cj_type **loop_in, const cj_type **loop_out) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    PyObject *obj = numpy ? PyObject_GetAttrString(numpy, name) : NULL;
    Py_XDECREF(numpy);
    if (obj == NULL) {
        return -1;
    }
    PyUFuncObject *u = (PyUFuncObject *)obj;
    int in[2], mixed_int = 0, mixed_inexact = 0, found = 0;
    for (int i = 0; i < nin; i++) {
        in[i] = cj_type_npy_typenum(dtypes[i]);
        mixed_int |= is_int_kind(in[i]);
        mixed_inexact |= is_inexact_kind(in[i]);
    }
    int width = u->nin + u->nout;
    for (int k = 0; !found && u->nin == nin && k < u->ntypes; k++) {
        const char *types = u->types + (size_t)k * (size_t)width;
        int ok = 1;
        for (int i = 0; ok && i < width; i++) {
            ok = types[i] != NPY_HALF && types[i] != NPY_OBJECT &&
                 cj_type_from_npy_typenum(types[i]) != NULL &&
                 (i >= nin || can_cast(in[i], types[i], mixed_int && mixed_inexact));
        }
        if (ok && (nin == 1 || types[0] == types[1])) {
            *loop_in = cj_type_from_npy_typenum(types[0]);
            *loop_out = cj_type_from_npy_typenum(types[nin]);
            found = 1;
        }
    }
    Py_DECREF(obj);
    return found;
}

static const cj_type *dtype_of(const cj_type *t) {
    return t->kind == CJ_ARRAY ? t->dtype : cj_type_is_number(t) ? t : NULL;
}

static int no_loop(cj_infer_ctx *c, cj_instr *in, const char *name) {
    PyObject *types = cj_argtypes_text(c, in, 0);
    int rc = types ? cj_typing_error(c, in, "ufunc '%s' is not supported for the operand "
                                            "types %U", name, types)
                   : -1;
    Py_XDECREF(types);
    return rc;
}

int cj_type_array_op(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int nin = in->op == CJ_I_UNARY ? 1 : 2;
    const char *name = in->op == CJ_I_BINOP  ? (in->sub <= CJ_XOR ? binop_ufuncs[in->sub] : NULL)
                       : in->op == CJ_I_UNARY ? (in->sub <= CJ_INVERT ? unary_ufuncs[in->sub]
                                                                      : NULL)
                       : in->sub <= CJ_GE     ? compare_ufuncs[in->sub]
                                              : NULL;
    if (name == NULL) { /* @ (matmul), `not`, is/in */
        return cj_unsupported_error(c, in, "this operator on arrays is not supported yet");
    }
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "array expressions are not supported in CUDA code "
                                           "(numba-cuda refuses them too): write the loop");
    }
    const cj_type *dtypes[2], *loop_in, *loop_out;
    int ndim = 0;
    for (int i = 0; i < nin; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        dtypes[i] = dtype_of(t);
        if (dtypes[i] == NULL) {
            return no_loop(c, in, name);
        }
        ndim = t->kind == CJ_ARRAY && t->ndim > ndim ? t->ndim : ndim;
    }
    int rc = find_loop(name, nin, dtypes, &loop_in, &loop_out);
    if (rc <= 0) {
        return rc < 0 ? -1 : no_loop(c, in, name);
    }
    int ordering = in->op == CJ_I_COMPARE && in->sub != CJ_EQ && in->sub != CJ_NE;
    int bool_sub = in->op == CJ_I_BINOP && in->sub == CJ_SUB && loop_in->kind == CJ_BOOL;
    if ((ordering && loop_in->kind == CJ_COMPLEX) || bool_sub) {
        return no_loop(c, in, name); /* numba has no such loop either */
    }
    in->optype = loop_in;
    in->resolved = loop_out; /* the element type the loop computes */
    const cj_type *left = cj_vt(c, in->args[0]);
    if (in->op == CJ_I_BINOP && (in->flags & CJ_F_INPLACE) && left->kind == CJ_ARRAY) {
        if (left->ndim < ndim || left->readonly) {
            return cj_typing_error(c, in, left->readonly ? "cannot modify a read-only array"
                                                         : "an in-place operator cannot "
                                                           "broadcast its left array");
        }
        PyArray_Descr *from = PyArray_DescrFromType(cj_type_npy_typenum(loop_out));
        PyArray_Descr *to = PyArray_DescrFromType(cj_type_npy_typenum(left->dtype));
        int castable = from && to && PyArray_CanCastTypeTo(from, to, NPY_SAME_KIND_CASTING);
        Py_XDECREF(from);
        Py_XDECREF(to);
        if (!castable) { /* NumPy's words */
            return cj_typing_error(c, in, "Cannot cast ufunc '%s' output from dtype('%s') to "
                                          "dtype('%s') with casting rule 'same_kind'", name,
                                   loop_out->name, left->dtype->name);
        }
        *out = left; /* written in place, in its own dtype */
        return 1;
    }
    /* of 0-d arrays only, a number (numba's, and NumPy's scalar) */
    *out = ndim == 0 ? loop_out : cj_type_array(loop_out, ndim, 'C', 0);
    return *out ? 1 : -1;
}
