"""More whole-array reductions (issue 10): np.var/std, argmin/argmax, cumsum/cumprod (and their
methods), nansum/nanprod/nanmean/nanmin/nanmax, median, count_nonzero, against NumPy's values
and numba's result types, over every dtype they take and C, F, strided, empty and 0-d arrays;
NaN as NumPy (argmin/argmax: the first NaN; nan*: skipped; median: propagates), NumPy's
errors for empty arrays, UnsupportedError where numba has no complex version."""
import functools
import warnings

import numba
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError, UnsupportedError

# compile-heavy sweeps (cujit and numba per dtype and axis): behind the `slow` marker, run by
# dev/test.sh and not under the sanitizers (test_array_reduce.py covers these paths there)
pytestmark = pytest.mark.slow

DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float32, np.float64,
          np.complex64, np.complex128]
METHODS = ["var", "std", "argmin", "argmax", "cumsum", "cumprod"]
FUNCTIONS = METHODS + ["nansum", "nanprod", "nanmean", "nanmin", "nanmax", "median",
                       "count_nonzero"]
NO_COMPLEX = {"argmin", "argmax", "median"}  # as numba
EMPTY_ERRORS = {"argmin": "attempt to get argmin of an empty sequence",
                "argmax": "attempt to get argmax of an empty sequence",
                "nanmin": "zero-size array to reduction operation fmin which has no identity",
                "nanmax": "zero-size array to reduction operation fmax which has no identity"}


INTEGER_SUMS = {"cumsum", "cumprod", "nansum", "nanprod"}


@functools.lru_cache(maxsize=None)
def numba_result(name, dtype):
    """numba's result of np.<name> on a small 2-D array of dtype: (Python type, dtype). Sums
    and products of bools and integers follow numba's rule (int64, uint64 when unsigned: its
    _expand_integer), written out: numba's own answer for small unsigned types changes with
    the NumPy it runs on (int64 under NumPy 2.5, where the GPU machine runs it)."""
    f = numba.njit(eval(f"lambda a: np.{name}(a)", {"np": np}))
    r = f(np.arange(1, 7).astype(dtype).reshape(2, 3))
    kind = np.dtype(dtype).kind
    if name in INTEGER_SUMS and kind in "biu":
        rule = np.dtype(np.uint64 if kind == "u" else np.int64)
        return type(r), rule if isinstance(r, np.ndarray) else np.asarray(r).dtype
    return type(r), np.asarray(r).dtype


def arrays(dtype, rng, nan=True):
    base = (rng.standard_normal(60) * 3).round(1)
    kind = np.dtype(dtype).kind
    if kind == "c":
        base = base + 1j * rng.standard_normal(60).round(1)
    if kind in "iu":
        base = np.abs(base).astype(np.int64) % 4 + (kind == "i") * -1
    if kind == "b":
        base = base > 0
    a = base.astype(dtype)
    out = [a[:7], a[:12].reshape(3, 4), a[:24].reshape(2, 3, 4)[:, ::2, 1:],
           np.asfortranarray(a[:12].reshape(3, 4)), a[:6].reshape(2, 3)[:, ::-1], a[:0],
           np.array(a[0]), a[:8]]
    if kind in "fc" and nan:
        b = a[:9].copy()
        b[[2, 6]] = np.nan
        out.append(b)
    return out


def numpy_value(name, a):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(np, name)(a)


def check_value(got, want, tol):
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape
    if want.dtype.kind in "fc" or got.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", FUNCTIONS)
def test_matches_numpy_and_numba_types(name, dtype, nrt_balanced):
    if np.dtype(dtype).kind == "c" and name in NO_COMPLEX:
        pytest.skip("no complex version: test_complex_unsupported")
    forms = [njit(eval(f"lambda a: np.{name}(a)", {"np": np}))]
    if name in METHODS:
        forms.append(njit(eval(f"lambda a: a.{name}()")))
    want_type, want_dtype = numba_result(name, dtype)
    # float32 sums NumPy does pairwise in float32; cujit and numba in order (or float64)
    tol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    rng = np.random.default_rng(hash((name, np.dtype(dtype).name)) % 2**32)
    for a in arrays(dtype, rng):
        for f in forms:
            if a.size == 0 and name in EMPTY_ERRORS:
                with pytest.raises(ValueError, match=EMPTY_ERRORS[name]):
                    f(a)
                continue
            got = f(a)
            assert type(got) is want_type
            if want_type is np.ndarray:
                assert got.dtype == want_dtype and got.ndim == 1 and got.flags.c_contiguous
            check_value(got, numpy_value(name, a), tol)


