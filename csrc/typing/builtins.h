/* builtins.h: the callables cujit compiles, found by identity of the Python object
 * (module attribute) and shared by typing (builtins.c) and lowering (lower_call.c).
 * CJ_BUILTIN(ID, module, attribute, rule, C math name) */
#ifndef CJ_BUILTINS_H
#define CJ_BUILTINS_H

#include <Python.h>

typedef enum cj_builtin_rule {
    CJ_R_SPECIAL,   /* typed and lowered by id */
    CJ_R_F1,        /* float f(float): ints give float64, float32 stays float32 */
    CJ_R_F2,        /* float f(float, float): numba's float rule */
    CJ_R_TO_INT,    /* math.floor/ceil/trunc: float -> int64 (ints pass through) */
    CJ_R_PRED,      /* bool f(number) */
    CJ_R_C1,        /* complex f(complex): cmath */
    CJ_R_BINOP,     /* operator.X: typed as the binary operator (C name = cj_binop) */
    CJ_R_CMPOP,     /* operator.lt...: the comparison */
    CJ_R_UNOP,      /* operator.neg...: the unary operator */
    CJ_R_MINMAX2,   /* np.maximum/np.minimum/np.fmax/np.fmin: promote */
} cj_builtin_rule;

#define CJ_BUILTINS(X)                                                              \
    X(NPR_SEED, "numpy.random", "seed", CJ_R_SPECIAL, "")                           \
    X(NPR_RANDOM, "numpy.random", "random", CJ_R_SPECIAL, "")                       \
    X(NPR_RANDOM_SAMPLE, "numpy.random", "random_sample", CJ_R_SPECIAL, "")         \
    X(NPR_RAND, "numpy.random", "rand", CJ_R_SPECIAL, "")                           \
    X(NPR_RANDN, "numpy.random", "randn", CJ_R_SPECIAL, "")                         \
    X(NPR_STD_NORMAL, "numpy.random", "standard_normal", CJ_R_SPECIAL, "")          \
    X(NPR_STD_EXPONENTIAL, "numpy.random", "standard_exponential", CJ_R_SPECIAL, "") \
    X(NPR_UNIFORM, "numpy.random", "uniform", CJ_R_SPECIAL, "")                     \
    X(NPR_NORMAL, "numpy.random", "normal", CJ_R_SPECIAL, "")                       \
    X(NPR_EXPONENTIAL, "numpy.random", "exponential", CJ_R_SPECIAL, "")             \
    X(NPR_RANDINT, "numpy.random", "randint", CJ_R_SPECIAL, "")                     \
    X(NPR_POISSON, "numpy.random", "poisson", CJ_R_SPECIAL, "")                     \
    X(NPR_BINOMIAL, "numpy.random", "binomial", CJ_R_SPECIAL, "")                   \
    X(NPR_LOGNORMAL, "numpy.random", "lognormal", CJ_R_SPECIAL, "")                 \
    X(NPR_STD_GAMMA, "numpy.random", "standard_gamma", CJ_R_SPECIAL, "")            \
    X(NPR_GAMMA, "numpy.random", "gamma", CJ_R_SPECIAL, "")                         \
    X(NPR_CHISQUARE, "numpy.random", "chisquare", CJ_R_SPECIAL, "")                 \
    X(NPR_BETA, "numpy.random", "beta", CJ_R_SPECIAL, "")                           \
    X(NPR_PARETO, "numpy.random", "pareto", CJ_R_SPECIAL, "")                       \
    X(NPR_WEIBULL, "numpy.random", "weibull", CJ_R_SPECIAL, "")                     \
    X(NPR_POWER, "numpy.random", "power", CJ_R_SPECIAL, "")                         \
    X(NPR_STD_CAUCHY, "numpy.random", "standard_cauchy", CJ_R_SPECIAL, "")          \
    X(NPR_STD_T, "numpy.random", "standard_t", CJ_R_SPECIAL, "")                    \
    X(NPR_LAPLACE, "numpy.random", "laplace", CJ_R_SPECIAL, "")                     \
    X(NPR_GUMBEL, "numpy.random", "gumbel", CJ_R_SPECIAL, "")                       \
    X(NPR_LOGISTIC, "numpy.random", "logistic", CJ_R_SPECIAL, "")                   \
    X(NPR_RAYLEIGH, "numpy.random", "rayleigh", CJ_R_SPECIAL, "")                   \
    X(NPR_GEOMETRIC, "numpy.random", "geometric", CJ_R_SPECIAL, "")                 \
    X(NPR_F, "numpy.random", "f", CJ_R_SPECIAL, "")                                 \
    X(NPR_WALD, "numpy.random", "wald", CJ_R_SPECIAL, "")                           \
    X(NPR_VONMISES, "numpy.random", "vonmises", CJ_R_SPECIAL, "")                   \
    X(NPR_NEG_BINOMIAL, "numpy.random", "negative_binomial", CJ_R_SPECIAL, "")      \
    X(NPR_LOGSERIES, "numpy.random", "logseries", CJ_R_SPECIAL, "")                 \
    X(NPR_ZIPF, "numpy.random", "zipf", CJ_R_SPECIAL, "")                           \
    X(NPR_TRIANGULAR, "numpy.random", "triangular", CJ_R_SPECIAL, "")               \
    X(NPR_HYPERGEOMETRIC, "numpy.random", "hypergeometric", CJ_R_SPECIAL, "")       \
    X(NPR_CHOICE, "numpy.random", "choice", CJ_R_SPECIAL, "")                       \
    X(NPR_SHUFFLE, "numpy.random", "shuffle", CJ_R_SPECIAL, "")                     \
    X(NPR_PERMUTATION, "numpy.random", "permutation", CJ_R_SPECIAL, "")             \
    X(PYR_SEED, "random", "seed", CJ_R_SPECIAL, "")                                 \
    X(PYR_RANDOM, "random", "random", CJ_R_SPECIAL, "")                             \
    X(PYR_UNIFORM, "random", "uniform", CJ_R_SPECIAL, "")                           \
    X(PYR_RANDINT, "random", "randint", CJ_R_SPECIAL, "")                           \
    X(PYR_RANDRANGE, "random", "randrange", CJ_R_SPECIAL, "")                       \
    X(PYR_GAUSS, "random", "gauss", CJ_R_SPECIAL, "")                               \
    X(PYR_NORMALVARIATE, "random", "normalvariate", CJ_R_SPECIAL, "")               \
    X(PYR_EXPOVARIATE, "random", "expovariate", CJ_R_SPECIAL, "")                   \
    X(PYR_SHUFFLE, "random", "shuffle", CJ_R_SPECIAL, "")                           \
    X(PYR_GETRANDBITS, "random", "getrandbits", CJ_R_SPECIAL, "")                   \
    X(ABS, "builtins", "abs", CJ_R_SPECIAL, "")                                     \
    X(MIN, "builtins", "min", CJ_R_SPECIAL, "")                                     \
    X(MAX, "builtins", "max", CJ_R_SPECIAL, "")                                     \
    X(ROUND, "builtins", "round", CJ_R_SPECIAL, "")                                 \
    X(LEN, "builtins", "len", CJ_R_SPECIAL, "")                                     \
    X(ISINSTANCE, "builtins", "isinstance", CJ_R_SPECIAL, "")                       \
    X(RANGE, "builtins", "range", CJ_R_SPECIAL, "")                                 \
    X(SLICE, "builtins", "slice", CJ_R_SPECIAL, "")                                 \
    X(GETATTR, "builtins", "getattr", CJ_R_SPECIAL, "")                             \
    X(HASATTR, "builtins", "hasattr", CJ_R_SPECIAL, "")                             \
    X(TYPE, "builtins", "type", CJ_R_SPECIAL, "")                                   \
    X(ENUMERATE, "builtins", "enumerate", CJ_R_SPECIAL, "")                         \
    X(ZIP, "builtins", "zip", CJ_R_SPECIAL, "")                                     \
    X(POW, "builtins", "pow", CJ_R_SPECIAL, "")                                     \
    X(INT, "builtins", "int", CJ_R_SPECIAL, "")                                     \
    X(FLOAT, "builtins", "float", CJ_R_SPECIAL, "")                                 \
    X(BOOL, "builtins", "bool", CJ_R_SPECIAL, "")                                   \
    X(COMPLEX, "builtins", "complex", CJ_R_SPECIAL, "")                             \
    X(DIVMOD, "builtins", "divmod", CJ_R_SPECIAL, "")                               \
    X(PRINT, "builtins", "print", CJ_R_SPECIAL, "")                                 \
    X(LIST, "builtins", "list", CJ_R_SPECIAL, "")                                   \
    X(DICT, "builtins", "dict", CJ_R_SPECIAL, "")                                   \
    X(SET, "builtins", "set", CJ_R_SPECIAL, "")                                     \
    X(HASH, "builtins", "hash", CJ_R_SPECIAL, "")                                   \
    X(SORTED, "builtins", "sorted", CJ_R_SPECIAL, "")                               \
    X(SUM, "builtins", "sum", CJ_R_SPECIAL, "")                                     \
    X(NEXT, "builtins", "next", CJ_R_SPECIAL, "")                                   \
    X(M_SQRT, "math", "sqrt", CJ_R_F1, "sqrt")                                      \
    X(M_EXP, "math", "exp", CJ_R_F1, "exp")                                         \
    X(M_EXPM1, "math", "expm1", CJ_R_F1, "expm1")                                   \
    X(M_LOG, "math", "log", CJ_R_SPECIAL, "log")                                    \
    X(M_LOG2, "math", "log2", CJ_R_F1, "log2")                                      \
    X(M_LOG10, "math", "log10", CJ_R_F1, "log10")                                   \
    X(M_LOG1P, "math", "log1p", CJ_R_F1, "log1p")                                   \
    X(M_SIN, "math", "sin", CJ_R_F1, "sin")                                         \
    X(M_COS, "math", "cos", CJ_R_F1, "cos")                                         \
    X(M_TAN, "math", "tan", CJ_R_F1, "tan")                                         \
    X(M_ASIN, "math", "asin", CJ_R_F1, "asin")                                      \
    X(M_ACOS, "math", "acos", CJ_R_F1, "acos")                                      \
    X(M_ATAN, "math", "atan", CJ_R_F1, "atan")                                      \
    X(M_SINH, "math", "sinh", CJ_R_F1, "sinh")                                      \
    X(M_COSH, "math", "cosh", CJ_R_F1, "cosh")                                      \
    X(M_TANH, "math", "tanh", CJ_R_F1, "tanh")                                      \
    X(M_ASINH, "math", "asinh", CJ_R_F1, "asinh")                                   \
    X(M_ACOSH, "math", "acosh", CJ_R_F1, "acosh")                                   \
    X(M_ATANH, "math", "atanh", CJ_R_F1, "atanh")                                   \
    X(M_ERF, "math", "erf", CJ_R_F1, "erf")                                         \
    X(M_ERFC, "math", "erfc", CJ_R_F1, "erfc")                                      \
    X(M_GAMMA, "math", "gamma", CJ_R_F1, "tgamma")                                  \
    X(M_LGAMMA, "math", "lgamma", CJ_R_F1, "lgamma")                                \
    X(M_FABS, "math", "fabs", CJ_R_F1, "fabs")                                      \
    X(M_CBRT, "math", "cbrt", CJ_R_F1, "cbrt")                                      \
    X(M_EXP2, "math", "exp2", CJ_R_F1, "exp2")                                      \
    X(M_DEGREES, "math", "degrees", CJ_R_F1, "")                                    \
    X(M_RADIANS, "math", "radians", CJ_R_F1, "")                                    \
    X(M_ATAN2, "math", "atan2", CJ_R_F2, "atan2")                                   \
    X(M_HYPOT, "math", "hypot", CJ_R_F2, "hypot")                                   \
    X(M_COPYSIGN, "math", "copysign", CJ_R_F2, "copysign")                          \
    X(M_FMOD, "math", "fmod", CJ_R_F2, "fmod")                                      \
    X(M_POW, "math", "pow", CJ_R_F2, "pow")                                         \
    X(M_NEXTAFTER, "math", "nextafter", CJ_R_F2, "nextafter")                       \
    X(M_FLOOR, "math", "floor", CJ_R_TO_INT, "floor")                               \
    X(M_CEIL, "math", "ceil", CJ_R_TO_INT, "ceil")                                  \
    X(M_TRUNC, "math", "trunc", CJ_R_TO_INT, "trunc")                               \
    X(M_ISNAN, "math", "isnan", CJ_R_PRED, "")                                      \
    X(M_ISINF, "math", "isinf", CJ_R_PRED, "")                                      \
    X(M_ISFINITE, "math", "isfinite", CJ_R_PRED, "")                                \
    X(M_GCD, "math", "gcd", CJ_R_SPECIAL, "")                                       \
    X(M_LDEXP, "math", "ldexp", CJ_R_SPECIAL, "ldexp")                              \
    X(M_MODF, "math", "modf", CJ_R_SPECIAL, "")                                      \
    X(M_FREXP, "math", "frexp", CJ_R_SPECIAL, "")                                    \
    X(C_SQRT, "cmath", "sqrt", CJ_R_C1, "")                                         \
    X(C_EXP, "cmath", "exp", CJ_R_C1, "")                                           \
    X(C_LOG, "cmath", "log", CJ_R_C1, "")                                           \
    X(C_LOG10, "cmath", "log10", CJ_R_C1, "")                                       \
    X(C_SIN, "cmath", "sin", CJ_R_C1, "")                                           \
    X(C_COS, "cmath", "cos", CJ_R_C1, "")                                           \
    X(C_TAN, "cmath", "tan", CJ_R_C1, "")                                           \
    X(C_SINH, "cmath", "sinh", CJ_R_C1, "")                                         \
    X(C_COSH, "cmath", "cosh", CJ_R_C1, "")                                         \
    X(C_TANH, "cmath", "tanh", CJ_R_C1, "")                                         \
    X(C_ASIN, "cmath", "asin", CJ_R_C1, "")                                         \
    X(C_ACOS, "cmath", "acos", CJ_R_C1, "")                                         \
    X(C_ATAN, "cmath", "atan", CJ_R_C1, "")                                         \
    X(C_ASINH, "cmath", "asinh", CJ_R_C1, "")                                       \
    X(C_ACOSH, "cmath", "acosh", CJ_R_C1, "")                                       \
    X(C_ATANH, "cmath", "atanh", CJ_R_C1, "")                                       \
    X(C_PHASE, "cmath", "phase", CJ_R_SPECIAL, "")                                  \
    X(C_POLAR, "cmath", "polar", CJ_R_SPECIAL, "")                                  \
    X(C_RECT, "cmath", "rect", CJ_R_SPECIAL, "")                                    \
    X(C_ISNAN, "cmath", "isnan", CJ_R_PRED, "")                                     \
    X(C_ISINF, "cmath", "isinf", CJ_R_PRED, "")                                     \
    X(C_ISFINITE, "cmath", "isfinite", CJ_R_PRED, "")                               \
    X(OP_ADD, "operator", "add", CJ_R_BINOP, "")                                    \
    X(OP_SUB, "operator", "sub", CJ_R_BINOP, "")                                    \
    X(OP_MUL, "operator", "mul", CJ_R_BINOP, "")                                    \
    X(OP_TRUEDIV, "operator", "truediv", CJ_R_BINOP, "")                            \
    X(OP_FLOORDIV, "operator", "floordiv", CJ_R_BINOP, "")                          \
    X(OP_MOD, "operator", "mod", CJ_R_BINOP, "")                                    \
    X(OP_POW, "operator", "pow", CJ_R_BINOP, "")                                    \
    X(OP_LSHIFT, "operator", "lshift", CJ_R_BINOP, "")                              \
    X(OP_RSHIFT, "operator", "rshift", CJ_R_BINOP, "")                              \
    X(OP_AND, "operator", "and_", CJ_R_BINOP, "")                                   \
    X(OP_OR, "operator", "or_", CJ_R_BINOP, "")                                     \
    X(OP_XOR, "operator", "xor", CJ_R_BINOP, "")                                    \
    X(OP_LT, "operator", "lt", CJ_R_CMPOP, "")                                      \
    X(OP_LE, "operator", "le", CJ_R_CMPOP, "")                                      \
    X(OP_EQ, "operator", "eq", CJ_R_CMPOP, "")                                      \
    X(OP_NE, "operator", "ne", CJ_R_CMPOP, "")                                      \
    X(OP_GT, "operator", "gt", CJ_R_CMPOP, "")                                      \
    X(OP_GE, "operator", "ge", CJ_R_CMPOP, "")                                      \
    X(OP_NEG, "operator", "neg", CJ_R_UNOP, "")                                     \
    X(OP_POS, "operator", "pos", CJ_R_UNOP, "")                                     \
    X(OP_INVERT, "operator", "invert", CJ_R_UNOP, "")                               \
    X(OP_NOT, "operator", "not_", CJ_R_UNOP, "")                                    \
    X(OP_IADD, "operator", "iadd", CJ_R_BINOP, "")                                  \
    X(OP_ISUB, "operator", "isub", CJ_R_BINOP, "")                                  \
    X(OP_IMUL, "operator", "imul", CJ_R_BINOP, "")                                  \
    X(OP_ITRUEDIV, "operator", "itruediv", CJ_R_BINOP, "")                          \
    X(OP_IFLOORDIV, "operator", "ifloordiv", CJ_R_BINOP, "")                        \
    X(OP_IMOD, "operator", "imod", CJ_R_BINOP, "")                                  \
    X(OP_IPOW, "operator", "ipow", CJ_R_BINOP, "")                                  \
    X(OP_ILSHIFT, "operator", "ilshift", CJ_R_BINOP, "")                            \
    X(OP_IRSHIFT, "operator", "irshift", CJ_R_BINOP, "")                            \
    X(OP_IAND, "operator", "iand", CJ_R_BINOP, "")                                  \
    X(OP_IOR, "operator", "ior", CJ_R_BINOP, "")                                    \
    X(OP_IXOR, "operator", "ixor", CJ_R_BINOP, "")                                  \
    X(OP_ABS, "operator", "abs", CJ_R_SPECIAL, "")                                  \
    X(OP_GETITEM, "operator", "getitem", CJ_R_SPECIAL, "")                          \
    X(OP_TRUTH, "operator", "truth", CJ_R_SPECIAL, "")                              \
    X(NP_SIN, "numpy", "sin", CJ_R_F1, "sin")                                       \
    X(NP_COS, "numpy", "cos", CJ_R_F1, "cos")                                       \
    X(NP_TAN, "numpy", "tan", CJ_R_F1, "tan")                                       \
    X(NP_ARCSIN, "numpy", "arcsin", CJ_R_F1, "asin")                                \
    X(NP_ARCCOS, "numpy", "arccos", CJ_R_F1, "acos")                                \
    X(NP_ARCTAN, "numpy", "arctan", CJ_R_F1, "atan")                                \
    X(NP_SINH, "numpy", "sinh", CJ_R_F1, "sinh")                                    \
    X(NP_COSH, "numpy", "cosh", CJ_R_F1, "cosh")                                    \
    X(NP_TANH, "numpy", "tanh", CJ_R_F1, "tanh")                                    \
    X(NP_ARCSINH, "numpy", "arcsinh", CJ_R_F1, "asinh")                             \
    X(NP_ARCCOSH, "numpy", "arccosh", CJ_R_F1, "acosh")                             \
    X(NP_ARCTANH, "numpy", "arctanh", CJ_R_F1, "atanh")                             \
    X(NP_EXP, "numpy", "exp", CJ_R_F1, "exp")                                       \
    X(NP_EXP2, "numpy", "exp2", CJ_R_F1, "exp2")                                    \
    X(NP_EXPM1, "numpy", "expm1", CJ_R_F1, "expm1")                                 \
    X(NP_LOG, "numpy", "log", CJ_R_F1, "log")                                       \
    X(NP_LOG2, "numpy", "log2", CJ_R_F1, "log2")                                    \
    X(NP_LOG10, "numpy", "log10", CJ_R_F1, "log10")                                 \
    X(NP_LOG1P, "numpy", "log1p", CJ_R_F1, "log1p")                                 \
    X(NP_SQRT, "numpy", "sqrt", CJ_R_F1, "sqrt")                                    \
    X(NP_CBRT, "numpy", "cbrt", CJ_R_F1, "cbrt")                                    \
    X(NP_FABS, "numpy", "fabs", CJ_R_F1, "fabs")                                    \
    X(NP_FLOOR, "numpy", "floor", CJ_R_F1, "floor")                                 \
    X(NP_CEIL, "numpy", "ceil", CJ_R_F1, "ceil")                                    \
    X(NP_TRUNC, "numpy", "trunc", CJ_R_F1, "trunc")                                 \
    X(NP_RINT, "numpy", "rint", CJ_R_F1, "rint")                                    \
    X(NP_DEG2RAD, "numpy", "deg2rad", CJ_R_F1, "")                                  \
    X(NP_RAD2DEG, "numpy", "rad2deg", CJ_R_F1, "")                                  \
    X(NP_ARCTAN2, "numpy", "arctan2", CJ_R_F2, "atan2")                             \
    X(NP_HYPOT, "numpy", "hypot", CJ_R_F2, "hypot")                                 \
    X(NP_COPYSIGN, "numpy", "copysign", CJ_R_F2, "copysign")                        \
    X(NP_POWER, "numpy", "power", CJ_R_SPECIAL, "")                                 \
    X(NP_ABSOLUTE, "numpy", "absolute", CJ_R_SPECIAL, "")                           \
    X(NP_SIGN, "numpy", "sign", CJ_R_SPECIAL, "")                                   \
    X(NP_SQUARE, "numpy", "square", CJ_R_SPECIAL, "")                               \
    X(NP_MAXIMUM, "numpy", "maximum", CJ_R_MINMAX2, "")                             \
    X(NP_MINIMUM, "numpy", "minimum", CJ_R_MINMAX2, "")                             \
    X(NP_FMAX, "numpy", "fmax", CJ_R_MINMAX2, "")                                   \
    X(NP_FMIN, "numpy", "fmin", CJ_R_MINMAX2, "")                                   \
    X(NP_ISNAN, "numpy", "isnan", CJ_R_PRED, "")                                    \
    X(NP_ISINF, "numpy", "isinf", CJ_R_PRED, "")                                    \
    X(NP_ISFINITE, "numpy", "isfinite", CJ_R_PRED, "")                              \
    X(NP_EMPTY, "numpy", "empty", CJ_R_SPECIAL, "")                                 \
    X(NP_ZEROS, "numpy", "zeros", CJ_R_SPECIAL, "")                                 \
    X(NP_ONES, "numpy", "ones", CJ_R_SPECIAL, "")                                   \
    X(NP_FULL, "numpy", "full", CJ_R_SPECIAL, "")                                   \
    X(NP_EMPTY_LIKE, "numpy", "empty_like", CJ_R_SPECIAL, "")                       \
    X(NP_ZEROS_LIKE, "numpy", "zeros_like", CJ_R_SPECIAL, "")                       \
    X(NP_ONES_LIKE, "numpy", "ones_like", CJ_R_SPECIAL, "")                         \
    X(NP_FULL_LIKE, "numpy", "full_like", CJ_R_SPECIAL, "")                         \
    X(NP_ARANGE, "numpy", "arange", CJ_R_SPECIAL, "")                               \
    X(NP_LINSPACE, "numpy", "linspace", CJ_R_SPECIAL, "")                           \
    X(NP_EYE, "numpy", "eye", CJ_R_SPECIAL, "")                                     \
    X(NP_IDENTITY, "numpy", "identity", CJ_R_SPECIAL, "")                           \
    X(NP_ARRAY, "numpy", "array", CJ_R_SPECIAL, "")                                 \
    X(NP_ASARRAY, "numpy", "asarray", CJ_R_SPECIAL, "")                             \
    X(METH_FLATTEN, "", "flatten", CJ_R_SPECIAL, "")                                \
    X(NP_CONJ, "numpy", "conjugate", CJ_R_SPECIAL, "")                              \
    X(NP_RESHAPE, "numpy", "reshape", CJ_R_SPECIAL, "")                             \
    X(NP_RAVEL, "numpy", "ravel", CJ_R_SPECIAL, "")                                 \
    X(METH_VIEW, "", "view", CJ_R_SPECIAL, "")                                      \
    X(METH_ITEM, "", "item", CJ_R_SPECIAL, "")                                      \
    X(NP_SUM, "numpy", "sum", CJ_R_SPECIAL, "")                                     \
    X(NP_PROD, "numpy", "prod", CJ_R_SPECIAL, "")                                   \
    X(NP_MIN, "numpy", "min", CJ_R_SPECIAL, "")                                     \
    X(NP_AMIN, "numpy", "amin", CJ_R_SPECIAL, "")                                   \
    X(NP_MAX, "numpy", "max", CJ_R_SPECIAL, "")                                     \
    X(NP_AMAX, "numpy", "amax", CJ_R_SPECIAL, "")                                   \
    X(NP_MEAN, "numpy", "mean", CJ_R_SPECIAL, "")                                   \
    X(NP_ANY, "numpy", "any", CJ_R_SPECIAL, "")                                     \
    X(NP_ALL, "numpy", "all", CJ_R_SPECIAL, "")                                     \
    X(NP_VAR, "numpy", "var", CJ_R_SPECIAL, "")                                     \
    X(NP_STD, "numpy", "std", CJ_R_SPECIAL, "")                                     \
    X(NP_ARGMIN, "numpy", "argmin", CJ_R_SPECIAL, "")                               \
    X(NP_ARGMAX, "numpy", "argmax", CJ_R_SPECIAL, "")                               \
    X(NP_CUMSUM, "numpy", "cumsum", CJ_R_SPECIAL, "")                               \
    X(NP_CUMPROD, "numpy", "cumprod", CJ_R_SPECIAL, "")                             \
    X(NP_NANSUM, "numpy", "nansum", CJ_R_SPECIAL, "")                               \
    X(NP_NANPROD, "numpy", "nanprod", CJ_R_SPECIAL, "")                             \
    X(NP_NANMEAN, "numpy", "nanmean", CJ_R_SPECIAL, "")                             \
    X(NP_NANMIN, "numpy", "nanmin", CJ_R_SPECIAL, "")                               \
    X(NP_NANMAX, "numpy", "nanmax", CJ_R_SPECIAL, "")                               \
    X(NP_MEDIAN, "numpy", "median", CJ_R_SPECIAL, "")                               \
    X(NP_COUNT_NONZERO, "numpy", "count_nonzero", CJ_R_SPECIAL, "")                 \
    X(NP_COPY, "numpy", "copy", CJ_R_SPECIAL, "")                                   \
    X(METH_ASTYPE, "", "astype", CJ_R_SPECIAL, "")                                  \
    X(METH_FILL, "", "fill", CJ_R_SPECIAL, "")                                      \
    X(NP_TRANSPOSE, "numpy", "transpose", CJ_R_SPECIAL, "")                         \
    X(METH_CONJUGATE, "", "conjugate", CJ_R_SPECIAL, "")                            \
    X(METH_TUPLE_INDEX, "", "index", CJ_R_SPECIAL, "")                              \
    X(NP_ADD, "numpy", "add", CJ_R_SPECIAL, "")                                     \
    X(NP_SUBTRACT, "numpy", "subtract", CJ_R_SPECIAL, "")                           \
    X(NP_MULTIPLY, "numpy", "multiply", CJ_R_SPECIAL, "")                           \
    X(NP_DIVIDE, "numpy", "divide", CJ_R_SPECIAL, "")                               \
    X(NP_TRUE_DIVIDE, "numpy", "true_divide", CJ_R_SPECIAL, "")                     \
    X(NP_FLOOR_DIVIDE, "numpy", "floor_divide", CJ_R_SPECIAL, "")                   \
    X(NP_REMAINDER, "numpy", "remainder", CJ_R_SPECIAL, "")                         \
    X(NP_MOD, "numpy", "mod", CJ_R_SPECIAL, "")                                     \
    X(NP_LEFT_SHIFT, "numpy", "left_shift", CJ_R_SPECIAL, "")                       \
    X(NP_RIGHT_SHIFT, "numpy", "right_shift", CJ_R_SPECIAL, "")                     \
    X(NP_BITWISE_AND, "numpy", "bitwise_and", CJ_R_SPECIAL, "")                     \
    X(NP_BITWISE_OR, "numpy", "bitwise_or", CJ_R_SPECIAL, "")                       \
    X(NP_BITWISE_XOR, "numpy", "bitwise_xor", CJ_R_SPECIAL, "")                     \
    X(NP_LESS, "numpy", "less", CJ_R_SPECIAL, "")                                   \
    X(NP_LESS_EQUAL, "numpy", "less_equal", CJ_R_SPECIAL, "")                       \
    X(NP_EQUAL, "numpy", "equal", CJ_R_SPECIAL, "")                                 \
    X(NP_NOT_EQUAL, "numpy", "not_equal", CJ_R_SPECIAL, "")                         \
    X(NP_GREATER, "numpy", "greater", CJ_R_SPECIAL, "")                             \
    X(NP_GREATER_EQUAL, "numpy", "greater_equal", CJ_R_SPECIAL, "")                 \
    X(NP_NEGATIVE, "numpy", "negative", CJ_R_SPECIAL, "")                           \
    X(NP_POSITIVE, "numpy", "positive", CJ_R_SPECIAL, "")                           \
    X(NP_INVERT, "numpy", "invert", CJ_R_SPECIAL, "")                               \
    X(NP_BITWISE_NOT, "numpy", "bitwise_not", CJ_R_SPECIAL, "")                     \
    X(NP_LOGICAL_AND, "numpy", "logical_and", CJ_R_SPECIAL, "")                     \
    X(NP_LOGICAL_OR, "numpy", "logical_or", CJ_R_SPECIAL, "")                       \
    X(NP_LOGICAL_XOR, "numpy", "logical_xor", CJ_R_SPECIAL, "")                     \
    X(NP_LOGICAL_NOT, "numpy", "logical_not", CJ_R_SPECIAL, "")                     \
    X(NP_WHERE, "numpy", "where", CJ_R_SPECIAL, "")                                 \
    X(NP_CLIP, "numpy", "clip", CJ_R_SPECIAL, "")                                   \
    X(NP_DOT, "numpy", "dot", CJ_R_SPECIAL, "")                                     \
    X(NP_VDOT, "numpy", "vdot", CJ_R_SPECIAL, "")                                   \
    X(NP_NONZERO, "numpy", "nonzero", CJ_R_SPECIAL, "")                             \
    X(NP_ARGWHERE, "numpy", "argwhere", CJ_R_SPECIAL, "")                           \
    X(NP_SEARCHSORTED, "numpy", "searchsorted", CJ_R_SPECIAL, "")                   \
    X(NP_SORT, "numpy", "sort", CJ_R_SPECIAL, "")                                   \
    X(NP_ARGSORT, "numpy", "argsort", CJ_R_SPECIAL, "")                             \
    X(NP_CONCATENATE, "numpy", "concatenate", CJ_R_SPECIAL, "")                     \
    X(NP_STACK, "numpy", "stack", CJ_R_SPECIAL, "")                                 \
    X(NP_HSTACK, "numpy", "hstack", CJ_R_SPECIAL, "")                               \
    X(NP_VSTACK, "numpy", "vstack", CJ_R_SPECIAL, "")                               \
    X(NP_DSTACK, "numpy", "dstack", CJ_R_SPECIAL, "")                               \
    X(NP_COLUMN_STACK, "numpy", "column_stack", CJ_R_SPECIAL, "")                   \
    X(NP_ATLEAST_1D, "numpy", "atleast_1d", CJ_R_SPECIAL, "")                       \
    X(NP_ATLEAST_2D, "numpy", "atleast_2d", CJ_R_SPECIAL, "")                       \
    X(NP_ATLEAST_3D, "numpy", "atleast_3d", CJ_R_SPECIAL, "")                       \
    X(NP_NDENUMERATE, "numpy", "ndenumerate", CJ_R_SPECIAL, "")                     \
    X(NP_NDINDEX, "numpy", "ndindex", CJ_R_SPECIAL, "")                             \
    X(PRANGE, "cujit", "prange", CJ_R_SPECIAL, "")                                  \
    X(GET_THREAD_ID, "cujit", "get_thread_id", CJ_R_SPECIAL, "")                    \
    X(GET_NUM_THREADS, "cujit", "get_num_threads", CJ_R_SPECIAL, "")

