"""Checks of the CUDA simulator, run by test_simulator.py in a process started with
CUJIT_ENABLE_CUDASIM=1 (the switch is read when cujit.cuda is imported). Prints ALL OK."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "cuda_kernels"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
import cujit  # noqa: E402
from cujit import cuda, float32  # noqa: E402
import seed_kernels  # noqa: E402
from mandelbrot import mandel as seed_mandel  # noqa: E402

assert cuda.SIMULATOR and cuda.is_available()
K = {n: cuda.jit(f) for n, (f, sig) in seed_kernels.make(cuda, float32).items()}


def check_link_is_refused_and_options_accepted():
    try:
        cuda.jit(link=["f.ptx"])(lambda x: None)
    except NotImplementedError as exc:
        assert str(exc) == "Cannot link PTX in the simulator"
    else:
        raise AssertionError("expected NotImplementedError")
    k = cuda.jit(launch_bounds=(32,), fastmath={"nnan"})(lambda x: None)
    k[1, 1](np.zeros(1))


def check_seed_kernels():
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    K["add"][4, 64](x, 2 * x, out)  # grid-stride: 256 threads for 1000 items
    assert np.array_equal(out, 3 * x)
    counter = np.zeros(1, dtype=np.int32)
    K["count"][8, 32](counter)
    assert counter[0] == 256
    a = np.arange(40 * 70, dtype=np.float32).reshape(40, 70)
    t = np.zeros((70, 40), np.float32)
    K["transpose"][(3, 2), (32, 32)](a, t)  # shared tile + syncthreads, 1024 threads a block
    assert np.array_equal(t, a.T)
    img = np.zeros((24, 32), dtype=np.uint8)
    K["create_fractal"][(2, 2), (16, 12)](-2.0, 1.0, -1.0, 1.0, img, 20)
    mandel = cujit.njit(seed_mandel)  # the seed's mandel, compiled for the CPU
    ref = np.array([[mandel(-2.0 + i * 3.0 / 32, -1.0 + j * 2.0 / 24, 20) for i in range(32)]
                    for j in range(24)], dtype=np.uint8)
    assert np.array_equal(img, ref)
    m = np.random.default_rng(0).random((64, 8)).astype(np.float32) + 1
    m_copy = m.copy()
    K["normalize"][2, 32](m_copy)
    assert np.allclose(m_copy, m / m.mean(axis=1, keepdims=True), rtol=1e-5)


def check_device_arrays_and_streams():
    d = cuda.to_device(np.arange(10.0))
    o = cuda.device_array_like(d)
    s = cuda.stream()
    K["add"][1, 32](d, d, o)
    s.synchronize()
    assert np.array_equal(o.copy_to_host(), 2 * np.arange(10.0)) and o.shape == (10,)
    host = np.zeros(10)
    o.copy_to_host(host)
    assert host[3] == 6.0 and cuda.is_cuda_array(o) and not cuda.is_cuda_array(host)


@cuda.jit
def block_sums(a, out):
    # shared per block, syncthreads with threads that already returned, syncthreads_count
    buf = cuda.shared.array(64, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= a.size:
        return  # these threads leave the barrier
    buf[t] = a[i]
    n = cuda.syncthreads_count(a[i] > 0)
    if t == 0:
        s = 0.0
        for k in range(min(cuda.blockDim.x, a.size - cuda.blockIdx.x * cuda.blockDim.x)):
            s += buf[k]
        out[cuda.blockIdx.x, 0] = s
        out[cuda.blockIdx.x, 1] = n


def check_shared_and_barriers():
    a = np.arange(-20.0, 80.0)  # 100 items, blocks of 64: the last block is partly idle
    out = np.zeros((2, 2))
    block_sums[2, 64](a, out)
    assert out[0, 0] == a[:64].sum() and out[1, 0] == a[64:].sum(), out
    assert out[0, 1] == np.count_nonzero(a[:64] > 0) and out[1, 1] == 36, out


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit
def atomics(a, out, old):
    i = cuda.grid(1)
    tmp = cuda.local.array(2, np.int64)
    tmp[0] = clamp(a[i], 0, 9)
    cuda.atomic.add(out, 0, tmp[0])
    cuda.atomic.max(out, 1, a[i])
    cuda.atomic.min(out, 2, a[i])
    old[i] = cuda.atomic.inc(out, 3, 1000)


def check_atomics_local_and_device_functions():
    a = np.arange(-5, 27, dtype=np.int64)
    out = np.array([0, -100, 100, 0], dtype=np.int64)
    old = np.zeros_like(a)
    atomics[1, 32](a, out, old)
    assert out[0] == np.clip(a, 0, 9).sum() and out[1] == 26 and out[2] == -5, out
    assert out[3] == 32 and sorted(old) == list(range(32))  # each thread saw a distinct old


def check_forall():
    @cuda.jit
    def fill(out, n):
        i = cuda.grid(1)
        if i < n:
            out[i] = i

    out = np.full(300, -1, dtype=np.int64)
    fill.forall(257, tpb=64)(out, 257)  # 5 blocks of 64
    assert (out[:257] == np.arange(257)).all() and (out[257:] == -1).all()
    fill.forall(0)(out[:0], 0)
    for bad, exc in ((-1, ValueError), (2.0, TypeError)):
        try:
            fill.forall(bad)
        except exc:
            pass
        else:
            raise AssertionError(f"forall({bad!r}) accepted")


@cuda.jit
def bad_index(a):
    i = cuda.grid(1)
    a[i] = 1.0  # the launch has more threads than items


def check_errors_name_the_thread():
    try:
        bad_index[1, 16](np.zeros(10))
    except IndexError as e:
        assert str(e).startswith("tid=[10, 0, 0] ctaid=[0, 0, 0]: "), e
    else:
        raise AssertionError("no IndexError")
    try:
        K["add"](np.zeros(1), np.zeros(1), np.zeros(1))
    except ValueError as e:
        assert "launch configuration" in str(e)
    else:
        raise AssertionError("launched without a configuration")

    @cuda.jit
    def warp(a):
        a[0] = cuda.shfl_sync(0xFFFFFFFF, 1, 0)
    try:
        warp[1, 1](np.zeros(1))
    except NotImplementedError as e:
        assert "shfl_sync is not supported by the CUDA simulator" in str(e)
    else:
        raise AssertionError("shfl_sync ran")


for name, check in list(globals().items()):
    if name.startswith("check_"):
        check()
print("ALL OK")
