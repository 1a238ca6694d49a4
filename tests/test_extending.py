"""cujit.extending's high-level API on the CPU: overloads chosen per argument types (keyword
defaults, optional arguments, several overloads of one function, target-specific ones,
overloads of builtins and NumPy functions), register_jitable helpers calling each other,
overload_method and overload_attribute; each checked against plain Python / NumPy. Then the
errors (numba's texts, the extension and the call's line named) and the low-level names.
The extensions live in extending_catalogue.py (the CUDA tests use them too)."""
import math
import re

import numpy as np
import pytest

import cujit
from cujit import njit, types
from cujit.errors import TypingError, UnsupportedError
from cujit.extending import overload, overload_attribute, overload_method, register_jitable

import extending_catalogue as ext
from extending_catalogue import (clamp, floor_divmod, hyp, kind_of, norm2, offset, poly, ramp,
                                 safe_div, scaled, sq, twice_clamped, where_am_i)


# ---- functions: one jitted caller each, shared by the cases ----

def call_clamp(x, lo, hi):
    return clamp(x, lo, hi)


def call_scaled(x):
    return scaled(x), scaled(x, 3), scaled(x, factor=0.5)


def call_kind(x):
    return kind_of(x)


def call_norm2(x):
    return norm2(x)


def call_offset(x):
    return offset(x), offset(x, 2), offset(x, y=0.25)


def call_divmod(a, b):
    return floor_divmod(a, b)


def call_twice(x):
    return twice_clamped(x)


def call_helpers(x):
    return sq(x), hyp(x, 4.0), poly(x), poly(x, c1=2.0), poly(x, 0.5, c1=3.0)


def call_builtin_overloads(x):
    return abs(-x), np.sum(np.arange(4)), abs(x * 1.5)  # cujit's own, past the overloads


JIT = {f: njit(f) for f in (call_clamp, call_scaled, call_kind, call_norm2, call_offset,
                            call_divmod, call_twice, call_helpers, call_builtin_overloads)}


@pytest.mark.parametrize("f, args", [
    (call_clamp, (5, 0, 3)), (call_clamp, (-5, 0, 3)), (call_clamp, (1, 0, 3)),
    (call_clamp, (2.5, 0.0, 1.0)), (call_clamp, (-0.5, 0.0, 1.0)),
    (call_scaled, (7,)), (call_scaled, (1.5,)),
    (call_kind, (1,)), (call_kind, (1.5,)), (call_kind, (1j,)), (call_kind, (True,)),
    (call_kind, (np.zeros(2),)),
    (call_norm2, (np.array([3.0, 4.0]),)), (call_norm2, (-3,)), (call_norm2, (2.5,)),
    (call_offset, (1,)), (call_offset, (1.5,)),
    (call_divmod, (17, 5)), (call_divmod, (-17, 5)),
    (call_twice, (3,)), (call_twice, (30,)), (call_twice, (-1.25,)),
    (call_helpers, (3.0,)),
    (call_builtin_overloads, (-4,)),
])
def test_function_overloads_match_python(f, args):
    got, want = JIT[f](*args), f(*args)
    assert got == want or np.allclose(got, want)

    def python_type(v):  # compiled code gives Python scalars where NumPy gives its own
        return type(v.item()) if isinstance(v, np.generic) else type(v)
    if isinstance(want, tuple):
        assert [type(g) for g in got] == [python_type(w) for w in want]
    else:
        assert type(got) is python_type(want)


def test_per_type_implementations_are_separate_overloads():
    for arg in (1, 1.5, 1j, True, np.zeros(2)):  # whichever tests ran on this worker before
        JIT[call_kind](arg)
    sigs = set(JIT[call_kind].signatures)
    assert {(types.int64,), (types.float64,), (types.complex128,), (types.boolean,),
            (types.float64[::1],)} <= sigs


def test_overloads_of_builtins_and_numpy_functions_for_tuples():
    f = njit(lambda x: (abs((x, -2, 3)), np.sum((x, 5)), abs(x)))
    assert f(-4) == (9, 1, 4) and f(6) == (11, 11, 6)
    assert [type(v) for v in f(1)] == [int, int, int]


def test_array_result_and_jit_options():
    f = njit(lambda n, s: ramp(n, s))
    np.testing.assert_array_equal(f(5, 0.5), ramp(5, 0.5))
    g = njit(lambda n: ramp(n))
    np.testing.assert_array_equal(g(4), ramp(4))
    # jit_options={'error_model': 'numpy'}: a float division by zero is inf in the overload
    h = njit(lambda a, b: safe_div(a, b))
    assert h(1.0, 0.0) == math.inf and h(3.0, 2.0) == 1.5
    with pytest.raises(ZeroDivisionError):  # the caller's own division keeps Python's model
        njit(lambda a, b: a / b)(1.0, 0.0)


