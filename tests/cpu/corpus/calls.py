"""Calls to other jitted functions: positional, keywords, defaults, recursion, tuples across calls."""
from . import F, I, case, helper


@helper
def h_add(a, b):
    return a + b


@helper
def h_scale(x, k=2):
    return x * k


@helper
def h_affine(x, a=1.0, b=0.0):
    return a * x + b


@helper
def h_divmod(a, b):
    return a // b, a % b


@helper
def h_sq(x):
    return x * x


@helper
def h_sumsq(a, b):
    return h_sq(a) + h_sq(b)


@helper
def h_clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@helper
def h_none_default(x, y=None):
    if y is None:
        return x
    return x + y


@helper
def h_void(x):
    x + 1


@helper
def h_is_even(n):
    if n == 0:
        return True
    return h_is_odd(n - 1)


@helper
def h_is_odd(n):
    if n == 0:
        return False
    return h_is_even(n - 1)


@case(gen=lambda rng: (I(rng), I(rng)), sig="int64(int64, int64)")
def call_positional(a, b):
    return h_add(a, b)


@case(gen=lambda rng: (I(rng), I(rng)), sig="int64(int64, int64)")
def call_keywords(a, b):
    return h_add(b=b, a=a)


@case(gen=lambda rng: (I(rng),))
def call_default(a):
    return h_scale(a)


@case(gen=lambda rng: (I(rng), I(rng)))
def call_default_overridden(a, k):
    return h_scale(a, k) + h_scale(a, k=k)


@case(gen=lambda rng: (F(rng),))
def call_default_float(x):
    return h_affine(x), h_affine(x, 2.0), h_affine(x, b=3.0), h_affine(x, b=1.0, a=-1.0)


@case(gen=lambda rng: (I(rng), I(rng, 1, 20)))
def call_returning_tuple(a, b):
    q, r = h_divmod(a, b)
    return q * b + r


@case(gen=lambda rng: (I(rng), I(rng)))
def call_chain(a, b):
    return h_sumsq(a, b)


@case(gen=lambda rng: (F(rng), F(rng)))
def call_polymorphic(x, y):
    return h_add(x, y), h_add(int(x), 1), h_sq(y)


@case(gen=lambda rng: (F(rng, -2, 2),))
def call_clamp(x):
    return h_clamp(x, -1.0, 1.0)


@case(gen=lambda rng: (I(rng),))
def call_none_default(a):
    return h_none_default(a), h_none_default(a, 5)


@case(gen=lambda rng: (I(rng),))
def call_void(a):
    h_void(a)
    return a


@case(gen=lambda rng: (I(rng, 0, 25),), sig="int64(int64)")
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1) % 1000000007


@case(gen=lambda rng: (I(rng, 0, 20),), sig="int64(int64)")
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@case(gen=lambda rng: (I(rng, 0, 10**6), I(rng, 1, 10**6)))
def gcd_rec(a, b):
    if b == 0:
        return a
    return gcd_rec(b, a % b)


@case(gen=lambda rng: (F(rng, 0.0, 3.0), I(rng, 0, 10)))
def power_rec(x, n):
    if n == 0:
        return 1.0
    half = power_rec(x, n // 2)
    if n % 2 == 0:
        return half * half
    return half * half * x


@case(gen=lambda rng: (I(rng, 0, 12), I(rng, 0, 12)))
def ackermann_small(m, n):
    return _ack(min(m, 2), n)


@helper
def _ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return _ack(m - 1, 1)
    return _ack(m - 1, _ack(m, n - 1))


@case(gen=lambda rng: (I(rng, 0, 40),), scope="beyond")
def mutual_recursion(n):
    return h_is_even(n)


@case(gen=lambda rng: (I(rng, 1, 40),))
def call_in_loop(n):
    s = 0
    for i in range(n):
        s = h_add(s, h_sq(i))
    return s


@case(gen=lambda rng: (I(rng),))
def call_with_expression_args(a):
    return h_add(a * 2, h_scale(a, k=3) - 1)


@case(gen=lambda rng: (I(rng, -50, 50), I(rng, -50, 50)))
def defaults_in_case(a, b=3, c=4):
    return a * b + c


@case(gen=lambda rng: (I(rng, 0, 15),))
def binomial_rec(n):
    return _binom(n, n // 2)


@helper
def _binom(n, k):
    if k == 0 or k == n:
        return 1
    return _binom(n - 1, k - 1) + _binom(n - 1, k)
