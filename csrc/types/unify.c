/* unify.c: numba's unification (NumPy's promote_types for numbers; tuples item by item; arrays
 * of one dtype and ndim to the weaker layout; list(undefined) to a refined list, list(a) and
 * list(b) made in the function to list(a|b), an empty
 * DictType to a refined dict) and the arithmetic result rules, which follow
 * numba's overload resolution rather than NumPy's (uint8 + uint8 -> uint64). */
#include "types/types.h"

/* NumPy promote_types for two scalar types of the number kinds. */
const cj_type *cj_promote(const cj_type *a, const cj_type *b) {
    if (!cj_type_is_number(a) || !cj_type_is_number(b)) {
        return NULL;
    }
    if (a == b) {
        return a;
    }
    if (a->kind == CJ_BOOL) {
        return b;
    }
    if (b->kind == CJ_BOOL) {
        return a;
    }
    if (a->kind > b->kind) { /* order: INT < FLOAT < COMPLEX */
        const cj_type *t = a;
        a = b;
        b = t;
    }
    if (a->kind == CJ_INT && b->kind == CJ_INT) {
        if (a->is_signed == b->is_signed) {
            return a->bits >= b->bits ? a : b;
        }
        const cj_type *s = a->is_signed ? a : b, *u = a->is_signed ? b : a;
        if (s->bits > u->bits) {
            return s;
        }
        if (u->bits == 64) {
            return cj_t_float64;
        }
        return cj_type_int(u->bits * 2, 1);
    }
    /* the float (or complex) width that holds the integer exactly: 8-bit ints fit half */
    int need = 64;
    if (a->kind == CJ_INT) {
        need = a->bits <= 8 ? 16 : a->bits <= 16 ? 32 : 64;
    } else if (a->kind == CJ_FLOAT) {
        need = a->bits;
    } else {
        need = a->bits / 2;
    }
    if (b->kind == CJ_FLOAT) {
        return cj_type_float(need > b->bits ? need : b->bits);
    }
    /* complex: components at least `need` bits */
    int comp = b->bits / 2 > need ? b->bits / 2 : need;
    return cj_type_complex(comp < 32 ? 64 : comp * 2);
}

/* numba's integer arithmetic: uint64 when both are unsigned, else int64 (bool is signed). */
const cj_type *cj_int_arith_type(const cj_type *a, const cj_type *b) {
    int both_unsigned = a->kind == CJ_INT && !a->is_signed && b->kind == CJ_INT && !b->is_signed;
    return both_unsigned ? cj_t_uint64 : cj_t_int64;
}

static int arrays_unify(const cj_type *a, const cj_type *b) {
    return a->kind == CJ_ARRAY && b->kind == CJ_ARRAY && a->dtype == b->dtype &&
           a->ndim == b->ndim;
}

/* A range (or its iterator) of step 1 and one of any step: the latter. */
static const cj_type *unify_ranges(const cj_type *a, const cj_type *b) {
    if (a->kind == CJ_RANGE && b->kind == CJ_RANGE) {
        return cj_type_range(0);
    }
    if (a->kind == CJ_ITER && b->kind == CJ_ITER && a->iter_kind == CJ_ITER_RANGE &&
        b->iter_kind == CJ_ITER_RANGE) {
        const cj_type *r = cj_type_range(0);
        return r ? cj_type_iter(CJ_ITER_RANGE, cj_t_int64, r, 0, NULL) : NULL;
    }
    return NULL;
}

