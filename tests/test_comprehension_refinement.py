"""Containers refined inside comprehensions and what reaches them (issue 13): a list literal
appended by a comprehension (typing/lists.c waits for the append's method, worklist.c wakes it),
d[k] = v waiting for v's refinement (typing/dicts.c), a generator frame holding a reflected list
(typing/generators.c), 3.11's nested comprehension code and lambdas held in cells
(frontend/build_inline.c, build_closure.c). Differential against CPython, exact types; every
test proves with the NRT counters that compiled code freed what it allocated."""
import sys

import pytest

import cujit
from cujit.errors import TypingError, UnsupportedError
from cujit.extending import register_jitable
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")


@register_jitable
def _gen_pairs(a):
    for i in range(len(a) - 1):
        yield a[i], a[i + 1]


@register_jitable
def _gen_grow(a):
    a.append(len(a))  # the frame's list is the caller's compiled list
    for x in a:
        yield x


def pairs_of(a):
    return list(_gen_pairs(a))


def grow_then_read(a):
    return [x * 2 for x in _gen_grow(a)]


def rows_of_lists(a):
    rows = [[x, x + 1] for x in a]
    return [r[0] for r in rows], [sum(r) for r in rows], rows


def values_refined_late(n):
    lists = {i: [j for j in range(i)] for i in range(n)}
    sets = {i: {j % 2 for j in range(i)} for i in range(n)}
    dicts = {i: {j: float(j) for j in range(i)} for i in range(n)}
    return [lists[i] for i in range(n)], [len(sets[i]) for i in range(n)], \
        [[v for v in dicts[i].values()] for i in range(n)]


def comprehension_over_comprehensions(n):
    return sorted([(k, v) for k, v in {i: i * i for i in range(n)}.items()]), \
        [y + 1 for y in [x * 3 for x in [z for z in range(n)]]]


def lambdas_nested(a):
    inc = lambda v: v + 1  # noqa: E731
    sq = lambda v: v * v  # noqa: E731
    return [sq(inc(x)) for x in a], inc(inc(len(a)))


COMPILED = {f: cujit.njit(f) for f in (pairs_of, grow_then_read, rows_of_lists,
                                       values_refined_late, comprehension_over_comprehensions,
                                       lambdas_nested)}


@pytest.mark.parametrize("fn, args", [
    (pairs_of, ([3, -1, 4, 1],)),
    (pairs_of, ([7],)),
    (grow_then_read, ([5, 6],)),
    (rows_of_lists, ([1, -2, 3],)),
    (values_refined_late, (4,)),
    (comprehension_over_comprehensions, (5,)),
    (lambdas_nested, ([2, -3],)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_against_cpython(fn, args):
    py_args = [list(a) if isinstance(a, list) else a for a in args]
    jit_args = [list(a) if isinstance(a, list) else a for a in args]
    exact(COMPILED[fn](*jit_args), fn(*py_args))
    exact(jit_args, py_args)  # the generator's append reflected into the caller's list


def test_generator_called_from_python_holds_its_list():
    @cujit.njit
    def gen(a):
        a.append(9)
        for i in range(len(a) - 1):
            yield a[i], a[i + 1]
    a = [1, 2, 3]
    g = gen(a)
    a.append(4)  # the frame holds the list as unboxed at the call (numba's too)
    exact(list(g), [(1, 2), (2, 3), (3, 9)])
    exact(a, [1, 2, 3, 4])


def test_lists_of_arrays_stay_refused_in_a_generator():
    np = pytest.importorskip("numpy")

    @cujit.njit
    def gen(a):
        for x in a:
            yield x.sum()
    with pytest.raises(UnsupportedError, match=r"reflected list\(array"):
        list(gen([np.zeros(2)]))


def _refused(src, args, exc, words):
    ns = {}
    exec(src, ns)
    with pytest.raises(exc, match=words):
        cujit.njit(ns["f"])(*args)


def test_what_is_not_compiled_says_so():
    _refused("def f(a):\n    sq = lambda v: v\n    r = [sq(x) for x in a]\n    sq = 2\n"
             "    return r\n", ([1],), UnsupportedError, "holds an inner function and other")
    two = ("def f(a, c):\n    g = lambda v: v\n    h = lambda v: -v\n"
           "    return (g if c else h)(a)\n")
    if sys.version_info < (3, 12):  # two functions meet at a block's entry
        _refused(two, (1, True), UnsupportedError, "lambdas as values")
    else:  # 3.12 copies the call into each branch
        ns = {}
        exec(two, ns)
        assert (cujit.njit(ns["f"])(2, True), cujit.njit(ns["f"])(2, False)) == (2, -2)
    _refused("def f(n):\n    d = {i: [] for i in range(n)}\n    return len(d)\n", (3,),
             TypingError, "Cannot infer the type of variable")


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12 inlines comprehensions")
def test_recursive_inner_function_read_from_a_cell_is_refused():
    _refused("def f(x):\n    def g(y):\n        return g(y - 1) if y else 0\n"
             "    return [g(v) for v in range(x)]\n", (2,), UnsupportedError, "recursion")


def test_displays_wait_for_comprehensions_inside_them():
    # 3.12 inlines the comprehensions: the display was typed before their lists were refined
    @cujit.njit
    def f(a):
        d = {1: [x for x in a], 2: [y * 2 for y in a]}
        return d[1], d[2], ([x for x in a], [-x for x in a])
    exact(f([1, 2]), ([1, 2], [2, 4], ([1, 2], [-1, -2])))