def test_argmin_argmax_nan_and_ties():
    f = njit(lambda a: (np.argmin(a), np.argmax(a), a.argmin(), a.argmax()))
    assert f(np.array([1.0, np.nan, 0.0, np.nan])) == (1, 1, 1, 1)
    assert f(np.array([np.nan, 1.0])) == (0, 0, 0, 0)
    assert f(np.array([2.0, -1.0, 5.0, -1.0, 5.0])) == (1, 2, 1, 2)  # the first of equals
    assert f(np.array([-np.inf, np.inf])) == (0, 1, 0, 1)
    assert f(np.array([True, False, True])) == (1, 0, 1, 0)
    assert f(np.zeros(3, dtype=np.bool_)) == (0, 0, 0, 0)
    a = np.arange(12.0).reshape(3, 4)
    a[1, 2] = -5
    for view in (a, a.T, a[:, ::-1], np.asfortranarray(a)):
        assert f(view) == (np.argmin(view), np.argmax(view)) * 2  # flat C-order indices


def test_nan_functions():
    a = np.array([1.0, np.nan, 3.0, np.nan, -2.0])
    f = njit(lambda a: (np.nansum(a), np.nanprod(a), np.nanmean(a), np.nanmin(a),
                        np.nanmax(a)))
    assert f(a) == (2.0, -6.0, 2.0 / 3.0, -2.0, 3.0)
    assert f(np.array([np.nan, 4.0]))[3:] == (4.0, 4.0)  # a leading NaN gives way
    allnan = f(np.full(3, np.nan))
    assert allnan[:2] == (0.0, 1.0) and all(np.isnan(allnan[2:]))
    z = np.array([1 + 1j, complex(np.nan, 0), complex(0, np.nan), 2 - 1j, 3 - 3j])
    g = njit(lambda z: (np.nansum(z), np.nanprod(z), np.nanmean(z), np.nanmin(z), np.nanmax(z),
                        np.min(z), z.max()))
    got = g(z)
    assert got[:5] == (np.nansum(z), np.nanprod(z), np.nanmean(z), np.nanmin(z), np.nanmax(z))
    assert got[3:5] == (1 + 1j, 3 - 3j)  # 0+nanj, which compares less, gives way
    # the first NaN, as NumPy's (numba skips it: 1+1j, 3-3j)
    assert [str(v) for v in got[5:]] == [str(complex(np.min(z))), str(complex(np.max(z)))]
    assert str(got[5]) == "(nan+0j)"


def test_median():
    f = njit(lambda a: np.median(a))
    assert f(np.array([3.0, 1.0, 2.0])) == 2.0
    assert f(np.array([4, 1, 3, 2])) == 2.5
    assert f(np.array([5.0])) == 5.0
    assert np.isnan(f(np.array([1.0, np.nan, 2.0])))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(f(np.zeros(0)))
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 10, 101, 1000, 1001):
        a = rng.integers(-5, 5, n).astype(np.float64)  # many ties
        assert f(a) == np.median(a)
        b = rng.standard_normal(n)
        assert f(b) == np.median(b)
    big = np.full(2, np.finfo(np.float64).max)
    with np.errstate(over="ignore"):
        assert f(big) == np.median(big)  # the two middle ones' mean, as NumPy's (inf)
    m = rng.standard_normal((6, 7))
    assert f(m.T[::2]) == np.median(m.T[::2])
    # equal elements: a three-way partition stays linear (a two-way one took minutes here)
    assert f(np.zeros(300001)) == 0.0 and f(np.ones(300000, dtype=np.int8)) == 1.0


