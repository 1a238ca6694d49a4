/* unicode.c: the strings compiled code makes and reads (abi.h's cj_str, numba's unicode_type
 * model): an NRT allocation (nrt.c) whose data is the header, the code points in CPython's
 * PEP 393 form (1, 2 or 4 bytes each, the smallest kind that holds them, so a string's bytes
 * are CPython's and its hash is CPython's). A str passed in is read where it lies: its
 * allocation holds a reference to it, dropped with the GIL. This file has the making, the
 * reading, concatenation, repetition, slicing, comparison, hashing and searching; the methods
 * that make new strings are in unicode_methods.c. Called without the GIL unless said. */
#include "abi/abi.h"

#include <stdlib.h>
#include <string.h>

uint32_t cj_str_char(const cj_str *s, int64_t i) {
    switch (s->kind) {
    case 1:
        return ((const uint8_t *)s->data)[i];
    case 2:
        return ((const uint16_t *)s->data)[i];
    default:
        return ((const uint32_t *)s->data)[i];
    }
}

void cj_str_put(cj_str *s, int64_t i, uint32_t c) {
    switch (s->kind) {
    case 1:
        ((uint8_t *)s->data)[i] = (uint8_t)c;
        break;
    case 2:
        ((uint16_t *)s->data)[i] = (uint16_t)c;
        break;
    default:
        ((uint32_t *)s->data)[i] = c;
    }
}

int cj_str_kind_of(uint32_t maxchar) {
    return maxchar < 256 ? 1 : maxchar < 65536 ? 2 : 4;
}

cj_meminfo *cj_str_alloc(int64_t length, int kind, int is_ascii) {
    if (length < 0 || length > (INT64_MAX / 8) - 64) {
        return NULL;
    }
    cj_meminfo *mi = cj_nrt_allocate_packed((int64_t)sizeof(cj_str) + (length + 1) * kind);
    if (mi == NULL) {
        return NULL;
    }
    cj_str *s = mi->data;
    s->length = length;
    s->kind = kind;
    s->is_ascii = is_ascii;
    s->hash = -1;
    s->data = (char *)mi->data + sizeof(cj_str);
    s->parent = NULL;
    memset((char *)s->data + length * kind, 0, (size_t)kind); /* CPython's terminating 0 */
    return mi;
}

/* The largest code point of s[start : start + n] in a 2- or 4-byte string: typed loops (split
 * of a non-ASCII text slices every word). */
static uint32_t max_char_run(const cj_str *s, int64_t start, int64_t n) {
    uint32_t m = 0;
    if (s->kind == 2) {
        const uint16_t *p = (const uint16_t *)s->data + start;
        for (int64_t k = 0; k < n; k++) {
            m = p[k] > m ? p[k] : m;
        }
        return m;
    }
    const uint32_t *p = (const uint32_t *)s->data + start;
    for (int64_t k = 0; k < n; k++) {
        m = p[k] > m ? p[k] : m;
    }
    return m;
}

/* The largest code point of s[start : start + n * step : step]. */
static uint32_t max_char(const cj_str *s, int64_t start, int64_t step, int64_t n) {
    uint32_t m = 0;
    if (s->is_ascii) {
        return n > 0 ? 127 : 0; /* every part of an ASCII string is ASCII */
    }
    if (step == 1 && s->kind > 1) {
        return max_char_run(s, start, n);
    }
    if (s->kind == 1) {
        for (int64_t k = 0; k < n && m < 128; k++) {
            uint32_t c = cj_str_char(s, start + k * step);
            m = c > m ? c : m;
        }
        return m < 128 ? m : 255;
    }
    for (int64_t k = 0; k < n; k++) {
        uint32_t c = cj_str_char(s, start + k * step);
        m = c > m ? c : m;
    }
    return m;
}

cj_meminfo *cj_str_from_data(const void *data, int64_t length, int32_t kind) {
    cj_str src = {.length = length, .kind = kind, .data = (void *)data};
    uint32_t m = max_char(&src, 0, 1, length);
    cj_meminfo *mi = cj_str_alloc(length, cj_str_kind_of(m), m < 128);
    if (mi != NULL) {
        cj_str *s = mi->data;
        if (s->kind == kind) {
            memcpy(s->data, data, (size_t)(length * kind));
        } else {
            for (int64_t i = 0; i < length; i++) {
                cj_str_put(s, i, cj_str_char(&src, i));
            }
        }
    }
    return mi;
}

/* ---- strings from Python and back (with the GIL) ---- */

static void parent_dtor(cj_meminfo *mi) {
    cj_str *s = mi->data;
    if (Py_IsInitialized()) { /* compiled code may drop it without the GIL (nogil, prange) */
        PyGILState_STATE g = PyGILState_Ensure();
        Py_DECREF(s->parent);
        PyGILState_Release(g);
    }
}

