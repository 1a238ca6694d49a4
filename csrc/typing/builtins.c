/* builtins.c: typing of calls. The callee is known at compile time: a builtin or a
 * math/cmath/operator/NumPy function (found by identity), a cast (int(), np.float32(),
 * cujit.float32()), an exception class, a method bound by getattr, another jitted function
 * (jitted_calls.c) or a `with objmode()` block (objmode_typing.c). */
#include "typing/infer_internal.h"
#include "typing/cuda_intrinsics.h"

#include <string.h>

#include "util/npy.h"

const cj_builtin_info cj_builtin_table[CJ_B_COUNT] = {
#define CJ_BUILTIN_INFO(id, mod, attr, rule, cname) {mod, attr, rule, cname},
    CJ_BUILTINS(CJ_BUILTIN_INFO)
#undef CJ_BUILTIN_INFO
};

static PyObject *builtin_ids; /* dict: object -> builtin id, made on first use */

static int add_builtin(PyObject *ids, int id) {
    const cj_builtin_info *b = &cj_builtin_table[id];
    if (b->module[0] == 0) {
        return 0; /* a method, found by name */
    }
    PyObject *mod = PyImport_ImportModule(b->module);
    if (mod == NULL) {
        PyErr_Clear(); /* a module this Python lacks */
        return 0;
    }
    PyObject *obj = PyObject_GetAttrString(mod, b->attr);
    Py_DECREF(mod);
    if (obj == NULL) {
        PyErr_Clear(); /* math.cbrt is 3.11+, and so on */
        return 0;
    }
    int rc = 0;
    if (PyDict_GetItemWithError(ids, obj) == NULL && !PyErr_Occurred()) {
        PyObject *value = PyLong_FromLong(id);
        rc = value ? PyDict_SetItem(ids, obj, value) : -1;
        Py_XDECREF(value);
    }
    Py_DECREF(obj);
    return PyErr_Occurred() ? -1 : rc;
}

int cj_builtin_lookup(PyObject *obj) {
    if (builtin_ids == NULL) {
        /* made whole before it is published: an import below (numpy.random is imported
         * lazily) lets other threads run, and they must never see half a table */
        PyObject *ids = PyDict_New();
        for (int id = 0; ids != NULL && id < CJ_B_COUNT; id++) {
            if (add_builtin(ids, id) < 0) {
                Py_CLEAR(ids);
            }
        }
        if (ids == NULL) {
            PyErr_Clear();
            return -1;
        }
        if (builtin_ids == NULL) {
            builtin_ids = ids;
        } else {
            Py_DECREF(ids); /* another thread published its table first */
        }
    }
    PyObject *v = PyDict_GetItemWithError(builtin_ids, obj); /* borrowed */
    if (v == NULL) {
        PyErr_Clear(); /* unhashable callees are not builtins */
        return -1;
    }
    return (int)PyLong_AsLong(v);
}

/* ---- helpers ---- */

cj_call *cj_call_record(cj_infer_ctx *c, cj_instr *in, cj_call_kind kind, int nargs) {
    cj_call *call = (cj_call *)in->resolved;
    if (call == NULL || call->nargs < nargs) {
        call = cj_arena_alloc(&c->ir->arena, sizeof(cj_call));
        if (call == NULL) {
            return NULL;
        }
        call->args = cj_arena_alloc(&c->ir->arena, sizeof(int) * (size_t)(nargs + 1));
        call->defaults = cj_arena_alloc(&c->ir->arena, sizeof(PyObject *) * (size_t)(nargs + 1));
        call->argtypes = cj_arena_alloc(&c->ir->arena,
                                        sizeof(cj_type *) * (size_t)(nargs + 1));
        if (!call->args || !call->defaults || !call->argtypes) {
            return NULL;
        }
        in->resolved = call;
    }
    call->kind = kind;
    call->nargs = nargs;
    return call;
}

/* A call record whose arguments are the instruction's own (args[1..]). */
cj_call *cj_plain_call(cj_infer_ctx *c, cj_instr *in, cj_call_kind kind, int builtin) {
    int n = in->nargs - 1;
    cj_call *call = cj_call_record(c, in, kind, n);
    if (call == NULL) {
        return NULL;
    }
    call->builtin = builtin;
    for (int i = 0; i < n; i++) {
        call->args[i] = in->args[i + 1];
        call->argtypes[i] = cj_vt(c, in->args[i + 1]);
    }
    return call;
}

