"""Joining arrays in compiled code: np.concatenate, np.stack (axis constant or run-time,
negative too), np.hstack, np.vstack, np.dstack, np.column_stack and np.atleast_1d/2d/3d, against
NumPy for every dtype, 0-size, non-contiguous and F-ordered inputs, heterogeneous tuples (NumPy's
dtype promotion) and list literals; numba's layouts, errors and words; the allocation counters
back to equal."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

FAST = [np.int32, np.float64]
# every dtype compiles ~30 variants: one fast dtype per sweep, two more behind `slow`


def sweep(fast):
    # every other dtype: test_array_differential.py's sweep
    return [fast] + [pytest.param(t, marks=pytest.mark.slow) for t in (np.uint8, np.complex64)]


def sample(dtype, shape, rng):
    a = np.asarray(rng.integers(-50, 50, shape))
    if np.dtype(dtype).kind == "c":
        return np.asarray(a + 1j * rng.integers(-50, 50, shape)).astype(dtype)
    return np.asarray(a > 0 if dtype == np.bool_ else a).astype(dtype)


def variants(a):
    """a, an F-ordered copy and a non-contiguous view holding a's values."""
    if a.ndim == 0:
        return [a, a, a]
    strided = np.repeat(a, 2, axis=-1)[..., ::2]
    assert np.array_equal(strided, a) and not strided.flags.contiguous or a.size < 2
    return [a, np.asfortranarray(a), strided]


