/* random.c: np.random for compiled code, NumPy's legacy RandomState bit for bit: the
 * Mersenne Twister MT19937 (seeded by NumPy's mt19937_seed, init_genrand), doubles from two
 * 32-bit draws (53 bits), normals by the legacy polar method keeping its second value,
 * integers by the masked rejection sampling of random_bounded_uint64 (use_masked), Poisson by
 * multiplication (lam < 10) or PTRS, binomials by inversion (n * p <= 30) or BTPE, shuffles by
 * random_interval, gammas by the legacy Marsaglia-Tsang, and the other distributions by
 * NumPy's legacy formulas over those draws. After the same seed the
 * streams equal `np.random.seed(s); np.random.<f>(...)`.
 * One state per thread (_Thread_local, as numba's), seeded at its first use from the system's
 * entropy (getrandom, else /dev/urandom, through init_by_array as for a seed array), and
 * again in a forked child; a seed in compiled code touches neither NumPy's global RandomState
 * nor another thread's state.
 * Compiled code calls these by name (target/cpu.c defines them in the JIT); no GIL needed. The
 * arguments are checked by the compiled code first (NumPy's ValueErrors, lower_random.c). */
#include "abi/abi.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

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

static _Thread_local mt_state thread_state;

/* A forked child starts from fresh entropy, not its parent's stream (numba's rule too). */
static void forked_child(void) { thread_state.ready = 0; }

static void register_fork_handler(void) { (void)pthread_atfork(NULL, NULL, forked_child); }

static pthread_once_t fork_handler_once = PTHREAD_ONCE_INIT;

static void init_genrand(mt_state *st, uint32_t seed) { /* NumPy's mt19937_seed */
    for (int pos = 0; pos < MT_N; pos++) {
        st->key[pos] = seed;
        seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)pos + 1u;
    }
    st->pos = MT_N;
    st->has_gauss = 0;
    st->gauss = 0.0;
    st->ready = 1;
    (void)pthread_once(&fork_handler_once, register_fork_handler);
}