def test_target_specific_overload_comes_first():
    assert njit(lambda: where_am_i())() == 1  # target='cpu' before the generic one


def test_register_jitable_stays_plain_python():
    assert sq(3) == 9 and hyp(3.0, 4.0) == 5.0 and not cujit.extending.is_jitted(sq)
    assert sq.__name__ == "sq" and type(sq).__name__ == "function"


def test_numba_docs_norm_example():
    @njit
    def use(a, ord=None):
        # simple test function to check that the overload works
        return np.linalg.norm(a, ord)

    a = np.arange(10)
    assert np.isclose(use(a), np.linalg.norm(a))
    b = np.arange(9).reshape((3, 3))
    assert np.isclose(use(b), np.linalg.norm(b))
    af = a.astype(np.float64)
    for ord in (1, 2, np.inf, -np.inf, 3):
        assert np.isclose(use(af, ord), np.linalg.norm(af, ord))
    assert use(af, 0) == np.linalg.norm(af, 0)


# ---- methods and attributes ----

@njit
def use_members(a, idx, n, x, z):
    return (a.sum_of_squares(), a.scaled_sum(), a.scaled_sum(scale=2.0), a.take(idx),
            n.is_even(), x.clip01(), a.nbytes2, a.first, z.abs2, (n, 2, 3).total)


@pytest.mark.parametrize("n, x", [(4, 1.5), (7, -0.5), (0, 0.25)])
def test_methods_and_attributes_match_numpy(n, x):
    a = np.array([1.0, -2.0, 3.5])
    idx = np.array([2, 0, 2])
    z = 3.0 - 4.0j
    got = use_members(a, idx, n, x, z)
    assert got[0] == np.sum(a * a) and got[1] == a.sum() and got[2] == 2 * a.sum()
    np.testing.assert_array_equal(got[3], a.take(idx))
    assert got[3].dtype == a.dtype
    assert got[4] is (n % 2 == 0) and got[5] == min(max(x, 0.0), 1.0)
    assert got[6] == a.nbytes and got[7] == a[0] and got[8] == abs(z) ** 2
    assert got[9] == n + 5 and type(got[9]) is int


def test_methods_on_other_arrays():
    f = njit(lambda a: (a.sum_of_squares(), a.nbytes2))
    a2 = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert f(a2) == (float(np.sum(a2 * a2)), a2.nbytes)


# ---- errors ----

def only_floats(x):
    return x


@overload(only_floats)
def ov_only_floats(x):
    if isinstance(x, types.Float):
        return lambda x: x


def raises_value_error(x):
    return x


@overload(raises_value_error)
def ov_raises(x):
    raise ValueError("boom")


def returns_number(x):
    return x


@overload(returns_number)
def ov_number(x):
    return 5


def bad_impl(x):
    return x


@overload(bad_impl)
def ov_bad_impl(x):
    def impl(x):
        return x.no_such_attribute
    return impl


def mismatched(x, y):
    return x


@overload(mismatched)
def ov_mismatched(x, y):
    return lambda a, b: a


def picky(x):
    return x


@overload(picky)
def ov_picky(x):
    raise TypingError("picky wants something else")


def star(*args):
    return len(args)


@overload(star, strict=False)
def ov_star(*args):
    def impl(*args):
        return 1
    return impl


@overload_method(types.Array, "only_int_arg")
def ov_only_int_arg(a, k):
    if isinstance(k, types.Integer):
        return lambda a, k: a[k]


@overload_attribute(types.Array, "only_2d")
def ov_only_2d(a):
    if a.ndim == 2:
        return lambda a: a.shape[0]


def _line_of(f, text):
    import inspect
    lines, start = inspect.getsourcelines(f)
    return start + next(i for i, l in enumerate(lines) if text in l)


def test_no_implementation_error_is_numbas():
    def f(x):
        return only_floats(x)
    with pytest.raises(TypingError) as info:
        njit(f)(1)
    msg = str(info.value)
    assert "No implementation of function Function(<function only_floats" in msg
    assert ">>> only_floats(int64)" in msg and "There are 1 candidate implementations" in msg
    assert "No match." in msg and "extending_catalogue" not in msg
    assert f'line {_line_of(f, "only_floats(x)")}, in' in msg


