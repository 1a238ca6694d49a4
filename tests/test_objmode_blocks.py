"""`with objmode(...)` blocks inside nopython functions (issue 14): results against the same
code run by CPython, numba's rules and error texts, run-time checks of the declared outputs,
the lifetime of arrays made in a block, exceptions, and where blocks are refused."""
import gc
import hashlib
import math
import textwrap
import threading
import traceback
import weakref

import numpy as np
import pytest

import cujit
from cujit import njit, objmode, types
from cujit.errors import TypingError, UnsupportedError

OUT_T = types.intp[:]
REFS = []


def bar(x):
    return np.asarray(list(reversed(x.tolist())))


def numba_doc_example(x, y):
    with objmode(y='intp[:]', z=OUT_T):
        y += bar(x)
        z = y
    return y, z


def test_numba_docstring_example_and_identity():
    f = njit(numba_doc_example)
    x = np.arange(5, dtype=np.intp)
    y = np.zeros_like(x)
    r_y, r_z = f(x, y)
    np.testing.assert_array_equal(r_y, x[::-1])
    # the block got the caller's array and gave it back: the very same object, as numba's
    assert r_y is y and r_z is y
    expected_y = np.zeros_like(x)
    numba_doc_example(x, expected_y)  # objmode does nothing in the interpreter
    np.testing.assert_array_equal(y, expected_y)


def hashed_walk(a, n):
    s = 0.0
    for i in range(n):
        s += a[i % a.size]
        with objmode(h='int64'):
            h = int(hashlib.sha1(repr(round(float(s), 6)).encode()).hexdigest()[:6], 16) % 97
        if h > 50:
            s -= h
        else:
            s += 0.5 * h
    return s


@pytest.mark.parametrize("seed", range(4))
def test_block_in_a_loop_matches_cpython(seed):
    rng = np.random.default_rng(seed)
    a = rng.random(int(rng.integers(1, 20)))
    n = int(rng.integers(0, 60))
    assert njit(hashed_walk)(a, n) == hashed_walk(a, n)


def every_kind(i, f, c, b, t, a, ro):
    with objmode(oi='int32', of='float32', oc='complex128', ob='boolean',
                 ot='UniTuple(int64, 2)', oa='float64[:, ::1]', on='none'):
        oi = i * 3
        of = f / 4
        oc = c * 1j
        ob = not b
        ot = (t[1], t[0])
        oa = np.outer(a, ro)
        on = None
    return oi, of, oc, ob, ot, oa, on


def test_inputs_and_outputs_of_every_kind():
    a = np.arange(3.0)
    ro = np.arange(4.0)
    ro.flags.writeable = False
    args = (7, 2.5, 1 + 2j, True, (4, 5), a, ro)
    got = njit(every_kind)(*args)
    assert got[:5] == (21, 0.625, (1 + 2j) * 1j, False, (5, 4))
    assert type(got[0]) is int and type(got[1]) is float and got[6] is None
    np.testing.assert_array_equal(got[5], np.outer(a, ro))
    assert got[5].flags.c_contiguous and got[5].dtype == np.float64


def branches(x, flag):
    total = 0.0
    if flag:
        with objmode(total='float64'):
            total = math.fsum([x] * 10)
    else:
        for k in range(3):
            with objmode(v='float64'):
                v = float(np.float32(x * k))
            total += v
    with objmode():
        REFS.append(("branches", total))
    return total


@pytest.mark.parametrize("x,flag", [(0.1, True), (0.1, False), (-3.7, True), (2.2, False)])
def test_several_blocks_and_branches(x, flag):
    del REFS[:]
    assert njit(branches)(x, flag) == branches(x, flag)
    assert REFS[0] == REFS[1] == ("branches", branches(x, flag))


def test_annotation_by_global_attribute_and_closure():
    local_t = types.float32

    def inner(x):
        with objmode(a=local_t, b=types.int16, c=OUT_T):
            a = x / 3
            b = 40000  # wraps, as an int16 argument does
            c = np.arange(3)
        return a, b, c
    a, b, c = njit(inner)(1.0)
    assert a == float(np.float32(1 / 3)) and b == np.int16(40000 - 65536)
    np.testing.assert_array_equal(c, [0, 1, 2])


def test_block_reads_closure_variables_and_later_globals():
    scale = 3

    def uses(x):
        with objmode(y='float64'):
            y = x * scale + LATER_GLOBAL
        return y
    f = njit(uses)
    globals()["LATER_GLOBAL"] = 0.5  # defined after decoration: read when the block runs
    assert f(2.0) == 6.5


