"""Array methods (issue 10): a.copy() / np.copy(a), a.astype(t), a.fill(v), a.transpose() /
np.transpose(a) / a.T against NumPy, over non-contiguous, F-ordered, empty and 0-d arrays,
with the allocation counters back to equal."""
import gc

import numpy as np
import pytest

from cujit import _core, njit
from cujit.errors import TypingError, UnsupportedError


pytestmark = pytest.mark.usefixtures("nrt_balanced")


def sources():
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    return [a, a[:, ::2, 1:], np.asfortranarray(a[0]), a[0, :, 0], np.zeros((0, 3)),
            np.array(5.0), (a > 7)[0], (a * 3).astype(np.int16)[1, :, ::-1]]


@pytest.mark.parametrize("src", sources(), ids=lambda a: f"{a.dtype}{a.shape}")
def test_copy_astype_transpose_match_numpy(src):
    f = njit(lambda a: (a.copy(), np.copy(a), a.astype(np.float32), a.astype("int64"),
                        a.T, a.transpose(), np.transpose(a)))
    cp, npcp, f32, i64, t, tr, nptr = f(src)
    for got in (cp, npcp):
        np.testing.assert_array_equal(got, src)
        assert got.dtype == src.dtype and got.flags.c_contiguous
        assert not np.shares_memory(got, src)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(f32, src.astype(np.float32))
        np.testing.assert_array_equal(i64, src.astype(np.int64))
    assert f32.dtype == np.float32 and i64.dtype == np.int64
    for got in (t, tr, nptr):
        np.testing.assert_array_equal(got, src.T)
        assert got.shape == src.T.shape and got.strides == src.T.strides
        assert src.size == 0 or np.shares_memory(got, src)


def test_fill_writes_every_element_through_strides():
    a = np.zeros((4, 6))
    view = a[1:, ::2]
    njit(lambda v, x: v.fill(x))(view, 7)
    want = np.zeros((4, 6))
    want[1:, ::2] = 7
    np.testing.assert_array_equal(a, want)
    b = np.zeros(3, dtype=np.bool_)
    njit(lambda v: v.fill(True))(b)
    assert b.all()


def test_copies_of_new_arrays_and_views_of_them():
    f = njit(lambda n: (np.ones((n, 2)).T.copy(), np.arange(0) if False else
                        np.full((2, n), 3.0).T))
    c, t = f(3)
    assert c.shape == (2, 3) and c.flags.c_contiguous and c.sum() == 6
    assert t.shape == (3, 2) and t.flags.f_contiguous and (t == 3.0).all()


def test_errors():
    with pytest.raises(TypingError, match="astype\\(\\) takes a NumPy number type"):
        njit(lambda a: a.astype("nope"))(np.ones(2))
    with pytest.raises(UnsupportedError, match="not supported yet"):
        njit(lambda a: a.transpose(1, 0))(np.ones((2, 2)))
    ro = np.ones(3)
    ro.flags.writeable = False
    with pytest.raises(TypingError, match="read-only"):
        njit(lambda a: a.fill(1.0))(ro)