int cj_no_match(cj_infer_ctx *c, cj_instr *in, const char *fname) {
    PyObject *types = cj_argtypes_text(c, in, 1);
    if (types == NULL) {
        return -1;
    }
    cj_typing_error(c, in, "No implementation of function Function(%s) found for signature:"
                           "\n \n >>> %s%U", fname, fname, types);
    Py_DECREF(types);
    return -1;
}

static const cj_type *float_of(const cj_type *t) { /* math: float32 stays, else float64 */
    return t->kind == CJ_FLOAT && t->bits <= 32 ? cj_t_float32 : cj_t_float64;
}

static const cj_type *np_float_of(const cj_type *t) { /* NumPy's loops without float16 */
    if (t->kind == CJ_FLOAT) {
        return t->bits <= 32 ? cj_t_float32 : cj_t_float64;
    }
    if (t->kind == CJ_BOOL || (t->kind == CJ_INT && t->bits <= 16)) {
        return cj_t_float32;
    }
    return cj_t_float64;
}

static const cj_type *abs_type(const cj_type *t) {
    if (t->kind == CJ_COMPLEX) {
        return t->bits == 64 ? cj_t_float32 : cj_t_float64;
    }
    return t->kind == CJ_BOOL ? cj_t_int64 : t;
}

static int all_numbers(cj_infer_ctx *c, cj_instr *in, int allow_complex) {
    for (int i = 1; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (!cj_type_is_number(t) || (!allow_complex && t->kind == CJ_COMPLEX)) {
            return 0;
        }
    }
    return 1;
}

/* ---- builtins by id ---- */

static int type_minmax(cj_infer_ctx *c, cj_instr *in, const cj_type **out, const char *name) {
    if (in->nargs == 2) { /* max(iterable) */
        const cj_type *t = cj_vt(c, in->args[1]); /* a tuple's: tuples.c */
        if (t->kind == CJ_ARRAY) {
            *out = t->dtype;
            return 1;
        }
        return cj_no_match(c, in, name);
    }
    if (in->nargs < 3 || !all_numbers(c, in, 0)) {
        return cj_no_match(c, in, name);
    }
    const cj_type *r = cj_vt(c, in->args[1]);
    for (int i = 2; i < in->nargs; i++) {
        r = cj_unify(r, cj_vt(c, in->args[i]));
    }
    *out = r;
    return 1;
}

/* id: the builtin (int(), float() ...) or -1 (a NumPy scalar type) */
static int type_cast(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *to,
                     const cj_type **out, const char *name) {
    if (in->nargs != 2 || !all_numbers(c, in, to->kind == CJ_COMPLEX || to->kind == CJ_BOOL)) {
        return cj_no_match(c, in, name);
    }
    cj_call *call = cj_plain_call(c, in, CJ_CALL_CAST, id);
    if (call == NULL) {
        return -1;
    }
    *out = to;
    return 1;
}

static int type_range(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (in->nargs < 2 || in->nargs > 4) {
        return cj_no_match(c, in, "<class 'range'>");
    }
    for (int i = 1; i < in->nargs; i++) {
        if (!cj_type_is_integer(cj_vt(c, in->args[i]))) {
            return cj_no_match(c, in, "<class 'range'>");
        }
    }
    *out = cj_type_range(in->nargs <= 3); /* range(n), range(a, b): step 1 */
    return *out ? 1 : -1;
}

int cj_binop_of_builtin(int id) {
    static const int map[] = {CJ_ADD, CJ_SUB, CJ_MUL, CJ_TRUEDIV, CJ_FLOORDIV, CJ_MOD, CJ_POW,
                              CJ_LSHIFT, CJ_RSHIFT, CJ_AND, CJ_OR, CJ_XOR};
    if (id >= CJ_B_OP_IADD && id <= CJ_B_OP_IXOR) {
        return map[id - CJ_B_OP_IADD];
    }
    return map[id - CJ_B_OP_ADD];
}

static int type_operator_fn(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const cj_builtin_info *b = &cj_builtin_table[id];
    const cj_type *a = in->nargs > 1 ? cj_vt(c, in->args[1]) : NULL;
    const cj_type *bt = in->nargs > 2 ? cj_vt(c, in->args[2]) : NULL;
    if (b->rule == CJ_R_UNOP) {
        *out = in->nargs == 2 ? cj_rule_unary(id - CJ_B_OP_NEG, a) : NULL;
        in->optype = *out;
    } else if (b->rule == CJ_R_CMPOP) {
        *out = in->nargs == 3 ? cj_rule_compare(id - CJ_B_OP_LT, a, bt, &in->optype) : NULL;
    } else {
        *out = in->nargs == 3 ? cj_rule_binop(cj_binop_of_builtin(id), a, bt, &in->optype) : NULL;
    }
    return *out ? 1 : cj_no_match(c, in, b->attr);
}