static void init_by_array(mt_state *st, const uint32_t *init_key, int key_length) {
    uint32_t *mt = st->key;
    int i = 1, j = 0;
    init_genrand(st, 19650218u);
    for (int k = MT_N > key_length ? MT_N : key_length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + init_key[j] +
                (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= key_length) {
            j = 0;
        }
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u; /* non-zero initial state */
}

/* The entropy for a thread's first state: getrandom, /dev/urandom, else the clock. */
static void seed_from_entropy(mt_state *st) {
    uint32_t key[MT_N];
    size_t got = 0;
#if defined(__linux__)
    while (got < sizeof(key)) {
        ssize_t n = getrandom((char *)key + got, sizeof(key) - got, 0);
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
#endif
    if (got < sizeof(key)) {
        FILE *f = fopen("/dev/urandom", "rb");
        got = f != NULL ? fread(key, 1, sizeof(key), f) : 0;
        if (f != NULL) {
            fclose(f);
        }
    }
    if (got < sizeof(key)) {
        struct timespec ts;
        timespec_get(&ts, TIME_UTC);
        for (int i = 0; i < MT_N; i++) {
            key[i] = (uint32_t)ts.tv_nsec ^ (uint32_t)ts.tv_sec ^
                     (uint32_t)(uintptr_t)st ^ (uint32_t)i * 2654435761u;
        }
    }
    init_by_array(st, key, MT_N);
}

static mt_state *state(void) {
    mt_state *st = &thread_state;
    if (!st->ready) {
        seed_from_entropy(st);
    }
    return st;
}

static void mt_gen(mt_state *st) {
    uint32_t *key = st->key, y;
    int i;
    for (i = 0; i < MT_N - MT_M; i++) {
        y = (key[i] & UPPER_MASK) | (key[i + 1] & LOWER_MASK);
        key[i] = key[i + MT_M] ^ (y >> 1) ^ (-(y & 1u) & MATRIX_A);
    }
    for (; i < MT_N - 1; i++) {
        y = (key[i] & UPPER_MASK) | (key[i + 1] & LOWER_MASK);
        key[i] = key[i + (MT_M - MT_N)] ^ (y >> 1) ^ (-(y & 1u) & MATRIX_A);
    }
    y = (key[MT_N - 1] & UPPER_MASK) | (key[0] & LOWER_MASK);
    key[MT_N - 1] = key[MT_M - 1] ^ (y >> 1) ^ (-(y & 1u) & MATRIX_A);
    st->pos = 0;
}

static inline uint32_t temper(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

static inline uint32_t next_uint32(mt_state *st) {
    if (st->pos == MT_N) {
        mt_gen(st);
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

static double legacy_gauss(mt_state *st) {
    if (st->has_gauss) {
        st->has_gauss = 0;
        double kept = st->gauss;
        st->gauss = 0.0;
        return kept;
    }
    double f, x1, x2, r2;
    do {
        x1 = 2.0 * next_double(st) - 1.0;
        x2 = 2.0 * next_double(st) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    f = sqrt(-2.0 * log(r2) / r2); /* polar method: keep one value for the next call */
    st->gauss = f * x1;
    st->has_gauss = 1;
    return f * x2;
}

void cj_random_seed(uint32_t seed) { init_genrand(&thread_state, seed); }

/* out[0..n) = a + b * next_double(), the same values, taking each run of whole pairs of words
 * left in the key in one loop (a pair across a regeneration goes by next_double). */
static void uniform_fill(mt_state *st, double a, double b, int64_t n, double *out) {
    int64_t i = 0;
    while (i < n) {
        if (st->pos > MT_N - 2) {
            out[i++] = a + b * next_double(st);
            continue;
        }
        const uint32_t *key = st->key + st->pos;
        int64_t run = (MT_N - st->pos) / 2 < n - i ? (MT_N - st->pos) / 2 : n - i;
        for (int64_t k = 0; k < run; k++) {
            int32_t hi = (int32_t)(temper(key[2 * k]) >> 5);
            int32_t lo = (int32_t)(temper(key[2 * k + 1]) >> 6);
            out[i + k] = a + b * ((hi * 67108864.0 + lo) / 9007199254740992.0);
        }
        st->pos += (int)(2 * run);
        i += run;
    }
}

static double std_exponential(mt_state *st) { return -log(1.0 - next_double(st)); }

/* legacy_standard_gamma: Marsaglia and Tsang above shape 1, Johnk-like rejection below. */
static double std_gamma(mt_state *st, double shape) {
    if (shape == 1.0) {
        return std_exponential(st);
    }
    if (shape == 0.0) {
        return 0.0;
    }
    if (shape < 1.0) {
        for (;;) {
            double u = next_double(st), v = std_exponential(st), x;
            if (u <= 1.0 - shape) {
                if ((x = pow(u, 1. / shape)) <= v) {
                    return x;
                }
            } else {
                double y = -log((1 - u) / shape);
                if ((x = pow(1.0 - shape + shape * y, 1. / shape)) <= v + y) {
                    return x;
                }
            }
        }
    }
    double b = shape - 1. / 3., c = 1. / sqrt(9 * b);
    for (;;) {
        double x, v;
        do {
            x = legacy_gauss(st);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        double u = next_double(st);
        if (u < 1.0 - 0.0331 * (x * x) * (x * x) ||
            log(u) < 0.5 * x * x + b * (1. - v + log(v))) {
            return b * v;
        }
    }
}

static double beta(mt_state *st, double a, double b) { /* legacy_beta */
    if (a <= 1.0 && b <= 1.0) { /* Johnk's algorithm */
        for (;;) {
            double u = next_double(st), v = next_double(st);
            double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b);
            if (x + y <= 1.0) {
                if (x + y > 0) {
                    return x / (x + y);
                }
                double lx = log(u) / a, ly = log(v) / b, lm = lx > ly ? lx : ly;
                lx -= lm;
                ly -= lm;
                return exp(lx - log(exp(lx) + exp(ly)));
            }
        }
    }
    double ga = std_gamma(st, a), gb = std_gamma(st, b);
    return ga / (ga + gb);
}

/* von Mises by Best and Fisher's rejection (NumPy's legacy_vonmises), the result wrapped
 * into [-pi, pi). */
static double vonmises(mt_state *st, double mu, double kappa) {
    if (isnan(kappa)) {
        return NAN;
    }
    if (kappa < 1e-8) {
        return M_PI * (2 * next_double(st) - 1);
    }
    double s, w;
    if (kappa < 1e-5) { /* second order Taylor expansion around kappa = 0 */
        s = 1. / kappa + kappa;
    } else {
        double r = 1 + sqrt(1 + 4 * kappa * kappa), rho = (r - sqrt(2 * r)) / (2 * kappa);
        s = (1 + rho * rho) / (2 * rho);
    }
    for (;;) {
        double z = cos(M_PI * next_double(st));
        w = (1 + s * z) / (s + z);
        double y = kappa * (s - w), v = next_double(st);
        if (y * (2 - y) - v >= 0 || log(y / v) + 1 - y >= 0) {
            break;
        }
    }
    double u = next_double(st), result = acos(w);
    if (u < 0.5) {
        result = -result;
    }
    result += mu;
    int neg = result < 0;
    double mod = fmod(fabs(result) + M_PI, 2 * M_PI) - M_PI;
    return neg ? -mod : mod;
}

/* The distributions drawn one value at a time (NumPy's legacy and shared functions). */
static double one_value(mt_state *st, int kind, double a, double b) {
    double u;
    switch (kind) {
    case CJ_RANDOM_LOGNORMAL:
        return exp(a + b * legacy_gauss(st));
    case CJ_RANDOM_GAMMA: /* shape a, scale b */
        return b * std_gamma(st, a);
    case CJ_RANDOM_CHISQUARE:
        return 2.0 * std_gamma(st, a / 2.0);
    case CJ_RANDOM_BETA:
        return beta(st, a, b);
    case CJ_RANDOM_PARETO:
        return exp(std_exponential(st) / a) - 1;
    case CJ_RANDOM_WEIBULL:
        return a == 0.0 ? 0.0 : pow(std_exponential(st), 1. / a);
    case CJ_RANDOM_POWER:
        return pow(1 - exp(-std_exponential(st)), 1. / a);
    case CJ_RANDOM_CAUCHY: {
        double num = legacy_gauss(st);
        return num / legacy_gauss(st);
    }
    case CJ_RANDOM_STANDARD_T: {
        double num = legacy_gauss(st), denom = std_gamma(st, a / 2);
        return sqrt(a / 2) * num / sqrt(denom);
    }
    case CJ_RANDOM_F: { /* dfnum a, dfden b */
        double num = 2.0 * std_gamma(st, a / 2.0) * b;
        return num / (2.0 * std_gamma(st, b / 2.0) * a);
    }
    case CJ_RANDOM_WALD: { /* mean a, scale b */
        double mu_2l = a / (2 * b), y = legacy_gauss(st);
        y = a * y * y;
        double x = a + mu_2l * (y - sqrt(4 * b * y + y * y));
        return next_double(st) <= a / (a + x) ? x : a * a / x;
    }
    case CJ_RANDOM_VONMISES: /* mu a, kappa b */
        return vonmises(st, a, b);
    case CJ_RANDOM_LAPLACE: /* loc a, scale b; U == 0 drawn again */
        while ((u = next_double(st)) == 0.0) {
        }
        return u >= 0.5 ? a - b * log(2.0 - u - u) : a + b * log(u + u);
    case CJ_RANDOM_GUMBEL:
        while ((u = 1.0 - next_double(st)) >= 1.0) {
        }
        return a - b * log(-log(u));
    case CJ_RANDOM_LOGISTIC:
        while ((u = next_double(st)) <= 0.0) {
        }
        return a + b * log(u / (1.0 - u));
    default: /* CJ_RANDOM_RAYLEIGH, scale a: log1p, as NumPy 2 draws it */
        return a * sqrt(-2.0 * log1p(-next_double(st)));
    }
}

/* random_triangular: inversion on either side of the mode. */
static double triangular(mt_state *st, double left, double mode, double right) {
    double base = right - left, leftbase = mode - left, ratio = leftbase / base;
    double leftprod = leftbase * base, rightprod = (right - mode) * base;
    double u = next_double(st);
    return u <= ratio ? left + sqrt(u * leftprod) : right - sqrt((1.0 - u) * rightprod);
}

void cj_random_doubles(int kind, double a, double b, double c, int64_t n, double *out) {
    mt_state *st = state();
    switch (kind) {
    case CJ_RANDOM_UNIFORM:
        uniform_fill(st, a, b, n, out);
        break;
    case CJ_RANDOM_NORMAL:
        for (int64_t i = 0; i < n; i++) {
            out[i] = a + b * legacy_gauss(st);
        }
        break;
    case CJ_RANDOM_EXPONENTIAL:
        for (int64_t i = 0; i < n; i++) {
            out[i] = a * std_exponential(st);
        }
        break;
    case CJ_RANDOM_TRIANGULAR:
        for (int64_t i = 0; i < n; i++) {
            out[i] = triangular(st, a, b, c);
        }
        break;
    default:
        for (int64_t i = 0; i < n; i++) {
            out[i] = one_value(st, kind, a, b);
        }
        break;
    }
}

/* ---- integers ---- */

static uint64_t mask_of(uint64_t rng) { /* the smallest 2**k - 1 >= rng */
    uint64_t mask = rng;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    return mask;
}

/* random_bounded_uint64_fill with use_masked: off + a value in [0, rng]. */
static void bounded_fill(mt_state *st, uint64_t off, uint64_t rng, int64_t n, int64_t *out) {
    uint64_t mask = mask_of(rng), v;
    for (int64_t i = 0; i < n; i++) {
        if (rng == 0) {
            v = 0;
        } else if (rng == 0xFFFFFFFFu) {
            v = next_uint32(st);
        } else if (rng < 0xFFFFFFFFu) {
            while ((v = (next_uint32(st) & mask)) > rng) {
            }
        } else if (rng == UINT64_MAX) {
            v = next_uint64(st);
        } else {
            while ((v = (next_uint64(st) & mask)) > rng) {
            }
        }
        out[i] = (int64_t)(off + v);
    }
}

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

void cj_random_ints(int kind, int64_t a, int64_t b, double p, double q, int64_t n,
                    int64_t *out) {
    mt_state *st = state();
    if (kind == CJ_RANDOM_INT) { /* [a, b), b > a checked by the caller */
        bounded_fill(st, (uint64_t)a, (uint64_t)b - (uint64_t)a - 1u, n, out);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        switch (kind) {
        case CJ_RANDOM_POISSON:
            out[i] = poisson(st, p);
            break;
        case CJ_RANDOM_GEOMETRIC:
            out[i] = geometric(st, p);
            break;
        case CJ_RANDOM_NEGATIVE_BINOMIAL: /* n p, probability q */
            out[i] = poisson(st, ((1 - q) / q) * std_gamma(st, p));
            break;
        case CJ_RANDOM_LOGSERIES:
            out[i] = logseries(st, p);
            break;
        case CJ_RANDOM_ZIPF:
            out[i] = zipf(st, p);
            break;
        default: /* CJ_RANDOM_BINOMIAL */
            out[i] = binomial(st, a, p);
            break;
        }
    }
}

/* random_interval: a value in [0, max] by masked rejection. */
static uint64_t interval(mt_state *st, uint64_t max) {
    if (max == 0) {
        return 0;
    }
    uint64_t mask = mask_of(max), v;
    if (max <= 0xFFFFFFFFu) {
        while ((v = (next_uint32(st) & mask)) > max) {
        }
    } else {
        while ((v = (next_uint64(st) & mask)) > max) {
        }
    }
    return v;
}

static void shuffle(mt_state *st, int64_t n, int64_t stride, int64_t itemsize, char *data) {
    char buf[16]; /* the largest item, complex128 */
    if (itemsize > (int64_t)sizeof(buf)) {
        return;
    }
    for (int64_t i = n - 1; i >= 1; i--) {
        int64_t j = (int64_t)interval(st, (uint64_t)i);
        memcpy(buf, data + j * stride, (size_t)itemsize);
        memcpy(data + j * stride, data + i * stride, (size_t)itemsize);
        memcpy(data + i * stride, buf, (size_t)itemsize);
    }
}

void cj_random_shuffle(int64_t n, int64_t stride, int64_t itemsize, char *data) {
    shuffle(state(), n, stride, itemsize, data);
}

int cj_random_choice_unique(int64_t pop, int64_t count, const char *a, int64_t stride,
                            int64_t itemsize, char *out) {
    int64_t *perm = malloc((size_t)(pop > 0 ? pop : 1) * sizeof(int64_t));
    if (perm == NULL) {
        return -1;
    }
    for (int64_t i = 0; i < pop; i++) {
        perm[i] = i;
    }
    shuffle(state(), pop, sizeof(int64_t), sizeof(int64_t), (char *)perm); /* permutation(pop) */
    for (int64_t k = 0; k < count; k++) {
        if (a == NULL) {
            memcpy(out + k * (int64_t)sizeof(int64_t), &perm[k], sizeof(int64_t));
        } else {
            memcpy(out + k * itemsize, a + perm[k] * stride, (size_t)itemsize);
        }
    }
    free(perm);
    return 0;
}
