"""Sets in compiled code (issue 13, sets; numba's set semantics): a set is abi/dict.c's table of
keys with no values (abi/set.c adds the algebra), hashed by abi/hash.c. Displays, set() refined
by its first add, set(iterable), comprehensions, every method, the operators and comparisons,
iteration, sets of ints, floats (NaN, -0.0), bools, tuples and strings beyond ASCII, Python
sets passed in (reflected: changes reach the caller) and returned, and numba's errors.
Differential against CPython on seeded random operations; exact result types; every test
proves with the NRT counters that each allocation is freed."""
import math

import numpy as np
import pytest

from cujit import njit, typeof, types
from cujit.errors import TypingError
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

RNG = np.random.default_rng(1313)




def same_floats(got, want):
    """Two collections of floats equal as multisets (NaN counted, zeros' signs compared)."""
    nan = [x for x in want if x != x]
    assert len([x for x in got if x != x]) == len(nan), (got, want)
    exact(sorted(float(x) for x in got if x == x), sorted(float(x) for x in want if x == x))


# ---- random operations, differential against CPython ----

def run_ops(ops, vals):
    """Each op on one set; what each returns, then the final elements."""
    s = {vals[0]}
    s.discard(vals[0])
    out = []
    for i in range(len(ops)):
        op, v = ops[i], vals[i]
        if op == 0 or op == 1:
            s.add(v)
        elif op == 2:
            s.discard(v)
        elif op == 3:
            if v in s:
                s.remove(v)
                out.append(1)
        elif op == 4:
            out.append(1 if v not in s else 0)
        elif op == 5:
            out.append(len(s))
        elif op == 6 and len(s) > 0:
            x = s.pop()
            out.append(1 if x in s else 0)
            s.add(x)
        elif op == 7 and i % 97 == 0:
            s.clear()
    return out, list(s)


run_ops_jit = njit(run_ops)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_int_ops(seed):
    rng = np.random.default_rng(seed)
    ops = rng.integers(0, 8, 600)
    vals = rng.integers(-40, 40 + 200 * seed, 600)  # growth past several resizes, reinsertion
    got_out, got = run_ops_jit(ops, vals)
    want_out, want = run_ops(ops, vals)
    exact(got_out, want_out)
    exact(sorted(got), sorted(int(x) for x in want))


def test_random_float_ops_nan_and_signed_zero():
    rng = np.random.default_rng(7)
    vals = rng.choice(np.array([0.0, -0.0, np.nan, 1.5, -2.25, 1e300, np.inf]), 300)
    ops = rng.integers(0, 8, 300)
    got_out, got = run_ops_jit(ops, vals)
    want_out, want = run_ops(ops, vals)  # numpy scalars: every NaN a new object, as ours
    exact(got_out, want_out)
    same_floats(got, want)


def algebra(a, b):
    x, y = set(a), set(b)
    return (sorted(x | y), sorted(x & y), sorted(x - y), sorted(x ^ y), x == y, x != y,
            x <= y, x < y, x >= y, x > y, x.issubset(y), x.issuperset(y), x.isdisjoint(y),
            len(x), len(y))


algebra_jit = njit(algebra)


@pytest.mark.parametrize("n,hi", [(0, 5), (3, 4), (30, 20), (200, 150), (1, 1)])
def test_algebra_random(n, hi):
    a = RNG.integers(0, hi, n)
    b = RNG.integers(0, hi, RNG.integers(0, n + 2))
    exact(algebra_jit(a, b), algebra(a.tolist(), b.tolist()))
    exact(algebra_jit(a, a), algebra(a.tolist(), a.tolist()))


def methods(a, b):
    x, y = set(a), set(b)
    u = x.union(y, [100, 101])
    i = x.intersection(y)
    d = x.difference(y, (0, 1))
    s = x.symmetric_difference(y)
    c = x.copy()
    c.update(range(3), y)
    iu = set(a)
    iu.intersection_update(b)
    du = set(a)
    du.difference_update(y)
    su = set(a)
    su.symmetric_difference_update(b)
    return sorted(u), sorted(i), sorted(d), sorted(s), sorted(c), sorted(iu), sorted(du), \
        sorted(su), sorted(x)


methods_jit = njit(methods)


