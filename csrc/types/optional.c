/* optional.c: numba's OptionalType(T), a value of T or None, and its unification with none
 * and with T. Its layout is that of the tuple (T, bool): the value (all zero bits when None,
 * so the references it holds are NULL) and whether there is one. */
#include "types/types.h"

/* Whether a value of `t` can be held by an Optional: values with data at run time (not
 * compile-time objects, iterators, bound methods, omitted arguments, void). */
static int holds_value(const cj_type *t) {
    switch (t->kind) {
    case CJ_BOOL:
    case CJ_INT:
    case CJ_FLOAT:
    case CJ_COMPLEX:
    case CJ_ARRAY:
    case CJ_TUPLE:
    case CJ_SLICE:
    case CJ_RANGE:
    case CJ_LIST:
    case CJ_UNICODE:
        return 1;
    case CJ_DICT:
        return t->n == 2;
    default:
        return 0;
    }
}

const cj_type *cj_type_optional(const cj_type *t) {
    if (t->kind == CJ_NONE || t->kind == CJ_OPTIONAL) {
        return t;
    }
    if ((t = cj_type_unliteral(t)) == NULL) {
        return NULL;
    }
    if (!holds_value(t)) {
        PyErr_Format(cj_UnsupportedError, "OptionalType(%s) is not supported by cujit", t->name);
        return NULL;
    }
    char name[2200]; /* an item's name is at most 2048: never cut, as it is the key */
    PyOS_snprintf(name, sizeof(name), "OptionalType(%s)", t->name);
    const cj_type *items[2] = {t, cj_t_bool};
    cj_type proto = {.kind = CJ_OPTIONAL, .dtype = t, .n = 2, .items = items, .name = name};
    return cj_type_intern(&proto, name);
}

/* The value type of `t`: an Optional's, else `t`. */
static const cj_type *value_type(const cj_type *t) {
    return t->kind == CJ_OPTIONAL ? t->dtype : t;
}

const cj_type *cj_unify_optional(const cj_type *a, const cj_type *b) {
    int a_opt = a->kind == CJ_NONE || a->kind == CJ_OPTIONAL;
    int b_opt = b->kind == CJ_NONE || b->kind == CJ_OPTIONAL;
    if (!a_opt && !b_opt) {
        return NULL;
    }
    if (a->kind == CJ_NONE || b->kind == CJ_NONE) { /* none with T: OptionalType(T) */
        const cj_type *other = a->kind == CJ_NONE ? b : a;
        if (other->kind == CJ_NONE || other->kind == CJ_OPTIONAL) {
            return other;
        }
        if (!holds_value(other) && !cj_type_is_str(other)) {
            return NULL;
        }
        return cj_type_optional(other);
    }
    const cj_type *u = cj_unify(value_type(a), value_type(b));
    return u != NULL ? cj_type_optional(u) : NULL;
}
