"""Constructs cujit does not compile give a clear Python exception naming them; none crashes."""
import numpy as np
import pytest

import cujit
from cujit import njit
from cujit.errors import TypingError, UnsupportedError


class Interval:
    pass


def plain(x):
    return x


CASES = [
    ("except_as", "def f(x):\n    try:\n        return 1 // x\n    except Exception as e:\n"
     "        return 0\n", (1,), UnsupportedError,
     "Exception object cannot be stored into variable (e)."),
    ("with", "def f(x):\n    with open('x') as g:\n        return x\n", (1,), UnsupportedError,
     "with"),
    ("yield_from", "def f(x):\n    yield from range(x)\n", (1,), UnsupportedError,
     "'yield from'"),
    ("lambda_value", "def f(x):\n    return lambda y: y\n", (1,), UnsupportedError,
     "inner functions or lambdas as values"),
    ("class", "def f(x):\n    class A: pass\n    return x\n", (1,), UnsupportedError, "class"),
    ("fstring_spec", "def f(x):\n    return f'{x:.2f}'\n", (1,), UnsupportedError,
     "format specs in f-strings"),
    ("str_minus", "def f(x):\n    s = 'a' - x\n    return 1\n", (1,), TypingError,
     "(Literal[str]('a'), int64)"),
    ("dict_unpacking", "def f(x):\n    a = {1: x}\n    return {**a}\n", (1,), UnsupportedError,
     "dict unpacking"),
    ("global_class", "def f(x):\n    return Interval(x)\n", (1,), TypingError,
     "Untyped global name 'Interval'"),
    ("plain_call", "def f(x):\n    return plain(x)\n", (1,), TypingError,
     "Untyped global name 'plain'"),
    ("np_function", "def f(a):\n    return np.packbits(a)\n", (np.ones(3),), TypingError,
     "Use of unsupported NumPy function 'numpy.packbits' or unsupported use of the function."),
    ("np_submodule", "def f(a):\n    return np.fft.fft(a)\n", (np.ones(3),), TypingError,
     "Use of unsupported NumPy function 'numpy.fft.fft'"),
    ("builtin_type", "def f(x):\n    return bytes(x)\n", (1,), TypingError,
     "Untyped global name 'bytes': the built-in bytes() is not supported"),
    ("builtin_function", "def f(x):\n    return input(x)\n", (1,), TypingError,
     "Untyped global name 'input': the built-in input() is not supported"),
    ("undefined", "def f(x):\n    return undefined_name + x\n", (1,), TypingError,
     "name 'undefined_name' is not defined"),
    ("cannot_unify", "def f(a):\n    if a[0] > 0:\n        x = a\n    else:\n        x = 1\n"
     "    return x\n", (np.arange(3),), TypingError, "unify"),
    ("tuple_float", "def f(c):\n    x = (1, 2) if c else 1.5\n    return x\n", (True,),
     TypingError, "unify"),
    ("del", "def f(x):\n    del x\n    return 1\n", (1,), UnsupportedError, "del"),
    ("global_store", "def f(x):\n    global G\n    G = x\n    return 1\n", (1,),
     UnsupportedError, "globals"),
    ("attr_store", "def f(x):\n    x.y = 1\n    return 1\n", (1,), UnsupportedError,
     "attribute assignment"),
    ("bad_attr", "def f(x):\n    return x.foo\n", (1,), TypingError, "Unknown attribute 'foo'"),
    ("bad_index", "def f(x):\n    return x[1.5]\n", (np.zeros(3),), TypingError,
     "Invalid use of getitem"),
    ("tuple_oob", "def f(x):\n    t = (1, 2)\n    return t[5]\n", (1,), TypingError,
     "out of range"),
    ("iter_int", "def f(x):\n    for i in x:\n        pass\n    return 1\n", (3,), TypingError,
     "not iterable"),
    ("hetero_tuple_iter", "def f(x):\n    for i in (1, 2.0):\n        pass\n    return 1\n",
     (3,), UnsupportedError, "heterogeneous tuple"),
    ("array_imatmul", "def f(x):\n    x @= x\n    return x\n", (np.zeros((2, 2)),),
     UnsupportedError, "this operator on arrays is not supported yet"),
    ("truth_array", "def f(x):\n    if x:\n        return 1\n    return 0\n", (np.zeros(3),),
     TypingError, "truth value"),
    ("complex_lt", "def f(x):\n    return x < 1j\n", (1j,), TypingError, "No implementation"),
    ("float_and", "def f(x):\n    return x & 1\n", (1.5,), TypingError, "No implementation"),
    ("unpack_count", "def f(x):\n    a, b = (1, 2, 3)\n    return a\n", (1,), TypingError,
     "cannot unpack"),
    ("raise_var_range", "def f(x):\n    raise ValueError(range(x))\n", (1,), UnsupportedError,
     "an exception argument of type range"),
    ("reraise", "def f(x):\n    raise\n", (1,), UnsupportedError, "re-raise"),
    ("recursive_def", "def f(x):\n    def g(y):\n        return g(y - 1) if y else 0\n"
     "    return g(x)\n", (1,), UnsupportedError, "recursion"),
    ("import", "def f(x):\n    import math\n    return x\n", (1,), UnsupportedError, "import"),
    ("print", "def f(x):\n    print(x, end='')\n    return x\n", (1,), UnsupportedError,
     "does not support keyword arguments"),
    ("range_float", "def f(x):\n    for i in range(x):\n        pass\n    return 1\n", (1.5,),
     TypingError, "range"),
    ("setitem_tuple", "def f(x):\n    t = (1, 2)\n    t[0] = 3\n    return 1\n", (1,),
     TypingError, "Invalid use of setitem"),
    ("global_list", "def f(x):\n    return GL[0]\n", (1,), TypingError, "Untyped global name"),
    ("matmul", "def f(x):\n    return x @ x\n", (1,), TypingError, "No implementation"),
]