typedef enum cj_builtin {
#define CJ_BUILTIN_ENUM(id, mod, attr, rule, cname) CJ_B_##id,
    CJ_BUILTINS(CJ_BUILTIN_ENUM)
#undef CJ_BUILTIN_ENUM
    CJ_B_COUNT
} cj_builtin;

typedef struct cj_builtin_info {
    const char *module;
    const char *attr;
    cj_builtin_rule rule;
    const char *cname;
} cj_builtin_info;

extern const cj_builtin_info cj_builtin_table[CJ_B_COUNT];

/* The array creation functions (np.empty ... np.full_like): they make a new array. */
static inline int cj_builtin_makes_array(int id) {
    return id >= CJ_B_NP_EMPTY && id <= CJ_B_NP_FULL_LIKE;
}

/* np.arange/linspace/eye/identity/array/asarray (array_create.c): new arrays from numbers. */
static inline int cj_builtin_creates(int id) {
    return id >= CJ_B_NP_ARANGE && id <= CJ_B_NP_ASARRAY;
}

/* Reshaping and viewing arrays (array_shape.c): a.reshape, a.ravel, a.flatten, a.view,
 * a.item, a.conj; np.reshape, np.ravel, np.conj. */
static inline int cj_builtin_shapes(int id) {
    return id >= CJ_B_METH_FLATTEN && id <= CJ_B_METH_ITEM;
}

