"""Limits that used to crash or silently miscompile (issue 15): options, signatures, nesting
depth, inference rounds, number edge cases."""
import os
import math

import pytest

import cujit
from cujit import cuda


# ---- options: a clear TypeError/ValueError, never a half-made object ----

@pytest.mark.parametrize("options, exc", [
    (dict(opt=2 ** 100), ValueError),
    (dict(opt=-1), ValueError),
    (dict(opt=4), ValueError),
    (dict(opt="3"), TypeError),
    (dict(opt=1.5), TypeError),
    (dict(fastmath="x"), TypeError),
    (dict(fastmath={"nnan", "bogus"}), ValueError),
    (dict(boundscheck="yes"), TypeError),
    (dict(cache=2 ** 100), TypeError),
    (dict(nogil=[1]), TypeError),
    (dict(error_model=3), TypeError),
    (dict(error_model="fortran"), ValueError),
    (dict(inline="sometimes"), ValueError),
    (dict(debug="x"), TypeError),
])
def test_jit_option_values_are_checked(options, exc):
    with pytest.raises(exc):
        cujit.njit(**options)(lambda x: x)
    with pytest.raises(exc):
        cujit.jit("float64(float64)", **options)(lambda x: x)


def test_jit_good_option_values():
    for options in (dict(opt=0), dict(opt=3), dict(opt=True), dict(fastmath={"nnan", "ninf"}),
                    dict(fastmath=False), dict(boundscheck=None), dict(inline="always"),
                    dict(nogil=True, cache=False)):
        assert cujit.njit(**options)(lambda x: x + 1)(1) == 2


def test_dispatcher_rejects_bad_options_in_c():
    # the C type is reachable directly (cujit.Dispatcher): its own parsing raises cleanly
    for options, exc in ((dict(opt=2 ** 100), ValueError), (dict(opt=9), ValueError),
                         (dict(opt="x"), TypeError), (dict(error_model=3), TypeError),
                         (dict(error_model="c"), ValueError)):
        with pytest.raises(exc):
            cujit._core.Dispatcher(lambda x: x, options)


@pytest.mark.parametrize("options, exc", [
    (dict(opt=2 ** 100), ValueError),
    (dict(fastmath="x"), TypeError),
    (dict(bogus=1), TypeError),
    (dict(boundscheck="x"), TypeError),
])
def test_vectorize_option_values_are_checked(options, exc):
    with pytest.raises(exc):
        cujit.vectorize(["float64(float64)"], **options)(lambda x: x)
    with pytest.raises(exc):
        cujit.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", **options)(
            lambda x, y: None)


def test_vectorize_cache_checked():
    with pytest.raises(TypeError):
        cujit.vectorize(["float64(float64)"], cache="x")(lambda x: x)


@pytest.mark.parametrize("options, exc", [
    (dict(opt=2 ** 100), ValueError),
    (dict(max_registers=2 ** 100), ValueError),
    (dict(debug="x"), TypeError),
    (dict(lineinfo=2 ** 100), TypeError),
    (dict(fastmath="x"), TypeError),
    (dict(device="x"), TypeError),
    (dict(inline="x"), ValueError),
])
def test_cuda_jit_option_values_are_checked(options, exc):
    with pytest.raises(exc):
        cuda.jit(**options)(lambda x: None)


# ---- ufunc signatures: arrays in a ufunc, layout mismatches in a gufunc ----

def test_vectorize_array_signature_is_a_type_error():
    with pytest.raises(TypeError, match=r"array\(float64, 1d, A\)"):
        cujit.vectorize(["float64[:](float64[:])"])(lambda x: x)
    with pytest.raises(TypeError, match="vectorize signature"):
        cujit.vectorize(["float64(float64[:])"])(lambda x: x[0])


def test_make_ufunc_rejects_array_loops_in_c():
    disp = cujit._core.Dispatcher(lambda x: x, {"error_model": "numpy"})
    disp.compile(cujit.parse_signature("float64[:](float64[:])"))
    with pytest.raises(TypeError, match="mismatch"):
        cujit._core.make_ufunc(disp, 1, 1, "f", "", cujit._core.UFUNC_IDENTITY_NONE, None,
                               None, None)


