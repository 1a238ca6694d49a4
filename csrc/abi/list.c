/* list.c: the heap lists compiled code makes (abi.h's cj_list, numba's list): an NRT
 * allocation (nrt.c) whose data is the header; the items live in a malloc'd buffer that grows
 * by half again (CPython's and numba's amortised growth). Compiled code indexes the items and
 * counts their references; this file makes lists, grows them and, as the allocation's
 * destructor, drops what the items hold. Called without the GIL: failures return NULL. */
#include "abi/abi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void list_dtor(cj_meminfo *mi) {
    cj_list *l = mi->data;
    for (int64_t i = 0; l->nrefs > 0 && i < l->len; i++) {
        const char *item = l->items + i * l->item_size;
        for (int32_t k = 0; k < l->nrefs; k++) {
            cj_meminfo *held;
            memcpy(&held, item + l->ref_offsets[k], sizeof(held));
            cj_nrt_decref(held);
        }
    }
    free(l->items);
    free(l->snapshot);
}

/* Sets the capacity to `cap` items; 0 done, -1 out of memory (the list unchanged). */
static int resize(cj_list *l, int64_t cap) {
    if (cap > INT64_MAX / (l->item_size > 0 ? l->item_size : 1)) {
        return -1;
    }
    size_t bytes = (size_t)(cap * l->item_size);
    char *items = realloc(l->items, bytes > 0 ? bytes : 1);
    if (items == NULL) {
        return -1;
    }
    l->items = items;
    l->cap = cap;
    return 0;
}

cj_meminfo *cj_list_new(int64_t item_size, int32_t nrefs, const int32_t *ref_offsets,
                        int64_t len) {
    if (nrefs < 0 || nrefs > CJ_LIST_MAX_REFS || len < 0 || item_size < 0) {
        return NULL;
    }
    cj_meminfo *mi = cj_nrt_allocate((int64_t)(sizeof(cj_list) + sizeof(int32_t) * nrefs));
    if (mi == NULL) {
        return NULL;
    }
    cj_list *l = mi->data;
    l->len = 0;
    l->cap = 0;
    l->items = NULL;
    l->item_size = item_size;
    l->snapshot = NULL;
    l->parent = NULL;
    l->nrefs = nrefs;
    if (nrefs > 0) { /* ref_offsets may be NULL for none */
        memcpy(l->ref_offsets, ref_offsets, sizeof(int32_t) * (size_t)nrefs);
    }
    if (resize(l, len) < 0) {
        cj_nrt_free(mi);
        return NULL;
    }
    l->len = len;
    mi->dtor = list_dtor;
    return mi;
}

char *cj_list_reserve(cj_meminfo *mi, int64_t extra) {
    cj_list *l = mi->data;
    if (extra < 0 || l->len > INT64_MAX - extra) {
        return NULL;
    }
    int64_t need = l->len + extra;
    if (need <= l->cap) {
        return l->items;
    }
    int64_t cap = l->cap + (l->cap >> 1) + 4;
    if (resize(l, cap > need ? cap : need) < 0) {
        return NULL;
    }
    return l->items;
}

static void reverse_items(cj_list *l) {
    char tmp[16];
    for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
        char *a = l->items + i * l->item_size, *b = l->items + j * l->item_size;
        memcpy(tmp, a, (size_t)l->item_size);
        memcpy(a, b, (size_t)l->item_size);
        memcpy(b, tmp, (size_t)l->item_size);
    }
}

/* Whether float item `p` (float32 or float64) is +-0.0, and its sign. */
static int is_zero(const char *p, int kind, int *negative) {
    double v;
    if (kind == CJ_SORT_FLOAT32) {
        float f;
        memcpy(&f, p, sizeof(f));
        v = f;
    } else {
        memcpy(&v, p, sizeof(v));
    }
    *negative = signbit(v) != 0;
    return v == 0.0;
}

/* Equal numbers are the same value but for -0.0 and 0.0: the zeros' signs in their first
 * order (signs[0..count)), written back over the run of zeros a sort made. */
static int64_t zero_signs(const cj_list *l, int kind, char *signs) {
    int64_t count = 0;
    for (int64_t i = 0; i < l->len; i++) {
        int negative;
        if (is_zero(l->items + i * l->item_size, kind, &negative)) {
            signs[count++] = (char)negative;
        }
    }
    return count;
}

static void restore_zero_order(cj_list *l, int kind, const char *signs, int64_t count) {
    for (int64_t i = 0, k = 0; i < l->len && k < count; i++) {
        char *p = l->items + i * l->item_size;
        int negative;
        if (is_zero(p, kind, &negative)) {
            if (kind == CJ_SORT_FLOAT32) {
                float f = signs[k++] ? -0.0f : 0.0f;
                memcpy(p, &f, sizeof(f));
            } else {
                double d = signs[k++] ? -0.0 : 0.0;
                memcpy(p, &d, sizeof(d));
            }
        }
    }
}

static int str_order(const void *a, const void *b) {
    const cj_meminfo *x, *y;
    memcpy(&x, a, sizeof(x));
    memcpy(&y, b, sizeof(y));
    return cj_str_compare(x, y);
}

/* sort.c's introsort, made stable where it can be seen: equal integers are identical, and the
 * zeros of floats get their signs back in their first order (as a stable sort leaves them);
 * reverse=True sorts ascending and reverses (NaN first then, as Python's cannot promise any). */
int cj_list_sort(cj_meminfo *mi, int kind, int reverse) {
    cj_list *l = mi->data;
    if (l->len < 2) {
        return 0;
    }
    if (kind == CJ_SORT_STR) { /* equal strings are alike: stability cannot be seen */
        qsort(l->items, (size_t)l->len, sizeof(cj_meminfo *), str_order);
        if (reverse) {
            reverse_items(l);
        }
        return 0;
    }
    int floats = kind == CJ_SORT_FLOAT32 || kind == CJ_SORT_FLOAT64;
    char *signs = floats ? malloc((size_t)l->len) : NULL;
    if (floats && signs == NULL) {
        return -1;
    }
    int64_t zeros = floats ? zero_signs(l, kind, signs) : 0;
    cj_sort(kind, l->items, l->len);
    if (reverse) {
        reverse_items(l);
    }
    if (zeros > 1) {
        restore_zero_order(l, kind, signs, zeros);
    }
    free(signs);
    return 0;
}
