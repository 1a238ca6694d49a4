"""Generator functions in compiled CPU code (numba's generators): differential against CPython
running the same functions, from Python (a lazy iterator object) and from compiled code (for
loops, list(), sum(), min()/max(), next(), a generator passed to another function), with the
allocation counters back where they were (the nrt_balanced fixture)."""
import gc
import itertools
import types as pytypes

import numpy as np
import pytest

from cujit import cuda, njit, types
from cujit.errors import UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

# ---- the generators (plain functions; njit versions below) ----


def count_up(n):
    for i in range(n):
        yield i


def evens_odds(n):
    for i in range(n):
        if i % 2 == 0:
            yield i * 10
        else:
            yield -i


def several(a, b):
    yield a
    yield b
    yield a + b


def early_return(n, stop):
    for i in range(n):
        if i == stop:
            return
        yield i


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        yield a
        a, b = b, a + b


def forever(start, step):
    x = start
    while True:
        yield x
        x += step


def tuples(n):
    for i in range(n):
        yield i, i * i


def floats(n, x):
    for i in range(n):
        yield x / (i + 1)


def nested(n, m):
    for i in range(n):
        for j in range(m):
            if j > i:
                break
            yield i * m + j


def running_total(n, k):
    acc = 0
    for i in range(n):
        acc += i * k
        if acc % 3 == 0:
            continue
        yield acc
    yield -acc


def halving(n):
    while n > 0:
        yield n
        n //= 2


def bools(n):
    for i in range(n):
        yield i % 3 == 0


def mixed_numbers(n):
    yield 1
    for i in range(n):
        yield i + 0.5


def complexes(n):
    for i in range(n):
        yield complex(i, -i)


def guarded_division(n, d):
    for i in range(n):
        try:
            yield i // (d - i)
        except ZeroDivisionError:
            yield -1


def raises_after(n):
    for i in range(n):
        yield i
    raise ValueError("done counting")


def doubled_inner(n):
    for x in count_up(n):
        yield x * 2


def pairs_of_inner(n):
    for i, sq in tuples(n):
        yield sq - i


def next_inside(n):
    g = fib(n + 2)
    first = next(g)
    second = next(g)
    yield first + second
    for x in g:
        yield x


def bare_yields(n):
    for _ in range(n):
        yield


def with_default(n, k=3):
    for i in range(n):
        yield i * k


def enumerated_zip(n):
    for i, (a, b) in enumerate(zip(range(n), range(n, 2 * n))):
        yield i + a * b


def array_elements(a):
    for v in a:
        yield v * 2.0
    yield a.sum()


def array_rows(a):
    for i in range(a.shape[0]):
        yield a[i]


def new_arrays(n):
    for i in range(n):
        yield np.arange(i)


def strings(s):
    for c in s:
        yield c + c


def list_items(n):
    items = [1, 2, 3]
    for i in range(n):
        items.append(i)
    for x in items:
        yield x * n


def array_state(n):
    buf = np.zeros(3)
    for i in range(n):
        buf[i % 3] += i
        yield buf.sum()


PY = [count_up, evens_odds, several, early_return, fib, tuples, floats, nested, running_total,
      halving, bools, mixed_numbers, complexes, guarded_division, doubled_inner,
      pairs_of_inner, next_inside, bare_yields, with_default, enumerated_zip, list_items,
      array_state]
JIT = {f.__name__: njit(f) for f in PY + [forever, raises_after, array_elements, array_rows,
                                          new_arrays, strings]}


def _with_jitted_callees(f):
    """A generator calling generators, compiled with the jitted ones in its globals (as a
    numba user writes them: every callee decorated)."""
    g = dict(f.__globals__)
    g.update({name: JIT[name] for name in ("count_up", "tuples", "fib")})
    return njit(pytypes.FunctionType(f.__code__, g, f.__name__, f.__defaults__))


for _f in (doubled_inner, pairs_of_inner, next_inside):
    JIT[_f.__name__] = _with_jitted_callees(_f)

