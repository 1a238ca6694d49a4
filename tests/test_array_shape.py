"""Reshaping and viewing arrays (issue 10): a.reshape / np.reshape, a.ravel / np.ravel,
a.flatten, a.view(dtype), a.item(), a.real / a.imag, a.conj() / np.conj and indexing with
None (np.newaxis), against NumPy's values, shapes and strides and numba's result types; views
share memory with their parent (written through in compiled code) and keep it alive; the
errors are numba's; the allocation counters are back to equal after each test."""
import warnings

import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError, UnsupportedError

numba = pytest.importorskip("numba")

# compile-heavy sweeps: behind the `slow` marker, run by dev/test.sh and not under the
# sanitizers (which keep CI within its time)
pytestmark = [pytest.mark.usefixtures("nrt_balanced"), pytest.mark.slow]


def numba_type(f, *args):
    g = numba.njit(f)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g(*args)
    except Exception:  # noqa: BLE001  (numba's refusal: nothing to compare)
        return None
    return str(g.nopython_signatures[-1].return_type)


def run(f, *args, numba_refuses=False):
    """cujit's f(*args) and its return type, which must be numba's (unless numba refuses)."""
    ours = njit(f)
    got = ours(*args)
    rtype, theirs = str(ours.nopython_signatures[-1].return_type), numba_type(f, *args)
    assert rtype == theirs or (numba_refuses and theirs is None), (rtype, theirs)
    return got


def address(a):
    return a.__array_interface__["data"][0]


A = np.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize("shape", [(6, 4), (-1, 4), (24,), -1, 24, (2, -1, 3), (1, 24, 1),
                                   (4, 3, 2, 1), (2, 3, 4)], ids=repr)
@pytest.mark.parametrize("src", [A, A.astype(np.int16), np.arange(24, dtype=np.int32).reshape(4, 6),
                                 np.arange(24, dtype=np.uint8)],
                         ids=lambda a: f"{a.dtype}{a.shape}")
def test_reshape_is_a_view(src, shape):
    got = run(lambda a, s: a.reshape(s), src, shape)
    want = src.reshape(shape)
    np.testing.assert_array_equal(got, want, strict=True)
    assert got.flags.c_contiguous and address(got) == address(src)
    np.testing.assert_array_equal(run(lambda a, s: np.reshape(a, s), src, shape), want)


def test_reshape_forms_and_write_through():
    @njit
    def f(a):
        b = a.reshape(4, 6)
        b[1, 2] = -1.0
        c = np.reshape(a, shape=(3, 8))
        c[2, 7] = -2.0
        return a.reshape((2, 12)), b
    src = A.copy()
    r, b = f(src)
    assert src[0, 2, 0] == -1.0 and src[1, 2, 3] == -2.0
    np.testing.assert_array_equal(r, src.reshape(2, 12), strict=True)
    assert address(b) == address(src)


def test_reshape_of_a_new_array_keeps_it_alive():
    @njit
    def f(n):
        a = np.arange(n).reshape((2, -1))
        b = a.T.copy().reshape(-1)[::2]
        return a, b
    a, b = f(10)
    np.testing.assert_array_equal(a, np.arange(10).reshape(2, -1), strict=True)
    np.testing.assert_array_equal(b, np.arange(10).reshape(2, -1).T.reshape(-1)[::2])


@pytest.mark.parametrize("n, shape", [(0, (0, -1)), (0, (-1, 0)), (0, (3, 0)), (1, ()),
                                      (0, (0, 5, -1))], ids=repr)
def test_reshape_empty_and_zero_d_as_numba(n, shape):
    got = run(lambda a, s: a.reshape(s), np.ones(n), shape)
    want = numba.njit(lambda a, s: a.reshape(s))(np.ones(n), shape)
    assert got.shape == want.shape and got.size == n


def test_reshape_errors():
    f = njit(lambda a, s: a.reshape(s))
    with pytest.raises(ValueError, match="total size of new array must be unchanged"):
        f(A, (5, -1))
    with pytest.raises(ValueError, match="total size of new array must be unchanged"):
        f(A, (5, 5))
    with pytest.raises(ValueError, match="total size of new array must be unchanged"):
        f(np.ones(2), ())
    with pytest.raises(ValueError, match="multiple negative shape values"):
        f(A, (-1, -1))
    with pytest.raises(TypingError, match="reshape\\(\\) supports contiguous array only"):
        f(A[:, ::2], (3, 4))
    with pytest.raises(TypingError, match="reshape\\(\\) arg cannot be float64"):
        f(A, (6.0, 4))


F_SOURCES = [np.asfortranarray(A), A.T, np.asfortranarray(np.arange(12.0).reshape(6, 2)),
             np.asfortranarray(np.ones((1, 5, 1, 3), np.int32)), np.asfortranarray(A[:, :1]),
             np.asfortranarray(np.zeros((0, 4))), np.asfortranarray(np.ones((1, 1)))]
