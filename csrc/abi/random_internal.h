/* random_internal.h: what abi/random.c (the per-thread Mersenne Twister states, their seeding,
 * the continuous distributions, integers in a range, shuffles), abi/random_discrete.c (the
 * discrete distributions) and abi/py_random.c (Python's random module) share: the state, its
 * draws as NumPy's legacy bit generator makes them, the polar gauss and the standard gamma.
 * Compiled code reads and steps the state itself (lower_py_random.c): `key` at its start and
 * `pos` right after it are part of the ABI (checked below). */
#ifndef CJ_RANDOM_INTERNAL_H
#define CJ_RANDOM_INTERNAL_H

#include "abi/abi.h"

#include <stddef.h>

#define MT_N 624
#define MT_M 397
#define MATRIX_A 0x9908b0dfu
#define UPPER_MASK 0x80000000u
#define LOWER_MASK 0x7fffffffu

typedef struct mt_state {
    uint32_t key[MT_N];
    int pos;
    int ready;     /* seeded (by entropy at first use, or by cj_random_seed) */
    int has_gauss; /* the legacy polar method's second value is waiting in `gauss` */
    double gauss;
} mt_state;

_Static_assert(offsetof(mt_state, key) == 0 && offsetof(mt_state, pos) == MT_N * 4 &&
                   sizeof(int) == 4,
               "compiled code finds the key at the start of the state and pos after it");

/* The thread's state `which` (np.random's or the random module's), seeded from the system's
 * entropy at its first use in the thread (and again in a forked child). */
enum { CJ_MT_NUMPY, CJ_MT_PYTHON };
mt_state *cj_mt_thread_state(int which);
/* MT19937's init_by_array (CPython's seeding of an int, NumPy's of an array); drops the
 * gauss cache. */
void cj_mt_init_by_array(mt_state *st, const uint32_t *init_key, int key_length);

/* The next 624 words of the key (MT19937's twist); pos back to 0. */
void cj_mt_gen(mt_state *st);

static inline uint32_t temper(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

static inline uint32_t next_uint32(mt_state *st) {
    if (st->pos == MT_N) {
        cj_mt_gen(st);
    }
    return temper(st->key[st->pos++]);
}

static inline uint64_t next_uint64(mt_state *st) { /* the high half is drawn first */
    uint64_t hi = next_uint32(st);
    return hi << 32 | next_uint32(st);
}

static inline double next_double(mt_state *st) {
    int32_t a = (int32_t)(next_uint32(st) >> 5), b = (int32_t)(next_uint32(st) >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

/* A standard normal by the legacy polar method, the pair's second value kept in the state
 * for the next call (NumPy's legacy_gauss; numba's random.gauss too). */
double cj_random_gauss(mt_state *st);
/* legacy_standard_gamma (random.c). */
double cj_random_std_gamma(mt_state *st, double shape);
/* One value of discrete distribution `kind` (POISSON ... HYPERGEOMETRIC, cj_random_ints'
 * parameters; random_discrete.c). */
int64_t cj_random_discrete(mt_state *st, int kind, int64_t a, int64_t b, double p, double q);

#endif
