/* set.c: what only sets do over the dict table (abi/set.h): adding with no value, popping,
 * and the algebra (|, &, -, ^ into a new set or in place) and comparisons of two sets of one
 * type. Elements hash and compare by hash.c, so NaN is never equal to itself and -0.0 equals
 * 0.0, as Python's == says. Called without the GIL: failures return NULL/-1. */
#include "abi/set.h"

#include <string.h>

/* The bytes cj_dict_insert and cj_dict_popitem copy a set's (empty) value from or to. */
static char no_value[8];

int cj_set_add(cj_meminfo *mi, const char *key) { return cj_dict_insert(mi, key, no_value); }

int cj_set_contains(cj_meminfo *mi, const char *key) { return cj_dict_lookup(mi, key) != NULL; }

int cj_set_discard(cj_meminfo *mi, const char *key) { return cj_dict_pop(mi, key, NULL); }

int cj_set_pop(cj_meminfo *mi, char *key_out) {
    char value[8];
    return cj_dict_popitem(mi, key_out, value);
}

/* An empty set of the type of `like`, or NULL. */
static cj_meminfo *new_like(const cj_dict *like) {
    return cj_dict_new(like->key_size, 0, like->code, like->ncode, like->refs, like->nkeyrefs, 0);
}

/* dst.add(key) of a key another set holds: dst takes references of its own. */
static int add_copy(cj_meminfo *dst, const char *key) {
    const cj_dict *d = dst->data;
    for (int32_t k = 0; k < d->nkeyrefs; k++) {
        cj_meminfo *held;
        memcpy(&held, key + d->refs[k] - 8, sizeof(held)); /* refs: from the entry's start */
        cj_nrt_incref(held);
    }
    if (cj_set_add(dst, key) == 0) {
        return 0;
    }
    for (int32_t k = 0; k < d->nkeyrefs; k++) {
        cj_meminfo *held;
        memcpy(&held, key + d->refs[k] - 8, sizeof(held));
        cj_nrt_decref(held);
    }
    return -1;
}

/* Adds to dst the elements of `src` that are (`want` 1) or are not (0) in `other`. */
static int add_filtered(cj_meminfo *dst, cj_meminfo *src, cj_meminfo *other, int want) {
    int64_t pos = 0;
    for (char *e = cj_dict_next(src, &pos); e != NULL; e = cj_dict_next(src, &pos)) {
        if (cj_set_contains(other, e + 8) == want && add_copy(dst, e + 8) < 0) {
            return -1;
        }
    }
    return 0;
}

cj_meminfo *cj_set_binop(cj_meminfo *a, cj_meminfo *b, int op) {
    cj_meminfo *out = op == CJ_SET_OR ? cj_dict_copy(a) : new_like(a->data);
    int rc = out == NULL ? -1 : 0;
    if (rc == 0 && op == CJ_SET_OR) {
        rc = cj_dict_update(out, b);
    } else if (rc == 0) { /* &: a's in b; -: a's not in b; ^: both ways */
        rc = add_filtered(out, a, b, op == CJ_SET_AND);
        if (rc == 0 && op == CJ_SET_XOR) {
            rc = add_filtered(out, b, a, 0);
        }
    }
    if (rc < 0) {
        cj_nrt_decref(out);
        return NULL;
    }
    return out;
}

int cj_set_inplace(cj_meminfo *a, cj_meminfo *b, int op) {
    if (op == CJ_SET_OR) {
        return cj_dict_update(a, b);
    }
    cj_meminfo *made = cj_set_binop(a, b, op);
    if (made == NULL) {
        return -1;
    }
    cj_dict *x = a->data, *y = made->data, swap = *x; /* a takes the new table, keeping its */
    void *parent = x->parent;                         /* Python set; the old one is freed */
    *x = *y;
    *y = swap;
    x->parent = parent;
    cj_nrt_decref(made);
    return 0;
}

/* Whether every element of a is in b. */
static int subset(cj_meminfo *a, cj_meminfo *b) {
    int64_t pos = 0;
    if (cj_dict_len(a) > cj_dict_len(b)) {
        return 0;
    }
    for (char *e = cj_dict_next(a, &pos); e != NULL; e = cj_dict_next(a, &pos)) {
        if (!cj_set_contains(b, e + 8)) {
            return 0;
        }
    }
    return 1;
}

static int disjoint(cj_meminfo *a, cj_meminfo *b) {
    int64_t pos = 0;
    if (cj_dict_len(a) > cj_dict_len(b)) { /* the smaller one's elements looked up */
        cj_meminfo *t = a;
        a = b;
        b = t;
    }
    for (char *e = cj_dict_next(a, &pos); e != NULL; e = cj_dict_next(a, &pos)) {
        if (cj_set_contains(b, e + 8)) {
            return 0;
        }
    }
    return 1;
}

int cj_set_compare(cj_meminfo *a, cj_meminfo *b, int op) {
    int64_t na = cj_dict_len(a), nb = cj_dict_len(b);
    switch (op) {
    case CJ_SETCMP_EQ:
        return na == nb && subset(a, b);
    case CJ_SETCMP_NE:
        return !(na == nb && subset(a, b));
    case CJ_SETCMP_LE:
        return subset(a, b);
    case CJ_SETCMP_LT:
        return na < nb && subset(a, b);
    case CJ_SETCMP_GE:
        return subset(b, a);
    case CJ_SETCMP_GT:
        return nb < na && subset(b, a);
    default:
        return disjoint(a, b);
    }
}
