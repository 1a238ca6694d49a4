/* random.c: np.random for compiled code, NumPy's legacy RandomState bit for bit: the
 * Mersenne Twister MT19937 (seeded by NumPy's mt19937_seed, init_genrand), doubles from two
 * 32-bit draws (53 bits), normals by the legacy polar method keeping its second value,
 * integers by the masked rejection sampling of random_bounded_uint64 (use_masked), shuffles by
 * random_interval, gammas by the legacy Marsaglia-Tsang, and the other continuous
 * distributions by NumPy's legacy formulas over those draws (the discrete ones are
 * random_discrete.c's). After the same seed the
 * streams equal `np.random.seed(s); np.random.<f>(...)`.
 * One state per thread (_Thread_local, as numba's), seeded at its first use from the system's
 * entropy (getrandom, else /dev/urandom, through init_by_array as for a seed array), and
 * again in a forked child; a seed in compiled code touches neither NumPy's global RandomState
 * nor another thread's state. The thread's second state, Python's random module's, lives here
 * too, apart from np.random's as in numba (py_random.c draws from it).
 * Compiled code calls these by name (target/cpu.c defines them in the JIT); no GIL needed. The
 * arguments are checked by the compiled code first (NumPy's ValueErrors, lower_random.c). */
#include "abi/random_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

/* The thread's states: np.random's and Python's random module's (py_random.c), apart as
 * numba keeps them. */
static _Thread_local mt_state thread_states[2];

/* A forked child starts from fresh entropy, not its parent's stream (numba's rule too). */
static void forked_child(void) {
    thread_states[CJ_MT_NUMPY].ready = 0;
    thread_states[CJ_MT_PYTHON].ready = 0;
}

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

void cj_mt_init_by_array(mt_state *st, const uint32_t *init_key, int key_length) {
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
    cj_mt_init_by_array(st, key, MT_N);
}

mt_state *cj_mt_thread_state(int which) {
    mt_state *st = &thread_states[which];
    if (!st->ready) {
        seed_from_entropy(st);
    }
    return st;
}

static mt_state *state(void) { return cj_mt_thread_state(CJ_MT_NUMPY); }

void cj_mt_gen(mt_state *st) {
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

/* The legacy polar (Marsaglia) method's pair: *kept is NumPy's `gauss` for the next call. */
static inline double gauss_pair(mt_state *st, double *kept) {
    double f, x1, x2, r2;
    do {
        x1 = 2.0 * next_double(st) - 1.0;
        x2 = 2.0 * next_double(st) - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    f = sqrt(-2.0 * log(r2) / r2);
    *kept = f * x1;
    return f * x2;
}

double cj_random_gauss(mt_state *st) {
    if (st->has_gauss) {
        st->has_gauss = 0;
        double kept = st->gauss;
        st->gauss = 0.0;
        return kept;
    }
    st->has_gauss = 1;
    return gauss_pair(st, &st->gauss);
}

/* out[i] = a + b * cj_random_gauss() for n values, a pair at a time (the same values). */
static void normal_fill(mt_state *st, double a, double b, int64_t n, double *out) {
    int64_t i = 0;
    if (n > 0 && st->has_gauss) {
        out[i++] = a + b * cj_random_gauss(st);
    }
    for (; i + 1 < n; i += 2) {
        double kept, first = gauss_pair(st, &kept);
        out[i] = a + b * first;
        out[i + 1] = a + b * kept;
    }
    if (i < n) {
        out[i] = a + b * cj_random_gauss(st);
    }
}

void cj_random_seed(uint32_t seed) { init_genrand(&thread_states[CJ_MT_NUMPY], seed); }

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
double cj_random_std_gamma(mt_state *st, double shape) {
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
            x = cj_random_gauss(st);
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
    double ga = cj_random_std_gamma(st, a), gb = cj_random_std_gamma(st, b);
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
        return exp(a + b * cj_random_gauss(st));
    case CJ_RANDOM_GAMMA: /* shape a, scale b */
        return b * cj_random_std_gamma(st, a);
    case CJ_RANDOM_CHISQUARE:
        return 2.0 * cj_random_std_gamma(st, a / 2.0);
    case CJ_RANDOM_BETA:
        return beta(st, a, b);
    case CJ_RANDOM_PARETO:
        return exp(std_exponential(st) / a) - 1;
    case CJ_RANDOM_WEIBULL:
        return a == 0.0 ? 0.0 : pow(std_exponential(st), 1. / a);
    case CJ_RANDOM_POWER:
        return pow(1 - exp(-std_exponential(st)), 1. / a);
    case CJ_RANDOM_CAUCHY: {
        double num = cj_random_gauss(st);
        return num / cj_random_gauss(st);
    }
    case CJ_RANDOM_STANDARD_T: {
        double num = cj_random_gauss(st), denom = cj_random_std_gamma(st, a / 2);
        return sqrt(a / 2) * num / sqrt(denom);
    }
    case CJ_RANDOM_F: { /* dfnum a, dfden b */
        double num = 2.0 * cj_random_std_gamma(st, a / 2.0) * b;
        return num / (2.0 * cj_random_std_gamma(st, b / 2.0) * a);
    }
    case CJ_RANDOM_WALD: { /* mean a, scale b */
        double mu_2l = a / (2 * b), y = cj_random_gauss(st);
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
        normal_fill(st, a, b, n, out);
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
    if (rng == 0) {
        for (int64_t i = 0; i < n; i++) {
            out[i] = (int64_t)off;
        }
    } else if (rng == 0xFFFFFFFFu) {
        for (int64_t i = 0; i < n; i++) {
            out[i] = (int64_t)(off + next_uint32(st));
        }
    } else if (rng < 0xFFFFFFFFu) {
        uint32_t mask32 = (uint32_t)mask, rng32 = (uint32_t)rng, w;
        for (int64_t i = 0; i < n; i++) {
            while ((w = (next_uint32(st) & mask32)) > rng32) {
            }
            out[i] = (int64_t)(off + w);
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            if (rng == UINT64_MAX) {
                v = next_uint64(st);
            } else {
                while ((v = (next_uint64(st) & mask)) > rng) {
                }
            }
            out[i] = (int64_t)(off + v);
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
    for (int64_t i = 0; i < n; i++) { /* random_discrete.c */
        out[i] = cj_random_discrete(st, kind, a, b, p, q);
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
