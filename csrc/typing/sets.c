/* sets.c: typing of sets (numba's set type; lowered by lower/lower_set*.c). A display
 * `{a, b}` is a set of its elements unified; set() is set(undefined) until its first add or
 * update refines it (as a list's first append, lists.c); set(iterable) takes the iterable's
 * element type. Elements: what abi/hash.c hashes (dicts.c's cj_type_is_hashable); arrays,
 * lists, dicts and sets are unhashable, a TypingError. An element given to a set must cast
 * safely to its type (numba's _sentry_safe_cast, dicts.c). Methods: add, discard, remove,
 * pop, clear, copy, update, union, intersection, difference, symmetric_difference (and their
 * _update forms) over any iterables, issubset, issuperset, isdisjoint; builtins set(),
 * set(iterable), len(s), bool(s), sum/min/max(s) of numbers (as lists'); `x in s`, the
 * operators | & - ^ (in place too) between sets, and == != < <= > >= as subset comparisons. CPU only (numba-cuda has no sets). */
#include "typing/infer_internal.h"

#include <string.h>

/* The element type `t` checked: unliteral, hashable by hash.c; NULL with a TypingError. */
static const cj_type *element_type(cj_infer_ctx *c, cj_instr *in, const cj_type *t) {
    if ((t = cj_type_unliteral(t)) == NULL) {
        return NULL;
    }
    if (t->kind == CJ_ARRAY || t->kind == CJ_LIST || t->kind == CJ_DICT || t->kind == CJ_SET) {
        cj_typing_error(c, in, "unhashable type: '%s' (a set's elements must be hashable)",
                        t->name);
        return NULL;
    }
    if (!cj_type_is_hashable(t)) {
        cj_unsupported_error(c, in, "set elements of type %s are not supported (bool, "
                                    "integers, floats, complex, strings and tuples of them)",
                             t->name);
        return NULL;
    }
    return t;
}

static int check_cast(cj_infer_ctx *c, cj_instr *in, const cj_type *from, const cj_type *to) {
    if (cj_casts_safely(from, to)) {
        return 0;
    }
    return cj_typing_error(c, in, "cannot safely cast %s to %s. Please cast explicitly.",
                           from->name, to->name);
}

static int cuda_refused(cj_infer_ctx *c, cj_instr *in) {
    return c->env->target == CJ_TARGET_CUDA
               ? cj_unsupported_error(c, in, "sets are not supported in CUDA code (they are "
                                             "allocated at run time)")
               : 0;
}

int cj_type_set_display(cj_infer_ctx *c, cj_instr *in, const cj_type **out) {
    if (cuda_refused(c, in) < 0) {
        return -1;
    }
    const cj_type *u = NULL;
    for (int i = 0; i < in->nargs; i++) {
        const cj_type *t = cj_vt(c, in->args[i]), *both;
        if (t == NULL || (t = cj_type_unliteral(t)) == NULL) {
            return PyErr_Occurred() ? -1 : 0;
        }
        if (u != NULL && (both = cj_unify(u, t)) == NULL) {
            return PyErr_Occurred() ? -1
                   : cj_typing_error(c, in, "Cannot unify %s and %s in a set display (cujit's "
                                            "sets hold elements of one type)", u->name, t->name);
        }
        u = u == NULL ? t : both;
    }
    if (u != NULL && (u = element_type(c, in, u)) == NULL) {
        return -1;
    }
    *out = cj_type_set(u, 0);
    return *out ? 1 : -1;
}

/* The element type of the iterable in variable `var` (0 when it is not known yet), checked
 * against `dtype` unless that is NULL: 1, 0 or -1. */
static int elements_of(cj_infer_ctx *c, cj_instr *in, int var, const cj_type *dtype,
                       const cj_type **elem) {
    const cj_type *t = cj_vt(c, var), *it;
    if (t == NULL || (t->kind == CJ_SET && t->dtype == NULL)) {
        return 0;
    }
    if ((t = cj_type_unliteral(t)) == NULL) { /* set("abc"): a unicode_type's characters */
        return -1;
    }
    if ((it = cj_type_iter_of(t)) == NULL) {
        return PyErr_Occurred() ? -1 : cj_typing_error(c, in, "%s is not iterable", t->name);
    }
    if ((*elem = element_type(c, in, it->yield)) == NULL) {
        return -1;
    }
    return dtype != NULL && check_cast(c, in, *elem, dtype) < 0 ? -1 : 1;
}

