"""On the GPU: cuda.reduce against NumPy for sum, max, min and product over every numeric dtype
and sizes around the warp, block and grid boundaries, with size=, res=, init= and streams; and
kernel.forall covering task counts that no block size divides."""
import numpy as np
import pytest

from cujit import cuda

pytestmark = pytest.mark.gpu

SIZES = (1, 31, 32, 33, 255, 256, 257, 1023, 1_000_007)
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOATS = ("float16", "float32", "float64")
COMPLEX = ("complex64", "complex128")


def _max(a, b):
    return a if a > b else b


def _min(a, b):
    return a if a < b else b


OPS = {
    "sum": (cuda.reduce(lambda a, b: a + b), np.add),
    "max": (cuda.Reduce(_max), np.maximum),
    "min": (cuda.Reduce(_min), np.minimum),
    "prod": (cuda.reduce(lambda a, b: a * b), np.multiply),
}
RTOL = {"float16": 1e-2, "float32": 1e-4, "float64": 1e-11, "complex64": 1e-4,
        "complex128": 1e-11}


def data(dtype, n, op, seed=0):
    rng = np.random.default_rng(seed + n)
    dt = np.dtype(dtype)
    if op == "prod" and dt.kind in "fc":
        # powers of two: products are exact whatever the order, and stay in range
        choices = [1, -1] if (n > 2000 or dt == np.float16) else [0.5, 1, 2, -1]
        return rng.choice(np.array(choices, dtype=dt), n)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    scale = 2.0 ** -10 if dt == np.float16 else 1.0
    a = (rng.random(n) * scale - scale / 4).astype(dt)
    if dt.kind == "c":
        a = a + 1j * (rng.random(n) - 0.5).astype(dt)
    return a


def expected(ufunc, a, init):
    with np.errstate(over="ignore"):
        value = ufunc.reduce(a, dtype=a.dtype) if a.size else None
        return a.dtype.type(init) if value is None else ufunc(value, a.dtype.type(init),
                                                              dtype=a.dtype)


def check(got, want, dtype):
    assert type(got) is np.dtype(dtype).type, (type(got), dtype)
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(got, want, rtol=RTOL[dtype], atol=RTOL[dtype] * 10)
    else:
        assert got == want, (got, want)


@pytest.mark.parametrize("dtype", INTS + FLOATS + COMPLEX)
@pytest.mark.parametrize("op", ["sum", "max", "min", "prod"])
def test_reduce_matches_numpy(op, dtype):
    if dtype in COMPLEX and op in ("max", "min"):
        pytest.skip("complex numbers have no order")
    reduce, ufunc = OPS[op]
    for n in SIZES:
        a = data(dtype, n, op)
        init = 1 if op == "prod" else (a[0] if op in ("max", "min") else 0)
        d = cuda.to_device(a)
        check(reduce(d, init=init), expected(ufunc, a, init), dtype)
        if n <= 1023:  # host arrays are copied in
            check(reduce(a, init=init), expected(ufunc, a, init), dtype)


def test_numba_cuda_sizes_exactly():
    # numba-cuda's own test sizes; sums of integers in float64 are exact in any order
    total, _ = OPS["sum"]
    for n in (1, 15, 16, 17, 127, 128, 129, 1023, 1024, 1025, 1536, 1048576, 1049600, 1049728,
              34567, 135_168 * 8 + 1, 10_000_019):
        a = np.arange(n, dtype=np.float64) + 1
        assert total(cuda.to_device(a)) == a.sum() == n * (n + 1) / 2, n
    prod = cuda.reduce(lambda a, b: a * b)
    a = np.arange(64, dtype=np.float64) + 1
    np.testing.assert_allclose(prod(a, init=1), a.prod())
    top = cuda.Reduce(lambda a, b: max(a, b))
    assert top(np.arange(3717, dtype=np.float64) + 1, init=0) == 3717


