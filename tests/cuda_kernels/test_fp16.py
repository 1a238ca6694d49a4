"""cuda.fp16: every numba-cuda function (PTX, ptxas -arch=sm_90, result types, the TypingError
for non-float16 arguments), float16 operators and math functions in kernels, and (GPU) the
values against NumPy computed in float32 and rounded to float16."""
import math

import numpy as np
import pytest

from cujit import cuda, float16, int8, int64
from cujit.errors import TypingError

UNARY = ["hneg", "habs", "hsqrt", "hrsqrt", "hexp", "hexp2", "hexp10", "hlog", "hlog2",
         "hlog10", "hsin", "hcos", "hfloor", "hceil", "htrunc", "hrint", "hrcp"]
BINARY = ["hadd", "hsub", "hmul", "hdiv", "hmax", "hmin"]
COMPARE = ["heq", "hne", "hge", "hgt", "hle", "hlt"]


def _kernel_source():
    lines = ["def k(x, y, out, flags):", "    i = cuda.grid(1)", "    a = x[i]", "    b = y[i]"]
    for j, f in enumerate(UNARY):
        lines.append(f"    out[i, {j}] = cuda.fp16.{f}(a)")
    for j, f in enumerate(BINARY):
        lines.append(f"    out[i, {len(UNARY) + j}] = cuda.fp16.{f}(a, b)")
    lines.append(f"    out[i, {len(UNARY) + len(BINARY)}] = cuda.fp16.hfma(a, b, a)")
    for j, f in enumerate(COMPARE):
        lines.append(f"    flags[i, {j}] = cuda.fp16.{f}(a, b)")
    return "\n".join(lines) + "\n"


NCOLS = len(UNARY) + len(BINARY) + 1
_G = {"cuda": cuda}
exec(_kernel_source(), _G)
K_ALL = _G["k"]
SIG = "void(float16[:], float16[:], float16[:, :], boolean[:, :])"


def k_operators(x, y, out):
    i = cuda.grid(1)
    a = x[i]
    b = y[i]
    out[i, 0] = a + b
    out[i, 1] = a - b
    out[i, 2] = a * b
    out[i, 3] = a / b
    out[i, 4] = -a
    out[i, 5] = abs(a)
    out[i, 6] = math.sin(a)
    out[i, 7] = math.sqrt(a)
    out[i, 8] = 1.0 if a < b else 0.0
    out[i, 9] = 1.0 if a == b else 0.0
    out[i, 10] = math.floor(a) + math.ceil(b) + math.trunc(a) + float(a)


_PTX = {}


def _ptx(func, sig):
    if func not in _PTX:
        _PTX[func] = cuda.compile_ptx(func, sig)[0]
    return _PTX[func]


def test_every_fp16_function_is_exported():
    for f in UNARY + BINARY + COMPARE + ["hfma"]:
        assert f in cuda.fp16.__all__ and callable(getattr(cuda.fp16, f))


def test_all_functions_compile_and_assemble(assemble):
    ptx = _ptx(K_ALL, SIG)
    assert "cvt.rn.f16.f32" in ptx and "rsqrt.approx" in ptx
    assemble(ptx)


def test_operators_and_math_compile_and_assemble(assemble):
    ptx = _ptx(k_operators, "void(float16[:], float16[:], float16[:, :])")
    assert "add.f16" in ptx and "mul.f16" in ptx  # numba-cuda: float16 operators stay f16
    assemble(ptx)


@pytest.mark.parametrize("expr,expected", [
    ("cuda.fp16.hadd(a, a)", "float16"), ("cuda.fp16.hrsqrt(a)", "float16"),
    ("cuda.fp16.hlog10(a)", "float16"), ("cuda.fp16.hle(a, a)", "bool"),
    ("cuda.fp16.hfma(a, a, a)", "float16"), ("a + a", "float16"), ("a * a", "float16"),
    ("-a", "float16"), ("a < a", "bool"), ("abs(a)", "float16"),
    # numba-cuda's cudamath: these math functions of a float16 stay float16 (floor too)
    ("math.sin(a)", "float16"), ("math.cos(a)", "float16"), ("math.sqrt(a)", "float16"),
    ("math.exp(a)", "float16"), ("math.log(a)", "float16"), ("math.log2(a)", "float16"),
    ("math.log10(a)", "float16"), ("math.fabs(a)", "float16"), ("math.floor(a)", "float16"),
    ("math.ceil(a)", "float16"), ("math.trunc(a)", "float16"), ("float(a)", "float16"),
    # an int64 or float64 operand does not convert safely: numba's usual float64
    ("a + 1", "float64"), ("a * 2.0", "float64"), ("math.tanh(a)", "float32"),
])
def test_result_types(expr, expected, nvvm):
    g = {"cuda": cuda, "math": math}
    exec(f"def f(a):\n    return {expr}\n", g)
    _, resty = cuda.compile_ptx(g["f"], (float16,), device=True)
    assert str(resty) == expected


