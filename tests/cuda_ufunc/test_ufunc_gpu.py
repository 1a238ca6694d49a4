"""CUDA ufuncs and gufuncs on the GPU, against NumPy: the seeds' examples as written (apart from
the import), broadcasting, layouts, dtypes, out=, streams, CuPy arrays, reduce."""
import math

import numpy as np
import pytest

from cujit import cuda, float32, float64, guvectorize, int64, vectorize

pytestmark = pytest.mark.gpu

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@pytest.fixture(autouse=True)
def real_gpu_only():
    if cuda.get_current_device().name == "Fake GPU":
        pytest.skip("needs a real GPU")


@vectorize(['float32(float32, float32)'], target='cuda')
def add_ufunc(x, y):
    return x + y


@vectorize(['float32(float32, float32, float32)'], target='cuda')
def make_pulses(i, period, amplitude):
    return max(math.sin(i / period) - 0.3, 0.0) * amplitude


@vectorize(['float32(float32, float32, float32)'], target='cuda')
def gaussian_pdf(x, mean, sigma):
    '''Compute the value of a Gaussian probability density function at x with given mean and sigma.'''
    return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)


@cuda.jit(device=True)
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y  # This is Python, so let's return a tuple


@vectorize(['float32(float32, float32, float32, float32)'], target='cuda')
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)
    x2, y2 = polar_to_cartesian(rho2, theta2)
    return ((x1 - x2)**2 + (y1 - y2)**2)**0.5


# ---- the seeds ----

def test_add_ufunc_host_device_and_out():
    n = 5000000 // 50
    x = np.arange(n).astype(np.float32)
    y = 2 * x
    r = add_ufunc(x, y)
    assert isinstance(r, np.ndarray) and r.dtype == np.float32
    np.testing.assert_array_equal(r, x + y)
    x_device = cuda.to_device(x)
    y_device = cuda.to_device(y)
    d = add_ufunc(x_device, y_device)
    assert isinstance(d, cuda.DeviceNDArray) and d.shape == (n,) and d.dtype == np.float32
    np.testing.assert_array_equal(d.copy_to_host(), x + y)
    out_device = cuda.device_array(shape=(n,), dtype=np.float32)
    assert add_ufunc(x_device, y_device, out=out_device) is out_device
    cuda.synchronize()
    out_host = out_device.copy_to_host()
    np.testing.assert_array_equal(out_host[:10], (x + y)[:10])
    np.testing.assert_array_equal(out_host, x + y)


def test_int64_add_ufunc_broadcasting_seed_002():
    @vectorize(['int64(int64, int64)'], target='cuda')
    def add_ufunc(x, y):
        return x + y
    a = np.array([1, 2, 3, 4])
    b = np.array([10, 20, 30, 40])
    b_col = b[:, np.newaxis]
    c = np.arange(4 * 4).reshape((4, 4))
    np.testing.assert_array_equal(add_ufunc(a, b), a + b)
    np.testing.assert_array_equal(add_ufunc(b_col, c), b_col + c)
    np.testing.assert_array_equal(add_ufunc(b_col, a), b_col + a)
    np.testing.assert_array_equal(add_ufunc(12, c), 12 + c)


def test_make_pulses_waveform_exercise_with_device_arrays():
    n = 100000
    noise = (np.random.normal(size=n) * 3).astype(np.float32)
    t = np.arange(n, dtype=np.float32)
    period = n / 23
    want_pulses = np.maximum(np.sin(t.astype(np.float64) / np.float32(period)) - 0.3, 0.0) \
        * 100.0
    want = (want_pulses.astype(np.float32) + noise)
    # as written: host arrays
    pulses = make_pulses(t, period, 100.0)
    waveform = add_ufunc(pulses, noise)
    np.testing.assert_allclose(waveform, want, rtol=1e-5, atol=1e-4)
    # the exercise: device allocations, out= arguments, one copy back
    d_t, d_noise = cuda.to_device(t), cuda.to_device(noise)
    d_pulses = cuda.device_array_like(d_t)
    d_waveform = cuda.device_array_like(d_t)
    make_pulses(d_t, period, 100.0, out=d_pulses)
    add_ufunc(d_pulses, d_noise, out=d_waveform)
    np.testing.assert_allclose(d_waveform.copy_to_host(), want, rtol=1e-5, atol=1e-4)


