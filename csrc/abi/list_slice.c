/* list_slice.c: l[a:b:c] = other and del l[a:b:c] on abi.h's cj_list, with CPython's rules
 * (list_ass_subscript): a step-1 slice takes any number of items (the list grows or shrinks),
 * an extended slice exactly as many as it selects. Items are moved as bytes; the references
 * an item holds (ref_offsets) are counted here: the new items' taken before the old ones'
 * are dropped, so l[:] = l and lists that hold themselves stay sound. No GIL needed. */
#include "abi/abi.h"

#include <stdlib.h>
#include <string.h>

static void count_refs(const cj_list *l, const char *item, int add) {
    for (int32_t k = 0; k < l->nrefs; k++) {
        cj_meminfo *held;
        memcpy(&held, item + l->ref_offsets[k], sizeof(held));
        if (add) {
            cj_nrt_incref(held);
        } else {
            cj_nrt_decref(held);
        }
    }
}

/* A copy of src's items, their references taken: NULL out of memory. */
static char *take_items(const cj_list *src) {
    size_t bytes = (size_t)(src->len * src->item_size);
    char *copy = malloc(bytes > 0 ? bytes : 1);
    if (copy != NULL) {
        memcpy(copy, src->items, bytes);
        for (int64_t i = 0; i < src->len; i++) {
            count_refs(src, copy + i * src->item_size, 1);
        }
    }
    return copy;
}

/* Items [from, len) move to start at `to`; the length becomes len + to - from. */
static void shift_tail(cj_list *l, int64_t from, int64_t to) {
    memmove(l->items + to * l->item_size, l->items + from * l->item_size,
            (size_t)((l->len - from) * l->item_size));
    l->len += to - from;
}

int32_t cj_list_assign_slice(cj_meminfo *dstm, int64_t start, int64_t step, int64_t n,
                             const cj_meminfo *srcm) {
    cj_list *l = dstm->data;
    const cj_list *src = srcm->data;
    int64_t m = src->len, size = l->item_size;
    if (step != 1 && m != n) {
        return -2;
    }
    if (step == 1 && m > n && cj_list_reserve(dstm, m - n) == NULL) {
        return -1;
    }
    char *items = take_items(src);
    if (items == NULL) {
        return -1;
    }
    if (step != 1) {
        for (int64_t k = 0; k < n; k++) {
            char *at = l->items + (start + k * step) * size;
            count_refs(l, at, 0);
            memcpy(at, items + k * size, (size_t)size);
        }
        free(items);
        return 0;
    }
    for (int64_t k = 0; k < n; k++) {
        count_refs(l, l->items + (start + k) * size, 0);
    }
    shift_tail(l, start + n, start + m);
    memcpy(l->items + start * size, items, (size_t)(m * size));
    free(items);
    return 0;
}

void cj_list_delete_slice(cj_meminfo *dstm, int64_t start, int64_t step, int64_t n) {
    cj_list *l = dstm->data;
    int64_t size = l->item_size;
    if (n <= 0) {
        return;
    }
    if (step < 0) { /* the same items, walked upwards */
        start += step * (n - 1);
        step = -step;
    }
    for (int64_t k = 0; k < n; k++) {
        count_refs(l, l->items + (start + k * step) * size, 0);
    }
    int64_t to = start;
    for (int64_t i = start; i < l->len; i++) {
        int deleted = i < start + n * step && (i - start) % step == 0;
        if (!deleted) {
            memmove(l->items + to * size, l->items + i * size, (size_t)size);
            to++;
        }
    }
    l->len = to;
}
