"""Finding and counting in compiled code: np.nonzero / a.nonzero() / np.where(c) /
np.argwhere (C), np.searchsorted (its side read at compile time), np.digitize, np.histogram
and np.interp (cujit.np.arraymath), against NumPy for values and numba for result types and
errors; the allocation counters back to equal."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

NUMPY_2_1 = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1)
FAST = [np.bool_, np.float64]
# each dtype compiles ~20 variants: the whole sweep is behind the `slow` marker
# (every dtype: test_array_differential.py's sweep)
DTYPES = FAST + [pytest.param(t, marks=pytest.mark.slow) for t in (np.int8, np.complex128)]
SHAPES = [(0,), (1,), (7,), (3, 4), (2, 0, 3), (2, 3, 5)]


def sample(dtype, shape, rng, zeros=0.5):
    """Values of `dtype` about half of them zero (NaN among the floats: NaN is true)."""
    kind = np.dtype(dtype).kind
    a = rng.integers(-3, 4, shape)
    a[rng.random(shape) < zeros] = 0
    if kind == "b":
        return a.astype(bool)
    if kind == "u":
        return np.abs(a).astype(dtype)
    a = a.astype(dtype)
    if kind in "fc" and a.size > 3:
        a.flat[2] = np.nan
    if kind == "c" and a.size > 1:
        a.flat[1] = 1j
    return a


def layouts(a):
    yield a
    if a.ndim >= 1:
        yield a[..., ::-1]
    if a.ndim >= 2:
        yield np.asfortranarray(a)
        yield a.T


@njit
def nonzero(a):
    return np.nonzero(a)


@njit
def nonzero_method(a):
    return a.nonzero()


@njit
def where1(a):
    return np.where(a)


@njit
def argwhere(a):
    return np.argwhere(a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero_where_argwhere_match_numpy(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    for shape in SHAPES:
        for a in layouts(sample(dtype, shape, rng)):
            want = np.nonzero(a)
            for f in (nonzero, nonzero_method, where1):
                got = f(a)
                assert isinstance(got, tuple) and len(got) == a.ndim
                for g, w in zip(got, want):
                    assert g.dtype == np.int64 and g.ndim == 1 and g.flags.c_contiguous
                    np.testing.assert_array_equal(g, w)
            got = argwhere(a)
            assert got.dtype == np.int64 and got.shape == np.argwhere(a).shape
            np.testing.assert_array_equal(got, np.argwhere(a))


def test_nonzero_of_expressions_and_in_loops():
    @njit
    def count(a, n):
        total = 0
        for i in range(n):
            rows, cols = np.where(a > i)
            total += rows.size + cols.sum()
        return total
    a = np.arange(12.0).reshape(3, 4)
    want = sum(np.where(a > i)[0].size + np.where(a > i)[1].sum() for i in range(5))
    assert count(a, 5) == want
    assert njit(lambda a: np.nonzero(a)[2])(np.ones((2, 2, 3))).tolist() == [0, 1, 2] * 4


def test_argwhere_of_0d_and_numbers():
    for x in (np.array(3.0), np.array(0), 5, 0.0, True):
        got = argwhere(x)
        assert got.dtype == np.int64
        assert got.shape == np.argwhere(x).shape


@pytest.mark.skipif(not NUMPY_2_1, reason="numba's 0-d rule of NumPy >= 2.1")
def test_nonzero_of_0d_is_numbas_error():
    for f in (nonzero, where1):
        for x in (np.array(1.0), 3):
            with pytest.raises(TypingError, match="Calling nonzero on 0d arrays is not "
                                                  "allowed"):
                f(x)


def test_nonzero_errors():
    with pytest.raises(TypingError, match="one positional argument"):
        njit(lambda a: np.nonzero(a, 1))(np.ones(3))
    with pytest.raises(TypingError, match="no arguments"):
        njit(lambda a: a.nonzero(1))(np.ones(3))
    with pytest.raises(TypingError, match="an array or a number"):
        njit(lambda a: np.argwhere((a, a)))(np.ones(3))


@njit
def search_left(a, v):
    return np.searchsorted(a, v)


@njit
def search_right(a, v):
    return np.searchsorted(a, v, side="right")


@njit
def search_left_kw(a, v):
    return np.searchsorted(a, v, "left")


REAL = [np.int32, np.float64]
REAL_ALL = REAL + [pytest.param(t, marks=pytest.mark.slow) for t in (np.uint8, np.float32)]


def sorted_sample(dtype, n, rng):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return np.sort(rng.integers(0, 2, n).astype(bool))
    if kind in "iu":
        return np.sort(rng.integers(0, 20, n).astype(dtype))
    a = np.sort(rng.integers(-5, 15, n).astype(dtype) / 2)
    if n > 4:
        a[-2:] = np.nan  # NaN sorts last
    return a


@pytest.mark.parametrize("dtype", REAL_ALL)
def test_searchsorted_matches_numpy(dtype):
    rng = np.random.default_rng(200 + np.dtype(dtype).num)
    for n in (0, 1, 5, 64):
        a = sorted_sample(dtype, n, rng)
        keys = sorted_sample(dtype, 40, rng)
        rng.shuffle(keys)
        for v in (keys, np.sort(keys), keys.reshape(5, 8), keys.reshape(5, 8).T, keys[:0],
                  np.array(keys[3])):
            for f, side in ((search_left, "left"), (search_right, "right"),
                            (search_left_kw, "left")):
                got = f(a, v)
                want = np.searchsorted(a, v, side=side)
                assert got.dtype == np.int64 and got.shape == v.shape
                np.testing.assert_array_equal(got, want)
        for key in keys[:6]:
            for f, side in ((search_left, "left"), (search_right, "right")):
                assert f(a, key.item()) == np.searchsorted(a, key, side=side)


def test_searchsorted_nan_mixed_and_complex():
    a = np.array([-np.inf, 1.0, 2.0, 2.0, np.inf, np.nan, np.nan])
    v = np.array([np.nan, 2.0, -np.inf, np.inf, 0.5, 3])
    for f, side in ((search_left, "left"), (search_right, "right")):
        np.testing.assert_array_equal(f(a, v), np.searchsorted(a, v, side=side))
        assert f(a, np.nan) == np.searchsorted(a, np.nan, side=side)
        ints = np.array([1, 3, 3, 7])
        assert f(ints, 3.5) == np.searchsorted(ints, 3.5, side=side)
        np.testing.assert_array_equal(f(ints, v[1:]),
                                      np.searchsorted(ints, v[1:], side=side))
        c = np.sort(np.array([1 + 1j, 1 + np.nan * 1j, 2, 1 - 1j, np.nan, 1j]))
        cv = np.array([1 + 0j, 1 + 2j, np.nan, 3, 1 + np.nan * 1j])
        np.testing.assert_array_equal(f(c, cv), np.searchsorted(c, cv, side=side))
        assert f(c, 1.5) == np.searchsorted(c, 1.5, side=side)


def test_searchsorted_errors():
    with pytest.raises(TypingError, match="Invalid value given for 'side': middle"):
        njit(lambda a, v: np.searchsorted(a, v, side="middle"))(np.arange(3), 1)
    with pytest.raises(TypingError, match="a must be a 1-D array"):
        search_left(np.ones((2, 2)), 1.0)
    with pytest.raises(TypingError, match="v must be a number or an array"):
        search_left(np.ones(2), (1.0, 2.0))
    with pytest.raises(TypingError, match="missing argument 'v'"):
        njit(lambda a: np.searchsorted(a))(np.ones(2))
    with pytest.raises(TypingError, match="unexpected keyword argument 'sorter'"):
        njit(lambda a: np.searchsorted(a, 1.0, sorter=a))(np.ones(2))


@njit
def digitize(x, bins):
    return np.digitize(x, bins)


@njit
def digitize_right(x, bins):
    return np.digitize(x, bins, right=True)


@pytest.mark.parametrize("more", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_digitize_matches_numpy(more):
    rng = np.random.default_rng(5)
    x = rng.integers(-2, 12, 30).astype(np.float64)
    x[4] = np.nan
    all_bins = [np.array([0.0, 1, 1, 4, 9]), np.array([9.0, 4, 1, 1, 0]), np.array([3.0]),
                np.array([2.0, 2.0])] + ([np.arange(10)] if more else [])
    for bins in all_bins:
        for f, right in ((digitize, False), (digitize_right, True)):
            xss = [x[::3], np.nan_to_num(x).astype(np.int64)[5:]] if more else [x]
            for xs in xss + [x.reshape(5, 6)]:
                got = f(xs, bins)
                assert got.dtype == np.int64
                np.testing.assert_array_equal(got, np.digitize(xs, bins, right=right))
            assert f(4.0, bins) == np.digitize(4.0, bins, right=right)
    with pytest.raises(ValueError, match="monotonically increasing or decreasing"):
        digitize(x, np.array([1.0, 3.0, 2.0]))
    with pytest.raises(TypeError, match="x may not be complex"):
        digitize(x + 1j, np.array([1.0, 3.0]))


@njit
def histogram(a):
    return np.histogram(a)


@njit
def histogram_bins(a, bins):
    return np.histogram(a, bins)


@njit
def histogram_range(a, bins, lo, hi):
    return np.histogram(a, bins=bins, range=(lo, hi))


def check_histogram(got, want, edges_dtype=np.float64):
    assert got[0].dtype == np.int64 and got[1].dtype == edges_dtype
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.parametrize("dtype", [np.float64, np.int64] + [
    pytest.param(t, marks=pytest.mark.slow) for t in (np.uint8, np.float32, np.int16)])
def test_histogram_equal_bins_matches_numpy(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    a = (rng.standard_normal(1000) * 20).astype(dtype)
    edges_on = np.linspace(-7, 11, 37).astype(dtype)  # values on the edges
    for x in (a, a.reshape(20, 50).T, edges_on, np.arange(10, dtype=dtype), a[:0], a[:1],
              np.full(5, 3, dtype)):
        if np.dtype(dtype) == np.float32:  # NumPy computes float32 edges: compare in float64
            check_histogram(histogram(x), np.histogram(x.astype(np.float64)))
            continue
        check_histogram(histogram(x), np.histogram(x))
        for bins in (1, 3, 7, 50):
            check_histogram(histogram_bins(x, bins), np.histogram(x, bins))
            check_histogram(histogram_range(x, bins, -3, 8),
                            np.histogram(x, bins, range=(-3, 8)))
            check_histogram(histogram_range(x, bins, 2.5, 2.5),
                            np.histogram(x, bins, range=(2.5, 2.5)))


def test_histogram_edges_array_matches_numpy():
    rng = np.random.default_rng(9)
    a = rng.integers(-3, 12, 400).astype(np.float64)
    a[::17] = np.nan
    a[5] = np.inf
    for bins in (np.array([0.0, 1, 1, 2.5, 9]), np.array([-1.0, 4]), np.arange(0, 11),
                 np.array([1.0, 1.0]), np.array([2.0]), np.array([0.0, 3, 3])):
        got = histogram_bins(a, bins)
        want = np.histogram(a, bins)
        check_histogram(got, want, bins.dtype)
        check_histogram(histogram_bins(a.reshape(20, 20)[:, ::3], bins),
                        np.histogram(a.reshape(20, 20)[:, ::3], bins), bins.dtype)
    ibins = np.array([0, 2, 5])
    check_histogram(histogram_bins(np.arange(10), ibins),
                    np.histogram(np.arange(10), ibins), np.int64)


def test_histogram_errors():
    a = np.arange(5.0)
    with pytest.raises(ValueError, match="bins must increase monotonically"):
        histogram_bins(a, np.array([0.0, 2.0, 1.0]))
    with pytest.raises(ValueError, match="bins must increase monotonically"):
        histogram_bins(a, np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match="`bins` should be a positive integer"):
        histogram_bins(a, 0)
    with pytest.raises(ValueError, match="max must be larger than min"):
        histogram_range(a, 3, 2.0, 1.0)
    with pytest.raises(ValueError, match="supplied range is not finite"):
        histogram_range(a, 3, 0.0, np.inf)
    with pytest.raises(ValueError, match="autodetected range is not finite"):
        histogram(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="must be 1d"):
        histogram_bins(a, np.ones((2, 2)))


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@pytest.mark.parametrize("more", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_interp_matches_numpy(more):
    rng = np.random.default_rng(3)
    xp = np.sort(rng.uniform(-5, 5, 20))
    xp[7] = xp[6]  # a repeated point
    fp = rng.standard_normal(20)
    x = np.concatenate([rng.uniform(-7, 7, 50), xp[:5], [np.nan, np.inf, -np.inf]])
    fps = [fp, fp + 1j * fp[::-1]]
    if more:
        fps += [(fp * 10).astype(np.int64), fp.astype(np.complex64)]
    for f in fps:
        for xs in (x, x.reshape(2, -1), x[::2], x[:3], x[:0]) if more else (x, x[:0]):
            got = interp(xs, xp, f)
            want = np.interp(xs, xp, f)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)
        got = interp(1.25, xp, f)
        assert got == np.interp(1.25, xp, f) and type(got) is type(np.interp(1.25, xp, f).item())
    for n in (1, 2, 4):  # the short searches and the one-point table
        for f in (fp[:n], fps[1][:n]):
            np.testing.assert_array_equal(interp(x, xp[:n], f), np.interp(x, xp[:n], f))
    ixp = np.arange(5)
    np.testing.assert_array_equal(interp(x, ixp, fp[:5]), np.interp(x, ixp, fp[:5]))
    np.testing.assert_array_equal(interp(x, xp, np.where(fp > 0, np.inf, fp)),
                                  np.interp(x, xp, np.where(fp > 0, np.inf, fp)))


def test_interp_errors():
    with pytest.raises(ValueError, match="array of sample points is empty"):
        interp(1.0, np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError, match="fp and xp are not of the same size."):
        interp(1.0, np.arange(3.0), np.arange(2.0))
    with pytest.raises(TypeError, match="Cannot cast array data from complex"):
        interp(1.0 + 1j, np.arange(3.0), np.arange(3.0))
    with pytest.raises(ValueError, match="xp must be 1D"):
        interp(1.0, np.ones((2, 2)), np.arange(4.0))


def test_interp_of_0d_x_is_a_number():
    got = interp(np.array(0.5), np.arange(3.0), np.arange(3.0) * 2)
    assert got == 1.0 and isinstance(got, float)
