/* select.c: run-time helpers compiled code calls by name for order statistics: the median
 * of a scratch buffer of float64 (np.median: NaN when any element is NaN or there is none;
 * the mean of the two middle elements for an even count), by quickselect in place (three-way
 * partitions: arrays of many equal elements stay linear). */
#include "abi/abi.h"

#include <math.h>

static void swap(double *a, double *b) {
    double t = *a;
    *a = *b;
    *b = t;
}

static double median_of_three(double a, double b, double c) {
    double lo = a < b ? a : b, hi = a < b ? b : a;
    return c < lo ? lo : c > hi ? hi : c;
}

/* Puts the k-th smallest of data[0..n) (no NaN) at data[k], none larger before it and none
 * smaller after: quickselect with a three-way partition, so equal elements cost no more. */
static void select_kth(double *data, int64_t n, int64_t k) {
    int64_t lo = 0, hi = n; /* the k-th lies in [lo, hi) */
    while (hi - lo > 1) {
        double pivot = median_of_three(data[lo], data[lo + (hi - lo) / 2], data[hi - 1]);
        int64_t lt = lo, i = lo, gt = hi; /* [lo, lt) < pivot, [lt, i) ==, [gt, hi) > */
        while (i < gt) {
            if (data[i] < pivot) {
                swap(&data[lt++], &data[i++]);
            } else if (data[i] > pivot) {
                swap(&data[i], &data[--gt]);
            } else {
                i++;
            }
        }
        if (k < lt) {
            hi = lt;
        } else if (k >= gt) {
            lo = gt;
        } else {
            return;
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
