/* infer.c: type inference.
 * requires: IR from the frontend; produces: a type for every variable of the reachable blocks,
 * instr->optype / resolved for lowering, blocks pruned where a branch is decided at compile
 * time (`if x is None` with None passed, isinstance), the return type, and each Optional
 * operand an instruction takes as its value read through a checked copy (optional.c).
 * A fixpoint: a variable's type is the unification of everything assigned to it; types only
 * widen, so typing stops changing (a bound far above what the lattice allows is a TypingError,
 * never a half-typed function). A worklist: each round (a sweep in block order) re-types only
 * the instructions that read a variable that widened (a uses index built once), the calls
 * that read the return type when it widened, and the blocks a decided branch opened. That
 * is exactly what whole rounds over every instruction did (typing an instruction again from
 * the same operands changes nothing), in the same order, so types, errors and pruning match. */
#include "typing/infer_internal.h"
#include "util/npy.h"

#include <stdarg.h>
#include <string.h>

/* rounds allowed per variable and block: the widenings one can see (KNOWN_UNSET -> a value ->
 * KNOWN_VARIES; a type up the numeric ladder or, in a tuple, each item's) */
#define ROUNDS_PER_ITEM 64
#define KNOWN_UNSET (-1)
#define KNOWN_VARIES 2


int cj_typing_error(cj_infer_ctx *c, const cj_instr *in, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cj_ir_errorv(c->ir, cj_TypingError, in ? in->line : c->ir->firstline,
                 "Failed in cujit nopython pipeline (step: typing)\n", fmt, ap);
    va_end(ap);
    return -1;
}

int cj_unsupported_error(cj_infer_ctx *c, const cj_instr *in, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cj_ir_errorv(c->ir, cj_UnsupportedError, in ? in->line : c->ir->firstline, "", fmt, ap);
    va_end(ap);
    return -1;
}

PyObject *cj_argtypes_text(cj_infer_ctx *c, const cj_instr *in, int first) {
    PyObject *parts = PyList_New(0);
    for (int i = first; parts != NULL && i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        PyObject *s = PyUnicode_FromString(t ? t->name : "?");
        if (s == NULL || PyList_Append(parts, s) < 0) {
            Py_XDECREF(s);
            Py_CLEAR(parts);
        }
        Py_XDECREF(s);
    }
    if (parts == NULL) {
        return NULL;
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *joined = sep ? PyUnicode_Join(sep, parts) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(parts);
    if (joined == NULL) {
        return NULL;
    }
    PyObject *r = PyUnicode_FromFormat("(%U)", joined);
    Py_DECREF(joined);
    return r;
}

PyObject *cj_const_of(cj_infer_ctx *c, int var) {
    cj_instr *d = c->def[var];
    while (d != NULL && d->op == CJ_I_COPY) {
        d = c->def[d->args[0]];
    }
    return d != NULL && d->op == CJ_I_CONST ? d->obj : NULL;
}

/* ---- constants ---- */

static const cj_type *const_tuple_type(PyObject *value) {
    Py_ssize_t n = PyTuple_GET_SIZE(value);
    const cj_type *items[256];
    if (n > 256) {
        PyErr_SetString(cj_UnsupportedError, "constant tuples of more than 256 items");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        items[i] = cj_const_type(PyTuple_GET_ITEM(value, i));
        if (items[i] == NULL) {
            return NULL;
        }
    }
    return cj_type_tuple((int)n, items);
}

const cj_type *cj_const_type(PyObject *value) {
    if (PyUnicode_Check(value) || PyArray_DescrCheck(value)) { /* strings, np.dtype('f4') */
        return cj_type_const_obj(value);
    }
    if (PyTuple_Check(value)) {
        return const_tuple_type(value);
    }
    const cj_type *t = cj_typeof(value);
    if (t != NULL && t->kind == CJ_ARRAY) {
        /* global arrays are frozen into the code: read-only, C order copies */
        return cj_type_array(t->dtype, t->ndim, 'C', 1);
    }
    return t;
}

/* The int of `value` (itself or an item of a constant tuple) that cj_const_type refused. */
static PyObject *refused_int(PyObject *value, int depth) {
    if (PyTuple_Check(value) && depth < CJ_MAX_NESTING) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); i++) {
            PyObject *item = refused_int(PyTuple_GET_ITEM(value, i), depth + 1);
            if (item != NULL) {
                return item;
            }
        }
        return NULL;
    }
    return PyLong_Check(value) && cj_typeof(value) == NULL ? value : NULL;
}

