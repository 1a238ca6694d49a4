"""Tuple operations in CUDA device code (tests/test_tuple_ops.py has them on the CPU): slices by
constants, `in`, sum(), tuple ordering and max() of several tuples are plain LLVM with no run-time
calls; the PTX is made and ptxas -arch=sm_90 assembles it; the values are checked on the GPU
machine (marked gpu)."""
import numpy as np
import pytest

from cujit import cuda


def _kernel_tuple_ops(out, x):
    t = (x[0], x[1], x[2])
    u = t[::-1][1:]
    out[0] = sum(u)
    out[1] = 1 if x[0] in t[1:] else 0
    out[2] = 1 if (t[0], t[1]) < (t[1], t[0]) else 0
    out[3] = max((x[0], x[1]), (x[1], x[0]))[0]


def test_tuple_ops_in_a_kernel_assemble(assemble):
    ptx, _ = cuda.compile_ptx(_kernel_tuple_ops, "void(int64[:], int64[:])")
    assemble(ptx)


@pytest.mark.gpu
@pytest.mark.parametrize("x", [[3, 5, 3], [7, -1, 2]])
def test_tuple_ops_in_a_kernel_on_device(x):
    x = np.array(x, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    cuda.jit(_kernel_tuple_ops)[1, 1](out, x)
    want = np.zeros(4, dtype=np.int64)
    _kernel_tuple_ops(want, x)
    assert out.tolist() == want.tolist()
