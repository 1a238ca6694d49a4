"""Array expressions under parallel=True: a result of at least POOL_MIN_ELEMENTS (32768)
elements is computed by rows of its first dimension on the thread pool (lower/lower_pool.c,
lower_array_expr.c). Each function gives the serial compilation's result exactly, over layouts,
broadcasting, dtypes, in-place operators and out=."""
import numpy as np
import pytest

import cujit

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def fused(a, b, c):
    return a * b + np.sin(c) - 2


def compare(a, b):
    return np.where(a > b, a - b, b * 0.5)


def inplace(a, b):
    a += b * 3
    return a


def ufunc_out(a, b, out):
    np.add(a, np.sqrt(np.abs(b)), out=out)
    return out


# one dispatcher per function, shared by the tests: shapes of one rank share their compilations
PAR = {f: cujit.njit(parallel=True)(f) for f in (fused, compare, inplace, ufunc_out)}
SER = {f: cujit.njit(f) for f in (fused, compare, inplace, ufunc_out)}


def layouts(shape, dtype, rng):
    base = (rng.standard_normal(shape) * 10).astype(dtype)
    yield base
    yield np.asfortranarray(base)
    big = (rng.standard_normal((shape[0] * 2,) + shape[1:]) * 10).astype(dtype)
    yield big[::2]
    yield base[::-1]


SHAPES = [(40000,), (300, 200), (3, 20000), (20000, 3), (64, 32, 24)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_expressions_equal_the_serial_compilation(shape, dtype):
    rng = np.random.default_rng(len(shape) * 7 + len(dtype))
    for fn in (fused, compare):
        par, ser = PAR[fn], SER[fn]
        for a in layouts(shape, dtype, rng):
            b = (rng.standard_normal(shape[-1:]) * 10).astype(dtype)  # broadcast along rows
            c = np.ascontiguousarray(a)
            got, want = par(a, b, c) if fn is fused else par(a, b), \
                ser(a, b, c) if fn is fused else ser(a, b)
            assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("shape", SHAPES)
def test_in_place_and_out(shape):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape)
    b = rng.standard_normal(shape)
    x, y = a.copy(), a.copy()
    assert np.array_equal(PAR[inplace](x, b), SER[inplace](y, b))
    o1, o2 = np.empty(shape), np.empty(shape)
    PAR[ufunc_out](a, b, o1)
    SER[ufunc_out](a, b, o2)
    assert np.array_equal(o1, o2)


def test_small_and_empty_results_and_broadcast_errors():
    par = PAR[fused]
    for shape in [(0,), (5,), (0, 40000), (40000, 0)]:
        a = np.ones(shape)
        assert np.array_equal(par(a, a, a), fused(a, a, a))
    with pytest.raises(ValueError, match="broadcast"):
        par(np.ones((40000, 2)), np.ones(3), 1.0)


def test_an_expression_in_a_prange_body_runs_on_its_thread():
    @cujit.njit(parallel=True)
    def f(m):
        total = 0.0
        for i in cujit.prange(m.shape[0]):
            row = m[i] * 2 + 1
            total += row.sum()
        return total
    m = np.arange(40000 * 2.0).reshape(2, 40000)
    assert f(m) == (m * 2 + 1).sum()


REDUCTIONS = {
    "sum": lambda a: a.sum(), "mean": lambda a: np.mean(a), "min": lambda a: a.min(),
    "max": lambda a: np.max(a), "any": lambda a: (a > 3.5).any(),
    "all": lambda a: (a > -10).all(), "count_nonzero": lambda a: np.count_nonzero(a > 0),
    "nansum": lambda a: np.nansum(a), "nanmax": lambda a: np.nanmax(a),
    "std": lambda a: a.std(), "argmax": lambda a: a.argmax(),
    "prod": lambda a: np.prod(a * 0 + 1.00001),
}


