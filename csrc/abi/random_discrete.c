/* random_discrete.c: np.random's discrete distributions for compiled code, NumPy's legacy
 * RandomState bit for bit over random.c's Mersenne Twister: Poisson by multiplication
 * (lam < 10) or Hoermann's PTRS, binomials by inversion (n * p <= 30) or Kachitvichyanukul
 * and Schmeiser's BTPE (n == 0 and p == 0 draw too, as the legacy binomial does), geometric by
 * search or inversion, negative binomial as Poisson of a gamma, Kemp's logseries, zipf by
 * rejection, hypergeometric by direct sampling (nsample <= 10) or HRUA*. */
#include "abi/random_internal.h"

#include <math.h>
#include <stdlib.h>

static double loggam(double x) { /* NumPy's random_loggam (SPECFUN's log-gamma) */
    static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03,
                                 7.936507936507937e-04, -5.952380952380952e-04,
                                 8.417508417508418e-04, -1.917526917526918e-03,
                                 6.410256410256410e-03, -2.955065359477124e-02,
                                 1.796443723688307e-01, -1.39243221690590e+00};
    if (x == 1.0 || x == 2.0) {
        return 0.0;
    }
    int64_t n = x <= 7.0 ? (int64_t)(7 - x) : 0;
    double x0 = x <= 7.0 ? x + (double)n : x, x2 = 1.0 / (x0 * x0);
    double gl0 = a[9];
    for (int k = 8; k >= 0; k--) {
        gl0 *= x2;
        gl0 += a[k];
    }
    double gl = gl0 / x0 + 0.5 * log(2 * M_PI) + (x0 - 0.5) * log(x0) - x0;
    if (x <= 7.0) {
        for (int64_t k = 1; k <= n; k++) {
            gl -= log(x0 - 1.0);
            x0 -= 1.0;
        }
    }
    return gl;
}

static int64_t poisson_ptrs(mt_state *st, double lam) { /* Hoermann's PTRS, lam >= 10 */
    double slam = sqrt(lam), loglam = log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double u = next_double(st) - 0.5, v = next_double(st), us = 0.5 - fabs(u);
        int64_t k = (int64_t)floor((2 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) {
            return k;
        }
        if (k < 0 || (us < 0.013 && v > us)) {
            continue;
        }
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
            -lam + (double)k * loglam - loggam((double)k + 1)) {
            return k;
        }
    }
}

static int64_t poisson(mt_state *st, double lam) {
    if (lam >= 10) {
        return poisson_ptrs(st, lam);
    }
    if (lam == 0) {
        return 0;
    }
    double enlam = exp(-lam), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= next_double(st);
        if (!(prod > enlam)) { /* NaN ends it too, as NumPy's */
            return x;
        }
        x++;
    }
}

/* Binomial by inversion (n * p <= 30, p <= 0.5): walk the probabilities from 0, starting
 * again past NumPy's bound. */
static int64_t binomial_inversion(mt_state *st, int64_t n, double p) {
    double q = 1.0 - p, qn = exp((double)n * log(q)), np_ = (double)n * p;
    double limit = np_ + 10.0 * sqrt(np_ * q + 1);
    int64_t bound = (int64_t)((double)n < limit ? (double)n : limit);
    int64_t x = 0;
    double px = qn, u = next_double(st);
    while (u > px) {
        x++;
        if (x > bound) {
            x = 0;
            px = qn;
            u = next_double(st);
        } else {
            u -= px;
            px = ((double)(n - x + 1) * p * px) / ((double)x * q);
        }
    }
    return x;
}

typedef struct btpe {
    int64_t n, m;
    double r, q, xm, nrq;
} btpe;