/* The type of the constant `value` that `in` reads; an int past uint64 (a literal, a folded
 * expression, a global, a default, a tuple's item) is numba's TypingError at `in`. */
int cj_const_type_at(cj_infer_ctx *c, const cj_instr *in, PyObject *value, const cj_type **out) {
    *out = cj_const_type(value);
    if (*out == NULL && PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyObject *big = refused_int(value, 0);
        PyErr_Clear();
        return cj_typing_error(c, in, "Int value is too large: %R", big ? big : value);
    }
    return *out == NULL ? -1 : 1;
}

/* ---- per-instruction typing ---- */

static int type_binop(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *a = cj_vt(c, in->args[0]), *b = cj_vt(c, in->args[1]);
    if (a == NULL || b == NULL) {
        return 0;
    }
    if (a->kind == CJ_ARRAY || b->kind == CJ_ARRAY) {
        return cj_type_array_op(c, in, out); /* array_expr.c */
    }
    if (a->kind == CJ_SET || b->kind == CJ_SET) {
        return cj_type_set_op(c, in, a, b, out); /* sets.c */
    }
    *out = cj_rule_binop(in->sub, a, b, &in->optype);
    if (c->env->target == CJ_TARGET_CUDA) {
        cj_cuda_fp16_binop(in->sub, a, b, out, &in->optype);
    }
    in->flags &= ~CJ_F_CONST_EXP;
    if (*out != NULL && in->sub == CJ_POW && cj_type_is_integer(b)) {
        /* a constant integer exponent: multiplied out at lowering (numba's DetectStaticBinops
         * finds it the same way; the values are those of its run-time loop either way) */
        PyObject *k = cj_const_of(c, in->args[1]);
        int overflow = 0;
        long long n = k != NULL && PyLong_Check(k) ? PyLong_AsLongLongAndOverflow(k, &overflow)
                                                   : 0;
        if (k != NULL && PyLong_Check(k) && !overflow && n >= -0x10000 && n <= 0x10000) {
            in->flags |= CJ_F_CONST_EXP;
            in->index = (int)n;
        }
    }
    if (*out == NULL) {
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in,
            "No implementation of function Function(<built-in function %s>) found for "
            "signature:\n \n >>> %s(%s, %s)", cj_binop_symbol(in->sub),
            cj_binop_symbol(in->sub), a->name, b->name);
    }
    return 1;
}

static int type_unary(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *a = cj_vt(c, in->args[0]);
    if (a == NULL) {
        return 0;
    }
    if (a->kind == CJ_ARRAY) {
        return cj_type_array_op(c, in, out); /* array_expr.c */
    }
    *out = cj_rule_unary(in->sub, a);
    if (*out == NULL) {
        return cj_typing_error(c, in, "No implementation of function Function(<built-in "
                                      "function %s>) found for signature:\n \n >>> %s(%s)",
                               cj_unop_symbol(in->sub), cj_unop_symbol(in->sub), a->name);
    }
    in->optype = *out;
    if (in->sub == CJ_NOT) {
        cj_var *v = CJ_VAR(c->ir, in->args[0]);
        in->index = v->known; /* for pruning: not <known> is known */
    }
    return 1;
}

