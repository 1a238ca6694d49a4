"""isinstance(x, classes) in compiled code: decided at compile time from x's type (numba's
ol_isinstance), so the branch it decides is pruned and the other side is never typed: a
generic function compiles for each argument type. Answers are CPython's where numba's agree,
numba's where they differ (`isinstance(True, int)` and `isinstance(np.int32(1), int)` are False:
numba maps int to int64 only)."""
import numpy as np
import pytest

import cujit
from cujit import njit, typed, types
from cujit.errors import TypingError


def generic(x):
    if isinstance(x, int):
        return x + 1
    else:
        return len(x)


def generic_str_or_number(x):
    if isinstance(x, str):
        return x.upper()
    return str(x + 1)


def which(x):
    if isinstance(x, bool):
        return 0
    if isinstance(x, int):
        return 1
    if isinstance(x, float):
        return 2
    if isinstance(x, complex):
        return 3
    if isinstance(x, str):
        return 4
    if isinstance(x, tuple):
        return 5
    if isinstance(x, list):
        return 6
    if isinstance(x, dict):
        return 7
    if isinstance(x, range):
        return 8
    if isinstance(x, np.ndarray):
        return 9
    return -1


def real_or_complex(x):
    return isinstance(x, (float, complex)), not isinstance(x, (int, str))


def scale(x):
    if isinstance(x, np.ndarray):
        return x.sum() * 2.0
    elif isinstance(x, tuple):
        return float(x[0] + x[1])
    return x * 2.0


def ranges_and_dicts(n):
    r = range(n)
    d = {n: 1.0}
    return isinstance(r, range), isinstance(n, range), isinstance(d, dict), isinstance(r, dict)


def both_ints(a, b):
    return isinstance(a, int) and isinstance(b, int)


def of_none(x):
    return isinstance(x, int)


def numpy_classes(x):
    return isinstance(x, np.float64), isinstance(x, np.float32), isinstance(x, np.int64)


def type_classes(x):
    return isinstance(x, types.Integer), isinstance(x, types.Float), isinstance(x, types.Array)


def typed_containers(x):
    return isinstance(x, typed.List), isinstance(x, list), isinstance(x, typed.Dict)


ARGS = {
    generic: [(3,), ("abcd",), ((1, 2, 3),)],
    generic_str_or_number: [("ab",), (4,), (1.5,)],
    which: [(True,), (5,), (2.5,), (1j,), ("s",), ((1, 2.0),), ([1, 2],),
            (np.zeros(2),)],
    real_or_complex: [(1.0,), (1j,), (3,), ("x",)],
    scale: [(np.arange(3.0),), ((1, 2),), (1.5,), (2,)],
    both_ints: [(1, 2), (1, 2.0), ("a", 3)],
    ranges_and_dicts: [(3,)],
    of_none: [(None,)],
}
COMPILED = {fn: njit(fn) for fn in ARGS}


@pytest.mark.parametrize("fn, args", [(fn, a) for fn, cases in ARGS.items() for a in cases],
                         ids=lambda x: getattr(x, "__name__", None))
def test_against_cpython(fn, args):
    got, want = COMPILED[fn](*args), fn(*args)
    if isinstance(want, np.generic):
        want = want.item()
    assert type(got) is type(want) and got == want, (got, want)


def test_each_argument_type_compiles_its_own_branch():
    f = COMPILED[generic]
    f(3), f("abc")
    sigs = {str(s.args[0]) + "->" + str(s.return_type) for s in f.nopython_signatures}
    assert sigs >= {"int64->int64", "unicode_type->int64"}


def _is_int(x):
    return isinstance(x, int)


@pytest.mark.parametrize("value", [True, np.int32(1), np.uint8(3), np.int64(2)])
def test_numbas_answers_where_cpython_differs(value):
    # numba's as_numba_type(int) is int64 only: bool (an int to CPython) is not one
    assert njit(_is_int)(value) is (cujit.typeof(value) is types.int64)
    assert COMPILED[which](np.float32(1.0)) == -1  # np.float32 is no float, as in CPython


def test_numpy_scalar_classes():
    f = njit(numpy_classes)
    assert f(1.0) == (True, False, False)
    assert f(np.float32(1.0)) == (False, True, False)
    assert f(7) == (False, False, True)


def test_cujit_type_classes():
    f = njit(type_classes)
    assert f(3) == (True, False, False)
    assert f(2.0) == (False, True, False)
    assert f(np.zeros(2)) == (False, False, True)


def test_typed_containers():
    f = njit(typed_containers)
    tl = typed.List()
    tl.append(1)
    assert f(tl) == (True, False, False)
    assert f([1]) == (False, True, False)
    d = typed.Dict.empty(types.int64, types.float64)
    assert f(d) == (False, False, True)


def _optional(a):
    x = None if a < 0 else a
    return isinstance(x, int)


def _class_not_a_class(x):
    return isinstance(x, 5)


class _Foo:
    pass


def _user_class(x):
    return isinstance(x, _Foo)


def _module_var(x):
    return isinstance(np, int)


@pytest.mark.parametrize("fn, text", [
    (_optional, r'isinstance cannot handle optional types. Found: "OptionalType\(int64\)"'),
    (_class_not_a_class, r"No implementation of function Function\(<built-in function "
                         r"isinstance>\) found for signature:\n \n >>> isinstance\(int64, "),
    (_user_class, r"isinstance\(\) does not support the class <class '.*_Foo'>"),
    (_module_var, r'isinstance\(\) does not support variables of type "Module\(<module '),
])
def test_refusals_in_numbas_words(fn, text):
    with pytest.raises(TypingError, match=text):
        njit(fn)(1)
