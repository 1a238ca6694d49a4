"""The random module's distributions that cujit compiles from Python, as numba's
numba.cpython.randomimpl: ``betavariate gammavariate lognormvariate paretovariate triangular
vonmisesvariate weibullvariate``, drawing from cujit's per-thread Mersenne Twister through
``random.random()`` (and ``random.gauss`` for lognormvariate). The algorithms and argument
types are numba's (CPython's algorithms): after the same ``random.seed(s)`` in compiled code
the values are CPython's, except lognormvariate, which uses numba's gauss.
``triangular(low, high, mode)`` with ``low == high`` draws a number first as CPython does
(numba does not, so its stream moves on differently). CPU only, as
numba (numba-cuda refuses the module)."""
import math
import random

from cujit.core import types
from cujit.core.extending import overload, register_jitable

_REAL = (types.Float, types.Integer)


@overload(random.triangular, target="cpu")
def _ov_triangular(low, high, mode=None):
    if not (isinstance(low, _REAL) and isinstance(high, _REAL)):
        return None
    if mode is None or isinstance(mode, (types.NoneType, types.Omitted)):
        def impl2(low, high, mode=None):
            u = random.random()
            c = 0.5
            if u > c:
                u = 1.0 - u
                low, high = high, low
            return low + (high - low) * math.sqrt(u * c)
        return impl2
    if not isinstance(mode, _REAL):
        return None

    def impl3(low, high, mode=None):
        u = random.random()  # drawn first, as CPython (numba returns before drawing)
        if high == low:
            return low
        c = (mode - low) / (high - low)
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            low, high = high, low
        return low + (high - low) * math.sqrt(u * c)
    return impl3


@register_jitable
def _gammavariate(alpha, beta):
    """CPython's gammavariate (numba's copy of it)."""
    if alpha <= 0.0 or beta <= 0.0:
        raise ValueError("gammavariate: alpha and beta must be > 0.0")
    if alpha > 1.0:
        # R.C.H. Cheng, "The generation of Gamma variables with non-integral shape
        # parameters", Applied Statistics (1977), 26, No. 1, p71-74
        sg_magicconst = 1.0 + math.log(4.5)
        ainv = math.sqrt(2.0 * alpha - 1.0)
        bbb = alpha - math.log(4.0)
        ccc = alpha + ainv
        while True:
            u1 = random.random()
            if not 1e-7 < u1 < 0.9999999:
                continue
            u2 = 1.0 - random.random()
            v = math.log(u1 / (1.0 - u1)) / ainv
            x = alpha * math.exp(v)
            z = u1 * u1 * u2
            r = bbb + ccc * v - x
            if r + sg_magicconst - 4.5 * z >= 0.0 or r >= math.log(z):
                return x * beta
    elif alpha == 1.0:
        return -math.log(1.0 - random.random()) * beta
    # 0 < alpha < 1: algorithm GS of Statistical Computing, Kennedy & Gentle
    while True:
        u = random.random()
        b = (math.e + alpha) / math.e
        p = b * u
        if p <= 1.0:
            x = p ** (1.0 / alpha)
        else:
            x = -math.log((b - p) / alpha)
        u1 = random.random()
        if p > 1.0:
            if u1 <= x ** (alpha - 1.0):
                break
        elif u1 <= math.exp(-x):
            break
    return x * beta


@overload(random.gammavariate, target="cpu")
def _ov_gammavariate(alpha, beta):
    if isinstance(alpha, _REAL) and isinstance(beta, _REAL):
        return lambda alpha, beta: _gammavariate(alpha, beta)


@overload(random.betavariate, target="cpu")
def _ov_betavariate(alpha, beta):
    if isinstance(alpha, _REAL) and isinstance(beta, _REAL):
        def impl(alpha, beta):
            y = _gammavariate(alpha, 1.0)
            if y == 0.0:
                return 0.0
            return y / (y + _gammavariate(beta, 1.0))
        return impl


@overload(random.lognormvariate, target="cpu")
def _ov_lognormvariate(mu, sigma):
    if isinstance(mu, types.Float) and isinstance(sigma, types.Float):
        return lambda mu, sigma: math.exp(random.gauss(mu, sigma))


@overload(random.paretovariate, target="cpu")
def _ov_paretovariate(alpha):
    if isinstance(alpha, types.Float):
        def impl(alpha):
            u = 1.0 - random.random()
            return 1.0 / u ** (1.0 / alpha)
        return impl


@overload(random.weibullvariate, target="cpu")
def _ov_weibullvariate(alpha, beta):
    if isinstance(alpha, _REAL) and isinstance(beta, _REAL):
        def impl(alpha, beta):
            u = 1.0 - random.random()
            return alpha * (-math.log(u)) ** (1.0 / beta)
        return impl


@overload(random.vonmisesvariate, target="cpu")
def _ov_vonmisesvariate(mu, kappa):
    if isinstance(mu, types.Float) and isinstance(kappa, types.Float):
        def impl(mu, kappa):
            # N.I. Fisher, "Statistical Analysis of Circular Data", Cambridge University
            # Press, 1993
            if kappa <= 1e-6:
                return 2.0 * math.pi * random.random()
            s = 0.5 / kappa
            r = s + math.sqrt(1.0 + s * s)
            while True:
                u1 = random.random()
                z = math.cos(math.pi * u1)
                d = z / (r + z)
                u2 = random.random()
                if u2 < 1.0 - d * d or u2 <= (1.0 - d) * math.exp(d):
                    break
            q = 1.0 / r
            f = (q + z) / (1.0 + q * z)
            u3 = random.random()
            if u3 > 0.5:
                return (mu + math.acos(f)) % (2.0 * math.pi)
            return (mu - math.acos(f)) % (2.0 * math.pi)
        return impl
