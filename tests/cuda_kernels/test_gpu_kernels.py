"""On the GPU: every intrinsic family against NumPy, and the seed kernels as written."""
import math
import os
import sys

import numpy as np
import pytest

from cujit import cuda, float32, jit

sys.path.insert(0, os.path.dirname(__file__))
import seed_kernels  # noqa: E402

pytestmark = pytest.mark.gpu

K = seed_kernels.make(cuda, float32)


def test_add_grid_stride_device_arrays():
    n = 100_000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    out = cuda.device_array_like(dx)
    add = cuda.jit(K["add"][0])
    add[64, 256](dx, dy, out)
    np.testing.assert_array_equal(out.copy_to_host(), x + y)


def test_add_with_numpy_arrays_copied_back():
    x = np.arange(10)
    y = x * 2
    r = np.zeros_like(x)
    add = cuda.jit(K["add_simple"][0])
    add[1, 32](r, x, y)
    np.testing.assert_array_equal(r, x + y)


def test_mandelbrot_device_function_and_cpu_jit():
    image = np.zeros((128, 192), dtype=np.uint8)
    d_image = cuda.to_device(image)
    create_fractal = cuda.jit(K["create_fractal"][0])
    create_fractal[(6, 4), (32, 32)](-2.0, 1.0, -1.0, 1.0, d_image, 20)
    got = d_image.copy_to_host()

    @jit
    def mandel(x, y, max_iters):
        c = complex(x, y)
        z = 0.0j
        for i in range(max_iters):
            z = z * z + c
            if (z.real * z.real + z.imag * z.imag) >= 4:
                return i
        return 255

    want = np.zeros_like(image)
    for yy in range(128):
        for xx in range(192):
            want[yy, xx] = mandel(-2.0 + xx * (3.0 / 192), -1.0 + yy * (2.0 / 128), 20)
    # FMA contraction on the GPU may move a few boundary pixels by an iteration
    assert (got == want).mean() > 0.99

    # the CPU-jitted function called from a kernel
    @cuda.jit
    def fractal_cpu_callee(image, iters):
        x, y = cuda.grid(2)
        if x < image.shape[1] and y < image.shape[0]:
            image[y, x] = mandel(-2.0 + x * (3.0 / 192), -1.0 + y * (2.0 / 128), iters)

    d2 = cuda.device_array((128, 192), dtype=np.uint8)
    fractal_cpu_callee[(6, 4), (32, 32)](d2, 20)
    assert (d2.copy_to_host() == want).mean() > 0.99


def test_atomic_counter():
    counter = cuda.to_device(np.zeros(1, dtype=np.int32))
    count = cuda.jit(K["count"][0])
    count[64, 128](counter)
    assert counter.copy_to_host()[0] == 64 * 128


def test_shared_memory_tile_transpose():
    a = np.arange(100 * 70, dtype=np.float32).reshape(100, 70)
    out = cuda.device_array((70, 100), dtype=np.float32)
    transpose = cuda.jit(K["transpose"][0])
    transpose[(3, 4), (32, 32)](cuda.to_device(a), out)
    np.testing.assert_array_equal(out.copy_to_host(), a.T)


def test_normalize():
    x = np.random.default_rng(0).random((256, 16), dtype=np.float32) + 0.5
    d = cuda.to_device(x)
    normalize = cuda.jit(K["normalize"][0])
    normalize[2, 128](d)
    np.testing.assert_allclose(d.copy_to_host(), x / x.mean(axis=1, keepdims=True), rtol=1e-5)


def test_increment_kernel_with_stream_and_events():
    a = np.zeros(1 << 16, dtype=np.float32)
    stream = cuda.stream()
    d_a = cuda.to_device(a, stream=stream)
    start, end = cuda.event(), cuda.event()
    inc = cuda.jit(K["increment_kernel"][0])
    start.record(stream)
    inc[256, 256, stream](d_a, 26.0)
    end.record(stream)
    end.synchronize()
    assert cuda.event_elapsed_time(start, end) >= 0
    np.testing.assert_array_equal(d_a.copy_to_host(stream=stream), a + 26)


def test_cuda_array_interface_class():
    class MyFloatArray:
        def __init__(self, dev):
            self._dev = dev

        @property
        def __cuda_array_interface__(self):
            return self._dev.__cuda_array_interface__

    inc = cuda.jit(K["increment_kernel"][0])
    d = cuda.to_device(np.ones(100, dtype=np.float32))
    inc[1, 128](MyFloatArray(d), 1.0)
    np.testing.assert_array_equal(d.copy_to_host(), 2)


def test_debug_reciprocal_off_by_one_names_thread():
    @cuda.jit(debug=True)
    def reciprocal(x):
        i = cuda.grid(1)
        if i > x.shape[0]:
            return
        x[i] = 1 / x[i]

    x = np.ones(10)
    with pytest.raises(IndexError, match=r"tid=\[10, 0, 0\] ctaid=\[0, 0, 0\]"):
        reciprocal[1, 32](x)


def test_debug_division_by_zero():
    @cuda.jit(debug=True)
    def recip(x):
        i = cuda.grid(1)
        if i < x.shape[0]:
            x[i] = 1 / x[i]

    with pytest.raises(ZeroDivisionError, match=r"tid=\[3, 0, 0\]"):
        recip[1, 8](np.array([1.0, 2.0, 4.0, 0.0, 1.0, 1.0, 1.0, 1.0]))


