/* layout.c: the C-side layout of a value of each type: what boxing, the kernel launcher and
 * the cache read and write (a record as an array element is its dtype's bytes; as a value it
 * is passed by reference, a pointer), matching LLVM's natural layout of lower_types.c's LLVM
 * types on x86-64 and NVPTX. */
#include "types/types.h"

size_t cj_abi_align(const cj_type *t) {
    switch (t->kind) {
    case CJ_BOOL:
        return 1;
    case CJ_INT:
        return (size_t)t->bits / 8;
    case CJ_FLOAT:
        return (size_t)t->bits / 8;
    case CJ_COMPLEX:
        return (size_t)t->bits / 16;
    case CJ_RECORD:
        return (size_t)t->alignment;
    case CJ_EXT: /* a struct of its members (or a pointer), as LLVM lays it out */
        if (t->n == 0) {
            return 8;
        }
        /* fall through */
    case CJ_OPTIONAL: /* optional.c: as the tuple (value, valid) */
    case CJ_TUPLE: {
        size_t a = 1;
        for (int i = 0; i < t->n; i++) {
            size_t ai = cj_abi_value_align(t->items[i]);
            a = ai > a ? ai : a;
        }
        return a;
    }
    case CJ_ARRAY:
    case CJ_RANGE:
    case CJ_SLICE:
    case CJ_ITER:
    case CJ_LIST:
    case CJ_UNICODE:
    case CJ_DICT:
    case CJ_CPOINTER:
    case CJ_SET:
    case CJ_GENERATOR:
        return 8;
    default:
        return 1;
    }
}

static size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

size_t cj_abi_tuple_offset(const cj_type *t, int i) {
    size_t off = 0;
    for (int k = 0; k <= i; k++) {
        off = round_up(off, cj_abi_value_align(t->items[k]));
        if (k < i) {
            off += cj_abi_value_size(t->items[k]);
        }
    }
    return off;
}

size_t cj_abi_size(const cj_type *t) {
    switch (t->kind) {
    case CJ_BOOL:
        return 1;
    case CJ_INT:
    case CJ_FLOAT:
        return (size_t)t->bits / 8;
    case CJ_COMPLEX:
        return (size_t)t->bits / 8;
    case CJ_EXT:
        if (t->n == 0) {
            return 8;
        }
        /* fall through */
    case CJ_OPTIONAL:
    case CJ_TUPLE:
        if (t->n == 0) {
            return 0;
        }
        return round_up(cj_abi_tuple_offset(t, t->n - 1) +
                            cj_abi_value_size(t->items[t->n - 1]),
                        cj_abi_align(t));
    case CJ_ARRAY: /* abi.h: data, parent, shape, strides, meminfo */
        return 24 + 16 * (size_t)t->ndim;
    case CJ_RANGE:
    case CJ_SLICE:
        return 24;
    case CJ_ITER:
    case CJ_LIST: /* a pointer to its allocation (abi/list.c) */
    case CJ_UNICODE: /* the same (abi/unicode.c) */
    case CJ_DICT: /* (abi/dict.c) */
    case CJ_CPOINTER: /* an address (cpointer.c) */
    case CJ_SET:  /* (abi/set.c) */
    case CJ_GENERATOR: /* its frame's meminfo (abi/generator.h) */
        return 8;
    case CJ_RECORD:
        return (size_t)t->itemsize;
    default:
        return 0;
    }
}

/* Records as values, and extension values at the call boundary (their Python object), are
 * pointers. */
size_t cj_abi_value_size(const cj_type *t) {
    return t->kind == CJ_RECORD || t->kind == CJ_EXT ? sizeof(void *) : cj_abi_size(t);
}

size_t cj_abi_value_align(const cj_type *t) {
    return t->kind == CJ_RECORD || t->kind == CJ_EXT ? sizeof(void *) : cj_abi_align(t);
}

int cj_abi_ref_offsets(const cj_type *t, size_t base, int32_t *out, int *n, int max) {
    if (t->kind == CJ_ARRAY || t->kind == CJ_LIST || t->kind == CJ_UNICODE || t->kind == CJ_DICT ||
        t->kind == CJ_SET) {
        if (*n >= max) {
            return -1;
        }
        /* abi.h: an array's meminfo is its last field; a list, a string is its meminfo */
        out[(*n)++] = (int32_t)(base + (t->kind == CJ_ARRAY ? cj_abi_size(t) - 8 : 0));
        return 0;
    }
    for (int i = 0; (t->kind == CJ_TUPLE || t->kind == CJ_OPTIONAL) && i < t->n; i++) {
        if (cj_abi_ref_offsets(t->items[i], base + cj_abi_tuple_offset(t, i), out, n, max) < 0) {
            return -1;
        }
    }
    return 0;
}
