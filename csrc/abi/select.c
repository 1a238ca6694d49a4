/* select.c: run-time helpers compiled code calls by name for order statistics: the median
 * of a scratch buffer of float64 (np.median: NaN when any element is NaN or there is none;
 * the mean of the two middle elements for an even count), by quickselect in place. */
#include "abi/abi.h"

#include <math.h>

static void swap(double *a, double *b) {
    double t = *a;
    *a = *b;
    *b = t;
}

/* Puts the k-th smallest of data[0..n) at data[k], smaller ones before it, larger after. */
static void select_kth(double *data, int64_t n, int64_t k) {
    int64_t lo = 0, hi = n - 1;
    while (hi > lo) {
        int64_t mid = lo + (hi - lo) / 2; /* median of three as the pivot, put at hi */
        if (data[mid] < data[lo]) {
            swap(&data[mid], &data[lo]);
        }
        if (data[hi] < data[lo]) {
            swap(&data[hi], &data[lo]);
        }
        if (data[mid] < data[hi]) {
            swap(&data[mid], &data[hi]);
        }
        double pivot = data[hi];
        int64_t store = lo;
        for (int64_t i = lo; i < hi; i++) {
            if (data[i] < pivot) {
                swap(&data[i], &data[store++]);
            }
        }
        swap(&data[store], &data[hi]);
        if (store == k) {
            return;
        }
        if (store < k) {
            lo = store + 1;
        } else {
            hi = store - 1;
        }
    }
}

double cj_median_f64(double *data, int64_t n) {
    if (n <= 0) {
        return NAN;
    }
    for (int64_t i = 0; i < n; i++) {
        if (isnan(data[i])) {
            return data[i];
        }
    }
    int64_t k = n / 2;
    select_kth(data, n, k);
    if (n % 2 == 1) {
        return data[k];
    }
    double below = data[0]; /* the largest of data[0..k) */
    for (int64_t i = 1; i < k; i++) {
        below = data[i] > below ? data[i] : below;
    }
    return (below + data[k]) / 2.0; /* NumPy takes the mean of the two */
}
