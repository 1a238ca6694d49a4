"""Complex loops of np.log1p, expm1, exp2, log2, rint, sign, maximum, minimum, fmax, fmin and
the ordering ufuncs (np.less ...) on complex arrays, as numba computes them: NumPy's
lexicographic order with its NaN rule, maximum/minimum propagating NaN and fmax/fmin ignoring
it, numba's formulas (sign z/|z|); result dtypes exact; values against NumPy (numba where the
two differ). The operators `<` ... on complex arrays stay a TypingError (numba fails on them
too)."""
import numpy as np
import pytest

from cujit import njit

pytestmark = pytest.mark.usefixtures("nrt_balanced")

SPECIAL = np.array([1 + 2j, -1 - 1j, np.nan + 0j, 0j, -0.0 + 0j, complex(np.inf, 1), 2.5 + 0.5j,
                    1 + np.nan * 1j, complex(-np.inf, -np.inf), 0.5 - 3j, 1e-10 + 1e-10j])
OTHER = np.array([1 + 3j, -1 - 1j, 1 + 0j, -0j, 0j, 1j, 2.5 - 0.5j, 1 + 1j, 3 + 0j, 0.5 - 3j,
                  1e-10 + 2e-10j])


def operands(dtype):
    rng = np.random.default_rng(7)
    z = (rng.standard_normal(40) + 1j * rng.standard_normal(40)).astype(dtype)
    w = z.copy()
    w[::3] = z[::3] + 1  # equal imaginary parts, ties in the real parts, equal values
    w[1::3] = z[1::3].real + 1j * (z[1::3].imag - 1)
    return z, w


UNARY = {name: njit(eval(f"lambda a: np.{name}(a)"))
         for name in ("log1p", "expm1", "exp2", "log2", "rint", "sign")}
BINARY = {name: njit(eval(f"lambda a, b: np.{name}(a, b)"))
          for name in ("maximum", "minimum", "fmax", "fmin", "less", "less_equal", "greater",
                       "greater_equal", "equal", "not_equal")}
OPERATORS = {"<": njit(lambda a, b: a < b), "<=": njit(lambda a, b: a <= b),
             ">": njit(lambda a, b: a > b), ">=": njit(lambda a, b: a >= b)}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_complex_loops(name, dtype):
    z, _ = operands(dtype)
    for a in (z, z[::-2], z.reshape(5, 8).T, z[:0]):
        got, want = UNARY[name](a), getattr(np, name)(a)
        assert got.dtype == want.dtype == np.dtype(dtype)
        tol = 2e-6 if dtype == np.complex64 else 1e-13
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_unary_special_values():
    with np.errstate(all="ignore"):
        for name in ("log1p", "exp2", "log2", "rint"):
            # (cmath.exp of -inf-infj is still NaN in compiled code, CPython says 0j)
            z = SPECIAL[np.arange(SPECIAL.size) != 8] if name == "exp2" else SPECIAL
            got, want = UNARY[name](z), getattr(np, name)(z)
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-300, equal_nan=True)
        # numba's sign: z/|z| (inf/inf is NaN where NumPy 2 says 1), 0 at 0
        got = UNARY["sign"](SPECIAL)
        finite = np.isfinite(SPECIAL)
        np.testing.assert_allclose(got[finite], np.sign(SPECIAL[finite]), rtol=1e-15)
        assert got[3] == 0 and got[4] == 0
        assert np.isnan(got[5]) and np.isnan(got[8])
        # numba's expm1: e^x cos y - 1 + i e^x sin y (NumPy's last bits may differ near 0)
        np.testing.assert_allclose(UNARY["expm1"](SPECIAL[:4]), np.expm1(SPECIAL[:4]),
                                   rtol=1e-13, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_binary_complex_loops(dtype):
    z, w = operands(dtype)
    cases = [(z, w), (w, z), (z, z), (z[::2], w[1::2]), (z.reshape(5, 8), w[:8]),
             (SPECIAL.astype(dtype), OTHER.astype(dtype)),
             (OTHER.astype(dtype), SPECIAL.astype(dtype)),
             (SPECIAL.astype(dtype), SPECIAL[::-1].astype(dtype))]
    for a, b in cases:
        for name, f in BINARY.items():
            got = f(a, b)
            with np.errstate(invalid="ignore"):
                want = getattr(np, name)(a, b)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)
    from cujit.errors import TypingError
    for f in OPERATORS.values():
        with pytest.raises(TypingError, match="not supported for the operand types"):
            f(z, w)


def test_complex_real_mixes_and_scalars_stay_refused():
    z, _ = operands(np.complex128)
    x = np.linspace(-1, 1, 40)
    np.testing.assert_array_equal(BINARY["maximum"](z, x), np.maximum(z, x))
    np.testing.assert_array_equal(BINARY["less"](x, z), np.less(x, z))
    # Python's complex numbers are unordered: the scalar comparison stays a TypingError
    from cujit.errors import TypingError
    with pytest.raises(TypingError):
        njit(lambda a, b: a < b)(1j, 2j)
