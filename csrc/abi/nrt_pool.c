/* nrt_pool.c: small NRT allocations (the packed strings of abi/unicode.c, one per word a split
 * makes) carved from 32 KiB slabs, a bump pointer each, instead of one malloc and one free per
 * allocation. Each thread carves from its own current slab (no lock); a slab counts the
 * allocations carved from it and still live, plus one while it is some thread's current, and
 * goes back to malloc when that reaches zero (an allocation may be freed on any thread: the
 * count is atomic). A thread's current slab is let go when the thread ends. The cost: a slab
 * stays while any allocation in it lives (a string kept from a split keeps its 32 KiB). */
#include "abi/abi.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SLAB_BYTES (32 * 1024)
#define SLAB_HEAD 64 /* the slab header, padded so that allocations start 16-byte aligned */

typedef struct slab {
    _Atomic long long live; /* allocations carved and not freed, +1 while current */
    char *bump, *end;
} slab;

static pthread_key_t current_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static _Thread_local slab *current;

static void slab_release(slab *s) {
    if (atomic_fetch_sub_explicit(&s->live, 1, memory_order_acq_rel) == 1) {
        free(s);
    }
}

static void thread_ends(void *s) { slab_release(s); }

static void make_key(void) {
    if (pthread_key_create(&current_key, thread_ends) != 0) {
        abort(); /* only when the process is out of thread keys at start */
    }
}

/* A new current slab for this thread, the old one let go; NULL when out of memory. */
static slab *next_slab(void) {
    slab *s = malloc(SLAB_BYTES);
    if (s == NULL) {
        return NULL;
    }
    atomic_init(&s->live, 1);
    s->bump = (char *)s + SLAB_HEAD;
    s->end = (char *)s + SLAB_BYTES;
    pthread_once(&key_once, make_key);
    if (current != NULL) {
        slab_release(current);
    }
    current = s;
    pthread_setspecific(current_key, s); /* so the thread's end lets it go */
    return s;
}

void *cj_pool_alloc(size_t bytes, void **owner) {
    bytes = (bytes + 15) / 16 * 16;
    if (bytes > CJ_POOL_MAX) {
        return NULL;
    }
    slab *s = current;
    if (s == NULL || (size_t)(s->end - s->bump) < bytes) {
        if ((s = next_slab()) == NULL) {
            return NULL;
        }
    }
    char *p = s->bump;
    s->bump += bytes;
    atomic_fetch_add_explicit(&s->live, 1, memory_order_relaxed);
    *owner = s;
    return p;
}

void cj_pool_free(void *owner) { slab_release(owner); }
