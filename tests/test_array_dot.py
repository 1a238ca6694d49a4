"""Matrix products in compiled code (issue 10): np.dot, np.vdot and @ through the process's BLAS
(NumPy's bundled OpenBLAS), against NumPy's values and numba's result types, for every rank
pair, float and complex dtypes, C / F / strided / reversed / empty operands, np.dot's out, and
numba's errors (sizes, dtypes, ranks)."""
import numpy as np
import pytest

from jitcache import jitted
from cujit import njit
from cujit.errors import TypingError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def dot(a, b):
    return np.dot(a, b)


def matmul(a, b):
    return a @ b


def vdot(a, b):
    return np.vdot(a, b)


def dot_out(a, b, out):
    return np.dot(a, b, out)


def sample(dtype, shape, rng):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def layouts(a):
    """a itself, in F order, and as a strided view holding the same values."""
    big = np.zeros(tuple(2 * n for n in a.shape), a.dtype)
    view = big[tuple(slice(None, None, 2) for _ in a.shape)]
    view[...] = a
    rev = a[::-1][::-1] if a.ndim == 1 else a
    return [a, np.asfortranarray(a), view, rev]


PAIRS = [((3, 4), (4, 5)), ((3, 4), (4,)), ((4,), (4, 5)), ((6,), (6,)), ((1, 7), (7, 1)),
         ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((3, 2), (2, 0)), ((0,), (0,))]


def tolerance(dtype):
    return 2e-5 if np.dtype(dtype).itemsize <= 8 and np.dtype(dtype).kind != "c" or \
        np.dtype(dtype) == np.complex64 else 1e-12


@pytest.mark.parametrize("f", [dot, matmul])
@pytest.mark.parametrize("dtype", DTYPES)
def test_products_match_numpy_for_every_rank_pair_and_layout(f, dtype):
    rng = np.random.default_rng(1)
    cf = njit(f)
    for sa, sb in PAIRS:
        a0, b0 = sample(dtype, sa, rng), sample(dtype, sb, rng)
        for a in layouts(a0):
            for b in layouts(b0):
                got, want = cf(a, b), np.dot(a, b)
                if np.ndim(want) > 0:
                    assert got.dtype == want.dtype
                assert np.shape(got) == np.shape(want)
                np.testing.assert_allclose(got, want, rtol=tolerance(dtype), atol=1e-5)


def test_reversed_and_broadcast_strides_are_copied():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal(3)
    np.testing.assert_allclose(jitted(dot)(a[::-1, ::-1], b[::-1]), np.dot(a[::-1, ::-1], b[::-1]))
    bb = np.broadcast_to(b, (4, 3)).T  # zero strides
    np.testing.assert_allclose(jitted(dot)(a, bb), np.dot(a, bb))
    assert jitted(dot)(b[::-1], b) == pytest.approx(np.dot(b[::-1], b))


def test_vdot_conjugates_its_first_vector():
    rng = np.random.default_rng(3)
    for dtype in DTYPES:
        x, y = sample(dtype, 10, rng), sample(dtype, 10, rng)
        got = jitted(vdot)(x[::2], y[1::2])
        assert type(got) is (complex if np.dtype(dtype).kind == "c" else float)
        np.testing.assert_allclose(got, np.vdot(x[::2], y[1::2]), rtol=tolerance(dtype))


def test_result_types_are_numbas():
    """numba (whose np.dot needs SciPy, absent here) gives a Python number for vector . vector,
    as it boxes every float and complex scalar, and an array of the operands' dtype else."""
    rng = np.random.default_rng(4)
    for dtype in DTYPES:
        a, b = sample(dtype, 3, rng), sample(dtype, 3, rng)
        assert type(jitted(dot)(a, b)) is (complex if np.dtype(dtype).kind == "c" else float)
        m = sample(dtype, (3, 3), rng)
        for x, y in [(m, m), (m, b), (a, m)]:
            got = jitted(dot)(x, y)
            assert type(got) is np.ndarray and got.dtype == dtype and got.flags.c_contiguous


def test_out_is_written_and_returned():
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    out = np.zeros((3, 2))
    r = jitted(dot_out)(a, b, out)
    np.testing.assert_allclose(out, a @ b)
    r[0, 0] = 42.0
    assert out[0, 0] == 42.0
    with pytest.raises(ValueError, match="incompatible output array size"):
        jitted(dot_out)(a, b, np.zeros((2, 3)))


def test_errors_are_numbas():
    f = njit(dot)
    with pytest.raises(ValueError, match=r"\(matrix \* matrix\)"):
        f(np.zeros((2, 3)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"\(matrix \* vector\)"):
        f(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match=r"\(vector \* matrix\)"):
        f(np.zeros(3), np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"\(vector \* vector\)"):
        f(np.zeros(3), np.zeros(2))
    with pytest.raises(TypingError, match="same dtype"):
        f(np.zeros(3), np.zeros(3, np.float32))
    with pytest.raises(TypingError, match="float and complex"):
        f(np.zeros(3, np.int64), np.zeros(3, np.int64))
    with pytest.raises(TypingError, match="1-D arrays"):
        jitted(vdot)(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(TypingError, match="compatible dimensions"):
        jitted(matmul)(np.zeros((2, 2, 2)), np.zeros((2, 2)))
    with pytest.raises(TypingError, match="C-contiguous"):
        jitted(dot_out)(np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((2, 2)).T)
