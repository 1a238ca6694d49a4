/* unicode_methods.c: the string methods that make new strings or lists of them (split, join,
 * strip, replace) and str() of numbers (CPython's repr of floats: the shortest digits that
 * read back). Over unicode.c's cj_str; called without the GIL: a NULL result is out of
 * memory. Case mappings and character classes are in unicode_case.c, padding, partition,
 * rsplit, splitlines and expandtabs in unicode_layout.c. */
#include "abi/abi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A new string of the code points buf[0..n) (4 bytes each), in its smallest kind. */
static cj_meminfo *from_ucs4(const uint32_t *buf, int64_t n) {
    return cj_str_from_data(buf, n, 4);
}

static int is_space(uint32_t c) { return Py_UNICODE_ISSPACE(c); }

/* ---- split and join ---- */

cj_meminfo *cj_str_list_new(void) {
    int32_t off = 0;
    return cj_list_new((int64_t)sizeof(void *), 1, &off, 0);
}

/* Appends a[start:stop] to the list: 0, or -1 out of memory. */
int cj_str_list_append_part(cj_meminfo *list, const cj_meminfo *am, int64_t start,
                             int64_t stop) {
    cj_meminfo *part = cj_str_slice(am, start, 1, stop - start);
    char *items = part != NULL ? cj_list_reserve(list, 1) : NULL;
    if (items == NULL) {
        cj_nrt_decref(part);
        return -1;
    }
    cj_list *l = list->data;
    memcpy(items + l->len * (int64_t)sizeof(void *), &part, sizeof(void *));
    l->len++;
    return 0;
}

/* s.split() (sep NULL: runs of whitespace) or s.split(sep), at most maxsplit (< 0: all);
 * sep must not be empty (the caller raises). A list of strings, or NULL. */
cj_meminfo *cj_str_split(const cj_meminfo *am, const cj_meminfo *sepm, int64_t maxsplit) {
    const cj_str *a = am->data;
    cj_meminfo *list = cj_str_list_new();
    int64_t i = 0, n = a->length, splits = 0;
    if (list == NULL) {
        return NULL;
    }
    if (sepm != NULL) {
        const cj_str *sep = sepm->data;
        for (int64_t j; (maxsplit < 0 || splits < maxsplit) &&
                        (j = cj_str_find(am, sepm, i, n, 0)) >= 0; splits++) {
            if (cj_str_list_append_part(list, am, i, j) < 0) {
                goto fail;
            }
            i = j + sep->length;
        }
        if (cj_str_list_append_part(list, am, i, n) < 0) {
            goto fail;
        }
        return list;
    }
    /* runs of whitespace; one- and two-byte strings read their code points directly */
    const uint8_t *bytes = a->kind == 1 ? a->data : NULL;
    const uint16_t *wide = a->kind == 2 ? a->data : NULL;
#define SPACE_AT(k)                                                                             \
    (bytes ? Py_UNICODE_ISSPACE(bytes[k])                                                      \
           : wide ? Py_UNICODE_ISSPACE(wide[k]) : is_space(cj_str_char(a, k)))
    while (i < n) {
        while (i < n && SPACE_AT(i)) {
            i++;
        }
        if (i == n) {
            break;
        }
        int64_t j = i;
        if (maxsplit >= 0 && splits >= maxsplit) {
            j = n;
            while (j > i && SPACE_AT(j - 1)) {
                j--;
            }
        } else {
            while (j < n && !SPACE_AT(j)) {
                j++;
            }
        }
        if (cj_str_list_append_part(list, am, i, j) < 0) {
            goto fail;
        }
        splits++;
        i = j;
    }
#undef SPACE_AT
    return list;
fail:
    cj_nrt_decref(list);
    return NULL;
}

/* sep.join(list of strings). */
cj_meminfo *cj_str_join(const cj_meminfo *sepm, const cj_meminfo *listm) {
    const cj_str *sep = sepm->data;
    const cj_list *l = listm->data;
    int64_t total = 0;
    int kind = sep->kind, ascii = sep->is_ascii;
    for (int64_t i = 0; i < l->len; i++) {
        cj_meminfo *item;
        memcpy(&item, l->items + i * l->item_size, sizeof(item));
        const cj_str *s = item->data;
        total += s->length + (i > 0 ? sep->length : 0);
        kind = s->kind > kind ? s->kind : kind;
        ascii = ascii && s->is_ascii;
    }
    if (l->len <= 1) {
        kind = 1;
        ascii = 1;
        for (int64_t i = 0; i < l->len; i++) {
            cj_meminfo *item;
            memcpy(&item, l->items, sizeof(item));
            kind = ((const cj_str *)item->data)->kind;
            ascii = ((const cj_str *)item->data)->is_ascii;
        }
    }
    cj_meminfo *mi = cj_str_alloc(total, kind, ascii);
    if (mi == NULL) {
        return NULL;
    }
    cj_str *out = mi->data;
    for (int64_t i = 0, at = 0; i < l->len; i++) {
        cj_meminfo *item;
        memcpy(&item, l->items + i * l->item_size, sizeof(item));
        const cj_str *s = item->data;
        for (int64_t k = 0; i > 0 && k < sep->length; k++) {
            cj_str_put(out, at++, cj_str_char(sep, k));
        }
        for (int64_t k = 0; k < s->length; k++) {
            cj_str_put(out, at++, cj_str_char(s, k));
        }
    }
    return mi;
}