@pytest.mark.parametrize("seed", [3, 4])
def test_methods_random(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 12, 15), rng.integers(0, 12, 9)
    exact(methods_jit(a, b), methods(a.tolist(), b.tolist()))


def inplace_ops(a, b):
    x, y = set(a), set(b)
    alias = x
    x |= y
    r1 = sorted(alias)
    x &= {1, 2, 3, 4, 5}
    r2 = sorted(alias)
    x -= {1}
    r3 = sorted(alias)
    x ^= y
    return r1, r2, r3, sorted(alias), sorted(x)


inplace_jit = njit(inplace_ops)


def test_inplace_operators_keep_identity():
    a, b = np.arange(4), np.arange(2, 9)
    exact(inplace_jit(a, b), inplace_ops(a.tolist(), b.tolist()))


# ---- construction ----

@njit
def displays():
    return {3, 1, 3, 2}, {1.5, -0.0, 0.0}, {True, False, True}, {(1, 2.5), (1, 2.5), (3, 4.0)}


def test_displays_exact_types():
    ints, floats, bools, tuples = displays()
    exact(ints, {1, 2, 3})
    assert len(floats) == 2 and math.copysign(1, min(floats)) == -1.0  # -0.0 came first
    exact(bools, {True, False})
    exact(tuples, {(1, 2.5), (3, 4.0)})


@njit
def mixed_display(x):
    return {1, x, 3}


def test_display_unifies_to_float():
    exact(mixed_display(2.5), {1.0, 2.5, 3.0})


@njit
def from_iterables(n, a, t):
    e = set()
    e.update(a)
    e.clear()
    return set(range(n)), set(a), set(t), set([n, n, 1]), e


def test_set_of_iterables():
    a = np.array([1.5, 1.5, -2.0])
    r = from_iterables(5, np.array([1.5, -2.0]), (7, 7, 8))
    exact(r[:4], ({0, 1, 2, 3, 4}, {1.5, -2.0}, {7, 8}, {5, 1}))
    assert r[4] == set() and type(r[4]) is set
    exact(from_iterables(0, a, (1,))[:2], (set(), {1.5, -2.0}))


@njit
def refined_by_add(n):
    s = set()
    for i in range(n):
        s.add(i * i % 7)
    return s


@njit
def refined_by_update(a):
    s = set()
    s.update(a)
    return s


def test_empty_set_refined():
    exact(refined_by_add(20), {i * i % 7 for i in range(20)})
    exact(refined_by_update(np.array([3, 1, 3])), {1, 3})


@njit
def comprehension(n):
    return {i % 5 for i in range(n)}, {i * 0.5 for i in range(n) if i % 2}


def test_comprehensions():
    exact(comprehension(12), ({i % 5 for i in range(12)}, {i * 0.5 for i in range(12) if i % 2}))


@njit
def growth(n):
    s = set()
    for i in range(n):
        s.add(i * 7919)
    for i in range(0, n, 2):
        s.remove(i * 7919)
    for i in range(0, n, 4):
        s.add(i * 7919)  # reinsertion after removal
    return len(s), (7919 * 4) in s, (7919 * 2) in s


def test_growth_past_resizes():
    n = 5000
    py = set(i * 7919 for i in range(n))
    py -= set(i * 7919 for i in range(0, n, 2))
    py |= set(i * 7919 for i in range(0, n, 4))
    exact(growth(n), (len(py), 7919 * 4 in py, 7919 * 2 in py))


# ---- strings ----

@njit
def strings(text):
    s = {"héllo", "日本", "a", "héllo"}
    s.add(text)
    chars = set(text)
    return s, chars, "日本" in s, "b" in s, sorted(chars)


def test_strings_beyond_ascii():
    text = "wörld 🎉 日本"
    exact(strings(text), ({"héllo", "日本", "a", text}, set(text), True, False,
                          sorted(set(text))))


@njit
def string_algebra(a, b):
    return set(a) & set(b), set(a) - set(b)


def test_string_sets_algebra():
    exact(string_algebra("ünïcödé", "cödex"), (set("ünïcödé") & set("cödex"),
                                               set("ünïcödé") - set("cödex")))


# ---- iteration, list(), sorted() ----

@njit
def iterate(a):
    s = set(a)
    total = 0
    for x in s:
        total += x
    return total, sorted(s), len(list(s)), sorted(s, reverse=True)


