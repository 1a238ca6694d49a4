"""t.index(x) and a slice's members in CUDA device code: the PTX is made and ptxas -arch=sm_90
assembles it; the values are checked on the GPU machine (marked gpu)."""
import numpy as np
import pytest

from cujit import cuda


def _kernel_index_and_slice(out, x):
    t = (1, 2.5, x[0])
    out[0] = t.index(x[1])
    s = slice(x[0], None, x[2])
    out[1] = s.start
    out[2] = s.stop
    out[3] = s.step


def test_index_and_slice_members_assemble(assemble):
    ptx, _ = cuda.compile_ptx(_kernel_index_and_slice, "void(int64[:], int64[:])")
    assemble(ptx)


@pytest.mark.gpu
def test_index_and_slice_members_on_device():
    k = cuda.jit(_kernel_index_and_slice)
    for x, want in (([7, 7, -1], [2, 7, -2**63, -1]), ([3, 1, 2], [0, 3, 2**63 - 1, 2])):
        out = np.zeros(4, dtype=np.int64)
        k[1, 1](out, np.array(x, dtype=np.int64))
        assert out.tolist() == want
