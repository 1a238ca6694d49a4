"""Inner functions and lambdas called in the body (frontend/build_closure.c): inlined at each
call as numba inlines closures, differential against CPython. Closures read and write the
enclosing function's variables where they live (a later assignment is seen, nonlocal writes
back), defaults and keyword arguments bind as Python binds them; what is not compiled (a
function used as a value, recursion, generators, two functions in one local) is a clear
UnsupportedError."""
import numpy as np
import pytest

import cujit
from cujit.errors import UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def lambda_twice(x):
    g = lambda y: y + 1  # noqa: E731
    return g(x) * g(2)


def defaults_and_keywords(x, a):
    def inner(y, k=3):
        return y * a + k
    return inner(x) + inner(x, 10) + inner(k=1, y=2)


def called_in_a_loop(n):
    s = 0

    def add(v):
        return v * v
    for i in range(n):
        s += add(i)
    return s


def nonlocal_write(x):
    c = 1

    def bump():
        nonlocal c
        c += x
        return c
    bump()
    bump()
    return c


def late_binding(x):
    a = 5
    g = lambda: a + x  # noqa: E731
    a = 7
    return g()


def nested_inner(x):
    def outer(y):
        def inner(z):
            return z + y
        return inner(y) * 2
    return outer(x)


def several_returns(x):
    def sign(v):
        if v < 0:
            return -1
        elif v == 0:
            return 0
        return 1
    return sign(x) + sign(-x) * 10


def over_arrays(arr):
    scale = 2.5
    f = lambda v: v * scale  # noqa: E731
    out = np.empty_like(arr)
    for i in range(arr.size):
        out[i] = f(arr[i])
    return out


def returns_tuple(x):
    def split(v):
        return v // 3, v % 3
    q, r = split(x)
    return q * 10 + r


def raising_inside(x):
    def check(v):
        if v < 0:
            raise ValueError("negative")
        return v
    try:
        return check(x)
    except ValueError:
        return -1


def with_list(n):
    items = [-1]

    def push(v):
        items.append(v * 2)
    for i in range(n):
        push(i)
    return items


def comprehension_inside(n):
    def squares(m):
        return [i * i for i in range(m)]
    return sum(squares(n))


CASES = [
    (lambda_twice, [(3,), (-1,)]),
    (defaults_and_keywords, [(2, 4), (0, -3)]),
    (called_in_a_loop, [(0,), (5,)]),
    (nonlocal_write, [(3,)]),
    (late_binding, [(1,)]),
    (nested_inner, [(3,)]),
    (several_returns, [(-2,), (0,), (5,)]),
    (returns_tuple, [(17,)]),
    (raising_inside, [(-1,), (4,)]),
    (with_list, [(0,), (4,)]),
    (comprehension_inside, [(5,)]),
]


@pytest.mark.parametrize("fn, argsets", CASES, ids=[c[0].__name__ for c in CASES])
def test_matches_cpython(fn, argsets):
    jitted = cujit.njit(fn)
    for args in argsets:
        want, got = fn(*args), jitted(*args)
        assert got == want and type(got) is type(want), (fn.__name__, args, got, want)


def test_over_arrays():
    a = np.arange(5.0)
    assert np.array_equal(cujit.njit(over_arrays)(a), over_arrays(a))


def test_random_inputs_match():
    rng = np.random.default_rng(3)
    jitted = cujit.njit(defaults_and_keywords)
    for x, a in rng.integers(-50, 50, size=(20, 2)):
        assert jitted(int(x), int(a)) == defaults_and_keywords(int(x), int(a))


def returned(x):
    return lambda y: y


def aliased(x):
    g = lambda y: y  # noqa: E731
    h = g
    return h(x)


def recursive(x):
    def fact(n):
        return 1 if n <= 1 else n * fact(n - 1)
    return fact(x)


def two_functions(x):
    if x:
        g = lambda: 1  # noqa: E731
    else:
        g = lambda: 2  # noqa: E731
    return g()


def generator_inside(x):
    def gen():
        yield 1
    return x


def too_many(x):
    g = lambda y: y  # noqa: E731
    return g(1, 2)


@pytest.mark.parametrize("fn, words", [
    (returned, "inner functions or lambdas as values"),
    (aliased, "inner functions or lambdas as values"),
    (recursive, "recursion"),
    (two_functions, "'g' is assigned two different inner functions"),
    (generator_inside, "generators"),
    (too_many, "takes 1 positional arguments but 2 were given"),
])
def test_what_is_not_compiled_says_so(fn, words):
    with pytest.raises(UnsupportedError, match=words):
        cujit.njit(fn)(1)
