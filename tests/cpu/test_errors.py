"""PYTEST_DONT_REWRITE (functions below are compiled; their asserts must stay plain)

Error paths: TypingError texts in numba's words, with the function, file:line and source line;
UnsupportedError for constructs outside the subset; read-only arrays. Each message was checked
against numba 0.68 (CUJIT_TEST_ORACLE=numba runs this file against numba); the assertions are on key
phrases, not whole texts. Where numba's phrasing changed across versions, both are accepted."""
import inspect
import os
import re

import numpy as np
import pytest

import _harness as H

pytestmark = pytest.mark.skipif(not H.HAVE_COMPILER, reason=H.SKIP_REASON)

if H.is_numba():
    from numba.core.errors import UnsupportedBytecodeError
    UNSUPPORTED = (H.UnsupportedError, UnsupportedBytecodeError)
else:
    UNSUPPORTED = H.UnsupportedError

numba_supports = pytest.mark.skipif(H.is_numba(), reason="numba supports this construct; "
                                    "cujit's subset (issue 2) rejects it")


def _line_of(func, text):
    """The absolute line number of the first source line of func containing text."""
    lines, start = inspect.getsourcelines(func)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError(f"{text!r} not in {func.__name__}")


def _assert_located(msg, func, *texts):
    """The message names the function, this file and the line, and shows the source line (any one
    of `texts`: a unification error may point at either assignment)."""
    fname = os.path.basename(__file__)
    assert func.__name__ in msg, f"function name missing from:\n{msg}"
    for text in texts:
        line = _line_of(func, text)
        if re.search(re.escape(fname) + r'"?(, line |:| \()' + str(line) + r"\b", msg) \
                and text in msg:
            return
    raise AssertionError(f"none of the source lines {texts} located in:\n{msg}")


def _typing_error(func, *args):
    with pytest.raises(H.TypingError) as info:
        H.njit(func)(*args)
    return re.sub(r"\x1b\[[0-9;]*m", "", str(info.value))  # numba colours its messages


# ---------------------------------------------------------------- unification

def array_or_scalar(x, sel):
    for i in range(10):
        if i == 8:
            x = 10
        else:
            x[0] = 10


def test_cannot_unify_array_and_int():
    msg = _typing_error(array_or_scalar, np.zeros(3, dtype=np.int64), 1)
    assert re.search(r"Cannot unify array\(int64, 1d, C\) and (int64|Literal\[int\]\(10\)) "
                     r"for 'x", msg), msg
    _assert_located(msg, array_or_scalar, "x[0] = 10", "x = 10")


def tuple_or_float(a, b, c):
    if c:
        ret = a
    else:
        ret = b
    return ret


# CPython 3.12 copies a small `return x` into both branches, so the two assignments meet at the
# return instead of at `x`: numba (and cujit) then report the return-type form of the error.
UNIFY_RETURN = r"Can't unify return type from the following types: "


def test_cannot_unify_tuple_and_float():
    msg = _typing_error(tuple_or_float, (1, 2), 1.5, True)
    assert re.search(r"(Cannot unify|" + UNIFY_RETURN + r") ?(UniTuple\(int64 x 2\)(,| and) "
                     r"float64|float64(,| and) UniTuple\(int64 x 2\))", msg), msg
    assert "tuple_or_float" in msg


# ---------------------------------------------------------------- setitem

def one_d_then_two_d(x):
    x[0] = 10.0
    x[0, 0] = 2.0


SETITEM = (r"(Invalid use of setitem with argument\(s\) of type\(s\)"
           r"|No implementation of function Function\(<built-in function setitem>\) found for "
           r"signature)")


def test_invalid_setitem():
    msg = _typing_error(one_d_then_two_d, np.zeros(3, dtype=np.int64))
    assert re.search(SETITEM, msg), msg
    assert "array(int64, 1d, C)" in msg
    assert re.search(r"UniTuple\((int64|Literal\[int\]\(0\)) x 2\)", msg), msg
    _assert_located(msg, one_d_then_two_d, "x[0, 0] = 2.0")


def write_first(a):
    a[0] = 1.0
    return a[0]


def test_setitem_readonly_array_is_typing_error():
    r = np.zeros(3)
    r.flags.writeable = False
    msg = _typing_error(write_first, r)
    assert re.search(SETITEM, msg), msg
    assert "readonly array(float64, 1d, C)" in msg
    assert r[0] == 0.0  # nothing ran


def test_setitem_readonly_is_compile_time():
    # the error comes from compiling for the read-only type, before any element is written
    r = np.zeros(3)
    r.flags.writeable = False
    d = H.njit(write_first)
    with pytest.raises(H.TypingError):
        d(r)
    assert d(np.zeros(3)) == 1.0  # the writeable type still compiles


READONLY_GLOBAL = np.zeros(4)


def write_global(i):
    READONLY_GLOBAL[i] = 1.0
    return i


def test_setitem_on_global_array_is_typing_error():
    msg = _typing_error(write_global, 1)
    assert "readonly array(float64, 1d, C)" in msg
    assert READONLY_GLOBAL[1] == 0.0


