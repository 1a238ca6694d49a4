"""Arrays made inside compiled code (issue 10, first part): np.empty/zeros/ones/full and the
*_like forms against NumPy (values, dtypes, shapes, flags), the memory compiled code owns
(abi/nrt.c: reference counted, returned to Python as NumPy arrays over it, no copy), and the
counters that prove every allocation is freed: every test here checks them."""
import gc
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cujit
from cujit import _core, njit, objmode
from cujit.errors import UnsupportedError

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg")


def live_allocations():
    gc.collect()
    made, freed = _core.nrt_stats()
    return made - freed


pytestmark = pytest.mark.usefixtures("nrt_balanced")


SHAPES = [0, 1, 5, (), (3,), (2, 3), (0, 4), (3, 1, 2), (2, 0, 3)]
DTYPES = [None, np.float32, np.int8, np.uint16, np.int64, np.complex64, np.complex128,
          np.bool_, "float32", "i4", float, int, bool, complex, np.dtype("f8"), cujit.float32]


def dtype_name(d):
    return getattr(d, "__name__", str(d))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("fname", ["zeros", "ones", "empty"])
def test_creation_shapes_match_numpy(fname, shape):
    fn = getattr(np, fname)
    got = njit(lambda s: fn(s))(shape)
    want = fn(shape)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.flags.c_contiguous and got.flags.writeable
    assert got.strides == want.strides or want.size == 0  # NumPy 2 gives an empty array 0s
    if fname != "empty":
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_name)
@pytest.mark.parametrize("fname", ["zeros", "ones", "empty"])
def test_creation_dtypes_match_numpy(fname, dtype):
    fn = getattr(np, fname)
    if dtype is None:
        f = njit(lambda: fn((2, 3)))
        want = fn((2, 3))
    else:
        f = njit(lambda: fn((2, 3), dtype=dtype))
        want = fn((2, 3), dtype=np.float32 if dtype is cujit.float32 else dtype)
    got = f()
    assert got.dtype == want.dtype and got.shape == want.shape
    if fname != "empty":
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fill", [3, -2.5, True, 1 + 2j, np.float32(0.1), np.int8(-7)],
                         ids=repr)
@pytest.mark.parametrize("dtype", [None, np.float64, np.int16, np.complex64, np.bool_],
                         ids=dtype_name)
def test_full_matches_numpy(fill, dtype):
    if isinstance(fill, complex) and dtype not in (None, np.complex64):
        return  # NumPy refuses (or warns about) complex -> real
    if dtype is None:
        got, want = njit(lambda v: np.full((4, 2), v))(fill), np.full((4, 2), fill)
    else:
        got = njit(lambda v: np.full((4, 2), v, dtype=dtype))(fill)
        want = np.full((4, 2), fill, dtype=dtype)
    if dtype is None and type(fill) in (bool, int, float, complex):
        # numba types a Python int as int64, a float as float64 (NumPy agrees but for bool)
        assert got.dtype == np.asarray(fill).dtype
    else:
        assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want.astype(got.dtype))


@pytest.mark.parametrize("src", [np.arange(6.0).reshape(2, 3), np.arange(12).reshape(3, 4).T,
                                 np.arange(10, dtype=np.int32)[::3], np.zeros((0, 2))],
                         ids=["C", "F", "strided", "empty"])
def test_like_forms(src):
    f = njit(lambda a: (np.empty_like(a), np.zeros_like(a), np.ones_like(a),
                        np.full_like(a, 7), np.zeros_like(a, dtype=np.float32)))
    e, z, o, full, z32 = f(src)
    for got in (e, z, o, full):
        assert got.shape == src.shape and got.dtype == src.dtype and got.flags.c_contiguous
    np.testing.assert_array_equal(z, np.zeros_like(src))
    np.testing.assert_array_equal(o, np.ones_like(src))
    np.testing.assert_array_equal(full, np.full_like(src, 7))
    assert z32.dtype == np.float32 and z32.shape == src.shape


def test_returned_arrays_own_their_memory():
    f = njit(lambda n: np.arange(0) if False else np.full(n, 1.5))
    before = live_allocations()
    r = f(1000)
    assert live_allocations() == before + 1
    assert type(r.base).__name__ == "MemInfo" and not r.flags.owndata
    r[10] = 3.0  # writable, and it is the memory compiled code wrote
    assert r.sum() == 1.5 * 999 + 3.0
    view = r[5:]
    del r
    assert live_allocations() == before + 1  # the view keeps it
    assert view[5] == 3.0
    del view
    assert live_allocations() == before


def loop_allocates(n):
    s = 0.0
    for i in range(n):
        a = np.empty(8)
        a[0] = i
        b = a  # a second owner of the same allocation
        s += b[0]
    return s


def test_allocations_in_a_loop_are_freed_as_they_go():
    made0, freed0 = _core.nrt_stats()
    assert njit(loop_allocates)(500) == sum(range(500))
    made, freed = _core.nrt_stats()
    assert made - made0 == 500 and freed - freed0 == 500


def fresh_each_time(n):
    s = 0.0
    for i in range(n):
        a = np.empty(4)  # the call's reference moves into `a`
        a[0] = i         # reads of `a` borrow its reference
        b = a[1:]        # a view: a reference of its own
        b[0] = a[0] + 1
        s += a[0] + b[0]
    return s


