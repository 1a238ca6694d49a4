/* nrt.c: memory that compiled code owns (numba's NRT): each allocation is a cj_meminfo header
 * with an atomic reference count, followed by its data (64-byte aligned). Compiled CPU code
 * calls these three functions by name (target/cpu.c defines them in the JIT); they need no
 * GIL. The counters let tests prove that every allocation is freed. */
#include "abi/abi.h"

#include <stdatomic.h>
#include <stdlib.h>

#define DATA_OFFSET 64 /* the header, rounded up to the data's alignment */

_Static_assert(sizeof(cj_meminfo) <= DATA_OFFSET, "cj_meminfo outgrew its slot");

static atomic_ullong allocations, frees;

cj_meminfo *cj_nrt_allocate(int64_t nbytes) {
    if (nbytes < 0 || (uint64_t)nbytes > (uint64_t)PY_SSIZE_T_MAX - 2 * DATA_OFFSET) {
        return NULL;
    }
    size_t total = ((size_t)nbytes + DATA_OFFSET + DATA_OFFSET - 1) / DATA_OFFSET * DATA_OFFSET;
    cj_meminfo *mi = aligned_alloc(DATA_OFFSET, total);
    if (mi == NULL) {
        return NULL;
    }
    atomic_init(&mi->refcount, 1);
    mi->data = (char *)mi + DATA_OFFSET;
    mi->size = nbytes;
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return mi;
}

void cj_nrt_incref(cj_meminfo *mi) {
    if (mi != NULL) {
        atomic_fetch_add_explicit(&mi->refcount, 1, memory_order_relaxed);
    }
}

void cj_nrt_decref(cj_meminfo *mi) {
    if (mi != NULL && atomic_fetch_sub_explicit(&mi->refcount, 1, memory_order_acq_rel) == 1) {
        atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
        free(mi);
    }
}

void cj_nrt_stats(unsigned long long *allocated, unsigned long long *freed) {
    *allocated = atomic_load(&allocations);
    *freed = atomic_load(&frees);
}