def same(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.array_equal(got, want)


@njit
def concat3(a, b, c, axis):
    return np.concatenate((a, b, c), axis)


@njit
def defaults(a, b):
    return np.concatenate((a, b)), np.concatenate((a, b), axis=-1), np.stack((a, b))


@njit
def stack3(a, b, c, axis):
    return np.stack((a, b, c), axis=axis)


@njit
def stackers(a, b):
    return np.hstack((a, b)), np.vstack((a, b)), np.dstack((a, b))


@njit
def column_stack(a, b):
    return np.column_stack((a, b))


@njit
def atleast(a):
    return np.atleast_1d(a), np.atleast_2d(a), np.atleast_3d(a)


@pytest.mark.parametrize("dtype", sweep(np.int32))
def test_concatenate_and_stack_match_numpy(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    for shape in [(0,), (5,), (2, 3), (0, 3), (3, 0), (2, 3, 4)]:
        a, b, c = (sample(dtype, shape, rng) for _ in range(3))
        (ac, af, ast), (bc, bf, bst) = variants(a), variants(b)
        for x, y, z in [(ac, bf, c), (ast, bc, np.asfortranarray(c))]:
            for axis in range(-len(shape), len(shape)):
                same(concat3(x, y, z, axis), np.concatenate((x, y, z), axis))
            for axis in range(-len(shape) - 1, len(shape) + 1):
                same(stack3(x, y, z, axis), np.stack((x, y, z), axis))
            for got, want in zip(defaults(x, y), (np.concatenate((x, y)),
                                                  np.concatenate((x, y), axis=-1),
                                                  np.stack((x, y)))):
                same(got, want)


def test_concatenate_of_different_lengths_along_the_axis():
    rng = np.random.default_rng(1)
    a, b, c = rng.random((2, 3)), rng.random((4, 3)), rng.random((0, 3))
    same(concat3(a, b, c, 0), np.concatenate((a, b, c)))
    same(concat3(a.T, b.T, c.T, 1), np.concatenate((a.T, b.T, c.T), 1))
    same(concat3(a.T, b.T, c.T, -1), np.concatenate((a.T, b.T, c.T), -1))


@pytest.mark.parametrize("dtype", sweep(np.float64))
def test_hstack_vstack_dstack_column_stack_match_numpy(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num + 100)
    for shape in [(), (4,), (0,), (2, 3), (2, 3, 2), (1, 2, 3, 2)]:
        a, b = sample(dtype, shape, rng), sample(dtype, shape, rng)
        (ac, af, ast), (bc, bf, bst) = variants(a), variants(b)
        for x, y in [(ac, bf), (ast, bc)]:
            for got, fn in zip(stackers(x, y), (np.hstack, np.vstack, np.dstack)):
                same(got, fn((x, y)))
            if len(shape) in (1, 2):
                same(column_stack(x, y), np.column_stack((x, y)))
    one, two = sample(dtype, (3,), rng), sample(dtype, (3, 2), rng)
    same(column_stack(one, two), np.column_stack((one, two)))
    same(column_stack(two, one), np.column_stack((two, one)))


def test_hstack_vstack_of_2d_arrays_of_different_lengths():
    @njit
    def hv(a, b, c):
        return np.hstack((a, c)), np.vstack((b, c))

    a, b, c = np.ones((2, 1)), np.zeros((1, 3)), np.arange(6.0).reshape(2, 3)
    h, v = hv(a, b, c)
    same(h, np.hstack((a, c)))
    same(v, np.vstack((b, c)))


PAIRS = [(np.bool_, np.int8), (np.int64, np.uint64), (np.float32, np.int64)] + [
    pytest.param(*p, marks=pytest.mark.slow) for p in
    ((np.int8, np.uint8), (np.complex64, np.float64), (np.bool_, np.float32),
     (np.uint32, np.int32), (np.uint8, np.float32), (np.int16, np.complex64))]


@pytest.mark.parametrize("ta,tb", PAIRS)
def test_heterogeneous_tuples_promote_as_numpy(ta, tb):
    rng = np.random.default_rng(3)
    a, b = sample(ta, (2, 3), rng), sample(tb, (2, 3), rng)
    same(defaults(a, np.asfortranarray(b))[0], np.concatenate((a, b)))
    same(concat3(a, b, a[:, ::2], 1), np.concatenate((a, b, a[:, ::2]), 1))
    for got, fn in zip(stackers(a, b), (np.hstack, np.vstack, np.dstack)):
        same(got, fn((a, b)))
    same(column_stack(a, b), np.column_stack((a, b)))


def test_layout_is_numbas():
    f = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    for r in defaults(f, f):  # every input F: an F result
        assert r.flags.f_contiguous and not r.flags.c_contiguous
    for r in defaults(f, np.ascontiguousarray(f)) + defaults(f[:, ::2], f[:, ::2]):
        assert r.flags.c_contiguous and not r.flags.f_contiguous  # else C


def test_list_literal_and_uni_tuple_argument():
    @njit
    def from_list(a, b):
        return np.concatenate([a, b, a], axis=1), np.stack([a, b]), np.vstack([a, b])

    @njit
    def from_tuple(t):
        return np.concatenate(t), np.hstack(t), np.column_stack(t)

    a, b = np.arange(6).reshape(2, 3), np.arange(6.0, 12.0).reshape(2, 3)
    got = from_list(a, b)
    same(got[0], np.concatenate([a, b, a], axis=1))
    same(got[1], np.stack([a, b]))
    same(got[2], np.vstack([a, b]))
    t = (a, a + 1, a[:, ::-1])
    for g, fn in zip(from_tuple(t), (np.concatenate, np.hstack, np.column_stack)):
        same(g, fn(t))


def test_a_named_list_is_refused():
    @njit
    def named(a):
        x = [a, a]
        return np.concatenate(x)

    with pytest.raises(TypingError, match=r"got list\(array\(float64, 1d, C\)\)<iv=None>"):
        named(np.ones(2))


G = np.arange(4.0)


def test_global_read_only_arrays_join():
    @njit
    def with_global(a):
        return np.concatenate((G, a)), np.stack((G, a), -1), np.atleast_2d(G)

    a = np.ones(4, np.int64)
    for got, want in zip(with_global(a), (np.concatenate((G, a)), np.stack((G, a), -1),
                                          np.atleast_2d(G))):
        same(got, want)


def test_join_inside_a_loop_frees_its_results():
    @njit
    def grow(n):
        acc = np.zeros(0)
        for i in range(n):
            acc = np.concatenate((acc, np.full(2, float(i))))
        return acc

    same(grow(50), np.repeat(np.arange(50.0), 2))


@pytest.mark.parametrize("dtype", FAST)
def test_atleast_matches_numpy_and_is_a_view(dtype):
    rng = np.random.default_rng(5)
    for shape in [(), (0,), (4,), (2, 3), (2, 3, 4), (1, 2, 3, 2)]:
        for x in variants(sample(dtype, shape, rng)):
            for got, fn in zip(atleast(x), (np.atleast_1d, np.atleast_2d, np.atleast_3d)):
                same(got, fn(x))

    @njit
    def write_through(a):
        np.atleast_3d(a)[0, 1, 0] = 99
        return a

    a = np.zeros((2, 3))
    assert write_through(a)[0, 1] == 99 and a[0, 1] == 99


def test_axis_out_of_range_is_axis_error():
    a = np.ones((2, 3))
    for bad in (2, -3, 100):
        with pytest.raises(np.exceptions.AxisError) as e:
            concat3(a, a, a, bad)
        assert isinstance(e.value, IndexError)  # numba's exception type too
        with pytest.raises(np.exceptions.AxisError):
            stack3(a, a, a, bad + 1 if bad > 0 else bad - 1)

    @njit
    def const_axis(a):
        return np.concatenate((a, a), axis=2)

    with pytest.raises(np.exceptions.AxisError,
                       match="axis 2 is out of bounds for array of dimension 2"):
        const_axis(a)


def test_shape_mismatches_are_numbas_value_errors():
    a = np.ones((2, 3))
    with pytest.raises(ValueError, match=r"np.concatenate\(\): input sizes over dimension 1 "
                                         "do not match"):
        concat3(a, np.ones((2, 4)), a, 0)
    with pytest.raises(ValueError, match="over dimension 0"):
        concat3(a, np.ones((3, 3)), a, -1)
    with pytest.raises(ValueError, match=r"np.stack\(\): all input arrays must have the same "
                                         "shape"):
        stack3(a, a, np.ones((2, 4)), 1)
    with pytest.raises(ValueError, match="must have the same shape"):
        stackers(np.ones(3), np.ones(4))  # vstack of 1-d arrays is a stack
    with pytest.raises(ValueError, match="over dimension 0"):
        column_stack(np.ones(3), np.ones((4, 2)))


def test_typing_errors_are_numbas():
    @njit
    def mixed_ndim(a, b):
        return np.concatenate((a, b))

    with pytest.raises(TypingError, match=r"np.concatenate\(\): all the input arrays must "
                                          "have same number of dimensions"):
        mixed_ndim(np.ones(2), np.ones((2, 2)))

    @njit
    def empty():
        return np.concatenate(())

    with pytest.raises(TypingError, match=r"expecting a non-empty tuple of arrays"):
        empty()

    @njit
    def not_arrays(a):
        return np.stack((a, 1.0))

    with pytest.raises(TypingError, match=r"np.stack\(\): expecting a non-empty tuple"):
        not_arrays(np.ones(2))
    with pytest.raises(TypingError, match="zero-dimensional arrays cannot be concatenated"):
        mixed_ndim(np.array(1.0), np.array(2.0))
    with pytest.raises(TypingError, match=r"np.column_stack\(\) is only defined on 1-d and "
                                          "2-d arrays"):
        column_stack(np.ones((2, 2, 2)), np.ones((2, 2, 2)))

    @njit
    def axis_none(a):
        return np.concatenate((a, a), axis=None)

    with pytest.raises(TypingError, match="axis must be an integer"):
        axis_none(np.ones(2))

    @njit
    def scalar(x):
        return np.atleast_2d(x)

    with pytest.raises(TypingError, match=r"np.atleast_2d\(\) takes arrays, not float64"):
        scalar(3.0)

    @njit
    def keyword(a):
        return np.atleast_1d(a, arys=a)

    with pytest.raises(TypingError, match="no keywords"):
        keyword(np.ones(2))


def test_atleast_of_several_arrays_is_a_tuple_of_views():
    @njit
    def several(a, b, c):
        return np.atleast_2d(a, b, c), np.atleast_3d(a, b)

    a, b, c = np.array(1.0), np.arange(3), np.ones((2, 2), np.float32)
    two, three = several(a, b, c)
    want2, want3 = np.atleast_2d(a, b, c), np.atleast_3d(a, b)
    assert len(two) == 3 and len(three) == 2
    for got, want in zip(two + three, want2 + want3):
        same(got, want)
    assert np.shares_memory(two[2], c)
