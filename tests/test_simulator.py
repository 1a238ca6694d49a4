"""The CUDA simulator (issue 14): with CUJIT_ENABLE_CUDASIM=1 (or numba's NUMBA_ENABLE_CUDASIM=1)
cuda.jit kernels run in the interpreter. Each case runs in a fresh process, since the switch is
read when cujit.cuda is imported; tests/simulator_checks.py holds the checks (the seed kernels
against NumPy, barriers, shared and local arrays, atomics, device functions, errors)."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _run(args, extra_env, stdin=None, timeout=120):
    env = {k: v for k, v in os.environ.items() if not k.endswith("_ENABLE_CUDASIM")}
    env.update(PYTHONPATH=os.path.join(ROOT, "pkg"), **extra_env)
    return subprocess.run([sys.executable] + args, env=env, input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


@pytest.mark.slow  # the seed kernels in Python threads: dev/test.sh, not under the sanitizers
def test_simulator_runs_the_seed_kernels_and_the_checks():
    r = _run([os.path.join(HERE, "simulator_checks.py")], {"CUJIT_ENABLE_CUDASIM": "1"})
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-3000:] + r.stderr[-3000:]


def test_numbas_variable_turns_it_on_and_off_is_the_default():
    code = "from cujit import cuda; print(cuda.SIMULATOR)"
    assert _run(["-c", code], {"NUMBA_ENABLE_CUDASIM": "1"}).stdout.strip() == "True"
    assert _run(["-c", code], {"NUMBA_ENABLE_CUDASIM": "0"}).stdout.strip() == "False"
    assert _run(["-c", code], {}).stdout.strip() == "False"


def test_pdb_inside_a_kernel():
    # the course's debugging session: a breakpoint in one thread, inspect, continue
    script = (
        "import numpy as np\n"
        "from cujit import cuda\n"
        "@cuda.jit\n"
        "def k(a):\n"
        "    i = cuda.grid(1)\n"
        "    if i == 5:\n"
        "        breakpoint()\n"
        "    a[i] = i * 2\n"
        "a = np.zeros(8)\n"
        "k[2, 4](a)\n"
        "print('RESULT', a.tolist())\n")
    r = _run(["-c", script], {"CUJIT_ENABLE_CUDASIM": "1", "PYTHONBREAKPOINT": "pdb.set_trace"},
             stdin="p (i, cuda.blockIdx.x, cuda.threadIdx.x)\nc\n")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "(5, 1, 1)" in r.stdout, r.stdout[-2000:]
    assert "RESULT [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]" in r.stdout