def test_iteration_list_sorted():
    a = np.array([5, 3, 5, 9, -1])
    exact(iterate(a), (16, [-1, 3, 5, 9], 4, [9, 5, 3, -1]))


@njit
def insertion_order():
    s = set()
    for x in (30, 10, 20, 10):
        s.add(x)
    return list(s)


def test_iteration_is_insertion_order():
    exact(insertion_order(), [30, 10, 20])  # cujit's documented order (docs/differences.md)


@njit
def mutate_while_iterating(s):
    for x in s:
        s.add(x + 100)


def test_changed_size_during_iteration():
    with pytest.raises(RuntimeError, match="Set changed size during iteration"):
        mutate_while_iterating({1, 2})


# ---- errors (numba's texts) ----

@njit
def remove_missing(x):
    s = {1, 2}
    s.remove(x)
    return s


@njit
def pop_empty():
    s = {1}
    s.pop()
    return s.pop()


def test_key_errors():
    with pytest.raises(KeyError, match=r"set.remove\(\): key not in set"):
        remove_missing(5)
    exact(remove_missing(2), {1})
    with pytest.raises(KeyError, match=r"set.pop\(\): empty set"):
        pop_empty()


def test_unhashable_and_mixed_elements():
    @njit
    def of_array(a):
        return {a}

    @njit
    def of_list():
        return {[1, 2]}

    @njit
    def mixed():
        return {1, "a"}

    @njit
    def add_bad():
        s = {1}
        s.add(2.5)
        return s

    with pytest.raises(TypingError, match="unhashable type: 'array"):
        of_array(np.zeros(2))
    with pytest.raises(TypingError, match="unhashable type: 'list"):
        of_list()
    with pytest.raises(TypingError, match="Cannot unify int64 and unicode_type"):
        mixed()
    widened = add_bad()  # numba unifies the adds: set(float64) (was a cast error)
    assert widened == {1.0, 2.5} and all(type(e) is float for e in widened)


def test_never_refined_and_bad_operators():
    @njit
    def never():
        s = set()
        return len(s)

    @njit
    def plus(a):
        return set(a) + set(a)

    @njit
    def too_many():
        return {1}.issubset({1}, {2})

    with pytest.raises(TypingError, match="Cannot infer the type of variable 's'"):
        never()
    with pytest.raises(TypingError, match="No implementation of function"):
        plus(np.arange(2))
    with pytest.raises(TypingError, match="issubset"):
        too_many()


# ---- sets passed from Python (reflected) and returned ----

@njit
def reflect_add(s, x):
    s.add(x)
    s.discard(-1)
    return len(s)


@njit
def reflect_return(s):
    s |= {42}
    return s


@njit
def reflect_read(s):
    return 3 in s


@njit
def reflect_read_tuples(s):
    return (1, 2.5) in s, (3, 2.5) in s


def test_reflected_set_changes_reach_caller():
    s = {1, -1, 2}
    exact(reflect_add(s, 7), 3)
    exact(s, {1, 2, 7})
    before = {(1, 2.5), (3, 4.5)}
    ids = {id(x) for x in before}
    assert reflect_read_tuples(before) == (True, False)
    assert {id(x) for x in before} == ids  # unchanged: the same objects stay
    r = reflect_return(s)
    assert r is s and s == {1, 2, 7, 42}


def test_typeof_and_types():
    t = typeof({1, 2})
    assert isinstance(t, types.Set) and t == types.Set(types.int64, reflected=True)
    assert str(t) == "reflected set(int64)" and t.dtype == types.int64
    assert str(typeof({"é"})) == "reflected set(unicode_type)"
    assert str(typeof({(1, 2.0)})) == "reflected set(Tuple(int64, float64))"
    assert str(types.Set(types.float64)) == "set(float64)"


def test_reflected_errors():
    with pytest.raises(ValueError, match="cannot compute fingerprint of empty set"):
        reflect_read(set())
    with pytest.raises(TypeError, match="can't unbox heterogeneous set"):
        reflect_read({1, 2.5, 3})
    s = {1, 2}
    with pytest.raises(TypingError, match="cannot safely cast float64 to int64"):
        reflect_add(s, 2.5)  # refused at compile time: the set is left untouched
    assert s == {1, 2}


