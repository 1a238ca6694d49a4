"""Array assignment into views and indexing with arrays in compiled code (issue 10):
a[...] = array (broadcast, cast, overlapping memory copied first as NumPy does), a[mask],
a[mask] = v, a[idx], a[idx] = v, against NumPy over random shapes, dtypes and layouts (empty,
non-contiguous, F order, negative indices), with NumPy's errors and the allocation counters
back to equal."""
import numpy as np
import pytest

from jitcache import jitted
from cujit import njit
from cujit.errors import TypingError, UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

# each dtype compiles many variants: the rest of the sweep is behind the `slow` marker (run by
# dev/test.sh, not under the sanitizers)
DTYPES = [np.int64] + [pytest.param(t, marks=pytest.mark.slow) for t in  # CI time
                       (np.float64, np.bool_, np.int8, np.uint32, np.float32, np.complex128)]


def sample(dtype, shape, rng):
    a = rng.integers(-5, 6, shape)
    if np.dtype(dtype).kind == "c":
        return (a + 1j * rng.integers(-3, 3, shape)).astype(dtype)
    return a.astype(dtype)


def layouts(a):
    big = np.zeros(tuple(2 * n + 1 for n in a.shape), a.dtype)
    view = big[tuple(slice(1, None, 2) for _ in a.shape)]
    view[...] = a
    return [a, np.asfortranarray(a), view]


def fill_all(a, b):
    a[:] = b
    return a


def fill_rows(a, b):
    a[1:, ::2] = b
    return a


def shift_right(a):
    a[1:] = a[:-1]
    return a


def shift_left(a):
    a[:-1] = a[1:]
    return a


@pytest.mark.parametrize("dtype", DTYPES)
def test_assigning_arrays_into_views_matches_numpy(dtype):
    rng = np.random.default_rng(1)
    for shape in [(5,), (3, 4), (0, 2), (2, 3, 2)]:
        for b in layouts(sample(dtype, shape, rng)):
            got = jitted(fill_all)(np.zeros(shape, np.float64 if dtype != np.complex128
                                          else dtype), b)
            want = fill_all(np.zeros(shape, got.dtype), b)
            np.testing.assert_array_equal(got, want)
    a, b = sample(dtype, (4, 6), rng), sample(dtype, (3,), rng)
    np.testing.assert_array_equal(jitted(fill_rows)(a.copy(), b), fill_rows(a.copy(), b))


def test_overlapping_assignment_reads_the_source_first():
    for f in (shift_right, shift_left):
        a = np.arange(10)
        np.testing.assert_array_equal(jitted(f)(a.copy()), f(a.copy()))
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(jitted(fill_all)(a.copy(), a.copy().T[:4, :3].T),
                                  fill_all(a.copy(), a.copy().T[:4, :3].T))
    b = np.arange(8.0)
    np.testing.assert_array_equal(jitted(fill_all)(b.copy(), b[::-1]), b[::-1])


def select(a, m):
    return a[m]


def select_positive(a):
    return a[a > 0]


def take(a, i):
    return a[i]


def put_mask(a, m, v):
    a[m] = v
    return a


def put_index(a, i, v):
    a[i] = v
    return a


@pytest.mark.parametrize("dtype", DTYPES)
def test_masks_select_in_c_order(dtype):
    rng = np.random.default_rng(2)
    for shape in [(7,), (3, 4), (0, 3), (2, 3, 2)]:
        for a in layouts(sample(dtype, shape, rng)):
            m = rng.integers(0, 2, shape).astype(bool)
            got = jitted(select)(a, m)
            assert got.dtype == a.dtype and got.ndim == 1
            np.testing.assert_array_equal(got, a[m])
            np.testing.assert_array_equal(jitted(select_positive)(a.real), a.real[a.real > 0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_integer_arrays_take_along_the_first_axis(dtype):
    rng = np.random.default_rng(3)
    for shape in [(6,), (4, 3), (3, 2, 2)]:
        for a in layouts(sample(dtype, shape, rng)):
            for idx_dtype in (np.int64, np.int32, np.uint8):
                idx = rng.integers(0, shape[0], 9).astype(idx_dtype)
                np.testing.assert_array_equal(jitted(take)(a, idx), a[idx])
            neg = np.array([-1, 0, -shape[0]])
            np.testing.assert_array_equal(jitted(take)(a, neg), a[neg])
            np.testing.assert_array_equal(jitted(take)(a, neg[:0]), a[neg[:0]])


@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_and_index_assignment_match_numpy(dtype):
    rng = np.random.default_rng(4)
    a = sample(dtype, (4, 5), rng)
    m = rng.integers(0, 2, (4, 5)).astype(bool)
    np.testing.assert_array_equal(jitted(put_mask)(a.copy(), m, 7), put_mask(a.copy(), m, 7))
    v = sample(dtype, (int(m.sum()),), rng)
    np.testing.assert_array_equal(jitted(put_mask)(a.copy(), m, v), put_mask(a.copy(), m, v))
    idx = np.array([3, -4, 1])
    np.testing.assert_array_equal(jitted(put_index)(a.copy(), idx, 2),
                                  put_index(a.copy(), idx, 2))
    rows = sample(dtype, (3, 5), rng)
    np.testing.assert_array_equal(jitted(put_index)(a.copy(), idx, rows),
                                  put_index(a.copy(), idx, rows))
    row = sample(dtype, (5,), rng)
    np.testing.assert_array_equal(jitted(put_index)(a.copy(), idx, row),
                                  put_index(a.copy(), idx, row))
    flat = a.ravel().copy()
    np.testing.assert_array_equal(jitted(put_index)(flat.copy(), idx, v[:3]),
                                  put_index(flat.copy(), idx, v[:3]))


def test_errors_are_numpys():
    with pytest.raises(IndexError, match="boolean index did not match"):
        jitted(select)(np.zeros((2, 3)), np.zeros((3, 2), bool))
    with pytest.raises(IndexError):
        jitted(take)(np.zeros(3), np.array([0, 3]))
    with pytest.raises(IndexError):
        jitted(take)(np.zeros(3), np.array([-4]))
    with pytest.raises(ValueError, match="cannot assign input values"):
        jitted(put_mask)(np.zeros(4), np.ones(4, bool), np.zeros(3))
    with pytest.raises(ValueError, match="broadcast"):
        jitted(fill_all)(np.zeros(4), np.zeros(3))
    with pytest.raises(TypingError, match="boolean index must have"):
        jitted(select)(np.zeros((2, 3)), np.zeros(3, bool))
    with pytest.raises(UnsupportedError, match="is not supported"):
        jitted(take)(np.zeros((2, 3)), np.zeros((2, 2), np.int64))
    with pytest.raises(TypingError):
        jitted(fill_all)(np.zeros(3), np.zeros(3, np.complex128))