ARGS = {
    "count_up": [(0,), (1,), (7,)],
    "evens_odds": [(0,), (9,)],
    "several": [(2, 5), (-1, 1)],
    "early_return": [(10, 4), (3, 10), (5, 0)],
    "fib": [(0,), (15,)],
    "tuples": [(0,), (5,)],
    "floats": [(4, 3.0), (0, 1.0)],
    "nested": [(4, 3), (0, 2)],
    "running_total": [(8, 2), (0, 1)],
    "halving": [(100,), (0,)],
    "bools": [(7,)],
    "mixed_numbers": [(3,), (0,)],
    "complexes": [(3,)],
    "guarded_division": [(6, 3), (3, 10)],
    "doubled_inner": [(5,), (0,)],
    "pairs_of_inner": [(5,)],
    "next_inside": [(6,), (0,)],
    "bare_yields": [(3,)],
    "with_default": [(4,), (4, 5)],
    "enumerated_zip": [(5,)],
    "list_items": [(4,), (0,)],
    "array_state": [(7,)],
}


def _same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
            continue
        if isinstance(w, tuple):
            _same(list(g), list(w))
            continue
        assert g == w, (got, want)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_differential_from_python(name):
    fn = JIT[name]
    for args in ARGS[name]:
        want = list(globals()[name](*args))
        got = list(fn(*args))
        _same(got, want)


def test_seeded_random_inputs():
    rng = np.random.default_rng(1234)
    for _ in range(20):
        n, stop = (int(v) for v in rng.integers(0, 12, size=2))
        assert list(JIT["early_return"](n, stop)) == list(early_return(n, stop))
        a, b = (int(v) for v in rng.integers(-50, 50, size=2))
        assert list(JIT["several"](a, b)) == list(several(a, b))
        m = int(rng.integers(0, 6))
        assert list(JIT["nested"](n, m)) == list(nested(n, m))
        x = float(rng.normal())
        assert list(JIT["floats"](n, x)) == list(floats(n, x))


def test_yielded_types_are_numba_s():
    assert [type(v) for v in JIT["count_up"](2)] == [int, int]
    assert [type(v) for v in JIT["bools"](2)] == [bool, bool]
    # an int and a float yield unify to float64, as numba's
    got = list(JIT["mixed_numbers"](1))
    assert got == [1.0, 0.5] and all(type(v) is float for v in got)
    assert type(next(JIT["complexes"](1))) is complex
    assert list(JIT["bare_yields"](2)) == [None, None]
    assert all(type(t) is tuple for t in JIT["tuples"](3))


def test_lazy_and_infinite_from_python():
    got = list(itertools.islice(JIT["forever"](3, 4), 5))
    assert got == list(itertools.islice(forever(3, 4), 5))
    g = JIT["count_up"](3)
    assert iter(g) is g
    assert next(g) == 0 and next(g) == 1 and next(g) == 2
    with pytest.raises(StopIteration):
        next(g)
    with pytest.raises(StopIteration):
        next(g)  # stays exhausted
    assert "generator object count_up" in repr(g)


def test_exception_ends_the_generator():
    g = JIT["raises_after"](2)
    assert next(g) == 0 and next(g) == 1
    with pytest.raises(ValueError, match="done counting"):
        next(g)
    with pytest.raises(StopIteration):
        next(g)


def test_generator_objects_come_only_from_calls():
    with pytest.raises(TypeError):
        type(JIT["count_up"](1))()


def test_close_send_throw():
    g = JIT["new_arrays"](5)
    next(g)
    next(g)
    g.close()
    with pytest.raises(StopIteration):
        next(g)
    g = JIT["count_up"](3)
    with pytest.raises(UnsupportedError, match="send"):
        g.send(1)
    with pytest.raises(UnsupportedError, match="throw"):
        g.throw(ValueError)


def test_arrays_strings_and_lists():
    a = np.arange(6.0)
    _same(list(JIT["array_elements"](a)), list(array_elements(a)))
    b = np.arange(6.0).reshape(2, 3)
    rows = list(JIT["array_rows"](b))
    _same(rows, list(array_rows(b)))
    assert all(r.base is not None for r in rows)
    _same(list(JIT["new_arrays"](4)), list(new_arrays(4)))
    assert list(JIT["strings"]("héllo")) == list(strings("héllo"))
    # a frame dropped before its end drops its arrays (counters: nrt_balanced)
    g = JIT["new_arrays"](10)
    next(g)
    next(g)
    del g
    g = JIT["list_items"](3)  # its frame holds a list and an iterator over it
    assert next(g) == 3
    del g
    g = JIT["strings"]("xyz")  # a frame never started drops its argument's reference
    del g


