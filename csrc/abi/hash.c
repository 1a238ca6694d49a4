/* hash.c: CPython's hash() and == of the keys dicts hold (dict.h's key codes): integers modulo
 * 2**61 - 1 (-1 becomes -2), floats by _Py_HashDouble (integral ones as the int, inf 314159,
 * NaN 0 as numba's), tuples by CPython 3.8+'s xxHash-based combination, strings by
 * abi/unicode.c's (CPython's hash(str) of this process). One switch per rule,
 * so that a new key kind is one case in each. */
#include "abi/dict.h"

#include <math.h>
#include <string.h>

#define MODULUS_BITS 61
#define MODULUS CJ_HASH_MODULUS /* dict.h */
#define HASH_INF 314159

static int64_t fix_minus_one(uint64_t h) {
    return (int64_t)h == -1 ? -2 : (int64_t)h;
}

static int64_t hash_signed(int64_t v) { return cj_hash_signed(v); }

static int64_t hash_unsigned(uint64_t v) { return cj_hash_unsigned(v); }

/* CPython's _Py_HashDouble: the value's exact rational reduced modulo 2**61 - 1. */
static int64_t hash_double(double v) {
    if (!isfinite(v)) {
        return isinf(v) ? (v > 0 ? HASH_INF : -HASH_INF) : 0;
    }
    int e;
    double m = frexp(v, &e);
    int sign = 1;
    if (m < 0) {
        sign = -1;
        m = -m;
    }
    uint64_t x = 0;
    while (m) {
        x = ((x << 28) & MODULUS) | x >> (MODULUS_BITS - 28);
        m *= 268435456.0; /* 2**28 */
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= MODULUS) {
            x -= MODULUS;
        }
    }
    e = e >= 0 ? e % MODULUS_BITS : MODULUS_BITS - 1 - ((-1 - e) % MODULUS_BITS);
    x = ((x << e) & MODULUS) | x >> (MODULUS_BITS - e);
    return fix_minus_one(sign < 0 ? (uint64_t)0 - x : x);
}

/* CPython's complex hash: hash(real) + 1000003 * hash(imag), -1 becoming -2. */
static int64_t hash_complex(double re, double im) {
    uint64_t h = (uint64_t)hash_double(re) + 1000003ULL * (uint64_t)hash_double(im);
    return fix_minus_one(h);
}

#define XXPRIME_1 11400714785074694791ULL
#define XXPRIME_2 14029467366897019727ULL
#define XXPRIME_5 2870177450012600261ULL
#define XXROTATE(x) (((x) << 31) | ((x) >> 33))

static int64_t hash_at(const int32_t *code, const char *key, int32_t *used);

/* CPython 3.8+'s tuplehash over the items' hashes. */
static int64_t hash_tuple(const int32_t *code, const char *key, int32_t *used) {
    int32_t n = code[1], pos = 2;
    uint64_t acc = XXPRIME_5;
    for (int32_t i = 0; i < n; i++) {
        int32_t step;
        uint64_t lane = (uint64_t)hash_at(code + pos, key, &step);
        pos += step;
        acc += lane * XXPRIME_2;
        acc = XXROTATE(acc);
        acc *= XXPRIME_1;
    }
    acc += (uint64_t)n ^ (XXPRIME_5 ^ 3527539ULL);
    *used = pos;
    return (int64_t)acc == -1 ? 1546275796 : (int64_t)acc;
}

#define LOAD(type, p) (memcpy(&tmp_##type, (p), sizeof(type)), tmp_##type)

