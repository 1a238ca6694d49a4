"""Reductions along an axis (issue 10): np.sum/prod/min/amin/max/amax/mean(a, axis) and the
methods a.sum(axis=k) ..., with the axis a constant or a run-time int (negative too), against
NumPy's values and numba's result types (numba compiles sum with an axis; for the others the
type is the whole-array reduction's), over every dtype and every axis of C, F, strided and
empty arrays; AxisError out of range, NumPy's ValueError for min/max over an empty axis."""
import functools

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
NAMES = ["sum", "prod", "min", "max", "mean"]  # amin/amax: test_constant_axes...


numba_sum_axis = numba.njit(lambda a, k: np.sum(a, axis=k))


@functools.lru_cache(maxsize=None)
def numba_whole(name, dtype):
    """(dtype, Python type) of numba's np.<name>(a) of a 1-D array of dtype."""
    f = numba.njit(eval(f"lambda a: np.{name}(a)", {"np": np}))
    r = f(np.ones(3, dtype=dtype))
    t = str(f.nopython_signatures[-1].return_type)
    return np.dtype(np.bool_ if t == "bool" else t), type(r)


def check_type(name, got, a, k):
    """numba's result type: sum's from numba itself (it takes an axis), the others' element
    type from numba's whole-array reduction; a number from a 1-D array."""
    if name == "sum":
        want = numba_sum_axis(np.ascontiguousarray(a), k)  # the same type: compiled once
        assert type(got) is type(want)
        if a.dtype.kind in "biu":  # numba's _expand_integer, written out (numba's own answer
            # for small unsigned types changes with the NumPy it runs on); a number is a
            # Python int either way
            rule = np.dtype(np.uint64 if a.dtype.kind == "u" else np.int64)
            assert not isinstance(got, np.ndarray) or got.dtype == rule
        else:
            assert np.asarray(got).dtype == np.asarray(want).dtype
        return
    dtype, pytype = numba_whole(name, a.dtype)
    if a.ndim == 1:
        assert type(got) is pytype
    else:
        assert type(got) is np.ndarray and got.dtype == dtype and got.flags.c_contiguous


def arrays(dtype, rng):
    base = (rng.standard_normal(120) * 3).round(1)
    kind = np.dtype(dtype).kind
    if kind == "c":
        base = base + 1j * rng.standard_normal(120).round(1)
    if kind in "iu":
        base = np.abs(base).astype(np.int64) % 4 + (kind == "i") * -1
    if kind == "b":
        base = base > 0
    a = base.astype(dtype)
    if kind in "fc":
        a[[5, 40]] = np.nan  # NaN propagates along its lines
    if kind == "c":
        a[41] = complex(1, np.nan)
    return [a[:12].reshape(3, 4), a[:24].reshape(2, 3, 4)[:, ::2, 1:],
            np.asfortranarray(a[:30].reshape(5, 6)), a[:60].reshape(3, 4, 5).transpose(2, 0, 1),
            a[:0].reshape(0, 3), a[:0].reshape(3, 0), a[:7], a[:48].reshape(2, 2, 3, 4)[:, :, ::-1]]


def check(got, want, dtype):
    """Values as NumPy's (the types: check_type); float32 means sum in float32 here."""
    got = np.asarray(got)
    assert got.shape == want.shape
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got, want.astype(got.dtype), rtol=2e-5, atol=2e-5)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.filterwarnings("ignore:Mean of empty slice")
def test_every_axis_matches_numpy(name, dtype, nrt_balanced):
    function = njit(eval(f"lambda a, k: np.{name}(a, axis=k)", {"np": np}))
    method_name = {"amin": "min", "amax": "max"}.get(name, name)
    method = njit(eval(f"lambda a, k: a.{method_name}(k)"))
    rng = np.random.default_rng(hash((name, np.dtype(dtype).name)) % 2**32)
    extreme = name not in ("sum", "prod", "mean")
    for i, a in enumerate(arrays(dtype, rng)):
        forms = (function, method) if i in (1, 2, 5) else (function,)  # compiling takes time
        for k in range(-a.ndim, a.ndim):
            if extreme and a.shape[k] == 0:
                which = "minimum" if "min" in name else "maximum"
                for f in forms:
                    with pytest.raises(ValueError, match=f"zero-size array to reduction "
                                                         f"operation {which} which has no "
                                                         "identity"):
                        f(a, k)
                continue
            with np.errstate(all="ignore"):
                want = np.asarray(getattr(np, name)(a, axis=k))
            for f in forms:
                got = f(a, k)
                check(got, want, dtype)
                check_type(name, got, a, k)


@pytest.mark.parametrize("name", NAMES + ["amin", "amax"])
def test_constant_axes_positional_and_keyword(name, nrt_balanced):
    a = np.arange(60, dtype=np.float64).reshape(3, 4, 5) % 7 - 2
    method_name = {"amin": "min", "amax": "max"}.get(name, name)
    for src in ["np.{n}(a, 1)", "np.{n}(a, axis=-1)", "np.{n}(a=a, axis=0)", "a.{m}(axis=-2)",
                "a.{m}(2)", "np.{n}(a, axis=None)", "a.{m}(axis=None)", "np.{n}(a, -3)"]:
        code = src.format(n=name, m=method_name)
        f = njit(eval(f"lambda a: {code}", {"np": np}))
        want = eval(code.replace("a.", "np.asarray(a).").replace("np.amin(a=", "np.amin(")
                    .replace("np.amax(a=", "np.amax("), {"np": np, "a": a})
        got = f(a)
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=code)
        assert np.shape(got) == np.shape(want)


