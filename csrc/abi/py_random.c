/* py_random.c: Python's random module for compiled code, numba's functions over the thread's
 * second MT19937 state (random.c keeps it, apart from np.random's): random.seed(n) seeds it as
 * CPython seeds an int (init_by_array of the 32-bit words of abs(n), low word first, the gauss
 * cache dropped), so that random.random() then gives CPython's stream; getrandbits(k) as
 * CPython's (the first word the low bits, the last word's top bits the high ones); an int
 * below n as CPython's _randbelow_with_getrandbits (k = n.bit_length() bits again until one is
 * below n), which numba's randrange draws too; gauss by the polar method keeping the pair's
 * second value (numba's, not CPython's Box-Muller); shuffle of an array's first axis as
 * numba's (from the last item down, j = randrange(i + 1), rows swapped). random() itself is
 * drawn by compiled code from the state (lower_py_random.c).
 * Compiled code calls these by name (target/cpu.c defines them in the JIT) with the state
 * cj_py_random_state gave; no GIL needed. The arguments are checked by the compiled code
 * first (1 <= k <= 64, n >= 1). */
#include "abi/random_internal.h"

#include <string.h>

void *cj_py_random_state(void) { return cj_mt_thread_state(CJ_MT_PYTHON); }

void cj_py_random_twist(void *st) { cj_mt_gen(st); }

void cj_py_random_seed(void *st, uint64_t magnitude) {
    uint32_t key[2] = {(uint32_t)magnitude, (uint32_t)(magnitude >> 32)};
    cj_mt_init_by_array(st, key, key[1] != 0 ? 2 : 1);
}

static uint64_t getrandbits(mt_state *st, int k) {
    if (k <= 32) {
        return next_uint32(st) >> (32 - k);
    }
    uint64_t low = next_uint32(st);
    return low | (uint64_t)(next_uint32(st) >> (64 - k)) << 32;
}

uint64_t cj_py_random_getrandbits(void *st, int64_t k) { return getrandbits(st, (int)k); }

static int64_t below(mt_state *st, int64_t n) {
    int k = 0;
    for (uint64_t v = (uint64_t)n; v != 0; v >>= 1) {
        k++; /* n.bit_length() */
    }
    uint64_t r;
    while ((r = getrandbits(st, k)) >= (uint64_t)n) {
    }
    return (int64_t)r;
}

int64_t cj_py_random_below(void *st, int64_t n) { return below(st, n); }

double cj_py_random_gauss(void *st) { return cj_random_gauss(st); }

static void swap_bytes(char *a, char *b, int64_t n) {
    char buf[64];
    for (int64_t done = 0; done < n; done += (int64_t)sizeof(buf)) {
        size_t part = n - done < (int64_t)sizeof(buf) ? (size_t)(n - done) : sizeof(buf);
        memcpy(buf, a + done, part);
        memcpy(a + done, b + done, part);
        memcpy(b + done, buf, part);
    }
}

/* Swaps the sub-arrays at a and b (dimensions 1..ndim-1 of shape and strides). */
static void swap_rows(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize,
                      char *a, char *b) {
    int64_t index[CJ_MAXDIM] = {0}, offset = 0;
    for (int d = 1; d < ndim; d++) {
        if (shape[d] == 0) {
            return;
        }
    }
    for (;;) {
        swap_bytes(a + offset, b + offset, itemsize);
        int d = ndim - 1;
        for (; d >= 1; d--) { /* the next index, the last dimension fastest */
            offset += strides[d];
            if (++index[d] < shape[d]) {
                break;
            }
            offset -= strides[d] * shape[d];
            index[d] = 0;
        }
        if (d < 1) {
            return;
        }
    }
}

void cj_py_random_shuffle(void *st, int64_t ndim, const int64_t *shape, const int64_t *strides,
                          int64_t itemsize, char *data) {
    for (int64_t i = shape[0] - 1; i > 0; i--) {
        int64_t j = below(st, i + 1);
        if (j != i) {
            swap_rows((int)ndim, shape, strides, itemsize, data + i * strides[0],
                      data + j * strides[0]);
        }
    }
}
