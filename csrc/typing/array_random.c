/* array_random.c: typing of np.random in compiled code (numba's functions and signatures):
 * seed(s); random/random_sample/standard_normal/standard_exponential(size=None); rand(*dims),
 * randn(*dims); uniform(low=0.0, high=1.0, size=None), normal(loc=0.0, scale=1.0, size=None),
 * exponential(scale=1.0, size=None), poisson(lam=1.0, size=None), binomial(n, p, size=None),
 * randint(low, high=None, size=None), choice(a, size=None, replace=True) (with p=, a call of
 * cujit.np.arraymath's NumPy algorithm), shuffle(x),
 * permutation(x); lognormal, standard_gamma, gamma, chisquare, beta, pareto, weibull, power,
 * standard_cauchy, standard_t, laplace, gumbel, logistic, rayleigh, geometric, f, wald,
 * vonmises, negative_binomial, logseries, zipf, triangular and hypergeometric with NumPy's
 * parameters. A size of None (or none given) makes a scalar (float64; int64 for randint and
 * the discrete distributions; a's dtype for choice), an int or a tuple of ints a new
 * C-contiguous array of that rank. The call record holds the parameters in order, -1 where one
 * is left to its default, then the size in the fourth slot (-1 for none); rand/randn's holds
 * its dimensions. Lowered by lower/lower_random.c; CUDA code refuses np.random, as numba-cuda
 * does. */
#include "typing/infer_internal.h"

#include <string.h>

typedef struct random_spec {
    int id;
    const char *params[3]; /* the parameters before size= */
    const char *kinds;     /* per parameter: 'f' a real number, 'i' an integer, 'a' an
                            * integer or a 1-D array, 'w' a writable 1-D array, 'b' a bool
                            * (or an integer) */
    int required;          /* how many parameters have no default */
    int sized;             /* takes size= */
    char result;           /* 'f' float64, 'i' int64, 'n' None, 'c' a's dtype (choice),
                            * 'p' a 1-D array of x's dtype or int64 (permutation) */
} random_spec;

static const random_spec specs[] = {
    {CJ_B_NPR_SEED, {"seed"}, "i", 1, 0, 'n'},
    {CJ_B_NPR_RANDOM, {NULL}, "", 0, 1, 'f'},
    {CJ_B_NPR_RANDOM_SAMPLE, {NULL}, "", 0, 1, 'f'},
    {CJ_B_NPR_STD_NORMAL, {NULL}, "", 0, 1, 'f'},
    {CJ_B_NPR_STD_EXPONENTIAL, {NULL}, "", 0, 1, 'f'},
    {CJ_B_NPR_UNIFORM, {"low", "high"}, "ff", 0, 1, 'f'},
    {CJ_B_NPR_NORMAL, {"loc", "scale"}, "ff", 0, 1, 'f'},
    {CJ_B_NPR_EXPONENTIAL, {"scale"}, "f", 0, 1, 'f'},
    {CJ_B_NPR_RANDINT, {"low", "high"}, "ii", 1, 1, 'i'},
    {CJ_B_NPR_POISSON, {"lam"}, "f", 0, 1, 'i'},
    {CJ_B_NPR_BINOMIAL, {"n", "p"}, "if", 2, 1, 'i'},
    {CJ_B_NPR_LOGNORMAL, {"mean", "sigma"}, "ff", 0, 1, 'f'},
    {CJ_B_NPR_STD_GAMMA, {"shape"}, "f", 1, 1, 'f'},
    {CJ_B_NPR_GAMMA, {"shape", "scale"}, "ff", 1, 1, 'f'},
    {CJ_B_NPR_CHISQUARE, {"df"}, "f", 1, 1, 'f'},
    {CJ_B_NPR_BETA, {"a", "b"}, "ff", 2, 1, 'f'},
    {CJ_B_NPR_PARETO, {"a"}, "f", 1, 1, 'f'},
    {CJ_B_NPR_WEIBULL, {"a"}, "f", 1, 1, 'f'},
    {CJ_B_NPR_POWER, {"a"}, "f", 1, 1, 'f'},
    {CJ_B_NPR_STD_CAUCHY, {NULL}, "", 0, 1, 'f'},
    {CJ_B_NPR_STD_T, {"df"}, "f", 1, 1, 'f'},
    {CJ_B_NPR_LAPLACE, {"loc", "scale"}, "ff", 0, 1, 'f'},
    {CJ_B_NPR_GUMBEL, {"loc", "scale"}, "ff", 0, 1, 'f'},
    {CJ_B_NPR_LOGISTIC, {"loc", "scale"}, "ff", 0, 1, 'f'},
    {CJ_B_NPR_RAYLEIGH, {"scale"}, "f", 0, 1, 'f'},
    {CJ_B_NPR_GEOMETRIC, {"p"}, "f", 1, 1, 'i'},
    {CJ_B_NPR_F, {"dfnum", "dfden"}, "ff", 2, 1, 'f'},
    {CJ_B_NPR_WALD, {"mean", "scale"}, "ff", 2, 1, 'f'},
    {CJ_B_NPR_VONMISES, {"mu", "kappa"}, "ff", 2, 1, 'f'},
    {CJ_B_NPR_NEG_BINOMIAL, {"n", "p"}, "ff", 2, 1, 'i'},
    {CJ_B_NPR_LOGSERIES, {"p"}, "f", 1, 1, 'i'},
    {CJ_B_NPR_ZIPF, {"a"}, "f", 1, 1, 'i'},
    {CJ_B_NPR_TRIANGULAR, {"left", "mode", "right"}, "fff", 3, 1, 'f'},
    {CJ_B_NPR_HYPERGEOMETRIC, {"ngood", "nbad", "nsample"}, "iii", 3, 1, 'i'},
    {CJ_B_NPR_CHOICE, {"a", "replace"}, "ab", 1, 1, 'c'}, /* choice(a, size, replace) */
    {CJ_B_NPR_SHUFFLE, {"x"}, "w", 1, 0, 'n'},
    {CJ_B_NPR_PERMUTATION, {"x"}, "a", 1, 0, 'p'},
};