cj_meminfo *cj_str_from_pyobject(PyObject *obj) {
    if (!PyUnicode_Check(obj) || PyUnicode_READY(obj) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "expected a str, got %.200s", Py_TYPE(obj)->tp_name);
        }
        return NULL;
    }
    cj_meminfo *mi = cj_nrt_allocate_packed((int64_t)sizeof(cj_str));
    if (mi == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    cj_str *s = mi->data;
    s->length = PyUnicode_GET_LENGTH(obj);
    s->kind = PyUnicode_KIND(obj);
    s->is_ascii = PyUnicode_IS_ASCII(obj);
    s->hash = -1;
    s->data = PyUnicode_DATA(obj); /* read in place: the reference below keeps it */
    Py_INCREF(obj);
    s->parent = obj;
    mi->dtor = parent_dtor;
    return mi;
}

PyObject *cj_str_to_pyobject(const cj_meminfo *mi) {
    const cj_str *s = mi->data;
    if (s->parent != NULL && PyUnicode_CheckExact(s->parent)) {
        Py_INCREF(s->parent);
        return s->parent;
    }
    return PyUnicode_FromKindAndData(s->kind, s->data, (Py_ssize_t)s->length);
}

/* ---- operators ---- */

cj_meminfo *cj_str_concat(const cj_meminfo *am, const cj_meminfo *bm) {
    const cj_str *a = am->data, *b = bm->data;
    int kind = a->kind > b->kind ? a->kind : b->kind;
    if (a->length > INT64_MAX / 16 - b->length) {
        return NULL;
    }
    cj_meminfo *mi = cj_str_alloc(a->length + b->length, kind, a->is_ascii && b->is_ascii);
    if (mi == NULL) {
        return NULL;
    }
    cj_str *s = mi->data;
    if (a->kind == kind && b->kind == kind) {
        memcpy(s->data, a->data, (size_t)(a->length * kind));
        memcpy((char *)s->data + a->length * kind, b->data, (size_t)(b->length * kind));
        return mi;
    }
    for (int64_t i = 0; i < a->length; i++) {
        cj_str_put(s, i, cj_str_char(a, i));
    }
    for (int64_t i = 0; i < b->length; i++) {
        cj_str_put(s, a->length + i, cj_str_char(b, i));
    }
    return mi;
}

cj_meminfo *cj_str_repeat(const cj_meminfo *am, int64_t n) {
    const cj_str *a = am->data;
    n = n < 0 ? 0 : n;
    if (a->length > 0 && n > (INT64_MAX / 16) / a->length) {
        return NULL;
    }
    cj_meminfo *mi = cj_str_alloc(a->length * n, a->kind, a->is_ascii);
    if (mi == NULL) {
        return NULL;
    }
    cj_str *s = mi->data;
    size_t bytes = (size_t)(a->length * a->kind);
    for (int64_t k = 0; k < n; k++) {
        memcpy((char *)s->data + (size_t)k * bytes, a->data, bytes);
    }
    return mi;
}

/* s[start : start + n * step : step] (the caller computed slice.indices()). */
cj_meminfo *cj_str_slice(const cj_meminfo *am, int64_t start, int64_t step, int64_t n) {
    const cj_str *a = am->data;
    uint32_t m = max_char(a, start, step, n);
    cj_meminfo *mi = cj_str_alloc(n, cj_str_kind_of(m), m < 128);
    if (mi == NULL) {
        return NULL;
    }
    cj_str *s = mi->data;
    if (step == 1 && s->kind == a->kind) {
        memcpy(s->data, (const char *)a->data + start * a->kind, (size_t)(n * a->kind));
        return mi;
    }
    if (step == 1 && a->kind == 2 && s->kind == 1) { /* the common narrowing, a typed loop */
        const uint16_t *from = (const uint16_t *)a->data + start;
        uint8_t *to = s->data;
        for (int64_t k = 0; k < n; k++) {
            to[k] = (uint8_t)from[k];
        }
        return mi;
    }
    for (int64_t k = 0; k < n; k++) {
        cj_str_put(s, k, cj_str_char(a, start + k * step));
    }
    return mi;
}

/* s[i] for 0 <= i < len(s) (the caller checked). */
cj_meminfo *cj_str_getitem(const cj_meminfo *am, int64_t i) {
    return cj_str_slice(am, i, 1, 1);
}

cj_meminfo *cj_str_chr(int64_t code) {
    if (code < 0 || code > 0x10FFFF) {
        return NULL;
    }
    uint32_t c = (uint32_t)code;
    cj_meminfo *mi = cj_str_alloc(1, cj_str_kind_of(c), c < 128);
    if (mi != NULL) {
        cj_str_put(mi->data, 0, c);
    }
    return mi;
}

int64_t cj_str_ord(const cj_meminfo *am) {
    const cj_str *a = am->data;
    return a->length == 1 ? (int64_t)cj_str_char(a, 0) : -1;
}

