import os
import signal
import sys
import threading
import warnings

import numpy as np
import pytest

# numba-cuda 0.30 (the tests' reference on the GPU machine) calls np.row_stack, which NumPy 2.5
# removed; without this the register and typing comparisons there skip instead of comparing.
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack

# run from a checkout without installing: the in-place build lives in pkg/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg"))


@pytest.fixture(autouse=True)
def _sigint_as_python_has_it(request):
    """After each test, SIGINT is Python's own again and not blocked in the main thread. An
    ignored or blocked SIGINT survives fork and exec, so a test (or a library it drives) that
    left one behind made later tests' child processes deaf to Ctrl-C (the interrupt tests then
    hung or read 'not interrupted'); the test that did is named in a warning."""
    yield
    if threading.current_thread() is not threading.main_thread():
        return
    changed = signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    if changed:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if changed or blocked:
        warnings.warn(f"{request.node.nodeid} left SIGINT "
                      f"{'blocked' if blocked else 'handled elsewhere'}: restored")


def _gpu_present():
    try:
        from cujit import cuda
        return cuda.is_available()
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if _gpu_present():
        return
    skip = pytest.mark.skip(reason="no CUDA GPU present")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def fake_launch_driver(tmp_path_factory):
    """A fake libcuda (tests/cuda/fake_libcuda.c + tests/cuda_kernels/fake_launch.c): host
    memory for device memory, and launches recorded instead of run."""
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the fake driver")
    root = os.path.dirname(os.path.abspath(__file__))
    out = tmp_path_factory.mktemp("fakelaunch") / "libcuda.so.1"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(out),
                    os.path.join(root, "cuda", "fake_libcuda.c"),
                    os.path.join(root, "cuda_kernels", "fake_launch.c")], check=True)
    return str(out)


@pytest.fixture
def run_checks_on_fake_driver(fake_launch_driver):
    """run(script, memory, env): runs a check script under the fake driver in a fresh process and
    asserts it printed ALL OK."""
    import subprocess

    def run(script, memory=64 << 20, env=None):
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, CUJIT_CUDA_DRIVER=fake_launch_driver,
                   FAKE_CUDA_MEMORY=str(memory), PYTHONPATH=os.path.join(root, "pkg"),
                   **(env or {}))
        r = subprocess.run([sys.executable, script], cwd=root, env=env, capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-4000:] + r.stderr[-4000:]
    return run


@pytest.fixture
def nrt_balanced():
    """Compiled code's allocations (abi/nrt.c) made during the test are all freed by its end.
    The garbage collector runs only when the counts differ (a full collection costs ~30 ms a
    test): then what is still live after it is a leak. More frees than allocations after it can
    be cycles from earlier tests collected now, so a double free is left to the allocator and
    the sanitizer run, which stop at one."""
    import gc
    from cujit import _core
    made, freed = _core.nrt_stats()
    yield
    made2, freed2 = _core.nrt_stats()
    if made2 - freed2 != made - freed:
        gc.collect()
        made2, freed2 = _core.nrt_stats()
    assert made2 - freed2 <= made - freed, "compiled code leaked an allocation"
