/* unicode_layout.c: the string methods that lay characters out (center, ljust, rjust, zfill,
 * expandtabs) and cut a string into parts (partition, rpartition, rsplit, splitlines, list(s)),
 * with CPython's rules. Over unicode.c's cj_str; called without the GIL: a NULL result (-1)
 * is out of memory; the caller checked what raises (an empty separator, a fill character of
 * another length than 1). */
#include "abi/abi.h"

#include <stdlib.h>
#include <string.h>

/* A new string: `left` fill characters, a, then `right` of them. */
static cj_meminfo *padded(const cj_str *a, int64_t left, int64_t right, uint32_t fill) {
    int kind = cj_str_kind_of(fill) > a->kind ? cj_str_kind_of(fill) : a->kind;
    int ascii = a->is_ascii && (fill < 128 || left + right == 0);
    if (left + right == 0) {
        kind = a->kind;
    }
    cj_meminfo *mi = cj_str_alloc(left + a->length + right, kind, ascii);
    if (mi == NULL) {
        return NULL;
    }
    cj_str *s = mi->data;
    for (int64_t i = 0; i < left; i++) {
        cj_str_put(s, i, fill);
    }
    for (int64_t i = 0; i < a->length; i++) {
        cj_str_put(s, left + i, cj_str_char(a, i));
    }
    for (int64_t i = 0; i < right; i++) {
        cj_str_put(s, left + a->length + i, fill);
    }
    return mi;
}

cj_meminfo *cj_str_pad(const cj_meminfo *am, int64_t width, const cj_meminfo *fillm,
                       int32_t which) {
    const cj_str *a = am->data;
    uint32_t fill = fillm != NULL ? cj_str_char(fillm->data, 0) : ' ';
    int64_t marg = width > a->length ? width - a->length : 0;
    if (which == 1) {
        return padded(a, 0, marg, fill);
    }
    if (which == 2) {
        return padded(a, marg, 0, fill);
    }
    int64_t left = marg / 2 + (marg & width & 1); /* CPython's centring of an odd margin */
    return padded(a, left, marg - left, fill);
}

/* '0's before the digits, after a leading sign. */
cj_meminfo *cj_str_zfill(const cj_meminfo *am, int64_t width) {
    const cj_str *a = am->data;
    int64_t fill = width > a->length ? width - a->length : 0;
    cj_meminfo *mi = padded(a, fill, 0, '0');
    if (mi != NULL && fill > 0 && a->length > 0) {
        uint32_t c = cj_str_char(a, 0);
        if (c == '+' || c == '-') {
            cj_str_put(mi->data, 0, c);
            cj_str_put(mi->data, fill, '0');
        }
    }
    return mi;
}

/* Each tab to spaces up to the next multiple of tabsize (none when tabsize <= 0); a line
 * break starts the column again. */
cj_meminfo *cj_str_expandtabs(const cj_meminfo *am, int64_t tabsize) {
    const cj_str *a = am->data;
    int64_t total = 0, col = 0;
    for (int pass = 0; pass < 2; pass++) {
        cj_meminfo *mi = pass ? cj_str_alloc(total, a->kind, a->is_ascii) : NULL;
        if (pass && mi == NULL) {
            return NULL;
        }
        int64_t at = 0;
        col = 0;
        for (int64_t i = 0; i < a->length; i++) {
            uint32_t c = cj_str_char(a, i);
            if (c == '\t') {
                int64_t incr = tabsize > 0 ? tabsize - col % tabsize : 0;
                if (incr > INT64_MAX / 8 - at) {
                    return NULL; /* CPython's OverflowError: too long a result */
                }
                for (int64_t k = 0; pass && k < incr; k++) {
                    cj_str_put(mi->data, at + k, ' ');
                }
                at += incr;
                col += incr;
                continue;
            }
            if (pass) {
                cj_str_put(mi->data, at, c);
            }
            at++;
            col = c == '\n' || c == '\r' ? 0 : col + 1;
        }
        if (pass) {
            return mi;
        }
        total = at;
    }
    return NULL;
}

