"""np.flip, np.flipud, np.fliplr, np.outer, np.cross, np.roll (any rank, flattened) and np.diff
(any rank, along the last axis) in compiled code (cujit.np.arraymath), against NumPy: random
inputs of every dtype NumPy accepts, non-contiguous, F-ordered and 0-size operands, exact result
dtypes and shapes, views that write through, error paths in NumPy's/numba's words."""

import numpy as np
import pytest

from jitcache import jitted
from cujit import njit

pytestmark = pytest.mark.usefixtures("nrt_balanced")

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float32,
          np.float64, np.complex64, np.complex128]
NUMERIC = [d for d in DTYPES if d is not np.bool_]
FAST = (np.int8, np.complex128)  # the rest sweep behind the slow marker


SLOW = (np.bool_, np.float32, np.uint8)  # every other dtype: test_array_differential.py's sweep


def sweep(dtypes):
    return [d if d in FAST else pytest.param(d, marks=pytest.mark.slow) for d in dtypes
            if d in FAST or d in SLOW]


def flip(a):
    return np.flip(a)


def flipud(a):
    return np.flipud(a)


def fliplr(a):
    return np.fliplr(a)


def outer(a, b):
    return np.outer(a, b)


def outer_out(a, b, out):
    return np.outer(a, b, out)


def cross(a, b):
    return np.cross(a, b)


def roll(a, s):
    return np.roll(a, s)


def diff(a, n):
    return np.diff(a, n)


def diff1(a):
    return np.diff(a)


def sample(rng, shape, dtype):
    kind = np.dtype(dtype).kind
    x = rng.integers(-20, 20, shape) if kind in "iub" else rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind == "u":
        x = np.abs(x)
    return x.astype(dtype)


def layouts(rng, dtype):
    """Operands of several ranks: C, F, strided, reversed and 0-size (each a compile: the
    dtypes swept by default get a representative four, the slow sweep all of them)."""
    a3 = sample(rng, (3, 4, 5), dtype)
    few = [sample(rng, 7, dtype), np.asfortranarray(a3), a3[::-1, ::2, 1:],
           np.zeros((2, 0, 3), dtype)]
    if dtype in FAST:
        return few
    return few + [a3, sample(rng, (2, 3, 2, 3), dtype), np.zeros((0, 3), dtype), a3[::-1]]