@pytest.mark.parametrize("sig, layout, arg", [
    ("void(float64[:,:], float64[:])", "(n)->()", "#1"),
    ("void(float64, float64[:])", "(n)->()", "#1"),
    ("void(float64[:], float64[:,:])", "(n)->(n)", "#2"),
    ("void(float64[:,:,:], float64[:])", "()->()", "#1"),
])
def test_guvectorize_layout_mismatch_is_a_type_error(sig, layout, arg):
    # the message names the signature (numba's spelling) and the layout
    named = str(cujit.parse_signature(sig))
    for target in ("cpu", "cuda"):
        with pytest.raises(TypeError) as e:
            cujit.guvectorize([sig], layout, target=target)(lambda x, y: None)
        assert named in str(e.value) and repr(layout) in str(e.value) and arg in str(e.value)


def test_guvectorize_scalar_core_as_1d_array_still_works():
    import numpy as np

    @cujit.guvectorize(["void(float64[:], float64[:])"], "(n)->()")
    def total(x, out):
        s = 0.0
        for v in x:
            s += v
        out[0] = s
    assert total(np.arange(4.0)) == 6.0


# ---- nesting: every recursion in C is bounded by abi.h's CJ_MAX_NESTING ----

def _nested(depth, leaf=1):
    t = leaf
    for _ in range(depth):
        t = (t,)
    return t


def test_deep_tuple_argument_is_a_recursion_error():
    f = cujit.njit(lambda x: 1)
    with pytest.raises(RecursionError, match="nesting"):
        f(_nested(100_000))
    with pytest.raises(RecursionError, match="nesting"):
        cujit.typeof(_nested(101))
    with pytest.raises(RecursionError, match="nesting"):
        f(_nested(101))


def test_tuple_nesting_up_to_the_limit_works():
    g = cujit.njit(lambda x: x)
    t = _nested(60, 2.5)
    assert g(t) == t
    assert str(cujit.typeof(_nested(99))).count("UniTuple") == 99


def test_deep_tuple_type_made_from_python_is_a_recursion_error():
    t = cujit.int64
    with pytest.raises(RecursionError, match="nesting"):
        for _ in range(200):
            t = cujit.types.UniTuple(t, 1)


# ---- inference reaches its fixpoint, however many rounds it takes ----

def _compile_source(src, name):
    ns = {}
    exec(compile(src, f"<{name}>", "exec"), ns)
    return ns[name]


def test_long_chain_of_loop_carried_assignments():
    n = 260
    lines = ["def chain(m):"] + [f"    a{k} = 0" for k in range(n)]
    lines += ["    for i in range(m):"]
    lines += [f"        a{k} = a{k - 1}" for k in range(n - 1, 0, -1)]
    lines += ["        a0 = 0.5", f"    return a{n - 1}"]
    py = _compile_source("\n".join(lines), "chain")
    assert py(n + 5) == 0.5
    assert cujit.njit(py)(n + 5) == 0.5


def test_many_sequential_ifs():
    n = 250
    lines = ["def ifs(x):", "    s = 0"]
    for k in range(n):
        lines += [f"    if x > {k}:", "        s += 1"]
    lines += ["    return s"]
    py = _compile_source("\n".join(lines), "ifs")
    f = cujit.njit(py)
    for x in (-1, 0, 17, 300):
        assert f(x) == py(x)


# ---- arrays beyond CJ_MAXDIM dimensions ----

def test_cpu_array_beyond_maxdim_is_a_value_error():
    import numpy as np
    with pytest.raises(ValueError, match="dimensions exceed the limit of 32"):
        cujit.njit(lambda a: 1)(np.zeros((1,) * 33))


# ---- __cuda_array_interface__: Python code run while it is read ----