def test_typing_function_raising_names_the_extension_and_the_call():
    def f(x):
        return raises_value_error(x)
    with pytest.raises(TypingError) as info:
        njit(f)(1)
    msg = str(info.value)
    assert "@overload ov_raises" in msg and "ValueError: boom" in msg
    assert f'line {_line_of(f, "raises_value_error(x)")}, in' in msg


def test_typing_function_returning_a_non_function():
    with pytest.raises(TypingError) as info:
        njit(lambda x: returns_number(x))(1)
    msg = str(info.value)
    assert re.match(r"\A(Failed in cujit nopython pipeline \(step: typing\)\n)?@overload "
                    r"ov_number \(File test_extending.py, line \d+\): Implementation "
                    r"function returned by `@overload` has an unexpected type.  Got 5", msg)
    assert "returns_number(x)" in msg  # the call's line


def test_implementation_that_fails_to_compile():
    def f(x):
        return bad_impl(x)
    with pytest.raises(TypingError) as info:
        njit(f)(1)
    msg = str(info.value)
    assert "@overload ov_bad_impl" in msg and "failed to compile for (int64)" in msg
    assert "Unknown attribute 'no_such_attribute'" in msg
    assert f'line {_line_of(f, "bad_impl(x)")}, in' in msg


def test_strict_signatures():
    with pytest.raises(TypingError, match="Typing and implementation arguments differ in "
                                          "argument names"):
        njit(lambda x: mismatched(x, 1))(1)


def test_typing_error_of_an_overload_is_its_rejection():
    with pytest.raises(TypingError) as info:
        njit(lambda x: picky(x))(1)
    msg = str(info.value)
    assert "Rejected as the implementation raised a specific error" in msg
    assert "TypingError: picky wants something else" in msg


def test_star_args_implementation():
    # the implementation's *args packs the call's arguments (numba's StarArgTuple)
    assert njit(lambda x: star(x))(1) == 1
    assert njit(lambda x: star(x, 2.5, (x, x)))(1) == 1


def test_wider_type_later_is_typed_with_it():
    def f(n):
        x = 0
        for i in range(n):
            x = x + 0.5  # x is int64 at first, float64 once the loop is typed
        return only_floats(x)
    assert njit(f)(3) == 1.5


def test_method_and_attribute_errors():
    with pytest.raises(TypingError, match=r"No implementation of function "
                                          r"BoundFunction\(array\(float64, 1d, C\)"
                                          r"\.only_int_arg\)"):
        njit(lambda a: a.only_int_arg(1.5))(np.zeros(3))
    assert njit(lambda a: a.only_int_arg(1))(np.arange(3.0)) == 1.0
    with pytest.raises(UnsupportedError, match="array attribute 'only_2d'"):
        njit(lambda a: a.only_2d)(np.zeros(3))
    assert njit(lambda a: a.only_2d)(np.zeros((4, 2))) == 4
    with pytest.raises(TypingError, match="Unknown attribute 'is_even' of type float64"):
        njit(lambda x: x.is_even())(1.5)


def test_literally_is_not_in_cujit_yet():
    from cujit.extending import literally
    assert literally(3) == 3
    with pytest.raises(NotImplementedError, match="literally: literal argument types"):
        njit(lambda x: literally(x))(3)


def test_bad_declarations():
    with pytest.raises(TypeError, match="the function to overload, not 5"):
        overload(5)
    with pytest.raises(ValueError, match="Unknown target 'tpu'"):
        overload(only_floats, target="tpu")
    with pytest.raises(NotImplementedError, match="cost-model"):
        overload(only_floats, inline=lambda *a: True)
    with pytest.raises(TypeError, match="not a cujit type"):
        overload_method(int, "foo")
    with pytest.raises(TypeError, match="identifier"):
        overload_attribute(types.Array, "no such")
    with pytest.raises(TypeError, match="unknown overload jit_options"):
        overload(only_floats, jit_options={"bogus": 1})
    with pytest.raises(NotImplementedError, match="overload_classmethod"):
        cujit.extending.overload_classmethod(types.Array, "make")


@pytest.mark.parametrize("name", ["as_numba_type", "get_cython_function_address"])
def test_low_level_parts_not_there_say_so(name):
    obj = getattr(cujit.extending, name)
    with pytest.raises(NotImplementedError, match="this part of the low-level extension API "
                                                  "is not in cujit yet"):
        obj(types.Array)


def test_module_paths():
    import cujit.core.extending
    import cujit.extending as e
    assert e is cujit.core.extending is cujit.extending
    assert e.register_jitable is register_jitable and ext.sq is sq