@njit
def made_elsewhere(a, n):
    return (JIT_array_elements(a), JIT_count_up(n))


def test_generator_keeps_its_arguments_alive():
    # returned by another jitted function, inside a tuple: the call's arguments are kept
    g, h = made_elsewhere(np.arange(3.0) * 2.0, 2)
    gc.collect()
    assert list(g) == [0.0, 4.0, 8.0, 6.0] and list(h) == [0, 1]
    g = JIT["array_elements"](np.arange(4.0) + 1.0)  # the array's only owner is g
    gc.collect()
    assert list(g) == [2.0, 4.0, 6.0, 8.0, 10.0]
    g = JIT["strings"]("".join(["ab", "cd"]))
    gc.collect()
    assert list(g) == ["aa", "bb", "cc", "dd"]


# ---- consumed in compiled code ----

@njit
def sum_loop(n):
    s = 0
    for x in JIT_count_up(n):
        s += x
    return s


@njit
def consume(g):
    s = 0
    for x in g:
        s += x
    return s


@njit
def passed_on(n):
    return consume(JIT_evens(n))


@njit
def builtins_of(n):
    return (list(JIT_evens(n)), sum(JIT_evens(n)), sum(JIT_floats(n, 2.0)),
            sorted(JIT_evens(n)))


@njit
def min_max(n):
    return min(JIT_evens(n)), max(JIT_evens(n)), min(JIT_floats(n, -1.0))


@njit
def two_nexts(n):
    g = JIT_count_up(n)
    a = next(g)
    b = next(g)
    return a * 10 + b


@njit
def first_array_sum(n):
    total = 0
    for arr in JIT_new_arrays(n):
        total += arr.sum()
        if total > 3:
            break  # the frame still holds arrays: dropped with the generator
    return total


@njit
def shared_progress(n):
    g = JIT_count_up(n)
    first = next(g)
    rest = 0
    for x in g:
        rest += x
    return first, rest


JIT_count_up = JIT["count_up"]
JIT_evens = JIT["evens_odds"]
JIT_floats = JIT["floats"]
JIT_new_arrays = JIT["new_arrays"]
JIT_array_elements = JIT["array_elements"]


def test_consumed_in_compiled_code():
    for n in (0, 1, 6):
        assert sum_loop(n) == sum(count_up(n))
        assert passed_on(n) == sum(evens_odds(n))
        lst, s, fs, srt = builtins_of(n)
        assert lst == list(evens_odds(n)) and s == sum(evens_odds(n))
        naive = 0.0  # numba's sum adds left to right (3.12's sum() compensates)
        for v in floats(n, 2.0):
            naive += v
        assert fs == naive and type(fs) is float
        assert srt == sorted(evens_odds(n))
    assert min_max(7) == (min(evens_odds(7)), max(evens_odds(7)), min(floats(7, -1.0)))
    with pytest.raises(ValueError, match=r"min\(\) arg is an empty sequence"):
        min_max(0)
    assert two_nexts(5) == 1
    with pytest.raises(StopIteration):
        two_nexts(1)
    assert first_array_sum(10) == 4
    assert first_array_sum(0) == 0
    assert shared_progress(5) == (0, 10)


@njit
def genexprs(a, n):
    return (sum(x * x for x in range(n)), list(v + 1.0 for v in a), max(v for v in a),
            sum(y for y in (x * 2 for x in range(n) if x % 2)))


def test_generator_expressions():
    a = np.arange(5.0) - 2.0
    for n in (0, 1, 7):
        want = (sum(x * x for x in range(n)), list(v + 1.0 for v in a), max(v for v in a),
                sum(y for y in (x * 2 for x in range(n) if x % 2)))
        assert genexprs(a, n) == want


@njit
def genexprs_reading_locals(n, m, a, k, words, skip):
    return (sum(i * m for i in range(n)), list(x + k for x in a),
            max(len(w) for w in words if w != skip),
            sum(i * m + k for i in range(n) if i % 3 == 0),
            sum(y * m for y in (x * k for x in range(n))))


