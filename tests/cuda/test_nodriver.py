"""Without a driver: import works, is_available() is False, device calls raise
CudaSupportError saying why. Run in a subprocess pointed at a missing libcuda, so it holds on
GPU machines too."""
import os
import subprocess
import sys
import textwrap

import pytest

from cujit import cuda

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_without_driver(code):
    env = dict(os.environ, CUJIT_CUDA_DRIVER="/nonexistent/libcuda.so.1",
               PYTHONPATH=os.path.join(ROOT, "pkg"))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=120)


def test_no_driver_behaviour():
    r = run_without_driver("""
        import numpy as np
        import cujit
        from cujit import cuda
        assert cuda.is_available() is False
        assert cuda.detect() is False
        calls = [
            lambda: cuda.device_array(10), lambda: cuda.to_device(np.ones(3)),
            lambda: cuda.stream(), lambda: cuda.event(), lambda: cuda.synchronize(),
            lambda: cuda.get_current_device(), lambda: cuda.select_device(0),
            lambda: cuda.list_devices(), lambda: len(cuda.gpus), lambda: cuda.gpus[0],
            lambda: cuda.current_context().get_memory_info(), lambda: cuda.pinned_array(4),
            lambda: cuda.mapped_array(4), lambda: cuda.default_stream(),
            lambda: cuda.external_stream(1234),
        ]
        for i, call in enumerate(calls):
            try:
                call()
            except cuda.CudaSupportError as e:
                assert "libcuda" in str(e), str(e)
            else:
                raise AssertionError(f"call {i} did not raise")
        cuda.close()  # nothing to close: no error
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert "CUDA driver/devices not available" in r.stdout
    assert r.stdout.strip().endswith("ok")


def test_error_classes_exported():
    assert issubclass(cuda.CudaSupportError, cujit_errors().CujitError)
    assert issubclass(cuda.CudaAPIError, cujit_errors().CujitError)


def cujit_errors():
    import cujit.errors
    return cujit.errors


@pytest.mark.skipif(cuda.is_available(), reason="this machine has CUDA")
def test_in_process_unavailable():
    assert cuda.is_available() is False
    with pytest.raises(cuda.CudaSupportError):
        cuda.device_array(4)
