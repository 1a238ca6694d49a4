"""try/except/else/finally in compiled CPU code (frontend/build_try.c, lower/lower_try.c),
differential against CPython: exceptions raised in the body, by cujit's own checks (division
by zero, bounds with boundscheck=True), by called jitted functions and by objmode blocks, caught
by class, tuple, Exception or a bare except, in loops, nested, re-raised; the allocation
counters come back to zero after each test. Numba supports only `except Exception` and a bare
except; cujit takes any classes known at compile time."""
import numpy as np
import pytest

import cujit
from cujit.errors import TypingError, UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")


@cujit.njit
def callee(x):
    if x < 0:
        raise KeyError("negative")
    if x == 0:
        raise ValueError("zero")
    return x * 2


def by_class(x):
    try:
        r = 10 // x
    except ZeroDivisionError:
        r = -1
    return r


def by_exception(x):
    try:
        if x > 0:
            raise ValueError("positive")
        r = 1
    except Exception:
        r = 2
    return r


def bare(x):
    try:
        r = 7 % x
    except:  # noqa: E722
        r = -7
    return r


def with_else(x):
    try:
        r = 10 // x
    except ZeroDivisionError:
        r = -1
    else:
        r += 100
    return r


def with_finally(x):
    r = 0
    try:
        r = 10 // x
    except ZeroDivisionError:
        r = -2
    finally:
        r += 1000
    return r


def several_clauses(x):
    try:
        r = callee(x)
    except ValueError:
        r = -1
    except (KeyError, IndexError):
        r = -2
    return r


def not_matching_propagates(x):
    try:
        r = callee(x)
    except IndexError:
        r = -1
    return r


def from_callee_any(x):
    try:
        return callee(x)
    except Exception:
        return 0


def in_loop(n):
    s = 0
    for i in range(-2, n):
        try:
            s += 12 // i
        except ZeroDivisionError:
            s += 1000
    return s


def loop_break_continue(n):
    s = 0
    for i in range(n):
        try:
            if i == 5:
                break
            if i % 2:
                raise ValueError
            s += i
        except ValueError:
            s += 100
            continue
        s += 1
    return s


def nested(x, y):
    try:
        try:
            r = 10 // x
        except KeyError:
            r = 3
        r += 10 // y
    except ZeroDivisionError:
        r = 7
    return r


def in_handler(x):
    try:
        raise ValueError("first")
    except ValueError:
        try:
            r = 10 // x
        except ZeroDivisionError:
            r = -9
    return r


def reraise(x):
    try:
        r = 10 // x
    except ZeroDivisionError:
        raise
    return r


def convert(x):
    try:
        r = 10 // x
    except ZeroDivisionError:
        raise ValueError("converted")
    return r


def return_in_try(x):
    try:
        if x:
            return 1
        r = 5
    finally:
        r = 9
    return r


def finally_reraises(x):
    r = 0
    try:
        r = 10 // x
    finally:
        r = r + 1
    return r


def while_retry(n):
    tries = 0
    while True:
        try:
            tries += 1
            if tries < n:
                raise RuntimeError("again")
            break
        except RuntimeError:
            pass
    return tries


def arrays(n):
    a = np.zeros(n)
    try:
        b = np.ones(n) * 2
        if n > 3:
            raise ValueError("big")
        a += b
    except ValueError:
        a -= 1
    return a.sum()


def bounds(a, i):
    s = 0
    for k in range(3):
        try:
            s += a[i + k]
        except IndexError:
            s -= 1
    return s


# pytest rewrites the asserts of a test module: this one is compiled as a user writes it
_ASSERTION = """
def assertion(x):
    try:
        assert x > 0, "x must be positive"
        r = x
    except AssertionError:
        r = 0
    return r
"""
exec(compile(_ASSERTION, "<assertion>", "exec"))


def objmode_error(x):
    try:
        with cujit.objmode(y="int64"):
            y = int("nope") if x else 3
    except ValueError:
        y = -5
    return y