def test_int8_operand_stays_float16_wider_ones_do_not(nvvm):
    """numba-cuda: an int8 converts to float16 safely (float16 result); an int64 does not."""
    def f(a, i8, i64):
        return a + i8, i8 * a, a - i64

    _, resty = cuda.compile_ptx(f, (float16, int8, int64), device=True)
    assert str(resty) == "Tuple(float16, float16, float64)"


@pytest.mark.parametrize("call", ["cuda.fp16.hrsqrt(f)", "cuda.fp16.hadd(f, f)",
                                  "cuda.fp16.htrunc(a, a)", "cuda.fp16.hexp2()"])
def test_non_float16_arguments_are_a_typing_error(call, nvvm):
    g = {"cuda": cuda}
    exec(f"def f(a, f):\n    return {call}\n", g)
    with pytest.raises(TypingError, match=r"No implementation of function cuda\.fp16\.h"):
        cuda.compile_ptx(g["f"], "float16(float16, float32)", device=True)


def test_hmax_hmin_return_the_number_beside_a_nan(nvvm):
    """PTX max.f16/min.f16 (numba-cuda's): a NaN operand yields the other one; the select
    tests the second operand for NaN."""
    ptx = _ptx(K_ALL, SIG)
    assert "setp.nan.f32" in ptx or "setp.nan.f16" in ptx or "setp.num" in ptx


# ---- on the device ----

def _reference(x, y):
    f = x.astype(np.float32)
    g = y.astype(np.float32)
    with np.errstate(all="ignore"):
        unary = [-f, np.abs(f), np.sqrt(f), 1 / np.sqrt(f), np.exp(f), np.exp2(f),
                 10.0 ** f, np.log(f), np.log2(f), np.log10(f), np.sin(f), np.cos(f),
                 np.floor(f), np.ceil(f), np.trunc(f), np.rint(f), 1 / f]
        binary = [f + g, f - g, f * g, f / g, np.fmax(f, g), np.fmin(f, g), f * g + f]
    return np.stack(unary + binary, axis=1).astype(np.float16)


@pytest.mark.gpu
def test_functions_against_numpy():
    x = np.linspace(0.25, 3.0, 64).astype(np.float16)
    y = x[::-1].copy()
    out = np.zeros((64, NCOLS), dtype=np.float16)
    flags = np.zeros((64, len(COMPARE)), dtype=np.bool_)
    cuda.jit(SIG)(K_ALL)[1, 64](x, y, out, flags)
    np.testing.assert_allclose(out.astype(np.float32), _reference(x, y).astype(np.float32),
                               rtol=4e-3, atol=4e-3)
    cmp = [x == y, x != y, x >= y, x > y, x <= y, x < y]
    assert (flags == np.stack(cmp, axis=1)).all()


@pytest.mark.gpu
def test_operators_against_numpy():
    x = np.linspace(0.25, 3.0, 64).astype(np.float16)
    y = x[::-1].copy()
    out = np.zeros((64, 11), dtype=np.float16)
    cuda.jit("void(float16[:], float16[:], float16[:, :])")(k_operators)[1, 64](x, y, out)
    f, g = x.astype(np.float32), y.astype(np.float32)
    ref = np.stack([f + g, f - g, f * g, f / g, -f, np.abs(f), np.sin(f), np.sqrt(f),
                    (f < g).astype(np.float32), (f == g).astype(np.float32),
                    np.floor(f) + np.ceil(g) + np.trunc(f) + f], axis=1)
    np.testing.assert_allclose(out.astype(np.float32), ref.astype(np.float16).astype(np.float32),
                               rtol=4e-3, atol=4e-3)
