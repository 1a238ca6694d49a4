"""Object mode with loop lifting (issue 14): jit(forceobj=True) runs the function in the
interpreter and compiles each outermost loop in nopython mode for the types it sees;
jit(nopython=False) falls back to it, with numba's warning, when typing fails."""
import hashlib
import math
import warnings

from fractions import Fraction

import numpy as np
import pytest

import cujit
from cujit import jit
from cujit.errors import NumbaWarning


def py_and_obj(fn, *args):
    """(the Python result, the object-mode result, the dispatcher)."""
    disp = jit(forceobj=True)(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaWarning)  # every loop here must lift
        got = disp(*args)
    return fn(*args), got, disp


def hash_and_sum(data, n):
    h = hashlib.sha256(data.tobytes()).hexdigest()  # a library call: object mode
    total = 0.0
    for i in range(n):
        total += data[i % data.size] * i
    return {"hash": h[:12], "total": total}


def two_loops_and_live_outs(n, x):
    acc = 0
    last = -1
    for i in range(n):
        if i % 3 == 0:
            continue
        acc += i
        last = i
    label = f"acc={acc}"  # an f-string between the loops
    k = 0
    while x > 1.0:
        x = x / 2.0
        k += 1
        if k > 100:
            break
    return label, acc, last, i, x, k


def loop_over_array_rows(a):
    out = np.empty(a.shape[0])
    names = [str(j) for j in range(3)]  # a list comprehension: object mode
    for r in range(a.shape[0]):
        s = 0.0
        for c in range(a.shape[1]):
            s += math.sqrt(abs(a[r, c]))
        out[r] = s
    return names, out


@pytest.mark.parametrize("fn, args", [
    (hash_and_sum, (np.arange(10.0), 1000)),
    (two_loops_and_live_outs, (20, 1000.0)),
    (two_loops_and_live_outs, (1, 0.5)),
    (loop_over_array_rows, (np.random.default_rng(3).normal(size=(6, 5)),)),
])
def test_results_are_pythons_and_loops_are_compiled(fn, args):
    want, got, disp = py_and_obj(fn, *args)
    if isinstance(want, tuple) and isinstance(want[-1], np.ndarray):
        assert want[0] == got[0] and np.allclose(want[1], got[1])
    else:
        assert want == got
    assert disp.lifted and all(loop.dispatcher.signatures for loop in disp.lifted)
    assert not any(loop.fallbacks for loop in disp.lifted)


def test_what_was_lifted():
    disp = jit(forceobj=True)(two_loops_and_live_outs)
    disp(10, 8.0)
    first, second = disp.lifted
    code = two_loops_and_live_outs.__code__
    assert first.lineno == code.co_firstlineno + 3 and second.lineno == code.co_firstlineno + 10
    # the for loop reads n and acc, and keeps last (set before it, maybe not in the loop);
    # the while loop reads x and k
    assert str(first.dispatcher.signatures[0]) == "(int64, int64, int64)"
    assert str(second.dispatcher.signatures[0]) == "(int64, float64)"  # k, x: by name
    assert set(disp.overloads) == {first.name, second.name}
    assert len(disp.signatures) == 2


def test_a_loop_that_does_not_type_runs_in_python_with_a_warning():
    def f(n):
        d = {}
        for i in range(n):
            d[i] = Fraction(i, 3)  # a Fraction: not nopython
        return len(d), d[n - 1]
    disp = jit(forceobj=True)(f)
    with pytest.warns(NumbaWarning, match=r"could not be compiled in nopython mode"):
        assert disp(5) == f(5) == (5, Fraction(4, 3))
    loop, = disp.lifted
    assert loop.fallbacks and disp(7) == (7, Fraction(2))  # no second try for the same types


def test_lifting_keeps_line_numbers_for_errors_and_reports():
    def f(a, n):
        s = 0
        for i in range(n):
            s += a // i  # i == 0: ZeroDivisionError from the compiled loop
        return s
    disp = jit(forceobj=True)(f)
    with pytest.raises(ZeroDivisionError):
        disp(7, 3)
    report = disp.inspect_types(pretty=True).html()
    assert f'<td class="lineno">{f.__code__.co_firstlineno + 3}</td>' in report
    assert "s += a // i" in report


def test_not_lifted_still_runs_in_object_mode():
    scale = 3

    def closure(n):  # a closure: runs as it is
        t = 0
        for i in range(n):
            t += i * scale
        return t

    def returns_inside(n):  # return inside the loop: not lifted
        for i in range(n):
            if i == 4:
                return i
        return -1

    ns = {}
    exec("def no_source(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n",
         ns)
    for fn, arg in ((closure, 5), (returns_inside, 10), (ns["no_source"], 6)):
        disp = jit(forceobj=True)(fn)
        assert disp(arg) == fn(arg) and disp.lifted == []
    disp = jit(forceobj=True, looplift=False)(hash_and_sum)
    assert disp.lifted == [] and disp(np.ones(3), 4) == hash_and_sum(np.ones(3), 4)


def test_nopython_false_falls_back_with_numbas_warning():
    @jit(nopython=False)
    def f(x):
        s = str(Fraction(x))  # a Fraction is not compiled: object mode
        acc = 0
        for c in range(len(s)):
            acc += c
        return s, acc
    with pytest.warns(NumbaWarning, match="falling back to object mode WITH looplifting"):
        assert f(12345) == ("12345", 10)

    @jit(nopython=False)
    def g(x):
        return x + 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaWarning)
        assert g(1) == 2 and g.signatures  # typed: nopython, no warning


def test_dispatcher_attributes():
    disp = jit(forceobj=True)(hash_and_sum)
    assert disp.py_func is hash_and_sum and disp.__name__ == "hash_and_sum"
    assert "lifted loops" in repr(disp)
    assert isinstance(cujit.jit(forceobj=True)(len), cujit.object_mode.ObjModeDispatcher)
