/* rules.c: result types of operators on scalars, as numba's overload resolution gives them
 * (pinned by tests/test_typing_rules.py against tables taken from numba):
 *   integers: int64, or uint64 when both operands are unsigned; bool & | ^ bool is bool;
 *   shifts: int64, or uint64 when the left operand is unsigned;
 *   true division of integers: float64;
 *   mixed with floats: float32 only when both operands fit float32 safely (bool, int8,
 *   uint8, int16, float32), else float64; complex likewise (complex64 / complex128);
 *   float ** integer keeps the float's type. */
#include "typing/infer.h"

/* Bits of float needed to hold `t` safely: 32 or 64. */
static int float_bits_needed(const cj_type *t) {
    switch (t->kind) {
    case CJ_BOOL:
        return 32;
    case CJ_INT:
        return (t->is_signed && t->bits <= 16) || (!t->is_signed && t->bits <= 8) ? 32 : 64;
    case CJ_FLOAT:
        return t->bits <= 32 ? 32 : 64;
    case CJ_COMPLEX:
        return t->bits / 2;
    default:
        return 64;
    }
}

const cj_type *cj_rule_float_result(const cj_type *a, const cj_type *b) {
    int bits = float_bits_needed(a);
    int bb = float_bits_needed(b);
    bits = bb > bits ? bb : bits;
    if (a->kind == CJ_COMPLEX || b->kind == CJ_COMPLEX) {
        return bits == 32 ? cj_t_complex64 : cj_t_complex128;
    }
    return bits == 32 ? cj_t_float32 : cj_t_float64;
}

static const cj_type *integer_result(int op, const cj_type *a, const cj_type *b) {
    switch (op) {
    case CJ_AND:
    case CJ_OR:
    case CJ_XOR:
        if (a->kind == CJ_BOOL && b->kind == CJ_BOOL) {
            return cj_t_bool;
        }
        return cj_int_arith_type(a, b);
    case CJ_LSHIFT:
    case CJ_RSHIFT:
        return a->kind == CJ_INT && !a->is_signed ? cj_t_uint64 : cj_t_int64;
    case CJ_TRUEDIV:
        return cj_t_float64;
    default:
        return cj_int_arith_type(a, b);
    }
}

static const cj_type *tuple_concat(const cj_type *a, const cj_type *b) {
    const cj_type *items[512];
    if (a->n + b->n > 512) {
        return NULL;
    }
    for (int i = 0; i < a->n; i++) {
        items[i] = a->items[i];
    }
    for (int i = 0; i < b->n; i++) {
        items[a->n + i] = b->items[i];
    }
    return cj_type_tuple(a->n + b->n, items);
}

const cj_type *cj_rule_binop(int op, const cj_type *a, const cj_type *b, const cj_type **optype) {
    *optype = NULL;
    if (op == CJ_ADD && a->kind == CJ_TUPLE && b->kind == CJ_TUPLE) {
        return tuple_concat(a, b);
    }
    if (!cj_type_is_number(a) || !cj_type_is_number(b) || op == CJ_MATMUL) {
        return NULL;
    }
    if (op == CJ_POW && a->kind == CJ_BOOL && b == cj_t_int32) {
        *optype = cj_t_float32; /* numba resolves bool ** int32 to its (float32, int32) pow */
        return cj_t_float32;
    }
    if (cj_type_is_integer(a) && cj_type_is_integer(b)) {
        const cj_type *r = integer_result(op, a, b);
        /* shifts compute in the left operand's signedness; true division in float64 */
        *optype = op == CJ_TRUEDIV ? cj_t_float64 : r;
        return r;
    }
    int bitwise = op == CJ_AND || op == CJ_OR || op == CJ_XOR || op == CJ_LSHIFT ||
                  op == CJ_RSHIFT;
    if (bitwise) {
        return NULL;
    }
    int complex_operand = a->kind == CJ_COMPLEX || b->kind == CJ_COMPLEX;
    if (complex_operand && (op == CJ_FLOORDIV || op == CJ_MOD)) {
        return NULL;
    }
    const cj_type *r;
    if (op == CJ_POW && a->kind == CJ_FLOAT && cj_type_is_integer(b)) {
        r = a->bits <= 32 ? cj_t_float32 : cj_t_float64; /* float ** int keeps the float */
    } else {
        r = cj_rule_float_result(a, b);
    }
    *optype = r;
    return r;
}

const cj_type *cj_rule_unary(int op, const cj_type *a) {
    if (op == CJ_NOT) {
        return cj_rule_has_truth(a) ? cj_t_bool : NULL;
    }
    if (!cj_type_is_number(a)) {
        return NULL;
    }
    if (cj_type_is_integer(a)) {
        /* Python semantics: -True == -1, ~True == -2 (ints) */
        return a->kind == CJ_INT && !a->is_signed ? cj_t_uint64 : cj_t_int64;
    }
    if (op == CJ_INVERT) {
        return NULL;
    }
    return a;
}

const cj_type *cj_rule_compare(int op, const cj_type *a, const cj_type *b,
                               const cj_type **optype) {
    *optype = NULL;
    if (op == CJ_IS || op == CJ_ISNOT) {
        return cj_t_bool; /* identity: decided by type (None) or compared as values */
    }
    if (op == CJ_IN || op == CJ_NOTIN) {
        return NULL;
    }
    if (cj_type_is_number(a) && cj_type_is_number(b)) {
        int ordering = op != CJ_EQ && op != CJ_NE;
        if (ordering && (a->kind == CJ_COMPLEX || b->kind == CJ_COMPLEX)) {
            return NULL;
        }
        *optype = cj_promote(a, b);
        return cj_t_bool;
    }
    if (a->kind == CJ_NONE || b->kind == CJ_NONE) {
        return (op == CJ_EQ || op == CJ_NE) ? cj_t_bool : NULL;
    }
    if (cj_type_is_str(a) && cj_type_is_str(b)) {
        return cj_t_bool; /* abi/unicode.c's one equality and order */
    }
    const cj_type *item_op;
    if (a->kind == CJ_LIST && b->kind == CJ_LIST) { /* item by item, then by length */
        int ordering = op != CJ_EQ && op != CJ_NE;
        return a->dtype != NULL && b->dtype != NULL &&
               cj_rule_compare(CJ_EQ, a->dtype, b->dtype, &item_op) != NULL &&
               (!ordering || cj_rule_compare(op, a->dtype, b->dtype, &item_op) != NULL)
                   ? cj_t_bool : NULL;
    }
    if (a->kind == CJ_TUPLE && b->kind == CJ_TUPLE) {
        /* ordering is lexicographic: each pair of items up to the shorter length must order */
        for (int i = 0; op != CJ_EQ && op != CJ_NE && i < a->n && i < b->n; i++) {
            if (cj_rule_compare(op, a->items[i], b->items[i], &item_op) == NULL ||
                cj_rule_compare(CJ_EQ, a->items[i], b->items[i], &item_op) == NULL) {
                return NULL;
            }
        }
        return cj_t_bool;
    }
    return NULL;
}

int cj_rule_has_truth(const cj_type *t) {
    /* a container: non-empty (numba's, by its len) */
    return cj_type_is_number(t) || t->kind == CJ_NONE || t->kind == CJ_TUPLE || cj_type_is_str(t) ||
           t->kind == CJ_SET || t->kind == CJ_LIST || t->kind == CJ_DICT;
}
