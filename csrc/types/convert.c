/* convert.c: the one rule for passing an argument of one type where a compiled signature
 * declares another, used by every dispatcher (CPU calls, kernel launches) once its signatures
 * are fixed, and by Python (_core.can_convert).
 *
 * It is numba's (numba/core/typeconv/rules.py, its graph closed over paths): a conversion is
 * exact, a promotion (a wider type of the same kind), safe (no value is lost: bool -> int,
 * uint8 -> int16, int16 -> float32, any int -> float64, float64 -> complex128), or unsafe
 * (narrowing, float -> int, int32 -> float32, anything -> bool); complex never converts to a
 * real type. tests/test_dispatcher.py checks it against numba's table.
 * Arrays convert to the same dtype and ndim when the declared layout is 'A' or the same, and
 * a read-only array never to a writable one; tuples item by item; a C pointer to voidptr
 * (cujit's, as C's); None and T to OptionalType(T) (a promotion at least, numba's
 * Optional.can_convert_from), an Optional to what its value converts to (safe at least: a
 * None raises when the value is read). As in numba, the best overload is the one with the
 * fewest unsafe, then safe, then promoting conversions. */
#include "types/types.h"

/* Bits of an integer of this kind that a float type must hold exactly for a safe conversion:
 * an unsigned type counts as the signed type of twice its width (numba's uint8 -> int16). */
static int int_value_bits(const cj_type *t) {
    return t->is_signed ? t->bits : 2 * t->bits;
}

/* The widest signed integer that converts safely to a float (numba: int16 -> float32, every
 * integer -> float64; float16 holds int8). */
static int float_safe_int_bits(int float_bits) {
    return float_bits == 64 ? 128 : float_bits / 2;
}

static cj_conversion real_to_real(const cj_type *from, const cj_type *to) {
    if (to->kind == CJ_BOOL) {
        return CJ_CONV_UNSAFE;
    }
    if (from->kind == CJ_BOOL) {
        return CJ_CONV_SAFE;
    }
    if (from->kind == CJ_INT && to->kind == CJ_INT) {
        if (from->is_signed == to->is_signed) {
            return to->bits >= from->bits ? CJ_CONV_PROMOTE : CJ_CONV_UNSAFE;
        }
        return !from->is_signed && to->bits > from->bits ? CJ_CONV_SAFE : CJ_CONV_UNSAFE;
    }
    if (from->kind == CJ_INT) { /* to a float */
        return int_value_bits(from) <= float_safe_int_bits(to->bits) ? CJ_CONV_SAFE
                                                                     : CJ_CONV_UNSAFE;
    }
    if (to->kind == CJ_INT) { /* from a float */
        return CJ_CONV_UNSAFE;
    }
    return to->bits >= from->bits ? CJ_CONV_PROMOTE : CJ_CONV_UNSAFE;
}

static cj_conversion number_to_number(const cj_type *from, const cj_type *to) {
    if (to->kind != CJ_COMPLEX) {
        return from->kind == CJ_COMPLEX ? CJ_CONV_NONE : real_to_real(from, to);
    }
    if (from->kind == CJ_COMPLEX) {
        return to->bits >= from->bits ? CJ_CONV_PROMOTE : CJ_CONV_UNSAFE;
    }
    /* a real type goes through the float of the complex type's parts */
    cj_conversion to_part = real_to_real(from, to->bits == 64 ? cj_t_float32 : cj_t_float64);
    return to_part > CJ_CONV_SAFE ? to_part : CJ_CONV_SAFE;
}

