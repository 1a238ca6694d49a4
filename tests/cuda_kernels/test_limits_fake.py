"""Limits of the launch paths under the fake driver (limits_checks.py)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def test_arrays_beyond_maxdim_on_the_fake_driver(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "limits_checks.py"))


def test_float_to_int_casts_are_defined_in_ptx(nvvm, assemble):
    """Float-to-int casts lower to selects around fptosi (NVVM's reader has no fptosi.sat):
    the PTX assembles, with the saturation bounds in it."""
    import math

    import numpy as np

    from cujit import cuda, float32, float64, int32, int64, void

    def k(out, x, y):
        out[0] = int(x)
        out[1] = math.floor(x)
        out[2] = np.int32(y)
        out[3] = round(x)

    ptx, _ = cuda.compile_ptx(k, void(int64[:], float64, float32))
    assemble(ptx)
    assert "cvt.rzi.s64.f64" in ptx
    # int64's upper bound 2**63 as a double, and int32's as a float
    assert "0d43E0000000000000" in ptx and "0f4F000000" in ptx
