"""The math, cmath and operator functions numba supports, on float, int and complex arguments."""
import cmath
import math
import operator

from . import C, F, I, case


def pos(rng):
    return (F(rng, 0.01, 50.0),)


def any_f(rng):
    return (F(rng, -10.0, 10.0),)


def unit(rng):
    return (F(rng, -0.99, 0.99),)


@case(gen=pos, sig="float64(float64)")
def m_sqrt(x):
    return math.sqrt(x)


@case(gen=any_f, sig="float64(float64)")
def m_exp(x):
    return math.exp(x)


@case(gen=any_f)
def m_expm1(x):
    return math.expm1(x)


@case(gen=pos)
def m_log(x):
    return math.log(x)


@case(gen=pos)
def m_log10(x):
    return math.log10(x)


@case(gen=pos)
def m_log2(x):
    return math.log2(x)


@case(gen=pos)
def m_log1p(x):
    return math.log1p(x)


@case(gen=any_f, sig="float64(float64)")
def m_sin(x):
    return math.sin(x)


@case(gen=any_f)
def m_cos(x):
    return math.cos(x)


@case(gen=lambda rng: (F(rng, -1.5, 1.5),))
def m_tan(x):
    return math.tan(x)


@case(gen=unit)
def m_asin(x):
    return math.asin(x)


@case(gen=unit)
def m_acos(x):
    return math.acos(x)


@case(gen=any_f)
def m_atan(x):
    return math.atan(x)


@case(gen=lambda rng: (F(rng, -10, 10), F(rng, -10, 10)), sig="float64(float64, float64)")
def m_atan2(y, x):
    return math.atan2(y, x)


@case(gen=lambda rng: (F(rng, -5, 5),))
def m_sinh_cosh_tanh(x):
    return math.sinh(x), math.cosh(x), math.tanh(x)


@case(gen=lambda rng: (F(rng, 1.0, 20.0), F(rng, -0.9, 0.9)))
def m_inverse_hyperbolic(x, y):
    return math.asinh(x), math.acosh(x), math.atanh(y)


@case(gen=any_f)
def m_floor_ceil_trunc(x):
    return math.floor(x), math.ceil(x), math.trunc(x)


@case(gen=lambda rng: (F(rng, -10, 10), F(rng, -10, 10)))
def m_hypot(x, y):
    return math.hypot(x, y)


@case(gen=lambda rng: (F(rng, 0.0, 10), F(rng, -3, 3)))
def m_pow(x, y):
    return math.pow(x, y)


@case(gen=lambda rng: (F(rng, -10, 10), F(rng, -10, 10)))
def m_copysign(x, y):
    return math.copysign(x, y)


@case(gen=any_f)
def m_fabs(x):
    return math.fabs(x)


@case(gen=any_f)
def m_degrees_radians(x):
    return math.degrees(x), math.radians(x)


@case(gen=any_f)
def m_erf_erfc(x):
    return math.erf(x), math.erfc(x)


@case(gen=lambda rng: (F(rng, 0.1, 10.0),), rtol=1e-10)
def m_gamma(x):
    return math.gamma(x)


@case(gen=lambda rng: (F(rng, 0.1, 10.0),), rtol=1e-10, atol=1e-13)
def m_lgamma(x):
    return math.lgamma(x)


@case(gen=lambda rng: (F(rng, -1e3, 1e3),))
def m_isnan_isinf_isfinite(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x), math.isnan(x * 0.0 + math.nan)


@case(gen=lambda rng: (I(rng, -1000, 1000), I(rng, -1000, 1000)))
def m_gcd(a, b):
    return math.gcd(a, b)


@case(gen=lambda rng: (F(rng, -100, 100),))
def m_frexp(x):
    return math.frexp(x)


@case(gen=lambda rng: (F(rng, -10, 10), I(rng, -20, 20)))
def m_ldexp(x, e):
    return math.ldexp(x, e)


