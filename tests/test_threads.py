"""Compiling from several threads: the first calls of one function from many threads compile
it once, threads compiling their own functions (and callers of cache=True callees) do not
crash, recursion still gives its TypingError and never deadlocks, and a kernel's first
launches from many threads load one version. Each case runs tests/threads_checks.py in a
fresh process (a crash fails the test instead of ending the run), in a few seconds; the
heavier sweeps are marked slow."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS = os.path.join(HERE, "threads_checks.py")
CPU_CHECKS = ["one_function", "own_functions", "cached_callees", "chains", "mutual_recursion"]


def run_check(tmp_path, check, nthreads, switch, rounds):
    root = os.path.dirname(HERE)
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "pkg"), CUJIT_CACHE_DIR=str(tmp_path),
               THREADS_CHECK=check, THREADS_N=str(nthreads), THREADS_SWITCH=str(switch),
               THREADS_ROUNDS=str(rounds))
    r = subprocess.run([sys.executable, CHECKS], cwd=root, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0 and "ALL OK" in r.stdout, \
        f"rc={r.returncode}\n" + r.stdout[-3000:] + r.stderr[-3000:]


@pytest.mark.parametrize("check", CPU_CHECKS)
@pytest.mark.parametrize("switch", [1e-3, 5e-6])
def test_compiling_from_8_threads(tmp_path, check, switch):
    run_check(tmp_path, check, 8, switch, 3)


@pytest.mark.slow
@pytest.mark.parametrize("check", CPU_CHECKS)
@pytest.mark.parametrize("nthreads,switch", [(16, 1e-4), (32, 5e-6)])
def test_compiling_from_many_threads(tmp_path, check, nthreads, switch):
    run_check(tmp_path, check, nthreads, switch, 5)


def test_kernel_first_launches_from_8_threads(run_checks_on_fake_driver, tmp_path):
    from cujit import _core
    try:
        _core.nvvm_info()
    except Exception:
        pytest.skip("libnvvm not found")
    run_checks_on_fake_driver(CHECKS, env={"CUJIT_CACHE_DIR": str(tmp_path),
                                           "THREADS_CHECK": "kernel_first_launch",
                                           "THREADS_SWITCH": "5e-6", "THREADS_ROUNDS": "3"})


# A compilation held in another thread: the on-disk cache's read blocks until released, so the
# claim on (int64,) is held for as long as the script wants.
HELD = r'''
import os, signal, sys, threading, time
import cujit
from cujit import caching
inside, release, parent = threading.Event(), threading.Event(), os.getpid()
real_read = caching.read_entry
def slow_read(*args):
    if os.getpid() == parent and threading.current_thread() is not threading.main_thread():
        inside.set()
        release.wait()
    return real_read(*args)
caching.read_entry = slow_read
@cujit.njit(cache=True)
def f(x):
    return x * 3 + 1
holder = threading.Thread(target=f, args=(2,))
holder.start()
assert inside.wait(30)
'''


def _run_held(tmp_path, script):
    root = os.path.dirname(HERE)
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "pkg"), CUJIT_CACHE_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", HELD + script], cwd=root, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ALL OK" in r.stdout, \
        f"rc={r.returncode}\n" + r.stdout[-3000:] + r.stderr[-3000:]


def test_fork_while_another_thread_compiles(tmp_path):
    # the child has no compiling thread: it compiles the signature itself instead of waiting
    # forever for a claim no one will end; the parent's compilation goes on unharmed
    _run_held(tmp_path, r'''
pid = os.fork()
if pid == 0:
    signal.alarm(20)  # a hang in the child ends it (and fails the check below)
    ok = f(5) == 16 and f(6) == 19 and len(f.overloads) == 1
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
release.set()
holder.join()
assert f(5) == 16 and len(f.overloads) == 1
print("ALL OK")
''')


def test_ctrl_c_while_waiting_for_another_threads_compile(tmp_path):
    # the main thread waits (GIL released) on the holder's claim: SIGINT ends the wait with
    # KeyboardInterrupt; the signature is then compiled once, by the holder
    _run_held(tmp_path, r'''
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
t0 = time.monotonic()
try:
    f(5)
except KeyboardInterrupt:
    pass
else:
    raise AssertionError("the wait was not interrupted")
assert time.monotonic() - t0 < 10
release.set()
holder.join()
assert f(5) == 16 and len(f.overloads) == 1
print("ALL OK")
''')