def _compile_source(src, tmp_path, name):
    path = tmp_path / f"objmode_{name}.py"
    path.write_text("import numpy as np\nfrom cujit import njit, objmode, types\n" +
                    textwrap.dedent(src))
    ns = {"__name__": f"objmode_{name}"}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns[name]


ERRORS = [
    ("extra", """
        @njit
        def extra(x):
            with objmode(y='float64'):
                y = x + 1
            return x
        """, "Invalid type annotation on non-outgoing variables: {'y'}.Suggestion: remove "
             "annotation of the listed variables"),
    ("missing", """
        @njit
        def missing(x):
            with objmode(y='float64'):
                y = x + 1
                z = x + 2
            return y + z
        """, "Missing type annotation on outgoing variable(s): ['z']\n\nExample code: "
             "with objmode(z='<add_type_as_string_here>')"),
    ("positional", """
        @njit
        def positional(x):
            with objmode('float64'):
                y = 1.0
            return x
        """, "objectmode context doesn't take any positional arguments"),
    ("returns", """
        @njit
        def returns(x):
            with objmode(y='float64'):
                return x
            return x
        """, "cannot return, yield, break or continue out of itself"),
    ("breaks", """
        @njit
        def breaks(x):
            for i in range(3):
                with objmode():
                    break
            return x
        """, "cannot return, yield, break or continue out of itself"),
    ("as_target", """
        @njit
        def as_target(x):
            with objmode(y='float64') as ctx:
                y = 1.0
            return y
        """, "without 'as'"),
    ("bad_string", """
        @njit
        def bad_string(x):
            with objmode(y='flt64'):
                y = x
            return y
        """, "Error handling objmode argument 'y'. invalid type 'flt64'"),
    ("unresolved", """
        @njit
        def unresolved(x):
            with objmode(y=NOT_DEFINED_ANYWHERE):
                y = x
            return y
        """, "Error handling objmode argument 'y'. 'NOT_DEFINED_ANYWHERE' cannot be resolved"),
    ("not_a_type", """
        @njit
        def not_a_type(x):
            with objmode(y=np.float64):
                y = x
            return y
        """, "not a cujit type"),
    ("range_input", """
        @njit
        def range_input(x):
            r = range(3)
            with objmode(y='float64'):
                y = len(r)
            return y
        """, "the block uses 'r', of type range_state64"),
]