@case(gen=lambda rng: (F(rng, -1, 1),))
def m_constants(x):
    return math.pi * x + math.e - math.tau + (math.inf > x)


@case(gen=lambda rng: (I(rng, 1, 100),))
def m_sqrt_of_int(a):
    return math.sqrt(a), math.exp(a % 5), math.floor(a)


@case(gen=lambda rng: (F(rng, -5, 5), F(rng, -5, 5)))
def m_isclose_free_mix(x, y):
    return math.sin(x) ** 2 + math.cos(x) ** 2 - 1.0 + math.atan2(y, 1.0)


@case(gen=lambda rng: (F(rng, -10, 10), F(rng, -10, 10)))
def m_nextafter(x, y):
    return math.nextafter(x, y)


@case(gen=lambda rng: (F(rng, -5, 5),))
def m_exp2(x):
    return math.exp2(x)


@case(gen=lambda rng: (C(rng),))
def c_sqrt(z):
    return cmath.sqrt(z)


@case(gen=lambda rng: (C(rng, -3, 3),))
def c_exp_log(z):
    return cmath.exp(z), cmath.log(z)


@case(gen=lambda rng: (C(rng, -3, 3),))
def c_log10(z):
    return cmath.log10(z)


@case(gen=lambda rng: (C(rng),))
def c_phase_abs_polar(z):
    return cmath.phase(z), abs(z), cmath.polar(z)


@case(gen=lambda rng: (F(rng, 0.0, 5.0), F(rng, -3.0, 3.0)))
def c_rect(r, phi):
    return cmath.rect(r, phi)


@case(gen=lambda rng: (C(rng, -2, 2),))
def c_trig(z):
    return cmath.sin(z), cmath.cos(z), cmath.tan(z)


@case(gen=lambda rng: (C(rng, -2, 2),))
def c_hyperbolic(z):
    return cmath.sinh(z), cmath.cosh(z), cmath.tanh(z)


@case(gen=lambda rng: (C(rng, -0.9, 0.9),), rtol=1e-10)
def c_inverse_trig(z):
    return cmath.asin(z), cmath.acos(z), cmath.atan(z)


@case(gen=lambda rng: (C(rng, -0.9, 0.9),), rtol=1e-10)
def c_inverse_hyperbolic(z):
    return cmath.asinh(z), cmath.acosh(z), cmath.atanh(z)


@case(gen=lambda rng: (C(rng),))
def c_predicates(z):
    return cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z)


@case(gen=lambda rng: (I(rng), I(rng)))
def op_arith(a, b):
    return operator.add(a, b), operator.sub(a, b), operator.mul(a, b), operator.neg(a)


@case(gen=lambda rng: (I(rng), I(rng, 1, 30)))
def op_div(a, b):
    return operator.truediv(a, b), operator.floordiv(a, b), operator.mod(a, b)


@case(gen=lambda rng: (I(rng), I(rng)))
def op_bitwise(a, b):
    return (operator.and_(a, b), operator.or_(a, b), operator.xor(a, b), operator.invert(a),
            operator.lshift(a, 3), operator.rshift(a, 2))


@case(gen=lambda rng: (F(rng), F(rng)))
def op_compare(x, y):
    return (operator.lt(x, y), operator.le(x, y), operator.eq(x, y), operator.ne(x, y),
            operator.gt(x, y), operator.ge(x, y))


@case(gen=lambda rng: (F(rng), I(rng, 0, 4)))
def op_pow_pos_neg(x, k):
    return operator.pow(x, k), operator.pos(x), operator.neg(x)


@case(gen=lambda rng: (I(rng), I(rng)))
def op_not(a, b):
    return operator.not_(a), operator.not_(a > b)


@case(gen=lambda rng: ((I(rng), I(rng), I(rng)),))
def op_getitem_tuple(t):
    return operator.getitem(t, 1)


@case(gen=lambda rng: (F(rng), F(rng)))
def op_inplace(x, y):
    return operator.iadd(x, y), operator.imul(x, y), operator.isub(x, y)