def test_thread_indices_and_warp_functions():
    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        out[i, 0] = cuda.threadIdx.x
        out[i, 1] = cuda.blockIdx.x
        out[i, 2] = cuda.blockDim.x
        out[i, 3] = cuda.gridDim.x
        out[i, 4] = cuda.laneid
        out[i, 5] = cuda.warpsize
        out[i, 6] = cuda.gridsize(1)
        out[i, 7] = cuda.ballot_sync(0xffffffff, cuda.laneid % 2 == 0)
        out[i, 8] = cuda.shfl_down_sync(0xffffffff, i, 1)
        out[i, 9] = cuda.shfl_xor_sync(0xffffffff, i, 1)
        out[i, 10] = cuda.popc(i)
        out[i, 11] = cuda.all_sync(0xffffffff, i >= 0)
        out[i, 12] = cuda.syncthreads_count(i % 3 == 0)
        out[i, 13] = cuda.match_any_sync(0xffffffff, i // 4)

    out = np.zeros((128, 14), dtype=np.int64)
    k[2, 64](out)
    i = np.arange(128)
    lane = i % 32
    assert (out[:, 0] == i % 64).all() and (out[:, 1] == i // 64).all()
    assert (out[:, 2] == 64).all() and (out[:, 3] == 2).all()
    assert (out[:, 4] == lane).all() and (out[:, 5] == 32).all() and (out[:, 6] == 128).all()
    assert (out[:, 7] & 0xffffffff == 0x55555555).all()
    want_down = np.where(lane < 31, i + 1, i)
    assert (out[:, 8] == want_down).all() and (out[:, 9] == i ^ 1).all()
    assert (out[:, 10] == [bin(v).count("1") for v in i]).all()
    assert (out[:, 11] == 1).all()
    block = i // 64
    counts = [sum(1 for t in range(64) if (b * 64 + t) % 3 == 0) for b in range(2)]
    assert (out[:, 12] == np.array(counts)[block]).all()
    assert (out[:, 13] & 0xffffffff == (0xf << ((lane // 4) * 4))).all()


def test_atomics_against_numpy():
    @cuda.jit
    def k(f, n, u):
        i = cuda.grid(1)
        cuda.atomic.add(f, 0, 1.0)
        cuda.atomic.max(f, 1, i)
        cuda.atomic.min(f, 2, i)
        cuda.atomic.sub(n, 0, 1)
        cuda.atomic.max(n, 1, i)
        cuda.atomic.or_(n, 2, 1 << (i % 30))
        cuda.atomic.inc(u, 0, 9)
        cuda.atomic.cas(n, 3, 0, i + 1)

    f = np.array([0.0, -1.0, 1e9], dtype=np.float64)
    n = np.zeros(4, dtype=np.int32)
    u = np.zeros(1, dtype=np.uint32)
    k[4, 64](f, n, u)
    assert f[0] == 256 and f[1] == 255 and f[2] == 0
    assert n[0] == -256 and n[1] == 255 and n[2] == (1 << 30) - 1
    assert u[0] == 256 % 10
    assert 1 <= n[3] <= 256


def test_shared_dynamic_local_const_and_math():
    table = np.linspace(0, 1, 32).astype(np.float32)

    @cuda.jit
    def k(out):
        dyn = cuda.shared.array(0, dtype=float32)
        loc = cuda.local.array(4, dtype=float32)
        tab = cuda.const.array_like(table)
        t = cuda.threadIdx.x
        dyn[t] = t
        loc[t % 4] = 2.0
        cuda.syncthreads()
        out[t] = dyn[31 - t] + loc[t % 4] + tab[t] + math.sqrt(float32(t)) + dyn.size

    out = np.zeros(32, dtype=np.float32)
    k[1, 32, 0, 32 * 4](out)
    t = np.arange(32, dtype=np.float32)
    np.testing.assert_allclose(out, (31 - t) + 2 + table + np.sqrt(t) + 32, rtol=1e-6)


def test_fp16_and_bits():
    @cuda.jit
    def k(h, out, bits):
        i = cuda.grid(1)
        out[i] = cuda.fp16.hfma(h[i], h[i], h[i])
        bits[i] = cuda.brev(np.uint32(i)) + cuda.clz(np.int32(i)) + cuda.ffs(np.int32(i))

    h = np.arange(16, dtype=np.float16) / 4
    out = np.zeros(16, dtype=np.float16)
    bits = np.zeros(16, dtype=np.int64)
    k[1, 16](h, out, bits)
    np.testing.assert_allclose(out, h * h + h, rtol=1e-3)
    i = np.arange(16)

    def brev(v):
        return int(f"{v:032b}"[::-1], 2)

    def clz(v):
        return 32 - v.bit_length()

    def ffs(v):
        return (v & -v).bit_length()

    assert list(bits) == [brev(v) + clz(v) + ffs(v) for v in range(16)]


def test_resources_and_max_registers():
    k = cuda.jit(K["create_fractal_inline"][1], max_registers=32)(K["create_fractal_inline"][0])
    sig = k.signatures[0]
    assert 0 < k.get_regs_per_thread(sig) <= 32
    assert k.get_max_threads_per_block(sig) >= 256
    assert k.get_local_mem_per_thread(sig) >= 0


def test_launch_failure_names_the_kernel():
    @cuda.jit
    def big(a):
        s = cuda.shared.array(0, dtype=float32)
        a[0] = s[0]

    with pytest.raises(ValueError, match="big"):
        big[1, 1, 0, 1 << 30](np.zeros(1, dtype=np.float32))


def test_print_in_kernel(capfd):
    @cuda.jit
    def hello(a):
        if cuda.grid(1) == 0:
            print("hello", a[0], 7)

    hello[1, 1](np.array([1.5]))
    cuda.synchronize()