def test_sum_axis_results_as_numba_for_1d_and_3d(nrt_balanced):
    # 1-D: a number (numba's), 3-D: a 2-D array
    for dtype in (np.bool_, np.int8, np.uint16, np.float32, np.complex64):
        a = np.ones(5, dtype=dtype)
        f = njit(lambda a: np.sum(a, axis=0))
        g = numba.njit(lambda a: np.sum(a, axis=0))
        assert type(f(a)) is type(g(a)) and f(a) == g(a)
        b = np.ones((2, 3, 4), dtype=dtype)
        h = njit(lambda b: b.sum(axis=-1))
        hn = numba.njit(lambda b: b.sum(axis=-1))
        kind = np.dtype(dtype).kind  # integers: numba's rule written out (see check_type)
        assert h(b).dtype == (np.dtype(np.uint64 if kind == "u" else np.int64) if kind in "biu"
                              else hn(b).dtype)
        np.testing.assert_array_equal(h(b), hn(b))


def test_axis_out_of_range_is_axis_error(nrt_balanced):
    a = np.ones((2, 3))
    for src in ("np.sum(a, axis=2)", "a.mean(-3)", "np.max(a, 5)", "np.prod(a, axis=-7)"):
        f = njit(eval(f"lambda a: {src}", {"np": np}))
        with pytest.raises(np.exceptions.AxisError) as got:
            f(a)
        with pytest.raises(np.exceptions.AxisError) as want:
            eval(src, {"np": np, "a": a})
        assert str(got.value) == str(want.value)
    f = njit(lambda a, k: np.sum(a, axis=k))
    for k in (2, -3, 100, -(2**40)):
        with pytest.raises(np.exceptions.AxisError,
                           match="axis is out of bounds for array of dimension 2"):
            f(a, k)
    with pytest.raises(ValueError):  # AxisError is a ValueError (and an IndexError)
        njit(lambda a, k: a.min(axis=k))(np.ones(3), 1)
    with pytest.raises(np.exceptions.AxisError, match="dimension 0"):
        njit(lambda a, k: a.sum(k))(np.array(1.5), 0)
    assert njit(lambda a, k: a.sum(k))(np.arange(4), -1) == 6


def test_unsigned_and_narrow_axis_variables(nrt_balanced):
    a = np.arange(12).reshape(3, 4)
    f = njit(lambda a, k: np.sum(a, axis=k))
    np.testing.assert_array_equal(f(a, np.uint8(1)), a.sum(axis=1))
    np.testing.assert_array_equal(f(a, np.int8(-2)), a.sum(axis=0))


def test_results_are_owned_and_usable_in_compiled_code(nrt_balanced):
    @njit
    def f(a, n):
        total = 0.0
        for i in range(n):
            rows = a.sum(axis=1)        # a new array each time: the old one is dropped
            total += rows.sum() + np.max(a, axis=0)[0]
        return total, a.mean(axis=0)

    a = np.arange(12.0).reshape(3, 4)
    total, means = f(a, 5)
    assert total == 5 * (a.sum() + a.max(axis=0)[0])
    np.testing.assert_array_equal(means, a.mean(axis=0))
    assert means.flags.c_contiguous and means.flags.writeable


def test_empty_axis_sum_prod_mean(nrt_balanced):
    a = np.zeros((3, 0))
    np.testing.assert_array_equal(njit(lambda a: a.sum(axis=1))(a), np.zeros(3))
    np.testing.assert_array_equal(njit(lambda a: np.prod(a, 1))(a), np.ones(3))
    assert np.isnan(njit(lambda a: a.mean(axis=1))(a)).all()
    assert njit(lambda a: a.sum(axis=0))(a).shape == (0,)


def test_errors():
    a = np.ones((2, 2))
    with pytest.raises(TypingError, match="axis must be an integer, not float64"):
        njit(lambda a: np.sum(a, axis=1.0))(a)
    with pytest.raises(TypingError, match="axis must be an integer, not bool"):
        njit(lambda a: a.sum(True))(a)
    with pytest.raises(UnsupportedError, match="keyword argument out= is not supported"):
        njit(lambda a: np.sum(a, axis=0, out=a))(a)
    with pytest.raises(UnsupportedError, match=r"np.argmin\(\) with an axis"):
        njit(lambda a: np.argmin(a, axis=0))(a)
    with pytest.raises(TypingError, match="multiple values for argument 'axis'"):
        njit(lambda a: np.sum(a, 0, axis=1))(a)


def test_complex_min_max_as_numpy(nrt_balanced):
    # NumPy's order (real parts first) and its NaN rule (the first NaN, either part, wins);
    # numba skips NaN here
    m = np.array([[1 + 1j, 2 - 1j, 1 + 2j], [1 - 1j, complex(np.nan, 1), 1 + 2j],
                  [complex(0, np.nan), 3j, 1 + 3j]])
    f = njit(lambda a, k: (a.min(axis=k), np.max(a, axis=k)))
    for k in (0, 1, -1):
        lo, hi = f(m, k)
        np.testing.assert_array_equal(lo, np.min(m, axis=k))
        np.testing.assert_array_equal(hi, np.max(m, axis=k))


def test_reductions_of_temporaries_free_them(nrt_balanced):
    f = njit(lambda a: ((a * 2).sum(axis=0), np.cumsum(a + 1), np.median(a - 1),
                        (a * a).argmax(), np.mean(a * 3, 1).sum(), np.var(np.ones((2, 2)))))
    a = np.arange(12.0).reshape(3, 4)
    s, c, med, am, m, v = f(a)
    np.testing.assert_array_equal(s, (a * 2).sum(axis=0))
    np.testing.assert_array_equal(c, np.cumsum(a + 1))
    assert (med, am, m, v) == (np.median(a - 1), 11, np.mean(a * 3, 1).sum(), 0.0)