int32_t cj_str_partition(const cj_meminfo *am, const cj_meminfo *sepm, int32_t reverse,
                         cj_meminfo **out) {
    const cj_str *a = am->data, *sep = sepm->data;
    int64_t n = a->length, at = cj_str_find(am, sepm, 0, n, reverse);
    if (at < 0) { /* (s, '', '') or ('', '', s) */
        at = reverse ? 0 : n;
        out[0] = cj_str_slice(am, 0, 1, at);
        out[1] = cj_str_slice(am, 0, 1, 0);
        out[2] = cj_str_slice(am, at, 1, n - at);
    } else {
        out[0] = cj_str_slice(am, 0, 1, at);
        out[1] = cj_str_slice(sepm, 0, 1, sep->length);
        out[2] = cj_str_slice(am, at + sep->length, 1, n - at - sep->length);
    }
    if (out[0] == NULL || out[1] == NULL || out[2] == NULL) {
        for (int i = 0; i < 3; i++) {
            cj_nrt_decref(out[i]);
            out[i] = NULL;
        }
        return -1;
    }
    return 0;
}

/* The parts were appended from the right: put them in order. */
static void reverse_items(cj_meminfo *listm) {
    cj_list *l = listm->data;
    cj_meminfo **items = (cj_meminfo **)l->items;
    for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
        cj_meminfo *t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* The rightmost whitespace-separated parts, at most maxsplit splits (< 0: all). */
static int rsplit_space(cj_meminfo *list, const cj_meminfo *am, int64_t maxsplit) {
    const cj_str *a = am->data;
    int64_t j = a->length, splits = 0;
    while (j > 0) {
        while (j > 0 && Py_UNICODE_ISSPACE(cj_str_char(a, j - 1))) {
            j--;
        }
        if (j == 0) {
            break;
        }
        int64_t i = j;
        if (maxsplit >= 0 && splits >= maxsplit) {
            for (i = 0; i < j && Py_UNICODE_ISSPACE(cj_str_char(a, i)); i++) {
            }
        } else {
            while (i > 0 && !Py_UNICODE_ISSPACE(cj_str_char(a, i - 1))) {
                i--;
            }
        }
        if (cj_str_list_append_part(list, am, i, j) < 0) {
            return -1;
        }
        splits++;
        j = i;
    }
    return 0;
}

cj_meminfo *cj_str_rsplit(const cj_meminfo *am, const cj_meminfo *sepm, int64_t maxsplit) {
    const cj_str *a = am->data;
    cj_meminfo *list = cj_str_list_new();
    if (list == NULL) {
        return NULL;
    }
    int rc = 0;
    if (sepm == NULL) {
        rc = rsplit_space(list, am, maxsplit);
    } else {
        int64_t j = a->length, splits = 0, seplen = ((const cj_str *)sepm->data)->length;
        for (int64_t i; rc == 0 && (maxsplit < 0 || splits < maxsplit) &&
                        (i = cj_str_find(am, sepm, 0, j, 1)) >= 0; splits++) {
            rc = cj_str_list_append_part(list, am, i + seplen, j);
            j = i;
        }
        rc = rc < 0 ? rc : cj_str_list_append_part(list, am, 0, j);
    }
    if (rc < 0) {
        cj_nrt_decref(list);
        return NULL;
    }
    reverse_items(list);
    return list;
}

/* Lines end at CPython's line boundaries (\n \r \r\n \v \f \x1c-\x1e \x85 \u2028 \u2029). */
cj_meminfo *cj_str_splitlines(const cj_meminfo *am, int32_t keepends) {
    const cj_str *a = am->data;
    cj_meminfo *list = cj_str_list_new();
    int64_t i = 0, n = a->length;
    while (list != NULL && i < n) {
        int64_t j = i;
        while (j < n && !Py_UNICODE_ISLINEBREAK(cj_str_char(a, j))) {
            j++;
        }
        int64_t eol = j;
        if (j < n) {
            j += cj_str_char(a, j) == '\r' && j + 1 < n && cj_str_char(a, j + 1) == '\n' ? 2 : 1;
            eol = keepends ? j : eol;
        }
        if (cj_str_list_append_part(list, am, i, eol) < 0) {
            cj_nrt_decref(list);
            return NULL;
        }
        i = j;
    }
    return list;
}

/* list(s): each character a string. */
cj_meminfo *cj_str_chars(const cj_meminfo *am) {
    const cj_str *a = am->data;
    cj_meminfo *list = cj_str_list_new();
    for (int64_t i = 0; list != NULL && i < a->length; i++) {
        if (cj_str_list_append_part(list, am, i, i + 1) < 0) {
            cj_nrt_decref(list);
            return NULL;
        }
    }
    return list;
}
