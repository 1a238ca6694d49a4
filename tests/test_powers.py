"""`**` with an integer exponent and complex powers, as numba computes them (issue 16): float and
int bases by numba's int_power_impl (a constant exponent multiplied out, a run-time one by
squaring, math.pow past |n| > 0x10000), complex powers by numba's complex_power_impl (z * z for
2, else CPython's _Py_c_pow). The values equal numba's bit for bit; the IR of a constant power
has no call to pow."""
import math
import re

import numpy as np
import pytest

import cujit

numba = pytest.importorskip("numba")

CONSTANTS = list(range(-16, 17)) + [31, 32, 63, 64, 100, -100, 1000, 65536, -65536, 65537,
                                    -65537, 100000]


def floats(dtype, rng):
    fi = np.finfo(dtype)
    edge = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, np.inf, -np.inf, np.nan, fi.tiny, -fi.tiny,
            fi.tiny / 4, -fi.tiny / 8, fi.max, -fi.max, fi.eps, 1 + fi.eps]
    rand = list(rng.standard_normal(30) * 3) + list(np.exp(rng.uniform(-40, 40, 20)))
    rand += list(-np.exp(rng.uniform(-40, 40, 20))) + list(1 + rng.standard_normal(10) * 1e-3)
    return np.array(edge + rand, dtype=dtype)


