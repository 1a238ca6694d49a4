"""OptionalType (numba's types.Optional): a value or None, in compiled CPU code and CUDA device
functions (tests/cuda_kernels/test_optional_ptx.py). Each function runs compiled and in CPython, and the answers (their exact types too:
None vs a value) must agree; where numba differs from CPython (a None used as a value raises
numba's TypeError) the expectation is numba's."""
import numpy as np
import pytest

import cujit
from cujit import njit, types
from cujit.errors import TypingError


def ret_optional(a):
    if a < 0:
        return None
    return a * 2


def ret_none_last(a):
    if a > 0:
        return a + 0.5
    return None


def assigned_on_one_path(a):
    x = None
    if a > 0:
        x = a
    return x


def narrowed_is_none(a):
    x = None if a < 0 else a
    if x is None:
        return -1
    return x + 1


def narrowed_is_not_none(a):
    x = None if a < 0 else a
    if x is not None:
        return x * 3
    return 0


def none_compares(a):
    x = None if a < 0 else a
    return x is None, x is not None, None is x, x == None, x != None  # noqa: E711


def used_as_value(a):
    x = None if a < 0 else a
    return x + 1


def negated(a):
    x = None
    if a >= 0:
        x = a
    y = -x  # 3.12 copies a short `return -x` into each branch: -None would be typed there
    return y


def as_index(arr, i):
    x = None if i < 0 else i
    return int(arr[x])


def find_first(arr, v):
    idx = None
    for i in range(arr.shape[0]):
        if arr[i] == v:
            idx = i
            break
    return idx


def int_or_float(c):
    x = None
    if c > 0:
        x = 1
    elif c < 0:
        x = 2.5
    return x


def none_param(x):
    if x is None:
        return -1
    return x * 2


def optional_callee(x):
    if x is None:
        return -1
    return x * 10


_callee = njit(optional_callee)


def passes_optional(a):
    x = None if a < 0 else a
    return _callee(x)


def _maybe_ones(n):
    if n > 0:
        return np.ones(n)
    return None


_maybe = njit(_maybe_ones)


def uses_callee_optional(n):
    x = _maybe(n)
    if x is not None:
        return x.sum()
    return -1.0


def dict_get(k):
    d = {1: 2.0, 3: 4.0}
    return d.get(k), d.get(k, None), d.get(k, 9.0)


def dict_pop_none(k):
    d = {1: 2.0}
    return d.pop(k, None), len(d)


def optional_str(a):
    return "abc" if a > 0 else None


def optional_tuple(a):
    return None if a < 0 else (a, 2.0)


def in_tuple(a):
    x = None if a < 0 else a
    return (x, a)


def optional_list(a):
    x = None
    if a > 0:
        x = [1, 2]
    if x is not None:
        x.append(a)
        return len(x)
    return 0


def last_in_while(n):
    x = None
    i = 0
    while i < n:
        x = i
        i += 1
    return x


def caught(a):
    x = None if a < 0 else a
    try:
        return x + 1
    except TypeError:
        return -100


def optional_str_ops(a):
    s = None if a < 0 else "ab"
    if s is not None:
        return s + "c"
    return "none"


def library_call(a):
    x = None if a < 0 else np.arange(4.0)
    return np.diff(x).sum(), np.sum(x), len(x)


def objmode_input(a):
    x = None if a < 0 else a
    with cujit.objmode(y="int64"):
        y = -7 if x is None else x + 100
    return y


def printed(a):
    x = None if a < 0 else a
    print(x)
    return 0


def truth_of_optional(a):
    x = None if a < 0 else a
    if x:
        return 1
    return 0


CASES = [
    (ret_optional, [(3,), (-3,), (0,)]),
    (ret_none_last, [(2,), (-2,)]),
    (assigned_on_one_path, [(4,), (-4,)]),
    (narrowed_is_none, [(5,), (-5,)]),
    (narrowed_is_not_none, [(5,), (-5,)]),
    (none_compares, [(1,), (-1,)]),
    (used_as_value, [(1,)]),
    (negated, [(2,)]),
    (as_index, [(np.arange(4), 2)]),
    (find_first, [(np.arange(5), 3), (np.arange(5), 9)]),
    (int_or_float, [(-1,), (0,)]),  # (1,): numba's 1.0, below
    (none_param, [(None,), (7,)]),
    (passes_optional, [(3,), (-3,)]),
    (uses_callee_optional, [(3,), (0,)]),
    (dict_get, [(1,), (7,)]),
    (dict_pop_none, [(1,), (7,)]),
    (optional_str, [(1,), (-1,)]),
    (optional_tuple, [(1,), (-1,)]),
    (in_tuple, [(1,), (-1,)]),
    (optional_list, [(1,), (-1,)]),
    (last_in_while, [(3,), (0,)]),
    (caught, [(1,), (-1,)]),
    (optional_str_ops, [(1,), (-1,)]),
    (library_call, [(1,)]),
    (objmode_input, [(1,), (-1,)]),
]
COMPILED = {fn.__name__: njit(fn) for fn, _ in CASES}


def _called(name):
    """The dispatcher after a call with each of its cases' arguments (so its signatures exist
    whichever worker runs the test)."""
    fn, cases = next((fn, cases) for fn, cases in CASES if fn.__name__ == name)
    for args in cases:
        COMPILED[name](*args)
    return COMPILED[name]


def _same(got, want):
    if isinstance(want, np.generic):
        want = want.item()  # CPython's NumPy scalar: compiled code returns the Python number
    if isinstance(want, tuple):
        return type(got) is tuple and len(got) == len(want) and all(map(_same, got, want))
    if want is None:
        return got is None
    if isinstance(want, np.ndarray):
        return isinstance(got, np.ndarray) and np.array_equal(got, want)
    return type(got) is type(want) and got == want


