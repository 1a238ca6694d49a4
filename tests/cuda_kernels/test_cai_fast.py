"""CuPy arrays and PyTorch tensors as kernel arguments without their __cuda_array_interface__
dict (csrc/cuda/cai_fast.c), on the fake driver with stand-in classes (cai_fast_checks.py); the
real libraries on the GPU: results written through them checked against NumPy."""
import os

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def test_cupy_and_torch_read_without_the_dict(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "cai_fast_checks.py"))


def _scale_kernel():
    from cujit import cuda

    @cuda.jit
    def scale(out, x, k):
        i, j = cuda.grid(2)
        if i < out.shape[0] and j < out.shape[1]:
            out[i, j] = x[i, j] * k
    return scale


@pytest.mark.gpu
def test_cupy_arrays_on_the_gpu():
    cupy = pytest.importorskip("cupy")
    scale = _scale_kernel()
    for dtype in ("float32", "float64", "int32", "complex64"):
        x = cupy.arange(6 * 8, dtype=dtype).reshape(6, 8)
        for view in (x, x[::2, 1::3], x.T, cupy.asfortranarray(x)):
            out = cupy.zeros(view.shape, dtype=dtype)
            scale[(4, 4), (8, 8)](out, view, 3)
            assert np.array_equal(out.get(), view.get() * 3)
    empty = cupy.zeros((0, 4), dtype="float32")
    scale[1, 1](empty, empty, 2)


@pytest.mark.gpu
def test_torch_tensors_on_the_gpu():
    torch = pytest.importorskip("torch")
    scale = _scale_kernel()
    for dtype in (torch.float32, torch.float64, torch.int64, torch.uint8):
        x = torch.arange(48, device="cuda").to(dtype).reshape(6, 8)
        for view in (x, x[::2, 1::3], x.t()):
            out = torch.zeros(view.shape, dtype=dtype, device="cuda")
            scale[(4, 4), (8, 8)](out, view, 3)
            assert torch.equal(out, (view * 3).to(dtype))
    with pytest.raises(RuntimeError, match="require"):
        scale[1, 1](torch.zeros((2, 2), device="cuda", requires_grad=True),
                    torch.zeros((2, 2), device="cuda"), 1)
    with pytest.raises(TypeError):
        scale[1, 1](torch.zeros((2, 2)), torch.zeros((2, 2), device="cuda"), 1)