static int type_compare(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *a = cj_vt(c, in->args[0]), *b = cj_vt(c, in->args[1]);
    if (a == NULL || b == NULL) {
        return 0;
    }
    /* `out is None` with an array passed is a known False, decided by type (numba) */
    int identity_to_none = (in->sub == CJ_IS || in->sub == CJ_ISNOT) &&
                           (a->kind == CJ_NONE || b->kind == CJ_NONE);
    if ((a->kind == CJ_ARRAY || b->kind == CJ_ARRAY) && !identity_to_none) {
        return cj_type_array_op(c, in, out); /* array_expr.c */
    }
    if ((a->kind == CJ_SET || b->kind == CJ_SET) && !identity_to_none) {
        return cj_type_set_op(c, in, a, b, out); /* sets.c: `in`, ==, <=, ... */
    }
    if (b->kind == CJ_LIST && (in->sub == CJ_IN || in->sub == CJ_NOTIN)) {
        return cj_type_list_contains(c, in, a, b, out); /* lists.c */
    }
    if ((b->kind == CJ_DICT || (cj_type_is_dict_view(b) && b->iter_kind == CJ_ITER_DICT_KEYS)) &&
        (in->sub == CJ_IN || in->sub == CJ_NOTIN)) { /* k in d, k in d.keys() */
        return cj_type_dict_contains(c, in, a, b->kind == CJ_DICT ? b : b->source, out);
    }
    int special = cj_type_enum_compare(c, in, a, b, out); /* enums.c: Color.RED == ... */
    if (special == 2 && (a->kind == CJ_TUPLE || b->kind == CJ_TUPLE)) {
        special = cj_type_tuple_compare(c, in, a, b, out); /* tuples.c: in, or waits */
    }
    if (special != 2) {
        return special;
    }
    *out = cj_rule_compare(in->sub, a, b, &in->optype);
    if (*out == NULL) {
        return cj_typing_error(c, in, "No implementation of function Function(<built-in "
                                      "function %s>) found for signature:\n \n >>> %s(%s, %s)",
                               cj_cmpop_symbol(in->sub), cj_cmpop_symbol(in->sub), a->name,
                               b->name);
    }
    return 1;
}

/* Two integer constants compared (`a.ndim == 1`, whose ndim typing made a constant): its
 * truth, so the branch it decides is pruned and each rank compiles only its own code. */
static int known_comparison(cj_infer_ctx *c, const cj_instr *in) {
    static const int ops[] = {[CJ_LT] = Py_LT, [CJ_LE] = Py_LE, [CJ_EQ] = Py_EQ,
                              [CJ_NE] = Py_NE, [CJ_GT] = Py_GT, [CJ_GE] = Py_GE};
    PyObject *x = cj_const_of(c, in->args[0]), *y = cj_const_of(c, in->args[1]);
    if (in->sub > CJ_GE || x == NULL || y == NULL || !PyLong_Check(x) || !PyLong_Check(y)) {
        return KNOWN_VARIES;
    }
    int r = PyObject_RichCompareBool(x, y, ops[in->sub]);
    if (r < 0) {
        PyErr_Clear();
        return KNOWN_VARIES;
    }
    return r;
}

/* Whether a value of type `t` can never be None. */
static int never_none(const cj_type *t) {
    return t->kind == CJ_ARRAY || t->kind == CJ_TUPLE || cj_type_is_number(t);
}

/* Whether the function being typed is one of cujit.np.arraymath's NumPy implementations,
 * where `size is None` stands for the type test of numba's @overload functions. */
static int in_library(cj_infer_ctx *c) {
    PyObject *disp = c->env->self_dispatcher;
    PyObject *f = disp && c->env->dispatcher_pyfunc ? c->env->dispatcher_pyfunc(disp) : NULL;
    PyObject *mod = f ? PyObject_GetAttrString(f, "__module__") : NULL;
    if (f != NULL && mod == NULL) {
        PyErr_Clear(); /* no module: not the library */
    }
    int yes = mod && PyUnicode_Check(mod) &&
              PyUnicode_CompareWithASCIIString(mod, "cujit.np.arraymath") == 0;
    Py_XDECREF(mod);
    return yes;
}