def test_copies_move_and_borrow_references():
    f = njit(fresh_each_time)
    made0, freed0 = _core.nrt_stats()
    assert f(300) == sum(2 * i + 1 for i in range(300))
    made, freed = _core.nrt_stats()
    assert made - made0 == 300 and freed - freed0 == 300
    ir = next(iter(f.inspect_llvm().values()))
    # one reference for `b` (its view; LLVM may duplicate it on two paths) and the drops of
    # what a loop turn replaces and of what the exit finds; the five temporaries that read `a`
    # and the copy of the new array into `a` count nothing (they took six adds)
    assert ir.count("atomicrmw add") <= 2, ir.count("atomicrmw add")
    assert ir.count("atomicrmw sub") <= 6, ir.count("atomicrmw sub")


def raises_after_allocating(n):
    a = np.zeros(n)
    b = np.ones(n)
    if n > 3:
        raise ValueError("too many")
    return a[0] + b[0]


def test_exceptions_free_what_was_allocated():
    f = njit(raises_after_allocating)
    assert f(2) == 1.0
    with pytest.raises(ValueError, match="too many"):
        f(10)


@njit
def make(n, v):
    return np.full(n, v)


def callers_and_views(n):
    a = make(n, 2.0)
    b = make(n, 3.0)[1:]  # a view of a callee's array, the array itself dropped
    t = (a, b)
    return t, a[0] + b[0]


def test_callees_tuples_and_views():
    (a, b), s = njit(callers_and_views)(4)
    assert s == 5.0 and a.shape == (4,) and b.shape == (3,)
    np.testing.assert_array_equal(b, [3.0, 3.0, 3.0])


KEPT = []


def hands_to_python(n):
    a = np.arange(0) if False else np.zeros(n)
    with objmode():
        KEPT.append(a)  # Python keeps it after the call
    a[0] = 9.0
    return n


def test_arrays_handed_to_python_stay_alive():
    del KEPT[:]
    before = live_allocations()
    njit(hands_to_python)(3)
    assert live_allocations() == before + 1
    assert KEPT[0][0] == 9.0  # the same memory the compiled code wrote after handing it over
    del KEPT[:]


@pytest.mark.parametrize("src,exc,words", [
    ("np.empty(-1)", ValueError, "negative dimensions are not allowed"),
    ("np.zeros((2, -3))", ValueError, "negative dimensions are not allowed"),
    ("np.empty((2**40, 2**40))", ValueError, "array is too big"),
    ("np.empty(2**60, dtype=np.int8)", MemoryError, "cannot allocate memory"),
])
def test_numpy_errors(src, exc, words):
    ns = {"np": np}
    exec(f"def f():\n    return {src}\n", ns)
    with pytest.raises(exc, match=words):
        njit(ns["f"])()


def test_typing_errors():
    with pytest.raises(cujit.TypingError, match="shape must be an int or a tuple of ints"):
        njit(lambda: np.zeros(2.5))()
    with pytest.raises(cujit.TypingError, match="dtype must be a NumPy number type"):
        njit(lambda: np.zeros(3, dtype="not a dtype"))()
    with pytest.raises(UnsupportedError, match="order= other than 'C'"):
        njit(lambda: np.zeros(3, order="F"))()


def test_refused_in_cuda():
    from cujit import cuda

    def kernel(out):
        tmp = np.zeros(4)
        out[0] = tmp[0]
    with pytest.raises(UnsupportedError, match=r"np.zeros\(\) is not supported in CUDA code"):
        cuda.compile_ptx(kernel, "void(float64[:])")


def test_cached_code_allocates_in_a_new_process(tmp_path):
    (tmp_path / "modnrt.py").write_text(textwrap.dedent("""
        import numpy as np
        from cujit import njit

        @njit(cache=True)
        def grid(n):
            g = np.zeros((n, n))
            for i in range(n):
                g[i, i] = i
            return g
    """))
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {PKG!r}); sys.path.insert(0, {str(tmp_path)!r})
        import gc, modnrt
        from cujit import _core
        g = modnrt.grid(5)
        ok = g.trace() == 10 and g.sum() == 10
        del g; gc.collect()
        made, freed = _core.nrt_stats()
        print(ok, modnrt.grid._cache.hits, made - freed)
    """)
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=dict(os.environ, CUJIT_CACHE_DIR=str(tmp_path)))
            .stdout.split() for _ in range(2)]
    assert outs[0] == ["True", "0", "0"] and outs[1] == ["True", "1", "0"]


def iterate_and_drop(n):
    a = np.full(n, 2.0)
    s = 0.0
    for x in a:
        a = np.zeros(1)  # the array being iterated loses its variable: the loop keeps it
        s += x
    return s


def iterators_made_again(n):
    s = 0.0
    for i in range(n):
        b = np.full(3, float(i))
        for x in b:
            s += x
    return s


def test_iterators_keep_their_array():
    assert njit(iterate_and_drop)(50) == 100.0
    made0, freed0 = _core.nrt_stats()
    assert njit(iterators_made_again)(20) == 3 * sum(range(20))
    made, freed = _core.nrt_stats()
    assert made - made0 == 20 and freed - freed0 == 20


def test_rtsys_counts_as_numba_does():
    from cujit.core.runtime import rtsys
    before = rtsys.get_allocation_stats()
    r = njit(lambda: np.ones(3))()
    mid = rtsys.get_allocation_stats()
    assert mid.alloc == before.alloc + 1 and mid.free == before.free
    assert mid.mi_alloc == mid.alloc and mid.mi_free == mid.free
    del r
    gc.collect()
    assert rtsys.get_allocation_stats().free == before.free + 1