/* ---- comparison and hashing: the one rule a dict's keys use too ---- */

int32_t cj_str_equal(const cj_meminfo *am, const cj_meminfo *bm) {
    const cj_str *a = am->data, *b = bm->data;
    if (a == b) {
        return 1;
    }
    /* both in their smallest kind: equal strings have equal kinds and bytes */
    return a->length == b->length && a->kind == b->kind &&
           memcmp(a->data, b->data, (size_t)(a->length * a->kind)) == 0;
}

int32_t cj_str_compare(const cj_meminfo *am, const cj_meminfo *bm) {
    const cj_str *a = am->data, *b = bm->data;
    int64_t n = a->length < b->length ? a->length : b->length;
    for (int64_t i = 0; i < n; i++) {
        uint32_t x = cj_str_char(a, i), y = cj_str_char(b, i);
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    return a->length < b->length ? -1 : a->length > b->length ? 1 : 0;
}

int64_t cj_str_hash(const cj_meminfo *am) {
    cj_str *a = am->data;
    if (a->hash == -1) { /* CPython's: siphash of the PEP 393 bytes with this process's key */
        Py_hash_t h = _Py_HashBytes(a->data, (Py_ssize_t)(a->length * a->kind));
        a->hash = h == -1 ? -2 : h;
    }
    return a->hash;
}

/* ---- searching ---- */

static int match_at(const cj_str *a, int64_t i, const cj_str *sub) {
    for (int64_t k = 0; k < sub->length; k++) {
        if (cj_str_char(a, i + k) != cj_str_char(sub, k)) {
            return 0;
        }
    }
    return 1;
}

/* The first (last, when `reverse`) index >= start of sub in a[start:end] (clamped as
 * Python's), or -1. */
int64_t cj_str_find(const cj_meminfo *am, const cj_meminfo *subm, int64_t start, int64_t end,
                    int32_t reverse) {
    const cj_str *a = am->data, *sub = subm->data;
    int64_t n = a->length;
    start = start < 0 ? (start + n < 0 ? 0 : start + n) : start;
    end = end < 0 ? (end + n < 0 ? 0 : end + n) : (end > n ? n : end);
    if (end - start < sub->length || start > n) {
        return -1;
    }
    if (reverse) {
        for (int64_t i = end - sub->length; i >= start; i--) {
            if (match_at(a, i, sub)) {
                return i;
            }
        }
        return -1;
    }
    if (sub->length > 0 && a->kind == sub->kind && a->kind == 1) {
        const char *d = a->data, *p = d + start, *stop = d + end - sub->length;
        while (p <= stop && (p = memchr(p, *(const char *)sub->data, (size_t)(stop - p + 1)))) {
            if (memcmp(p, sub->data, (size_t)sub->length) == 0) {
                return p - d;
            }
            p++;
        }
        return -1;
    }
    for (int64_t i = start; i + sub->length <= end; i++) {
        if (match_at(a, i, sub)) {
            return i;
        }
    }
    return -1;
}

/* sub's non-overlapping occurrences in a[start:end] (clamped as Python's); an empty sub
 * counts the len + 1 places between characters, none where start passes end. */
int64_t cj_str_count_range(const cj_meminfo *am, const cj_meminfo *subm, int64_t start,
                           int64_t end) {
    const cj_str *a = am->data, *sub = subm->data;
    int64_t n = a->length;
    start = start < 0 ? (start + n < 0 ? 0 : start + n) : start;
    end = end < 0 ? (end + n < 0 ? 0 : end + n) : (end > n ? n : end);
    if (end - start < sub->length) {
        return 0;
    }
    if (sub->length == 0) {
        return end - start + 1;
    }
    int64_t count = 0;
    for (int64_t i = cj_str_find(am, subm, start, end, 0); i >= 0;
         i = cj_str_find(am, subm, i + sub->length, end, 0)) {
        count++;
    }
    return count;
}

int64_t cj_str_count(const cj_meminfo *am, const cj_meminfo *subm) {
    return cj_str_count_range(am, subm, 0, ((const cj_str *)am->data)->length);
}

int32_t cj_str_startswith(const cj_meminfo *am, const cj_meminfo *pm, int32_t at_end) {
    const cj_str *a = am->data, *p = pm->data;
    if (p->length > a->length) {
        return 0;
    }
    return match_at(a, at_end ? a->length - p->length : 0, p);
}

int32_t cj_str_in_list(const cj_meminfo *listm, const cj_meminfo *s) {
    const cj_list *l = listm->data;
    for (int64_t i = 0; i < l->len; i++) {
        const cj_meminfo *item;
        memcpy(&item, l->items + i * l->item_size, sizeof(item));
        if (cj_str_equal(item, s)) {
            return 1;
        }
    }
    return 0;
}
