/* sort.c: sorting for compiled code (np.sort, a.sort(), np.argsort, a.argsort()), called by
 * name (target/cpu.c defines them in the JIT) on one contiguous row at a time. NumPy's order:
 * ascending, NaN after every number. cj_sort is an introsort (quicksort on a median of
 * three, heapsort past 2 log2 n levels, insertion sort below 16 elements); cj_argsort sorts
 * indices by the same order with a merge sort (stable, for every kind: a valid quicksort
 * order too) and a scratch buffer. One copy of each per element type, by macro. */
#include "abi/abi.h"

#include <stdlib.h>
#include <string.h>

#define SMALL 16

/* a < b with NaN last (for integers x != x is never true) */
#define LESS(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
#define SWAP(T, x, y)                                                                          \
    do {                                                                                       \
        T swap_ = (x);                                                                         \
        (x) = (y);                                                                             \
        (y) = swap_;                                                                           \
    } while (0)

static int depth_limit(int64_t n) {
    int d = 0;
    for (; n > 1; n >>= 1) {
        d += 2;
    }
    return d;
}

/* The sorts of values v[0..n) and of indices ix[0..n) by v[ix[.]], for one element type T. */
#define DEFINE_SORTS(NAME, T)                                                                  \
    static void NAME##_heap_down(T *v, int64_t root, int64_t n) {                              \
        for (int64_t child; (child = 2 * root + 1) < n; root = child) {                        \
            if (child + 1 < n && LESS(v[child], v[child + 1])) {                               \
                child++;                                                                       \
            }                                                                                  \
            if (!LESS(v[root], v[child])) {                                                    \
                return;                                                                        \
            }                                                                                  \
            SWAP(T, v[root], v[child]);                                                        \
        }                                                                                      \
    }                                                                                          \
    static void NAME##_intro(T *v, int64_t n, int depth) {                                     \
        while (n > SMALL) {                                                                    \
            if (depth-- == 0) { /* heapsort */                                                 \
                for (int64_t i = n / 2; i-- > 0;) {                                            \
                    NAME##_heap_down(v, i, n);                                                 \
                }                                                                              \
                for (int64_t end = n - 1; end > 0; end--) {                                    \
                    SWAP(T, v[0], v[end]);                                                     \
                    NAME##_heap_down(v, 0, end);                                               \
                }                                                                              \
                return;                                                                        \
            }                                                                                  \
            int64_t mid = n / 2, last = n - 1;                                                 \
            if (LESS(v[mid], v[0])) SWAP(T, v[mid], v[0]);                                     \
            if (LESS(v[last], v[mid])) SWAP(T, v[last], v[mid]);                               \
            if (LESS(v[mid], v[0])) SWAP(T, v[mid], v[0]);                                     \
            T pivot = v[mid];                                                                  \
            int64_t i = 0, j = last;                                                           \
            for (;;) {                                                                         \
                while (LESS(v[i], pivot)) i++;                                                 \
                while (LESS(pivot, v[j])) j--;                                                 \
                if (i >= j) break;                                                             \
                SWAP(T, v[i], v[j]);                                                           \
                i++;                                                                           \
                j--;                                                                           \
            }                                                                                  \
            NAME##_intro(v + j + 1, n - j - 1, depth); /* the right part, then loop left */    \
            n = j + 1;                                                                         \
        }                                                                                      \
        for (int64_t i = 1; i < n; i++) {                                                      \
            T x = v[i];                                                                        \
            int64_t k = i;                                                                     \
            for (; k > 0 && LESS(x, v[k - 1]); k--) {                                          \
                v[k] = v[k - 1];                                                               \
            }                                                                                  \
            v[k] = x;                                                                          \
        }                                                                                      \
    }                                                                                          \
    static void NAME##_merge(const T *v, int64_t *ix, int64_t *tmp, int64_t n) {               \
        if (n <= SMALL) { /* insertion sort: stable */                                         \
            for (int64_t i = 1; i < n; i++) {                                                  \
                int64_t x = ix[i], k = i;                                                      \
                for (; k > 0 && LESS(v[x], v[ix[k - 1]]); k--) {                               \
                    ix[k] = ix[k - 1];                                                         \
                }                                                                              \
                ix[k] = x;                                                                     \
            }                                                                                  \
            return;                                                                            \
        }                                                                                      \
        int64_t h = n / 2;                                                                     \
        NAME##_merge(v, ix, tmp, h);                                                           \
        NAME##_merge(v, ix + h, tmp, n - h);                                                   \
        memcpy(tmp, ix, (size_t)h * sizeof(int64_t));                                          \
        int64_t a = 0, b = h, o = 0;                                                           \
        while (a < h && b < n) { /* the left one on ties: stable */                            \
            ix[o++] = LESS(v[ix[b]], v[tmp[a]]) ? ix[b++] : tmp[a++];                          \
        }                                                                                      \
        while (a < h) {                                                                        \
            ix[o++] = tmp[a++];                                                                \
        }                                                                                      \
    }

DEFINE_SORTS(b, int8_t)
DEFINE_SORTS(ub, uint8_t)
DEFINE_SORTS(h, int16_t)
DEFINE_SORTS(uh, uint16_t)
DEFINE_SORTS(i, int32_t)
DEFINE_SORTS(ui, uint32_t)
DEFINE_SORTS(l, int64_t)
DEFINE_SORTS(ul, uint64_t)
DEFINE_SORTS(f, float)
DEFINE_SORTS(d, double)

/* kind: abi.h's CJ_SORT_* */
#define EACH_KIND(CASE)                                                                        \
    CASE(CJ_SORT_INT8, b, int8_t)                                                              \
    CASE(CJ_SORT_UINT8, ub, uint8_t)                                                           \
    CASE(CJ_SORT_INT16, h, int16_t)                                                            \
    CASE(CJ_SORT_UINT16, uh, uint16_t)                                                         \
    CASE(CJ_SORT_INT32, i, int32_t)                                                            \
    CASE(CJ_SORT_UINT32, ui, uint32_t)                                                         \
    CASE(CJ_SORT_INT64, l, int64_t)                                                            \
    CASE(CJ_SORT_UINT64, ul, uint64_t)                                                         \
    CASE(CJ_SORT_FLOAT32, f, float)                                                            \
    CASE(CJ_SORT_FLOAT64, d, double)

void cj_sort(int kind, char *data, int64_t n) {
    switch (kind) {
#define SORT_CASE(K, NAME, T)                                                                  \
    case K:                                                                                    \
        NAME##_intro((T *)data, n, depth_limit(n));                                            \
        break;
        EACH_KIND(SORT_CASE)
#undef SORT_CASE
    default:
        break;
    }
}

int cj_argsort(int kind, const char *data, int64_t n, int64_t *out) {
    for (int64_t i = 0; i < n; i++) {
        out[i] = i;
    }
    int64_t *tmp = malloc((size_t)(n / 2 + 1) * sizeof(int64_t));
    if (tmp == NULL) {
        return -1;
    }
    switch (kind) {
#define ARGSORT_CASE(K, NAME, T)                                                               \
    case K:                                                                                    \
        NAME##_merge((const T *)data, out, tmp, n);                                            \
        break;
        EACH_KIND(ARGSORT_CASE)
#undef ARGSORT_CASE
    default:
        break;
    }
    free(tmp);
    return 0;
}