/* The calls of those two groups whose result is a new array (NP_ARRAY also stands for
 * np.asarray of a tuple; flatten for the ravel of an array that is not C-contiguous). */
static inline int cj_builtin_fresh_array(int id) {
    return id >= CJ_B_NP_ARANGE && id <= CJ_B_NP_CONJ && id != CJ_B_NP_ASARRAY;
}

/* The reductions (np.sum ... np.count_nonzero; the methods a.sum() ... a.cumprod()): typed
 * in typing/array_reduce.c, lowered by lower/lower_array_reduce.c. */
static inline int cj_builtin_reduces(int id) {
    return id >= CJ_B_NP_SUM && id <= CJ_B_NP_COUNT_NONZERO;
}

/* Array methods (a.copy(), a.astype(t), a.fill(v), a.transpose(); np.copy, np.transpose). */
static inline int cj_builtin_array_method(int id) {
    return id >= CJ_B_NP_COPY && id <= CJ_B_NP_TRANSPOSE;
}

/* np.where(c, x, y) and np.clip(a, lo, hi): element by element, like the ufuncs. */
static inline int cj_builtin_select(int id) { return id == CJ_B_NP_WHERE || id == CJ_B_NP_CLIP; }

/* The NumPy ufuncs np.add ... np.logical_not, typed by their loops even for scalars. */
static inline int cj_builtin_operator_ufunc(int id) {
    return id >= CJ_B_NP_ADD && id <= CJ_B_NP_LOGICAL_NOT;
}

