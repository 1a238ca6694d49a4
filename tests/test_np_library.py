"""NumPy functions cujit compiles from Python (cujit.np.arraymath, issue 10), as numba does:
np.diff, np.flatnonzero, np.unique, np.trace, np.array_equal, np.isclose, np.allclose,
np.bincount, np.roll against NumPy over random inputs and edge cases; the branch on a.ndim is
decided at compile time, so each rank compiles its own code."""
import numpy as np
import pytest

from jitcache import jitted
from cujit import njit

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def diff(a):
    return np.diff(a)


def diff_n(a, n):
    return np.diff(a, n)


def flatnonzero(a):
    return np.flatnonzero(a)


def unique(a):
    return np.unique(a)


def trace(a):
    return np.trace(a)


def close(a, b):
    return np.isclose(a, b), np.allclose(a, b), np.isclose(a, b, equal_nan=True)


def equal(a, b):
    return np.array_equal(a, b)


def bincount(x, n):
    return np.bincount(x, minlength=n)


def roll(a, s):
    return np.roll(a, s)


def test_diff_and_flatnonzero():
    rng = np.random.default_rng(1)
    for a in [rng.integers(-5, 5, 9), rng.standard_normal((3, 5)), np.zeros(1), np.zeros((2, 0))]:
        np.testing.assert_array_equal(jitted(diff)(a), np.diff(a))
        np.testing.assert_array_equal(jitted(flatnonzero)(a), np.flatnonzero(a))
    a = rng.integers(-5, 5, 9)
    for n in range(4):
        np.testing.assert_array_equal(jitted(diff_n)(a, n), np.diff(a, n))
    with pytest.raises(ValueError, match="non-negative"):
        jitted(diff_n)(a, -1)


def test_unique_trace_equal():
    rng = np.random.default_rng(2)
    for a in [rng.integers(0, 6, 30), rng.integers(0, 4, (5, 3)).astype(np.float32),
              np.array([np.nan, 1.0, np.nan, -0.0, 0.0]), np.zeros(0)]:
        np.testing.assert_array_equal(jitted(unique)(a), np.unique(a))
    for m in [rng.standard_normal((4, 4)), rng.integers(0, 9, (3, 5)), np.zeros((0, 3))]:
        assert jitted(trace)(m) == pytest.approx(np.trace(m))
    a = rng.standard_normal((2, 3))
    assert jitted(equal)(a, a.copy()) is True
    assert jitted(equal)(a, a + 1) is False
    assert jitted(equal)(a, a[:1]) is False


def test_isclose_allclose():
    a = np.array([1.0, np.nan, np.inf, -np.inf, 2.0, 0.0])
    b = np.array([1.0 + 1e-9, np.nan, np.inf, np.inf, 2.1, 1e-9])
    got = jitted(close)(a, b)
    np.testing.assert_array_equal(got[0], np.isclose(a, b))
    assert got[1] is False and jitted(close)(a[:1], b[:1])[1] is True
    np.testing.assert_array_equal(got[2], np.isclose(a, b, equal_nan=True))


def test_bincount_and_roll():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 7, 40)
    for n in (0, 3, 12):
        np.testing.assert_array_equal(jitted(bincount)(x, n), np.bincount(x, minlength=n))
    with pytest.raises(ValueError, match="non-negative"):
        jitted(bincount)(np.array([1, -1]), 0)
    a = rng.standard_normal((3, 4))
    for s in (0, 1, 5, -2, 13):
        np.testing.assert_array_equal(jitted(roll)(a[:, 0], s), np.roll(a[:, 0], s))
