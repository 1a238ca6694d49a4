"""The Dispatcher: overloads per signature, eager signatures, options, inspection, calls."""
import io

import numpy as np
import pytest

import cujit
from cujit import float32, float64, int32, int64, njit, jit


def test_one_overload_per_type_signature():
    @njit
    def add(a, b):
        return a + b

    assert add(1, 2) == 3
    assert add(1.5, 2) == 3.5
    assert add(1, 2) == 3  # cached: no new overload
    sigs = [str(s) for s in add.nopython_signatures]
    assert sigs == ["int64(int64, int64)", "float64(float64, int64)"]
    assert add.signatures == [(int64, int64), (float64, int64)]
    assert add.py_func(1, 2) == 3


@pytest.mark.parametrize("sig", [
    "float64(float64, float64)", float64(float64, float64), ["float64(float64, float64)"],
    "(float64, float64)",
])
def test_eager_signatures(sig):
    @jit(sig)
    def f(x, y):
        return x * y

    assert f.signatures == [(float64, float64)]
    assert f(2, 3) == 6.0 and isinstance(f(2, 3), float)  # ints convert to the signature
    assert len(f.signatures) == 1
    with pytest.raises(TypeError, match="No matching definition"):
        f(np.zeros(2), 1.0)


def test_eager_list_picks_first_matching():
    @jit(["int32(int32)", "float32(float32)"])
    def g(x):
        return x + 1

    assert g(np.int32(3)) == 4
    assert [str(s) for s in g.nopython_signatures] == ["int32(int32)", "float32(float32)"]


_SCALARS = ["boolean", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float32", "float64", "complex64", "complex128"]


def test_conversion_rule_is_numbas():
    """_core.can_convert (the rule both dispatchers use) against numba's own casting table."""
    from numba.core.typeconv.rules import default_type_manager
    from numba import types as nt
    from cujit import _core
    names = {1: "exact", 2: "promote", 3: "safe", 4: "unsafe"}
    for a in _SCALARS:
        for b in _SCALARS:
            theirs = default_type_manager.check_compatible(getattr(nt, a), getattr(nt, b))
            ours = _core.can_convert(_core.type_by_name(a), _core.type_by_name(b))
            assert ours == (names[int(theirs)] if theirs is not None else None), (a, b)
    arr = cujit.float32[:, ::1]
    assert _core.can_convert(arr, cujit.float32[:, :]) == "safe"
    assert _core.can_convert(cujit.float32[:, :], arr) is None
    assert _core.can_convert(cujit.float64[:], cujit.float32[:]) is None


@pytest.mark.parametrize("sigs,arg,expected", [
    (["int32(int32)", "float64(float64)"], np.int64(3), 3.0),    # safe beats unsafe
    (["float32(float32)", "float64(float64)"], 1.1, 1.1),       # exact beats unsafe
    (["int32(int32)"], 2.9, 2),                                  # float -> int truncates
    (["boolean(boolean)"], 5, True),
])
def test_fixed_signatures_pick_numbas_best_conversion(sigs, arg, expected):
    f = jit(sigs)(lambda x: x)
    got = f(arg)
    assert got == expected and type(got) is type(expected)
    ref = __import__("numba").njit(sigs)(lambda x: x)(arg)
    assert ref == expected or abs(ref - expected) < 1e-6


def test_tied_conversions_take_the_first_signature():
    # numba raises "Ambiguous overloading" here; cujit takes the first (docs/differences.md)
    f = jit(["int16(int16)", "float64(int64)"])(lambda x: x)
    got = f(np.int8(7))  # a promotion to either
    assert got == 7 and type(got) is int


def test_declared_return_type_converts():
    @jit(int32(float64))
    def h(x):
        return x * 2.5

    assert h(2.0) == 5 and isinstance(h(2.0), int)


def test_array_signature_spellings():
    @jit("float64(float64[:])")
    def total(a):
        s = 0.0
        for x in a:
            s += x
        return s

    assert total(np.arange(4.0)) == 6.0
    assert total(np.arange(8.0)[::2]) == 12.0  # non-contiguous fits [:] (layout A)
    assert str(total.nopython_signatures[0]) == "float64(array(float64, 1d, A))"


def test_keywords_and_defaults():
    @njit
    def f(a, b=10, c=0.5):
        return a + b * c

    assert f(1) == 6.0
    assert f(1, c=2) == 21
    assert f(c=1.0, b=1, a=1) == 2.0
    with pytest.raises(TypeError):
        f()
    with pytest.raises(TypeError):
        f(1, d=3)
    with pytest.raises(TypeError):
        f(1, 2, 3, 4)


def test_calls_between_jitted_functions_keywords_defaults():
    @njit
    def inner(x, scale=2, offset=0):
        return x * scale + offset

    @njit
    def outer(x):
        return inner(x) + inner(x, offset=1) + inner(x, 3)

    assert outer(5) == 10 + 11 + 15


def test_self_recursion():
    @njit
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)

    assert fib(20) == 6765