def test_whole_array_reductions_equal_the_serial_compilation():
    shape = (100000,)  # 2-D rows: test_reductions_over_rows_of_2d_layouts
    rng = np.random.default_rng(shape[0])
    arrays = list(layouts(shape, "float64", rng))
    nan = arrays[0].copy()
    nan.flat[12345] = np.nan
    for name, fn in REDUCTIONS.items():
        par, ser = cujit.njit(parallel=True)(fn), cujit.njit(fn)
        for a in arrays + [nan]:
            got, want = par(a), ser(a)
            assert type(got) is type(want), name
            assert np.isclose(got, want, rtol=1e-11, equal_nan=True), (name, got, want)
    ints = rng.integers(-1000, 1000, shape).astype(np.int32)
    for fn in (REDUCTIONS["sum"], REDUCTIONS["min"], REDUCTIONS["count_nonzero"]):
        assert cujit.njit(parallel=True)(fn)(ints) == cujit.njit(fn)(ints)


def test_empty_min_still_raises_numpys_error():
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        cujit.njit(parallel=True)(lambda a: a.min())(np.zeros((0, 40000)))


ROW_PAR = {f: cujit.njit(parallel=True)(f) for f in (REDUCTIONS["sum"], REDUCTIONS["min"])}


def test_reductions_over_rows_of_2d_layouts():
    rng = np.random.default_rng(9)
    for a in layouts((300, 400), "float64", rng):
        for fn in (REDUCTIONS["sum"], REDUCTIONS["min"]):
            assert np.isclose(ROW_PAR[fn](a), fn(a), rtol=1e-11)


AXIS_FNS = {name: getattr(np, name) for name in ("sum", "prod", "min", "max", "mean")}


def along(name):
    ns = {"np": np}
    exec(f"def f(a, ax):\n    return np.{name}(a, axis=ax)\n", ns)
    return cujit.njit(parallel=True)(ns["f"])


AXIS_PAR = {name: along(name) for name in AXIS_FNS}


@pytest.mark.parametrize("shape", [(300, 200), (3, 20000), (20000, 3), (40, 30, 40)])
def test_reductions_along_an_axis_split_the_other_dimension(shape):
    # the pool splits the first dimension that is not the axis: each part writes its own results
    rng = np.random.default_rng(sum(shape))
    for a in layouts(shape, "float64", rng):
        for ax in range(-a.ndim, a.ndim):
            for name, par in AXIS_PAR.items():
                x = 1 + np.abs(a) % 1 * 1e-4 if name == "prod" else a
                got, want = par(x, ax), AXIS_FNS[name](x, axis=ax)
                assert got.dtype == want.dtype and got.shape == want.shape, name
                assert np.allclose(got, want, rtol=1e-12), (name, ax)
    ints = rng.integers(-100, 100, shape).astype(np.int32)
    assert np.array_equal(AXIS_PAR["sum"](ints, -1), ints.sum(axis=-1))
    assert "cj_parallel_for" in "".join(AXIS_PAR["sum"].inspect_llvm().values())


ARG_PAR = {"argmax": cujit.njit(parallel=True)(lambda a: a.argmax()),
           "argmin": cujit.njit(parallel=True)(lambda a: np.argmin(a))}


def test_argmin_argmax_keep_the_first_winner_across_chunks():
    rng = np.random.default_rng(5)
    for shape in [(100000,), (300, 400), (2, 40000)]:
        for dtype in ["float64", "uint8"]:
            a = (rng.random(shape) * 50).astype(dtype)
            ties = np.zeros(shape, dtype)
            ties.flat[-1] = ties.flat[ties.size // 2] = ties.flat[ties.size // 3] = 1
            for x in list(layouts(shape, dtype, rng)) + [a, ties, np.zeros_like(a)]:
                for name, par in ARG_PAR.items():
                    assert par(x) == getattr(x, name)(), (name, shape, dtype)
    nan = rng.random(100000)
    nan[[70000, 90000]] = np.nan  # the first NaN wins, even when a later chunk has one too
    assert ARG_PAR["argmax"](nan) == ARG_PAR["argmin"](nan) == 70000
    assert "cj_parallel_for" in "".join(ARG_PAR["argmax"].inspect_llvm().values())