/* abs, np.absolute, np.sign, np.square, round, pow, np.power, divmod. */
static int type_arith(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    const cj_type *b = n >= 2 ? cj_vt(c, in->args[2]) : NULL;
    const char *name = cj_builtin_table[id].attr;
    switch (id) {
    case CJ_B_ABS:
    case CJ_B_OP_ABS:
    case CJ_B_NP_ABSOLUTE:
    case CJ_B_NP_SIGN:
        if (n != 1 || !cj_type_is_number(a) || (id == CJ_B_NP_SIGN && a->kind == CJ_COMPLEX)) {
            return cj_no_match(c, in, name);
        }
        *out = id == CJ_B_NP_SIGN ? (a->kind == CJ_BOOL ? cj_t_int64 : a) : abs_type(a);
        if (a->kind == CJ_BOOL && id == CJ_B_ABS) {
            *out = cj_t_int8; /* numba: abs(bool) is int8 */
        }
        return 1;
    case CJ_B_NP_SQUARE:
        if (n != 1 || !cj_type_is_number(a)) {
            return cj_no_match(c, in, name);
        }
        *out = a->kind == CJ_BOOL ? cj_t_int64 : a;
        return 1;
    case CJ_B_ROUND:
        if (n == 1 && cj_type_is_number(a) && a->kind != CJ_COMPLEX) {
            *out = cj_t_int64;
            return 1;
        }
        if (n == 2 && cj_type_is_number(a) && a->kind != CJ_COMPLEX && cj_type_is_integer(b)) {
            *out = cj_type_is_integer(a) ? cj_t_int64 : a;
            return 1;
        }
        return cj_no_match(c, in, name);
    case CJ_B_POW:
    case CJ_B_NP_POWER:
        *out = n == 2 ? cj_rule_binop(CJ_POW, a, b, &in->optype) : NULL;
        return *out ? 1 : cj_no_match(c, in, name);
    default: { /* divmod */
        const cj_type *q = n == 2 ? cj_rule_binop(CJ_FLOORDIV, a, b, &in->optype) : NULL;
        if (q == NULL) {
            return cj_no_match(c, in, name);
        }
        const cj_type *items[2] = {q, q};
        *out = cj_type_tuple(2, items);
        return *out ? 1 : -1;
    }
    }
}

/* int(), float(), bool(), complex(). */
static int type_cast_call(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    switch (id) {
    case CJ_B_INT:
        return type_cast(c, in, id, a && a->kind == CJ_INT && !a->is_signed && a->bits == 64
                                    ? cj_t_uint64 : cj_t_int64, out, "<class 'int'>");
    case CJ_B_FLOAT: /* numba-cuda: float(float16) stays float16 in kernels */
        return type_cast(c, in, id, c->env->target == CJ_TARGET_CUDA && a == cj_t_float16
                                    ? cj_t_float16 : cj_t_float64, out, "<class 'float'>");
    case CJ_B_BOOL:
        if (n == 1 && a->kind == CJ_SET) {
            return cj_type_set_builtin(c, in, id, out); /* sets.c */
        }
        if (n == 1 && cj_rule_has_truth(a) && !cj_type_is_number(a)) { /* len != 0 (numba) */
            *out = cj_t_bool;
            return cj_plain_call(c, in, CJ_CALL_BUILTIN, CJ_B_OP_TRUTH) ? 1 : -1;
        }
        if (n == 1 && cj_rule_has_truth(a)) {
            return type_cast(c, in, id, cj_t_bool, out, "<class 'bool'>");
        }
        return cj_no_match(c, in, "<class 'bool'>");
    default: /* complex */
        if (n == 2 && all_numbers(c, in, 0)) {
            *out = cj_t_complex128;
            return cj_plain_call(c, in, CJ_CALL_BUILTIN, id) ? 1 : -1;
        }
        return type_cast(c, in, id, cj_t_complex128, out, "<class 'complex'>");
    }
}

