"""Integer arithmetic, bitwise operators and comparisons (int64 range kept small: no overflow)."""
from . import I, NZ, B, case


def ii(rng):
    return I(rng), I(rng)


def inz(rng):
    return I(rng, -1000, 1000), NZ(rng, -50, 50)


@case(gen=ii, sig="int64(int64, int64)")
def add(a, b):
    return a + b


@case(gen=ii, sig="int64(int64, int64)")
def sub(a, b):
    return a - b


@case(gen=ii, sig="int64(int64, int64)")
def mul(a, b):
    return a * b


@case(gen=inz, sig="float64(int64, int64)")
def truediv(a, b):
    return a / b


@case(gen=inz, sig="int64(int64, int64)")
def floordiv(a, b):
    return a // b


@case(gen=inz, sig="int64(int64, int64)")
def mod(a, b):
    return a % b


@case(gen=inz)
def floordiv_mod_identity(a, b):
    return (a // b) * b + a % b == a


@case(gen=lambda rng: (I(rng, -6, 7), I(rng, 0, 12)))
def pow_nonneg(a, b):
    return a ** b


@case(gen=lambda rng: I(rng, -1000, 1000))
def square_const_pow(a):
    return a ** 2


@case(gen=lambda rng: I(rng, -100, 100))
def cube_const_pow(a):
    return a ** 3


@case(gen=ii)
def neg(a, b):
    return -a + (-b)


@case(gen=ii)
def pos(a, b):
    return +a - +b


@case(gen=ii, sig="int64(int64, int64)")
def bit_and(a, b):
    return a & b


@case(gen=ii, sig="int64(int64, int64)")
def bit_or(a, b):
    return a | b


@case(gen=ii)
def bit_xor(a, b):
    return a ^ b


@case(gen=lambda rng: I(rng, -1000, 1000), sig="int64(int64)")
def invert(a):
    return ~a


@case(gen=lambda rng: (I(rng, -1000, 1000), I(rng, 0, 40)))
def lshift(a, b):
    return a << b


@case(gen=lambda rng: (I(rng, -10**6, 10**6), I(rng, 0, 40)))
def rshift(a, b):
    return a >> b


@case(gen=ii)
def compare_all(a, b):
    return (a < b, a <= b, a == b, a != b, a > b, a >= b)


@case(gen=lambda rng: (I(rng, -5, 5), I(rng, -5, 5), I(rng, -5, 5)))
def chained_compare(a, b, c):
    return a < b < c


@case(gen=lambda rng: (I(rng, -5, 5), I(rng, -5, 5), I(rng, -5, 5)))
def chained_compare_mixed(a, b, c):
    return a <= b != c


@case(gen=ii)
def augmented(a, b):
    x = a
    x += b
    x -= 3
    x *= 2
    x //= 3
    x %= 97
    x |= 4
    x &= 255
    x ^= 17
    x <<= 2
    x >>= 1
    return x


@case(gen=ii, sig="int64(int64, int64)")
def poly(a, b):
    return 3 * a * a - 2 * a * b + 7 * b - 11


@case(gen=ii)
def bool_arith(a, b):
    return (a > b) + (a < b) * 2 + (a == b) * 4


@case(gen=lambda rng: (B(rng), B(rng)))
def bool_ops(p, q):
    return (p and q, p or q, not p, p ^ q, p & q, p | q)


@case(gen=lambda rng: (B(rng), B(rng)))
def bool_add(p, q):
    return p + q


@case(gen=lambda rng: (B(rng), I(rng)))
def bool_times_int(p, a):
    return p * a - a


@case(gen=lambda rng: (B(rng),))
def bool_neg(p):
    return -p


@case(gen=ii)
def and_or_values(a, b):
    return (a and b) + (a or b)


@case(gen=ii)
def not_int(a, b):
    return not a, not (a - b)


@case(gen=inz)
def floordiv_negative_mix(a, b):
    return (-a) // b, a // (-b), (-a) % b, a % (-b)


@case(gen=lambda rng: (I(rng, 0, 10**9), NZ(rng, 1, 10**4)))
def big_floordiv(a, b):
    return a // b + a % b


@case(gen=lambda rng: (I(rng, -10**9, 10**9),))
def int_literal_mix(a):
    return a * 1000003 + 12345678901 - (a >> 3)


@case(gen=ii)
def abs_diff(a, b):
    d = a - b
    if d < 0:
        d = -d
    return d


@case(gen=lambda rng: (I(rng, 1, 10**6), I(rng, 1, 10**6)))
def gcd_loop(a, b):
    while b:
        a, b = b, a % b
    return a


@case(gen=lambda rng: (I(rng, 0, 10**9),))
def popcount(a):
    c = 0
    while a:
        c += a & 1
        a >>= 1
    return c


@case(gen=lambda rng: (I(rng, -10**6, 10**6), I(rng, -10**6, 10**6)))
def sign_of_product(a, b):
    p = a * b
    return (p > 0) - (p < 0)