F_SHAPES = [(-1,), (24,), (2, 3, 4), (4, 3, 2), (2, 3, 4, 1), (1, 2, 3, 4), (1, 2, 1, 3, 1, 4),
            (6, 2), (2, 6), (3, 5), (15,), (5, 3), (1, 15), (3, 1, 5), (0, 2), (1,), (), (2, 4),
            (4, 2), (2, 1, 4, 1), (1, 2, 4)]


@pytest.mark.parametrize("src", F_SOURCES, ids=lambda a: f"{a.shape}{a.strides}")
def test_reshape_of_f_arrays_as_numba(src):
    """A view wherever NumPy needs no copy; numba's NotImplementedError elsewhere."""
    f, g = njit(lambda a, s: a.reshape(s)), numba.njit(lambda a, s: a.reshape(s))
    compared = 0
    for shape in F_SHAPES:
        if int(np.prod(shape)) != src.size and -1 not in shape:
            continue
        try:
            want = g(src, shape)
        except NotImplementedError:
            with pytest.raises(NotImplementedError, match="incompatible shape for array"):
                f(src, shape)
            continue
        got = f(src, shape)
        np.testing.assert_array_equal(got, src.reshape(shape, order="C"), strict=True)
        np.testing.assert_array_equal(got, want, strict=True)
        assert src.size == 0 or address(got) == address(src)
        assert all(g == w for g, w, n in zip(got.strides, want.strides, got.shape) if n > 1)
        compared += 1
    assert compared >= 1
    if not src.flags.c_contiguous:  # typed F (numba: F, though a split axis is not F's)
        types = [str(s.return_type) for s in f.nopython_signatures]
        assert all(t.endswith(", A)") for t in types if "0d" not in t) and len(types) > 1


SOURCES = [A, A[:, ::2], np.asfortranarray(A), A[0, :, 1], np.zeros((0, 3), np.int32),
           np.array(7.5), (A > 5)[1], A.astype(np.complex64)[:, 1:]]


@pytest.mark.parametrize("src", SOURCES, ids=lambda a: f"{a.dtype}{a.shape}{a.strides}")
def test_ravel_and_flatten(src):
    r, npr, fl = run(lambda a: (a.ravel(), np.ravel(a), a.flatten()), src)
    for got in (r, npr, fl):
        np.testing.assert_array_equal(got, src.ravel(), strict=True)
        assert got.flags.c_contiguous
    if src.flags.c_contiguous:  # a view
        assert address(r) == address(src) == address(npr)
    else:
        assert not np.shares_memory(r, src) and not np.shares_memory(npr, src)
    assert src.size == 0 or not np.shares_memory(fl, src)


def test_ravel_view_writes_through():
    @njit
    def f(a):
        a.ravel()[5] = 100.0
        a.flatten()[6] = 100.0
    src = A.copy()
    f(src)
    assert src[0, 1, 1] == 100.0 and src[0, 1, 2] == 6.0


VIEWS = [(np.float64, np.int64), (np.float64, np.int32), (np.float64, np.complex128),
         (np.int32, np.int8), (np.int32, np.int64), (np.int8, np.bool_), (np.uint8, np.int16),
         (np.complex64, np.float32), (np.int16, np.float16 if False else np.uint16)]


@pytest.mark.parametrize("frm, to", VIEWS, ids=lambda t: np.dtype(t).name)
def test_view_matches_numpy(frm, to):
    src = np.arange(48).astype(frm).reshape(4, 12)
    for a in (src, src[1:3], src[:, :4], src[::2], src[0]):
        got = run(lambda a: a.view(to), a)
        want = a.view(to)
        np.testing.assert_array_equal(got, want, strict=True)
        assert got.strides == want.strides and address(got) == address(a)


def test_view_writes_through_and_spellings():
    @njit
    def f(a):
        v = a.view(np.uint64)
        v[0] = 0
        return a.view("int32"), a.view("i8")
    a = np.ones(3)
    i32, i64 = f(a)
    assert a[0] == 0.0 and i32.shape == (6,) and i64.dtype == np.int64


def test_view_errors():
    f = njit(lambda a: a.view(np.int64))
    with pytest.raises(ValueError, match="0d array"):
        f(np.array(3, np.int32))
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        f(np.ones((4, 4), np.int32)[:, ::2])
    with pytest.raises(ValueError, match="When changing to a larger dtype"):
        f(np.ones(3, np.int32))
    assert f(np.array(3, np.uint64)).shape == ()
    with pytest.raises(TypingError, match="view\\(\\) takes a NumPy number type"):
        njit(lambda a: a.view(3))(np.ones(2))


@pytest.mark.parametrize("src", [np.ones(1), np.full((1, 1, 1), 7, np.int32), np.array(3.5),
                                 np.ones(1, np.bool_), np.array([1 + 2j], np.complex64),
                                 np.arange(10, dtype=np.uint16)[7:8], A[1:, 2:, 3:]],
                         ids=lambda a: f"{a.dtype}{a.shape}")
def test_item(src):
    got = run(lambda a: a.item(), src)
    want = numba.njit(lambda a: a.item())(src)
    assert got == src.item() and type(got) is type(want)


