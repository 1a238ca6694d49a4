"""Closures over constants and module globals that are constants (numbers, tuples, arrays)."""
import numpy as np

from . import F, I, case

SCALE = 3
OFFSET = 2.5
PAIR = (4, 5)
FLAG = True
TABLE = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
ITABLE = np.arange(12, dtype=np.int32).reshape(3, 4)
BIG = 10**12
CPLX = 1.5 - 2j


@case(gen=lambda rng: (I(rng),))
def global_int(a):
    return a * SCALE


@case(gen=lambda rng: (F(rng),))
def global_float(x):
    return x + OFFSET


@case(gen=lambda rng: (I(rng),))
def global_tuple(a):
    return a * PAIR[0] + PAIR[1]


@case(gen=lambda rng: (I(rng),))
def global_bool(a):
    if FLAG:
        return a
    return -a


@case(gen=lambda rng: (I(rng, 0, 5),))
def global_array_index(i):
    return TABLE[i] * 2.0


@case(gen=lambda rng: (I(rng, -5, 0),))
def global_array_negative_index(i):
    return TABLE[i]


@case(gen=lambda rng: (I(rng, 0, 3), I(rng, 0, 4)))
def global_2d_array(i, j):
    return ITABLE[i, j] + ITABLE.shape[0]


@case(gen=lambda rng: (I(rng, 0, 10),))
def global_array_sum(n):
    s = 0.0
    for v in TABLE:
        s += v
    return s + n


@case(gen=lambda rng: (I(rng),))
def global_big_int(a):
    return a + BIG


@case(gen=lambda rng: (F(rng),))
def global_complex(x):
    return CPLX * x


def make_adder(k):
    def add(x):
        return x + k
    return add


def make_poly(a, b, c):
    def poly(x):
        return (a * x + b) * x + c
    return poly


def make_counter_fn(limit):
    def count(n):
        s = 0
        for i in range(n):
            if i >= limit:
                break
            s += i
        return s
    return count


def make_tuple_closure(t):
    def first_plus(x):
        return t[0] + x * t[1]
    return first_plus


def make_array_closure(arr):
    def lookup(i):
        return arr[i % arr.shape[0]]
    return lookup


case(gen=lambda rng: (I(rng),), name="closure_int")(make_adder(7))
case(gen=lambda rng: (F(rng),), name="closure_float")(make_adder(0.25))
case(gen=lambda rng: (F(rng, -3, 3),), name="closure_poly")(make_poly(1.5, -2.0, 0.5))
case(gen=lambda rng: (I(rng, 0, 50),), name="closure_limit")(make_counter_fn(17))
case(gen=lambda rng: (I(rng),), name="closure_tuple")(make_tuple_closure((3, 4)))
case(gen=lambda rng: (I(rng, 0, 100),), name="closure_array")(
    make_array_closure(np.array([5, 7, 11, 13], dtype=np.int64)))


@case(gen=lambda rng: (F(rng),), scope="beyond")
def inner_function_call(x):
    def double(y):
        return 2 * y
    return double(x) + 1


@case(gen=lambda rng: (I(rng, 0, 20),), scope="beyond")
def inner_closure_over_arg(n):
    k = n * 2

    def addk(y):
        return y + k
    return addk(3)


@case(gen=lambda rng: (I(rng, 0, 5),))
def global_constant_folding(i):
    return TABLE[i] + SCALE * OFFSET