/* The hash of the key part coded at `code`; *used: the int32 the code took. */
static int64_t hash_at(const int32_t *code, const char *key, int32_t *used) {
    const char *p = key + code[1];
    int8_t tmp_int8_t;
    int16_t tmp_int16_t;
    int32_t tmp_int32_t;
    int64_t tmp_int64_t;
    uint16_t tmp_uint16_t;
    uint32_t tmp_uint32_t;
    uint64_t tmp_uint64_t;
    float tmp_float, fparts[2];
    double tmp_double, dparts[2];
    *used = 2;
    switch (code[0]) {
    case CJ_KEY_C64:
        memcpy(fparts, p, sizeof(fparts));
        return hash_complex(fparts[0], fparts[1]);
    case CJ_KEY_C128:
        memcpy(dparts, p, sizeof(dparts));
        return hash_complex(dparts[0], dparts[1]);
    case CJ_KEY_BOOL: return *p & 1;
    case CJ_KEY_I8: return hash_signed(LOAD(int8_t, p));
    case CJ_KEY_I16: return hash_signed(LOAD(int16_t, p));
    case CJ_KEY_I32: return hash_signed(LOAD(int32_t, p));
    case CJ_KEY_I64: return hash_signed(LOAD(int64_t, p));
    case CJ_KEY_U8: return (uint8_t)*p;
    case CJ_KEY_U16: return hash_unsigned(LOAD(uint16_t, p));
    case CJ_KEY_U32: return hash_unsigned(LOAD(uint32_t, p));
    case CJ_KEY_U64: return hash_unsigned(LOAD(uint64_t, p));
    case CJ_KEY_F32: return hash_double(LOAD(float, p));
    case CJ_KEY_F64: return hash_double(LOAD(double, p));
    case CJ_KEY_STR: {
        cj_meminfo *s;
        memcpy(&s, p, sizeof(s));
        return cj_str_hash(s);
    }
    default: return hash_tuple(code, key, used); /* CJ_KEY_TUPLE */
    }
}

int64_t cj_key_hash(const int32_t *code, const char *key) {
    int32_t used;
    return hash_at(code, key, &used);
}

/* Whether the key parts coded at `code` are equal; *used as hash_at's. */
static int equal_at(const int32_t *code, const char *a, const char *b, int32_t *used) {
    static const int sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8};
    float fa, fb;
    double da, db;
    *used = 2;
    switch (code[0]) {
    case CJ_KEY_BOOL:
        return (a[code[1]] & 1) == (b[code[1]] & 1);
    case CJ_KEY_F32:
        memcpy(&fa, a + code[1], sizeof(fa));
        memcpy(&fb, b + code[1], sizeof(fb));
        return fa == fb;
    case CJ_KEY_F64:
        memcpy(&da, a + code[1], sizeof(da));
        memcpy(&db, b + code[1], sizeof(db));
        return da == db;
    case CJ_KEY_C64: /* both parts, as floats */
    case CJ_KEY_C128: {
        int32_t half = code[0] == CJ_KEY_C64 ? 4 : 8, step;
        int32_t part[2] = {code[0] == CJ_KEY_C64 ? CJ_KEY_F32 : CJ_KEY_F64, code[1]};
        int re = equal_at(part, a, b, &step);
        part[1] += half;
        return re && equal_at(part, a, b, &step);
    }
    case CJ_KEY_STR: {
        cj_meminfo *sa, *sb;
        memcpy(&sa, a + code[1], sizeof(sa));
        memcpy(&sb, b + code[1], sizeof(sb));
        return cj_str_equal(sa, sb) != 0;
    }
    case CJ_KEY_TUPLE: {
        int32_t pos = 2, step, same = 1;
        for (int32_t i = 0; i < code[1]; i++, pos += step) {
            same = equal_at(code + pos, a, b, &step) && same;
        }
        *used = pos;
        return same;
    }
    default: /* the integers: equal bits */
        return memcmp(a + code[1], b + code[1], (size_t)sizes[code[0]]) == 0;
    }
}

int cj_key_equal(const int32_t *code, const char *a, const char *b) {
    int32_t used;
    return equal_at(code, a, b, &used);
}

/* The int32 the part at code[0..n) takes, or -1 when malformed. */
static int32_t check_at(const int32_t *code, int32_t n, int64_t key_size, int depth) {
    static const int sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 0, 8, 16, 8};
    if (n < 2 || depth > 32 || code[0] < 0 || code[0] > CJ_KEY_STR) {
        return -1;
    }
    if (code[0] != CJ_KEY_TUPLE) {
        return code[1] >= 0 && code[1] + sizes[code[0]] <= key_size ? 2 : -1;
    }
    int32_t pos = 2;
    for (int32_t i = 0; i < code[1]; i++) {
        int32_t step = check_at(code + pos, n - pos, key_size, depth + 1);
        if (step < 0) {
            return -1;
        }
        pos += step;
    }
    return code[1] >= 0 ? pos : -1;
}

int cj_key_code_check(const int32_t *code, int32_t n, int64_t key_size) {
    return n <= CJ_KEY_MAX_CODE && check_at(code, n, key_size, 0) == n ? 0 : -1;
}