static int nparams(const random_spec *s) { return (int)strlen(s->kinds); }

#define SIZE 3 /* the call record's slot of size= (after three parameters) */

/* Positional and keyword arguments into vars[0..2] (parameters) and vars[SIZE]. */
static int fold(cj_infer_ctx *c, cj_instr *in, const random_spec *s, int vars[SIZE + 1]) {
    const char *fname = cj_builtin_table[s->id].attr;
    int nkw = in->index, npos = in->nargs - 1 - nkw, np_ = nparams(s);
    vars[0] = vars[1] = vars[2] = vars[SIZE] = -1;
    if (npos > np_ + s->sized) {
        if (s->id == CJ_B_NPR_CHOICE) {
            return cj_unsupported_error(c, in, "np.random.choice() with p");
        }
        return cj_typing_error(c, in, "np.random.%s() takes at most %d arguments", fname,
                               np_ + s->sized);
    }
    for (int i = 0; i < npos; i++) { /* choice's size comes before replace */
        int slot = i < np_ ? i : SIZE;
        slot = s->id == CJ_B_NPR_CHOICE && i > 0 ? (i == 1 ? SIZE : 1) : slot;
        vars[slot] = in->args[1 + i];
    }
    for (int k = 0; k < nkw; k++) {
        const char *kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(in->obj, k));
        if (kw == NULL) {
            return -1;
        }
        int found = s->sized && strcmp(kw, "size") == 0 ? SIZE : -1;
        for (int p = 0; p < np_; p++) {
            found = strcmp(kw, s->params[p]) == 0 ? p : found;
        }
        if (s->id == CJ_B_NPR_CHOICE && strcmp(kw, "p") == 0) {
            return cj_unsupported_error(c, in, "np.random.choice() with p");
        }
        if (found < 0 || vars[found] != -1) {
            return cj_typing_error(c, in, found < 0 ? "np.random.%s() got an unexpected keyword "
                                                      "argument '%s'"
                                                    : "np.random.%s() got multiple values for "
                                                      "argument '%s'", fname, kw);
        }
        vars[found] = in->args[1 + npos + k];
    }
    for (int p = 0; p < s->required; p++) {
        if (vars[p] < 0) {
            return cj_typing_error(c, in, "np.random.%s() missing required argument '%s'",
                                   fname, s->params[p]);
        }
    }
    return 0;
}

static int fits(const cj_type *t, char kind) {
    switch (kind) {
    case 'f':
        return cj_type_is_number(t) && t->kind != CJ_COMPLEX;
    case 'i':
    case 'b':
        return cj_type_is_integer(t);
    case 'a':
        return (cj_type_is_integer(t) && t->kind != CJ_BOOL) ||
               (t->kind == CJ_ARRAY && t->ndim == 1);
    default: /* 'w' */
        return t->kind == CJ_ARRAY && t->ndim == 1 && !t->readonly;
    }
}

static const char *const wanted[] = {"a real number", "an integer", "an integer or a 1-D array",
                                     "a writable 1-D array", "a bool"};

