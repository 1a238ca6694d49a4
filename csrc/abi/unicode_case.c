/* unicode_case.c: case mappings and character classes of strings (str.lower upper casefold
 * swapcase title capitalize, isdigit ... istitle), with CPython's rules: the full mappings
 * ('ß'.upper() == 'SS', up to 3 code points for one) from the Unicode data CPython exports
 * (_PyUnicode_ToUpperFull ...; exported by 3.11 and 3.12), and the final sigma of lower().
 * Over unicode.c's cj_str; called without the GIL: a NULL result is out of memory. */
#include "abi/abi.h"

#include <stdlib.h>

/* CPython's handle_capital_sigma: 'Σ' lowers to the final 'ς' after a cased letter (case-
 * ignorable ones skipped) and not before one. */
static uint32_t lower_sigma(const cj_str *a, int64_t i) {
    int64_t j = i - 1;
    uint32_t c = 0;
    for (; j >= 0; j--) {
        c = cj_str_char(a, j);
        if (!_PyUnicode_IsCaseIgnorable(c)) {
            break;
        }
    }
    int final = j >= 0 && _PyUnicode_IsCased(c);
    if (final && i + 1 < a->length) {
        for (j = i + 1; j < a->length; j++) {
            c = cj_str_char(a, j);
            if (!_PyUnicode_IsCaseIgnorable(c)) {
                break;
            }
        }
        final = j == a->length || !_PyUnicode_IsCased(c);
    }
    return final ? 0x3C2 : 0x3C3;
}

static int lower_at(const cj_str *a, int64_t i, Py_UCS4 *out) {
    uint32_t c = cj_str_char(a, i);
    if (c == 0x3A3) {
        out[0] = lower_sigma(a, i);
        return 1;
    }
    return _PyUnicode_ToLowerFull(c, out);
}

/* The code points of a[i] mapped by `mode` (CJ_CASE_*), `*cased` the state title() and
 * capitalize() carry from one character to the next; their count (1 to 3). */
static int map_at(const cj_str *a, int64_t i, int mode, int *cased, Py_UCS4 *out) {
    uint32_t c = cj_str_char(a, i);
    switch (mode) {
    case CJ_CASE_UPPER:
        return _PyUnicode_ToUpperFull(c, out);
    case CJ_CASE_CASEFOLD:
        return _PyUnicode_ToFoldedFull(c, out);
    case CJ_CASE_SWAPCASE:
        if (Py_UNICODE_ISUPPER(c)) {
            return lower_at(a, i, out);
        }
        if (Py_UNICODE_ISLOWER(c)) {
            return _PyUnicode_ToUpperFull(c, out);
        }
        out[0] = c;
        return 1;
    case CJ_CASE_TITLE: {
        int n = *cased ? lower_at(a, i, out) : _PyUnicode_ToTitleFull(c, out);
        *cased = _PyUnicode_IsCased(c);
        return n;
    }
    case CJ_CASE_CAPITALIZE:
        return i == 0 ? _PyUnicode_ToTitleFull(c, out) : lower_at(a, i, out);
    default:
        return lower_at(a, i, out);
    }
}

cj_meminfo *cj_str_case(const cj_meminfo *am, int32_t mode) {
    const cj_str *a = am->data;
    if (a->length > INT64_MAX / 16) {
        return NULL;
    }
    uint32_t *buf = malloc((size_t)(a->length > 0 ? a->length : 1) * 3 * 4);
    if (buf == NULL) {
        return NULL;
    }
    int64_t n = 0;
    int cased = 0;
    for (int64_t i = 0; i < a->length; i++) {
        Py_UCS4 mapped[3];
        int k = map_at(a, i, mode, &cased, mapped);
        for (int j = 0; j < k; j++) {
            buf[n++] = mapped[j];
        }
    }
    cj_meminfo *mi = cj_str_from_data(buf, n, 4);
    free(buf);
    return mi;
}

/* ---- character classes: CJ_STR_IS* ---- */

static int char_is(int what, uint32_t c) {
    switch (what) {
    case CJ_STR_ISDIGIT:
        return Py_UNICODE_ISDIGIT(c);
    case CJ_STR_ISALPHA:
        return Py_UNICODE_ISALPHA(c);
    case CJ_STR_ISALNUM:
        return Py_UNICODE_ISALNUM(c);
    case CJ_STR_ISDECIMAL:
        return Py_UNICODE_ISDECIMAL(c);
    case CJ_STR_ISNUMERIC:
        return Py_UNICODE_ISNUMERIC(c);
    case CJ_STR_ISASCII:
        return c < 128;
    case CJ_STR_ISPRINTABLE:
        return Py_UNICODE_ISPRINTABLE(c);
    default:
        return Py_UNICODE_ISSPACE(c);
    }
}

/* CPython's isupper/islower: one cased character at least, none of the other case. */
static int32_t is_one_case(const cj_str *a, int32_t what) {
    int cased = 0;
    for (int64_t i = 0; i < a->length; i++) {
        uint32_t c = cj_str_char(a, i);
        int wrong = what == CJ_STR_ISUPPER ? Py_UNICODE_ISLOWER(c) : Py_UNICODE_ISUPPER(c);
        if (wrong || Py_UNICODE_ISTITLE(c)) {
            return 0;
        }
        cased |= what == CJ_STR_ISUPPER ? Py_UNICODE_ISUPPER(c) : Py_UNICODE_ISLOWER(c);
    }
    return cased;
}

/* CPython's istitle: upper/titlecase letters only after uncased ones, lowercase only after
 * cased ones, one cased letter at least. */
static int32_t is_title(const cj_str *a) {
    int cased = 0, previous_cased = 0;
    for (int64_t i = 0; i < a->length; i++) {
        uint32_t c = cj_str_char(a, i);
        if (Py_UNICODE_ISUPPER(c) || Py_UNICODE_ISTITLE(c)) {
            if (previous_cased) {
                return 0;
            }
            previous_cased = cased = 1;
        } else if (Py_UNICODE_ISLOWER(c)) {
            if (!previous_cased) {
                return 0;
            }
            previous_cased = cased = 1;
        } else {
            previous_cased = 0;
        }
    }
    return cased;
}

int32_t cj_str_is(const cj_meminfo *am, int32_t what) {
    const cj_str *a = am->data;
    if (what == CJ_STR_ISASCII) {
        return a->is_ascii;
    }
    if (a->length == 0) {
        return what == CJ_STR_ISPRINTABLE; /* ''.isprintable() alone is true */
    }
    if (what == CJ_STR_ISUPPER || what == CJ_STR_ISLOWER) {
        return is_one_case(a, what);
    }
    if (what == CJ_STR_ISTITLE) {
        return is_title(a);
    }
    for (int64_t i = 0; i < a->length; i++) {
        if (!char_is(what, cj_str_char(a, i))) {
            return 0;
        }
    }
    return 1;
}
