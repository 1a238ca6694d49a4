"""Builtins: abs, min/max (several args), round (1 and 2 args), int/float/bool/complex, len, range,
enumerate, zip, pow, divmod."""
from . import B, C, F, I, NZ, case


@case(gen=lambda rng: (I(rng), F(rng)), sig="Tuple((int64, float64))(int64, float64)")
def abs_int_float(a, x):
    return abs(a), abs(x)


@case(gen=lambda rng: (B(rng),))
def abs_bool(p):
    return abs(p)


@case(gen=lambda rng: (I(rng), I(rng)))
def min_max_two(a, b):
    return min(a, b), max(a, b)


@case(gen=lambda rng: (I(rng), I(rng), I(rng), I(rng)))
def min_max_four(a, b, c, d):
    return min(a, b, c, d), max(a, b, c, d)


@case(gen=lambda rng: (F(rng), I(rng), F(rng)))
def min_max_mixed(x, a, y):
    return min(x, a, y), max(a, x)


@case(gen=lambda rng: ((I(rng), I(rng), I(rng)),))
def min_max_tuple(t):
    return min(t), max(t)


@case(gen=lambda rng: (F(rng, -1000, 1000),), sig="int64(float64)")
def round_one_arg(x):
    return round(x)


@case(gen=lambda rng: (float(rng.integers(-20, 20)) + 0.5,))
def round_half_even(x):
    return round(x)


@case(gen=lambda rng: (F(rng, -1000, 1000), I(rng, -2, 4)))
def round_two_args(x, nd):
    return round(x, nd)


@case(gen=lambda rng: (I(rng, -1000, 1000),))
def round_int(a):
    return round(a)


@case(gen=lambda rng: (F(rng, -1000, 1000),))
def int_of_float(x):
    return int(x)


@case(gen=lambda rng: (I(rng), B(rng)))
def float_of_int_bool(a, p):
    # float(bool) is not in numba's subset; float of an int computed from a bool is
    return float(a), float(int(p) + 1)


@case(gen=lambda rng: (I(rng, -2, 3), F(rng, -1, 1)))
def bool_of_numbers(a, x):
    return bool(a), bool(x), bool(0.0), bool(a - a)


@case(gen=lambda rng: (F(rng), F(rng), I(rng)))
def complex_ctor(x, y, a):
    return complex(x, y), complex(a), complex(x)


@case(gen=lambda rng: (B(rng), I(rng)))
def int_of_bool(p, a):
    return int(p) + int(a)


@case(gen=lambda rng: (I(rng, 0, 30),))
def len_range(n):
    return len(range(n)), len(range(0, n, 3)), len(range(n, 0, -2))


@case(gen=lambda rng: (I(rng, -6, 6), I(rng, 0, 10)))
def pow_builtin(a, b):
    return pow(a, b)


@case(gen=lambda rng: (F(rng, 0.01, 5), F(rng, -2, 2)), sig="float64(float64, float64)")
def pow_builtin_float(x, y):
    return pow(x, y)


@case(gen=lambda rng: (I(rng, -1000, 1000), NZ(rng, -30, 30)))
def divmod_int(a, b):
    return divmod(a, b)


@case(gen=lambda rng: (F(rng, -1000, 1000), F(rng, 0.5, 30) * (1 if rng.random() < 0.5 else -1)))
def divmod_float(x, y):
    return divmod(x, y)


@case(gen=lambda rng: (I(rng, 0, 20),))
def enumerate_sum(n):
    s = 0
    for i, v in enumerate(range(10, 10 + n)):
        s += i * v
    return s


@case(gen=lambda rng: (I(rng, 0, 20), I(rng, 0, 20)))
def zip_three(n, m):
    s = 0
    for a, b, c in zip(range(n), range(m), range(5, 100)):
        s += a + b * c
    return s


@case(gen=lambda rng: (C(rng),))
def abs_complex(z):
    return abs(z)


@case(gen=lambda rng: (F(rng), F(rng)))
def max_of_abs(x, y):
    return max(abs(x), abs(y), 1.0)


@case(gen=lambda rng: (I(rng), I(rng)))
def min_in_loop(a, b):
    m = a
    for k in range(5):
        m = min(m, b - k)
    return m


@case(gen=lambda rng: (F(rng, -1e3, 1e3),))
def int_float_roundtrip(x):
    return float(int(x)) - x


@case(gen=lambda rng: (I(rng, 0, 30), I(rng, 1, 5)))
def range_step_sum(n, k):
    s = 0
    for i in range(0, n, k):
        s += i
    return s


@case(gen=lambda rng: (B(rng), B(rng)))
def min_max_bool(p, q):
    return min(p, q), max(p, q)


@case(gen=lambda rng: (F(rng), F(rng)))
def abs_neg_zero(x, y):
    return abs(-0.0) + abs(x - y)
