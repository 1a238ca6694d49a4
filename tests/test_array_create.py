"""Array creation from numbers (issue 10): np.arange, np.linspace, np.eye, np.identity,
np.array and np.asarray, against NumPy's values (exactly: the same arithmetic) and numba's
result types, with their errors, and the allocation counters back to equal."""
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
    """numba's return type of f(*args) as text, or None when numba refuses it."""
    g = numba.njit(f)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g(*args)
    except Exception:  # noqa: BLE001  (numba's refusal: nothing to compare)
        return None
    return str(g.nopython_signatures[-1].return_type)


def check(f, args, want, numba_too=True):
    """f compiled by cujit: NumPy's value `want` exactly, numba's return type."""
    ours = njit(f)
    got = ours(*args)
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype, (got, want)
    assert got.shape == want.shape and got.flags.c_contiguous and got.flags.writeable
    np.testing.assert_array_equal(got, want, strict=True)
    if numba_too:
        assert str(ours.nopython_signatures[-1].return_type) == numba_type(f, *args)
    return str(ours.nopython_signatures[-1].return_type)


ARANGE = [(5,), (0,), (-5,), (1, 5), (5, 1), (1, 5, 2), (10, 0, -3), (-7, 8, 4), (0.0, 1.0, 0.1),
          (1.0, 5), (0.5, 3, 0.5), (1, 2, 0.3), (2.5,), (0, 1e-3, 1e-4), (0, 1, 1 / 3),
          (-1.5, -10, -0.7), (np.float32(1.5),), (np.int32(3), np.int16(9)), (np.int8(4),),
          (1e15, 1e15 + 40, 3.3)]


@pytest.mark.parametrize("args", ARANGE, ids=repr)
def test_arange_values_and_types(args):
    f = [None, lambda a: np.arange(a), lambda a, b: np.arange(a, b),
         lambda a, b, c: np.arange(a, b, c)][len(args)]
    check(f, args, np.arange(*args, dtype=np.float64 if any(
        isinstance(a, (float, np.floating)) for a in args) else np.int64))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("args", [(7,), (2, 9, 3), (0.5, 3, 0.5), (1, 2, 0.3), (-3, 3)],
                         ids=repr)
def test_arange_with_dtype(dtype, args):
    f = [None, lambda a: np.arange(a, dtype=dtype), lambda a, b: np.arange(a, b, dtype=dtype),
         lambda a, b, c: np.arange(a, b, c, dtype)][len(args)]
    if dtype is np.uint16 and min(args) < 0:
        return
    # NumPy: start and start + step in the dtype, then start + i * their difference
    rtype = check(f, args, np.arange(*args, dtype=dtype), numba_too=False)
    assert rtype == f"array({np.dtype(dtype)}, 1d, C)"


