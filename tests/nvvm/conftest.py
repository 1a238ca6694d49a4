"""Fixtures for the NVVM back end's tests: they need libnvvm (not a GPU) and use ptxas when the
CUDA toolkit has one."""
import os
import shutil
import subprocess

import pytest


def _find_ptxas():
    found = shutil.which("ptxas")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return os.path.join(root, "bin", "ptxas")
    return None


@pytest.fixture(scope="session")
def core():
    from cujit import _core
    try:
        _core.nvvm_info()
    except _core.NvvmError as e:
        pytest.skip(f"libnvvm not available: {e}")
    return _core


@pytest.fixture(scope="session")
def ptxas_check(tmp_path_factory):
    """ptxas_check(ptx, arch) asserts that ptxas assembles the PTX; skips without ptxas."""
    ptxas = _find_ptxas()
    folder = tmp_path_factory.mktemp("ptx")

    def check(ptx, arch="sm_90"):
        if ptxas is None:
            pytest.skip("ptxas not found")
        src = folder / "kernel.ptx"
        src.write_text(ptx)
        run = subprocess.run([ptxas, f"-arch={arch}", "-o", str(folder / "kernel.cubin"),
                              str(src)], capture_output=True, text=True)
        assert run.returncode == 0, f"ptxas rejected the PTX:\n{run.stderr}\n{ptx}"
        return run

    return check
