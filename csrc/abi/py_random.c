/* py_random.c: what compiled code's random module (lower/lower_py_random.c, numba's functions)
 * needs of the run time: the thread's second MT19937 state (random.c keeps it, apart from
 * np.random's), its twist, random.seed(n) as CPython seeds an int (init_by_array of the 32-bit
 * words of abs(n), low word first, the gauss cache dropped: random() then gives CPython's
 * stream), gauss by the polar method keeping the pair's second value (numba's, not CPython's
 * Box-Muller), and the swap of two rows that shuffle(x) of an array of rank >= 2 does. The
 * words, random() and the integers are drawn by compiled code itself from the state
 * (random_internal.h fixes where it finds the key and the position).
 * Compiled code calls these by name (target/cpu.c defines them in the JIT) with the state
 * cj_py_random_state gave; no GIL needed. */
#include "abi/random_internal.h"

#include <string.h>

void *cj_py_random_state(void) { return cj_mt_thread_state(CJ_MT_PYTHON); }

void cj_py_random_twist(void *st) { cj_mt_gen(st); }

void cj_py_random_seed(void *st, uint64_t magnitude) {
    uint32_t key[2] = {(uint32_t)magnitude, (uint32_t)(magnitude >> 32)};
    cj_mt_init_by_array(st, key, key[1] != 0 ? 2 : 1);
}

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

void cj_py_random_swap(int64_t ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize, char *a, char *b) {
    int64_t index[CJ_MAXDIM] = {0}, offset = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 0) {
            return;
        }
    }
    if (a == b) {
        return; /* a row with itself */
    }
    for (;;) {
        swap_bytes(a + offset, b + offset, itemsize);
        int d = (int)ndim - 1;
        for (; d >= 0; d--) { /* the next index, the last dimension fastest */
            offset += strides[d];
            if (++index[d] < shape[d]) {
                break;
            }
            offset -= strides[d] * shape[d];
            index[d] = 0;
        }
        if (d < 0) {
            return;
        }
    }
}
