"""Tuples: build, unpack, constant index, return, swap, heterogeneous tuples, len."""
from . import B, C, F, I, case


@case(gen=lambda rng: (I(rng), I(rng)), sig="UniTuple(int64, 2)(int64, int64)")
def swap(a, b):
    a, b = b, a
    return a, b


@case(gen=lambda rng: (I(rng), F(rng)))
def hetero(a, x):
    return a, x, a + x


@case(gen=lambda rng: ((I(rng), I(rng), I(rng)),))
def tuple_arg_sum(t):
    return t[0] + t[1] + t[2]


@case(gen=lambda rng: ((I(rng), F(rng)),))
def tuple_arg_hetero(t):
    a, x = t
    return x * a


@case(gen=lambda rng: ((I(rng), I(rng), I(rng), I(rng)),))
def negative_const_index(t):
    return t[-1] - t[-4]


@case(gen=lambda rng: (I(rng), I(rng), I(rng)))
def rotate(a, b, c):
    a, b, c = b, c, a
    return a, b, c


@case(gen=lambda rng: (I(rng), I(rng)))
def nested_tuple(a, b):
    t = ((a, b), (b, a))
    (p, q), (r, s) = t
    return p * s - q * r, t


@case(gen=lambda rng: ((I(rng), I(rng)), (F(rng), F(rng))))
def two_tuple_args(t, u):
    return t[0] * u[1] + t[1] * u[0]


@case(gen=lambda rng: ((I(rng), I(rng), I(rng)),))
def tuple_len(t):
    return len(t)


@case(gen=lambda rng: ((I(rng), I(rng), I(rng)),))
def iterate_tuple(t):
    m = t[0]
    for v in t:
        if v > m:
            m = v
    return m


@case(gen=lambda rng: (I(rng, -3, 3), I(rng, -3, 3)))
def tuple_equal(a, b):
    return (a, b) == (b, a), (a, 1) != (b, 1)


@case(gen=lambda rng: (I(rng), I(rng)), scope="beyond")
def tuple_compare(a, b):
    return (a, b) == (b, a), (a, 1) < (b, 2)


@case(gen=lambda rng: (I(rng), I(rng)))
def tuple_concat(a, b):
    t = (a, b) + (a - b,)
    return t


@case(gen=lambda rng: (F(rng), B(rng), C(rng)))
def mixed_kinds(x, p, z):
    return (p, x, z), z.real


@case(gen=lambda rng: (I(rng, 0, 20),))
def tuple_in_loop(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) % 1000
    return a, b


@case(gen=lambda rng: (I(rng), I(rng)))
def return_divmod_like(a, b):
    q = a // 7
    r = a % 7
    return (q, r), (b, q + r)


@case(gen=lambda rng: ((F(rng), F(rng)), F(rng)))
def tuple_scale(v, k):
    return (v[0] * k, v[1] * k)


@case(gen=lambda rng: ((I(rng), I(rng), I(rng)),), scope="beyond")
def tuple_slice_static(t):
    return t[1:], t[:2]


@case(gen=lambda rng: (I(rng), I(rng)))
def tuple_bool(a, b):
    t = (a, b)
    return t[0] > t[1]


@case(gen=lambda rng: (I(rng), I(rng)))
def unpack_star_free(a, b):
    t = a, b, a * b
    x, y, z = t
    return z - x - y


@case(gen=lambda rng: ((I(rng), (F(rng), I(rng))),))
def nested_arg(t):
    return t[1][0] * t[0] + t[1][1]


@case(gen=lambda rng: (I(rng) % 3, I(rng) % 3, I(rng) % 3, I(rng) % 3))
def tuple_ordering(a, b, c, d):
    # lexicographic: the first unequal pair decides (small values, so ties are common)
    return ((a, b) < (c, d), (a, b) <= (c, d), (a, b) > (c, d), (a, b) >= (c, d),
            (a, b, c) < (a, b), (a,) <= (a, d), (a, (b, c)) > (a, (c, b)))


@case(gen=lambda rng: (F(rng), I(rng) % 2, F(rng)))
def tuple_ordering_mixed(x, k, y):
    # mixed item types promote pairwise, as each item comparison does
    return (x, k) < (y, k), (k, x) >= (k, y), (k, x) < (True, y)
