/* array_expr.c: typing of operators on arrays (numba's rules): a + b, a < 2.0, -a, a += b.
 * Each operator is its NumPy ufunc (np.add for +, ...), whose loop is chosen as numba does:
 * the first of ufunc.types whose inputs every operand's dtype casts to safely, where an
 * integer may go to any float or complex when the inputs mix the two kinds; a scalar operand
 * counts by its cujit type (a Python int as int64, a float as float64). The result is a new
 * C-contiguous array of the broadcast rank (a number when that rank is 0), or, for an
 * in-place operator, the left array itself. in->optype is the loop's input type (the operator loops take one type for both),
 * in->resolved its output type (a cj_type).
 * A NumPy ufunc called with an array (np.sqrt(a), np.arctan2(a, 1.0), abs(a), np.add(a, b,
 * out=c)) is typed the same way, its loop recorded in a CJ_CALL_UFUNC call.
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

/* np.add ... np.bitwise_not: the operator each one is. */
static const struct {
    int id, op, sub;
} operator_ufuncs[] = {
    {CJ_B_NP_ADD, CJ_I_BINOP, CJ_ADD}, {CJ_B_NP_SUBTRACT, CJ_I_BINOP, CJ_SUB},
    {CJ_B_NP_MULTIPLY, CJ_I_BINOP, CJ_MUL}, {CJ_B_NP_DIVIDE, CJ_I_BINOP, CJ_TRUEDIV},
    {CJ_B_NP_TRUE_DIVIDE, CJ_I_BINOP, CJ_TRUEDIV},
    {CJ_B_NP_FLOOR_DIVIDE, CJ_I_BINOP, CJ_FLOORDIV}, {CJ_B_NP_REMAINDER, CJ_I_BINOP, CJ_MOD},
    {CJ_B_NP_MOD, CJ_I_BINOP, CJ_MOD}, {CJ_B_NP_LEFT_SHIFT, CJ_I_BINOP, CJ_LSHIFT},
    {CJ_B_NP_RIGHT_SHIFT, CJ_I_BINOP, CJ_RSHIFT}, {CJ_B_NP_BITWISE_AND, CJ_I_BINOP, CJ_AND},
    {CJ_B_NP_BITWISE_OR, CJ_I_BINOP, CJ_OR}, {CJ_B_NP_BITWISE_XOR, CJ_I_BINOP, CJ_XOR},
    {CJ_B_NP_LESS, CJ_I_COMPARE, CJ_LT}, {CJ_B_NP_LESS_EQUAL, CJ_I_COMPARE, CJ_LE},
    {CJ_B_NP_EQUAL, CJ_I_COMPARE, CJ_EQ}, {CJ_B_NP_NOT_EQUAL, CJ_I_COMPARE, CJ_NE},
    {CJ_B_NP_GREATER, CJ_I_COMPARE, CJ_GT}, {CJ_B_NP_GREATER_EQUAL, CJ_I_COMPARE, CJ_GE},
    {CJ_B_NP_NEGATIVE, CJ_I_UNARY, CJ_NEG}, {CJ_B_NP_POSITIVE, CJ_I_UNARY, CJ_POS},
    {CJ_B_NP_INVERT, CJ_I_UNARY, CJ_INVERT}, {CJ_B_NP_BITWISE_NOT, CJ_I_UNARY, CJ_INVERT},
};

int cj_ufunc_operator(int id, int *sub) {
    for (size_t k = 0; k < sizeof(operator_ufuncs) / sizeof(operator_ufuncs[0]); k++) {
        if (operator_ufuncs[k].id == id) {
            *sub = operator_ufuncs[k].sub;
            return operator_ufuncs[k].op;
        }
    }
    return -1;
}

/* numba has no loop for these, though NumPy's tables list one. */
static int refused_loop(int op, int sub, const cj_type *loop_in) {
    int ordering = op == CJ_I_COMPARE && sub != CJ_EQ && sub != CJ_NE;
    int bool_sub = op == CJ_I_BINOP && sub == CJ_SUB && loop_in->kind == CJ_BOOL;
    return (ordering && loop_in->kind == CJ_COMPLEX) || bool_sub;
}

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