/* math.log, gcd, ldexp, modf, frexp; cmath.phase, polar, rect. */
static int type_math_special(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    const cj_type *b = n >= 2 ? cj_vt(c, in->args[2]) : NULL;
    const char *name = cj_builtin_table[id].attr;
    switch (id) {
    case CJ_B_M_LOG:
        if ((n == 1 || n == 2) && all_numbers(c, in, 0)) {
            *out = n == 1 ? float_of(a) : cj_t_float64;
            return 1;
        }
        return cj_no_match(c, in, name);
    case CJ_B_M_GCD:
        if (n == 2 && cj_type_is_integer(a) && cj_type_is_integer(b)) {
            *out = cj_t_int64;
            return 1;
        }
        return cj_no_match(c, in, name);
    case CJ_B_M_LDEXP:
        if (n == 2 && cj_type_is_number(a) && a->kind != CJ_COMPLEX && cj_type_is_integer(b)) {
            *out = float_of(a);
            return 1;
        }
        return cj_no_match(c, in, name);
    case CJ_B_M_MODF:
    case CJ_B_M_FREXP: {
        if (n != 1 || !cj_type_is_number(a) || a->kind == CJ_COMPLEX) {
            return cj_no_match(c, in, name);
        }
        const cj_type *f = float_of(a);
        const cj_type *items[2] = {f, id == CJ_B_M_MODF ? f : cj_t_int32}; /* numba's */
        *out = cj_type_tuple(2, items);
        return *out ? 1 : -1;
    }
    case CJ_B_C_PHASE:
        *out = n == 1 && cj_type_is_number(a) ? cj_t_float64 : NULL;
        return *out ? 1 : cj_no_match(c, in, name);
    case CJ_B_C_POLAR: {
        const cj_type *items[2] = {cj_t_float64, cj_t_float64};
        *out = n == 1 && cj_type_is_number(a) ? cj_type_tuple(2, items) : NULL;
        return *out ? 1 : cj_no_match(c, in, name);
    }
    default: /* cmath.rect */
        *out = n == 2 && all_numbers(c, in, 0) ? cj_t_complex128 : NULL;
        return *out ? 1 : cj_no_match(c, in, name);
    }
}

/* len(x): tuples, arrays, ranges, lists, a.flat and dicts (dicts.c). */
static int type_len(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n == 1 ? cj_vt(c, in->args[1]) : NULL;
    if (n == 1 && (a->kind == CJ_DICT || cj_type_is_dict_view(a) || a->kind == CJ_SET)) {
        return a->kind == CJ_SET ? cj_type_set_builtin(c, in, CJ_B_LEN, out) /* sets.c */
                                 : cj_type_dict_builtin(c, in, CJ_B_LEN, out); /* dicts.c */
    }
    if (n == 1 && a->kind == CJ_LIST && a->dtype == NULL) {
        return 0; /* an empty list literal waits for its first append */
    }
    if (n == 1 && (a->kind == CJ_TUPLE || a->kind == CJ_ARRAY || a->kind == CJ_RANGE ||
                   a->kind == CJ_LIST || cj_type_is_flat(a))) {
        *out = cj_t_int64;
        return 1;
    }
    return cj_no_match(c, in, "len");
}

/* The builtins typed by their own rule rather than by a row of the table's rules. */
/* min, max, list, sorted, sum, next of an iterable: a set's (sets.c), a generator's
 * (generators.c), a list's or any iterable's (lists.c), else min/max of numbers. */
static int type_iterable_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    const char *name = cj_builtin_table[id].attr;
    const cj_type *start = id == CJ_B_SUM && n == 2 ? cj_vt(c, in->args[2]) : NULL;
    if (cj_type_is_str(start)) { /* CPython's refusal, in numba's words */
        return cj_typing_error(c, in, "sum() can't sum strings [use ''.join(seq) instead]");
    }
    if (n == 1 && a->kind == CJ_SET && id != CJ_B_LIST && id != CJ_B_SORTED && id != CJ_B_NEXT) {
        return cj_type_set_builtin(c, in, id, out); /* sets.c: sum, min, max */
    }
    int list = cj_type_tuple_builtin(c, in, id, out); /* tuples.c: sum(t), min/max of tuples */
    list = list == 2 ? cj_type_generator_call(c, in, id, out) : list;
    list = list == 2 && id != CJ_B_NEXT ? cj_type_list_builtin(c, in, id, out) : list;
    return list != 2                          ? list
           : id == CJ_B_MIN || id == CJ_B_MAX ? type_minmax(c, in, out, name)
                                              : cj_no_match(c, in, name);
}

