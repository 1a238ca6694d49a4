"""Operators on arrays (issue 10): every arithmetic, bitwise, comparison and unary operator
between arrays, scalars and mixes, with NumPy broadcasting, against numba itself (the result
type, which follows numba's ufunc loop choice, and the values) over dtype pairs, shapes that
broadcast, empty, 0-d and non-contiguous operands; in-place operators; the allocation
counters back to equal."""
import gc
import itertools
import warnings

import numpy as np
import pytest

from jitcache import jitted
from cujit import _core, njit
from cujit.errors import TypingError

numba = pytest.importorskip("numba")

BINARY = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>",
          "<", "<=", "==", "!=", ">", ">="]
UNARY = ["-", "~", "+"]


pytestmark = pytest.mark.usefixtures("nrt_balanced")


def sample(dtype, shape, rng):
    if dtype in (int, float, complex, bool):  # a scalar operand
        return dtype(rng.integers(1, 4)) if dtype is not bool else True
    kind = np.dtype(dtype).kind
    if kind == "b":
        a = rng.integers(0, 2, size=shape).astype(bool)
    elif kind in "iu":
        a = rng.integers(1, 6, size=shape).astype(dtype)
    else:
        a = (rng.standard_normal(shape) * 3).astype(dtype)
        if kind == "c":
            a = a + 1j * rng.standard_normal(shape).astype(a.real.dtype)
    return a


PAIRS = [(np.float64, np.float64), (np.int64, np.int64), (np.int32, np.int32),
         (np.int32, int), (np.float32, float), (np.float32, np.int64), (np.uint8, np.uint8),
         (np.bool_, np.bool_), (np.int8, int), (np.float64, np.complex128), (int, np.int16),
         (np.uint16, np.int16), (float, np.int32)]
SHAPES = [((4,), (4,)), ((2, 1), (1, 3)), ((0, 3), (3,)), ((), (2,)), ((3, 4), (3, 4))]


def reference(f, *args):
    """numba's result and return type, or None when numba refuses the operation."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            r = f(*args)
            return r, str(f.nopython_signatures[-1].return_type)
    except Exception:  # noqa: BLE001  (numba's own refusal: nothing to compare)
        return None


def check_equal(got, want):
    if np.asarray(want).dtype.kind in "fc":  # libm's last bit may differ (powf, fmodf)
        np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.flags.c_contiguous
    else:  # 0-d operands give a number, as numba's
        assert type(got) is type(want)


# each operator compiles 13 functions in numba as well as here: a few run everywhere, the rest
# in dev/test.sh only (marked slow: not under the sanitizers, where numba's compiles cost most)
FAST_BINARY = {"+", "//", "**", "<"}


@pytest.mark.parametrize("op", [op if op in FAST_BINARY else pytest.param(op, marks=pytest.mark.slow)
                                for op in BINARY])
def test_binary_operators_match_numba(op):
    """Result types against numba for every dtype pair (numba's loop choice), values too."""
    f = eval(f"lambda a, b: a {op} b")
    ours, theirs = njit(f), numba.njit(f)
    rng = np.random.default_rng(BINARY.index(op))
    compared = 0
    for da, db in PAIRS:
        a, b = sample(da, (2, 3), rng), sample(db, (3,), rng)
        if isinstance(a, np.ndarray):
            a = a[::-1]  # a non-contiguous operand too
        ref = reference(theirs, a, b)
        if ref is None:
            with pytest.raises(TypingError):
                ours(a, b)
            continue
        with np.errstate(all="ignore"):
            got = ours(a, b)
        assert str(ours.nopython_signatures[-1].return_type) == ref[1], (op, da, db)
        check_equal(got, ref[0])
        compared += 1
    assert compared >= 6


@pytest.mark.parametrize("op", ["+", "*", "/", "//", "<", "&"])
def test_broadcasting_shapes_match_numpy(op):
    """Shapes that broadcast, empty and 0-d operands, against NumPy's values."""
    f = eval(f"lambda a, b: a {op} b")
    ours = njit(f)
    rng = np.random.default_rng(7)
    for (sa, sb), (da, db) in itertools.product(SHAPES, [(np.int64, np.int64),
                                                         (np.float64, np.float64)]):
        if op == "&" and da is np.float64:
            continue
        a, b = sample(da, sa, rng), sample(db, sb, rng)
        with np.errstate(all="ignore"):
            want = f(a, b)
            got = ours(a, b)
        assert np.shape(got) == np.shape(want)
        check_equal(got, want if isinstance(want, np.ndarray) else want.item())


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8, np.bool_, np.complex64])
def test_unary_operators_match_numba(op, dtype):
    f = eval(f"lambda a: {op}a")
    a = sample(dtype, (2, 3), np.random.default_rng(3))[:, ::2]
    ref = reference(numba.njit(f), a)
    if ref is None:
        with pytest.raises(TypingError):
            jitted(f)(a)
        return
    got = jitted(f)(a)
    np.testing.assert_array_equal(got, ref[0])
    assert got.dtype == ref[0].dtype


def chained(a, b, c):
    return (a * b + c - a / 2) ** 2 > c


def test_chained_expressions_and_temporaries_are_freed():
    rng = np.random.default_rng(9)
    a, b, c = rng.random((3, 4)), rng.random(4), 0.5
    np.testing.assert_array_equal(jitted(chained)(a, b, c), chained(a, b, c))


def inplace_ops(a, b):
    a += b
    a *= 2
    a -= 1
    return a


def test_inplace_operators_write_the_array():
    a = np.arange(6.0).reshape(2, 3)
    want = inplace_ops(a.copy(), np.array([1.0, 2.0, 3.0]))
    got = jitted(inplace_ops)(a, np.array([1.0, 2.0, 3.0]))
    assert got is a
    np.testing.assert_array_equal(a, want)
    ints = np.arange(4)
    jitted(inplace_ops)(ints, 1)  # int64 += int: stays int64
    np.testing.assert_array_equal(ints, (np.arange(4) + 1) * 2 - 1)


def test_errors():
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        njit(lambda a, b: a + b)(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        jitted(inplace_ops)(np.ones((1, 3)), np.ones((2, 3)))
    with pytest.raises(TypingError, match="Cannot cast ufunc 'add' output from "
                                          "dtype\\('float64'\\) to dtype\\('int64'\\)"):
        jitted(inplace_ops)(np.arange(3), 1.5)
    with pytest.raises(TypingError, match="not supported for the operand types"):
        njit(lambda a: a & 1.5)(np.ones(3))