/* np.random.seed ... np.random.permutation (typing/array_random.c, lower/lower_random.c). */
static inline int cj_builtin_random(int id) {
    return id >= CJ_B_NPR_SEED && id <= CJ_B_NPR_PERMUTATION;
}

/* Python's random module: random.seed ... random.getrandbits (typing/py_random.c,
 * lower/lower_py_random.c). */
static inline int cj_builtin_py_random(int id) {
    return id >= CJ_B_PYR_SEED && id <= CJ_B_PYR_GETRANDBITS;
}

/* np.nonzero / a.nonzero() (and np.where(c)), np.argwhere, np.searchsorted: typed in
 * typing/array_search.c; nonzero and argwhere lowered by lower/lower_array_search.c,
 * searchsorted a call of its Python implementation (cujit.np.arraymath). */
static inline int cj_builtin_searches(int id) {
    return id >= CJ_B_NP_NONZERO && id <= CJ_B_NP_SEARCHSORTED;
}

/* Joining arrays (typing/array_join.c, lower/lower_array_join.c): np.concatenate ...
 * np.column_stack make a new array; np.atleast_1d/2d/3d return a view. */
static inline int cj_builtin_joins(int id) {
    return id >= CJ_B_NP_CONCATENATE && id <= CJ_B_NP_ATLEAST_3D;
}

static inline int cj_builtin_joins_fresh(int id) {
    return id >= CJ_B_NP_CONCATENATE && id <= CJ_B_NP_COLUMN_STACK;
}

/* The builtin id of a Python object, or -1 (no exception) when it is none of them. */
int cj_builtin_lookup(PyObject *obj);

#endif