static int type_special(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1;
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    const char *name = cj_builtin_table[id].attr;
    switch (id) {
    case CJ_B_ABS:
    case CJ_B_OP_ABS:
    case CJ_B_NP_ABSOLUTE:
    case CJ_B_NP_SIGN:
    case CJ_B_NP_SQUARE:
    case CJ_B_ROUND:
    case CJ_B_POW:
    case CJ_B_NP_POWER:
    case CJ_B_DIVMOD:
        return type_arith(c, in, id, out);
    case CJ_B_INT:
    case CJ_B_FLOAT:
    case CJ_B_BOOL:
    case CJ_B_COMPLEX:
        return type_cast_call(c, in, id, out);
    case CJ_B_M_LOG:
    case CJ_B_M_GCD:
    case CJ_B_M_LDEXP:
    case CJ_B_M_MODF:
    case CJ_B_M_FREXP:
    case CJ_B_C_PHASE:
    case CJ_B_C_POLAR:
    case CJ_B_C_RECT:
        return type_math_special(c, in, id, out);
    case CJ_B_MIN:
    case CJ_B_MAX:
    case CJ_B_LIST:
    case CJ_B_SORTED:
    case CJ_B_SUM:
    case CJ_B_NEXT:
        return type_iterable_builtin(c, in, id, out);
    case CJ_B_DICT:
    case CJ_B_HASH:
        return cj_type_dict_builtin(c, in, id, out); /* dicts.c */
    case CJ_B_SET:
        return cj_type_set_builtin(c, in, id, out); /* sets.c */
    case CJ_B_LEN:
        return type_len(c, in, out);
    case CJ_B_ISINSTANCE:
        return cj_type_isinstance(c, in, out); /* isinstance.c */
    case CJ_B_RANGE:
    case CJ_B_PRANGE: /* its loop runs on the pool under parallel=True (lower_prange.c) */
        return type_range(c, in, out);
    case CJ_B_GET_THREAD_ID:
    case CJ_B_GET_NUM_THREADS:
        *out = cj_t_int64;
        return n == 0 ? 1 : cj_no_match(c, in, name);
    case CJ_B_ENUMERATE:
    case CJ_B_ZIP:
    case CJ_B_NP_NDENUMERATE:
    case CJ_B_NP_NDINDEX:
        return cj_type_iterator_call(c, in, id, out); /* iterators.c */
    case CJ_B_OP_GETITEM: /* operator.getitem(x, i) is x[i]: the call becomes a getitem */
        if (n != 2) {
            return cj_no_match(c, in, name);
        }
        in->op = CJ_I_GETITEM;
        in->args = in->args + 1;
        in->nargs = 2;
        in->resolved = NULL;
        return cj_type_getitem(c, in, out);
    case CJ_B_GETATTR:
    case CJ_B_HASATTR: /* getattr_builtin.c: decided at compile time */
        return cj_type_getattr_builtin(c, in, id == CJ_B_HASATTR, out);
    case CJ_B_TYPE:
        return cj_type_type_builtin(c, in, out); /* type_builtin.c */
    case CJ_B_SLICE:
        return cj_type_slice_call(c, in, out); /* slices.c: becomes a BUILD_SLICE */
    case CJ_B_OP_TRUTH:
        *out = n == 1 && cj_rule_has_truth(a) ? cj_t_bool : NULL;
        return *out ? 1 : cj_no_match(c, in, name);
    default:
        return cj_no_match(c, in, name);
    }
}

/* The builtins on arrays typed elsewhere: np.arange ... (array_create.c), np.reshape ...
 * (array_shape.c), np.dot/np.vdot (array_linalg.c), np.sort (array_sort.c), np.nonzero,
 * np.where(c), np.argwhere, np.searchsorted (array_search.c), np.concatenate ... (array_join.c),
 * ufuncs of arrays, the operator ufuncs, np.where and np.clip (array_expr.c): 1, -1, or 0 for
 * the others. */
static int type_array_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const cj_builtin_info *b = &cj_builtin_table[id];
    int n = in->nargs - 1;
    if (cj_builtin_creates(id)) { /* array_create.c */
        return cj_type_array_create(c, in, id, out);
    }
    if (cj_builtin_shapes(id)) { /* array_shape.c */
        return cj_type_array_shape(c, in, id, NULL, out);
    }
    if (id == CJ_B_NP_SORT || id == CJ_B_NP_ARGSORT) { /* array_sort.c */
        return cj_type_array_sort(c, in, id, NULL, out);
    }
    if (cj_builtin_searches(id) || (id == CJ_B_NP_WHERE && n == 1)) { /* array_search.c */
        return cj_type_array_search(c, in, id, NULL, out);
    }
    if (cj_builtin_joins(id)) { /* array_join.c */
        return cj_type_array_join(c, in, id, out);
    }
    if (id == CJ_B_NP_DOT || id == CJ_B_NP_VDOT) { /* array_linalg.c */
        int npos = n - in->index;
        if (in->index > 0 || npos < 2 || npos > (id == CJ_B_NP_DOT ? 3 : 2)) {
            return cj_typing_error(c, in, "%s() takes 2 %sarguments", b->attr,
                                   id == CJ_B_NP_DOT ? "(or 3: out) positional " : "");
        }
        if (cj_plain_call(c, in, CJ_CALL_BUILTIN, id) == NULL) {
            return -1;
        }
        return cj_type_array_dot(c, in, id == CJ_B_NP_VDOT, in->args[1], in->args[2],
                                 n == 3 ? in->args[3] : -1, out);
    }
    int arrays = 0;
    for (int i = 1; i < in->nargs; i++) {
        arrays |= cj_vt(c, in->args[i])->kind == CJ_ARRAY;
    }
    /* array_expr.c: np.sqrt(a), abs(a), ...; np.add(x, y) ... even of numbers */
    int numpy = strcmp(b->module, "numpy") == 0;
    if ((arrays && (numpy || id == CJ_B_ABS)) || cj_builtin_operator_ufunc(id) ||
        cj_builtin_select(id)) {
        return cj_type_array_ufunc(c, in, id, out);
    }
    return 0;
}