/* The compile-time truth of a variable's value, or KNOWN_VARIES. */
static int known_value(cj_infer_ctx *c, const cj_instr *in) {
    switch (in->op) {
    case CJ_I_CONST:
        if (in->obj == Py_None || PyBool_Check(in->obj)) {
            return in->obj == Py_True;
        }
        return KNOWN_VARIES;
    case CJ_I_COPY:
        return CJ_VAR(c->ir, in->args[0])->known;
    case CJ_I_COMPARE: {
        if (in->sub != CJ_IS && in->sub != CJ_ISNOT) {
            return known_comparison(c, in);
        }
        const cj_type *a = cj_vt(c, in->args[0]), *b = cj_vt(c, in->args[1]);
        int a_none = a->kind == CJ_NONE || a->kind == CJ_OMITTED;
        int b_none = b->kind == CJ_NONE || b->kind == CJ_OMITTED;
        if (a->kind == CJ_OMITTED) {
            a_none = a->obj == Py_None;
        }
        if (b->kind == CJ_OMITTED) {
            b_none = b->obj == Py_None;
        }
        if (a_none != b_none && never_none(a_none ? b : a) && in_library(c)) {
            /* an array, tuple or number is never None: in the library `size is None` with
             * a tuple passed is decided by type, as numba's overloads decide it */
            return in->sub == CJ_ISNOT;
        }
        if (!a_none || !b_none) {
            /* numba prunes only when the value is None: with a value passed, both sides are
             * typed (and must unify) */
            return KNOWN_VARIES;
        }
        return in->sub == CJ_IS;
    }
    case CJ_I_UNARY:
        if (in->sub == CJ_NOT && (in->index == 0 || in->index == 1)) {
            return !in->index;
        }
        return KNOWN_VARIES;
    case CJ_I_ARG: {
        const cj_type *t = cj_vt(c, in->dst);
        return t && t->kind == CJ_NONE ? 0 : KNOWN_VARIES;
    }
    case CJ_I_CALL:
        return cj_call_known(in); /* isinstance.c */
    default:
        return KNOWN_VARIES;
    }
}

/* Unifies `t` into variable `var`; TypingError when the two cannot unify. */
int cj_assign(cj_infer_ctx *c, cj_instr *in, int var, const cj_type *t) {
    cj_var *v = CJ_VAR(c->ir, var);
    if (t == NULL) {
        return 0;
    }
    if (t->kind == CJ_VOID) {
        t = cj_t_none;
    }
    const cj_type *u = v->type == NULL ? t : cj_unify(v->type, t);
    if (u == NULL) {
        if (PyErr_Occurred()) {
            return -1;
        }
        char name[256];
        return cj_typing_error(c, in, "Cannot unify %s and %s for '%s', defined at %s (%d)",
                               v->type->name, t->name, cj_var_source_name(v, name, sizeof(name)),
                               c->ir->filename, v->line);
    }
    if (u != v->type) {
        v->type = u;
        c->changed = 1;
        cj_work_widened(c, var, 0);
    }
    return 0;
}

static int assign_known(cj_infer_ctx *c, int var, int known) {
    cj_var *v = CJ_VAR(c->ir, var);
    int merged = v->known == KNOWN_UNSET ? known : (v->known == known ? known : KNOWN_VARIES);
    if (merged != v->known) {
        v->known = merged;
        c->changed = 1;
        cj_work_widened(c, var, 1);
    }
    return 0;
}

static int type_return(cj_infer_ctx *c, cj_instr *in) {
    if (c->ir->is_generator) {
        return cj_type_generator_return(c, in); /* generators.c */
    }
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL) {
        return 0;
    }
    if ((t = cj_type_unliteral(t)) == NULL) { /* 'abc' returns a unicode_type */
        return -1;
    }
    if (t->kind == CJ_CONST_OBJ || t->kind == CJ_ITER || t->kind == CJ_OMITTED) {
        return cj_typing_error(c, in, "cannot return a value of type %s", t->name);
    }
    if (cj_record_return_check(c, in, t) < 0 || cj_generator_return_check(c, in, t) < 0) {
        return -1; /* record_access.c, generators.c */
    }
    const cj_type *u = c->ret == NULL ? t : cj_unify(c->ret, t);
    if (u == NULL) {
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in,
            "Can't unify return type from the following types: %s, %s", c->ret->name,
            t->name);
    }
    if (u != c->ret) {
        c->ret = u;
        c->changed = 1;
        cj_work_widened(c, -1, 0);
    }
    return 1;
}

