"""The catalogue of array functions the differential suite (test_array_differential.py) compiles
and compares with NumPy running the same Python function. Each entry is a Case: the function's
source (a `def f(...)` over `np`), the argument kinds, the dtypes NumPy's operation accepts, and
the tolerance of floating results. Argument kinds:
  'a'  an array of the case's dtype, in the layout under test (C, F, strided, 0-size shapes too)
  'b'  a second array of the dtype, shaped to broadcast against 'a' (the same shape, a row, ...)
  'c'  a third such array;       'm' a boolean array of a's shape
  'k'  a Python number of the dtype's kind (int for ints and bools, float, complex)
  'i'  a small Python int (an index, a count, an axis-free shift)
  'p'  an array of the dtype, positive values only (divisors, logs, powers)
Scalars are typed as numba types them (int64, float64, complex128), so the oracle passes them to
NumPy as 0-d arrays of those types (NumPy then promotes by type, as numba does)."""
from dataclasses import dataclass

import numpy as np

INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
SIGNED = ("int8", "int16", "int32", "int64")
FLOATS = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
REAL = INTS + FLOATS
NUMBERS = REAL + COMPLEX
ALL = ("bool",) + NUMBERS


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    kinds: str
    dtypes: tuple
    rtol: float = 1e-12      # float64 results; float32 results use rtol32
    rtol32: float = 2e-5
    specials: bool = True    # NaN, inf and -0.0 among float inputs
    complex_specials: bool = True  # and among complex inputs' real parts (docs/differences.md)
    nonempty: bool = False   # the operation raises on 0-size input (NumPy too)
    small_int_float32: bool = False  # numba's true_divide of small integers is float32
    ndims: tuple = (1, 2, 3)
    shapes: tuple = ()       # the shapes to use instead of the rank's usual ones


CASES = []


def case(name, body, kinds, dtypes, **kw):
    args = ", ".join(f"{k}{j}" for j, k in enumerate(kinds))
    source = f"def {name}({args}):\n    return {body.format(*[f'{k}{j}' for j, k in enumerate(kinds)])}\n"
    CASES.append(Case(name, source, kinds, tuple(dtypes), **kw))


# --- unary ufuncs, as functions -------------------------------------------------------------
TRANSCENDENTAL = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "arcsin", "arccos",
                  "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh"]
for fn in TRANSCENDENTAL:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", REAL + COMPLEX, rtol=1e-11, rtol32=1e-4,
         complex_specials=not fn.startswith("arc"))
for fn in ["log1p", "expm1", "exp2", "log2", "cbrt", "deg2rad", "rad2deg"]:
    complex_too = COMPLEX if fn in ("log1p", "expm1", "exp2", "log2") else ()
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", REAL + complex_too, rtol=1e-11, rtol32=1e-4,
         complex_specials=False)
