/* arena.c: bump allocation in chunks; everything is released by one cj_arena_free. */
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CJ_ARENA_CHUNK 65536

struct cj_arena_chunk {
    cj_arena_chunk *next;
    size_t used;
    size_t size;
    _Alignas(max_align_t) unsigned char data[];
};

void cj_arena_init(cj_arena *arena) { arena->head = NULL; }

static size_t round_up(size_t n) {
    size_t a = _Alignof(max_align_t);
    return (n + a - 1) & ~(a - 1);
}

void *cj_arena_alloc(cj_arena *arena, size_t size) {
    size = round_up(size ? size : 1);
    cj_arena_chunk *c = arena->head;
    if (c == NULL || c->size - c->used < size) {
        size_t cap = size > CJ_ARENA_CHUNK ? size : CJ_ARENA_CHUNK;
        c = PyMem_RawMalloc(sizeof(cj_arena_chunk) + cap);
        if (c == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        c->used = 0;
        c->size = cap;
        c->next = arena->head;
        arena->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *cj_arena_strdup(cj_arena *arena, const char *s) {
    size_t n = strlen(s) + 1;
    char *p = cj_arena_alloc(arena, n);
    if (p != NULL) {
        memcpy(p, s, n);
    }
    return p;
}

char *cj_arena_printf(cj_arena *arena, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        PyErr_SetString(PyExc_SystemError, "cujit: bad format");
        return NULL;
    }
    char *p = cj_arena_alloc(arena, (size_t)n + 1);
    if (p == NULL) {
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void cj_arena_free(cj_arena *arena) {
    cj_arena_chunk *c = arena->head;
    while (c != NULL) {
        cj_arena_chunk *next = c->next;
        PyMem_RawFree(c);
        c = next;
    }
    arena->head = NULL;
}

void *cj_vec_push(cj_arena *arena, cj_vec *vec, size_t item_size) {
    if (vec->len == vec->cap) {
        int cap = vec->cap ? vec->cap * 2 : 8;
        void *items = cj_arena_alloc(arena, (size_t)cap * item_size);
        if (items == NULL) {
            return NULL;
        }
        if (vec->len) {
            memcpy(items, vec->items, (size_t)vec->len * item_size);
        }
        vec->items = items;
        vec->cap = cap;
    }
    void *slot = (char *)vec->items + (size_t)vec->len * item_size;
    vec->len++;
    memset(slot, 0, item_size);
    return slot;
}