def test_var_std_values():
    f = njit(lambda a: (np.var(a), np.std(a), a.var(), a.std()))
    a = np.array([1.0, 2.0, 4.0, 7.0])
    assert f(a) == (np.var(a), np.std(a)) * 2
    z = np.array([1 + 2j, 3 - 1j, -2j])
    assert np.allclose(f(z), (np.var(z), np.std(z)) * 2, rtol=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert all(np.isnan(f(np.zeros(0))))  # NumPy's nan (numba: ZeroDivisionError)
    big = np.full(1000, 1e8) + np.arange(1000)  # two passes: no cancellation
    assert np.isclose(f(big)[0], np.var(big), rtol=1e-12)


def test_var_std_ddof():
    # NumPy's ddof= (numba has none): divided by max(n - ddof, 0), inf or nan past n
    f = njit(lambda a, d: (np.var(a, ddof=d), a.std(ddof=d), np.std(a, ddof=None),
                           a.var(ddof=1)))
    for a in (np.array([1.0, 2.0, 4.0, 7.0]), np.arange(12).reshape(3, 4).T,
              np.array([1 + 2j, 3 - 1j, 0.5j])):
        for d in (0, 1, 2.5, np.int8(2), a.size, a.size + 1):
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = (np.var(a, ddof=d), np.std(a, ddof=d), np.std(a), np.var(a, ddof=1))
            np.testing.assert_allclose(f(a, d), want, rtol=1e-14)


def test_cumulative_of_views_and_0d(nrt_balanced):
    f = njit(lambda a: (np.cumsum(a), a.cumprod()))
    for a in (np.arange(1, 13).reshape(3, 4).T, np.array(5), np.arange(1, 7)[::-2]):
        s, p = f(a)
        np.testing.assert_array_equal(s, np.cumsum(a))
        np.testing.assert_array_equal(p, np.cumprod(a))
    s, p = f(np.array([True, True, False]))
    assert s.dtype == np.int64 and list(s) == [1, 2, 2] and list(p) == [1, 1, 0]
    u = f(np.array([200, 100], dtype=np.uint8))[0]
    assert u.dtype == np.uint64 and list(u) == [200, 300]


def test_results_used_in_compiled_code(nrt_balanced):
    @njit
    def f(a, n):
        t = 0.0
        for i in range(n):
            c = np.cumsum(a)  # a new array each time, the old one dropped
            t += c[-1] + np.median(a) + np.argmax(c) + np.count_nonzero(a)
        return t, c

    a = np.array([3.0, 0.0, 2.0, 5.0])
    t, c = f(a, 4)
    assert t == 4 * (10.0 + 2.5 + 3 + 3)
    np.testing.assert_array_equal(c, np.cumsum(a))


def test_complex_unsupported():
    for name in sorted(NO_COMPLEX):
        with pytest.raises(UnsupportedError, match="complex arrays is not supported"):
            njit(eval(f"lambda a: np.{name}(a)", {"np": np}))(np.ones(2, dtype=np.complex128))


def test_errors():
    a = np.ones(3)
    with pytest.raises(UnsupportedError, match=r"np.var\(\) with the keyword argument "
                                               "keepdims="):
        njit(lambda a: np.var(a, keepdims=True))(a)
    with pytest.raises(UnsupportedError, match=r"np.mean\(\) with the keyword argument ddof="):
        njit(lambda a: np.mean(a, ddof=1))(a)
    with pytest.raises(TypingError, match=r"ddof must be a real number, not complex128"):
        njit(lambda a: a.std(ddof=1j))(a)
    with pytest.raises(UnsupportedError, match=r"np.median\(\) with an axis"):
        njit(lambda a: np.median(a, 0))(a)
    with pytest.raises(TypingError, match=r"np.cumsum\(\) takes an array in cujit, not int64"):
        njit(lambda x: np.cumsum(x))(3)
    with pytest.raises(UnsupportedError, match="array attribute 'nansum'"):
        njit(lambda a: a.nansum())(a)  # as numba: no such method