def test_item_errors():
    f = njit(lambda a: a.item())
    for src in (np.ones(3), np.ones(0), np.ones((2, 1))):
        with pytest.raises(ValueError, match="item\\(\\): can only convert an array of size 1"):
            f(src)


C = (A + 1j * (A + 0.5)).astype(np.complex128)


@pytest.mark.parametrize("src", [C, C[:, ::2, 1:], np.asfortranarray(C), C.astype(np.complex64),
                                 C[0, 0]], ids=lambda a: f"{a.dtype}{a.shape}{a.strides}")
def test_real_imag_of_complex_are_views(src):
    re, im = run(lambda a: (a.real, a.imag), src)
    np.testing.assert_array_equal(re, src.real, strict=True)
    np.testing.assert_array_equal(im, src.imag, strict=True)
    assert re.strides == src.real.strides and address(re) == address(src.real)
    assert address(im) == address(src.imag)

    @njit
    def write(a):
        a.imag[0] = -9.0
        a.real[0] = 9.0
    b = src.copy()
    write(b)
    assert (b[0] == 9 - 9j).all()


@pytest.mark.parametrize("src", [A, A[:, ::2], np.asfortranarray(A), np.arange(5, dtype=np.int8)],
                         ids=lambda a: f"{a.dtype}{a.shape}{a.strides}")
def test_real_imag_of_real_arrays(src):
    # numba cannot make the zeros of an A-layout array's imag
    re, im = run(lambda a: (a.real, a.imag), src, numba_refuses=not src.flags.forc)
    assert address(re) == address(src) and re.strides == src.strides
    np.testing.assert_array_equal(im, np.zeros_like(src), strict=True)
    assert not im.flags.writeable and im.flags.f_contiguous == src.flags.f_contiguous
    with pytest.raises(TypingError, match="cannot access .real of array of bool"):
        njit(lambda a: a.real)(src > 1)


@pytest.mark.parametrize("src", [C, C[:, ::2, 1:], np.asfortranarray(C[0]), A, A.astype(np.int8),
                                 A > 4, np.zeros((0, 2), np.complex64), np.array(1 + 1j)],
                         ids=lambda a: f"{a.dtype}{a.shape}{a.strides}")
def test_conj(src):
    got = run(lambda a: (a.conj(), a.conjugate(), np.conj(a), np.conjugate(a)), src)
    want = np.conj(src).astype(np.int8 if src.dtype == np.bool_ else src.dtype)  # numba: int8
    for g in got:
        if src.ndim == 0:  # numba's ufuncs: a 0-d array gives a number
            assert type(g) is complex and g == want
            continue
        np.testing.assert_array_equal(g, want, strict=True)
        assert src.size == 0 or not np.shares_memory(g, src)
        assert g.flags.c_contiguous or g.flags.f_contiguous


INDICES = ["a[:, None]", "a[None, :]", "a[None]", "a[np.newaxis]", "a[:, :, None]", "a[None, 1]", "a[1, None]", "a[None, ::2]", "a[None, None]",
           "a[1, None, 1]", "a[None, :, None, 1:]", "a[None, 0, 0]"]


@pytest.mark.parametrize("index", INDICES)
@pytest.mark.parametrize("src", [A[0], np.asfortranarray(A[0]), A[:, ::2, 1], np.arange(3.0),
                                 np.array(2.0)], ids=lambda a: f"{a.ndim}d{a.strides}")
def test_newaxis_indexing(index, src):
    f = eval(f"lambda a: {index}")
    try:
        want = f(src)
    except IndexError:
        with pytest.raises(TypingError):
            njit(f)(src)
        return
    ours = njit(f)
    got = ours(src)
    np.testing.assert_array_equal(got, want, strict=True)
    assert got.strides == want.strides and address(got) == address(want)
    theirs = numba_type(f, src).replace("1d, F", "1d, C")  # 1-d: cujit says C for both
    assert str(ours.nopython_signatures[-1].return_type) == theirs


def test_newaxis_setitem_and_loops():
    @njit
    def f(a):
        a[None, 1] = 5.0
        a[:, None][2, 0] = 7.0
        s = 0.0
        for row in a[:, None]:
            s += row[0]
        return s
    a = np.zeros(4)
    assert f(a) == 12.0 and list(a) == [0.0, 5.0, 7.0, 0.0]


@pytest.mark.parametrize("f, arg, exc", [
    (lambda n: np.arange(n).reshape(3, 4), 10, ValueError),
    (lambda n: np.arange(n).reshape(2, -1).T.reshape(-1), 10, NotImplementedError),
    (lambda n: np.ones((n, 2)).view(np.int32).item(), 3, ValueError),
    (lambda n: np.eye(n).conj().imag.reshape((n, n, 1))[:, None].flatten().item(), 2,
     ValueError),
], ids=["reshape", "f-reshape", "view-item", "chain"])
def test_errors_free_the_arrays_made_before(f, arg, exc):
    """The allocations made before a raise are freed (nrt_balanced)."""
    with pytest.raises(exc):
        njit(f)(arg)
