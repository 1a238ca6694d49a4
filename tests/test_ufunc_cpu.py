"""vectorize / guvectorize on the CPU: real NumPy ufuncs with NumPy's results (seed examples)."""
import math

import numpy as np
import pytest

from cujit import guvectorize, njit, vectorize, float32
from cujit.npyufunc import DUFunc

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@vectorize(["float32(float32, float32)"])
def add_ufunc(x, y):
    return x + y


@vectorize(["float32(float32, float32, float32)"])
def gaussian_pdf(x, mean, sigma):
    """Compute the value of a Gaussian probability density function at x."""
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@njit
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y


@vectorize(["float32(float32, float32, float32, float32)"])
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)
    x2, y2 = polar_to_cartesian(rho2, theta2)
    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5


@vectorize(["float32(float32, float32, float32)"])
def make_pulses(i, period, amplitude):
    return max(math.sin(i / period) - 0.3, 0.0) * amplitude


def test_is_a_real_ufunc_with_numpy_methods():
    assert isinstance(add_ufunc, np.ufunc)
    assert add_ufunc.types == ["ff->f"] and add_ufunc.nin == 2 and add_ufunc.nout == 1
    x = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(add_ufunc(x, 2 * x), 3 * x)
    assert add_ufunc.reduce(x) == x.sum()
    np.testing.assert_array_equal(add_ufunc.accumulate(x), np.cumsum(x))
    np.testing.assert_array_equal(add_ufunc.outer(x[:3], x[:4]), np.add.outer(x[:3], x[:4]))
    np.testing.assert_array_equal(add_ufunc.reduceat(x, [0, 5]), np.add.reduceat(x, [0, 5]))


def test_broadcasting_out_and_where():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(add_ufunc(a, np.float32(1)), a + 1)
    np.testing.assert_array_equal(add_ufunc(a, a[0]), a + a[0])
    out = np.zeros_like(a)
    res = add_ufunc(a, a, out=out)
    assert res is out
    np.testing.assert_array_equal(out, 2 * a)
    out2 = np.full_like(a, -1)
    add_ufunc(a, a, out=out2, where=a > 5)
    np.testing.assert_array_equal(out2, np.where(a > 5, 2 * a, -1))
    with pytest.raises(ValueError):
        add_ufunc(np.zeros(3, np.float32), np.zeros(4, np.float32))


def test_gaussian_pdf_seed():
    x = np.random.default_rng(0).uniform(-3, 3, size=1000).astype(np.float32)
    got = gaussian_pdf(x, np.float32(0.0), np.float32(1.0))
    expected = np.exp(-0.5 * x.astype(np.float64) ** 2) / np.sqrt(2 * np.pi)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    assert "Compute the value of a Gaussian" in gaussian_pdf.__doc__


def test_polar_distance_calls_jitted_function():
    rng = np.random.default_rng(1)
    rho1, rho2 = (rng.uniform(0.5, 1.5, 100).astype(np.float32) for _ in range(2))
    th1, th2 = (rng.uniform(-np.pi, np.pi, 100).astype(np.float32) for _ in range(2))
    got = polar_distance(rho1, th1, rho2, th2)
    x1, y1 = rho1 * np.cos(th1), rho1 * np.sin(th1)
    x2, y2 = rho2 * np.cos(th2), rho2 * np.sin(th2)
    np.testing.assert_allclose(got, np.hypot(x1 - x2, y1 - y2), rtol=1e-4, atol=1e-6)


def test_make_pulses_waveform_with_out():
    n = 10000
    t = np.arange(n, dtype=np.float32)
    noise = (np.random.default_rng(2).normal(size=n) * 3).astype(np.float32)
    pulses = np.empty_like(t)
    make_pulses(t, n / 23, 100.0, out=pulses)
    expected = np.maximum(np.sin(t / np.float32(n / 23)) - 0.3, 0.0) * 100
    np.testing.assert_allclose(pulses, expected, rtol=1e-4, atol=1e-3)
    waveform = np.empty_like(t)
    add_ufunc(pulses, noise, out=waveform)
    np.testing.assert_allclose(waveform, pulses + noise)


def test_rel_diff_signature_order_decides_the_loop():
    def rel_diff(x, y):
        return 2 * (x - y) / (x + y)

    f64_first = vectorize(["float64(float64, float64)", "float32(float32, float32)"])(rel_diff)
    f32_first = vectorize(["float32(float32, float32)", "float64(float64, float64)"])(rel_diff)
    a = np.arange(1000, dtype=np.float32)
    b = a * 2 + 1
    assert f64_first(a, b).dtype == np.float64  # float32 inputs run the first safe loop
    assert f32_first(a, b).dtype == np.float32
    np.testing.assert_allclose(f64_first(a, b), 2 * (a - b) / (a + b), rtol=1e-6)


def test_dynamic_vectorize_compiles_per_input_types():
    @vectorize
    def rel_diff(x, y):
        return 2 * (x - y) / (x + y)

    assert isinstance(rel_diff, DUFunc)
    a = np.arange(1, 1001, dtype=np.float32)
    b = a * 2 + 1
    r = rel_diff(a, b)
    assert r.dtype == np.float64  # 2 * float32 is float64 under numba's rules, as numba gives
    np.testing.assert_allclose(r, 2 * (a - b) / (a + b), rtol=1e-6)
    rel_diff(np.arange(1, 4), np.arange(2, 5))
    assert rel_diff.types == ["ff->d", "ll->d"]  # numba's DUFunc gives the same
    assert rel_diff.reduce(np.arange(1.0, 4.0)) == pytest.approx(
        2 * (2 * (1 - 2) / 3 - 3) / (2 * (1 - 2) / 3 + 3))