for fn in ["floor", "ceil", "trunc", "rint", "fabs"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", REAL + (COMPLEX if fn == "rint" else ()))
for fn in ["absolute", "negative", "positive", "square"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", NUMBERS)
case("np_sign", "np.sign({0})", "a", REAL + COMPLEX, complex_specials=False)
for fn in ["isnan", "isinf", "isfinite"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", REAL + COMPLEX)
case("np_logical_not", "np.logical_not({0})", "a", ALL)
case("np_invert", "np.invert({0})", "a", ("bool",) + INTS)
case("np_bitwise_not", "np.bitwise_not({0})", "a", ("bool",) + INTS)
case("np_conjugate", "np.conjugate({0})", "a", COMPLEX)
# --- unary operators and builtins ---
case("op_neg", "-{0}", "a", NUMBERS)
case("op_pos", "+{0}", "a", NUMBERS)
case("op_invert", "~{0}", "a", ("bool",) + INTS)
case("builtin_abs", "abs({0})", "a", NUMBERS)

# --- binary operators and ufuncs: array-array (broadcast), array-scalar, scalar-array ---
ARITH = {"add": "+", "subtract": "-", "multiply": "*"}
for fn, op in ARITH.items():
    case(f"op_{fn}_ab", f"{{0}} {op} {{1}}", "ab", NUMBERS)
    case(f"op_{fn}_ak", f"{{0}} {op} {{1}}", "ak", NUMBERS)
    case(f"op_{fn}_ka", f"{{0}} {op} {{1}}", "ka", NUMBERS)
    case(f"np_{fn}_ab", f"np.{fn}({{0}}, {{1}})", "ab", NUMBERS)
    case(f"np_{fn}_ak", f"np.{fn}({{0}}, {{1}})", "ak", NUMBERS)
for name, op in {"truediv": "/", "floordiv": "//", "mod": "%"}.items():
    dtypes = NUMBERS if name == "truediv" else REAL
    case(f"op_{name}_ap", f"{{0}} {op} {{1}}", "ap", dtypes, rtol32=1e-5,
         small_int_float32=name == "truediv")
    case(f"op_{name}_ak", f"{{0}} {op} 3", "a", dtypes, rtol32=1e-5)
    case(f"op_{name}_ka", f"7 {op} {{0}}", "p", dtypes, rtol32=1e-5)
for fn in ["true_divide", "divide", "floor_divide", "remainder", "mod"]:
    case(f"np_{fn}", f"np.{fn}({{0}}, {{1}})", "ap", REAL, rtol32=1e-5,
         small_int_float32=fn in ("true_divide", "divide"))
case("op_pow_ap", "{0} ** {1}", "ap", FLOATS + COMPLEX, rtol=1e-10, rtol32=1e-4, specials=False)
# complex ** 3 is numba's _Py_c_pow (NumPy multiplies): other NaN/inf parts at special inputs
case("op_pow_int", "{0} ** 3", "a", NUMBERS, rtol=1e-10, rtol32=1e-4, complex_specials=False)
case("op_pow_half", "{0} ** 0.5", "p", REAL, rtol=1e-10, rtol32=1e-4)
case("np_power", "np.power({0}, {1})", "ap", FLOATS, rtol=1e-10, rtol32=1e-4, specials=False)
BITWISE = {"and": "&", "or": "|", "xor": "^"}
for fn, op in BITWISE.items():
    case(f"op_{fn}_ab", f"{{0}} {op} {{1}}", "ab", ("bool",) + INTS)
    case(f"op_{fn}_ak", f"{{0}} {op} {{1}}", "ak", INTS[:-1])
    case(f"np_bitwise_{fn}", f"np.bitwise_{fn}({{0}}, {{1}})", "ab", ("bool",) + INTS)
    case(f"np_logical_{fn}", f"np.logical_{fn}({{0}}, {{1}})", "ab", ALL)
case("op_lshift", "{0} << 2", "a", INTS[:-1])
case("op_rshift", "{0} >> 1", "a", INTS[:-1])
case("np_left_shift", "np.left_shift({0}, 3)", "a", INTS[:-1])
case("np_right_shift", "np.right_shift({0}, 2)", "a", INTS[:-1])
COMPARE = {"lt": "<", "le": "<=", "eq": "==", "ne": "!=", "gt": ">", "ge": ">="}
NP_COMPARE = {"lt": "less", "le": "less_equal", "eq": "equal", "ne": "not_equal",
              "gt": "greater", "ge": "greater_equal"}
for fn, op in COMPARE.items():
    ordered = ALL if fn in ("eq", "ne") else ("bool",) + REAL
    case(f"op_{fn}_ab", f"{{0}} {op} {{1}}", "ab", ordered)
    case(f"op_{fn}_ak", f"{{0}} {op} {{1}}", "ak", ordered)
    case(f"op_{fn}_ka", f"{{0}} {op} {{1}}", "ka", ordered)
    case(f"np_{NP_COMPARE[fn]}", f"np.{NP_COMPARE[fn]}({{0}}, {{1}})", "ab", ordered + COMPLEX
         if fn not in ("eq", "ne") else ordered)
for fn in ["maximum", "minimum", "fmax", "fmin"]:
    case(f"np_{fn}_ab", f"np.{fn}({{0}}, {{1}})", "ab", REAL + COMPLEX)
    case(f"np_{fn}_ak", f"np.{fn}({{0}}, {{1}})", "ak", REAL)
for fn in ["arctan2", "hypot", "copysign"]:
    case(f"np_{fn}", f"np.{fn}({{0}}, {{1}})", "ab", REAL, rtol=1e-11, rtol32=1e-4)

# --- in-place operators and out= ---
for name, op in {"iadd": "+=", "isub": "-=", "imul": "*="}.items():
    CASES.append(Case(f"inplace_{name}", f"def inplace_{name}(a0, b1):\n    a0 = a0.copy()\n"
                      f"    a0 {op} b1\n    return a0\n", "ab", NUMBERS))
CASES.append(Case("inplace_itruediv", "def inplace_itruediv(a0, p1):\n    a0 = a0.copy()\n"
                  "    a0 /= p1\n    return a0\n", "ap", FLOATS + COMPLEX))
for name, op in {"iand": "&=", "ior": "|=", "ixor": "^="}.items():
    CASES.append(Case(f"inplace_{name}", f"def inplace_{name}(a0, b1):\n    a0 = a0.copy()\n"
                      f"    a0 {op} b1\n    return a0\n", "ab", ("bool",) + INTS))
for fn in ["add", "multiply", "subtract", "maximum"]:
    CASES.append(Case(f"out_{fn}", f"def out_{fn}(a0, b1):\n    o = np.empty_like(a0)\n"
                      f"    r = np.{fn}(a0, b1, o)\n    return r, o\n", "ab", REAL))
for fn in ["sqrt", "exp", "negative", "absolute"]:
    CASES.append(Case(f"out_{fn}", f"def out_{fn}(a0):\n    o = np.empty_like(a0)\n"
                      f"    np.{fn}(a0, out=o)\n    return o\n", "a", FLOATS, rtol32=1e-4))
CASES.append(Case("setitem_expr", "def setitem_expr(a0, b1):\n    o = np.zeros_like(a0)\n"
                  "    o[:] = a0 * 2 + b1\n    return o\n", "ab", REAL))

# --- reductions: functions, methods, axis= ---
REDUCE_ANY = ["sum", "prod"]
for fn in REDUCE_ANY:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", ALL, rtol=1e-9, rtol32=1e-3, specials=False)
    case(f"meth_{fn}", f"{{0}}.{fn}()", "a", ALL, rtol=1e-9, rtol32=1e-3, specials=False)
    case(f"np_{fn}_axis0", f"np.{fn}({{0}}, axis=0)", "a", NUMBERS, rtol=1e-9, rtol32=1e-3,
         specials=False, ndims=(2, 3))
    case(f"meth_{fn}_axis_last", f"{{0}}.{fn}(axis=-1)", "a", NUMBERS, rtol=1e-9, rtol32=1e-3,
         specials=False, ndims=(2, 3))
for fn in ["min", "max", "amin", "amax"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", ("bool",) + REAL, nonempty=True)
    case(f"np_{fn}_axis1", f"np.{fn}({{0}}, axis=1)", "a", REAL, nonempty=True, ndims=(2, 3))
for fn in ["min", "max"]:
    case(f"meth_{fn}", f"{{0}}.{fn}()", "a", REAL + COMPLEX, nonempty=True)
case("np_mean", "np.mean({0})", "a", NUMBERS, rtol=1e-9, rtol32=1e-3, specials=False)
case("meth_mean", "{0}.mean()", "a", ("bool",) + NUMBERS, rtol=1e-9, rtol32=1e-3, specials=False)
case("meth_mean_axis0", "{0}.mean(axis=0)", "a", REAL, rtol=1e-9, rtol32=1e-3, specials=False,
     ndims=(2, 3))
for fn in ["var", "std"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", REAL + COMPLEX, rtol=1e-8, rtol32=1e-3,
         specials=False)
    case(f"meth_{fn}", f"{{0}}.{fn}()", "a", REAL, rtol=1e-8, rtol32=1e-3, specials=False)
for fn in ["argmin", "argmax"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", ("bool",) + REAL, nonempty=True)
    case(f"meth_{fn}", f"{{0}}.{fn}()", "a", REAL, nonempty=True)
for fn in ["all", "any"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", ALL)
    case(f"meth_{fn}", f"{{0}}.{fn}()", "a", ALL)
for fn in ["cumsum", "cumprod"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", NUMBERS, rtol=1e-9, rtol32=1e-3, specials=False)
    case(f"meth_{fn}", f"{{0}}.{fn}()", "a", NUMBERS, rtol=1e-9, rtol32=1e-3, specials=False)
for fn in ["nansum", "nanprod", "nanmean"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", REAL, rtol=1e-9, rtol32=1e-3)
for fn in ["nanmin", "nanmax"]:
    case(f"np_{fn}", f"np.{fn}({{0}})", "a", REAL, nonempty=True)
case("np_median", "np.median({0})", "a", REAL, nonempty=True, rtol32=1e-6)
case("np_count_nonzero", "np.count_nonzero({0})", "a", ALL)
case("reduce_of_expr", "(({0} - {1}) ** 2).sum()", "ab", REAL, rtol=1e-9, rtol32=1e-3,
     specials=False)

# --- creation (the dtype follows the input array; numbers from it) ---
for fn in ["zeros_like", "ones_like", "empty_like"]:
    body = f"np.{fn}({{0}})" + (".shape" if fn == "empty_like" else "")
    case(f"np_{fn}", body, "a", ALL)
case("np_full_like", "np.full_like({0}, 3)", "a", NUMBERS)
case("np_zeros_shape", "np.zeros({0}.shape)", "a", ALL)
case("np_ones_dtype", "np.ones({0}.shape, {0}.dtype)", "a", ALL)
case("np_full_shape", "np.full({0}.shape, {1})", "ak", NUMBERS)
case("np_empty_fill", "np.empty({0}.size, np.int32) * 0 + {0}.size", "a", ("float64",))
case("np_arange_size", "np.arange({0}.size)", "a", ALL)
case("np_arange_float", "np.arange(0.5, {0}.size, 0.25)", "a", ("float64",))
case("np_linspace", "np.linspace(0.0, {0}.size, 7)", "a", ("float64",))
case("np_eye_size", "np.eye({0}.size % 5 + 1)", "a", ("float64",))
case("np_identity_size", "np.identity({0}.size % 4)", "a", ("int32",))
case("np_copy", "np.copy({0})", "a", ALL)
case("np_asarray", "np.asarray({0})", "a", ALL)
case("np_array_of_array", "np.array({0})", "a", ALL)
case("np_array_tuple", "np.array(({0}.size, 2.5, -1))", "a", ("float32",))
for target in ["int8", "int64", "uint16", "float32", "float64", "complex128", "bool_"]:
    sources = {"uint16": ("bool",) + INTS, "complex128": ALL}.get(target, ("bool",) + REAL)
    case(f"astype_{target}", f"{{0}}.astype(np.{target})", "a", sources, specials=False)

# --- shapes and views ---
case("meth_copy", "{0}.copy()", "a", ALL)
case("attr_T", "{0}.T.copy()", "a", ALL)
case("meth_transpose", "{0}.transpose() + 0", "a", REAL)
case("np_transpose", "np.transpose({0}) * 1", "a", REAL)
case("meth_ravel", "{0}.ravel()", "a", ALL)
case("np_ravel", "np.ravel({0})", "a", REAL)
case("meth_flatten", "{0}.flatten()", "a", ALL)
case("reshape_flat", "{0}.copy().reshape(-1)", "a", ALL)
case("reshape_2", "{0}.copy().reshape(({0}.size, 1))", "a", REAL)
case("np_reshape", "np.reshape({0}.copy(), (1, -1))", "a", REAL)
case("attr_real", "{0}.real.copy()", "a", NUMBERS)
case("attr_imag", "{0}.imag + 0", "a", COMPLEX)
case("meth_conj", "{0}.conj()", "a", NUMBERS)
case("view_same_size", "{0}.copy().view(np.int64)", "a", ("float64", "uint64", "complex64"))
case("meth_item", "{0}[:1].copy().item() if {0}.size > 0 else 0", "a", ("int64",), ndims=(1,))
case("meth_fill", "_fill({0}.copy(), {1})", "ak", NUMBERS)
case("newaxis_col", "{0}[:, None] * 2", "a", REAL, ndims=(1, 2))
case("newaxis_row", "{0}[None] + 1", "a", REAL)
case("slice_step", "{0}[::2] * 1", "a", NUMBERS)
case("slice_reverse", "{0}[::-1] + 0", "a", REAL)
case("slice_inner", "{0}[1:-1] - 1", "a", REAL)
case("slice_2d_step", "{0}[:, ::-2] * 3", "a", REAL, ndims=(2, 3))
case("row_view", "{0}[0] * 2 if {0}.shape[0] > 0 else {0}[:0, 0] * 2", "a", REAL, ndims=(2, 3))
case("shape_attrs", "({0}.shape, {0}.ndim, {0}.size, {0}.itemsize, {0}.nbytes)", "a", ALL)
case("len_of", "len({0})", "a", ALL)

# --- indexing with arrays; assignment ---
case("mask_select", "{0}[{1}]", "am", ALL)
case("mask_select_expr", "{0}[{0} > 0]", "a", REAL)
case("mask_assign", "_mask_assign({0}.copy(), {1}, {2})", "amk", NUMBERS)
case("index_array", "{0}[np.arange({0}.shape[0])[::-1]]", "a", ALL)
case("index_assign", "_index_assign({0}.copy(), {1})", "ak", NUMBERS)
case("slice_assign_bcast", "_slice_assign({0}.copy(), {1})", "ab", REAL)
case("overlap_assign", "_overlap({0}.copy())", "a", REAL, ndims=(1,))

# --- library ---
case("np_where3", "np.where({1}, {0}, {2})", "amk", REAL)
case("np_where_ab", "np.where({0} > {1}, {0}, {1})", "ab", REAL)
case("np_clip", "np.clip({0}, -1, 1)", "a", FLOATS + SIGNED)
case("np_clip_none", "np.clip({0}, None, 2)", "a", FLOATS)
case("np_sort", "np.sort({0})", "a", REAL)
case("meth_sort", "_sorted({0}.copy())", "a", REAL)
case("np_argsort", "np.argsort({0}, kind='mergesort')", "a", REAL)
case("meth_argsort", "{0}.argsort(kind='stable')", "a", REAL, specials=False)
case("np_diff", "np.diff({0})", "a", ("bool",) + NUMBERS)
case("np_diff_2", "np.diff({0}, 2)", "a", REAL)
case("np_flatnonzero", "np.flatnonzero({0})", "a", ALL)
case("np_unique", "np.unique({0})", "a", REAL, specials=False)
case("np_trace", "np.trace({0})", "a", REAL, ndims=(2,))
case("np_array_equal", "np.array_equal({0}, {0}.copy())", "a", NUMBERS, specials=False)
case("np_isclose", "np.isclose({0}, {1})", "ab", FLOATS)
case("np_allclose", "np.allclose({0}, {0} + 1e-9)", "a", ("float64",), specials=False)
case("np_bincount", "np.bincount({0} % 7)", "a", ("uint8", "uint16", "uint32"), ndims=(1,))
case("np_roll", "np.roll({0}, {1})", "ai", NUMBERS)
case("np_dot_vec", "np.dot({0}, {0})", "a", FLOATS + COMPLEX, rtol=1e-9, rtol32=1e-3,
     specials=False, ndims=(1,))
case("np_dot_mat", "np.dot({0}, {0}.T)", "a", FLOATS + COMPLEX, rtol=1e-9, rtol32=1e-3,
     specials=False, ndims=(2,))
case("matmul_op", "{0}.T @ {0}", "a", FLOATS + COMPLEX, rtol=1e-9, rtol32=1e-3, specials=False,
     ndims=(2,))
case("np_vdot", "np.vdot({0}, {0})", "a", FLOATS + COMPLEX, rtol=1e-9, rtol32=1e-3,
     specials=False, ndims=(1,))
case("flat_iter", "_flat_values({0})", "a", ALL)
case("flat_getitem", "_flat_reversed({0})", "a", ALL)
case("flat_setitem", "_flat_assign({0})", "a", ALL)
case("np_ndenumerate", "_ndenumerate({0})", "a", ALL)
case("np_ndindex", "_ndindex({0})", "a", NUMBERS)


# --- helpers the cases call (compiled with njit for the compiled run, plain for the oracle) ---
def _fill(a, v):
    a.fill(v)
    return a


def _mask_assign(a, m, v):
    a[m] = v
    return a


def _index_assign(a, v):
    a[np.arange(0, a.shape[0], 2)] = v
    return a


def _slice_assign(a, b):
    a[:] = b
    a[:1] = 7
    return a


def _overlap(a):
    a[1:] = a[:-1]
    return a


def _sorted(a):
    a.sort()
    return a


def _flat_values(a):
    out = np.empty(a.size, a.dtype)
    k = 0
    for x in a.flat:
        out[k] = x
        k += 1
    return out


def _flat_reversed(a):
    out = np.empty(len(a.flat), a.dtype)
    for i in range(a.size):
        out[i] = a.flat[-1 - i]
    return out


def _flat_assign(a):
    for i in range(0, a.size, 3):
        a.flat[i] = a.flat[i // 2]
    return a


def _ndenumerate(a):
    where = np.empty(a.size, np.int64)
    values = np.empty(a.size, a.dtype)
    k = 0
    for idx, x in np.ndenumerate(a):
        where[k] = idx[0] * 1000 + idx[-1]
        values[k] = x
        k += 1
    return np.where(where >= 0, values, values)[where % 2 == 0]


def _ndindex(a):
    out = np.empty(a.size, a.dtype)
    k = 0
    for idx in np.ndindex(a.shape):
        out[k] = a[idx]
        k += 1
    return out


HELPERS = {f.__name__: f for f in (_fill, _mask_assign, _index_assign, _slice_assign, _overlap,
                                   _sorted, _flat_values, _flat_reversed, _flat_assign,
                                   _ndenumerate, _ndindex)}


# --- fused expressions: random trees over three arrays and numbers ---
def _expression(rng, depth):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["{0}", "{1}", "{2}", "{0}", "{1}", "1.5", "2"])
    form = rng.randrange(6)
    x, y = _expression(rng, depth - 1), _expression(rng, depth - 1)
    if form < 3:
        return f"({x} {rng.choice(['+', '-', '*'])} {y})"
    if form >= 3 and "{" not in (x if form == 3 else x + y):
        return f"({x} + {y})"  # NumPy's function of numbers is a NumPy scalar, numba's a number
    if form == 3:
        fn = rng.choice(["np.sin", "np.cos", "np.tanh", "np.abs", "np.negative", "np.square",
                         "np.exp(-np.abs", "np.sqrt(np.abs"])
        return f"{fn}({x})" + ")" * fn.count("(")
    if form == 4:
        return f"np.{rng.choice(['maximum', 'minimum', 'hypot', 'arctan2'])}({x}, {y})"
    return f"np.where({x} > {y}, {x}, {y})"


def _fused_cases(count):
    import random
    rng = random.Random(2026)
    made = set()
    while len(made) < count:
        body = _expression(rng, 4)
        if "{" not in body or body in made or len(body) > 300:
            continue
        made.add(body)
        used = "abc" if "{2}" in body else "ab"
        body = body if "{2}" in body else body.replace("{2}", "{1}")
        case(f"fused_{len(made):03d}", body, used, FLOATS, rtol=1e-10, rtol32=1e-4,
             specials=False)


_fused_cases(150)

# --- finding and counting ---
case("np_nonzero", "np.nonzero({0})", "a", ALL)
case("meth_nonzero", "{0}.nonzero()", "a", REAL)
case("np_where1", "np.where({0} > 0)", "a", REAL)
case("np_argwhere", "np.argwhere({0})", "a", ALL)
case("np_searchsorted", "np.searchsorted(np.sort({0}.ravel()), {1})", "ab", REAL,
     specials=False)
case("np_searchsorted_right", "np.searchsorted(np.sort({0}.ravel()), {1}, side='right')", "ab",
     REAL, specials=False)
case("np_searchsorted_number", "np.searchsorted(np.sort({0}.ravel()), {1})", "ak", REAL,
     specials=False)
case("np_digitize", "np.digitize({0}, np.array([-2.0, 0.0, 0.5, 3.0]))", "a", FLOATS,
     specials=False)
case("np_histogram", "np.histogram({0}, 5, (-3.0, 3.0))", "a", REAL, specials=False)
case("np_interp", "np.interp({0}, np.array([-3.0, 0.0, 1.0, 4.0]), np.array([1.0, 2.0, 0.0, 5.0]))",
     "a", REAL, specials=False)

# --- joining ---
case("np_concatenate", "np.concatenate(({0}, {0}[:1], {0}))", "a", ALL)
case("np_concatenate_axis", "np.concatenate(({0}, {0}), axis=-1)", "a", NUMBERS)
case("np_concatenate_mixed", "np.concatenate(({0}, {0}.astype(np.float32)))", "a", REAL)
case("np_stack", "np.stack(({0}, {0} * 2))", "a", NUMBERS)
case("np_stack_axis", "np.stack(({0}, {0}), axis=1)", "a", REAL)
case("np_hstack", "np.hstack(({0}, {0}))", "a", ALL)
case("np_vstack", "np.vstack(({0}, {0}))", "a", NUMBERS)
case("np_dstack", "np.dstack(({0}, {0}))", "a", REAL)
case("np_column_stack", "np.column_stack(({0}, {0}))", "a", REAL, ndims=(1, 2))
case("np_atleast_2d", "np.atleast_2d({0}) + 0", "a", REAL)
case("np_atleast_3d", "np.atleast_3d({0}) * 1", "a", REAL)

# --- flipping and products ---
case("np_flip", "np.flip({0}) + 0", "a", NUMBERS)
case("np_flipud", "np.flipud({0}).copy()", "a", ALL)
case("np_fliplr", "np.fliplr({0}) * 1", "a", REAL, ndims=(2, 3))
case("np_outer", "np.outer({0}, {1})", "ab", NUMBERS, specials=False)
case("np_cross", "np.cross({0}, {0}[::-1] + 1)", "a", REAL + COMPLEX, specials=False,
     ndims=(1,), shapes=((3,),))