/* np.<name> when it is a ufunc (a new reference); NULL, with an exception only on failure. */
static PyUFuncObject *numpy_ufunc(const char *name) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    PyObject *obj = numpy ? PyObject_GetAttrString(numpy, name) : NULL;
    Py_XDECREF(numpy);
    if (obj != NULL && !PyObject_TypeCheck(obj, &PyUFunc_Type)) {
        Py_CLEAR(obj);
    }
    PyErr_Clear(); /* not a NumPy name: not a ufunc */
    return (PyUFuncObject *)obj;
}

/* The loop of ufunc `name` for `nin` inputs of these dtypes: its input and output types; 0 when
 * none takes them, -1 with an exception. */
static int find_loop(const char *name, int nin, const cj_type *const *dtypes,
                     const cj_type **loop_in, const cj_type **loop_out) {
    PyUFuncObject *u = numpy_ufunc(name);
    if (u == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *obj = (PyObject *)u;
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

/* The array a ufunc writes its results to (`a += b`'s left array, `out=`): it takes the
 * broadcast rank and the loop's output dtype by NumPy's same_kind rule. */
static int check_destination(cj_infer_ctx *c, cj_instr *in, const char *name,
                             const cj_type *dest, int ndim, const cj_type *loop_out,
                             const char *what) {
    if (dest->kind != CJ_ARRAY) {
        return cj_typing_error(c, in, "the %s of ufunc '%s' must be an array, not %s", what,
                               name, dest->name);
    }
    if (dest->ndim < ndim || dest->readonly) {
        return dest->readonly ? cj_typing_error(c, in, "cannot modify a read-only array")
                              : cj_typing_error(c, in, "the %s of ufunc '%s' cannot broadcast: "
                                                       "it has fewer dimensions than the result",
                                                what, name);
    }
    PyArray_Descr *from = PyArray_DescrFromType(cj_type_npy_typenum(loop_out));
    PyArray_Descr *to = PyArray_DescrFromType(cj_type_npy_typenum(dest->dtype));
    int castable = from && to && PyArray_CanCastTypeTo(from, to, NPY_SAME_KIND_CASTING);
    Py_XDECREF(from);
    Py_XDECREF(to);
    if (!castable) { /* NumPy's words */
        return cj_typing_error(c, in, "Cannot cast ufunc '%s' output from dtype('%s') to "
                                      "dtype('%s') with casting rule 'same_kind'", name,
                               loop_out->name, dest->dtype->name);
    }
    return 1;
}

int cj_type_array_op(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int nin = in->op == CJ_I_UNARY ? 1 : 2;
    const char *name = in->op == CJ_I_BINOP  ? (in->sub <= CJ_XOR ? binop_ufuncs[in->sub] : NULL)
                       : in->op == CJ_I_UNARY ? (in->sub <= CJ_INVERT ? unary_ufuncs[in->sub]
                                                                      : NULL)
                       : in->sub <= CJ_GE     ? compare_ufuncs[in->sub]
                                              : NULL;
    if (in->op == CJ_I_BINOP && in->sub == CJ_MATMUL && !(in->flags & CJ_F_INPLACE)) {
        return cj_type_array_dot(c, in, 0, in->args[0], in->args[1], -1, out);
    }
    if (name == NULL) { /* @=, `not`, is/in */
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
    if (refused_loop(in->op, in->sub, loop_in)) {
        return no_loop(c, in, name);
    }
    in->optype = loop_in;
    in->resolved = loop_out; /* the element type the loop computes */
    const cj_type *left = cj_vt(c, in->args[0]);
    if (in->op == CJ_I_BINOP && (in->flags & CJ_F_INPLACE) && left->kind == CJ_ARRAY) {
        *out = left; /* written in place, in its own dtype */
        return check_destination(c, in, name, left, ndim, loop_out, "left array");
    }
    /* of 0-d arrays only, a number (numba's, and NumPy's scalar) */
    *out = ndim == 0 ? loop_out : cj_type_array(loop_out, ndim, 'C', 0);
    return *out ? 1 : -1;
}

static int type_select(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out);

/* Which complex loops the element lowering has (lower_call.c): the cmath functions, abs,
 * square, power, the logical ufuncs and the predicates. */
static int complex_loop_supported(int id) {
    switch (id) {
    case CJ_B_NP_SQRT: case CJ_B_NP_EXP: case CJ_B_NP_LOG: case CJ_B_NP_LOG10:
    case CJ_B_NP_SIN: case CJ_B_NP_COS: case CJ_B_NP_TAN: case CJ_B_NP_SINH:
    case CJ_B_NP_COSH: case CJ_B_NP_TANH: case CJ_B_NP_ARCSIN: case CJ_B_NP_ARCCOS:
    case CJ_B_NP_ARCTAN: case CJ_B_NP_ARCSINH: case CJ_B_NP_ARCCOSH: case CJ_B_NP_ARCTANH:
    case CJ_B_ABS: case CJ_B_NP_ABSOLUTE: case CJ_B_NP_SQUARE: case CJ_B_NP_POWER:
    case CJ_B_NP_LOGICAL_AND: case CJ_B_NP_LOGICAL_OR: case CJ_B_NP_LOGICAL_XOR:
    case CJ_B_NP_LOGICAL_NOT: case CJ_B_NP_ISNAN: case CJ_B_NP_ISINF: case CJ_B_NP_ISFINITE:
    case CJ_B_NP_LOG1P: case CJ_B_NP_EXPM1: case CJ_B_NP_EXP2: case CJ_B_NP_LOG2:
    case CJ_B_NP_RINT: case CJ_B_NP_SIGN: case CJ_B_NP_MAXIMUM: case CJ_B_NP_MINIMUM:
    case CJ_B_NP_FMAX: case CJ_B_NP_FMIN:
        return 1;
    default:
        return 0;
    }
}

/* The inputs and `out` (positional after them, or keyword) of a ufunc call: 1, or -1 with
 * an exception. */
static int ufunc_operands(cj_infer_ctx *c, cj_instr *in, const char *name, int nin,
                          int *out_var) {
    int nkw = in->index, npos = in->nargs - 1 - nkw;
    *out_var = npos == nin + 1 ? in->args[in->nargs - nkw - 1] : -1;
    for (int k = 0; k < nkw; k++) {
        const char *kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(in->obj, k));
        if (kw == NULL) {
            return -1;
        }
        if (strcmp(kw, "out") != 0 || *out_var >= 0) {
            return cj_unsupported_error(c, in, "ufunc '%s': the keyword argument '%s' is not "
                                               "supported (only out=)", name, kw);
        }
        *out_var = in->args[in->nargs - nkw + k];
    }
    if (npos != nin && !(npos == nin + 1 && nkw == 0)) {
        return cj_typing_error(c, in, "ufunc '%s' takes %d input argument%s (and out), not %d",
                               name, nin, nin == 1 ? "" : "s", npos);
    }
    return 1;
}

int cj_type_array_ufunc(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    if (cj_builtin_select(id)) {
        return type_select(c, in, id, out);
    }
    const char *name = id == CJ_B_ABS ? "absolute" : cj_builtin_table[id].attr;
    PyUFuncObject *u = numpy_ufunc(name);
    int nin = u != NULL && u->nout == 1 && u->nin <= 2 ? u->nin : 0;
    Py_XDECREF(u);
    if (nin == 0) {
        return 0; /* not a ufunc the element loops take: the caller's own rules */
    }
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "ufuncs on arrays are not supported in CUDA code "
                                           "(numba-cuda refuses them too): write the loop");
    }
    int out_var;
    if (ufunc_operands(c, in, name, nin, &out_var) < 0) {
        return -1;
    }
    const cj_type *dtypes[2], *loop_in, *loop_out;
    int ndim = 0;
    for (int i = 0; i < nin; i++) {
        const cj_type *t = cj_vt(c, in->args[1 + i]);
        if ((dtypes[i] = dtype_of(t)) == NULL) {
            return no_loop(c, in, name);
        }
        ndim = t->kind == CJ_ARRAY && t->ndim > ndim ? t->ndim : ndim;
    }
    int rc = find_loop(name, nin, dtypes, &loop_in, &loop_out);
    if (rc <= 0) {
        return rc < 0 ? -1 : no_loop(c, in, name);
    }
    int sub, op = cj_ufunc_operator(id, &sub);
    int complex_ok = op >= 0 || complex_loop_supported(id); /* ordering: lexicographic */
    if (loop_in->kind == CJ_COMPLEX && !complex_ok) {
        return cj_unsupported_error(c, in, "ufunc '%s' of complex arrays is not supported yet",
                                    name);
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_UFUNC, nin + (out_var >= 0));
    if (call == NULL) {
        return -1;
    }
    *call = (cj_call){.kind = CJ_CALL_UFUNC, .builtin = id, .nargs = call->nargs,
                      .args = call->args, .defaults = call->defaults,
                      .argtypes = call->argtypes, .nin = nin, .loop_in = loop_in,
                      .loop_out = loop_out};
    for (int i = 0; i < call->nargs; i++) {
        call->args[i] = i < nin ? in->args[1 + i] : out_var;
        call->argtypes[i] = cj_vt(c, call->args[i]);
    }
    in->optype = loop_in;
    if (out_var >= 0) {
        *out = cj_vt(c, out_var);
        return check_destination(c, in, name, *out, ndim, loop_out, "out argument");
    }
    *out = ndim == 0 ? loop_out : cj_type_array(loop_out, ndim, 'C', 0);
    return *out ? 1 : -1;
}

