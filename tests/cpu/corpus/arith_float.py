"""Float arithmetic: Python's true/floor division and modulo signs, powers, mixed int/float."""
import math

from . import F, FNZ, I, NZ, case


def ff(rng):
    return F(rng), F(rng)


def ffnz(rng):
    return F(rng), FNZ(rng, -20.0, 20.0)


@case(gen=ff, sig="float64(float64, float64)")
def add(a, b):
    return a + b


@case(gen=ff, sig="float64(float64, float64)")
def sub(a, b):
    return a - b


@case(gen=ff, sig="float64(float64, float64)")
def mul(a, b):
    return a * b


@case(gen=ffnz, sig="float64(float64, float64)")
def truediv(a, b):
    return a / b


@case(gen=ffnz, sig="float64(float64, float64)")
def floordiv(a, b):
    return a // b


@case(gen=ffnz, sig="float64(float64, float64)")
def mod(a, b):
    return a % b


@case(gen=ffnz)
def divmod_signs(a, b):
    return (-a) // b, (-a) % b, a // (-b), a % (-b)


@case(gen=lambda rng: (F(rng, 0.0, 10.0), F(rng, -3.0, 3.0)))
def pow_float(a, b):
    return a ** b


@case(gen=lambda rng: (F(rng, -10.0, 10.0), I(rng, -4, 5)))
def pow_float_int(a, b):
    if a == 0.0:
        a = 1.5
    return a ** b


@case(gen=lambda rng: (I(rng, 1, 10), F(rng, -3.0, 3.0)))
def pow_int_float(a, b):
    return a ** b


@case(gen=lambda rng: (F(rng, -10.0, 10.0),))
def pow_half(a):
    return abs(a) ** 0.5


@case(gen=ff)
def neg_pos(a, b):
    return -a, +b


@case(gen=ff)
def compare_all(a, b):
    return (a < b, a <= b, a == b, a != b, a > b, a >= b)


@case(gen=lambda rng: (F(rng), I(rng)))
def mixed_add(a, b):
    return a + b, b - a, a * b


@case(gen=lambda rng: (I(rng), NZ(rng)))
def int_truediv_int(a, b):
    return a / b


@case(gen=lambda rng: (F(rng), NZ(rng, -20, 20)))
def float_floordiv_int(a, b):
    return a // b, a % b


@case(gen=lambda rng: (I(rng), FNZ(rng, -20.0, 20.0)))
def int_mod_float(a, b):
    return a % b, a // b


@case(gen=ff)
def augmented(a, b):
    x = a
    x += b
    x *= 0.5
    x -= 1.25
    x /= 3.0
    return x


@case(gen=ff, sig="float64(float64, float64)")
def poly(a, b):
    return 0.5 * a * a - 1.5 * a * b + 2.0 * b - 7.0


@case(gen=lambda rng: (F(rng, -5.0, 5.0),), sig="float64(float64)")
def horner(x):
    return ((((1.0 / 120.0) * x + 1.0 / 24.0) * x + 1.0 / 6.0) * x + 0.5) * x * x + x + 1.0


@case(gen=ff)
def float_bool(a, b):
    return not a, bool(b), a and b


@case(gen=lambda rng: (F(rng) if rng.random() > 0.2 else 0.0,))
def truthiness(a):
    if a:
        return 1.0
    return -1.0


@case(gen=lambda rng: (F(rng, -1.0, 1.0), F(rng, -1.0, 1.0)))
def chained(a, b):
    return -0.5 < a < b < 0.5


@case(gen=lambda rng: (F(rng, -1e6, 1e6),))
def nan_inf_arith(a):
    inf = 1e308 * 10.0
    nan = inf - inf
    return (nan == nan, nan != nan, inf > a, -inf < a, a + inf, a * 0.0)


@case(gen=lambda rng: (F(rng, -1e3, 1e3),))
def nan_comparisons(a):
    nan = math.nan
    return (a < nan, a > nan, a == nan, a != nan, nan + a)


@case(gen=lambda rng: (F(rng, -1e3, 1e3), F(rng, -1e3, 1e3)))
def float_literals(a, b):
    return a * 1e-3 + b * 2.5e2 - 3.0e-10


@case(gen=lambda rng: (F(rng, 0.1, 100.0), I(rng, 1, 30)))
def average(total, n):
    return total / n


@case(gen=lambda rng: (F(rng, -100.0, 100.0),))
def zero_signs(a):
    z = a * 0.0
    return z, -z, 0.0 * -1.0