/* The result type: `s`'s scalar or a C array of rank `ndim` (0: the scalar). */
static const cj_type *result_of(const random_spec *s, const cj_type *first, int ndim) {
    const cj_type *elem = s->result == 'i' ? cj_t_int64 : cj_t_float64;
    if (s->result == 'n') {
        return cj_t_none;
    }
    if (s->result == 'c' || s->result == 'p') {
        elem = first->kind == CJ_ARRAY ? first->dtype : cj_t_int64;
        ndim = s->result == 'p' ? 1 : ndim;
    }
    return ndim == 0 ? elem : cj_type_array(elem, ndim, 'C', 0);
}

/* rand(*dims) and randn(*dims): a scalar without dimensions. */
static int type_dims(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const char *fname = cj_builtin_table[id].attr;
    int n = in->nargs - 1;
    if (in->index > 0) {
        return cj_typing_error(c, in, "np.random.%s() takes no keyword arguments", fname);
    }
    if (n > CJ_MAXDIM) {
        return cj_typing_error(c, in, "np.random.%s(): too many dimensions", fname);
    }
    for (int i = 1; i <= n; i++) {
        const cj_type *t = cj_vt(c, in->args[i]);
        if (!cj_type_is_integer(t) || t->kind == CJ_BOOL) {
            return cj_typing_error(c, in, "np.random.%s() takes integer dimensions, not %s",
                                   fname, t->name);
        }
    }
    if (cj_plain_call(c, in, CJ_CALL_BUILTIN, id) == NULL) {
        return -1;
    }
    *out = n == 0 ? cj_t_float64 : cj_type_array(cj_t_float64, n, 'C', 0);
    return *out ? 1 : -1;
}

/* Whether a call of choice(a, size=None, replace=True, p=None) passes p. */
static int choice_with_p(const cj_instr *in) {
    int nkw = in->index, npos = in->nargs - 1 - nkw;
    int with_p = npos > 3;
    for (int k = 0; k < nkw; k++) {
        with_p |= PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(in->obj, k), "p") == 0;
    }
    return with_p;
}

int cj_type_array_random(cj_infer_ctx *c, cj_instr *in, int id, const cj_type **out) {
    const char *fname = cj_builtin_table[id].attr;
    if (c->env->target == CJ_TARGET_CUDA) {
        return cj_unsupported_error(c, in, "np.random.%s() is not supported in CUDA code (nor "
                                           "in numba-cuda): use cujit.cuda.random's "
                                           "per-thread generators", fname);
    }
    if (id == CJ_B_NPR_RAND || id == CJ_B_NPR_RANDN) {
        return type_dims(c, in, id, out);
    }
    if (id == CJ_B_NPR_CHOICE && choice_with_p(in)) {
        /* NumPy's legacy algorithm over the compiled random_sample (cujit.np.arraymath) */
        int rc = cj_type_library_call(c, in, cj_vt(c, in->args[0])->obj, out);
        return rc != 2 ? rc : cj_unsupported_error(c, in, "np.random.choice() with p");
    }
    const random_spec *s = NULL;
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        s = specs[i].id == id ? &specs[i] : s;
    }
    int vars[SIZE + 1];
    if (s == NULL || fold(c, in, s, vars) < 0) {
        return s == NULL ? cj_typing_error(c, in, "np.random.%s() is not supported", fname) : -1;
    }
    for (int p = 0; p < nparams(s); p++) {
        const cj_type *t = vars[p] >= 0 ? cj_vt(c, vars[p]) : NULL;
        int k = (int)(strchr("fiawb", s->kinds[p]) - "fiawb");
        if (t != NULL && !fits(t, s->kinds[p])) {
            return cj_typing_error(c, in, "np.random.%s(): %s must be %s, not %s", fname,
                                   s->params[p], wanted[k], t->name);
        }
    }
    int ndim = 0;
    if (vars[SIZE] >= 0 && cj_vt(c, vars[SIZE])->kind == CJ_NONE) {
        vars[SIZE] = -1; /* size=None: a scalar */
    } else if (vars[SIZE] >= 0 && (ndim = cj_shape_rank(cj_vt(c, vars[SIZE]))) < 0) {
        return cj_typing_error(c, in, "np.random.%s(): size must be None, an int or a tuple "
                                      "of ints, not %s", fname, cj_vt(c, vars[SIZE])->name);
    }
    cj_call *call = cj_call_record(c, in, CJ_CALL_BUILTIN, SIZE + 1);
    if (call == NULL) {
        return -1;
    }
    call->builtin = id;
    for (int i = 0; i <= SIZE; i++) {
        call->args[i] = vars[i];
        call->argtypes[i] = vars[i] >= 0 ? cj_vt(c, vars[i]) : NULL;
    }
    *out = result_of(s, vars[0] >= 0 ? cj_vt(c, vars[0]) : NULL, ndim);
    return *out ? 1 : -1;
}