def bits_equal(a, b):
    """Equal bit for bit, any NaN equal to any NaN."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype.kind == "c":
        return bits_equal(a.real, b.real) and bits_equal(a.imag, b.imag)
    if a.dtype.kind != "f":
        return np.array_equal(a, b)
    nan = np.isnan(a) & np.isnan(b)
    return np.array_equal(np.where(nan, 0, a).view(f"u{a.itemsize}"),
                          np.where(nan, 0, b).view(f"u{b.itemsize}"))


def both(src, **options):
    scope = {"np": np}
    exec(src, scope)  # noqa: S102  (the test's own source text)
    return cujit.njit(**options)(scope["f"]), numba.njit(**options)(scope["f"])


def outcome(f, *args):
    try:
        return f(*args)
    except (ZeroDivisionError, OverflowError) as e:
        return type(e)


def constant_powers_source(exponents, guard=False):
    """f(xs, out): out[i, j] = xs[i] ** exponents[j], one statement each. With `guard`, a
    negative exponent whose x ** -n is 0 (1 / 0: ZeroDivisionError, numba's under either error
    model) gives NaN instead, so one call covers every exponent."""
    lines = ["def f(xs, out):", "    for i in range(xs.shape[0]):", "        x = xs[i]"]
    for j, e in enumerate(exponents):
        if guard and -0x10000 <= e < 0:
            lines.append(f"        out[i, {j}] = x ** {e} if x ** {-e} != 0 else np.nan")
        else:
            lines.append(f"        out[i, {j}] = x ** {e}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_constant_float_powers_equal_numba_bit_for_bit(dtype):
    xs = floats(dtype, np.random.default_rng(1))
    ours, theirs = both(constant_powers_source(CONSTANTS, guard=True))
    got, want = (np.empty((xs.size, len(CONSTANTS)), dtype) for _ in range(2))
    ours(xs, got)
    theirs(xs, want)
    assert bits_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_run_time_float_powers_equal_numba_bit_for_bit(dtype):
    xs = floats(dtype, np.random.default_rng(2))
    ns = np.array(CONSTANTS + [2 ** 40, -2 ** 40, 2 ** 63 - 1], dtype=np.int64)
    src = ("def f(xs, ns, out):\n    for i in range(xs.shape[0]):\n"
           "        for j in range(ns.shape[0]):\n            n = ns[j]\n"
           "            if -0x10000 <= n < 0 and xs[i] ** -n == 0:\n"
           "                out[i, j] = np.nan\n"
           "            else:\n                out[i, j] = xs[i] ** n\n")
    ours, theirs = both(src)
    got, want = (np.empty((xs.size, ns.size), dtype) for _ in range(2))
    ours(xs, ns, got)
    theirs(xs, ns, want)
    assert bits_equal(got, want)


@pytest.mark.parametrize("etype", [np.int8, np.int16, np.int32, np.uint8, np.uint32, np.uint64,
                                   np.bool_])
def test_exponent_types_equal_numba(etype):
    xs = floats(np.float64, np.random.default_rng(3))[:40]
    info = np.iinfo(etype) if etype is not np.bool_ else None
    ns = [0, 1, 3] if info is None else [0, 1, 7, int(info.max), int(info.min), info.max // 3]
    ns = np.array(ns, dtype=etype)
    ours, theirs = both("def f(x, n):\n    return x ** n\n")
    for x in xs:
        for n in ns:
            got, want = outcome(ours, x, n), outcome(theirs, x, n)
            assert (got == want if isinstance(got, type) else bits_equal(got, want)), (x, n)


def test_errors_equal_numba():
    const3, nconst3 = both("def f(x):\n    return x ** -3\n")
    big, nbig = both("def f(x):\n    return x ** -70000\n")
    rt, nrt = both("def f(x, n):\n    return x ** n\n")
    cases = [(const3, nconst3, (0.0,)), (const3, nconst3, (-0.0,)), (const3, nconst3, (1e-200,)),
             (const3, nconst3, (0,)), (big, nbig, (0.0,)), (big, nbig, (0.5,)),
             (rt, nrt, (0.0, -1)), (rt, nrt, (1e-200, -2)), (rt, nrt, (0.0, -70000)),
             (rt, nrt, (2.0, -2 ** 63)), (rt, nrt, (1, -2 ** 63)), (rt, nrt, (0, -2 ** 63)),
             (rt, nrt, (2.0, np.int32(-2 ** 31))), (rt, nrt, (1, np.int32(-2 ** 31))),
             (rt, nrt, (0, -1)), (rt, nrt, (3, -2)), (rt, nrt, (-1, -3))]
    for ours, theirs, args in cases:
        got, want = outcome(ours, *args), outcome(theirs, *args)
        assert got == want or (not isinstance(got, type) and bits_equal(got, want)), args
    with pytest.raises(ZeroDivisionError, match="0 cannot be raised to a negative power"):
        rt(0, -2)
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        const3(0.0)
    with pytest.raises(OverflowError):
        rt(2.0, -2 ** 63)


def test_error_model_numpy():
    ours, theirs = both("def f(x, n):\n    return x ** n\n", error_model="numpy")
    for args in ((0, -1), (0, -2), (np.int32(0), -5), (3, -2), (-1, -3)):
        assert bits_equal(ours(*args), theirs(*args)), args
    assert ours(0, -1) == -2 ** 63  # numba's zerodiv_return
    # numba raises ZeroDivisionError here under either model (its int_power is compiled with
    # error_model='python'); cujit gives NumPy's inf (docs/differences.md)
    assert ours(0.0, -1) == math.inf and ours(-0.0, -3) == -math.inf
    assert ours(1e-200, -2) == math.inf


def test_int_powers_equal_numba():
    ints = [0, 1, -1, 2, -2, 3, 7, -7, 10, 2 ** 31, -2 ** 63, 2 ** 63 - 1, np.int32(3),
            np.uint64(3), np.uint8(2), True, False, np.int8(-2)]
    exps = [e for e in CONSTANTS if abs(e) <= 0x10000]
    ours, theirs = both("def f(x, n):\n    return x ** n\n")
    for x in ints:
        for n in exps:
            got, want = outcome(ours, x, n), outcome(theirs, x, n)
            assert got == want and type(got) is type(want), (x, n)
    ours, theirs = both(constant_powers_source([e for e in exps if e >= 0]))
    xs = np.array([0, 1, -1, 2, -2, 3, 7, -7, 10, 2 ** 31], dtype=np.int64)
    got, want = (np.empty((xs.size, len([e for e in exps if e >= 0])), np.int64) for _ in range(2))
    ours(xs, got)
    theirs(xs, want)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_powers_equal_numba_bit_for_bit(dtype):
    rng = np.random.default_rng(4)
    zs = [0j, 1 + 0j, 1j, -1j, 1 + 2j, -3.5 + 0.25j, complex(np.inf, 0), complex(0, np.nan),
          complex(-0.0, 0.0), complex(1e-200, 1e-200), complex(1e200, -1e200),
          complex(np.inf, -np.inf), complex(-0.0, 1e-30)]
    zs += [complex(*v) for v in rng.standard_normal((20, 2)) * 3]
    zs += [complex(s1 * 10.0 ** -rng.uniform(5, 40), s2 * 10.0 ** -rng.uniform(5, 40))
           for s1 in (1, -1) for s2 in (1, -1) for _ in range(5)]
    with np.errstate(over="ignore"):  # 1e200 is inf in complex64
        zs = np.array(zs, dtype=dtype)
    exps = list(range(-8, 9)) + [13, 100, -100]
    ours, theirs = both(constant_powers_source(exps))
    got, want = np.empty((zs.size, len(exps)), np.complex128), np.empty((zs.size, len(exps)),
                                                                         np.complex128)
    ours(zs, got)
    theirs(zs, want)
    assert bits_equal(got, want)
    ours, theirs = both("def f(z, w):\n    return z ** w\n")
    for z in zs:
        for w in (2 + 0j, 0.5 + 0.5j, -1 + 0j, 0j, 3 + 0j, complex(2, -0.0), 1.5, 7, -3,
                  np.float32(2.5), dtype(complex(0.5, -3))):
            assert bits_equal(ours(z, w), theirs(z, w)), (z, w)


def body_of(f):
    ir = f.inspect_llvm(f.signatures[0])
    name = re.search(r"define [^@]*@(cj\.[\w.]+?)\(", ir).group(1)
    start = ir.index(f"@{name}(")
    return ir[start:ir.index("\n}\n", start)]


@pytest.mark.parametrize("src", ["x ** 6", "x ** 12 - x ** 6", "x ** -3", "pow(x, 5)",
                                 "x ** 16 + x ** 2"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_constant_power_is_multiplications(src, dtype):
    f = cujit.njit(eval(f"lambda x: {src}"))  # noqa: S307
    f(dtype(1.5))
    body = body_of(f)
    assert "@pow" not in body and "llvm.pow" not in body
    assert "fmul" in body


def test_run_time_integer_exponent_squares():
    f = cujit.njit(lambda x, n: x ** n)
    assert f(1.5, 3) == 1.5 ** 3
    body = body_of(f)
    # a loop of multiplications; pow only past |n| > 0x10000 (numba's cutoff), of float(n)
    assert "phi double" in body and "fmul double" in body
    for exponent in re.findall(r"call double @pow\(double %[\w.]+, double (%[\w.]+)\)", body):
        assert re.search(rf"{re.escape(exponent)} = sitofp i64", body), body


def test_np_power_of_scalars_stays_numpy():
    # np.power(float, int) is NumPy's 'dd->d' loop: pow of two floats, as numba's
    f = cujit.njit(lambda x, n: np.power(x, n))
    g = numba.njit(lambda x, n: np.power(x, n))
    for x, n in ((1.1, 7), (2.0, -3), (0.5, 30), (-1.5, 3)):
        assert bits_equal(f(x, n), g(x, n))