cj_conversion cj_conversion_kind(const cj_type *from, const cj_type *to) {
    if (from == to) {
        return CJ_CONV_EXACT;
    }
    if (cj_type_is_number(from) && cj_type_is_number(to)) {
        return number_to_number(from, to);
    }
    if (to->kind == CJ_UNICODE && cj_type_is_str(from)) {
        return CJ_CONV_SAFE; /* a literal string is a unicode_type (numba's unliteral) */
    }
    if (from->kind == CJ_ARRAY && to->kind == CJ_ARRAY) {
        int ok = from->dtype == to->dtype && from->ndim == to->ndim &&
                 (to->layout == 'A' || to->layout == from->layout) &&
                 (to->readonly || !from->readonly);
        return ok ? CJ_CONV_SAFE : CJ_CONV_NONE;
    }
    if (from->kind == CJ_CPOINTER && to->kind == CJ_CPOINTER && to->dtype == NULL) {
        return CJ_CONV_SAFE; /* T* -> void*, as C's (numba has no such rule) */
    }
    if (to->kind == CJ_OPTIONAL) { /* numba's Optional.can_convert_from */
        if (from->kind == CJ_NONE) {
            return CJ_CONV_PROMOTE;
        }
        cj_conversion k = cj_conversion_kind(from->kind == CJ_OPTIONAL ? from->dtype : from,
                                             to->dtype);
        return from->kind != CJ_OPTIONAL && k < CJ_CONV_PROMOTE ? CJ_CONV_PROMOTE : k;
    }
    if (from->kind == CJ_OPTIONAL) { /* its value, checked (numba's Optional.can_convert_to) */
        cj_conversion k = cj_conversion_kind(from->dtype, to);
        return k < CJ_CONV_SAFE ? CJ_CONV_SAFE : k;
    }
    if (from->kind == CJ_TUPLE && to->kind == CJ_TUPLE && from->n == to->n) {
        cj_conversion worst = CJ_CONV_EXACT;
        for (int i = 0; i < from->n && worst != CJ_CONV_NONE; i++) {
            cj_conversion k = cj_conversion_kind(from->items[i], to->items[i]);
            worst = k > worst ? k : worst;
        }
        return worst;
    }
    return CJ_CONV_NONE;
}

int cj_can_convert(const cj_type *from, const cj_type *to) {
    return cj_conversion_kind(from, to) != CJ_CONV_NONE;
}

/* A score that orders candidates as numba does: unsafe, then safe, then promoting counts
 * (each below CJ_MAX_ARGS + 1, so they pack into one number); -1 when an argument does not
 * convert. */
static long match_score(const cj_type *const *given, const cj_type *const *declared, int n) {
    long counts[CJ_CONV_NONE] = {0};
    for (int i = 0; i < n; i++) {
        cj_conversion k = cj_conversion_kind(given[i], declared[i]);
        if (k == CJ_CONV_NONE) {
            return -1;
        }
        counts[k]++;
    }
    long base = CJ_MAX_ARGS + 1;
    return (counts[CJ_CONV_UNSAFE] * base + counts[CJ_CONV_SAFE]) * base +
           counts[CJ_CONV_PROMOTE];
}

int cj_best_conversion(const cj_type *const *given, int nargs,
                       const cj_type *const *(*declared)(void *table, int i, int *nargs),
                       void *table, int count) {
    int best = -1;
    long best_score = 0;
    for (int i = 0; i < count; i++) {
        int n;
        const cj_type *const *decl = declared(table, i, &n);
        long score = n == nargs ? match_score(given, decl, nargs) : -1;
        if (score >= 0 && (best < 0 || score < best_score)) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* _core.can_convert(from, to): the kind of conversion ("exact", "promote", "safe", "unsafe")
 * by which a value of type `from` passes where `to` is declared, or None (numba's
 * typingctx.can_convert), for Python code that needs the dispatchers' answer. */
PyObject *cj_can_convert_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "can_convert(from_type, to_type) takes 2 types");
        return NULL;
    }
    const cj_type *from = cj_type_from_py_checked(args[0], "can_convert()");
    const cj_type *to = from ? cj_type_from_py_checked(args[1], "can_convert()") : NULL;
    if (to == NULL) {
        return NULL;
    }
    static const char *const names[] = {"exact", "promote", "safe", "unsafe"};
    cj_conversion k = cj_conversion_kind(from, to);
    if (k == CJ_CONV_NONE) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(names[k]);
}