def test_identity_enables_empty_reduce():
    @vectorize(["int64(int64, int64)"], identity=0)
    def plus(x, y):
        return x + y

    assert plus.identity == 0
    assert plus.reduce(np.array([], dtype=np.int64)) == 0


def test_exception_in_loop_propagates():
    @vectorize(["float64(float64)"])
    def checked(x):
        if x < 0:
            raise ValueError("negative input")
        return x

    with pytest.raises(ValueError, match="negative input"):
        checked(np.array([1.0, -1.0]))


@guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
def g(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y


def test_gufunc_g_scalar_argument_and_broadcasting():
    assert isinstance(g, np.ufunc) and g.signature == "(n),()->(n)"
    np.testing.assert_array_equal(g(np.arange(5.0), 2.0), np.arange(5.0) + 2)
    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(g(a, np.array([10.0, 20.0])), a + [[10.0], [20.0]])
    out = np.empty_like(a)
    g(a, 1.0, out=out)
    np.testing.assert_array_equal(out, a + 1)


def test_gufunc_batch_matmul():
    @guvectorize(["void(float64[:,:], float64[:], float64[:])"], "(m,n),(n)->(m)")
    def batch_matmul(a, b, out):
        for i in range(a.shape[0]):
            s = 0.0
            for j in range(a.shape[1]):
                s += a[i, j] * b[j]
            out[i] = s

    rng = np.random.default_rng(3)
    A, B = rng.random((4, 3, 5)), rng.random((4, 5))
    np.testing.assert_allclose(batch_matmul(A, B), np.einsum("kij,kj->ki", A, B))
    np.testing.assert_allclose(batch_matmul(A[0], B[0]), A[0] @ B[0])
    with pytest.raises(ValueError):
        batch_matmul(A, rng.random((4, 6)))


def test_gufunc_max_min_two_outputs():
    @guvectorize(["void(float64[:], float64[:], float64[:])"], "(n)->(),()")
    def max_min(x, mx, mn):
        mx[0] = x[0]
        mn[0] = x[0]
        for v in x:
            if v > mx[0]:
                mx[0] = v
            if v < mn[0]:
                mn[0] = v

    x = np.random.default_rng(4).normal(size=(5, 7))
    mx, mn = max_min(x)
    np.testing.assert_array_equal(mx, x.max(axis=1))
    np.testing.assert_array_equal(mn, x.min(axis=1))


def test_bad_signatures_and_layouts():
    with pytest.raises(TypeError, match="return type"):
        vectorize(["(float64, float64)"])(lambda x, y: x)
    with pytest.raises(ValueError):
        guvectorize(["void(float64[:], float64[:])"], "(n)")
    with pytest.raises(TypeError, match="arguments"):
        guvectorize(["void(float64[:], float64[:])"], "(n),()->(n)")(lambda x, y, z: None)
    with pytest.raises(NotImplementedError, match="'cpu', 'parallel' and 'cuda'"):
        vectorize(["float64(float64)"], target="gpu")
    with pytest.raises(TypeError, match="needs signatures"):
        vectorize(target="parallel")(lambda x: x)
    with pytest.raises(TypeError):
        add_ufunc(np.zeros(3, dtype=np.complex128), np.zeros(3, dtype=np.complex128))


# ---- target='parallel': the loops split their elements over the thread pool ----

def _wave(x, y):
    s = 0.0
    for i in range(20):
        s += math.sin(x * i) * y
    return s


@pytest.mark.parametrize("n", [0, 1, 2, 3, 1000, 100003])
def test_parallel_vectorize_equals_the_cpu_target(n):
    sigs = ["float64(float64, float64)", "float32(float32, float32)"]
    par, ser = vectorize(sigs, target="parallel")(_wave), vectorize(sigs)(_wave)
    rng = np.random.default_rng(n)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    assert np.array_equal(par(x, y), ser(x, y))
    assert np.array_equal(par(x[::-2], 2.5), ser(x[::-2], 2.5))  # strided, broadcast scalar
    out = np.empty(n)
    assert par(x, y, out=out) is out and np.array_equal(out, ser(x, y))
    m = rng.standard_normal((n % 97, 31))
    assert np.array_equal(par(m, m.T[:1].T), ser(m, m.T[:1].T))


def test_parallel_gufunc_and_its_exceptions():
    @guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()", target="parallel")
    def dot(x, y, out):
        s = 0.0
        for i in range(x.shape[0]):
            if x[i] < -100:
                raise ValueError("too small")
            s += x[i] * y[i]
        out[0] = s
    m = np.random.default_rng(1).standard_normal((5000, 17))
    assert np.allclose(dot(m, m), (m * m).sum(1), rtol=1e-14)
    m[4321, 3] = -1000
    with pytest.raises(ValueError, match="too small"):
        dot(m, m)


def test_parallel_vectorize_runs_on_several_threads():
    from cujit import get_num_threads, get_thread_id

    @vectorize(["int64(float64)"], target="parallel")
    def who(x):
        s = 0.0
        for i in range(2000):
            s += math.sin(x + i)
        return get_thread_id() + (s > 1e300)
    if get_num_threads() < 2:
        pytest.skip("one CPU: the pool has one thread")
    seen = set()
    for _ in range(10):
        seen |= set(who(np.arange(20000.0)).tolist())
        if len(seen) > 1:
            break
    assert len(seen) > 1 and seen <= set(range(get_num_threads()))
