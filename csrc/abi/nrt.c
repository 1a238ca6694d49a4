/* nrt.c: memory that compiled code owns (numba's NRT): each allocation is a cj_meminfo header
 * with an atomic reference count, then its data, 64-byte aligned (malloc'd with room to align;
 * calloc'd for np.zeros, so large zeroed arrays cost no writes until used); a small packed
 * one (a string) is carved from a slab (nrt_pool.c), its `raw` the slab tagged with bit 0. Compiled CPU code
 * calls these functions by name (target/cpu.c defines them in the JIT) and counts references
 * itself with atomic adds on the header (lower/lower_refs.c), calling cj_nrt_free when one
 * reaches zero; they need no GIL. The counters let tests prove that every allocation is freed. */
#include "abi/abi.h"

#include <stdatomic.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define ALIGN 64
/* NumPy's threshold: from 4 MiB, ask the kernel for huge pages (one fault per 2 MiB, not per
 * 4 KiB: a fresh 80 MB array costs 40 ms of page faults without them) */
#define HUGEPAGE_FROM (4u << 20)

static void prefer_huge_pages(char *raw, size_t total) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (total >= HUGEPAGE_FROM) {
        uintptr_t page = 4096, start = ((uintptr_t)raw + page - 1) / page * page;
        (void)madvise((void *)start, total - (size_t)(start - (uintptr_t)raw), MADV_HUGEPAGE);
    }
#else
    (void)raw;
    (void)total;
#endif
}

static atomic_ullong allocations, frees;

static cj_meminfo *allocate(int64_t nbytes, int zeroed) {
    /* header + data, rounded; ALIGN more to place the header so that data is aligned */
    if (nbytes < 0 || (uint64_t)nbytes > (uint64_t)PY_SSIZE_T_MAX - 4 * ALIGN) {
        return NULL;
    }
    size_t head = (sizeof(cj_meminfo) + ALIGN - 1) / ALIGN * ALIGN;
    size_t total = head + (size_t)nbytes + ALIGN;
    char *raw = zeroed ? calloc(1, total) : malloc(total);
    if (raw == NULL) {
        return NULL;
    }
    prefer_huge_pages(raw, total);
    char *data = (char *)(((uintptr_t)raw + head + ALIGN - 1) / ALIGN * ALIGN);
    cj_meminfo *mi = (cj_meminfo *)(data - head);
    atomic_init(&mi->refcount, 1);
    mi->data = data;
    mi->size = nbytes;
    mi->raw = raw;
    mi->dtor = NULL;
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return mi;
}

cj_meminfo *cj_nrt_allocate(int64_t nbytes) { return allocate(nbytes, 0); }

cj_meminfo *cj_nrt_allocate_packed(int64_t nbytes) {
    /* the header then the data, 16-byte aligned: a small string costs one small block */
    size_t head = (sizeof(cj_meminfo) + 15) / 16 * 16;
    if (nbytes < 0 || (uint64_t)nbytes > (uint64_t)PY_SSIZE_T_MAX - 4 * ALIGN) {
        return NULL;
    }
    void *slab = NULL;
    char *raw = head + (uint64_t)nbytes <= CJ_POOL_MAX ? cj_pool_alloc(head + (size_t)nbytes, &slab)
                                                       : malloc(head + (size_t)nbytes);
    if (raw == NULL) {
        return NULL;
    }
    cj_meminfo *mi = (cj_meminfo *)raw;
    atomic_init(&mi->refcount, 1);
    mi->data = raw + head;
    mi->size = nbytes;
    mi->raw = slab != NULL ? (char *)slab + 1 : raw; /* tagged: nrt_pool.c's slab */
    mi->dtor = NULL;
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return mi;
}

cj_meminfo *cj_nrt_allocate_zeroed(int64_t nbytes) { return allocate(nbytes, 1); }

void cj_nrt_free(cj_meminfo *mi) {
    atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    if (mi->dtor != NULL) {
        mi->dtor(mi);
    }
    if ((uintptr_t)mi->raw & 1) { /* a small packed allocation: its slab's (nrt_pool.c) */
        cj_pool_free((char *)mi->raw - 1);
        return;
    }
    free(mi->raw);
}

void cj_nrt_incref(cj_meminfo *mi) {
    if (mi != NULL) {
        atomic_fetch_add_explicit(&mi->refcount, 1, memory_order_relaxed);
    }
}

void cj_nrt_decref(cj_meminfo *mi) {
    if (mi != NULL && atomic_fetch_sub_explicit(&mi->refcount, 1, memory_order_acq_rel) == 1) {
        cj_nrt_free(mi);
    }
}

void cj_nrt_stats(unsigned long long *allocated, unsigned long long *freed) {
    *allocated = atomic_load(&allocations);
    *freed = atomic_load(&frees);
}
