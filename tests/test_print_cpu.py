"""print() in compiled CPU code: Python's own print of the boxed values (numba prints through
sys.stdout as well), so the text equals the interpreter's for every printable type, a notebook
or capsys sees it, and arrays or lists made in compiled code are freed after printing."""
import numpy as np
import pytest

import cujit
from cujit.errors import UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def scalars(i, f, b, c):
    print("ints", i, -i, i // 3, "floats", f, f / 7, np.float32(f), "rest", b, c, None)
    print()
    print(1e20, 0.1, np.inf, -0.0, "100%", "%d")


def containers(n):
    a = np.arange(n) * 0.5
    items = [k * k for k in range(n)]
    print(a, a.reshape(2, -1), items, (n, 1.5, (True, 2)))


def dicts_and_sets(n, s):
    d = {s: 1.5, "é" + s: float(n)}
    print(d, {k: [k, k + 1] for k in range(n)}, {k % 3 for k in range(n)}, set([s]))
    print(repr(s), str(n > 2))


def loop(n):
    for k in range(n):
        print("step", k, k * 1.5)
    return n


@pytest.mark.parametrize("fn, args", [
    (scalars, (7, 2.5, True, 1 - 2j)),
    (scalars, (-12345678901, float("nan"), False, 0j)),
    (containers, (4,)),
    (containers, (6,)),
    (dicts_and_sets, (4, "ab")),
    (dicts_and_sets, (0, "ζ")),
    (loop, (3,)),
    (loop, (0,)),
])
def test_output_matches_the_interpreter(fn, args, capsys):
    fn(*args)
    want = capsys.readouterr().out
    assert want or args == (0,)  # the check below compares real text
    cujit.njit(fn)(*args)
    assert capsys.readouterr().out == want


def test_float32_prints_as_numba(capsys):
    # numba boxes a float32 as a Python float: its full double value, not '0.1'
    cujit.njit(lambda: print(np.float32(0.1)))()
    assert capsys.readouterr().out == "0.10000000149011612\n"


def test_keyword_arguments_are_refused_as_numba():
    def ends(x):
        print(x, end="")
    with pytest.raises(UnsupportedError, match="does not support keyword arguments"):
        cujit.njit(ends)(1)


def test_unprintable_values_are_named():
    def shows_a_function(x):
        print(x, np.sin)
    with pytest.raises(UnsupportedError, match="print\\(\\) of a value of type"):
        cujit.njit(shows_a_function)(1)


def test_print_in_prange_is_refused_by_name():
    def body(n):
        for i in cujit.prange(n):
            print(i)
    with pytest.raises(UnsupportedError, match="print"):
        cujit.njit(parallel=True)(body)(4)