def test_arange_keywords_strings_and_loops():
    f = njit(lambda n: (np.arange(n, step=2), np.arange(1, stop=n), np.arange(n, dtype="f4")))
    a, b, c = f(7)
    np.testing.assert_array_equal(a, np.arange(0, 7, 2), strict=True)
    np.testing.assert_array_equal(b, np.arange(1, 7), strict=True)
    np.testing.assert_array_equal(c, np.arange(7, dtype=np.float32), strict=True)

    @njit
    def total(n):
        s = 0
        for i in range(n):
            s += np.arange(i).sum()
        return s
    assert total(50) == sum(i * (i - 1) // 2 for i in range(50))


def test_arange_errors():
    for args in [(1, 5, 0), (1.0, 5.0, 0.0), (0.0, float("nan")), (0.0, float("inf"))]:
        with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
            njit(lambda a, b, c=1: np.arange(a, b, c))(*args)
    with pytest.raises(UnsupportedError, match="complex"):
        njit(lambda: np.arange(1j))()
    with pytest.raises(TypingError, match="ints and floats"):
        njit(lambda: np.arange(True))()
    with pytest.raises(UnsupportedError, match="dtype bool"):
        njit(lambda: np.arange(3, dtype=np.bool_))()


LINSPACE = [(0, 1), (0, 1, 5), (0, 1, 1), (0, 1, 0), (1, 0, 7), (-3.5, 10, 13), (2, 2, 4),
            (0, 5e-324, 4), (np.float32(0.1), 1, 4), (1e300, -1e300, 9), (0.1, 0.7, 3),
            (1j, 2, 6), (0.5 - 2j, -3 + 1e-3j, 9), (1 + 1j, 1 + 1j, 3), (0, 5e-324j, 4),
            (np.complex64(1 + 2j), 0, 3), (2j, 0, 1), (0j, 1), (0.1 + 0.3j, 0.7 - 0.9j, 4),
            (1 - 1j, 7, 11), (3, 1e-300j, 7)]


@pytest.mark.parametrize("args", LINSPACE, ids=repr)
def test_linspace_values_and_types(args):
    f = [None, None, lambda a, b: np.linspace(a, b), lambda a, b, n: np.linspace(a, b, n)]
    # numba's float64 or complex128 whatever the numbers' types (NumPy keeps float32)
    wide = [complex(a) if isinstance(a, (complex, np.complexfloating)) else float(a)
            for a in args[:2]]
    check(f[len(args)], args, np.linspace(*wide, *args[2:]))


@pytest.mark.parametrize("num", [0, 1, 2, 5, 50])
def test_linspace_keywords(num):
    f = njit(lambda a, b, n: (np.linspace(a, b, num=n, endpoint=False),
                              np.linspace(a, b, n, True)))
    for start in (-2.0, 1 - 1j):
        got = f(start, 7, num)
        np.testing.assert_array_equal(got[0], np.linspace(start, 7, num, endpoint=False),
                                      strict=True)
        np.testing.assert_array_equal(got[1], np.linspace(start, 7, num), strict=True)


def test_linspace_errors():
    with pytest.raises(ValueError, match="negative"):
        njit(lambda n: np.linspace(0, 1, n))(-1)
    with pytest.raises(TypingError, match='"num" must be an integer'):
        njit(lambda: np.linspace(0, 1, 5.0))()
    with pytest.raises(TypingError, match="takes numbers"):
        njit(lambda: np.linspace(0, (1, 2), 3))()


@pytest.mark.parametrize("n, m, k", [(3, 3, 0), (3, 4, 1), (3, 4, -1), (4, 2, 0), (3, 4, 7),
                                     (3, 4, -9), (0, 0, 0), (1, 5, -1), (5, 3, -2)])
def test_eye_values_and_types(n, m, k):
    check(lambda n, m, k: np.eye(n, m, k), (n, m, k), np.eye(n, m, k))
    check(lambda n, m, k: np.eye(n, M=m, k=k, dtype=np.int32), (n, m, k),
          np.eye(n, m, k, dtype=np.int32))
    check(lambda n: np.eye(n), (n,), np.eye(n))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.uint64, np.complex64,
                                   np.bool_])
def test_identity_and_eye_dtypes(dtype):
    check(lambda n: np.identity(n, dtype), (4,), np.identity(4, dtype))
    check(lambda n: np.eye(n, k=1, dtype=dtype), (3,), np.eye(3, k=1, dtype=dtype))


def test_eye_errors():
    with pytest.raises(ValueError, match="negative"):
        njit(lambda n: np.eye(n))(-1)
    with pytest.raises(ValueError, match="negative"):
        njit(lambda n: np.identity(n))(-2)
    with pytest.raises(TypingError, match="must be an int"):
        njit(lambda: np.eye(2.0))()


def lit1():
    return np.array((1, 2, 3))


def lit2():
    return np.array(((1.0, 2.0), (3.0, 4.0)))


def lit3():
    return np.array((((1, 2), (3, 4)), ((5, 6), (7, 8)), ((9, 10), (11, 12))))


def mixed():
    return np.array((True, 2, 3.5))


def bools():
    return np.array((True, False))


def typed():
    return np.array(((1, 2), (3, 4)), dtype=np.float32)


def spelled():
    return np.array((1, 2), "int16")


def scalar():
    return np.array(2.5)


@pytest.mark.parametrize("f", [lit1, lit2, lit3, mixed, bools, typed, spelled, scalar])
def test_array_of_literals(f):
    check(f, (), f())


