"""Every CUDA intrinsic family compiles to PTX that ptxas -arch=sm_90 accepts."""
import math

import numpy as np
import pytest

from cujit import cuda, float16, float32, float64, int32, int64, uint32, uint64, void

TABLE = np.arange(16, dtype=np.float32)


def k_indices(out):
    tx, ty, tz = cuda.threadIdx.x, cuda.threadIdx.y, cuda.threadIdx.z
    bx, by, bz = cuda.blockIdx.x, cuda.blockIdx.y, cuda.blockIdx.z
    dx, dy, dz = cuda.blockDim.x, cuda.blockDim.y, cuda.blockDim.z
    gx, gy, gz = cuda.gridDim.x, cuda.gridDim.y, cuda.gridDim.z
    i = cuda.grid(1)
    x, y = cuda.grid(2)
    a, b, c = cuda.grid(3)
    s = cuda.gridsize(1)
    s2 = cuda.gridsize(2)
    out[i] = (tx + ty + tz + bx + by + bz + dx + dy + dz + gx + gy + gz + x + y + a + b + c
              + s + s2[0] + s2[1] + cuda.laneid + cuda.warpsize)


def k_sync(out):
    i = cuda.grid(1)
    cuda.syncthreads()
    n = cuda.syncthreads_count(i > 3)
    a = cuda.syncthreads_and(i)
    o = cuda.syncthreads_or(i > 5)
    cuda.threadfence()
    cuda.threadfence_block()
    cuda.threadfence_system()
    out[i] = n + a + o


