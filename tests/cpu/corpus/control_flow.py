"""if/elif/else, ternaries, early returns, and/or/not, joins that unify types."""
from . import B, F, I, case


@case(gen=lambda rng: (I(rng),), sig="int64(int64)")
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


@case(gen=lambda rng: (I(rng), I(rng)), sig="int64(int64, int64)")
def ternary(a, b):
    return a if a > b else b


@case(gen=lambda rng: (I(rng), F(rng)))
def ternary_unify_int_float(a, x):
    return a if a > x else x


@case(gen=lambda rng: (I(rng), F(rng), B(rng)))
def join_unify(a, x, c):
    if c:
        r = a
    else:
        r = x
    return r


@case(gen=lambda rng: (I(rng, 0, 100),))
def grade(score):
    if score >= 90:
        g = 4
    elif score >= 80:
        g = 3
    elif score >= 70:
        g = 2
    elif score >= 60:
        g = 1
    else:
        g = 0
    return g


@case(gen=lambda rng: (I(rng, -10, 10), I(rng, -10, 10)))
def and_or_conditions(a, b):
    if a > 0 and b > 0:
        return 1
    if a < 0 or b < 0:
        return 2
    return 3


@case(gen=lambda rng: (I(rng, -10, 10),))
def not_condition(a):
    if not a > 0:
        return -a
    return a


@case(gen=lambda rng: (I(rng, -10, 10), I(rng, -10, 10), I(rng, -10, 10)))
def nested_if(a, b, c):
    if a > b:
        if b > c:
            return a - c
        else:
            if a > c:
                return a - b
            return c - b
    else:
        if a > c:
            return b - c
    return b + c


@case(gen=lambda rng: (I(rng, -10, 10), I(rng, -10, 10), I(rng, -10, 10)))
def median3(a, b, c):
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return b


@case(gen=lambda rng: (I(rng, -5, 5), I(rng, -5, 5)))
def chained_in_if(a, b):
    if -3 <= a < b <= 3:
        return a * b
    return 0


@case(gen=lambda rng: (F(rng, -2.0, 2.0),), sig="float64(float64)")
def piecewise(x):
    if x < -1.0:
        y = -1.0
    elif x > 1.0:
        y = 1.0
    else:
        y = x * x * x
    return y


@case(gen=lambda rng: (I(rng, -10, 10), B(rng)))
def bool_param(a, flag):
    return a * 2 if flag else a - 1


@case(gen=lambda rng: (I(rng, -10, 10),))
def nested_ternary(a):
    return -1 if a < 0 else (0 if a == 0 else 1)


@case(gen=lambda rng: (I(rng, -10, 10), I(rng, -10, 10)))
def short_circuit_value(a, b):
    return (a > 0 and b) or (a < 0 and -b) or 99


@case(gen=lambda rng: (I(rng, -10, 10), F(rng, -10, 10)))
def mixed_compare(a, x):
    return a < x, a == int(x), float(a) >= x


@case(gen=lambda rng: (I(rng, 0, 30),))
def fizzbuzz_code(n):
    if n % 15 == 0:
        return 15
    if n % 5 == 0:
        return 5
    if n % 3 == 0:
        return 3
    return n


@case(gen=lambda rng: (F(rng, -5, 5), F(rng, -5, 5)), sig="int64(float64, float64)")
def quadrant(x, y):
    if x >= 0.0:
        if y >= 0.0:
            return 1
        return 4
    if y >= 0.0:
        return 2
    return 3


@case(gen=lambda rng: (I(rng, -10, 10), I(rng, -10, 10)))
def if_without_else_rebind(a, b):
    r = a
    if b > a:
        r = b * 2
    return r


@case(gen=lambda rng: (F(rng), B(rng)))
def join_float_bool(x, c):
    if c:
        y = x
    else:
        y = 0
    return y


@case(gen=lambda rng: (I(rng), I(rng)))
def is_none_prune(a, b):
    v = None
    if v is None:
        return a + b
    return a - b


@case(gen=lambda rng: (I(rng, -3, 3),))
def walrus_free_multi_return(a):
    if a == -3:
        return 30
    if a == -2:
        return 20
    if a == -1:
        return 10
    if a == 0:
        return 0
    return -a


@case(gen=lambda rng: (F(rng, -3, 3), F(rng, -3, 3)))
def max_by_compare(a, b):
    m = a
    if b > m:
        m = b
    return m


@case(gen=lambda rng: (I(rng, 0, 2), I(rng, 0, 2), I(rng, 0, 2)))
def truth_table(p, q, r):
    return (p and q) or (not r), p or (q and r)