@pytest.mark.parametrize("name,src,args,exc,words", CASES, ids=[c[0] for c in CASES])
def test_unsupported_construct(name, src, args, exc, words):
    ns = {"Interval": Interval, "plain": plain, "np": np, "GL": [1, 2]}
    exec(compile(src, f"<{name}>", "exec"), ns)
    with pytest.raises(exc) as info:
        njit(ns["f"])(*args)
    assert words in str(info.value)
    assert f"<{name}>" in str(info.value) or exc is TypeError  # names the file


def test_recursion_without_base_case():
    ns = {}
    exec("def f(x):\n    return f(x)\n", ns)
    ns["f"] = njit(ns["f"])
    with pytest.raises(TypingError, match="recursive"):
        ns["f"](1)


def test_cannot_unify_message_in_numbas_words():
    # on 3.11 the two assignments meet at `return x`: "Cannot unify ... for 'x'"; 3.12 copies
    # the return into each branch, so the return types meet: "Can't unify return type ..."
    @njit
    def f(a):
        if a[0] > 0:
            x = a
        else:
            x = 1
        return x

    with pytest.raises(TypingError) as info:
        f(np.arange(3))
    text = str(info.value)
    assert ("Cannot unify array(int64, 1d, C) and int64 for 'x'" in text or
            "Can't unify return type from the following types: array(int64, 1d, C), int64" in text)


def test_star_kwargs_rejected_at_decoration():
    def f(**kw):  # *args compiles (tests/test_starargs_unroll.py)
        return 1

    with pytest.raises(UnsupportedError, match=r"\*\*kwargs"):
        njit(f)


def test_readonly_setitem_is_a_typing_error():
    @njit
    def f(a):
        a[0] = 1.0

    ro = np.zeros(3)
    ro.setflags(write=False)
    with pytest.raises(TypingError, match="Cannot modify readonly array"):
        f(ro)
    f(np.zeros(3))  # the writable version still compiles


def test_error_shows_function_file_line_and_source():
    @njit
    def broken(x):
        y = x.nonexistent
        return y

    with pytest.raises(TypingError) as info:
        broken(1)
    text = str(info.value)
    assert "in test_error_shows_function_file_line_and_source.<locals>.broken" in text
    assert "test_unsupported.py" in text and "y = x.nonexistent" in text


def test_unbound_local_reads_zero_not_garbage():
    @njit
    def f(x):
        if x > 0:
            y = 5
        return y

    assert f(1) == 5 and f(-1) == 0


# ---- numba names cujit does not have yet (pkg/cujit/_missing.py) ----

@pytest.mark.parametrize("stmt, what", [
    ("from cujit import stencil", "cujit.stencil: numba.stencil"),
    ("from cujit import cfunc", "cujit.cfunc: numba.cfunc"),
])
def test_numba_names_not_there_yet_say_so(stmt, what):
    with pytest.raises(NotImplementedError, match="not yet|not supported|use ") as info:
        exec(stmt, {})
    assert what in str(info.value)


def test_other_missing_names_stay_attribute_errors():
    import cujit
    from cujit import cuda
    assert not hasattr(cujit, "no_such_name") and not hasattr(cuda, "no_such_name")
    with pytest.raises(ImportError):
        exec("from cujit import no_such_name", {})
    assert callable(cuda.grid) and callable(cujit.njit)  # real names are untouched
