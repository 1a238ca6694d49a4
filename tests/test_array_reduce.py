"""Whole-array reductions (issue 10): a.sum()/np.sum(a), prod, min/amin, max/amax, mean, any,
all, as methods and functions, against NumPy's values with numba's result types, over random
shapes (empty, non-contiguous, F order, 0-d) and every dtype they take."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError, UnsupportedError

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64,
          np.float32, np.float64, np.complex64, np.complex128]
NAMES = ["sum", "prod", "min", "max", "mean", "any", "all"]


def numba_result_dtype(name, dtype):
    dtype = np.dtype(dtype)
    if name in ("sum", "prod"):
        if dtype.kind == "b":
            return np.dtype(np.int64)
        if dtype.kind in "iu":
            return np.dtype(np.int64 if dtype.kind == "i" else np.uint64)
        return dtype
    if name == "mean":
        return np.dtype(np.float64) if dtype.kind in "biu" else dtype
    if name in ("any", "all"):
        return np.dtype(np.bool_)
    return dtype


def arrays(dtype, rng):
    base = (rng.standard_normal(60) * 4).round(1)
    if np.dtype(dtype).kind == "c":
        base = base + 1j * rng.standard_normal(60).round(1)
    if np.dtype(dtype).kind in "iu":
        base = np.abs(base).astype(np.int64) % 5 + (np.dtype(dtype).kind == "i") * -2
    if np.dtype(dtype).kind == "b":
        base = base > 0
    a = base.astype(dtype)
    return [a[:7], a[:12].reshape(3, 4), a[:24].reshape(2, 3, 4)[:, ::2, 1:],
            a[:12].reshape(3, 4).T, a[:0], a[:6].reshape(2, 3)[:, ::-1], np.array(a[0])]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", NAMES)
def test_reductions_match_numpy(name, dtype):
    method = njit(eval(f"lambda a: a.{name}()"))
    function = njit(eval(f"lambda a: np.{name}(a)", {"np": np}))
    rng = np.random.default_rng(hash((name, np.dtype(dtype).name)) % 2**32)
    for a in arrays(dtype, rng):
        if a.size == 0 and name in ("min", "max"):
            with pytest.raises(ValueError, match="zero-size array to reduction operation "
                                                 f"{'minimum' if name == 'min' else 'maximum'}"):
                method(a)
            continue
        with np.errstate(all="ignore"):
            want = getattr(np, name)(a)
        for f in (method, function):
            got = f(a)
            want_dtype = numba_result_dtype(name, dtype)
            assert np.asarray(got).dtype.kind == want_dtype.kind or \
                (want_dtype.kind in "iu" and isinstance(got, int))
            ret = f.nopython_signatures[-1].return_type
            assert str(ret) == ("bool" if want_dtype.kind == "b" else want_dtype.name)
            if want_dtype.kind in "fc" and a.size:
                tol = 1e-5 if want_dtype.itemsize <= 8 and want_dtype.kind != "c" else 1e-5
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
            elif a.size == 0 and name == "mean":
                assert np.isnan(got)
            else:
                assert got == want


def test_nan_propagates_in_min_max():
    a = np.array([3.0, np.nan, -1.0])
    f = njit(lambda a: (a.min(), a.max(), np.min(a[2:]), np.amax(a[:1])))
    mn, mx, tail, head = f(a)
    assert np.isnan(mn) and np.isnan(mx) and tail == -1.0 and head == 3.0


def test_integer_sums_wrap_as_numba():
    a = np.full(4, 2**62, dtype=np.int64)
    assert njit(lambda a: a.sum())(a) == np.int64(a.sum())  # both wrap


def test_reductions_of_new_arrays_free_them():
    from cujit import _core
    import gc
    gc.collect()
    before = _core.nrt_stats()
    f = njit(lambda n: np.ones((n, 3)).sum() + np.zeros(n).mean() + np.full(n, 2).prod())
    assert f(4) == 12 + 0 + 2 ** 4
    gc.collect()
    made, freed = _core.nrt_stats()
    assert made - before[0] == 3 and freed - before[1] == 3


def test_errors():
    with pytest.raises(UnsupportedError, match="keyword argument dtype= is not supported"):
        njit(lambda a: a.sum(dtype=np.float32))(np.ones((2, 2)))
    with pytest.raises(UnsupportedError, match=r"beyond the array and axis \(dtype=, out=\)"):
        njit(lambda a: np.sum(a, 0, np.float64))(np.ones((2, 2)))
    with pytest.raises(UnsupportedError, match=r"np.any\(\) with an axis is not supported"):
        njit(lambda a: np.any(a, axis=0))(np.ones((2, 2)))
    with pytest.raises(TypingError, match=r"np.sum\(\) takes an array in cujit, not float64"):
        njit(lambda x: np.sum(x))(1.5)
    with pytest.raises(UnsupportedError, match="complex arrays"):
        njit(lambda a: a.argmax())(np.ones(3, dtype=np.complex128))