def test_gaussian_pdf_scalars_and_globals():
    x = np.random.uniform(-3, 3, size=1000000).astype(np.float32)
    mean = np.float32(0.0)
    sigma = np.float32(1.0)
    want = (np.exp(-0.5 * x.astype(np.float64) ** 2) / math.sqrt(2 * math.pi))
    got = gaussian_pdf(x, 0.0, 1.0)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(gaussian_pdf(x, mean, sigma), want, rtol=1e-5, atol=1e-7)


def test_polar_distance_with_device_function():
    n = 1000000
    rho1 = np.random.uniform(0.5, 1.5, size=n).astype(np.float32)
    theta1 = np.random.uniform(-np.pi, np.pi, size=n).astype(np.float32)
    rho2 = np.random.uniform(0.5, 1.5, size=n).astype(np.float32)
    theta2 = np.random.uniform(-np.pi, np.pi, size=n).astype(np.float32)
    got = polar_distance(rho1, theta1, rho2, theta2)
    r1, t1, r2, t2 = (a.astype(np.float64) for a in (rho1, theta1, rho2, theta2))
    want = np.hypot(r1 * np.cos(t1) - r2 * np.cos(t2), r1 * np.sin(t1) - r2 * np.sin(t2))
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_rel_diff_signature_order_picks_the_loop():
    def rel_diff(x, y):
        return 2 * (x - y) / (x + y)
    narrow_first = vectorize([float32(float32, float32), float64(float64, float64)],
                             target='cuda')(rel_diff)
    wide_first = vectorize([float64(float64, float64), float32(float32, float32)],
                           target='cuda')(rel_diff)
    a = np.arange(1000, dtype=np.float32)
    b = a * 2 + 1
    want = 2 * (a.astype(np.float64) - b) / (a + b)
    r32 = narrow_first(a, b)
    r64 = wide_first(a, b)  # "always uses float64 signature, even for float32 arguments"
    assert r32.dtype == np.float32 and r64.dtype == np.float64
    np.testing.assert_allclose(r32, want, rtol=1e-6)
    np.testing.assert_allclose(r64, want, rtol=1e-12)
    assert narrow_first(a.astype(np.float64), b).dtype == np.float64


# ---- gufuncs (course session 1) ----

@guvectorize([(int64[:], int64[:], int64[:])], '(n),()->(n)', target='cuda')
def g(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y[0]


@guvectorize([(float64[:, :], float64[:], float64[:])], '(m,n),(n)->(m)', target='cuda')
def batch_matmul(M, v, y):
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * v[j]
        y[i] = acc


@guvectorize([(float64[:], float64[:], float64[:])], '(n)->(),()', target='cuda')
def max_min(arr, largest, smallest):
    hi = arr[0]
    lo = arr[0]
    for i in range(1, arr.shape[0]):
        hi = max(hi, arr[i])
        lo = min(lo, arr[i])
    largest[0] = hi
    smallest[0] = lo


def test_gufunc_g_vector_and_scalar():
    x = np.arange(20).reshape(4, 5)
    np.testing.assert_array_equal(g(x, 7), x + 7)
    per_row = np.array([1, 2, 3, 4])
    np.testing.assert_array_equal(g(x, per_row), x + per_row[:, None])
    dx = cuda.to_device(x)
    res = cuda.device_array_like(dx)
    g(dx, 3, res)
    np.testing.assert_array_equal(res.copy_to_host(), x + 3)
    d = g(dx, 2)
    assert isinstance(d, cuda.DeviceNDArray)
    np.testing.assert_array_equal(d.copy_to_host(), x + 2)


def test_gufunc_scalar_typed_argument():
    @guvectorize([(float32[:], float32, float32[:])], '(n),()->(n)', target='cuda')
    def scale(x, a, out):
        for i in range(x.shape[0]):
            out[i] = x[i] * a
    x = np.random.rand(3, 50).astype(np.float32)
    np.testing.assert_allclose(scale(x, 2.5), x * np.float32(2.5), rtol=1e-6)
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)[:, None]
    np.testing.assert_allclose(scale(x, a[:, 0]), x * a, rtol=1e-6)