static int type_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const cj_builtin_info *b = &cj_builtin_table[id];
    int n = in->nargs - 1, numpy = strcmp(b->module, "numpy") == 0;
    /* keywords: array_new.c, sorted's reverse= (lists.c), print's (objmode_typing.c) */
    if (cj_builtin_makes_array(id) || id == CJ_B_SORTED || id == CJ_B_PRINT) {
        return id == CJ_B_SORTED  ? cj_type_list_builtin(c, in, id, out)
               : id == CJ_B_PRINT ? cj_type_print_call(c, in, out)
                                  : cj_type_array_new(c, in, id, out);
    }
    if (cj_builtin_random(id) || cj_builtin_py_random(id)) { /* np.random, random */
        return cj_builtin_random(id) ? cj_type_array_random(c, in, id, out)
                                     : cj_type_py_random(c, in, id, out);
    }
    if (cj_builtin_reduces(id)) { /* array_reduce.c */
        return cj_type_array_reduce(c, in, id, NULL, out);
    }
    if (cj_builtin_array_method(id)) { /* array_methods.c */
        return cj_type_array_method(c, in, id, NULL, out);
    }
    int rc = type_array_builtin(c, in, id, out);
    if (rc != 0) {
        return rc;
    }
    if (in->index > 0) { /* min/max's key= (sort_key.c) */
        return id == CJ_B_MIN || id == CJ_B_MAX
                   ? cj_type_minmax_key(c, in, id == CJ_B_MAX, out)
                   : cj_typing_error(c, in, "%s() takes no keyword arguments in cujit", b->attr);
    }
    if (cj_plain_call(c, in, CJ_CALL_BUILTIN, id) == NULL) {
        return -1;
    }
    const cj_type *a = n >= 1 ? cj_vt(c, in->args[1]) : NULL;
    if (c->env->target == CJ_TARGET_CUDA && cj_cuda_fp16_math(id, n, a)) {
        *out = cj_t_float16; /* numba-cuda's math.sin(float16) and co. (cuda_fp16_rules.c) */
        return 1;
    }
    switch (b->rule) {
    case CJ_R_F1:
    case CJ_R_TO_INT:
        if (n != 1 || !cj_type_is_number(a) || a->kind == CJ_COMPLEX) {
            return cj_no_match(c, in, b->attr);
        }
        *out = b->rule == CJ_R_TO_INT ? cj_t_int64 : numpy ? np_float_of(a) : float_of(a);
        return 1;
    case CJ_R_F2:
        if (n != 2 || !all_numbers(c, in, 0)) {
            return cj_no_match(c, in, b->attr);
        }
        *out = cj_rule_float_result(a, cj_vt(c, in->args[2]));
        if (!numpy && (cj_type_is_integer(a) || cj_type_is_integer(cj_vt(c, in->args[2])))) {
            *out = cj_t_float64; /* math functions take integers as float64 */
        }
        return 1;
    case CJ_R_PRED:
        if (n != 1 || !cj_type_is_number(a)) {
            return cj_no_match(c, in, b->attr);
        }
        *out = cj_t_bool;
        return 1;
    case CJ_R_C1:
        if (n != 1 || !cj_type_is_number(a)) {
            return cj_no_match(c, in, b->attr);
        }
        *out = a->kind == CJ_COMPLEX && a->bits == 64 ? cj_t_complex64 : cj_t_complex128;
        return 1;
    case CJ_R_MINMAX2:
        if (n != 2 || !all_numbers(c, in, 0)) {
            return cj_no_match(c, in, b->attr);
        }
        *out = cj_promote(a, cj_vt(c, in->args[2]));
        return 1;
    case CJ_R_BINOP:
    case CJ_R_CMPOP:
    case CJ_R_UNOP:
        return type_operator_fn(c, in, id, out);
    case CJ_R_SPECIAL:
        return type_special(c, in, id, out);
    }
    return cj_no_match(c, in, b->attr);
}