@pytest.mark.parametrize("name,src,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_numba_errors_at_the_block(tmp_path, name, src, message):
    f = _compile_source(src, tmp_path, name)
    with pytest.raises(TypingError) as info:
        f(1.0)
    text = str(info.value)
    assert message in text
    assert f"objmode_{name}.py\", line" in text and "with objmode(" in text
    assert "cujit compiles in nopython mode" not in text  # the hint is for other errors


@pytest.mark.parametrize("decl,value,message", [
    ("float64", "'text'", "output 'y' is declared float64"),
    ("float64[::1]", "np.arange(10.0)[::2]", "C-contiguous"),
    ("float64[:]", "np.zeros((2, 2))", "dimensions"),
    ("int32[:]", "np.zeros(3)", "expected array(int32, 1d, A)"),
    ("float64[:]", "np.zeros(3); y.flags.writeable = False", "writable"),
    ("int64", "2 ** 70", "does not fit in int64"),
    ("UniTuple(int64, 2)", "(1, 2, 3)", "expected a tuple"),
])
def test_outputs_are_checked_at_run_time(tmp_path, decl, value, message):
    f = _compile_source(f"""
        @njit
        def checked(x):
            with objmode(y={decl!r}):
                y = {value}
            return y
        """, tmp_path, "checked")
    with pytest.raises((TypeError, OverflowError)) as info:
        f(1.0)
    assert message in str(info.value)
    assert "with objmode(): output 'y'" in str(info.value)


def raises_in_block(x):
    with objmode(y='float64'):
        if x > 1:
            raise KeyError(f"too big: {x}")
        y = x
    return y


def test_exceptions_leave_the_block_with_their_traceback():
    f = njit(raises_in_block)
    assert f(0.5) == 0.5
    with pytest.raises(KeyError, match="too big: 2.0") as info:
        f(2.0)
    frames = traceback.extract_tb(info.tb)
    assert any(fr.filename == __file__ and fr.line.startswith("raise KeyError")
               for fr in frames)
    assert f(0.25) == 0.25  # and the function still works


def make_arrays(n):
    total = 0.0
    for i in range(n):
        with objmode(a='float64[:]'):
            a = np.full(4, float(i))
            REFS.append(weakref.ref(a))
        total += a[0] + a[3]
    return total


def test_arrays_made_in_blocks_are_freed_when_the_call_returns():
    del REFS[:]
    f = njit(make_arrays)
    assert f(50) == 2 * sum(range(50))
    gc.collect()
    assert len(REFS) == 50 and all(r() is None for r in REFS)


def returns_block_array():
    with objmode(a='float64[::1]'):
        a = np.arange(6.0)
        REFS.append(weakref.ref(a))
    return a


def test_a_returned_block_array_is_the_object_and_lives_with_the_result():
    del REFS[:]
    r = njit(returns_block_array)()
    assert REFS[0]() is r  # the block's array itself, not a copy
    np.testing.assert_array_equal(r, np.arange(6.0))
    del r
    gc.collect()
    assert REFS[0]() is None


@njit
def inner_with_block(k):
    with objmode(b='float64[:]'):
        b = np.full(3, k)
    return b[0]


def outer_calls_jitted_from_block(k):
    with objmode(a='float64[:]'):
        a = np.full(3, k) * 2
        extra = inner_with_block(k)  # a jitted call inside the block: its own arrays
        a[1] += extra
    s = inner_with_block(k + 1.0)  # a compiled call of a function with a block
    return a[0] + a[1] + a[2] + s


def test_blocks_inside_blocks_and_compiled_callees():
    f = njit(outer_calls_jitted_from_block)
    assert f(2.0) == outer_calls_jitted_from_block(2.0) == 4 + 6 + 4 + 3


def test_threads_run_blocks_concurrently():
    f = njit(hashed_walk)
    a = np.random.default_rng(7).random(9)
    expected = {n: hashed_walk(a, n) for n in range(8, 40, 4)}
    errors = []

    def work(n):
        try:
            for _ in range(5):
                assert f(a, n) == expected[n]
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(n,)) for n in expected]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_py_func_and_the_interpreter():
    f = njit(hashed_walk)
    a = np.arange(1.0, 4.0)
    assert f.py_func(a, 9) == hashed_walk(a, 9)
    with cujit.objmode(x='int64'):  # outside compiled code it does nothing
        x = 5
    assert x == 5
    assert repr(cujit.objmode) == "cujit.objmode"
    assert cujit.objmode is __import__("cujit.withcontexts").withcontexts.objmode_context


def test_refused_in_vectorize_and_cuda():
    def kernel_body(x):
        with objmode(y='float64'):
            y = x * 2
        return y
    with pytest.raises(UnsupportedError, match="vectorize/guvectorize"):
        cujit.vectorize(["float64(float64)"])(kernel_body)
    from cujit import cuda
    with pytest.raises(UnsupportedError, match="objmode"):
        cuda.compile_ptx(kernel_body, "float64(float64)", device=True)


def test_without_source_the_error_names_objmode():
    ns = {"objmode": objmode}
    exec("def nosrc(x):\n    with objmode(y='float64'):\n        y = x\n    return y\n", ns)
    with pytest.raises(UnsupportedError, match="with objmode"):
        njit(ns["nosrc"])(1.0)


def test_typing_errors_suggest_objmode_and_forceobj():
    def untypable(x):
        return x.no_such_attribute

    with pytest.raises(TypingError) as info:
        njit(untypable)(1.0)
    text = str(info.value)
    assert "with cujit.objmode(...)" in text and "jit(forceobj=True)" in text
    assert text.count("cujit compiles in nopython mode") == 1


def test_callers_of_blocks_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path))
    f = njit(cache=True)(hashed_walk)
    a = np.arange(3.0)
    assert f(a, 5) == hashed_walk(a, 5)
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".lock"]


def test_annotated_report_shows_block_lines_red():
    f = njit(branches)
    f(0.5, True)
    page = cujit.annotate(f).html()
    first = branches.__code__.co_firstlineno
    src = __import__("inspect").getsource(branches).splitlines()
    fsum_line = first + next(i for i, ln in enumerate(src) if "math.fsum" in ln)
    row = next(r for r in page.split("<tr") if f'class="lineno">{fsum_line}<' in r)
    assert 'class="objmode"' in row and "runs in Python" in row
    with_line = fsum_line - 1  # the with line itself compiled: the call
    row = next(r for r in page.split("<tr") if f'class="lineno">{with_line}<' in r)
    assert 'class="nopython"' in row