def test_bound_method_used_as_a_value_is_refused():
    def f(a):
        m = a.sum_of_squares
        return m()
    with pytest.raises(UnsupportedError, match="can only be called where it is read"):
        njit(f)(np.ones(2))


def keyed_stub(x):
    return x


def test_on_disk_cache_keys_follow_the_overloads():
    from cujit.caching import function_key

    def f(x, a):
        return keyed_stub(x) + a.keyed_method()
    before = function_key(f)

    @overload(keyed_stub)
    def ov_keyed(x):
        return lambda x: x + 1
    after_function = function_key(f)

    @overload_method(types.Array, "keyed_method")
    def ov_keyed_method(a):
        return lambda a: 1
    after_method = function_key(f)
    assert len({before, after_function, after_method}) == 3
    assert function_key(f) == after_method  # stable while nothing changes


@overload_method(types.Array, "doubled")
def ov_doubled(a):
    return lambda a: a * 2


@overload_attribute(types.Array, "tripled")
def ov_tripled(a):
    return lambda a: a * 3


def test_arrays_through_methods_and_attributes_are_freed():
    from cujit.core.runtime import rtsys

    @njit
    def f(a):
        b = (a + 1).doubled()           # a temporary receiver, a new array returned
        c = a.tripled + (a * 2).tripled
        d = ramp(3).doubled().tripled   # chained on a function's result
        return (a + 1).nbytes2 + b[0] + c[1] + d[2]
    a = np.arange(10.0)
    assert f(a) == 80 + 2.0 + 9.0 + 12.0
    before = rtsys.get_allocation_stats()
    for _ in range(20):
        f(a)
    after = rtsys.get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free > 0


@pytest.fixture
def scoped_registry():
    """Overloads made in the test are forgotten after it (they would change len() for the rest
    of the suite's process)."""
    from cujit.core import templates
    functions, by_func = dict(templates.FUNCTIONS), {k: list(v) for k, v in
                                                     templates._FUNCTION_TEMPLATES.items()}
    yield
    templates.FUNCTIONS.clear()
    templates.FUNCTIONS.update(functions)
    templates._FUNCTION_TEMPLATES.clear()
    templates._FUNCTION_TEMPLATES.update(by_func)


def test_numba_docstring_example_tuple_len(scoped_registry):
    @overload(len)
    def tuple_len(seq):
        if isinstance(seq, types.BaseTuple):
            n = len(seq)

            def len_impl(seq):
                return n
            return len_impl

    @njit
    def f(t, a):
        return len(t), len(a)  # the overload's for the tuple, cujit's own for the array
    assert f((1, 2, 3), np.zeros(4)) == (3, 4)
    from cujit.core import templates
    [template] = templates.function_templates(len)
    chosen = template._chosen[((types.UniTuple(types.int64, 3),), ())]
    assert chosen[0] == "ok" and chosen[1][0].py_func.__name__ == "len_impl"


def test_closures_over_types_in_implementations():
    def zeros_of(a):
        return np.zeros(a.shape[0], a.dtype)

    @overload(zeros_of)
    def ov_zeros_of(a):
        dt = a.dtype  # a cujit type, captured by the implementation

        def impl(a):
            out = np.empty(a.shape[0], dt)
            for i in range(a.shape[0]):
                out[i] = dt(0)
            return out
        return impl
    f = njit(lambda a: zeros_of(a))
    for dtype in (np.float32, np.int16, np.complex128):
        got = f(np.ones(3, dtype))
        assert got.dtype == dtype and not got.any()


def test_extensions_in_vectorize():
    @cujit.vectorize(["float64(float64)", "int64(int64)"])
    def u(x):
        return sq(x) + scaled(x)
    x = np.arange(5)
    np.testing.assert_array_equal(u(x), x * x + 2 * x)
    np.testing.assert_allclose(u(x * 0.5), (x * 0.5) ** 2 + x)


def test_numba_docs_attribute_and_register_jitable_examples():
    # overload_attribute's documented example: nbytes is also cujit's own (kept, same value)
    @overload_attribute(types.Array, 'nbytes')
    def array_nbytes(arr):
        def get(arr):
            return arr.size * arr.itemsize
        return get

    @register_jitable
    def foo(x, y):
        return x + y

    @njit
    def bar(a):
        return a.nbytes, foo(a.size, 1)
    a = np.zeros((3, 5), np.float32)
    assert bar(a) == (a.nbytes, 16) and foo(2, 3) == 5