def test_array_of_run_time_numbers():
    f = lambda x, y: np.array(((x, y), (y, x), (x + y, 0)))  # noqa: E731
    check(f, (1.5, 2), f(1.5, 2))
    check(f, (np.int32(3), np.int8(4)), f(np.int32(3), np.int8(4)))
    g = lambda x: np.asarray((x, 2 * x), dtype=np.complex128)  # noqa: E731
    check(g, (3,), g(3), numba_too=False)


@pytest.mark.parametrize("src", [np.arange(6.0).reshape(2, 3), np.arange(8)[::2],
                                 np.asfortranarray(np.ones((2, 3), np.int16)), np.zeros((0, 2))],
                         ids=lambda a: f"{a.dtype}{a.shape}")
def test_array_and_asarray_of_arrays(src):
    f = njit(lambda a: (np.array(a), np.array(a, dtype=np.float32), np.asarray(a),
                        np.asarray(a, np.int64), np.asarray(a, dtype=None)))
    copy, cast, same, cast2, same2 = f(src)
    for got, dt in [(copy, src.dtype), (cast, np.float32), (cast2, np.int64)][:3 - (
            src.dtype == np.int64)]:
        np.testing.assert_array_equal(got, src.astype(dt), strict=True)
        assert got.flags.c_contiguous and (src.size == 0 or not np.shares_memory(got, src))
    for got in (same, same2):  # np.asarray of an array of that dtype: the array itself
        assert got.shape == src.shape and got.strides == src.strides and got.dtype == src.dtype
        assert got.__array_interface__["data"][0] == src.__array_interface__["data"][0]
    if src.dtype == np.int64:
        assert cast2.__array_interface__["data"][0] == src.__array_interface__["data"][0]


def test_asarray_keeps_a_new_array_alive():
    @njit
    def f(n):
        a = np.asarray(np.arange(n))
        b = np.asarray(a)
        a = np.zeros(1)
        return b
    np.testing.assert_array_equal(f(5), np.arange(5), strict=True)


def test_array_errors():
    with pytest.raises(TypingError, match="every level of one length"):
        njit(lambda: np.array(((1, 2), (3,))))()
    with pytest.raises(TypingError, match="every level of one length"):
        njit(lambda: np.array(((1, 2), 3)))()
    with pytest.raises(TypingError, match="every level of one length"):
        njit(lambda: np.array(()))()
    with pytest.raises(TypingError, match="dtype must be"):
        njit(lambda: np.array((1, 2), dtype="nope"))()
    with pytest.raises(TypingError, match="every level of one length"):
        njit(lambda: np.array([[1, 2], [3]]))()


def list1():
    return np.array([1, 2])


def list2():
    return np.array([[1.0, 2.0], [3.0, 4.0]])


def list_folded():  # CPython folds constants: BUILD_LIST 0, a constant tuple, LIST_EXTEND
    return np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def list_typed():
    return np.asarray([[1, 2, 3], [4, 5, 6]], dtype=np.float32)


def list_mixed():
    return np.array([1, 2.5, True, 4])


@pytest.mark.parametrize("f", [list1, list2, list_folded, list_typed, list_mixed])
def test_array_of_list_literals(f):
    check(f, (), f())


def test_array_of_list_literals_at_run_time():
    f = lambda x, y: np.array([[x, y, 1], [y, x, 2]])  # noqa: E731
    check(f, (1.5, 2), f(1.5, 2))
    g = lambda x: np.array([(x, 1), [2, x]])  # noqa: E731  (tuples and lists together)
    check(g, (3,), g(3), numba_too=False)


def named_list():
    x = [1, 2]
    return np.array(x)


def test_lists_elsewhere_are_lists():
    """A literal np.array() does not read is a list (tests/test_lists.py): NumPy functions
    of list values other than np.array/np.asarray (tests/test_list_ops.py) are not supported
    yet, and say so."""
    with pytest.raises(TypingError, match=r"not list\(int64\)<iv=None>"):
        njit(lambda: np.sum([1, 2, 3]))()


def test_array_of_a_named_list():
    got = njit(named_list)()
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, [1, 2])
