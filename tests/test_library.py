"""math, cmath and operator functions compiled by cujit equal CPython's on random inputs."""
import cmath
import math
import operator

import numpy as np
import pytest

from cujit import njit

RNG = np.random.default_rng(1234)

MATH_UNARY = ["sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
              "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "atanh", "erf", "erfc",
              "gamma", "lgamma", "fabs", "degrees", "radians", "floor", "ceil", "trunc",
              "isnan", "isinf", "isfinite", "modf", "frexp", "cbrt", "exp2"]
CMATH_UNARY = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh",
               "asin", "acos", "atan", "asinh", "acosh", "atanh", "phase", "polar", "isnan",
               "isinf", "isfinite"]
OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lt", "le", "eq", "ne",
             "gt", "ge"]


def _close(a, b, rtol=1e-12):
    if isinstance(a, tuple):
        return all(_close(x, y, rtol) for x, y in zip(a, b)) and len(a) == len(b)
    if isinstance(a, (bool, int)) and not isinstance(a, float):
        return a == b and type(a) is type(b)
    return cmath.isclose(a, b, rel_tol=rtol, abs_tol=1e-14)


def _domain(name):
    if name in ("asin", "acos", "atanh"):
        return RNG.uniform(-0.99, 0.99, 12)
    if name in ("log", "log2", "log10", "sqrt", "gamma", "lgamma"):
        return RNG.uniform(0.01, 20, 12)
    if name == "log1p":
        return RNG.uniform(-0.9, 20, 12)
    return RNG.uniform(-20, 20, 12)


@pytest.mark.parametrize("name", [n for n in MATH_UNARY if hasattr(math, n)])
def test_math_unary(name):
    fn = getattr(math, name)
    jitted = njit(lambda x: fn(x))
    for x in _domain(name):
        assert _close(fn(float(x)), jitted(float(x))), (name, x)


@pytest.mark.parametrize("name", ["atan2", "hypot", "copysign", "fmod", "pow", "ldexp"])
def test_math_binary(name):
    fn = getattr(math, name)
    jitted = njit(lambda x, y: fn(x, y))
    for x, y in RNG.uniform(0.5, 4, (12, 2)):
        y = int(y) if name == "ldexp" else float(y)
        assert _close(fn(float(x), y), jitted(float(x), y)), (name, x, y)


def test_math_log_base_and_gcd_and_constants():
    f = njit(lambda x, b: (math.log(x, b), math.gcd(int(x), 12), math.pi * x, math.e, math.tau,
                           math.inf > x))
    assert _close(f(48.0, 2.0), (math.log(48.0, 2.0), 12, math.pi * 48.0, math.e, math.tau,
                                 True))


@pytest.mark.parametrize("name", CMATH_UNARY)
def test_cmath_unary(name):
    fn = getattr(cmath, name)
    jitted = njit(lambda z: fn(z))
    for re, im in RNG.uniform(-2, 2, (12, 2)):
        z = complex(re, im)
        assert _close(fn(z), jitted(z), rtol=1e-9), (name, z)


def test_cmath_rect():
    f = njit(lambda r, phi: cmath.rect(r, phi))
    assert _close(f(2.0, 0.7), cmath.rect(2.0, 0.7))


@pytest.mark.parametrize("name", OPERATORS)
def test_operator_functions(name):
    fn = getattr(operator, name)
    jitted = njit(lambda x, y: fn(x, y))
    for x, y in [(7, 3), (-7, 2), (2.5, -1.5), (3, 0.5)]:
        assert _close(fn(x, y), jitted(x, y)), (name, x, y)


def test_operator_unary_and_truth():
    f = njit(lambda x: (operator.neg(x), operator.pos(x), operator.abs(x), operator.not_(x),
                        operator.truth(x), operator.invert(int(x))))
    for x in (3, -4, 0):
        assert f(x) == (-x, +x, abs(x), not x, bool(x), ~x)