def genexprs_reading_locals_py(n, m, a, k, words, skip):
    return (sum(i * m for i in range(n)), [float(x + k) for x in a],
            max(len(w) for w in words if w != skip),
            sum(i * m + k for i in range(n) if i % 3 == 0),
            sum(y * m for y in (x * k for x in range(n))))


def _closure_with_genexpr(m):
    def f(n):
        return sum(i * m for i in range(n))  # m: the closure's, frozen as numba does
    return f


@njit
def genexprs_in_genexprs(n, m, k):
    return (sum(sum(i * m for i in range(j)) for j in range(n)),
            list(sum(i * m + k for i in range(j) if i != k) for j in range(n)))


def test_generator_expressions_in_closures_and_genexprs():
    f = _closure_with_genexpr(3)
    assert njit(f)(5) == f(5) == 30
    for n, m, k in ((0, 1, 2), (5, 2, 1), (7, -3, 4)):
        want = (sum(sum(i * m for i in range(j)) for j in range(n)),
                list(sum(i * m + k for i in range(j) if i != k) for j in range(n)))
        assert genexprs_in_genexprs(n, m, k) == want


@pytest.mark.parametrize("seed", range(4))
def test_generator_expressions_reading_the_enclosing_variables(seed):
    rng = np.random.default_rng(seed)
    n, m, k = (int(v) for v in rng.integers(-3, 9, size=3))
    n = abs(n)
    a = rng.normal(size=int(rng.integers(0, 5)))
    words = ["".join("ab"[int(c)] for c in rng.integers(0, 2, size=int(j)))
             for j in rng.integers(0, 6, size=4)]
    skip = words[int(rng.integers(0, 4))]
    if all(w == skip for w in words):
        words.append("zzz")
    got = genexprs_reading_locals(n, m, a, k, words, skip)
    want = genexprs_reading_locals_py(n, m, a, k, words, skip)
    assert got == want and [type(v) for v in got] == [type(v) for v in want]
    assert all(type(v) is float for v in got[1])


# ---- what is refused, clearly ----

def _compile_error(src, args, exc=UnsupportedError):
    ns = {"np": np}
    exec(src, ns)
    with pytest.raises(exc) as info:
        list(njit(ns["f"])(*args))
    return str(info.value)


def test_refused_forms():
    assert "returns a value" in _compile_error("def f(x):\n    yield x\n    return 5\n", (1,))
    assert "'yield from'" in _compile_error("def f(x):\n    yield from range(x)\n", (2,))
    assert "returning a generator expression" in _compile_error(
        "def f(x):\n    return (i * x for i in range(x))\n", (3,))
    # a closure's own free variable, never assigned, read by its genexpr
    assert "reading the enclosing function's variables" in _compile_error(
        "def g():\n    def f(n):\n        return sum(i * m for i in range(n))\n"
        "    return f\n    m = 1\nf = g()\n", (4,))
    assert "returning a generator expression" in _compile_error(
        "def f(x):\n    return (i for i in range(x))\n", (3,))
    ns = {}
    exec("from cujit import njit\n@njit\ndef f(n):\n    yield n\n    for x in f(n - 1):\n"
         "        yield x\n", ns)
    with pytest.raises(UnsupportedError, match="recursive generators"):
        list(ns["f"](2))
    exec("from cujit import prange\ndef f(n):\n    for i in prange(n):\n        yield i\n", ns)
    with pytest.raises(UnsupportedError, match="inside a prange loop"):
        list(njit(parallel=True)(ns["f"])(3))
    msg = _compile_error("def f(l):\n    for x in l:\n        yield x\n",
                         ([np.zeros(2), np.ones(2)],))
    assert "reflected list(array" in msg  # its arrays are borrowed from the Python list


def test_cuda_refuses_yield():
    def kernel(a):
        for i in range(3):
            yield i

    with pytest.raises(UnsupportedError, match="not supported in CUDA code"):
        cuda.compile_ptx(kernel, "void(float32[:])")

    def device(n):
        yield n

    with pytest.raises(UnsupportedError, match="not supported in CUDA code"):
        cuda.compile_ptx(device, (types.int64,), device=True)


def test_generator_type_is_numba_s():
    g = JIT["count_up"](2)
    t = g._numba_type_
    assert isinstance(t, types.Generator)
    assert t.yield_type == types.int64 and t.arg_types == (types.int64,)
    assert "generator(func=" in str(t)
    list(g)
