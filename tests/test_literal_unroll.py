"""literal_unroll over heterogeneous tuples (issue 13): the loop body compiled once per item, each
with that item's own type (ints, floats, bools, strings, arrays, tuples), numba's semantics: an
argument, a literal tuple, a tuple built in the body; continue, break, return inside, the loop
variable after the loop, two loops in a row, one inside a range loop, try/except inside, an
empty tuple. Compared with CPython on random inputs, exact types, the allocator balanced (the
CUDA version: cuda_kernels/test_unroll_star_ptx.py); numba's refusals (nesting, not iterated) with its
texts."""

import numpy as np
import pytest

from cujit import literal_unroll, njit
from cujit.errors import TypingError, UnsupportedError
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def weighted(t, w):
    acc = 0.0
    k = 0
    for x in literal_unroll(t):
        k += 1
        acc += x * w * k
    return acc, k


def with_continue_and_break(t, stop):
    acc = 0.0
    seen = 0
    for x in literal_unroll(t):
        seen += 1
        if x < 0:
            continue
        if seen == stop:
            break
        acc += x
    return acc, seen


def first_over(t, bound):
    for x in literal_unroll(t):
        if x > bound:
            return x * 1.0
    return -1.0


def last_item(t):
    for x in literal_unroll(t):
        pass
    return x  # noqa: B023 (the loop variable after the loop: the last item)


def kinds(t):
    total = 0
    text = ""
    for x in literal_unroll(t):
        if isinstance(x, str):
            text += x
        elif isinstance(x, np.ndarray):
            total += int(x.sum())
        elif isinstance(x, tuple):
            total += len(x)
        else:
            total += x
    return total, text


def literal_tuple(n):
    s = ""
    for x in literal_unroll((1, "ab", 2.5, (3, "c"), True)):
        s += str(n) if isinstance(x, str) else "."
    return s


def built_in_body(a, b, name):
    t = (a, name, b * 2, (a, b))
    out = 0.0
    for x in literal_unroll(t):
        if isinstance(x, str):
            out += len(x)
        elif isinstance(x, tuple):
            out += x[0] - x[1]
        else:
            out += x
    return out


def in_a_range_loop(t, n):
    s = 0.0
    for i in range(n):
        for x in literal_unroll(t):
            s += x * i
    return s


def two_loops(t, u):
    s = ""
    for x in literal_unroll(t):
        s += str(int(x))
    for y in literal_unroll(u):
        s += y
    return s


def lengths_or_hundred(t):
    c = 0
    for x in literal_unroll(t):
        try:
            if len(x) == 0:
                raise ValueError("empty")
            c += len(x)
        except ValueError:
            c += 100
    return c


def nothing_to_do():
    s = 0
    for x in literal_unroll(()):
        s += 1
    return s


def made_lists(t):
    out = []
    for x in literal_unroll(t):
        out.append(float(x) * 2)
    return out


JITTED = {f: njit(f) for f in (weighted, with_continue_and_break, first_over, last_item, kinds,
                               literal_tuple, built_in_body, in_a_range_loop, two_loops,
                               lengths_or_hundred, nothing_to_do, made_lists)}


def python_scalars(v):
    """NumPy's scalars as Python's: a float32 item computes in float64 in compiled code
    (numba's rule), in float32 under NEP 50."""
    if isinstance(v, tuple):
        return tuple(python_scalars(x) for x in v)
    return v.item() if isinstance(v, np.generic) else v


def check(f, *args, rel_tol=0.0):
    exact(JITTED[f](*args), python_scalars(f(*args)), rel_tol)


@pytest.mark.parametrize("seed", range(4))
def test_numbers_of_several_types(seed):
    rng = np.random.default_rng(seed)
    t = (int(rng.integers(-9, 9)), float(rng.normal()), bool(rng.integers(2)),
         np.float32(rng.normal()) if seed else 0.5)
    w = float(rng.normal())
    check(weighted, t, w, rel_tol=1e-6)
    check(with_continue_and_break, t, int(rng.integers(1, 5)), rel_tol=1e-6)
    check(first_over, t, float(rng.normal()), rel_tol=1e-6)
    check(in_a_range_loop, t[:2], int(rng.integers(0, 4)), rel_tol=1e-6)
    check(built_in_body, int(rng.integers(-5, 5)), float(rng.normal()), "x" * int(seed))


def test_item_types_of_every_kind():
    arr = np.arange(4.0)
    check(kinds, (3, "ab", arr, (1, 2.5), 2.5, "", True))
    check(last_item, (1, "a"))
    check(last_item, ("a", 2.5))
    check(literal_tuple, 7)
    check(two_loops, (1, 2.5, True), ("a", "bc"))
    check(made_lists, (1, True, 2.5, np.float32(0.5)))
    check(nothing_to_do)


def test_try_except_inside():
    check(lengths_or_hundred, ("ab", (1, 2, 3), "", np.zeros(2)))


def test_one_item_type_stays_the_plain_loop():
    check(weighted, (1.0, 2.0, 3.0), 0.5)
    check(weighted, (), 0.5)


def nested(t):
    s = 0
    for a in literal_unroll(t):
        for b in literal_unroll(t):
            s += 1
    return s


def not_iterated(t):
    u = literal_unroll(t)
    s = 0
    for a in u:
        s += 1
    return s


def unifies_after_break(t, n):
    for x in literal_unroll(t):
        if n == 0:
            break
    return x  # noqa: B023


@pytest.mark.parametrize("fn, args, exc, words", [
    (nested, ((1, "a"),), UnsupportedError, r"Nesting of literal_unroll is unsupported"),
    (not_iterated, ((1, "a"),), UnsupportedError, r"Invalid use of literal_unroll"),
    (unifies_after_break, ((1, "a"), 0), TypingError, r"(?i)unify"),
])
def test_what_is_not_compiled_says_so(fn, args, exc, words):
    with pytest.raises(exc, match=words):
        njit(fn)(*args)