def test_batch_matmul_and_broadcast_loop_dims():
    M = np.random.rand(7, 5, 3)
    v = np.random.rand(7, 3)
    np.testing.assert_allclose(batch_matmul(M, v), np.einsum("kmn,kn->km", M, v), rtol=1e-12)
    v1 = np.random.rand(3)
    np.testing.assert_allclose(batch_matmul(M, v1), M @ v1, rtol=1e-12)
    M4 = np.random.rand(2, 3, 4, 5)
    v4 = np.random.rand(3, 5)  # loop dims (2, 3) from (2, 3) and (3,)
    np.testing.assert_allclose(batch_matmul(M4, v4), np.einsum("abmn,bn->abm", M4, v4),
                               rtol=1e-12)
    dM = cuda.to_device(M)
    out = cuda.device_array((7, 5))
    batch_matmul(dM, cuda.to_device(v), out=out)
    np.testing.assert_allclose(out.copy_to_host(), np.einsum("kmn,kn->km", M, v), rtol=1e-12)


def test_max_min_two_outputs():
    a = np.random.rand(9, 31)
    hi, lo = max_min(a)
    np.testing.assert_array_equal(hi, a.max(axis=1))
    np.testing.assert_array_equal(lo, a.min(axis=1))
    hi, lo = max_min(a[0])  # no loop dimensions: scalars back
    assert hi == a[0].max() and lo == a[0].min()


# ---- differential: dtypes, layouts, broadcasting ----

SCALAR_FUNCS = {
    "arith": (lambda x, y: x * y - x / (y + 1.5), [float64(float64, float64),
                                                   float32(float32, float32)]),
    "int": (lambda x, y: (x * 3 + y) // 2 - (x % 5), ["int64(int64, int64)",
                                                       "int32(int32, int32)"]),
    "math": (lambda x, y: math.sqrt(abs(x)) + math.atan2(y, 1.0 + x * x),
             ["float64(float64, float64)"]),
    "select": (lambda x, y: x if x > y else y - 1, ["float64(float64, float64)",
                                                    "int64(int64, int64)"]),
}


def _numpy_reference(func, out_dtype, *arrays):
    """Element by element in Python: floats in float64 (numba widens float32 with float
    literals), ints as NumPy ints; then cast to the loop's output type."""
    arrays = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in arrays]
    return np.vectorize(func, otypes=[np.float64 if out_dtype.kind == "f" else out_dtype])(
        *arrays).astype(out_dtype)


@pytest.mark.parametrize("name", sorted(SCALAR_FUNCS))
def test_differential_against_numpy_vectorize(name):
    func, sigs = SCALAR_FUNCS[name]
    uf = vectorize(sigs, target='cuda')(func)
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    for dtype in (np.float64, np.float32, np.int64, np.int32):
        loop = next((s for s in uf.types if np.can_cast(np.dtype(dtype).char, s[0])), None)
        if loop is None:
            continue
        out_dtype = np.dtype(loop[-1])
        for shape_a, shape_b in [((50,), (50,)), ((4, 6), (6,)), ((3, 1, 5), (4, 1)),
                                 ((7, 8), (7, 1)), ((0,), (0,)), ((), (5,))]:
            a = np.asarray(rng.standard_normal(shape_a) * 20).astype(dtype)
            b = np.asarray(rng.standard_normal(shape_b) * 20 + 30).astype(dtype)
            want = _numpy_reference(func, out_dtype, a.astype(loop[0]), b.astype(loop[1]))
            tol = dict(rtol=1e-5, atol=1e-4) if out_dtype == np.float32 else dict(rtol=1e-12)
            got = uf(a, b)
            assert got.dtype == out_dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, **tol,
                                       err_msg=f"{name} {dtype} {shape_a} {shape_b}")
            got_d = uf(cuda.to_device(a) if a.ndim else a, cuda.to_device(b))
            assert isinstance(got_d, cuda.DeviceNDArray)
            np.testing.assert_allclose(got_d.copy_to_host(), want, **tol)


def test_strided_transposed_and_fortran_operands():
    a = np.random.rand(30, 40)
    b = np.random.rand(40, 30)
    da, db = cuda.to_device(a), cuda.to_device(b)
    add64 = vectorize(["float64(float64, float64)"], target='cuda')(lambda x, y: x - 2 * y)
    for x, y, dx, dy in [(a, b.T, da, db.T), (a[::2, 1::3], a[1::2, 2::3], da[::2, 1::3],
                                                 da[1::2, 2::3]),
                         (np.asfortranarray(a), np.asfortranarray(a), cuda.to_device(
                             np.asfortranarray(a)), cuda.to_device(np.asfortranarray(a)))]:
        want = x - 2 * y
        np.testing.assert_array_equal(add64(x, y), want)
        got = add64(dx, dy)
        np.testing.assert_array_equal(got.copy_to_host(), want)
    f = cuda.to_device(np.asfortranarray(a))
    r = add64(f, f)
    assert r.is_f_contiguous()  # the output follows Fortran-ordered inputs