@pytest.mark.parametrize("fn, args", [(fn, a) for fn, cases in CASES for a in cases],
                         ids=lambda x: getattr(x, "__name__", None))
def test_against_cpython(fn, args):
    got, want = COMPILED[fn.__name__](*args), fn(*args)
    assert _same(got, want), (got, want)


def test_int_and_float_unify_to_optional_float():
    # numba's unification: none + int64 + float64 -> OptionalType(float64), so 1 comes back 1.0
    f = _called("int_or_float")
    assert f(1) == 1.0 and type(f(1)) is float and f(0) is None
    assert f.nopython_signatures[0].return_type is types.Optional(types.float64)


def test_return_type_is_optional():
    sig = _called("ret_optional").nopython_signatures[0]
    assert sig.return_type is types.Optional(types.int64)
    assert str(sig.return_type) == "OptionalType(int64)"
    assert _called("optional_str").nopython_signatures[0].return_type is \
        types.Optional(types.unicode_type)
    # a value used where an int64 is needed unpacks it: the result is int64 (numba's)
    assert _called("used_as_value").nopython_signatures[0].return_type is types.int64


@pytest.mark.parametrize("name, args, want", [
    ("used_as_value", (-1,), "int64"), ("negated", (-2,), "int64"),
    ("as_index", (np.arange(4), -1), "int64"),
    ("library_call", (-1,), r"array\(float64, 1d, C\)")])
def test_none_where_a_value_is_needed_raises_numbas_type_error(name, args, want):
    with pytest.raises(TypeError, match=f"^expected {want}, got None$"):
        COMPILED[name](*args)


def test_print_shows_none_or_the_value(capsys):
    f = njit(printed)
    f(-1), f(5)
    assert capsys.readouterr().out == "None\n5\n"


def test_none_argument_is_typed_none():
    f = COMPILED["none_param"]
    assert types.none in [sig[0] for sig in f.signatures]


def test_callee_is_compiled_for_the_optional():
    assert (types.Optional(types.int64),) in _callee.signatures


def test_explicit_optional_signature():
    f = njit(types.int64(types.Optional(types.int64)))(none_param)
    assert f(None) == -1 and f(4) == 8
    assert f.signatures == [(types.Optional(types.int64),)]
    g = njit("int64(optional(int64))")(none_param)
    assert g(None) == -1 and g(5) == 10
    with pytest.raises(TypeError, match="No matching definition"):
        f("a")


def _len_or_minus_one(s):
    return -1 if s is None else len(s)


@njit("int64(int64)")
def _declared_int64(x):
    return x * 3


def passes_optional_to_declared(a):
    x = None if a < 0 else a
    return _declared_int64(x)


def passes_int32_to_declared(arr):
    return _declared_int64(arr[0])


def test_callee_of_a_declared_signature_takes_the_optionals_value():
    # numba's Optional.can_convert_to: the call casts, None raising numba's TypeError
    f = njit(passes_optional_to_declared)
    assert f(2) == 6
    with pytest.raises(TypeError, match="^expected int64, got None$"):
        f(-2)
    # the same cast to the declared type for any conversion (an int32 to an int64)
    assert njit(passes_int32_to_declared)(np.array([5], dtype=np.int32)) == 15


def test_explicit_optional_of_heap_values(nrt_balanced):
    f = njit(types.int64(types.Optional(types.unicode_type)))(_len_or_minus_one)
    assert f("abcd") == 4 and f(None) == -1
    g = njit(types.int64(types.Optional(types.float64[::1])))(_len_or_minus_one)
    assert g(np.ones(3)) == 3 and g(None) == -1
    h = njit(types.Optional(types.int64)(types.int64))(ret_optional)
    assert h(2) == 4 and h(-2) is None


def test_optional_type_objects_are_the_compilers():
    t = types.Optional(types.int64)
    assert t is types.optional(types.int64) and t._compilable and t.type is types.int64
    assert types.Optional(types.float64[:])._compilable
    with pytest.raises(TypeError):
        types.Optional(types.none)
    assert cujit._core.can_convert(types.none, t) and cujit._core.can_convert(types.int32, t)


def test_truth_of_optional_is_refused_as_numba():
    with pytest.raises(TypingError, match=r"bool\(OptionalType\(int64\)\)"):
        njit(truth_of_optional)(1)


def test_optional_array_frees_its_memory(nrt_balanced):
    f = _maybe
    r = f(3)
    assert isinstance(r, np.ndarray) and r.tolist() == [1.0, 1.0, 1.0]
    assert f(0) is None
    del r
    assert COMPILED["uses_callee_optional"](4) == 4.0
    assert COMPILED["uses_callee_optional"](0) == -1.0


CACHED_MODULE = """
from cujit import njit

@njit(cache=True)
def half_or_none(a):
    return None if a % 2 else a // 2
"""

CACHED_RUN = """
import sys
sys.path.insert(0, {pkg!r}); sys.path.insert(0, {here!r})
import cached_opt as m
print(m.half_or_none(4), m.half_or_none(3), m.half_or_none._cache.hits)
"""


def test_optional_return_type_is_cached_on_disk(tmp_path):
    # the cache describes the return type OptionalType(int64) and rebuilds it: a hit, not a
    # recompile, in the second process
    import os
    import subprocess
    import sys
    (tmp_path / "cached_opt.py").write_text(CACHED_MODULE)
    pkg = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg")
    code = CACHED_RUN.format(pkg=pkg, here=str(tmp_path))
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert outs[0] == ["2", "None", "0"] and outs[1] == ["2", "None", "1"]
