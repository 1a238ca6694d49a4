"""iter(), next(it, default), map() and filter() in compiled code (cujit.cpython.iterators:
jitted generators, as numba compiles map and filter): iterators held in variables, advanced
by next() and handed to for-loops, list(), sum(), min/max, sorted and other functions;
differential against CPython with random and empty inputs, exact types, numba's errors,
compiled allocations freed."""
import random

import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError
from cujit.typed import Dict

from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")


@njit
def square(x):
    return x * x


@njit
def add3(x, y, z):
    return x + y + z


def first_of(it):
    return next(it)


def advance(lst, n, take):
    it = iter(lst)
    a = next(it)
    b = take(it)  # the callee advances the caller's iterator, as in CPython
    alias = it
    c = next(alias, -1)
    rest = 0
    for v in it:
        rest += v
    return a, b, c, rest, next(it, -1), next(it, n)


def containers(s, t, r, f):
    chars = iter(s)
    c0 = next(chars, "?")
    items = iter(t)
    t0 = next(items)
    steps = iter(range(r))
    next(steps, 0)
    arr = iter(f)
    return c0, list(chars), t0, list(items), sum(steps), next(arr), list(arr)


def keys_and_sets(d, s):
    keys = iter(d)
    k0 = next(keys)
    members = iter(s)
    m0 = next(members)
    return k0, sorted(keys), m0 + sum(members)


def exhausted(lst):
    it = iter(lst)
    while True:
        next(it)


def next_none(lst, k):
    it = iter(lst[k:])
    return next(it, None)


def maps(lst, flst, n):
    lst, flst = lst[:n], flst[:n - 1]  # reflected lists passed are not empty: numba's rule
    def shift(v):
        return v + 3
    doubled = list(map(lambda v: v * 2, lst))
    total = sum(map(square, lst))
    shifted = sorted(map(shift, lst))
    pairs = list(map(lambda a, b: a * b, lst, flst))  # stops at the shorter
    triples = list(map(add3, lst, flst, lst))
    return doubled, total, shifted, pairs, triples


def map_min_max(lst):
    return min(map(lambda v: -v, lst)), max(map(square, lst))


def filters(lst, s, n):
    lst = lst[:n]
    def big(v):
        return v > 2
    kept = list(filter(big, lst))
    odd = sum(filter(lambda v: v % 2, lst))
    truthy = list(filter(None, lst))
    chars = list(filter(None, s))
    upper = sorted(filter(lambda c: c != " ", s))
    return kept, odd, truthy, chars, upper


def chained(lst, n):
    lst = lst[:n]
    it = filter(lambda v: v % 3 != 0, map(square, lst))
    head = next(it, -1)
    return head, list(it), next(it, -1)


advance_jit, containers_jit = njit(advance), njit(containers)
keys_and_sets_jit, exhausted_jit, next_none_jit = njit(keys_and_sets), njit(exhausted), \
    njit(next_none)
maps_jit, map_min_max_jit = njit(maps), njit(map_min_max)
filters_jit, chained_jit = njit(filters), njit(chained)


def _ints(rng, n):
    return [rng.randint(-5, 9) for _ in range(n)]


@pytest.mark.parametrize("n", [2, 3, 8])
def test_iterator_in_a_variable_is_shared_and_advanced(n):
    lst = _ints(random.Random(n), n)
    exact(advance_jit(lst, n, njit(first_of)), advance(lst, n, first_of))


def test_iter_of_strings_tuples_ranges_arrays():
    f = np.array([0.5, 1.5, -2.0])
    want = ("a", ["b", "c"], 4, [5, 6], 10, 0.5, [1.5, -2.0])
    exact(containers("abc", (4, 5, 6), 5, f.tolist()), want)
    exact(containers_jit("abc", (4, 5, 6), 5, f), want)
    exact(containers_jit("", (4,), 0, f[:1]), ("?", [], 4, [], 0, 0.5, []))


def test_iter_of_dict_keys_and_sets():
    d = Dict()
    for k in (7, 3, 9):
        d[k] = k * 0.5
    exact(keys_and_sets_jit(d, {4, 8}), keys_and_sets({7: 0, 3: 0, 9: 0}, {4, 8}))


def test_next_of_an_exhausted_iterator_raises_stop_iteration():
    with pytest.raises(StopIteration):
        exhausted_jit([1, 2])
    with pytest.raises(StopIteration):
        exhausted([1, 2])
    exact(next_none_jit([4], 0), 4)
    exact(next_none_jit([4], 1), None)


def test_iter_of_a_generator_is_the_generator():
    @njit
    def gen(n):
        for i in range(n):
            yield i

    @njit
    def f(n):
        g = gen(n)
        it = iter(g)
        next(it)
        return next(g), list(it)
    exact(f(4), (1, [2, 3]))


@pytest.mark.parametrize("n", [0, 1, 6])
def test_map_matches_cpython(n):
    rng = random.Random(n)
    lst, flst = _ints(rng, n + 1), [rng.uniform(-2, 2) for _ in range(n + 1)]
    exact(maps_jit(lst, flst, n), maps(lst, flst, n))
    if n:
        exact(map_min_max_jit(lst), map_min_max(lst))


@pytest.mark.parametrize("n", [0, 1, 9])
def test_filter_matches_cpython(n):
    rng = random.Random(10 + n)
    lst = _ints(rng, n + 1)
    s = "".join(rng.choice("ab ") for _ in range(n))
    exact(filters_jit(lst, s, n), filters(lst, s, n))
    exact(chained_jit(lst, n), chained(lst, n))


def test_map_of_a_non_iterable_has_no_implementation():
    with pytest.raises(TypingError, match=r"No implementation of function Function\(<class "
                                          r"'map'>\)"):
        njit(lambda n: list(map(square, n)))(3)
    with pytest.raises(TypingError, match=r"No implementation of function Function\(<class "
                                          r"'filter'>\)"):
        njit(lambda n: list(filter(None, n)))(3)
    with pytest.raises(TypingError, match=r"No implementation of function Function\(<built-in "
                                          r"function iter>\)"):
        njit(lambda n: next(iter(n)))(3)


def test_map_of_a_non_function_is_a_typing_error():
    with pytest.raises(TypingError, match="object of type int64 is not callable"):
        njit(lambda n, lst: list(map(n, lst)))(3, [1])