static const struct {
    const char *name;
    int op, min, max; /* positional arguments */
} methods[] = {
    {"add", CJ_SETOP_ADD, 1, 1},
    {"discard", CJ_SETOP_DISCARD, 1, 1},
    {"remove", CJ_SETOP_REMOVE, 1, 1},
    {"pop", CJ_SETOP_POP, 0, 0},
    {"clear", CJ_SETOP_CLEAR, 0, 0},
    {"copy", CJ_SETOP_COPY, 0, 0},
    {"update", CJ_SETOP_UPDATE, 0, 8},
    {"union", CJ_SETOP_UNION, 0, 8},
    {"intersection", CJ_SETOP_INTERSECTION, 0, 8},
    {"difference", CJ_SETOP_DIFFERENCE, 0, 8},
    {"symmetric_difference", CJ_SETOP_SYMMETRIC_DIFFERENCE, 1, 1},
    {"intersection_update", CJ_SETOP_INTERSECTION_UPDATE, 0, 8},
    {"difference_update", CJ_SETOP_DIFFERENCE_UPDATE, 0, 8},
    {"symmetric_difference_update", CJ_SETOP_SYMMETRIC_DIFFERENCE_UPDATE, 1, 1},
    {"issubset", CJ_SETOP_ISSUBSET, 1, 1},
    {"issuperset", CJ_SETOP_ISSUPERSET, 1, 1},
    {"isdisjoint", CJ_SETOP_ISDISJOINT, 1, 1},
};

/* s.add(x) or s.update(iterable) on set(undefined), or one that brings a wider element to
 * a set made in the function (numba unifies them, as lists' appends): the receiver's type
 * refined. `st`: the receiver's type now. */
static int refine(cj_infer_ctx *c, cj_instr *in, int op, const cj_type *st) {
    const cj_type *elem = NULL;
    int receiver = cj_method_receiver(c, in), rc = 1;
    if (op == CJ_SETOP_ADD) {
        elem = cj_vt(c, in->args[1]) ? element_type(c, in, cj_vt(c, in->args[1])) : NULL;
        rc = elem != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
    } else if (op == CJ_SETOP_UPDATE && in->nargs > 1) {
        rc = elements_of(c, in, in->args[1], NULL, &elem);
    } else {
        return 0; /* typed again once refined */
    }
    if (rc <= 0 || receiver < 0) {
        return rc < 0 ? -1 : 0;
    }
    if (st->dtype != NULL) {
        elem = cj_unify(st->dtype, elem);
        if (elem == NULL || elem == st->dtype) {
            return PyErr_Occurred() ? -1 : 0; /* method_result checks the cast */
        }
    }
    const cj_type *refined = cj_type_set(elem, 0);
    return refined == NULL || cj_refine_var(c, in, receiver, refined, 0) < 0 ? -1 : 0;
}

/* The result type of method `op` on set type `st`, its arguments checked. */
static int method_result(cj_infer_ctx *c, cj_instr *in, int op, const cj_type *st,
                         const cj_type **out) {
    *out = cj_t_none;
    switch (op) {
    case CJ_SETOP_ADD:
    case CJ_SETOP_DISCARD:
    case CJ_SETOP_REMOVE:
        return check_cast(c, in, cj_vt(c, in->args[1]), st->dtype);
    case CJ_SETOP_POP:
        *out = st->dtype;
        return 0;
    case CJ_SETOP_CLEAR:
        return 0;
    default:
        break;
    }
    for (int i = 1; i < in->nargs; i++) {
        const cj_type *elem;
        int rc = elements_of(c, in, in->args[i], st->dtype, &elem);
        if (rc <= 0) {
            return rc < 0 ? -1 : 1; /* 1: not known yet */
        }
    }
    int in_place = op == CJ_SETOP_UPDATE || op >= CJ_SETOP_INTERSECTION_UPDATE;
    *out = op >= CJ_SETOP_ISSUBSET ? cj_t_bool : in_place ? cj_t_none : cj_type_set(st->dtype, 0);
    return *out ? 0 : -1;
}

int cj_type_set_method(cj_infer_ctx *c, cj_instr *in, const cj_type *bound,
                       const cj_type **out) {
    const char *name = PyUnicode_AsUTF8(bound->obj);
    const cj_type *st = bound->source;
    int n = in->nargs - 1 - in->index, m = -1;
    for (size_t i = 0; name != NULL && i < sizeof(methods) / sizeof(methods[0]); i++) {
        m = strcmp(name, methods[i].name) == 0 ? (int)i : m;
    }
    if (name == NULL || m < 0) {
        return name == NULL ? -1 : cj_unsupported_error(c, in, "set.%s() is not supported yet",
                                                        name);
    }
    if (in->index > 0 || n < methods[m].min || n > methods[m].max) {
        char what[96];
        PyOS_snprintf(what, sizeof(what), "BoundFunction(%s.%s)", st->name, name);
        return cj_invalid_use(c, in, what);
    }
    if (st->dtype == NULL) { /* refined by the first add or update */
        return refine(c, in, methods[m].op, st);
    }
    if (!st->reflected) { /* widened by a later add or update: typed again then */
        int receiver = cj_method_receiver(c, in);
        if (refine(c, in, methods[m].op, st) < 0) {
            return -1;
        }
        if (receiver >= 0 && cj_vt(c, receiver) != st) {
            return 0;
        }
    }
    int rc = method_result(c, in, methods[m].op, st, out);
    if (rc != 0) {
        return rc < 0 ? -1 : 0;
    }
    return cj_plain_call(c, in, CJ_CALL_SET, methods[m].op) ? 1 : -1;
}

