/* xoroshiro.c: the host side of cujit.cuda.random, numba-cuda's xoroshiro128+ generators.
 * _core.xoroshiro128p_init(states, seed, subsequence_start) fills a writable C-contiguous
 * buffer of n states (two uint64 each: s0, s1, numba-cuda's record layout) as numba-cuda's
 * init_xoroshiro128p_states_cpu does, so that a seed gives numba-cuda's streams bit for bit:
 * state 0 from SplitMix64 of the seed (s0 = s1 = z), jumped 2^64 steps subsequence_start
 * times, then each state the one before jumped 2^64 steps (the jump polynomial's 128 bits,
 * each step a xoroshiro128+ next). The device side (next, uniform, normal) is Python compiled
 * for kernels (pkg/cujit/cuda/random.py). The GIL is released while it runs. */
#include <Python.h>

#include <stdint.h>

typedef struct state {
    uint64_t s0, s1;
} state;

static uint64_t rotl(uint64_t x, unsigned k) { return (x << k) | (x >> (64 - k)); }

static void next(state *s) {
    uint64_t s0 = s->s0, s1 = s->s1 ^ s->s0;
    s->s0 = rotl(s0, 55) ^ s1 ^ (s1 << 14);
    s->s1 = rotl(s1, 36);
}

/* 2^64 steps ahead: the xor of the states at the jump polynomial's set bits */
static void jump(state *s) {
    static const uint64_t polynomial[2] = {0xbeac0467eba5facbULL, 0xd86b048b86aa9922ULL};
    state acc = {0, 0};
    for (int i = 0; i < 2; i++) {
        for (int b = 0; b < 64; b++) {
            if (polynomial[i] & ((uint64_t)1 << b)) {
                acc.s0 ^= s->s0;
                acc.s1 ^= s->s1;
            }
            next(s);
        }
    }
    *s = acc;
}

static state splitmix64(uint64_t seed) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z = z ^ (z >> 31);
    return (state){z, z};
}

static void init_states(state *states, Py_ssize_t n, uint64_t seed, uint64_t skip) {
    if (n < 1) {
        return;
    }
    states[0] = splitmix64(seed);
    for (uint64_t k = 0; k < skip; k++) {
        jump(&states[0]);
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        states[i] = states[i - 1];
        jump(&states[i]);
    }
}

/* An int as uint64 modulo 2^64, as numba's uint64(x) of an int64 is. */
static int as_u64(PyObject *v, const char *what, uint64_t *out) {
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.200s", what, Py_TYPE(v)->tp_name);
        return -1;
    }
    *out = (uint64_t)PyLong_AsUnsignedLongLongMask(v);
    return *out == (uint64_t)-1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *py_xoroshiro128p_init(PyObject *self, PyObject *args) {
    PyObject *buffer, *seed_obj, *skip_obj;
    uint64_t seed, skip;
    if (!PyArg_ParseTuple(args, "OOO:xoroshiro128p_init", &buffer, &seed_obj, &skip_obj) ||
        as_u64(seed_obj, "seed", &seed) < 0 || as_u64(skip_obj, "subsequence_start", &skip) < 0) {
        return NULL;
    }
    int overflow;
    long long signed_skip = PyLong_AsLongLongAndOverflow(skip_obj, &overflow);
    if (overflow < 0 || (overflow == 0 && signed_skip < 0)) {
        /* numba-cuda takes it modulo 2^64: 2^64 - 1 jumps, which never end */
        PyErr_SetString(PyExc_ValueError, "subsequence_start must not be negative");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        return NULL;
    }
    if (view.len % (Py_ssize_t)sizeof(state) != 0) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "xoroshiro128p states are 16 bytes each, not a buffer of "
                                       "%zd bytes", view.len);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    init_states((state *)view.buf, view.len / (Py_ssize_t)sizeof(state), seed, skip);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyMethodDef xoroshiro_functions[] = {
    {"xoroshiro128p_init", py_xoroshiro128p_init, METH_VARARGS,
     "xoroshiro128p_init(states, seed, subsequence_start): numba-cuda's initial states"},
    {NULL},
};

int cj_xoroshiro_init(PyObject *module) {
    return PyModule_AddFunctions(module, xoroshiro_functions);
}