# ---------------------------------------------------------------- globals, attributes, calls

class Interval:
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi


def make_interval(x):
    return Interval(x, x + 1)


def test_untyped_global_name():
    msg = _typing_error(make_interval, 1)
    assert "Untyped global name 'Interval'" in msg
    _assert_located(msg, make_interval, "return Interval(x, x + 1)")


def undefined_global(x):
    return NotDefinedAnywhere(x)  # noqa: F821


def test_undefined_global_name():
    msg = _typing_error(undefined_global, 1)
    assert re.search(r"(Untyped global name 'NotDefinedAnywhere'"
                     r"|name 'NotDefinedAnywhere' is not defined)", msg), msg


def unknown_attribute(x):
    return x.foo


def test_unknown_attribute():
    msg = _typing_error(unknown_attribute, 1)
    assert "Unknown attribute 'foo' of type int64" in msg
    _assert_located(msg, unknown_attribute, "return x.foo")


def abs_two_args(x):
    return abs(x, x)


def test_no_implementation_for_signature():
    msg = _typing_error(abs_two_args, 1)
    assert re.search(r"(No implementation of function Function\((<built-in function )?abs>?\)"
                     r"|Invalid use of .*abs)", msg), msg
    assert "(int64, int64)" in msg


def bitwise_float(x, y):
    return x & y


def test_invalid_operator_types():
    msg = _typing_error(bitwise_float, 1.5, 2.5)
    assert "float64" in msg
    assert re.search(r"(No implementation of function Function\(<built-in function (and_|&)>\)"
                     r"|Invalid use of .*(and_|&))", msg), msg


def compare_complex(a, b):
    return a < b


def test_complex_ordering_is_typing_error():
    _typing_error(compare_complex, 1j, 2j)


def too_many_args_callee(a):
    return a


def too_many_args(a):
    return too_many_args_callee(a, a)


def test_call_with_wrong_arity_is_typing_error():
    callee = H.njit(too_many_args_callee)
    g = dict(too_many_args.__globals__)
    g["too_many_args_callee"] = callee
    import types
    f = types.FunctionType(too_many_args.__code__, g, "too_many_args")
    with pytest.raises(H.TypingError):
        H.njit(f)(1)


def test_error_is_raised_again_on_next_call():
    d = H.njit(unknown_attribute)
    for _ in range(2):
        with pytest.raises(H.TypingError):
            d(1)
    assert d.nopython_signatures == []


# ---------------------------------------------------------------- unsupported constructs

def uses_with(x):
    with open("never") as fh:  # noqa: F841
        return x


def defines_class(x):
    class A:
        pass
    return x


def uses_try(x):
    try:
        return 1 // x
    except Exception:
        return 0


def uses_yield(x):
    yield x


def uses_list_comprehension(x):
    return [i for i in range(x)]


def uses_dict_comprehension(x):
    return {i: i for i in range(x)}


def uses_string_constant(x):
    s = "abc"
    return s


def uses_string_argument(s):
    return len(s)


def _unsupported(func, *args):
    with pytest.raises(UNSUPPORTED) as info:
        H.njit(func)(*args)
    return str(info.value)


def test_with_is_unsupported():
    msg = _unsupported(uses_with, 1)
    assert re.search(r"(?i)with", msg), msg


def test_class_definition_is_unsupported():
    msg = _unsupported(defines_class, 1)
    assert re.search(r"(?i)(class|LOAD_BUILD_CLASS)", msg), msg


def test_try_compiles():  # tests/test_try_except.py covers them
    assert H.njit(uses_try)(0) == 0 and H.njit(uses_try)(1) == 1


@numba_supports
def test_yield_makes_a_generator():  # tests/test_generators.py covers them
    assert list(H.njit(uses_yield)(3)) == [3]


def test_list_comprehension_compiles():  # tests/test_lists.py covers them
    assert H.njit(uses_list_comprehension)(3) == [0, 1, 2]


def test_dict_comprehension_compiles():  # supported since the dicts of issue 13
    assert dict(H.njit(uses_dict_comprehension)(3)) == uses_dict_comprehension(3)


def test_strings_compile():  # tests/test_strings.py covers them
    assert H.njit(uses_string_constant)(1) == "abc"
    assert H.njit(uses_string_argument)("ab") == 2


# ---------------------------------------------------------------- runtime exceptions

def raises_value_error(x):
    if x > 0:
        raise ValueError("positive")
    return x


def test_raise_propagates_with_message():
    d = H.njit(raises_value_error)
    with pytest.raises(ValueError, match="^positive$"):
        d(1)
    assert d(-1) == -1


def asserts(x):
    assert x > 0, "x must be positive"
    return x


def test_assert_propagates():
    with pytest.raises(AssertionError, match="x must be positive"):
        H.njit(asserts)(0)


def int_div(a, b):
    return a // b


def test_zero_division_error_is_python_exception():
    with pytest.raises(ZeroDivisionError):
        H.njit(int_div)(1, 0)
