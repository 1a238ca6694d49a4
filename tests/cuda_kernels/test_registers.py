"""Register use of the seed kernels (ptxas -v for sm_90): never more than numba-cuda's PTX of
the same source needs. numba-cuda compiles here without a GPU (compile_ptx)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import seed_kernels  # noqa: E402

from cujit import cuda, float32  # noqa: E402

COMPARED = ["create_fractal_inline", "add", "add_simple", "count", "transpose", "normalize",
            "increment_kernel", "reciprocal"]


def _numba_ptx(name):
    try:
        import numba
        from numba import cuda as numba_cuda
    except Exception as exc:
        pytest.skip(f"numba-cuda unavailable: {exc}")
    kernels = seed_kernels.make(numba_cuda, numba.float32, device_mandel=False)
    func, sig = kernels[name]
    try:
        ptx, _ = numba_cuda.compile_ptx(func, sig, cc=(9, 0))
    except Exception as exc:  # e.g. numba-cuda 0.30 with NumPy 2.5 (np.row_stack is gone)
        pytest.skip(f"numba-cuda cannot compile here: {type(exc).__name__}: {exc}")
    return ptx


def _cujit_kernels():
    return seed_kernels.make(cuda, float32)


@pytest.mark.parametrize("name", COMPARED)
def test_registers_not_above_numba_cuda(name, assemble):
    func, sig = _cujit_kernels()[name]
    ours = assemble(cuda.compile_ptx(func, sig)[0])
    theirs = assemble(_numba_ptx(name))
    assert len(ours) == 1 and len(theirs) == 1
    mine, numbas = list(ours.values())[0], list(theirs.values())[0]
    print(f"{name}: cujit {mine} registers, numba-cuda {numbas}")
    assert mine <= numbas


def test_mandelbrot_with_device_function(assemble):
    func, sig = _cujit_kernels()["create_fractal"]
    ptx, _ = cuda.compile_ptx(func, sig)
    regs = assemble(ptx)
    inline = assemble(cuda.compile_ptx(*_cujit_kernels()["create_fractal_inline"])[0])
    assert list(regs.values())[0] <= list(inline.values())[0] + 4


def test_cpu_jit_function_as_device_function(assemble):
    from cujit import jit

    @jit
    def mandel(x, y, max_iters):
        c = complex(x, y)
        z = 0.0j
        for i in range(max_iters):
            z = z * z + c
            if (z.real * z.real + z.imag * z.imag) >= 4:
                return i
        return 255

    def kernel(image, iters):
        x, y = cuda.grid(2)
        if x < image.shape[1] and y < image.shape[0]:
            image[y, x] = mandel(x / 100.0 - 2.0, y / 100.0 - 1.0, iters)

    ptx, _ = cuda.compile_ptx(kernel, "void(uint8[:, :], int64)")
    assemble(ptx)
    assert mandel(0.0, 0.0, 20) == 255  # the CPU version still works


def test_max_registers_is_honoured(assemble):
    func, sig = _cujit_kernels()["create_fractal_inline"]
    d = cuda.jit(sig, max_registers=24)(func)
    ptx = d.inspect_asm(d.signatures[0])
    assert ".maxnreg 24" in ptx
    assert list(assemble(ptx).values())[0] <= 24


def test_normalize_accumulates_in_float32_like_numba(nvvm):
    func, sig = _cujit_kernels()["normalize"]
    ptx, _ = cuda.compile_ptx(func, sig)
    assert "add.f32" in ptx


def test_step_one_loop_index_is_nsw(nvvm):
    """range(n)'s index is an nsw increment: NVVM drops the negative-index wrap on it and
    strength-reduces the address (normalize had 36 registers without it)."""
    def kernel(x):
        i = cuda.grid(1)
        for j in range(x.shape[1]):
            x[i, j] += 1.0

    d = cuda.jit("void(float32[:, :])")(kernel)
    sig = d.signatures[0]
    assert "add nsw i64 %cur, 1" in d.inspect_llvm(sig)
    # a wrap of a negative index is a sign shift: at most the row index's, none in the loop
    assert d.inspect_asm(sig).count("shr.s64") <= 1


def test_grid_index_is_known_non_negative(nvvm):
    """cuda.grid() is never negative (NVVM is told through llvm.assume): indexing with it needs
    no negative-index wrap."""
    def kernel(r, x):
        i, j = cuda.grid(2)
        if i < r.shape[0]:
            r[i] = x[i] + x[j]

    d = cuda.jit("void(float64[:], float64[:])")(kernel)
    sig = d.signatures[0]
    assert "llvm.assume" in d.inspect_llvm(sig)
    assert "shr.s64" not in d.inspect_asm(sig)


def test_element_offsets_are_nsw(nvvm):
    """An element's byte offset (index * stride, summed over the axes) cannot overflow: nsw."""
    def kernel(x, i, j):
        x[i, j] = 1.0

    d = cuda.jit("void(float32[:, :], int64, int64)")(kernel)
    llvm = d.inspect_llvm(d.signatures[0])
    assert llvm.count("mul nsw i64 %idx") == 2 and "add nsw i64" in llvm