@njit
def reflect_raise(s):
    s.add(99)
    s.remove(1000)


def test_reflected_written_back_when_raising():
    s = {1}
    with pytest.raises(KeyError):
        reflect_raise(s)
    assert s == {1, 99}  # numba writes back on the error path too


@njit
def strings_reflected(s):
    s.add("ñ")
    return len(s), "ü" in s


def test_reflected_strings():
    s = {"ü", "x"}
    exact(strings_reflected(s), (3, True))
    assert s == {"ü", "x", "ñ"}


# ---- sum, min, max (as lists'), more element types and uses ----

@njit
def folds(a):
    s = set(a)
    return sum(s), min(s), max(s)


def test_sum_min_max():
    exact(folds(np.array([3, -7, 3, 10])), (6, -7, 10))
    exact(folds(np.array([2.5, -0.5, 2.5])), (2.0, -0.5, 2.5))
    with pytest.raises(ValueError, match=r"min\(\) arg is an empty sequence"):
        folds(np.zeros(0, np.int64))


@njit
def small_ints(a):
    s = set()
    for x in a:
        s.add(x)
    return s


def test_element_types_kept():
    exact(small_ints(np.array([1, 2, 2], np.int32)), {1, 2})
    exact(small_ints(np.array([True, False])), {True, False})
    exact(small_ints(np.array([1 + 2j, 1 + 2j, 3j])), {1 + 2j, 3j})


@njit
def tuples_in(n):
    s = set()
    for i in range(n):
        s.add((i % 3, i % 2 == 0))
    return s, (1, True) in s, (2, False) not in s


def test_tuple_elements():
    want = {(i % 3, i % 2 == 0) for i in range(10)}
    exact(tuples_in(10), (want, (1, True) in want, (2, False) not in want))


@njit
def set_in_loop_condition(a, b):
    seen = set(b)
    out = []
    for x in a:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def test_unique_in_order():
    a = np.array([5, 1, 5, 2, 9, 1, 2])
    exact(set_in_loop_condition(a, np.array([9])), [5, 1, 2])


@njit
def dedupe_strings(text):
    seen = set()
    n = 0
    for w in text.split():
        if w not in seen:
            seen.add(w)
            n += 1
    return n, len(seen)


def test_dedupe_words():
    text = "ça va ça ira 日本 va"
    exact(dedupe_strings(text), (4, 4))


@njit
def pops_all(a):
    s = set(a)
    total = 0
    while len(s) > 0:
        total += s.pop()
    return total, len(s)


def test_pop_until_empty():
    exact(pops_all(np.arange(50) % 13), (sum(range(13)), 0))


@njit
def reinsert_after_clear(n):
    s = set(range(n))
    s.clear()
    for i in range(n // 2):
        s.add(i)
    return len(s), 0 in s, n - 1 in s


def test_reinsert_after_clear():
    exact(reinsert_after_clear(100), (50, True, False))


@njit
def drain(n):
    s = set(range(n))
    c = 0
    while s:
        s.pop()
        c += 1
    return c, not s, bool(s), bool({1})


def test_truth_of_a_set():
    exact(drain(5), (5, True, False, True))
    exact(drain(0), (0, True, False, True))


@njit
def of_literal_string():
    return set("abcab"), set("ñandú")


def test_set_of_a_literal_string():
    exact(of_literal_string(), (set("abcab"), set("ñandú")))


# ---- sets inside other containers and across jitted calls ----

@njit
def grow_inner(s):
    s.add(100)
    return len(s)


@njit
def through_calls(n):
    s = set(range(n))
    k = grow_inner(s)
    sets = [set(range(i)) for i in range(n)]
    d = {}
    for i in range(n):
        d[i] = {i, i + 1}
    return k, s, sets, d[1], (s, 1.5)


def test_sets_in_containers_and_calls():
    exact(through_calls(3), (4, {0, 1, 2, 100}, [set(), {0}, {0, 1}], {1, 2},
                             ({0, 1, 2, 100}, 1.5)))


def test_reflected_set_through_a_jitted_call():
    @njit
    def outer(s):
        return grow_inner(s)

    s = {5, 6}
    exact(outer(s), 3)
    assert s == {5, 6, 100}
