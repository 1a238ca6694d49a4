"""CUDA ufuncs without a GPU: every form of generated kernel compiles to PTX that ptxas
accepts, and the C call path (loop selection, broadcasting, dimension merging, outputs, errors)
does what it should on a fake libcuda (ufunc_checks.py)."""
import math
import os

import numpy as np
import pytest

from cujit import cuda, float64, guvectorize, int64, vectorize
from cujit.cuda.ufunc import kernel_source

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("loop_nd,mask", [(1, 0), (1, 0b10), (2, 0), (3, 0b01)])
def test_ufunc_kernel_source_forms(loop_nd, mask):
    src = kernel_source("k", 2, 1, False, loop_nd, mask, [True, True])
    idx = "i" if loop_nd == 1 else ", ".join(f"j{d}" for d in range(loop_nd))
    a0 = "a0" if mask & 1 else f"a0[{idx}]"
    a1 = "a1" if mask & 2 else f"a1[{idx}]"
    assert f"o0[{idx}] = r0(f(c0({a0}), c1({a1})))" in src
    compile(src, "<test>", "exec")


def test_gufunc_kernel_source_passes_views():
    src = kernel_source("k", 2, 2, True, 1, 0b10, [False, True])
    assert "f(a0[i], c1(a1), o0[i], o1[i])" in src


def _generated_ptx(ufunc, loop, loop_nd, mask, argtypes):
    launcher = ufunc._build(loop, loop_nd, mask)
    kernel = ufunc._kernels[-1]
    assert kernel._launcher is launcher
    return cuda.compile_ptx(kernel.py_func, argtypes)[0]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "complex64", "bool"])
def test_generated_ufunc_kernels_assemble(dtype, assemble):
    sig = f"{dtype}({dtype}, {dtype})"
    uf = vectorize([sig], target="cuda")(lambda x, y: x if x == y else y)
    one = f"{dtype}[::1]"
    regs = assemble(_generated_ptx(uf, 0, 1, 0, f"(int64, {one}, {one}, {one})"))
    assert len(regs) == 1
    two = f"{dtype}[:, :]"
    assemble(_generated_ptx(uf, 0, 2, 0b01, f"(int64, {dtype}, {two}, {two})"))


def test_seed_ufuncs_assemble(assemble):
    sqrt_2pi = np.float32((2 * math.pi) ** 0.5)

    def gaussian_pdf(x, mean, sigma):
        return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * sqrt_2pi)
    uf = vectorize(["float32(float32, float32, float32)"], target="cuda")(gaussian_pdf)
    regs = assemble(_generated_ptx(uf, 0, 1, 0b110, "(int64, float32[::1], float32, float32, "
                                                    "float32[::1])"))
    assert list(regs.values())[0] <= 32

    @cuda.jit(device=True)
    def polar_to_cartesian(rho, theta):
        return rho * math.cos(theta), rho * math.sin(theta)

    def polar_distance(rho1, theta1, rho2, theta2):
        x1, y1 = polar_to_cartesian(rho1, theta1)
        x2, y2 = polar_to_cartesian(rho2, theta2)
        return ((x1 - x2)**2 + (y1 - y2)**2)**0.5
    uf = vectorize(["float32(float32, float32, float32, float32)"], target="cuda")(
        polar_distance)
    arr = "float32[::1]"
    assemble(_generated_ptx(uf, 0, 1, 0, f"(int64, {arr}, {arr}, {arr}, {arr}, {arr})"))


def test_generated_gufunc_kernels_assemble(assemble):
    @guvectorize([(float64[:, :], float64[:], float64[:])], "(m,n),(n)->(m)", target="cuda")
    def batch_matmul(M, v, y):
        for i in range(M.shape[0]):
            acc = 0.0
            for j in range(M.shape[1]):
                acc += M[i, j] * v[j]
            y[i] = acc
    assemble(_generated_ptx(batch_matmul, 0, 1, 0,
                            "(int64, float64[:, :, ::1], float64[:, ::1], float64[:, ::1])"))

    @guvectorize([(int64[:], int64[:], int64[:])], "(n),()->(n)", target="cuda")
    def g(x, y, res):
        for i in range(x.shape[0]):
            res[i] = x[i] + y[0]
    assemble(_generated_ptx(g, 0, 2, 0, "(int64, int64[:, :, ::1], int64[:, :, ::1], "
                                        "int64[:, :, ::1])"))


def test_decoration_compiles_each_signature_for_the_device():
    @vectorize(["float32(float32, float32)", "int64(int64, int64)"], target="cuda")
    def f(x, y):
        return x * y
    assert f.types == ["ff->f", "ll->l"] or f.types == ["ff->f", "qq->q"]
    assert f.ntypes == 2 and f.nin == 2 and f.nout == 1 and f.__name__ == "f"
    assert f.py_func(2, 3) == 6
    assert repr(f) == "<cujit.cuda ufunc f>"
    assert len(f._device.signatures) == 2


def test_call_path_on_fake_driver(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "ufunc_checks.py"), memory=256 << 20)