def test_inspect_types_llvm_asm():
    @njit
    def f(x):
        y = x + 1
        return y * 2.0

    f(3)
    out = io.StringIO()
    f.inspect_types(file=out)
    text = out.getvalue()
    assert "f (int64,)" in text
    assert "y = " in text and ":: int64" in text and ":: float64" in text
    llvm = f.inspect_llvm()
    assert list(llvm) == [(int64,)] and "define" in llvm[(int64,)]
    assert "ret" in f.inspect_asm((int64,))


def test_error_model_numpy():
    @njit(error_model="numpy")
    def div(a, b):
        return a / b

    assert div(1.0, 0.0) == np.inf

    @njit
    def div_py(a, b):
        return a / b

    with pytest.raises(ZeroDivisionError, match="division by zero"):
        div_py(1.0, 0.0)


def test_unknown_option_and_object_mode():
    with pytest.raises(TypeError):
        njit(bogus=True)
    with pytest.raises(NotImplementedError, match="signatures with object mode"):
        jit("float64(float64)", forceobj=True)(lambda x: x)


def test_bad_arguments_are_python_errors():
    @njit
    def f(x):
        return x

    for bad in ((b"s",), [[1]], {1: 2}, object(), 2 ** 70):  # a list of lists: numba's TypeError
        with pytest.raises((TypeError, OverflowError)):
            f(bad)


@pytest.mark.parametrize("bad,hint", [
    (([1],), "lists inside tuples or lists are not supported"),  # names the list's type
    (({1},), "sets inside tuples or lists are not supported"),
    ({1: 2}, "dicts are not supported"),
    ((b"s",), "bytes are not supported as arguments yet"),
])
def test_unsupported_arguments_say_what_to_pass(bad, hint):
    f = njit(lambda x: x)
    kind = type(bad[0] if isinstance(bad, tuple) else bad).__name__  # the item inside
    with pytest.raises(TypeError, match=f"argument of type {kind} .*{hint}"):
        f(bad)


def test_invalid_signatures():
    for bad in ("float64(", "nonsense(int32)", "__import__('os')", 3):
        with pytest.raises(TypeError):
            jit(bad)


def test_array_results_share_memory():
    @njit
    def view(a):
        return a[1:]

    a = np.arange(5.0)
    v = view(a)
    v[0] = 42
    assert a[1] == 42 and v.base is a


def test_readonly_arrays_read():
    @njit
    def first(a):
        return a[0]

    a = np.arange(3)
    a.setflags(write=False)
    assert first(a) == 0
    assert "readonly array(int64, 1d, C)" in str(first.nopython_signatures[0])


def test_repr_and_wrapping():
    def named(x):
        """doc"""
        return x

    d = njit(named)
    assert d.__name__ == "named" and d.__doc__ == "doc" and "CPUDispatcher" in repr(d)


def test_fastmath_allows_reassociation():
    def total(a):
        t = 0.0
        for x in a:
            t += x
        return t

    fast, plain = njit(fastmath=True)(total), njit(total)
    a = np.arange(100.0)
    assert fast(a) == plain(a) == 4950.0
    assert " fast " in list(fast.inspect_llvm().values())[0]
    assert " fast " not in list(plain.inspect_llvm().values())[0]




def test_call_errors_name_the_function_not_its_repr():
    def one(x):
        return x

    f = jit("float64(float64)")(one)
    with pytest.raises(TypeError, match=r"^test_call_errors_name_the_function_not_its_repr"
                                        r"\.<locals>\.one\(\) takes 1 positional argument but "
                                        r"2 were given$"):
        f(1.0, 2.0)
    with pytest.raises(TypeError) as exc:
        f(np.zeros(2))
    assert "<function" not in str(exc.value) and "<locals>.one" in str(exc.value)
    with pytest.raises(TypeError, match=r"has 2 arguments; .*<locals>\.one takes 1$"):
        njit(one).compile(float64(float64, float64))


@njit
def _is_even(n):
    return True if n == 0 else _is_odd(n - 1)


@njit
def _is_odd(n):
    return False if n == 0 else _is_even(n - 1)


def test_mutual_recursion_names_the_function():
    from cujit.errors import TypingError
    with pytest.raises(TypingError, match=r"mutually recursive jitted functions \(_is_even "
                                          r"calls itself back\)"):
        _is_even(4)
