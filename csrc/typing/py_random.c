/* py_random.c: typing of Python's random module in compiled code (CPU), numba's functions
 * and signatures: seed(a) (an int; None), random() (float64), uniform(a, b), gauss(mu, sigma),
 * normalvariate(mu, sigma) (ints or floats; float64), expovariate(lambd) (a float; float64),
 * getrandbits(k) (an int; uint64), randint(a, b), randrange(start[, stop[, step]]) (ints;
 * int64, and for three arguments numba's int of the widest argument, signed when any is),
 * shuffle(x) (a writable array of rank >= 1; None). Keywords by numba's parameter names; bools
 * are not ints here, as in numba. The call record holds the arguments in order, -1 for those
 * left out. Lowered by lower/lower_py_random.c; CUDA code refuses them, as numba-cuda does. */
#include "typing/infer_internal.h"

#include <string.h>

typedef struct py_random_spec {
    int id;
    const char *params[3];
    const char *kinds; /* per parameter: 'i' an int, 'n' an int or a float, 'f' a float,
                        * 'w' a writable array of rank >= 1 */
    int required;      /* how many parameters have no default */
} py_random_spec;

static const py_random_spec specs[] = {
    {CJ_B_PYR_SEED, {"a"}, "i", 1},
    {CJ_B_PYR_RANDOM, {NULL}, "", 0},
    {CJ_B_PYR_UNIFORM, {"a", "b"}, "nn", 2},
    {CJ_B_PYR_RANDINT, {"a", "b"}, "ii", 2},
    {CJ_B_PYR_RANDRANGE, {"start", "stop", "step"}, "iii", 1},
    {CJ_B_PYR_GAUSS, {"mu", "sigma"}, "nn", 2},
    {CJ_B_PYR_NORMALVARIATE, {"mu", "sigma"}, "nn", 2},
    {CJ_B_PYR_EXPOVARIATE, {"lambd"}, "f", 1},
    {CJ_B_PYR_SHUFFLE, {"x"}, "w", 1},
    {CJ_B_PYR_GETRANDBITS, {"k"}, "i", 1},
};

static int fits(const cj_type *t, char kind) {
    switch (kind) {
    case 'i':
        return t->kind == CJ_INT;
    case 'n':
        return t->kind == CJ_INT || t->kind == CJ_FLOAT;
    case 'f':
        return t->kind == CJ_FLOAT;
    default: /* 'w' */
        return t->kind == CJ_ARRAY && t->ndim >= 1 && !t->readonly;
    }
}

/* numba's TypingError for arguments no signature takes. */
static int no_match(cj_infer_ctx *c, cj_instr *in, const char *fname) {
    PyObject *types = cj_argtypes_text(c, in, 1);
    if (types == NULL) {
        return -1;
    }
    cj_typing_error(c, in, "No implementation of function Function(<built-in method %s of "
                           "Random object>) found for signature:\n \n >>> %s%U", fname, fname,
                    types);
    Py_DECREF(types);
    return -1;
}

/* randrange(start, stop, step)'s type: numba's int of the widest argument, signed when any
 * is; int64 when stop or step is left out (numba passes them as int64 literals). */
static const cj_type *randrange_type(const int *vars, const cj_type *const *types) {
    if (vars[1] < 0 || vars[2] < 0) {
        return cj_t_int64;
    }
    int bits = 0, is_signed = 0;
    for (int i = 0; i < 3; i++) {
        bits = types[i]->bits > bits ? types[i]->bits : bits;
        is_signed |= types[i]->is_signed;
    }
    return cj_type_int(bits, is_signed);
}

static const cj_type *result_of(int id, const int *vars, const cj_type *const *types) {
    switch (id) {
    case CJ_B_PYR_SEED:
    case CJ_B_PYR_SHUFFLE:
        return cj_t_none;
    case CJ_B_PYR_RANDINT:
        return cj_t_int64;
    case CJ_B_PYR_RANDRANGE:
        return randrange_type(vars, types);
    case CJ_B_PYR_GETRANDBITS:
        return cj_t_uint64;
    default:
        return cj_t_float64;
    }
}

int cj_type_py_random(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const char *fname = cj_builtin_table[id].attr;
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "random.%s() is not supported in CUDA code (nor in "
                                           "numba-cuda): use cujit.cuda.random's per-thread "
                                           "generators", fname);
    }
    const py_random_spec *s = NULL;
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        s = specs[i].id == id ? &specs[i] : s;
    }
    int nparams = s != NULL ? (int)strlen(s->kinds) : 0, vars[3] = {-1, -1, -1};
    if (s == NULL) {
        return cj_typing_error(c, in, "random.%s() is not supported", fname);
    }
    if (in->nargs - 1 > nparams || cj_fold_args(c, in, 1, s->params, nparams, vars) < 0) {
        PyErr_Clear();
        return no_match(c, in, fname);
    }
    const cj_type *types[3] = {NULL, NULL, NULL};
    for (int p = 0; p < nparams; p++) {
        types[p] = vars[p] >= 0 ? cj_vt(c, vars[p]) : NULL;
        if ((types[p] == NULL && p < s->required) ||
            (types[p] != NULL && !fits(types[p], s->kinds[p]))) {
            return no_match(c, in, fname);
        }
    }
    if (id == CJ_B_PYR_RANDRANGE && vars[1] < 0 && vars[2] >= 0) {
        return no_match(c, in, fname); /* a step needs a stop */
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_BUILTIN, 3);
    if (call == NULL) {
        return -1;
    }
    call->builtin = id;
    for (int i = 0; i < 3; i++) {
        call->args[i] = i < nparams ? vars[i] : -1;
        call->argtypes[i] = i < nparams ? types[i] : NULL;
    }
    *out = result_of(id, vars, types);
    return *out ? 1 : -1;
}