def check(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind == "c":  # a complex product's last bit may differ (fused multiply-add)
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", sweep(DTYPES))
def test_flips_match_numpy(dtype):
    rng = np.random.default_rng(1)
    for a in layouts(rng, dtype):
        check(jitted(flip)(a), np.flip(a))
        check(jitted(flipud)(a), np.flipud(a))
        if a.ndim >= 2:
            check(jitted(fliplr)(a), np.fliplr(a))


def test_flips_are_views_and_every_rank():
    a = np.arange(24.0).reshape(2, 3, 4)
    v = jitted(flip)(a)
    v[0, 0, 0] = -1.0
    assert a[-1, -1, -1] == -1.0
    jitted(fliplr)(a)[0, 0, 0] = -2.0
    assert a[0, -1, 0] == -2.0
    for nd in range(9):
        b = np.arange(2 ** nd, dtype=np.int16).reshape((2,) * nd)
        check(jitted(flip)(b), np.flip(b))
    check(jitted(flip)(np.arange(3.0)[:, None].T), np.flip(np.arange(3.0)[:, None].T))


def test_flip_errors():
    with pytest.raises(ValueError, match=r"Input must be >= 2-d\."):
        jitted(fliplr)(np.arange(3))
    with pytest.raises(ValueError, match=r"Input must be >= 1-d\."):
        jitted(flipud)(np.array(1.0))
    with pytest.raises(NotImplementedError, match="more than 8 dimensions"):
        jitted(flip)(np.zeros((1,) * 9))

    def flip_axis(a):
        return np.flip(a, axis=0)  # numba's np.flip takes no axis either

    with pytest.raises(Exception, match="axis"):
        jitted(flip_axis)(np.zeros(3))


@pytest.mark.parametrize("dtype", sweep(DTYPES))
def test_outer_matches_numpy(dtype):
    rng = np.random.default_rng(2)
    for a, b in [(sample(rng, 4, dtype), sample(rng, 3, dtype)),
                 (sample(rng, (2, 3), dtype), sample(rng, (3, 2), dtype)[::2]),
                 (np.asfortranarray(sample(rng, (3, 2), dtype)), sample(rng, 5, dtype)[::-1]),
                 (np.zeros(0, dtype), sample(rng, 3, dtype)),
                 (sample(rng, (2, 2, 2), dtype), sample(rng, 2, dtype))]:
        check(jitted(outer)(a, b), np.outer(a, b))


def test_outer_out_and_scalars():
    a, b = np.arange(3.0), np.arange(1.0, 5.0)
    out = np.zeros((3, 4))
    r = jitted(outer_out)(a, b, out)
    assert r is out
    np.testing.assert_array_equal(out, np.outer(a, b))
    out_f = np.zeros((3, 4), order="F")
    jitted(outer_out)(a, b, out_f)
    np.testing.assert_array_equal(out_f, np.outer(a, b))
    check(jitted(outer)(2.5, b), np.outer(2.5, b))
    with pytest.raises(ValueError):
        jitted(outer_out)(a, b, np.zeros((4, 3)))


def numpy_cross(a, b):
    """NumPy's cross product, a 2-vector taken as (x, y, 0) as NumPy < 2.3 does (newer NumPy
    refuses 2-vectors; numba and cujit keep the old rule for a 2-vector with a 3-vector)."""
    def three(x):
        if x.shape[-1] != 2:
            return x
        return np.concatenate([x, np.zeros(x.shape[:-1] + (1,), x.dtype)], axis=-1)
    return np.cross(three(a), three(b))


@pytest.mark.parametrize("dtype", [np.float32, pytest.param(np.int8, marks=pytest.mark.slow)] + [
    pytest.param(d, marks=pytest.mark.slow) for d in SLOW if d in NUMERIC and d != np.float32])
def test_cross_matches_numpy(dtype):
    rng = np.random.default_rng(3)
    cases = [((3,), (3,)), ((2, 1, 3), (4, 3)), ((4, 2), (4, 3)), ((0, 3), (3,))]
    if dtype not in (np.int8, np.float32):
        cases += [((5, 3), (3,)), ((3,), (4, 3)), ((3,), (2,)), ((2, 0, 3), (1, 3))]
    for sa, sb in cases:
        a, b = sample(rng, sa, dtype), sample(rng, sb, dtype)
        want = numpy_cross(a, b)
        got = jitted(cross)(a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        if np.dtype(dtype).kind in "fc":
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        else:
            np.testing.assert_array_equal(got, want)
    # mixed dtypes promote; non-contiguous and F-ordered operands
    a = np.asfortranarray(sample(rng, (4, 3), np.float32))
    b = sample(rng, (4, 6), np.int16)[:, ::2]
    want = np.cross(a, b)
    got = jitted(cross)(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_cross_errors():
    with pytest.raises(ValueError, match=r"Incompatible dimensions for cross product\n"
                                         r"\(dimension must be 2 or 3\)"):
        jitted(cross)(np.zeros(4), np.zeros(3))
    with pytest.raises(ValueError, match="Dimensions for both inputs is 2"):
        jitted(cross)(np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError):
        jitted(cross)(np.zeros((2, 3)), np.zeros((4, 3)))  # shapes do not broadcast


@pytest.mark.parametrize("dtype", sweep(DTYPES))
def test_roll_any_rank_matches_numpy(dtype):
    rng = np.random.default_rng(4)
    for a in layouts(rng, dtype):
        for s in (0, 1, 7, -3, 61, -200):
            check(jitted(roll)(a, s), np.roll(a, s))
    a = sample(rng, (2, 3), dtype)
    check(jitted(roll)(a, True), np.roll(a, 1))
    check(jitted(roll)(np.array(dtype(1)), 4), np.roll(np.array(dtype(1)), 4))


@pytest.mark.parametrize("dtype", sweep(DTYPES))
def test_diff_any_rank_matches_numpy(dtype):
    rng = np.random.default_rng(5)
    a = sample(rng, (3, 4), dtype)
    check(jitted(diff1)(a), np.diff(a))
    for a in layouts(rng, dtype):
        for n in (0, 1, 2, 4, 5, 9):
            check(jitted(diff)(a, n), np.diff(a, n))


def test_diff_errors():
    with pytest.raises(ValueError, match=r"diff\(\): order must be non-negative"):
        jitted(diff)(np.zeros((2, 3)), -1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        jitted(diff1)(np.array(1.0))
