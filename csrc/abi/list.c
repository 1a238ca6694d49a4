/* list.c: the heap lists compiled code makes (abi.h's cj_list, numba's list): an NRT
 * allocation (nrt.c) whose data is the header; the items live in a malloc'd buffer that grows
 * by half again (CPython's and numba's amortised growth). Compiled code indexes the items and
 * counts their references; this file makes lists, grows them and, as the allocation's
 * destructor, drops what the items hold. Called without the GIL: failures return NULL. */
#include "abi/abi.h"

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
    l->nrefs = nrefs;
    memcpy(l->ref_offsets, ref_offsets, sizeof(int32_t) * (size_t)nrefs);
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

static void reverse_items(cj_list *l, char *tmp) {
    for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
        char *a = l->items + i * l->item_size, *b = l->items + j * l->item_size;
        memcpy(tmp, a, (size_t)l->item_size);
        memcpy(a, b, (size_t)l->item_size);
        memcpy(b, tmp, (size_t)l->item_size);
    }
}

int cj_list_sort(cj_meminfo *mi, int kind, int reverse) {
    cj_list *l = mi->data;
    size_t size = (size_t)l->item_size, n = (size_t)l->len;
    if (n < 2) {
        return 0;
    }
    int64_t *order = malloc(n * sizeof(int64_t));
    char *sorted = malloc(n * size), tmp[16];
    int rc = order != NULL && sorted != NULL && size <= sizeof(tmp) ? 0 : -1;
    if (rc == 0 && reverse) { /* Python's reverse=True: reverse, sort stably, reverse */
        reverse_items(l, tmp);
    }
    if (rc == 0) {
        rc = cj_argsort(kind, l->items, l->len, order);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        memcpy(sorted + i * size, l->items + (size_t)order[i] * size, size);
    }
    if (rc == 0) {
        memcpy(l->items, sorted, n * size);
        if (reverse) {
            reverse_items(l, tmp);
        }
    }
    free(order);
    free(sorted);
    return rc;
}
