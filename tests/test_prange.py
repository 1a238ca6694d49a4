"""prange under parallel=True (csrc/lower/lower_prange.c, csrc/abi/workqueue.c): loops whose
iterations run on the thread pool give the serial loop's results (reductions, array writes,
ranges with steps, sizes from 0 to many), raise their workers' exceptions, refuse what they
cannot run, and work from several Python threads at once and in a forked child."""
import os
import threading

import numpy as np
import pytest

import cujit
from cujit import prange
from cujit.errors import UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def sum_sq(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * a[i]
    return s


def int_reductions(n, lo, step):
    total = 0
    neg = 0
    prod = 1
    for i in prange(lo, n, step):
        total += i
        neg -= 2 * i
        prod *= 1 + (i % 3 == 0)
    return total, neg, prod


def axpy(a, x, y, out):
    for i in prange(x.shape[0]):
        t = a * x[i]
        out[i] = t + y[i]
    return out


def rows(m):
    out = np.zeros(m.shape[0])
    for i in prange(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * (j + 1)
        out[i] = acc
    return out


SIZES = [0, 1, 2, 3, 7, 64, 1000, 12345]


@pytest.mark.parametrize("n", SIZES)
def test_reductions_and_writes_equal_the_serial_loop(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n)
    par, ser = cujit.njit(parallel=True), cujit.njit
    assert np.isclose(par(sum_sq)(a), ser(sum_sq)(a), rtol=1e-12, atol=0)
    for lo, step in [(0, 1), (3, 2), (-5, 7)]:
        want = ser(int_reductions)(n, lo, step)  # int64 products wrap, as the serial loop's
        assert par(int_reductions)(n, lo, step) == want
        assert want[:2] == int_reductions(n, lo, step)[:2]
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    got = par(axpy)(1.5, x, y, np.empty(n))
    assert np.array_equal(got, 1.5 * x + y)
    m = rng.standard_normal((n % 50, 13))
    assert np.allclose(par(rows)(m), ser(rows)(m), rtol=1e-13)


def min_max(a):
    lo = 1e300
    hi = -1e300
    for i in prange(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(a[i], hi)
    return lo, hi


def int_min(a):
    lo = 100
    for i in prange(a.shape[0]):
        lo = min(lo, a[i] * 3)
    return lo


@pytest.mark.parametrize("n", SIZES)
def test_min_max_reductions(n):
    a = np.random.default_rng(n + 1).standard_normal(n)
    assert cujit.njit(parallel=True)(min_max)(a) == min_max(a)
    b = np.random.default_rng(n).integers(-50, 500, n).astype(np.int32)
    assert cujit.njit(parallel=True)(int_min)(b) == int_min(b)


def test_negative_step_and_empty_ranges():
    @cujit.njit(parallel=True)
    def f(a, b, c):
        s = 0
        for i in prange(a, b, c):
            s += i * i
        return s
    for args in [(10, 0, -3), (5, 5, 1), (0, -4, 1), (100, -100, -7)]:
        assert f(*args) == sum(i * i for i in range(*args))
    with pytest.raises(ValueError, match="must not be zero"):
        f(0, 5, 0)


def test_nested_prange_runs_its_inner_loop_serially():
    @cujit.njit(parallel=True)
    def f(m):
        s = 0.0
        for i in prange(m.shape[0]):
            for j in prange(m.shape[1]):
                s += m[i, j]
        return s
    m = np.arange(600.0).reshape(20, 30)
    assert f(m) == m.sum()


def test_allocations_in_the_body_are_freed():
    @cujit.njit(parallel=True)
    def f(n):
        s = 0.0
        for i in prange(n):
            t = np.arange(i % 5 + 1) * 1.0
            s += t.sum()
        return s
    assert f(997) == sum(float(np.arange(i % 5 + 1).sum()) for i in range(997))


def test_workers_exceptions_reach_the_caller():
    @cujit.njit(parallel=True)
    def f(a):
        for i in prange(a.shape[0]):
            if a[i] < 0:
                raise ValueError("a negative value")
        return 1
    a = np.ones(5000)
    assert f(a) == 1
    a[4321] = -1
    with pytest.raises(ValueError, match="a negative value"):
        f(a)


def test_the_pool_runs_iterations_on_several_threads():
    @cujit.njit(parallel=True)
    def who(n, work):
        out = np.empty(n, np.int64)
        for i in prange(n):
            s = 0.0
            for j in range(work):
                s += j * 0.5
            out[i] = cujit.get_thread_id() + (s < 0)
        return out
    threads = cujit.get_num_threads()
    if threads < 2:
        pytest.skip("one CPU: the pool has one thread")
    seen = set()
    for _ in range(20):
        seen |= set(who(64, 200000).tolist())
        if len(seen) > 1:
            break
    assert seen <= set(range(threads)) and len(seen) > 1
    cujit.set_num_threads(1)
    try:
        assert set(who(64, 10).tolist()) == {0}
    finally:
        cujit.set_num_threads(threads)


def test_thread_settings_api():
    n = cujit.config.NUMBA_NUM_THREADS
    assert n >= 1 and cujit.get_num_threads() == n and cujit.get_thread_id() == 0
    with pytest.raises(ValueError, match=f"between 1 and {n}"):
        cujit.set_num_threads(n + 1)
    with pytest.raises(ValueError):
        cujit.set_num_threads(0)
    with pytest.raises(TypeError, match="must be an integer"):
        cujit.set_num_threads(1.0)
    assert list(prange(2, 9, 3)) == [2, 5, 8]  # plain Python: range


def test_many_python_threads_at_once():
    f = cujit.njit(parallel=True)(sum_sq)
    a = np.arange(20000.0)
    want = float(np.dot(a, a))
    results, errors = [], []

    def call():
        try:
            for _ in range(20):
                results.append(f(a))
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)
    ts = [threading.Thread(target=call) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors and len(results) == 160
    assert np.allclose(results, want, rtol=1e-12)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_a_forked_child_gets_a_working_pool():
    f = cujit.njit(parallel=True)(sum_sq)
    a = np.arange(100000.0)
    want = f(a)  # the parent's pool has started
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: only this thread lives on
        ok = np.isclose(f(a), want, rtol=1e-12)
        os.write(w, b"1" if ok else b"0")
        os._exit(0)
    os.close(w)
    got = os.read(r, 1)
    os.waitpid(pid, 0)
    os.close(r)
    assert got == b"1"


def test_without_parallel_prange_is_range():
    f = cujit.njit(int_reductions)
    assert f(60, 0, 1) == int_reductions(60, 0, 1)


@pytest.mark.parametrize("body, words", [
    ("    x = 1.0\n    for i in prange(n):\n        x = x * 2 + 1\n    return x",
     r"variable 'x' \(line 4\) is carried from one iteration"),
    ("    s = 0\n    for i in prange(n):\n        if i > 3:\n            break\n        s += i\n"
     "    return s", "break.* inside a prange loop"),  # 3.12: "break or return"
    ("    for i in prange(n):\n        if i > 3:\n            return i\n    return 0",
     "return inside a prange loop"),
    ("    s = 0\n    for j in range(3):\n        for i in prange(n):\n            if i > j:\n"
     "                break\n            s += i\n    return s", "break.* inside a prange loop"),
    ("    s = 0\n    for i in prange(n):\n        s += i\n        t = s\n    return s",
     r"variable 's' \(line 4\) is carried"),
    ("    m = 0\n    for i in prange(n):\n        m = min(m, i) + 1\n    return m",
     r"variable 'm' \(line 4\) is carried"),
])
def test_unsupported_bodies(body, words):
    ns = {"prange": prange}
    exec(f"def f(n):\n{body}\n", ns)
    with pytest.raises(UnsupportedError, match=words):
        cujit.njit(parallel=True)(ns["f"])(10)


def test_parallel_diagnostics_lists_the_loops(capsys):
    @cujit.njit(parallel=True)
    def f(a, out):
        s = 0.0
        lo = 1e9
        for i in prange(a.shape[0]):
            t = a[i] * 2
            out[i] = t
            s += t
            lo = min(lo, t)
        return s, lo
    f(np.ones(4), np.ones(4))
    f.parallel_diagnostics(level=4)
    text = capsys.readouterr().out
    assert "runs on the thread pool; reductions: s (+), lo (min); shared: a, out; private: i, t" \
        in text and "function" in text and "array(float64, 1d, C)" in text
    g = cujit.njit(sum_sq)
    g(np.ones(3))
    g.parallel_diagnostics(g.signatures[0])
    assert "No prange loop ran on the thread pool" in capsys.readouterr().out