CAI_SCRIPT = r'''
import sys
from cujit import _core
which = sys.argv[1]
d = {"version": 3, "typestr": "<f4", "data": (4096, False), "strides": None}
class Evil:
    def __index__(self):
        if which == "clear":
            d["shape"].clear()
        elif which == "pop":
            d.pop("shape")
            import gc; gc.collect()
            junk = [[0] * 10 for _ in range(1000)]
        elif which == "strides":
            d.pop("strides").clear()
        return 4
if which == "strides":
    d["shape"] = (2, 2, 2)
    d["strides"] = [Evil(), 8, 4]
else:
    d["shape"] = [Evil()] + [3] * 20
r = _core.cai_parse(d)
print(r["shape"][:2], r["strides"][:2])
'''


@pytest.mark.parametrize("which, out", [("clear", "(4, 3) "), ("pop", "(4, 3) "),
                                        ("strides", "(2, 2) (4, 8)")])
def test_cai_items_mutating_the_dict_or_list(which, out):
    import subprocess
    import sys
    pkg = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg")
    env = dict(os.environ, PYTHONPATH=pkg)  # this checkout's build, whatever is installed
    r = subprocess.run([sys.executable, "-c", CAI_SCRIPT, which], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith(out)


# ---- numbers at the ends: CPython's answers (numba's where CPython has none) ----

def _count_range(a, b, s):
    n = 0
    last = 0
    for i in range(a, b, s):
        n += 1
        last = i
        if n > 10:
            break
    return n, last


@pytest.mark.parametrize("a, b, s", [
    (2 ** 62 - 5, 2 ** 63 - 1, 2 ** 62),
    (-2 ** 63, 2 ** 63 - 1, 2 ** 62),
    (2 ** 63 - 10, 2 ** 63 - 1, 7),
    (-2 ** 63 + 10, -2 ** 63, -7),
    (5, -2 ** 63, -2 ** 62),
    (0, 10, 3),
    (10, 0, -3),
    (0, 10, -1),
    (2 ** 63 - 1, -2 ** 63, -2 ** 63 + 1),
])
def test_range_near_the_int64_ends(a, b, s):
    assert cujit.njit(_count_range)(a, b, s) == _count_range(a, b, s)
    assert cujit.njit(lambda a, b, s: len(range(a, b, s)))(a, b, s) == len(range(a, b, s))


@pytest.mark.parametrize("a, b, s", [
    (-2 ** 63, 2 ** 63 - 1, 1), (2 ** 63 - 1, -2 ** 63, -1), (-2 ** 63, 2 ** 63 - 1, 2),
    (-2 ** 63, 0, 1), (-1, 2 ** 63 - 1, 1), (2 ** 63 - 1, -1, -1),
])
def test_len_of_a_range_past_int64(a, b, s):
    # CPython cannot count it in a Py_ssize_t either
    with pytest.raises(OverflowError, match="too large to convert to C ssize_t"):
        len(range(a, b, s))
    f = cujit.njit(lambda a, b, s: len(range(a, b, s)))
    with pytest.raises(OverflowError, match="too large to convert to C ssize_t"):
        f(a, b, s)
    # NumPy's error model never raises (numba's len wraps too): the count modulo 2**64
    g = cujit.njit(error_model="numpy")(lambda a, b, s: len(range(a, b, s)))
    assert g(a, b, s) == (abs(b - a) - 1) // abs(s) + 1 - 2 ** 64


_INT64_EDGES = [0, 1, -1, 2, -2, 7, -7, 2 ** 62, -2 ** 62, 2 ** 63 - 1, -2 ** 63, -2 ** 63 + 1]


@pytest.mark.parametrize("error_model", ["python", "numpy"])
def test_int_mod_and_floordiv_at_the_int64_ends(error_model):
    # a % -1 is 0 for every a (INT64_MIN included: no trap), a // -1 wraps like numba
    mod = cujit.njit(error_model=error_model)(lambda a, b: a % b)
    div = cujit.njit(error_model=error_model)(lambda a, b: a // b)
    for a in _INT64_EDGES:
        for b in _INT64_EDGES:
            if b == 0:
                continue
            assert mod(a, b) == a % b, (a, b)
            assert div(a, b) == (a // b + 2 ** 63) % 2 ** 64 - 2 ** 63, (a, b)


def _index_by_mod(data, n, m):
    acc = 0.0
    for i in range(n):
        x = data[i % m]
        acc += x * x - 0.5 * x
    return acc


@pytest.mark.parametrize("m", [5, -5, 1, -1])
def test_index_by_mod_in_a_range_loop(m):
    # a negative divisor gives negative indices, which wrap; % -1 reads data[0]
    import numpy as np
    data = np.arange(5, dtype=np.float64) * 0.25 + 1.0
    f = cujit.njit(_index_by_mod)
    assert f(data, 23, m) == _index_by_mod(data, 23, m)
    with pytest.raises(ZeroDivisionError):
        f(data, 3, 0)
    assert f(data, 0, 0) == 0.0


def _row_ends(a):
    t = 0.0
    for r in a:  # rows of a C array are C arrays
        t = t * 100.0 + r[-1] * 10.0 + r[1]
    return t


def test_contiguous_arrays_index_by_item_size():
    # a C (F) array's last (first) dimension steps by the item size; NumPy calls an array
    # contiguous whatever the stride of a dimension of one element, whose only index is 0
    import numpy as np
    from numpy.lib.stride_tricks import as_strided
    get1 = cujit.njit(lambda a, i: a[i])
    get2 = cujit.njit(lambda a, i, j: a[i, j])
    base = np.arange(40.0)
    odd1 = as_strided(base[3:], shape=(1,), strides=(72,))
    assert odd1.flags.c_contiguous
    assert get1(odd1, 0) == get1(odd1, -1) == 3.0
    odd2 = as_strided(base, shape=(3, 1), strides=(8, 56))
    assert odd2.flags.c_contiguous
    assert [get2(odd2, i, -1) for i in range(-3, 3)] == [0.0, 1.0, 2.0, 0.0, 1.0, 2.0]
    f = np.asfortranarray(base[:12].reshape(3, 4))
    assert [get2(f, i, j) for i in range(-3, 3) for j in (0, 3, -1)] == \
        [f[i, j] for i in range(-3, 3) for j in (0, 3, -1)]
    c = base[:12].reshape(3, 4)
    assert cujit.njit(_row_ends)(c) == _row_ends(c)
    for dt in (np.bool_, np.int8, np.int16, np.float32, np.complex64, np.complex128):
        a = np.arange(7).astype(dt)
        assert [get1(a, i) for i in range(-7, 7)] == [a[i] for i in range(-7, 7)]


def test_len_of_a_range_at_int64_max():
    f = cujit.njit(lambda a, b, s: len(range(a, b, s)))
    for a, b, s in ((-2 ** 63, 2 ** 63 - 2, 2), (-2 ** 63 + 1, 0, 1), (0, 2 ** 63 - 1, 1),
                    (-2 ** 63, 2 ** 63 - 1, 3), (2 ** 63 - 1, 0, -1)):
        assert f(a, b, s) == len(range(a, b, s))
    assert f(-2 ** 63, 2 ** 63 - 2, 2) == 2 ** 63 - 1


@pytest.mark.parametrize("x, n", [
    (2.675, 308), (1.5, 400), (1.5, 2 ** 40), (0.0, 400), (1.5, -400), (-1.5, -400),
    (123.456, -1), (1e308, -308), (123.456, 1), (float("inf"), 3), (float("-inf"), -3),
    (2.5, 0), (-0.5, 0), (1e300, 30),
])
def test_round_ndigits_extremes(x, n):
    got = cujit.njit(lambda x, n: round(x, n))(x, n)
    want = round(x, n)
    assert got == want and str(got) == str(want)  # the sign of a zero too
    nan = cujit.njit(lambda x, n: round(x, n))(float("nan"), n)
    assert nan != nan


@pytest.mark.parametrize("x", [123, 125, 135, -125, -135, 0, 2 ** 62, -2 ** 62, 10 ** 18 + 1])
def test_round_int_ndigits(x):
    f = cujit.njit(lambda x, n: round(x, n))
    for n in (-1, -2, -3, 0, 2, -18, -19, -40):
        assert f(x, n) == round(x, n), (x, n)


@pytest.mark.parametrize("x, n", [
    (9 * 10 ** 18, -19), (-6 * 10 ** 18, -19), (2 ** 63 - 1, -1), (-2 ** 63, -1),
    (2 ** 63 - 1, -3), (9_223_372_036_854_775_500, -3),
])
def test_round_int_past_int64_raises(x, n):
    assert not -2 ** 63 <= round(x, n) < 2 ** 63
    f = cujit.njit(lambda x, n: round(x, n))
    with pytest.raises(OverflowError, match="too large"):
        f(x, n)
    # NumPy's error model does not check (numba gives a float here)
    cujit.njit(error_model="numpy")(lambda x, n: round(x, n))(x, n)


def test_round_int_just_inside_int64():
    f = cujit.njit(lambda x, n: round(x, n))
    for x, n in ((5 * 10 ** 18, -19), (-5 * 10 ** 18, -19), (2 ** 63 - 1, -2),
                 (-2 ** 63, -2), (2 ** 63 - 1, -18), (-2 ** 63, -18),
                 (9_223_372_036_854_775_000, -2)):
        assert f(x, n) == round(x, n), (x, n)


def test_zero_to_a_negative_float_power():
    f = cujit.njit(lambda x, y: x ** y)
    for x, y in ((0.0, -0.5), (-0.0, -1.5), (0, -0.5), (0.0, -1.0), (0.0, -1e300)):
        with pytest.raises(ZeroDivisionError):
            x ** y
        with pytest.raises(ZeroDivisionError):
            f(x, y)
    assert f(0.0, -math.inf) == 0.0 ** -math.inf == math.inf
    assert f(0.0, 0.5) == 0.0 and f(4.0, -0.5) == 0.5
    assert math.isnan(f(0.0, math.nan))
    np = pytest.importorskip("numpy")
    with pytest.raises(ZeroDivisionError):
        f(np.float32(0.0), np.float32(-0.5))
    # NumPy's error model (and numba): inf
    g = cujit.njit(error_model="numpy")(lambda x, y: x ** y)
    assert g(0.0, -0.5) == math.inf and g(0, -0.5) == math.inf


def test_zero_to_a_negative_int_power():
    f = cujit.njit(lambda x, y: x ** y)
    for x in (0.0, -0.0):
        for y in (-1, -3):
            with pytest.raises(ZeroDivisionError):
                f(x, y)
    assert f(2.0, -1) == 0.5 and f(0.0, 0) == 1.0 and f(0.0, 2) == 0.0
    # NumPy's error model: NumPy's inf
    g = cujit.njit(error_model="numpy")(lambda x, y: x ** y)
    assert g(0.0, -1) == float("inf")


BIG_GLOBAL = 2 ** 70


def _big_literal(a):
    if a > 100:
        return 3 ** 50  # folded by CPython into one constant
    return a


def _big_shift(a):
    return -6 << 66 if a > 5 else a


def _big_global(a):
    return BIG_GLOBAL if a > 5 else a


def _big_in_tuple(a):
    t = (1, 2 ** 64)
    return t[0] + a


def _big_default(a, b=2 ** 64):
    return a


def _uint64_literal(a):
    return 2 ** 63


@pytest.mark.parametrize("fn, value, line", [
    (_big_literal, 3 ** 50, "return 3 ** 50"),
    (_big_shift, -6 << 66, "return -6 << 66"),
    (_big_global, BIG_GLOBAL, "return BIG_GLOBAL"),
    (_big_in_tuple, 2 ** 64, "t = (1, 2 ** 64)"),
    (_big_default, 2 ** 64, "def _big_default"),
])
def test_int_constant_past_uint64_is_numbas_typing_error(fn, value, line):
    # even on a branch never taken: typing sees every reachable constant (numba's text)
    with pytest.raises(cujit.errors.TypingError) as info:
        cujit.njit(fn)(1)
    text = str(info.value)
    assert f"Int value is too large: {value}" in text
    assert line in text and fn.__name__ in text


def test_int_constant_in_uint64_is_uint64():
    f = cujit.njit(_uint64_literal)
    assert f(1) == 2 ** 63 and type(f(1)) is int and str(f.nopython_signatures[0]) == "uint64(int64)"


# ---- float to int: defined for NaN, inf and values out of range ----

_F2I = {"int": lambda x: int(x), "round": lambda x: round(x),
        "floor": lambda x: math.floor(x), "ceil": lambda x: math.ceil(x),
        "trunc": lambda x: math.trunc(x)}


@pytest.mark.parametrize("name", sorted(_F2I))
def test_float_to_int_python_error_model_raises_as_cpython(name):
    f = _F2I[name]
    g = cujit.njit(f)
    for x, exc in ((math.nan, ValueError), (math.inf, OverflowError),
                   (-math.inf, OverflowError)):
        with pytest.raises(exc, match="cannot convert float"):
            f(x)
        with pytest.raises(exc, match="cannot convert float"):
            g(x)
    # CPython's answer is an int beyond int64: cujit's int64 cannot hold it
    for x in (1e19, -1e19, 2.0 ** 63):
        with pytest.raises(OverflowError):
            g(x)
    for x in (3.7, -3.7, 2.5, -2.0 ** 63, 0.0):
        assert g(x) == f(x)


@pytest.mark.parametrize("name", sorted(_F2I))
def test_float_to_int_numpy_error_model_saturates(name):
    g = cujit.njit(error_model="numpy")(_F2I[name])
    big, small = 2 ** 63 - 1, -2 ** 63
    assert [g(x) for x in (math.nan, math.inf, -math.inf, 1e19, -1e19)] == [0, big, small,
                                                                           big, small]


def test_numpy_scalar_casts_saturate():
    import numpy as np
    assert [cujit.njit(lambda x: np.int32(x))(x) for x in (math.nan, 1e10, -1e10, 3.9)] == \
        [0, 2 ** 31 - 1, -2 ** 31, 3]
    assert [cujit.njit(lambda x: np.uint8(x))(x) for x in (math.nan, 300.0, -1.0, 3.9)] == \
        [0, 255, 0, 3]


# ---- the inference worklist: what widens late re-types its readers ----

def test_worklist_retypes_a_self_call_when_the_return_type_widens():
    g = {}
    src = ("def fact(n):\n    if n <= 1:\n        return 1\n"
           "    return n * fact(n - 1) * 1.0\n")
    exec(compile(src, "<fact>", "exec"), g)
    f = cujit.njit(g["fact"])
    g["fact"] = f
    assert f(5) == 120.0 and isinstance(f(5), float)


def test_worklist_reads_a_branch_decided_late_in_a_loop():
    def h(n, k):
        s = 0
        for i in range(n):
            if k is None:
                s += 1
            else:
                s += k
            s = s * 1.5
        return s
    f = cujit.njit(h)
    assert f(4, None) == h(4, None) and f(4, 2) == h(4, 2)


def test_worklist_chain_through_a_loop_types_as_rounds_did():
    n = 40
    lines = ["def chain(m):"] + [f"    a{k} = 0" for k in range(n)]
    lines += ["    for i in range(m):"]
    lines += [f"        a{k} = a{k - 1} + a{k}" for k in range(1, n)]
    lines += ["        a0 = 0.5", f"    return a{n - 1}"]
    py = _compile_source("\n".join(lines), "chain")
    f = cujit.njit(py)
    assert f(n + 3) == py(n + 3) and isinstance(f(1), float)


# ---- an argument cujit cannot type: the message names it ----

def test_untypable_argument_is_named():
    def f(a, x):
        return a
    g = cujit.njit(f)
    with pytest.raises(TypeError, match=r"^argument 1 'x' of test_untypable_argument_is_named"
                                        r"\.<locals>\.f: cujit cannot compile for an argument "
                                        r"of type set \(sets inside tuples"):
        g(1, x=({1},))
    with pytest.raises(TypeError, match=r"^argument 0 'a' of .*f: .*of type dict"):
        g({}, 2)
    assert g(3, 4) == 3