/* ---- strip, case, replace ---- */

static int in_chars(const cj_str *chars, uint32_t c) {
    if (chars == NULL) {
        return is_space(c);
    }
    for (int64_t k = 0; k < chars->length; k++) {
        if (cj_str_char(chars, k) == c) {
            return 1;
        }
    }
    return 0;
}

/* which: 1 left, 2 right, 3 both; chars NULL: whitespace. */
cj_meminfo *cj_str_strip(const cj_meminfo *am, const cj_meminfo *charsm, int32_t which) {
    const cj_str *a = am->data, *chars = charsm != NULL ? charsm->data : NULL;
    int64_t i = 0, j = a->length;
    while ((which & 1) && i < j && in_chars(chars, cj_str_char(a, i))) {
        i++;
    }
    while ((which & 2) && j > i && in_chars(chars, cj_str_char(a, j - 1))) {
        j--;
    }
    return cj_str_slice(am, i, 1, j - i);
}

/* Copies a[from:to] into buf at *at. */
static void put_range(uint32_t *buf, int64_t *at, const cj_str *a, int64_t from, int64_t to) {
    for (int64_t k = from; k < to; k++) {
        buf[(*at)++] = cj_str_char(a, k);
    }
}

/* s.replace(old, new, count) (count < 0: all; '' matches before every character and at the
 * end, as CPython's): one pass to count, one to copy into code points, then the smallest kind. */
cj_meminfo *cj_str_replace(const cj_meminfo *am, const cj_meminfo *oldm,
                           const cj_meminfo *newm, int64_t count) {
    const cj_str *a = am->data, *old = oldm->data, *rep = newm->data;
    int64_t n = old->length == 0 ? a->length + 1 : cj_str_count(am, oldm);
    n = count >= 0 && count < n ? count : n;
    int64_t grow = rep->length - old->length;
    if (n > 0 && grow > 0 && n > (INT64_MAX / 16 - a->length) / grow) {
        return NULL;
    }
    int64_t total = a->length + n * grow, at = 0, i = 0;
    uint32_t *buf = malloc((size_t)(total > 0 ? total : 1) * 4);
    if (buf == NULL) {
        return NULL;
    }
    for (int64_t done = 0; done < n; done++) {
        int64_t j = old->length == 0 ? i : cj_str_find(am, oldm, i, a->length, 0);
        put_range(buf, &at, a, i, j);
        put_range(buf, &at, rep, 0, rep->length);
        i = j + old->length;
        if (old->length == 0 && i < a->length) {
            buf[at++] = cj_str_char(a, i++);
        }
    }
    put_range(buf, &at, a, i, a->length);
    cj_meminfo *mi = from_ucs4(buf, at);
    free(buf);
    return mi;
}

/* ---- numbers ---- */

static cj_meminfo *from_ascii(const char *text) {
    return cj_str_from_data(text, (int64_t)strlen(text), 1);
}

cj_meminfo *cj_str_from_int(int64_t v, int32_t is_unsigned) {
    char buf[32];
    if (is_unsigned) {
        snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
    } else {
        snprintf(buf, sizeof(buf), "%lld", (long long)v);
    }
    return from_ascii(buf);
}

/* The shortest %.*e digits of v that read back as v: CPython's repr (float_repr_style
 * 'short'), laid out as repr lays them: positional for exponents -4 <= e < 16. */
cj_meminfo *cj_str_from_double(double v) {
    if (isnan(v)) {
        return from_ascii("nan");
    }
    if (isinf(v)) {
        return from_ascii(v > 0 ? "inf" : "-inf");
    }
    char e_text[40], digits[24], out[64];
    int p = 1;
    for (; p < 17; p++) {
        snprintf(e_text, sizeof(e_text), "%.*e", p - 1, v);
        if (strtod(e_text, NULL) == v) {
            break;
        }
    }
    snprintf(e_text, sizeof(e_text), "%.*e", p - 1, v);
    const char *m = e_text + (e_text[0] == '-');
    int nd = 0;
    for (const char *q = m; *q != 'e'; q++) {
        if (*q != '.') {
            digits[nd++] = *q;
        }
    }
    while (nd > 1 && digits[nd - 1] == '0') {
        nd--;
    }
    digits[nd] = 0;
    int exp = atoi(strchr(e_text, 'e') + 1), at = 0;
    if (v < 0 || (v == 0 && signbit(v))) {
        out[at++] = '-';
    }
    if (exp >= 16 || exp < -4) {
        at += snprintf(out + at, 8, "%c", digits[0]);
        if (nd > 1) {
            at += snprintf(out + at, sizeof(out) - (size_t)at, ".%s", digits + 1);
        }
        snprintf(out + at, sizeof(out) - (size_t)at, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
    } else if (exp < 0) {
        out[at++] = '0';
        out[at++] = '.';
        for (int k = 0; k < -exp - 1; k++) {
            out[at++] = '0';
        }
        snprintf(out + at, sizeof(out) - (size_t)at, "%s", digits);
    } else {
        for (int k = 0; k <= exp || k < nd; k++) {
            if (k == exp + 1) {
                out[at++] = '.';
            }
            out[at++] = k < nd ? digits[k] : '0';
        }
        if (nd <= exp + 1) {
            out[at++] = '.';
            out[at++] = '0';
        }
        out[at] = 0;
    }
    return from_ascii(out);
}