/* np.where(c, x, y): numba's result dtype, the promotion of x's and y's (a scalar by its
 * cujit type), always an array (0-d of numbers only). np.clip(a, lo, hi): a's dtype, each
 * bound a number, an array or None, computed in the promotion of the three. Each call is a
 * CJ_CALL_UFUNC of three inputs (a None bound's variable is typed none). */
static int type_select(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const char *name = cj_builtin_table[id].attr;
    int out_var, ndim = 0;
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "np.%s() is not supported in CUDA code", name);
    }
    if (ufunc_operands(c, in, name, 3, &out_var) < 0) {
        return -1;
    }
    if (id == CJ_B_NP_WHERE && out_var >= 0) {
        return cj_typing_error(c, in, "np.where() takes no out argument");
    }
    const cj_type *dtypes[3];
    for (int i = 0; i < 3; i++) {
        const cj_type *t = cj_vt(c, in->args[1 + i]);
        dtypes[i] = id == CJ_B_NP_CLIP && i > 0 && t->kind == CJ_NONE ? NULL : dtype_of(t);
        if (dtypes[i] == NULL && !(id == CJ_B_NP_CLIP && i > 0 && t->kind == CJ_NONE)) {
            return cj_typing_error(c, in, "np.%s(): argument %d must be a number or an array, "
                                          "not %s", name, i + 1, t->name);
        }
        ndim = t->kind == CJ_ARRAY && t->ndim > ndim ? t->ndim : ndim;
    }
    const cj_type *compute = dtypes[id == CJ_B_NP_WHERE ? 1 : 0], *result = compute;
    for (int i = id == CJ_B_NP_WHERE ? 2 : 1; i < 3; i++) {
        compute = dtypes[i] ? cj_promote(compute, dtypes[i]) : compute;
    }
    if (id == CJ_B_NP_CLIP) {
        if (cj_vt(c, in->args[1])->kind != CJ_ARRAY) {
            return cj_typing_error(c, in, "The argument \"a\" must be array-like");
        }
        if (dtypes[1] == NULL && dtypes[2] == NULL) {
            return cj_typing_error(c, in, "array_clip: must set either max or min");
        }
        if (compute->kind == CJ_COMPLEX) {
            return cj_unsupported_error(c, in, "np.clip() of complex numbers is not supported");
        }
    } else {
        result = compute;
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_UFUNC, 3 + (out_var >= 0));
    if (call == NULL) {
        return -1;
    }
    *call = (cj_call){.kind = CJ_CALL_UFUNC, .builtin = id, .nargs = call->nargs,
                      .args = call->args, .defaults = call->defaults,
                      .argtypes = call->argtypes, .nin = 3, .loop_in = compute,
                      .loop_out = compute};
    for (int i = 0; i < call->nargs; i++) {
        call->args[i] = i < 3 ? in->args[1 + i] : out_var;
        call->argtypes[i] = cj_vt(c, call->args[i]);
    }
    in->optype = compute;
    if (out_var >= 0) {
        *out = cj_vt(c, out_var);
        if ((*out)->kind == CJ_ARRAY && (*out)->ndim != ndim) {
            return cj_typing_error(c, in, "The argument \"out\" must have the same number of "
                                          "dimensions as the result");
        }
        return check_destination(c, in, name, *out, ndim, compute, "out argument");
    }
    *out = cj_type_array(result, ndim, 'C', 0);
    return *out ? 1 : -1;
}
