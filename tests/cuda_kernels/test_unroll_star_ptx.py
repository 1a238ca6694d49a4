"""literal_unroll and star calls in CUDA code (issue 13): the PTX of kernels and device functions
that unroll per item and pass *args / g(*t), assembled by ptxas -arch=sm_90 (conftest's
`assemble`, which skips without libnvvm or ptxas)."""
import numpy as np

from cujit import literal_unroll


def test_unrolled_in_cuda_kernels_and_device_functions(assemble):
    from cujit import cuda, float64, int64

    @cuda.jit(device=True)
    def dev_total(t):
        s = 0.0
        for x in literal_unroll(t):
            s += x
        return s

    def kern(out, x, n):
        out[0] = dev_total((x, 2, np.float32(1.5), n > 3))
        k = 0
        for y in literal_unroll((1, 2.5, 3)):  # one item type is unrolled too on CUDA
            k += 1
            out[k] = y * x

    ptx, _ = cuda.compile_ptx(kern, (float64[:], float64, int64))
    body = ptx[ptx.index(".entry"):]
    # no loop is left: the items' constants 2, 1.5 and 2.5, 3 appear as immediates
    assert "0d4000000000000000" in body and "0d3FF8000000000000" in body
    assert "0d4004000000000000" in body and "0d4008000000000000" in body
    assert body.count("st.global.f64") == 4 and "bra" not in body
    assemble(ptx)


def test_star_arguments_in_cuda_device_code(assemble):
    from cujit import cuda, float64

    @cuda.jit(device=True)
    def dev_sum(a, *rest):
        s = a
        for x in rest:
            s += x
        return s

    @cuda.jit(device=True)
    def dev_add(a, b):
        return a + b

    def kern(out, x):
        t = (x, 2.0)
        out[0] = dev_sum(x, 1.0, 3.0) + dev_add(*t)

    ptx, _ = cuda.compile_ptx(kern, (float64[:], float64))
    body = ptx[ptx.index(".entry"):]
    # x + 1 + 3 and x + 2: the *args tuple and the g(*t) items are plain registers
    assert ("0d4010000000000000" in body or "0d3FF0000000000000" in body) and "add.f64" in body
    assert "0d4000000000000000" in body and "st.global.f64" in body
    assemble(ptx)
