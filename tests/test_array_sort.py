"""Sorting in compiled code (issue 10): np.sort, a.sort(), np.argsort, a.argsort() along the last
axis, against NumPy for every real dtype, NaNs (last), ties (argsort is stable), empty and
non-contiguous inputs, sizes around the insertion-sort and heapsort thresholds, and the
errors; the allocation counters back to equal."""
import numpy as np
import pytest

from jitcache import jitted
from cujit import njit
from cujit.errors import TypingError, UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

FAST = [np.float64]  # CI time: int32 joined the slow sweep
# every dtype compiles ~20 variants: the whole sweep is behind the `slow` marker (run by
# dev/test.sh, not under the sanitizers)
DTYPES = FAST + [pytest.param(t, marks=pytest.mark.slow) for t in
                 (np.int32, np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.int64,
                  np.uint64, np.float32)]


def sort(a):
    return np.sort(a)


def sort_in_place(a):
    a.sort()
    return a


def argsort(a):
    return np.argsort(a)


def argsort_stable(a):
    return np.argsort(a, kind="stable")


def argsort_method(a):
    return a.argsort(kind="mergesort")


def sample(dtype, shape, rng):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -10**6), min(info.max, 10**6), shape,
                            dtype=np.int64).astype(dtype)
    a = rng.standard_normal(shape).astype(dtype)
    a.flat[::7] = np.nan
    a.flat[3::11] = np.inf
    a.flat[5::13] = -np.inf
    return a


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_matches_numpy(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    for shape in [(0,), (1,), (15,), (16,), (17,), (1000,), (4, 33), (3, 0), (2, 3, 40)]:
        a = sample(dtype, shape, rng)
        for x in [a, a[..., ::-1], np.asfortranarray(a)]:
            got = jitted(sort)(x)
            assert got.dtype == x.dtype and got.flags.c_contiguous
            np.testing.assert_array_equal(got, np.sort(x))
            y = x.copy()
            jitted(sort_in_place)(y)
            np.testing.assert_array_equal(y, np.sort(x))


@pytest.mark.parametrize("dtype", DTYPES)
def test_argsort_is_numpys_stable_order(dtype):
    rng = np.random.default_rng(100 + np.dtype(dtype).num)
    for shape in [(0,), (9,), (200,), (5, 64)]:
        a = sample(dtype, shape, rng)
        if np.dtype(dtype).kind in "iu":
            a = (a % 7).astype(dtype)  # many ties
        want = np.argsort(a, kind="stable")
        for f in (argsort, argsort_stable, argsort_method):
            got = jitted(f)(a)
            assert got.dtype == np.int64
            np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(jitted(argsort)(a[..., ::2]),
                                      np.argsort(a[..., ::2], kind="stable"))


def test_sorting_adversarial_inputs_stays_fast_and_right():
    n = 200_000
    for a in [np.zeros(n), np.arange(n, dtype=np.float64), np.arange(n)[::-1].copy(),
              np.tile(np.arange(3), n // 3), np.full(n, np.nan)]:
        np.testing.assert_array_equal(jitted(sort)(a), np.sort(a))


def test_sort_errors():
    with pytest.raises(UnsupportedError, match="complex"):
        jitted(sort)(np.zeros(3, np.complex128))
    with pytest.raises(TypingError, match="at least one dimension"):
        jitted(sort)(np.array(1.0))
    with pytest.raises(TypingError, match="kind must be"):
        njit(lambda a: np.argsort(a, kind="bogus"))(np.zeros(3))
    with pytest.raises(UnsupportedError, match="only the keyword kind"):
        njit(lambda a: np.sort(a, axis=0))(np.zeros(3))