def comprehension_in_try(n):
    # 3.12 inlines the comprehension with its own handler: the try's catches through it
    try:
        items = [10 // (i - 2) for i in range(n)]
        r = len(items)
    except ZeroDivisionError:
        r = -1
    return r


CASES = [
    (comprehension_in_try, [(2,), (5,)]),
    (by_class, [(0,), (3,), (-4,)]),
    (by_exception, [(0,), (2,)]),
    (bare, [(0,), (5,)]),
    (with_else, [(0,), (2,)]),
    (with_finally, [(0,), (2,)]),
    (several_clauses, [(-1,), (0,), (4,)]),
    (not_matching_propagates, [(-1,), (0,), (4,)]),
    (from_callee_any, [(-1,), (0,), (4,)]),
    (in_loop, [(0,), (5,)]),
    (loop_break_continue, [(3,), (10,)]),
    (nested, [(0, 1), (1, 0), (2, 5)]),
    (in_handler, [(0,), (2,)]),
    (reraise, [(0,), (2,)]),
    (convert, [(0,), (2,)]),
    (return_in_try, [(0,), (1,)]),
    (finally_reraises, [(0,), (2,)]),
    (while_retry, [(1,), (4,)]),
    (arrays, [(2,), (5,)]),
    (assertion, [(0,), (3,)]),
    (objmode_error, [(0,), (1,)]),
]


def outcome(fn, args):
    try:
        return "value", fn(*args)
    except Exception as exc:  # the class is compared (cujit's division texts are numba's)
        return "raises", type(exc)


@pytest.mark.parametrize("fn, argsets", CASES, ids=[c[0].__name__ for c in CASES])
def test_matches_cpython(fn, argsets):
    jitted = cujit.njit(fn)
    for args in argsets:
        want = outcome(fn, args)
        got = outcome(jitted, args)
        assert got == want, (fn.__name__, args)
        if want[0] == "value":
            assert type(got[1]) is type(want[1]) or isinstance(want[1], (int, float))


def test_bounds_errors_are_caught_with_boundscheck():
    jitted = cujit.njit(boundscheck=True)(bounds)
    a = np.arange(4)
    for i in (0, 2, 5):
        assert jitted(a, i) == bounds(a, i)


def test_random_divisors_match():
    rng = np.random.default_rng(7)
    jitted = cujit.njit(nested)
    for x, y in rng.integers(-3, 4, size=(40, 2)):
        assert jitted(int(x), int(y)) == nested(int(x), int(y))


def test_reraised_message_is_kept():
    with pytest.raises(ValueError, match="converted"):
        cujit.njit(convert)(0)
    with pytest.raises(ValueError, match="invalid literal"):  # the caught Python one, again
        cujit.njit(lambda x: objmode_reraise(x))(1)


def objmode_reraise(x):
    try:
        with cujit.objmode(y="int64"):
            y = int("nope")
    except ValueError:
        raise
    return y


objmode_reraise = cujit.njit(objmode_reraise)


def test_except_as_name_is_refused_as_numba():
    def named(x):
        try:
            r = 1 // x
        except ZeroDivisionError as e:  # noqa: F841
            r = 0
        return r
    with pytest.raises(UnsupportedError, match=r"Exception object cannot be stored into "
                                               r"variable \(e\)\."):
        cujit.njit(named)(1)


def test_except_clause_must_name_classes():
    def by_value(x):
        try:
            r = 1 // x
        except x:
            r = 0
        return r
    with pytest.raises(TypingError, match="an except clause must name exception classes"):
        cujit.njit(by_value)(1)


def test_try_inside_prange_is_refused():
    def body(n):
        s = 0
        for i in cujit.prange(n):
            try:
                s += 10 // i
            except ZeroDivisionError:
                pass
        return s
    with pytest.raises(UnsupportedError, match="try/except inside a prange loop"):
        cujit.njit(parallel=True)(body)(4)


def test_prange_inside_try_raises_to_the_handler():
    def body(n):
        s = 0
        try:
            for i in cujit.prange(n):
                s += 10 // (i - 2)
        except ZeroDivisionError:
            s = -1
        return s
    assert cujit.njit(parallel=True)(body)(5) == -1
    assert cujit.njit(parallel=True)(body)(2) == body(2)


def test_try_in_a_cuda_kernel_is_refused():
    from cujit import cuda

    def kernel(a):
        try:
            a[0] = 1 // a[1]
        except ZeroDivisionError:
            a[0] = 0
    with pytest.raises(UnsupportedError, match="try/except is not supported in CUDA kernels"):
        cuda.compile_ptx(kernel, "void(int64[:])")


# ---- raise with run-time arguments (numba's dynamic exceptions) ----

@cujit.njit
def raise_runtime(x):
    if x > 0:
        raise ValueError("bad value", x, x * 0.5)
    return x


@cujit.njit
def catch_runtime_in_loop(a):
    caught = 0
    for x in a:
        try:
            if x < 0:
                raise KeyError(x)
        except KeyError:
            caught += 1
    return caught


@cujit.njit
def reraise_runtime(x):
    try:
        raise ValueError(f"x={x}")
    except ValueError:
        if x > 5:
            raise
    return 0


def test_raise_with_run_time_arguments():
    assert raise_runtime(-2) == -2
    with pytest.raises(ValueError) as info:
        raise_runtime(3)
    assert info.value.args == ("bad value", 3, 1.5)
    assert catch_runtime_in_loop([1, -2, -3, 4] * 500) == 1000
    assert reraise_runtime(1) == 0
    with pytest.raises(ValueError) as info:
        reraise_runtime(9)
    assert info.value.args == ("x=9",)


def test_raise_with_run_time_arguments_is_cpu_only():
    from cujit import cuda

    def k(a):
        raise ValueError(a[0])
    with pytest.raises(UnsupportedError, match="constant arguments only"):
        cuda.compile_ptx(k, "void(float32[:])")
