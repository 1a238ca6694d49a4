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