static int type_raise(cj_infer_ctx *c, cj_instr *in) {
    const cj_type *t = cj_vt(c, in->args[0]);
    if (t == NULL || CJ_VAR(c->ir, in->args[0])->caught) {
        return t == NULL ? 0 : 1; /* a caught exception: raised again */
    }
    PyObject *obj = t->kind == CJ_CONST_OBJ ? t->obj : NULL;
    int is_class = obj && PyType_Check(obj) &&
                   PyType_IsSubtype((PyTypeObject *)obj, (PyTypeObject *)PyExc_BaseException);
    int is_instance = obj && PyExceptionInstance_Check(obj);
    if (!is_class && !is_instance) {
        return cj_unsupported_error(c, in, "cujit can only raise exception classes or "
                                           "exceptions made from constant arguments, not %s",
                                    t->name);
    }
    return 1;
}

static int type_build_tuple(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *items[256];
    if (in->flags & (CJ_F_DICT | CJ_F_SET)) { /* dicts.c, sets.c */
        return in->flags & CJ_F_DICT ? cj_type_dict_display(c, in, out)
                                     : cj_type_set_display(c, in, out);
    }
    int list = in->flags & CJ_F_LIST ? cj_type_list_literal(c, in, out) : 2;
    if (list != 2) {
        return list; /* lists.c: a list, unless np.array() or a join reads it */
    }
    if (in->nargs > 256) { /* a display of that many items (frontend/build_bigtuple.c) */
        return cj_unsupported_error(c, in, "tuples of more than 256 items are not supported");
    }
    for (int i = 0; i < in->nargs; i++) {
        items[i] = cj_vt(c, in->args[i]);
        if (items[i] == NULL) {
            return 0;
        }
    }
    *out = cj_type_tuple(in->nargs, items);
    return *out ? 1 : -1;
}

static int type_truth(cj_infer_ctx *c, cj_instr *in, const cj_type *t) {
    if (t->kind == CJ_OPTIONAL) { /* numba refuses it: test `x is None` */
        return cj_typing_error(c, in, "No implementation of function Function(<class 'bool'>) "
                                      "found for signature:\n \n >>> bool(%s)", t->name);
    }
    if (!cj_rule_has_truth(t)) {
        return cj_typing_error(c, in, "the truth value of %s is not supported (use an "
                                      "explicit comparison)", t->name);
    }
    return 1;
}

/* CONST: its Python value's type. */
static int type_const(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    return cj_const_type_at(c, in, in->obj, out);
}

/* ARG: the argument's type; an omitted argument is its default, a constant. */
static int type_arg(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    *out = c->argtypes[in->index];
    if ((*out)->kind == CJ_LIST && c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "lists are not supported in CUDA code");
    }
    if ((*out)->kind == CJ_UNICODE && c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "strings are not supported in CUDA code (only as "
                                           "constant print() arguments and exception messages)");
    }
    return (*out)->kind == CJ_OMITTED ? cj_const_type_at(c, in, (*out)->obj, out) : 1;
}

/* GLOBAL: modules, classes and callables are typed where they are used. */
static int type_global(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (!PyModule_Check(in->obj) && !PyType_Check(in->obj) && !PyCallable_Check(in->obj) &&
        !PyArray_DescrCheck(in->obj) && !cj_is_ffi_instance(in->obj)) { /* cpointer.c */
        if ((*out = cj_typeof_extension(in->obj)) != NULL || PyErr_Occurred()) {
            return *out ? 1 : cj_reraise_at(c, in, NULL); /* typeof_impl: lower_constant's */
        }
        return cj_typing_error(c, in, "Untyped global name '%U': Cannot determine cujit "
                                      "type of %R", in->name ? in->name : Py_None,
                               (PyObject *)Py_TYPE(in->obj));
    }
    *out = cj_type_const_obj(in->obj);
    return *out ? 1 : -1;
}