static int type_method_call(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                            const cj_type **out) {
    const char *name = PyUnicode_AsUTF8(bound->obj);
    if (name == NULL) {
        return -1;
    }
    if (strcmp(name, "conjugate") == 0 && in->nargs == 1 && cj_type_is_number(bound->source)) {
        if (cj_plain_call(c, in, CJ_CALL_METHOD, CJ_B_METH_CONJUGATE) == NULL) {
            return -1;
        }
        *out = bound->source->kind == CJ_BOOL ? cj_t_int64 : bound->source;
        return 1;
    }
    if (bound->source->kind == CJ_TUPLE) {
        return cj_type_tuple_method(c, in, bound, out); /* tuples.c: t.index(x) */
    }
    if (bound->source->kind == CJ_LIST) {
        return cj_type_list_method(c, in, bound, out); /* lists.c */
    }
    if (bound->source->kind == CJ_DICT || bound->source->kind == CJ_SET) { /* dicts.c, sets.c */
        return bound->source->kind == CJ_DICT ? cj_type_dict_method(c, in, bound, out)
                                              : cj_type_set_method(c, in, bound, out);
    }
    if (bound->source->kind == CJ_CONST_OBJ && cj_is_ffi_instance(bound->source->obj)) {
        /* ffi.from_buffer (cpointer.c) */
        return cj_type_ffi_method(c, in, bound, out);
    }
    int reduction = bound->source->kind == CJ_ARRAY ? cj_reduction_by_name(name) : -1;
    if (reduction >= 0 && strcmp(name, "amin") != 0 && strcmp(name, "amax") != 0) {
        return cj_type_array_reduce(c, in, reduction, bound->source, out);
    }
    int sorting = bound->source->kind == CJ_ARRAY ? cj_sort_method_by_name(name) : -1;
    if (sorting >= 0) { /* array_sort.c */
        return cj_type_array_sort(c, in, sorting, bound->source, out);
    }
    int search = bound->source->kind == CJ_ARRAY ? cj_search_method_by_name(name) : -1;
    if (search >= 0) { /* array_search.c */
        return cj_type_array_search(c, in, search, bound->source, out);
    }
    int method = bound->source->kind == CJ_ARRAY ? cj_array_method_by_name(name) : -1;
    if (method >= 0) {
        return cj_type_array_method(c, in, method, bound->source, out);
    }
    method = bound->source->kind == CJ_ARRAY ? cj_shape_method_by_name(name) : -1;
    if (method >= 0) {
        return cj_type_array_shape(c, in, method, bound->source, out);
    }
    int ext = cj_type_extension_method(c, in, bound, out); /* extensions.c */
    if (ext != 2) {
        return ext;
    }
    return cj_typing_error(c, in, "Unknown attribute '%s' of type %s", name,
                           bound->source->name);
}

/* A NumPy scalar class (np.float32) as a cast target, or NULL. */
static const cj_type *numpy_scalar_class(PyObject *obj) {
    if (!PyType_Check(obj) || !PyType_IsSubtype((PyTypeObject *)obj, &PyGenericArrType_Type)) {
        return NULL;
    }
    PyArray_Descr *d = PyArray_DescrFromTypeObject(obj);
    if (d == NULL) {
        PyErr_Clear();
        return NULL;
    }
    const cj_type *t = cj_type_from_npy_typenum(d->type_num);
    Py_DECREF(d);
    return t;
}

/* "numpy.sum", "numpy.fft.fft", "numpy.sqrt" for a NumPy function or ufunc (new), else NULL
 * with no exception. NumPy's own private modules (numpy.core..., numpy._core...) are spelled
 * as users know the function: numpy.<name>. */
static PyObject *numpy_function_name(PyObject *obj) {
    PyObject *name = PyObject_GetAttrString(obj, "__name__");
    int ufunc = strcmp(Py_TYPE(obj)->tp_name, "numpy.ufunc") == 0;
    PyObject *module = name && !ufunc ? PyObject_GetAttrString(obj, "__module__") : NULL;
    const char *n = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    const char *m = module && PyUnicode_Check(module) ? PyUnicode_AsUTF8(module) : NULL;
    PyObject *full = NULL;
    if (n != NULL && (ufunc || (m != NULL && strncmp(m, "numpy", 5) == 0 &&
                                (m[5] == '\0' || m[5] == '.')))) {
        int public = m != NULL && strstr(m, "core") == NULL && strchr(m, '_') == NULL;
        full = public ? PyUnicode_FromFormat("%s.%s", m, n) : PyUnicode_FromFormat("numpy.%s", n);
    }
    Py_XDECREF(module);
    Py_XDECREF(name);
    PyErr_Clear();
    return full;
}