/* sum(s), min(s), max(s) of a set of numbers: sum's type is int64, float64 or complex128
 * (numba's, as lists'); min and max the elements' (not complex). */
static int type_fold(cj_infer_ctx *c, cj_instr *in, int id, const cj_type *st,
                     const cj_type **out) {
    const cj_type *e = st->dtype;
    const char *name = id == CJ_B_SUM ? "sum" : id == CJ_B_MIN ? "min" : "max";
    if (e == NULL) {
        return 0;
    }
    if (!cj_type_is_number(e) || (id != CJ_B_SUM && e->kind == CJ_COMPLEX)) {
        return cj_unsupported_error(c, in, "%s() of a set of %s is not supported yet", name,
                                    e->name);
    }
    *out = id != CJ_B_SUM ? e : e->kind == CJ_FLOAT ? cj_t_float64
           : e->kind == CJ_COMPLEX ? cj_t_complex128 : cj_t_int64;
    int op = id == CJ_B_SUM ? CJ_SETOP_SUM : id == CJ_B_MIN ? CJ_SETOP_MIN : CJ_SETOP_MAX;
    return cj_plain_call(c, in, CJ_CALL_SET, op) ? 1 : -1;
}

int cj_type_set_builtin(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    int n = in->nargs - 1 - in->index;
    const cj_type *elem = NULL;
    if (n == 1 && in->index == 0 && (id == CJ_B_SUM || id == CJ_B_MIN || id == CJ_B_MAX)) {
        return type_fold(c, in, id, cj_vt(c, in->args[1]), out);
    }
    int len = id == CJ_B_LEN || id == CJ_B_BOOL;
    if (in->index > 0 || n > 1 || (len && n != 1)) {
        return cj_no_match(c, in, id == CJ_B_LEN ? "len" : id == CJ_B_BOOL ? "<class 'bool'>"
                                                                           : "<class 'set'>");
    }
    if (cuda_refused(c, in) < 0) {
        return -1;
    }
    if (len) { /* len(s), bool(s) */
        if (cj_vt(c, in->args[1])->dtype == NULL) {
            return 0;
        }
        *out = id == CJ_B_LEN ? cj_t_int64 : cj_t_bool;
        return cj_plain_call(c, in, CJ_CALL_SET, id == CJ_B_LEN ? CJ_SETOP_LEN : CJ_SETOP_BOOL)
                   ? 1 : -1;
    }
    if (n == 1) {
        int rc = elements_of(c, in, in->args[1], NULL, &elem);
        if (rc <= 0) {
            return rc;
        }
    }
    *out = cj_type_set(elem, 0);
    return *out && cj_plain_call(c, in, CJ_CALL_SET, CJ_SETOP_NEW) ? 1 : -1;
}

/* a | b, a & b, a - b, a ^ b (in place too) and a == b, a <= b ... between two sets. */
static int set_with_set(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                        const cj_type **out) {
    int binop = in->op == CJ_I_BINOP;
    int ok = a->kind == CJ_SET && b->kind == CJ_SET &&
             (binop ? in->sub == CJ_OR || in->sub == CJ_AND || in->sub == CJ_SUB ||
                          in->sub == CJ_XOR
                    : in->sub == CJ_EQ || in->sub == CJ_NE || in->sub == CJ_LT ||
                          in->sub == CJ_LE || in->sub == CJ_GT || in->sub == CJ_GE);
    if (!ok) {
        const char *sym = binop ? cj_binop_symbol(in->sub) : cj_cmpop_symbol(in->sub);
        return cj_typing_error(c, in, "No implementation of function Function(<built-in "
                                      "function %s>) found for signature:\n \n >>> %s(%s, %s)",
                               sym, sym, a->name, b->name);
    }
    if (a->dtype == NULL || b->dtype == NULL) {
        return 0;
    }
    if (check_cast(c, in, b->dtype, a->dtype) < 0) {
        return -1;
    }
    *out = !binop ? cj_t_bool : in->flags & CJ_F_INPLACE ? a : cj_type_set(a->dtype, 0);
    return *out ? 1 : -1;
}

int cj_type_set_op(cj_infer_ctx *c, cj_instr *in, const cj_type *a, const cj_type *b,
                   const cj_type **out) {
    if (cuda_refused(c, in) < 0) {
        return -1;
    }
    if (in->op == CJ_I_COMPARE && (in->sub == CJ_IN || in->sub == CJ_NOTIN) &&
        b->kind == CJ_SET) {
        *out = cj_t_bool; /* typed again, and the element checked, once b is refined */
        return b->dtype == NULL || check_cast(c, in, a, b->dtype) == 0 ? 1 : -1;
    }
    return set_with_set(c, in, a, b, out);
}
