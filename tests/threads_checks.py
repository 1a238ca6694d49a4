"""Compiling from several threads (run by test_threads.py in a subprocess, so a crash is a
failure and not the end of the run), with $CUJIT_CACHE_DIR set and THREADS_CHECK (a check's
name without check_), THREADS_N, THREADS_SWITCH (sys.setswitchinterval) and THREADS_ROUNDS. Each round writes fresh functions to a module in that folder
(linecache and the cache read it while other threads run), starts the threads together and
checks every result, then prints ALL OK."""
import importlib
import os
import sys
import threading

import numpy as np

from cujit import njit

HEADER = "from cujit import njit\n\n"


def fresh_module(name, source):
    folder = os.environ["CUJIT_CACHE_DIR"]
    path = os.path.join(folder, name + ".py")
    with open(path, "w") as f:
        f.write(HEADER + source)
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def together(nthreads, work):
    """Runs work(i) in nthreads threads started at once; the exceptions they raised."""
    barrier, errors = threading.Barrier(nthreads), []

    def run(i):
        barrier.wait()
        try:
            work(i)
        except BaseException as exc:  # reported by the caller
            errors.append(exc)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def assert_none(errors):
    assert not errors, [repr(e) for e in errors[:4]]


def loop_body(k, cache=""):
    return (f"@njit({cache})\ndef f{k}(n):\n    s = 0\n    for i in range(n):\n"
            f"        s += i * {k + 1}\n    return s\n\n")


def check_one_function(nthreads, rnd):
    """The first calls of one function from every thread: one compile, every call right."""
    m = fresh_module(f"one_{rnd}", loop_body(0))
    assert_none(together(nthreads, lambda i: m.f0(10) == 45 or 1 / 0))
    assert len(m.f0.signatures) == 1, m.f0.signatures


def check_own_functions(nthreads, rnd):
    """Each thread compiles its own functions (two signatures each)."""
    m = fresh_module(f"own_{rnd}", "".join(loop_body(k) for k in range(nthreads)))

    def work(i):
        f = getattr(m, f"f{i}")
        assert f(10) == 45 * (i + 1) and f(np.int32(10)) == 45 * (i + 1)
    assert_none(together(nthreads, work))


def check_cached_callees(nthreads, rnd):
    """Callers of fresh cache=True callees, and one cache=True function from every thread."""
    src = "".join(loop_body(k, "cache=True") for k in range(nthreads))
    src += "".join(f"@njit\ndef g{k}(n):\n    return f{k}(n) + 1\n\n" for k in range(nthreads))
    m = fresh_module(f"cached_{rnd}", src)
    assert_none(together(nthreads, lambda i: getattr(m, f"g{i}")(10) == 45 * (i + 1) + 1 or 1 / 0))
    m = fresh_module(f"cached_one_{rnd}", loop_body(0, "cache=True"))
    assert_none(together(nthreads, lambda i: m.f0(10) == 45 or 1 / 0))
    assert len(m.f0.signatures) == 1, m.f0.signatures


def check_chains(nthreads, rnd):
    """Threads start a chain of callers h0 -> h1 -> ... at different links: a compilation
    waits for another thread's while holding its own claim, with no circle and no error."""
    links = 6
    src = "".join(f"@njit\ndef h{k}(x):\n    return h{k + 1}(x) + 1\n\n" for k in range(links))
    m = fresh_module(f"chain_{rnd}", src + f"@njit\ndef h{links}(x):\n    return x\n")
    assert_none(together(nthreads, lambda i: getattr(m, f"h{i % links}")(1) == 1 + links - i %
                         links or 1 / 0))


def check_mutual_recursion(nthreads, rnd):
    """c and d calling each other back is a TypingError in every thread, as in one thread,
    however the threads meet (no deadlock)."""
    m = fresh_module(f"mutual_{rnd}", """
@njit
def c(x):
    if x > 0:
        return d(x - 1)
    return x


@njit
def d(x):
    if x > 0:
        return c(x - 1)
    return x
""")
    errors = together(nthreads, lambda i: (m.c, m.d)[i % 2](3))
    assert len(errors) == nthreads, errors
    assert all("mutually recursive" in str(e) for e in errors), errors


def check_kernel_first_launch(nthreads, rnd):
    """The first launches of one kernel (with a device function) from every thread, on the
    fake driver: one compile, one loaded version, every launch done."""
    from cujit import cuda
    m = fresh_module(f"kernel_{rnd}", f"""from cujit import cuda


@cuda.jit(device=True)
def twice(x):
    return 2 * x + {rnd}


@cuda.jit
def fill(a, x):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = twice(x)
""")
    arrays = [cuda.device_array(32) for _ in range(nthreads)]
    assert_none(together(nthreads, lambda i: m.fill[1, 32](arrays[i], float(i))))
    assert len(m.fill.overloads) == 1 and m.fill._launcher.loaded == 1, m.fill.overloads
    if rnd % 2:  # another thread may clear the device functions at any time
        from cujit import _core
        _core.cuda_clear_device_cache()


if __name__ == "__main__":
    env = os.environ
    sys.setswitchinterval(float(env.get("THREADS_SWITCH", "0.005")))
    check = globals()["check_" + env["THREADS_CHECK"]]
    for rnd in range(int(env.get("THREADS_ROUNDS", "1"))):
        check(int(env.get("THREADS_N", "8")), rnd)
    print("ALL OK")