static int untyped_global(cj_infer_ctx *c, cj_instr *in) {
    cj_instr *d = c->def[in->args[0]];
    PyObject *obj = cj_vt(c, in->args[0])->obj;
    PyObject *np_name = numpy_function_name(obj);
    if (np_name != NULL) { /* numba's words */
        int rc = cj_typing_error(c, in, "Use of unsupported NumPy function '%U' or unsupported "
                                        "use of the function.", np_name);
        Py_DECREF(np_name);
        return rc;
    }
    PyObject *builtin = d != NULL && d->op == CJ_I_GLOBAL && d->name != NULL
                            ? PyDict_GetItemWithError(PyEval_GetBuiltins(), d->name) /* borrowed */
                            : NULL;
    PyErr_Clear();
    if (builtin != NULL && builtin == obj) {
        return cj_typing_error(c, in, "Untyped global name '%U': the built-in %U() is not "
                                      "supported in cujit compiled code", d->name, d->name);
    }
    if (d != NULL && d->op == CJ_I_GLOBAL && d->name != NULL) {
        return cj_typing_error(c, in, "Untyped global name '%U': Cannot determine cujit type "
                                      "of %R", d->name, (PyObject *)Py_TYPE(obj));
    }
    return cj_typing_error(c, in, "cannot call %R in cujit code", obj);
}

int cj_type_call(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    for (int i = 0; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (t == NULL && i > 0 && cj_vt(c, in->args[0]) != NULL) {
            cj_work_wake_literal(c, in->args[i]); /* it waited for this callee (lists.c) */
        }
        if (t == NULL || (i > 0 && cj_type_is_unrefined(t))) {
            return 0; /* an argument not typed yet, or a list not yet refined (lists.c) */
        }
    }
    const cj_type *callee = cj_vt(c, in->args[0]);
    if (in->flags & CJ_F_STAR_CALL) { /* g(*t) (starargs.c) */
        return cj_type_star_call(c, in, out);
    }
    if (callee->kind == CJ_BOUND) {
        return type_method_call(c, in, callee, out);
    }
    if (callee->kind != CJ_CONST_OBJ) {
        return cj_typing_error(c, in, "object of type %s is not callable", callee->name);
    }
    PyObject *obj = callee->obj;
    int ext = cj_type_extension_call(c, in, obj, out); /* overloads come first (numba) */
    if (ext != 2) {
        return ext;
    }
    int typed = cj_type_typed_list_call(c, in, obj, out); /* lists.c */
    typed = typed == 2 ? cj_type_typed_dict_call(c, in, obj, out) : typed; /* dicts.c */
    if (typed != 2) {
        return typed;
    }
    const cj_type *cast = cj_type_from_py(obj);
    if (cast == NULL) {
        cast = numpy_scalar_class(obj);
    }
    if (cast != NULL) {
        return type_cast(c, in, -1, cast, out, cast->name);
    }
    int cuda = cj_cuda_type_call(c, in, obj, out); /* CUDA intrinsics (cuda_typing.c) */
    if (cuda != 2) {
        return cuda;
    }
    int id = cj_builtin_lookup(obj);
    if (id >= 0) {
        return type_builtin(c, in, id, out);
    }
    int library = cj_type_library_call(c, in, obj, out); /* jitted_calls.c: np.diff ... */
    library = library == 2 ? cj_type_literal_unroll(c, in, obj, out) : library;
    if (library != 2) {
        return library;
    }
    if (PyType_Check(obj) &&
        PyType_IsSubtype((PyTypeObject *)obj, (PyTypeObject *)PyExc_BaseException)) {
        return cj_type_exception_call(c, in, obj, out); /* try_except.c */
    }
    PyObject *pyfunc = c->env->dispatcher_pyfunc ? c->env->dispatcher_pyfunc(obj) : NULL;
    if (pyfunc != NULL) {
        return cj_type_dispatcher_call(c, in, obj, pyfunc, out);
    }
    if (cj_is_objmode_block(obj)) {
        return cj_type_objmode_call(c, in, obj, out);
    }
    ext = cj_extension_no_match(c, in, obj);
    return ext != 2 ? ext : untyped_global(c, in);
}