static double stirling_tail(double x, double x2) {
    return (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x / 166320.;
}

/* BTPE's acceptance of y with v: the explicit ratio near the mode, else the squeeze and
 * Stirling's bound. */
static int btpe_accepts(const btpe *b, int64_t y, double v) {
    int64_t k = llabs(y - b->m), m = b->m, n = b->n;
    if (!(k > 20 && (double)k < b->nrq / 2.0 - 1)) {
        double s = b->r / b->q, a = s * (double)(n + 1), f = 1.0;
        for (int64_t i = m + 1; i <= y; i++) {
            f *= (a / (double)i - s);
        }
        for (int64_t i = y + 1; i <= m; i++) {
            f /= (a / (double)i - s);
        }
        return v <= f;
    }
    double kd = (double)k, nrq = b->nrq;
    double rho = (kd / nrq) * ((kd * (kd / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    double t = (double)(-k * k) / (2 * nrq), lv = log(v);
    if (lv < t - rho) {
        return 1;
    }
    if (lv > t + rho) {
        return 0;
    }
    double x1 = (double)(y + 1), f1 = (double)(m + 1), z = (double)(n + 1 - m);
    double w = (double)(n - y + 1);
    double bound = b->xm * log(f1 / x1) + ((double)(n - m) + 0.5) * log(z / w) +
                   (double)(y - m) * log(w * b->r / (x1 * b->q)) + stirling_tail(f1, f1 * f1) +
                   stirling_tail(z, z * z) + stirling_tail(x1, x1 * x1) + stirling_tail(w, w * w);
    return !(lv > bound);
}

/* Kachitvichyanukul and Schmeiser's BTPE (n * p > 30, p <= 0.5), as NumPy draws it. */
static int64_t binomial_btpe(mt_state *st, int64_t n, double p) {
    btpe b = {.n = n, .r = p < 1.0 - p ? p : 1.0 - p};
    b.q = 1.0 - b.r;
    double fm = (double)n * b.r + b.r;
    b.m = (int64_t)floor(fm);
    double p1 = floor(2.195 * sqrt((double)n * b.r * b.q) - 4.6 * b.q) + 0.5;
    b.xm = (double)b.m + 0.5;
    double xl = b.xm - p1, xr = b.xm + p1, c = 0.134 + 20.5 / (15.3 + (double)b.m);
    double a = (fm - xl) / (fm - xl * b.r), laml = a * (1.0 + a / 2.0);
    a = (xr - fm) / (xr * b.q);
    double lamr = a * (1.0 + a / 2.0);
    double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
    b.nrq = (double)n * b.r * b.q;
    for (;;) {
        double u = next_double(st) * p4, v = next_double(st);
        int64_t y;
        if (u <= p1) {
            return (int64_t)floor(b.xm - p1 * v + u);
        }
        if (u <= p2) {
            double x = xl + (u - p1) / c;
            v = v * c + 1.0 - fabs((double)b.m - x + 0.5) / p1;
            if (v > 1.0) {
                continue;
            }
            y = (int64_t)floor(x);
        } else if (u <= p3) {
            y = (int64_t)floor(xl + log(v) / laml);
            if (y < 0 || v == 0.0) {
                continue;
            }
            v = v * (u - p2) * laml;
        } else {
            y = (int64_t)floor(xr - log(v) / lamr);
            if (y > n || v == 0.0) {
                continue;
            }
            v = v * (u - p3) * lamr;
        }
        if (btpe_accepts(&b, y, v)) {
            return y;
        }
    }
}

static int64_t geometric(mt_state *st, double p) { /* search from p >= 1/3, else inversion */
    if (p >= 0.333333333333333333333333) {
        double sum = p, prod = p, q = 1.0 - p, u = next_double(st);
        int64_t x = 1;
        while (u > sum) {
            prod *= q;
            sum += prod;
            x++;
        }
        return x;
    }
    return (int64_t)ceil(log(1.0 - next_double(st)) / log(1.0 - p));
}

/* RandomState's binomial: n == 0 and p == 0 draw too (inversion), unlike Generator's. */
static int64_t binomial(mt_state *st, int64_t n, double p) {
    if (p <= 0.5) {
        return p * (double)n <= 30.0 ? binomial_inversion(st, n, p) : binomial_btpe(st, n, p);
    }
    double q = 1.0 - p;
    return n - (q * (double)n <= 30.0 ? binomial_inversion(st, n, q) : binomial_btpe(st, n, q));
}

static int64_t logseries(mt_state *st, double p) { /* Kemp's, as NumPy's random_logseries */
    double r = log1p(-p);
    for (;;) {
        double v = next_double(st);
        if (v >= p) {
            return 1;
        }
        double q = -expm1(r * next_double(st));
        if (v <= q * q) {
            int64_t result = (int64_t)floor(1 + log(v) / log(q));
            if (result < 1 || v == 0.0) {
                continue;
            }
            return result;
        }
        return v >= q ? 1 : 2;
    }
}

static int64_t zipf(mt_state *st, double a) { /* rejection, truncated to int64 */
    double am1 = a - 1.0, b = pow(2.0, am1);
    for (;;) {
        double u = 1.0 - next_double(st), v = next_double(st);
        double x = floor(pow(u, -1.0 / am1));
        if (x > (double)INT64_MAX || x < 1.0) {
            continue;
        }
        double t = pow(1.0 + 1.0 / x, am1);
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b) {
            return (int64_t)x;
        }
    }
}

/* Hypergeometric by direct sampling (nsample <= 10, NumPy's random_hypergeometric_hyp). */
static int64_t hypergeometric_hyp(mt_state *st, int64_t good, int64_t bad, int64_t sample) {
    int64_t d1 = bad + good - sample, k = sample;
    double d2 = (double)(bad < good ? bad : good), y = d2;
    while (y > 0.0) {
        double u = next_double(st);
        y -= (double)(int64_t)floor(u + y / (double)(d1 + k));
        k--;
        if (k == 0) {
            break;
        }
    }
    int64_t z = (int64_t)(d2 - y);
    return good > bad ? sample - z : z;
}

/* Stadlober's HRUA* (nsample > 10), as NumPy's legacy RandomState draws it. */
static int64_t hypergeometric_hrua(mt_state *st, int64_t good, int64_t bad, int64_t sample) {
    const double d1c = 1.7155277699214135, d2c = 0.8989161620588988; /* 2sqrt(2/e), 3-2sqrt(3/e) */
    int64_t mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
    int64_t popsize = good + bad, m = sample < popsize - sample ? sample : popsize - sample;
    double d4 = (double)mingb / (double)popsize, d5 = 1.0 - d4, d6 = (double)m * d4 + 0.5;
    double d7 = sqrt((double)(popsize - m) * (double)sample * d4 * d5 / (double)(popsize - 1) +
                     0.5);
    double d8 = d1c * d7 + d2c;
    int64_t d9 = (int64_t)floor((double)(m + 1) * (double)(mingb + 1) / (double)(popsize + 2));
    double d10 = loggam((double)(d9 + 1)) + loggam((double)(mingb - d9 + 1)) +
                 loggam((double)(m - d9 + 1)) + loggam((double)(maxgb - m + d9 + 1));
    double lim = (double)(m < mingb ? m : mingb) + 1.0, d11 = floor(d6 + 16 * d7);
    d11 = lim < d11 ? lim : d11;
    int64_t z;
    for (;;) {
        double x = next_double(st), y = next_double(st), w = d6 + d8 * (y - 0.5) / x;
        if (w < 0.0 || w >= d11) {
            continue;
        }
        z = (int64_t)floor(w);
        double t = d10 - (loggam((double)(z + 1)) + loggam((double)(mingb - z + 1)) +
                          loggam((double)(m - z + 1)) + loggam((double)(maxgb - m + z + 1)));
        if (x * (4.0 - x) - 3.0 <= t) {
            break;
        }
        if (x * (x - t) >= 1) {
            continue;
        }
        if (2.0 * log(x) <= t) {
            break;
        }
    }
    z = good > bad ? m - z : z;
    return m < sample ? good - z : z;
}

static int64_t hypergeometric(mt_state *st, int64_t good, int64_t bad, int64_t sample) {
    return sample > 10 ? hypergeometric_hrua(st, good, bad, sample)
           : sample > 0 ? hypergeometric_hyp(st, good, bad, sample)
                        : 0;
}

int64_t cj_random_discrete(mt_state *st, int kind, int64_t a, int64_t b, double p, double q) {
    switch (kind) {
    case CJ_RANDOM_POISSON:
        return poisson(st, p);
    case CJ_RANDOM_GEOMETRIC:
        return geometric(st, p);
    case CJ_RANDOM_NEGATIVE_BINOMIAL: /* n p, probability q */
        return poisson(st, ((1 - q) / q) * cj_random_std_gamma(st, p));
    case CJ_RANDOM_LOGSERIES:
        return logseries(st, p);
    case CJ_RANDOM_ZIPF:
        return zipf(st, p);
    case CJ_RANDOM_HYPERGEOMETRIC: /* ngood a, nbad b, nsample p */
        return hypergeometric(st, a, b, (int64_t)p);
    default: /* CJ_RANDOM_BINOMIAL */
        return binomial(st, a, p);
    }
}
