"""Run under the fake libcuda: arrays of more dimensions than CJ_MAXDIM (32; NumPy 2 has 64)
are a ValueError before any of their dimensions are copied (before, a launch wrote past its
32-entry arrays). Invoked by tests/test_limits.py in a subprocess."""
import numpy as np

from cujit import cuda, guvectorize, vectorize


def expect_value_error(call):
    try:
        call()
    except ValueError as e:
        assert "dimensions exceed the limit of 32" in str(e), e
    else:
        raise AssertionError("no ValueError")


def check_kernel_arguments():
    names = [f"a{i}" for i in range(64)]
    src = f"def k({', '.join(names)}):\n    pass\n"
    ns = {}
    exec(src, ns)
    kernel = cuda.jit(ns["k"])
    small = np.zeros(1)
    for nd in (33, 64):
        big = np.zeros((1,) * nd)
        expect_value_error(lambda: kernel[1, 1](*([small] * 63), big))
        expect_value_error(lambda: kernel[1, 1](big, *([small] * 63)))


def check_ufunc_operands():
    add = vectorize(["float64(float64, float64)"], target="cuda")(lambda x, y: x + y)
    big = np.zeros((1,) * 40)
    expect_value_error(lambda: add(big, big))
    expect_value_error(lambda: add(1.0, big))


def check_gufunc_output_beyond_the_limit():
    # 31 loop dimensions and an output of 2 core dimensions: 33 in all
    @guvectorize(["void(float64[:], float64[:,:])"], "(n)->(n,n)", target="cuda")
    def outer(x, out):
        for i in range(x.shape[0]):
            for j in range(x.shape[0]):
                out[i, j] = x[i] * x[j]
    expect_value_error(lambda: outer(np.zeros((1,) * 31 + (2,))))


if __name__ == "__main__":
    check_kernel_arguments()
    check_ufunc_operands()
    check_gufunc_output_beyond_the_limit()
    print("ALL OK")