def k_shared(out):
    tile = cuda.shared.array((16, 16), dtype=float32)
    buf = cuda.shared.array(32, int32)
    dyn = cuda.shared.array(0, dtype=float32)
    loc = cuda.local.array(8, float64)
    tab = cuda.const.array_like(TABLE)
    i = cuda.threadIdx.x
    tile[i % 16, i // 16] = i
    buf[i % 32] = i
    dyn[i] = i
    loc[i % 8] = 1.0
    cuda.syncthreads()
    out[i] = tile[i // 16, i % 16] + buf[0] + dyn[i] + loc[i % 8] + tab[i % 16] + dyn.size


def k_atomic_float(a, b):
    i = cuda.grid(1)
    cuda.atomic.add(a, 0, 1.0)
    cuda.atomic.sub(a, 1, 1.0)
    cuda.atomic.max(a, 2, i)
    cuda.atomic.min(a, 3, i)
    cuda.atomic.nanmax(a, 4, i)
    cuda.atomic.nanmin(a, 5, i)
    cuda.atomic.exch(a, 6, 2.0)
    cuda.atomic.add(b, (0, 1), 1.0)


def k_atomic_int(a, u, w):
    i = cuda.grid(1)
    cuda.atomic.add(a, 0, 1)
    cuda.atomic.sub(a, 1, 1)
    cuda.atomic.and_(a, 2, i)
    cuda.atomic.or_(a, 3, i)
    cuda.atomic.xor(a, 4, i)
    cuda.atomic.max(a, 5, i)
    cuda.atomic.min(a, 6, i)
    cuda.atomic.exch(a, 7, i)
    cuda.atomic.cas(a, 8, 0, i)
    cuda.atomic.compare_and_swap(a, 0, i)
    cuda.atomic.inc(u, 0, 10)
    cuda.atomic.dec(u, 1, 10)
    cuda.atomic.max(w, 0, i)
    cuda.atomic.inc(w, 1, 10)
    sh = cuda.shared.array(4, int32)
    cuda.atomic.add(sh, 0, 1)


def k_warp(a, f, d):
    i = cuda.grid(1)
    m = cuda.activemask()
    lt = cuda.lanemask_lt()
    all_ = cuda.all_sync(m, i > 0)
    any_ = cuda.any_sync(m, i > 4)
    eq = cuda.eq_sync(m, i)
    ballot = cuda.ballot_sync(0xffffffff, i % 2 == 0)
    s1 = cuda.shfl_sync(0xffffffff, a[i], 0)
    s2 = cuda.shfl_up_sync(0xffffffff, f[i], 1)
    s3 = cuda.shfl_down_sync(0xffffffff, d[i], 1)
    s4 = cuda.shfl_xor_sync(0xffffffff, i, 1)
    ma = cuda.match_any_sync(0xffffffff, a[i])
    mall, pred = cuda.match_all_sync(0xffffffff, d[i])
    a[i] = m + lt + all_ + any_ + eq + ballot + s1 + ma + mall + pred + s4
    f[i] = s2
    d[i] = s3


def k_bits(a, u, f, d):
    i = cuda.grid(1)
    a[i] = cuda.popc(a[i]) + cuda.clz(a[i]) + cuda.ffs(a[i]) + cuda.ffs(u[i])
    u[i] = cuda.brev(u[i]) + cuda.popc(u[i])
    f[i] = cuda.fma(f[i], f[i], f[i]) + cuda.cbrt(f[i]) + cuda.selp(i > 3, f[i], 1.0)
    d[i] = cuda.fma(d[i], 2.0, 1.0) + cuda.cbrt(d[i])


def k_fp16(h, out):
    i = cuda.grid(1)
    x = h[i]
    y = cuda.fp16.hadd(x, x)
    y = cuda.fp16.hmul(y, cuda.fp16.hsub(x, y))
    y = cuda.fp16.hfma(x, y, cuda.fp16.hdiv(y, x))
    y = cuda.fp16.hmax(cuda.fp16.hneg(y), cuda.fp16.habs(x))
    y = cuda.fp16.hmin(y, cuda.fp16.hsqrt(x))
    y = cuda.fp16.hadd(y, cuda.fp16.hexp(cuda.fp16.hlog(x)))
    h[i] = cuda.fp16.hadd(y, cuda.fp16.hsin(cuda.fp16.hcos(x)))
    out[i] = cuda.fp16.hgt(x, y) + cuda.fp16.heq(x, y) + cuda.fp16.hle(x, y)


def k_math(f, d, c):
    i = cuda.grid(1)
    x = f[i]
    f[i] = math.sin(x) + math.cos(x) + math.exp(x) + math.log(x) + math.sqrt(x) + \
        math.pow(x, x) + math.tanh(x) + math.atan2(x, x) + math.floor(x) + abs(x)
    y = d[i]
    d[i] = math.erf(y) + math.lgamma(y) + math.hypot(y, y) + math.log1p(y) + y ** 3
    c[i] = c[i] * c[i] + 1j


def k_print(a):
    i = cuda.grid(1)
    if i == 0:
        print("value", a[0], i, 1.5)


FAMILIES = [
    (k_indices, (int64[:],)),
    (k_sync, (int32[:],)),
    (k_shared, (float32[:],)),
    (k_atomic_float, (float32[:], float64[:, :])),
    (k_atomic_int, (int32[:], uint32[:], uint64[:])),
    (k_warp, (int32[:], float32[:], float64[:])),
    (k_bits, (int32[:], uint32[:], float32[:], float64[:])),
    (k_fp16, (float16[:], int32[:])),
    (k_math, (float32[:], float64[:], None)),
    (k_print, (float32[:],)),
]


def _sig(args):
    from cujit import complex128
    return void(*[complex128[:] if a is None else a for a in args])


@pytest.mark.parametrize("func,args", FAMILIES, ids=[f.__name__ for f, _ in FAMILIES])
def test_family_compiles_and_assembles(func, args, assemble):
    ptx, resty = cuda.compile_ptx(func, _sig(args))
    assert f".entry {func.__name__}(" in ptx
    regs = assemble(ptx)
    assert func.__name__ in regs


def test_device_function_compiles(assemble):
    @cuda.jit(device=True)
    def clamp(x, lo, hi):
        return min(max(x, lo), hi), x

    def k(a):
        i = cuda.grid(1)
        v, w = clamp(a[i], 0.0, 1.0)
        a[i] = v + w

    ptx, _ = cuda.compile_ptx(k, "void(float64[:])")
    assemble(ptx)
    dptx, resty = cuda.compile_ptx(clamp.py_func, "UniTuple(float64, 2)(float64, float64, float64)",
                                   device=True)
    assert ".func" in dptx and ".entry" not in dptx
    assert str(resty) == "UniTuple(float64 x 2)"


def test_float_min_max_are_ptx_min_max_as_numba_cuda(assemble):
    """numba-cuda lowers min/max of two float32/float64 to libdevice fmin/fmax: PTX min/max
    (a NaN operand yields the other); ints and three arguments keep Python's compare."""
    def k(f, d, i):
        j = cuda.grid(1)
        f[j] = min(f[j], f[j + 1]) + max(f[j], f[j + 1])
        d[j] = min(d[j], d[j + 1]) + max(d[j], f[j])  # float64 with float32: in float64
        i[j] = min(i[j], i[j + 1]) + max(i[j], i[j + 1], 3)

    ptx, _ = cuda.compile_ptx(k, "void(float32[:], float64[:], int32[:])")
    for ins in ("min.f32", "max.f32", "min.f64", "max.f64", "min.s32"):
        assert ins in ptx, ins
    assemble(ptx)


@pytest.mark.gpu
def test_float_min_max_nan_rule_on_device():
    @cuda.jit
    def k(x, y, out):
        j = cuda.grid(1)
        out[0, j] = min(x[j], y[j])
        out[1, j] = max(x[j], y[j])

    x = np.array([np.nan, 1.0, 2.0, np.nan])
    y = np.array([1.0, np.nan, 3.0, np.nan])
    out = np.zeros((2, 4))
    k[1, 4](x, y, out)
    np.testing.assert_array_equal(out[0], np.fmin(x, y))
    np.testing.assert_array_equal(out[1], np.fmax(x, y))
