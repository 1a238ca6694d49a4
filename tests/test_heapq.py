"""heapq in compiled code (cujit.cpython.heapq, numba's overloads): each function against
CPython's on random lists, the heap left in the same order, exact types; numba's typing
errors; compiled allocations freed."""
import heapq
import random

import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError

from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def ops(h, item, n):
    heapq.heapify(h)
    heapq.heappush(h, item)
    a = heapq.heappop(h)
    b = heapq.heapreplace(h, item)
    c = heapq.heappushpop(h, item)
    d = heapq.heappushpop(h, item - 100)
    return a, b, c, d, heapq.nsmallest(n, h), heapq.nlargest(n, h)


def select(n, items):
    return heapq.nsmallest(n, items), heapq.nlargest(n, items)


def drain(h):
    heapq.heapify(h)
    out = []
    while len(h) > 0:
        out.append(heapq.heappop(h))
    return out


ops_jit = njit(ops)
select_jit = njit(select)
drain_jit = njit(drain)


@pytest.mark.parametrize("seed", range(2))
def test_heap_operations_match_cpython(seed):
    rng = random.Random(seed)
    for n in (0, 1, 3, 20):
        items = [rng.randint(-50, 50) for _ in range(rng.randint(1, 15))]
        h1, h2 = list(items), list(items)
        exact(ops_jit(h1, 7, n), ops(h2, 7, n))
        exact(h1, h2)  # the heap itself, item by item
    floats = [rng.uniform(-1, 1) for _ in range(12)]
    h1, h2 = list(floats), list(floats)
    exact(ops_jit(h1, 0.5, 4), ops(h2, 0.5, 4))
    exact(h1, h2)


def test_drain_sorts_and_tuples_keep_cpython_order():
    rng = random.Random(9)
    items = [rng.randint(0, 9) for _ in range(30)]
    exact(drain_jit(list(items)), sorted(items))
    pairs = [(rng.randint(0, 3), rng.randint(0, 3)) for _ in range(12)]
    exact(drain_jit(list(pairs)), drain(list(pairs)))


def test_nsmallest_nlargest_of_arrays_tuples_and_ties():
    a = np.array([5, 1, 4, 1, 5, 9, 2, 6], dtype=np.int64)
    got = select_jit(3, a)
    want = select(3, [int(v) for v in a])
    exact([[int(v) for v in got[0]], [int(v) for v in got[1]]], [want[0], want[1]])
    exact(select_jit(2, (3.0, -1.0, 2.0)), select(2, (3.0, -1.0, 2.0)))
    ties = [(1, 2), (1, 1), (0, 5), (1, 2)]
    for n in (0, 1, 2, 4, 9):
        exact(select_jit(n, ties), select(n, ties))


def pop_twice(x):
    h = [x]
    heapq.heappop(h)
    return heapq.heappop(h)


def test_empty_heap_pop_raises_index_error_as_cpython():
    with pytest.raises(IndexError):
        pop_twice(1)
    with pytest.raises(IndexError):
        njit(pop_twice)(1)


@pytest.mark.parametrize("call, text", [
    (lambda: njit(lambda: heapq.heapify((1, 2)))(), "heap argument must be a list"),
    (lambda: njit(lambda: heapq.heapify([1j, 2j]))(), "'<' not supported between instances "
                                                       "of 'complex' and 'complex'"),
    (lambda: njit(lambda: heapq.heappush([1, 2], 1.5))(), "heap type must be the same as "
                                                          "item type"),
    (lambda: njit(lambda: heapq.nsmallest(1.5, [1, 2]))(), "First argument 'n' must be an "
                                                           "integer"),
    (lambda: njit(lambda: heapq.nlargest(1, {1: 2}))(), "Second argument 'iterable' must be "
                                                        "iterable"),
])
def test_numba_typing_errors(call, text):
    with pytest.raises(TypingError, match=text.replace("(", r"\(").replace(")", r"\)")):
        call()