@pytest.mark.parametrize("dtype", ["int32", "float64", "uint8"])
def test_empty_size_res_and_init(dtype):
    total, _ = OPS["sum"]
    a = data(dtype, 5000, "sum")
    d = cuda.to_device(a)
    dt = np.dtype(dtype).type
    got = total(cuda.device_array(0, dtype=dtype), init=3)
    assert got == 3 and type(got) is dt
    for size in (0, 1, 31, 32, 33, 1023, 4999, 10_000):
        check(total(d, size=size, init=2), expected(np.add, a[:size], 2), dtype)
    res = cuda.to_device(np.full(3, 9, dtype=dtype))
    assert total(d, res=res, init=1) is None
    got = res.copy_to_host()
    check(got[0], expected(np.add, a, 1), dtype)
    assert (got[1:] == 9).all()  # only the first element is written
    top, _ = OPS["max"]
    big = np.iinfo(dtype).max if np.dtype(dtype).kind in "iu" else 1e300
    assert top(d, init=big) == dt(big)  # init takes part in the reduction


def test_strided_views_streams_and_many_calls():
    total, _ = OPS["sum"]
    a = np.arange(1_000_003, dtype=np.float64)
    d = cuda.to_device(a)
    assert total(d[::3]) == a[::3].sum()
    assert total(d[1::2], size=1000) == a[1::2][:1000].sum()
    s = cuda.stream()
    res = cuda.device_array(1)
    for k in range(1, 20):  # the scratch (partials, ticket) is reused call after call
        assert total(d, size=k * 50_000, stream=s) == a[:k * 50_000].sum()
        total(d, size=k * 3, res=res, stream=s)
        s.synchronize()
        assert res.copy_to_host()[0] == a[:k * 3].sum()


def test_cuda_array_interface_input():
    cupy = pytest.importorskip("cupy")
    total, _ = OPS["sum"]
    x = cupy.arange(100_000, dtype=cupy.int64)
    assert total(x) == 100_000 * 99_999 // 2
    out = cupy.zeros(1, dtype=cupy.int64)
    total(x, res=out)
    assert int(out[0]) == 100_000 * 99_999 // 2


def test_decorator_spelling_and_user_device_function():
    @cuda.reduce
    def largest_magnitude(a, b):
        return max(abs(a), abs(b))

    b = np.linspace(-5, 3, 999)
    assert largest_magnitude(b) == 5.0
    assert largest_magnitude(b, init=7.5) == 7.5
    assert largest_magnitude(np.arange(-300, 20, dtype=np.int16)) == 300


def test_bool_sum_is_any_and_a_device_function_as_the_function():
    total, _ = OPS["sum"]
    flags = np.zeros(70_000, dtype=np.bool_)
    assert total(flags) == np.False_ and type(total(flags)) is np.bool_
    flags[69_999] = True
    assert total(flags) == np.True_

    @cuda.jit(device=True)
    def smaller(a, b):
        return min(a, b)

    low = cuda.reduce(smaller)  # a cuda.jit device function is taken by its Python function
    x = np.random.default_rng(3).random(12_345)
    assert low(x, init=2.0) == x.min()


@cuda.jit
def fill_index(out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = i


@pytest.mark.parametrize("n, tpb", [(1, 0), (1000, 0), (1_000_003, 0), (1000, 96), (33, 32),
                                    (0, 0)])
def test_forall_covers_every_task(n, tpb):
    out = cuda.to_device(np.full(max(n, 1) + 64, -1, dtype=np.int64))
    fill_index.forall(n, tpb=tpb)(out, n)
    got = out.copy_to_host()
    np.testing.assert_array_equal(got[:n], np.arange(n))
    assert (got[n:] == -1).all()  # no task beyond ntasks is written


def test_forall_on_a_stream_with_host_array():
    s = cuda.stream()
    a = np.full(5000, -1, dtype=np.int64)
    fill_index.forall(5000, stream=s)(a, 5000)
    s.synchronize()
    np.testing.assert_array_equal(a, np.arange(5000))