const cj_type *cj_unify(const cj_type *a, const cj_type *b) {
    if (a == b) {
        return a;
    }
    if (cj_type_is_number(a) && cj_type_is_number(b)) {
        return cj_promote(a, b);
    }
    if ((a->kind == CJ_NONE || a->kind == CJ_OPTIONAL || b->kind == CJ_NONE ||
         b->kind == CJ_OPTIONAL) && a->kind != CJ_EXT && b->kind != CJ_EXT) {
        return cj_unify_optional(a, b); /* optional.c: numba's OptionalType */
    }
    if (arrays_unify(a, b)) {
        return cj_type_array(a->dtype, a->ndim, a->layout == b->layout ? a->layout : 'A',
                             a->readonly || b->readonly);
    }
    if (a->kind == CJ_TUPLE && b->kind == CJ_TUPLE && a->n == b->n) {
        const cj_type *items[256];
        if (a->n > 256) {
            return NULL;
        }
        for (int i = 0; i < a->n; i++) {
            items[i] = cj_unify(a->items[i], b->items[i]);
            if (items[i] == NULL) {
                return NULL;
            }
        }
        return cj_type_tuple(a->n, items);
    }
    if (cj_type_is_str(a) && cj_type_is_str(b)) {
        return cj_t_unicode; /* numba: literal strings unify to unicode_type */
    }
    if (a->kind == CJ_LIST && b->kind == CJ_LIST && (a->dtype == NULL || b->dtype == NULL)) {
        return a->dtype == NULL ? b : a; /* an empty literal's list takes the refined type */
    }
    if (a->kind == CJ_LIST && b->kind == CJ_LIST && a->dtype == b->dtype) {
        return cj_type_list(a->dtype, 0); /* a reflected list and a list: one pointer */
    }
    if (a->kind == CJ_LIST && b->kind == CJ_LIST && !a->reflected && !b->reflected) {
        /* numba's List.unify: l.append(2.5) widens a list(int64) made here to list(float64)
         * (two different lists merged so are refused when lowered: cj_cast) */
        const cj_type *item = cj_unify(a->dtype, b->dtype);
        return item != NULL ? cj_type_list(cj_type_unliteral(item), 0) : NULL;
    }
    if (a->kind == CJ_SET && b->kind == CJ_SET && (a->dtype == NULL || b->dtype == NULL ||
                                                   a->dtype == b->dtype)) {
        return a->dtype == NULL ? b : b->dtype == NULL || a == b ? a
               : cj_type_set(a->dtype, 0); /* a reflected set and a set: one pointer */
    }
    if (a->kind == CJ_SET && b->kind == CJ_SET && !a->reflected && !b->reflected) {
        const cj_type *item = cj_unify(a->dtype, b->dtype); /* as lists (s.add(2.5)) */
        return item != NULL ? cj_type_set(cj_type_unliteral(item), 0) : NULL;
    }
    if (a->kind == CJ_DICT && b->kind == CJ_DICT && (a->n == 0 || b->n == 0)) {
        return a->n == 0 ? b : a; /* an empty dict takes its refined type */
    }
    if (a->kind == CJ_BOUND && b->kind == CJ_BOUND &&
        (a->source->kind == CJ_LIST || a->source->kind == CJ_DICT ||
         a->source->kind == CJ_SET) &&
        PyUnicode_Compare(a->obj, b->obj) == 0) { /* l.append of a list being refined */
        const cj_type *source = cj_unify(a->source, b->source);
        return source != NULL ? cj_type_bound(source, a->obj) : NULL;
    }
    if (a->kind == CJ_ITER && b->kind == CJ_ITER && a->iter_kind == b->iter_kind &&
        (a->iter_kind == CJ_ITER_LIST || a->iter_kind == CJ_ITER_SET)) {
        const cj_type *source = cj_unify(a->source, b->source); /* a list being widened */
        return source != NULL && source->dtype != NULL ? cj_type_iter_of(source) : NULL;
    }
    if (a->kind == CJ_EXT || b->kind == CJ_EXT) { /* the types' unify / can_convert_to */
        return cj_unify_extension(a, b);
    }
    return unify_ranges(a, b);
}

const cj_type *cj_type_unliteral(const cj_type *t) {
    if (cj_type_is_str(t)) {
        return cj_t_unicode;
    }
    if (t == NULL || t->kind != CJ_TUPLE || t->n > 256) {
        return t;
    }
    const cj_type *items[256];
    int changed = 0;
    for (int i = 0; i < t->n; i++) {
        items[i] = cj_type_unliteral(t->items[i]);
        if (items[i] == NULL) {
            return NULL;
        }
        changed |= items[i] != t->items[i];
    }
    return changed ? cj_type_tuple(t->n, items) : t;
}