/* ITERNEXT: the iterator's item type; dst2 (the "got one" flag) is a bool. */
static int type_iternext(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    const cj_type *it = cj_vt(c, in->args[0]);
    if (it == NULL) {
        return 0;
    }
    if (cj_assign(c, in, in->dst2, cj_t_bool) < 0 || assign_known(c, in->dst2, KNOWN_VARIES) < 0) {
        return -1;
    }
    *out = it->yield;
    return 1;
}

/* The type of the value an instruction produces; 1 done, 0 operands not known yet, -1 error. */
static int type_value(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    int rc = cj_type_str_instr(c, in, out); /* strings.c */
    if (rc != 2) {
        return rc;
    }
    if ((rc = cj_type_list_operator(c, in, out)) != 2) { /* list_ops.c */
        return rc;
    }
    if ((rc = cj_type_range_op(c, in, out)) != 2) { /* range_ops.c */
        return rc;
    }
    if (cj_record_operands_check(c, in) < 0) { /* record_access.c */
        return -1;
    }
    switch (in->op) {
    case CJ_I_CONST:
        return type_const(c, in, out);
    case CJ_I_ARG:
        return type_arg(c, in, out);
    case CJ_I_GLOBAL:
        return type_global(c, in, out);
    case CJ_I_COPY:
        *out = cj_vt(c, in->args[0]);
        rc = *out == NULL ? 0 : in->flags & CJ_F_LIST ? cj_type_list_literal(c, in, out) : 1;
        return rc == 2 ? 1 : rc; /* a folded list literal is a list (lists.c) */
    case CJ_I_BINOP:
        return type_binop(c, in, out);
    case CJ_I_UNARY:
        return type_unary(c, in, out);
    case CJ_I_COMPARE:
        return type_compare(c, in, out);
    case CJ_I_TRUTH:
        *out = cj_vt(c, in->args[0]);
        rc = *out == NULL ? 0 : type_truth(c, in, *out);
        *out = cj_t_bool;
        return rc;
    case CJ_I_CALL:
        return cj_type_call(c, in, out);
    case CJ_I_GETATTR:
        return cj_type_getattr(c, in, out);
    case CJ_I_GETITEM:
        return cj_type_getitem(c, in, out);
    case CJ_I_BUILD_TUPLE:
        return type_build_tuple(c, in, out);
    case CJ_I_BUILD_SLICE:
        return cj_type_build_slice(c, in, out); /* slices.c */
    case CJ_I_STATIC_ITEM:
        return cj_type_static_item(c, in, out);
    case CJ_I_GETITER:
        return cj_type_getiter(c, in, out);
    case CJ_I_ITERNEXT:
        return type_iternext(c, in, out);
    case CJ_I_CATCH:
    case CJ_I_EXC_MATCH:
        return cj_type_try(c, in, out); /* try_except.c */
    case CJ_I_YIELD:
        return cj_type_yield(c, in, out); /* generators.c */
    default:
        CJ_UNREACHABLE("unknown IR op");
        return -1;
    }
}

/* Types one instruction; 1 done, 0 operands not known yet, -1 error. */
static int type_instr_as_read(cj_infer_ctx *c, cj_instr *in) {
    if (cj_cuda_reject_strings(c, in) < 0) {
        return -1;
    }
    switch (in->op) { /* the instructions without a value */
    case CJ_I_SETITEM:
        return cj_type_setitem(c, in);
    case CJ_I_BRANCH: {
        const cj_type *t = cj_vt(c, in->args[0]);
        return t == NULL ? 0 : type_truth(c, in, t);
    }
    case CJ_I_RETURN:
        return type_return(c, in);
    case CJ_I_RAISE:
        return type_raise(c, in);
    case CJ_I_JUMP:
        return 1;
    default:
        break;
    }
    const cj_type *out = NULL;
    int rc = type_value(c, in, &out);
    if (rc <= 0 || in->dst < 0) {
        return rc;
    }
    in->rtype = out;
    if (cj_assign(c, in, in->dst, out) < 0) {
        return -1;
    }
    return assign_known(c, in->dst, known_value(c, in)) < 0 ? -1 : 1;
}