def test_out_host_array_and_casting_on_output():
    x = np.arange(100, dtype=np.float32)
    out = np.zeros(100, dtype=np.float64)  # same kind: the float32 result is widened
    assert add_ufunc(x, x, out=out) is out
    np.testing.assert_array_equal(out, 2 * x)
    out32 = np.zeros(100, dtype=np.float32)
    add_ufunc(x, x, out32)  # positional output
    np.testing.assert_array_equal(out32, 2 * x)
    with pytest.raises(TypeError, match="output 0 has dtype"):
        add_ufunc(x, x, out=np.zeros(100, dtype=np.int32))


def test_input_casts_in_the_kernel():
    x = np.arange(50, dtype=np.int16)
    d = cuda.to_device(x)
    r = add_ufunc(d, d)  # int16 -> float32 safely, cast element by element on the device
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r.copy_to_host(), 2 * x.astype(np.float32))


def test_stream_keyword():
    s = cuda.stream()
    x = np.random.rand(200000).astype(np.float32)
    dx = cuda.to_device(x, stream=s)
    out = cuda.device_array_like(dx, stream=s)
    add_ufunc(dx, dx, out=out, stream=s)
    host = out.copy_to_host(stream=s)
    s.synchronize()
    np.testing.assert_array_equal(host, 2 * x)
    np.testing.assert_array_equal(add_ufunc(x, x, stream=s), 2 * x)  # host result: synced


def test_cupy_arrays_in_and_out():
    cupy = pytest.importorskip("cupy")
    x = np.arange(5000, dtype=np.float32)
    x_cp = cupy.asarray(x)
    y_cp = cupy.asarray(2 * x)
    out_cp = cupy.empty_like(y_cp)
    assert add_ufunc(x_cp, y_cp, out=out_cp) is out_cp
    np.testing.assert_array_equal(cupy.asnumpy(out_cp), 3 * x)
    r = add_ufunc(x_cp, y_cp)
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_array_equal(r.copy_to_host(), 3 * x)


def test_reduce_on_the_device():
    for n in (1, 2, 7, 1000, 12345):
        x = np.arange(n, dtype=np.float32) % 17
        assert add_ufunc.reduce(x) == x.sum(dtype=np.float64)
        assert add_ufunc.reduce(cuda.to_device(x)) == x.sum(dtype=np.float64)
    with pytest.raises(ValueError, match="zero-size"):
        add_ufunc.reduce(np.zeros(0, np.float32))


def test_scalars_only_and_zero_size():
    r = add_ufunc(1.5, 2.25)
    assert r == np.float32(3.75) and isinstance(r, np.float32)
    e = add_ufunc(np.zeros(0, np.float32), np.zeros(0, np.float32))
    assert e.shape == (0,) and e.dtype == np.float32
    d = add_ufunc(cuda.device_array((3, 0), np.float32), 1.0)
    assert d.shape == (3, 0)


def test_errors_name_what_is_wrong():
    with pytest.raises(TypeError, match=r"no loop for input types \(complex128, float32\).*"
                                        r"float32\(float32, float32\)"):
        add_ufunc(np.ones(3, np.complex128), np.ones(3, np.float32))
    with pytest.raises(ValueError, match="could not be broadcast"):
        add_ufunc(np.ones(3, np.float32), np.ones(4, np.float32))
    with pytest.raises(ValueError, match="output 0 has loop shape"):
        add_ufunc(np.ones((2, 3), np.float32), np.ones(3, np.float32),
                  out=cuda.device_array(3, np.float32))
    with pytest.raises(ValueError, match="core dimension"):
        batch_matmul(np.ones((2, 3, 4)), np.ones(5))
    with pytest.raises(TypeError, match="exact dtype"):
        batch_matmul(cuda.to_device(np.ones((2, 3, 4), np.float32)), np.ones(4))
