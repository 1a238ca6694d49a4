"""OptionalType and isinstance in CUDA device code (numba-cuda allows both): the PTX is made and
ptxas -arch=sm_90 assembles it; the values are checked on the GPU machine (marked gpu)."""
import numpy as np
import pytest

from cujit import cuda, types


def _device_optional(a):
    if a < 0:
        return None
    return a * 2


dev_optional = cuda.jit(device=True)(_device_optional)


def _kernel_optional(out, x):
    r = dev_optional(x[0])
    out[0] = -1 if r is None else r
    v = x[1]
    if isinstance(v, int):  # folded: int64 here
        out[1] = v + 1
    else:
        out[1] = -5


def test_optional_and_isinstance_assemble(assemble):
    ptx, _ = cuda.compile_ptx(_kernel_optional, "void(int64[:], int64[:])")
    assemble(ptx)
    _, resty = cuda.compile_ptx(_device_optional, "(int64,)", device=True)
    assert resty is types.Optional(types.int64)


@pytest.mark.gpu
def test_optional_and_isinstance_on_device():
    k = cuda.jit(_kernel_optional)
    for x, want in (([3, 4], [6, 5]), ([-3, 0], [-1, 1])):
        out = np.zeros(2, dtype=np.int64)
        k[1, 1](out, np.array(x, dtype=np.int64))
        assert out.tolist() == want


def _kernel_optional_param(out, x):
    out[0] = -1 if x is None else x


def test_optional_kernel_parameter_is_refused():
    from cujit.errors import UnsupportedError
    with pytest.raises(UnsupportedError, match=r"argument 1 of type OptionalType\(int64\): "
                                               r"Optional kernel parameters are not supported"):
        cuda.compile_ptx(_kernel_optional_param, "void(int64[:], optional(int64))")