/* ... its Optional operands as their values where it does not take them (optional.c). */
static int type_instr(cj_infer_ctx *c, cj_instr *in) {
    c->unpack_optional = cj_optional_unpacks(c, in);
    int rc = type_instr_as_read(c, in);
    c->unpack_optional = 0;
    return rc;
}

/* The blocks `blk` may go to: a branch whose condition is known at compile time goes to
 * one side only, one not typed yet to none; its exception handler; -1 for no target. */
static void block_targets(cj_infer_ctx *c, cj_block *blk, int targets[3]) {
    targets[0] = targets[1] = -1;
    targets[2] = blk->handler;
    cj_instr *t = cj_block_terminator(blk);
    if (t == NULL) {
        return;
    }
    if (t->op == CJ_I_JUMP) {
        targets[0] = t->target;
    } else if (t->op == CJ_I_BRANCH) {
        int known = CJ_VAR(c->ir, t->args[0])->known;
        if (known == KNOWN_UNSET) {
            return; /* condition not typed yet */
        }
        if (known != 0) {
            targets[0] = t->target;
        }
        if (known != 1) {
            targets[1] = t->target2;
        }
    }
}

/* The walk each round began with: the blocks reachable from the entry, following only the
 * side of a branch whose condition is known at compile time. Reachability only grows, so
 * this opens blocks and closes none. */
static void walk_reachable(cj_infer_ctx *c) {
    cj_worklist *w = c->work;
    cj_func_ir *ir = c->ir;
    memset(w->seen, 0, (size_t)ir->blocks.len);
    int sp = 0;
    w->stack[sp++] = 0;
    w->seen[0] = 1;
    if (!CJ_BLOCK(ir, 0)->reachable) {
        cj_work_open_block(c, 0);
    }
    while (sp > 0) {
        int targets[3];
        block_targets(c, CJ_BLOCK(ir, w->stack[--sp]), targets);
        for (int k = 0; k < 3; k++) {
            if (targets[k] >= 0 && !w->seen[targets[k]]) {
                w->seen[targets[k]] = 1;
                w->stack[sp++] = targets[k];
                if (!CJ_BLOCK(ir, targets[k])->reachable) {
                    cj_work_open_block(c, targets[k]);
                }
            }
        }
    }
    w->reach_dirty = 0;
}

/* One round: the queued instructions in position order; after a block's last instruction, a
 * branch decided now opens its targets (the later ones are typed in this round: a run of ifs
 * takes one round, not one each). */
static int infer_round(cj_infer_ctx *c) {
    cj_worklist *w = c->work;
    w->cur = -1;
    if (w->reach_dirty) {
        walk_reachable(c);
    }
    for (unsigned long popped = 1; w->nnow > 0; popped++) {
        if (popped % 1024 == 0 && PyErr_CheckSignals() < 0) {
            return -1; /* Ctrl-C in a long compile */
        }
        int pos = cj_work_pop(w), b = w->block_of[pos];
        w->cur = pos;
        if (!CJ_BLOCK(c->ir, b)->reachable) {
            continue; /* a reader in a pruned block: typed if its block opens */
        }
        int rc = type_instr(c, w->instr[pos]);
        if (rc < 0) {
            return -1;
        }
        w->typed[pos] = rc > 0;
        if (pos + 1 == w->first[b + 1]) {
            int targets[3];
            block_targets(c, CJ_BLOCK(c->ir, b), targets);
            for (int k = 0; k < 3; k++) {
                if (targets[k] >= 0 && !CJ_BLOCK(c->ir, targets[k])->reachable) {
                    cj_work_open_block(c, targets[k]);
                    c->changed = 1;
                }
            }
        }
    }
    int *t = w->now;
    w->now = w->next;
    w->nnow = w->nnext;
    w->next = t;
    w->nnext = 0;
    return 0;
}

