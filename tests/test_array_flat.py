"""a.flat (iteration, a.flat[i], a.flat[i] = v, len), np.ndenumerate and np.ndindex in compiled
code, against NumPy running the same functions; their errors; and their PTX. The per-dtype and
per-layout sweep is in the differential suite (array_catalogue.py: flat_*, np_nd*)."""
import numpy as np
import pytest

import cujit
from cujit import cuda
from cujit.errors import TypingError, UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def layouts(rng):
    base = rng.standard_normal((6, 7))
    return [base, np.asfortranarray(base), base[::2, 1::3], base[::-1], base[:, :0],
            base.reshape(2, 3, 7).transpose(2, 0, 1), np.array(3.5), base[0]]


def flat_ops(a):
    s = 0.0
    for x in a.flat:
        s = s * 0.5 + x
    n = len(a.flat)
    first = a.flat[0] if n else 0.0
    last = a.flat[-1] if n else 0.0
    for i in range(0, n, 2):
        a.flat[i] = a.flat[n - 1 - i] + i
    return s, n, first, last


def enumerate_ops(a):
    s = 0.0
    for idx, x in np.ndenumerate(a):
        w = 1
        for i in idx:
            s += (i + 1) * w * x
            w *= 3
    for idx in np.ndindex(a.shape):
        s += a[idx]
    return s


@pytest.mark.parametrize("fn", [flat_ops, enumerate_ops])
def test_equals_numpy_over_layouts(fn):
    rng = np.random.default_rng(5)
    compiled = cujit.njit(fn)
    for a in layouts(rng):
        if fn is enumerate_ops and a.ndim == 0:
            continue  # its index () cannot be iterated in compiled code (an empty tuple)
        want_a, got_a = a.copy(), a.copy()
        if a.ndim and not a.flags.owndata:  # keep the view's layout in the compiled run
            got_a = a
            a = a.copy()
            want_a = a
        want, got = fn(want_a), compiled(got_a)
        assert np.allclose(np.array(got, dtype=float), np.array(want, dtype=float))
        assert np.array_equal(got_a, want_a)


def test_iterator_state_is_shared_like_numpys():
    def two_loops(a):
        f = a.flat
        n = 0
        for x in f:
            n += 1
            if n == 2:
                break
        for x in f:  # NumPy's flatiter goes on where the first loop stopped
            n += 10
        return n
    a = np.arange(5.0)
    assert cujit.njit(two_loops)(a) == two_loops(a) == 32


def test_flat_inside_enumerate_and_zip():
    def f(a, b):
        s = 0.0
        for i, (x, y) in enumerate(zip(a.flat, b.flat)):
            s += i * x - y
        return s
    a = np.arange(12.0).reshape(3, 4)
    b = np.asfortranarray(a) * 2
    assert cujit.njit(f)(a, b) == f(a, b)


def test_flat_of_a_new_array_keeps_it_alive():
    @cujit.njit
    def f(n):
        it = (np.arange(n) * 2).reshape(2, -1).T.flat
        s = 0
        for x in it:
            s = s * 3 + x
        return s, it[0]
    want = 0
    for x in (np.arange(8) * 2).reshape(2, -1).T.flat:
        want = want * 3 + x
    assert f(8) == (want, 0)


def test_ndindex_forms_and_types():
    @cujit.njit
    def f(n, m):
        s = 0
        for i, j in np.ndindex(n, m):
            s += i * 10 + j
        for t in np.ndindex((m, n)):
            s += t[0] - t[1]
        for t in np.ndindex():  # one empty index, as NumPy
            s += 1000 + len(t)
        return s

    def want(n, m):
        return (sum(i * 10 + j for i, j in np.ndindex(n, m)) +
                sum(t[0] - t[1] for t in np.ndindex((m, n))) + 1000)
    for n, m in [(3, 4), (0, 5), (1, 1), (5, 0)]:
        assert f(n, m) == want(n, m)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        f(-1, 2)


def test_ndenumerate_yields_index_tuples_and_values():
    @cujit.njit
    def f(a):
        for idx, x in np.ndenumerate(a):
            if x == 7:
                return idx
        return (-1, -1)
    a = np.arange(12).reshape(3, 4)
    assert f(a) == (1, 3)
    assert f(np.asfortranarray(a)) == (1, 3)
    assert f(a[::-1]) == (1, 3)


def test_zero_d_arrays():
    @cujit.njit
    def f(a):
        s = 0.0
        for x in a.flat:
            s += x
        for idx, x in np.ndenumerate(a):
            s += 10 * x + len(idx)
        return s, len(a.flat), a.flat[0], a.flat[-1]
    assert f(np.array(2.5)) == (27.5, 1, 2.5, 2.5)


def test_flat_index_errors():
    @cujit.njit
    def get(a, i):
        return a.flat[i]

    @cujit.njit
    def put(a, i, v):
        a.flat[i] = v
    a = np.arange(6.0).reshape(2, 3)
    assert get(a, -6) == 0.0 and get(a, 5) == 5.0 and get(a.T, 1) == 3.0
    for i in (6, -7, 2**40):
        with pytest.raises(IndexError, match="index is out of bounds"):
            get(a, i)
        with pytest.raises(IndexError, match="index is out of bounds"):
            put(a, i, 1.0)
    with pytest.raises(IndexError):
        get(np.zeros((3, 0)), 0)
    put(a.T, 1, 9.5)
    assert a[1, 0] == 9.5


@pytest.mark.parametrize("src, exc, words", [
    ("def f(a):\n    return a.flat[1:3]", UnsupportedError, "getitem of a.flat with slice"),
    ("def f(a):\n    a.flat[np.arange(2)] = 1", UnsupportedError, "setitem of a.flat with array"),
    ("def f(a):\n    return a.flat[1.0]", TypingError, "Invalid use of getitem"),
    ("def f(a):\n    a.flat[0] = 1j", TypingError, "Invalid use of setitem"),
    ("def f(a):\n    return a.flat", TypingError, "cannot return a value of type array.flat("),
    ("def f(a):\n    for x in a[0, 0]:\n        pass", TypingError, "not iterable"),
    ("def f(a):\n    for x in np.ndenumerate(1.0):\n        pass", TypingError,
     "numpy.ndenumerate"),
    ("def f(a):\n    for x in np.ndindex(2.0):\n        pass", TypingError, "numpy.ndindex"),
])
def test_typing_errors(src, exc, words):
    ns = {"np": np}
    exec(src, ns)
    with pytest.raises(exc, match=words.replace("(", r"\(").replace("[", r"\[")):
        cujit.njit(ns["f"])(np.zeros((2, 3)))


def test_iterating_a_0d_array_is_numpys_error():
    @cujit.njit
    def f(a):
        for x in a:
            pass
    with pytest.raises(TypingError, match="iteration over a 0-d array"):
        f(np.array(1.0))


def test_readonly_flat_cannot_be_written():
    @cujit.njit
    def f(a):
        a.flat[0] = 1
    ro = np.zeros(3)
    ro.setflags(write=False)
    with pytest.raises(TypingError, match="Cannot modify readonly array"):
        f(ro)


def test_flat_and_ndenumerate_compile_for_the_gpu(tmp_path):
    def kernel(a, out):
        s = 0.0
        for x in a.flat:
            s += x
        for idx, x in np.ndenumerate(a):
            s += idx[1] * x
        a.flat[0] = s
        out[0] = a.flat[len(a.flat) - 1]
    ptx = cuda.compile_ptx(kernel, "void(float64[:, :], float64[:])")[0]
    assert ".entry" in ptx and "ld.global.f64" in ptx and "st.global.f64" in ptx