/* Records each variable's only definition (NULL when it has several). */
static int find_definitions(cj_infer_ctx *c) {
    cj_func_ir *ir = c->ir;
    c->def = cj_arena_alloc(&ir->arena, sizeof(cj_instr *) * (size_t)(ir->vars.len + 1));
    char *count = cj_arena_alloc(&ir->arena, (size_t)ir->vars.len + 1);
    if (c->def == NULL || count == NULL) {
        return -1;
    }
    for (int b = 0; b < ir->blocks.len; b++) {
        cj_block *blk = CJ_BLOCK(ir, b);
        for (int i = 0; i < blk->instrs.len; i++) {
            cj_instr *in = CJ_INSTR(blk, i);
            if (in->dst >= 0 && count[in->dst] < 2) {
                count[in->dst]++;
                c->def[in->dst] = count[in->dst] == 1 ? in : NULL;
            }
        }
    }
    return 0;
}

static int report_untyped(cj_infer_ctx *c, cj_instr *in) {
    /* what waited for a wider type (an extension's call) gives its error, wherever it is */
    c->final = 1;
    cj_worklist *w = c->work;
    for (int pos = 0; pos < w->ninstrs; pos++) {
        if (CJ_BLOCK(c->ir, w->block_of[pos])->reachable && !w->typed[pos] &&
            type_instr(c, w->instr[pos]) < 0) {
            return -1;
        }
    }
    for (int i = 0; i < in->nargs; i++) {
        cj_var *v = CJ_VAR(c->ir, in->args[i]);
        if (v->type == NULL) {
            if (!v->is_temp) {
                return cj_typing_error(c, in, "NameError: local variable '%s' is referenced "
                                              "before assignment (or could not be typed)",
                                       v->name);
            }
        }
    }
    return cj_typing_error(c, in, "cannot determine the types in this expression (a "
                                  "recursive call with no base case?)");
}

int cj_infer(cj_func_ir *ir, const cj_type *const *argtypes, int nargs, cj_typing_env *env,
             const cj_type **ret) {
    if (nargs != ir->nargs) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d arguments but %d types were given",
                     ir->name, ir->nargs, nargs);
        return -1;
    }
    cj_worklist work = {0};
    cj_infer_ctx c = {.ir = ir, .env = env, .argtypes = argtypes, .nargs = nargs, .work = &work};
    if (find_definitions(&c) < 0 || cj_work_build(&c, &work) < 0) {
        return -1;
    }
    for (int v = 0; v < ir->vars.len; v++) {
        CJ_VAR(ir, v)->known = KNOWN_UNSET;
    }
    for (int b = 0; b < ir->blocks.len; b++) {
        CJ_BLOCK(ir, b)->reachable = 0;
    }
    /* every round but the last widens a type, a known condition or the return type; each
     * can widen only so often, so this bound is never met by a correct lattice: meeting it
     * is an error, never a result typed half way */
    long max_rounds = (long)ROUNDS_PER_ITEM * (ir->vars.len + ir->blocks.len + 2);
    for (long round = 0; ; round++) {
        if (round == max_rounds) {
            return cj_typing_error(&c, NULL, "type inference did not reach a fixpoint in %ld "
                                             "rounds (cujit's limit)", max_rounds);
        }
        c.changed = 0;
        if (infer_round(&c) < 0) {
            return -1;
        }
        if (!c.changed) {
            break;
        }
    }
    if (cj_check_list_types(&c) < 0) { /* lists.c: no list(undefined) is left */
        return -1;
    }
    cj_instr *untyped = cj_work_first_untyped(&c);
    if (untyped != NULL) {
        return report_untyped(&c, untyped);
    }
    if (cj_optional_unpack_pass(&c) < 0) { /* optional.c: checked reads of Optionals */
        return -1;
    }
    if (ir->is_generator) {
        return cj_generator_result(&c, ret); /* generators.c */
    }
    *ret = c.ret ? c.ret : cj_t_none;
    return 0;
}
