import os
import shutil
import subprocess

import pytest


def _ptxas():
    path = shutil.which("ptxas")
    if path is None and os.path.exists("/usr/local/cuda/bin/ptxas"):
        path = "/usr/local/cuda/bin/ptxas"
    return path


def _nvvm_available():
    try:
        from cujit import _core
        _core.nvvm_info()
        return True
    except Exception:
        return False


PTXAS = _ptxas()
requires_nvvm = pytest.mark.skipif(not _nvvm_available(), reason="libnvvm not found")
requires_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found")


def ptxas_info(ptx, arch="sm_90", tmp_path=None):
    """Assembles PTX with ptxas -v; returns {kernel: registers}. Fails the test on an error."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        r = subprocess.run([PTXAS, f"-arch={arch}", "-v", "-o", os.path.join(tmp, "k.cubin"),
                            src], capture_output=True, text=True)
    assert r.returncode == 0, f"ptxas rejected the PTX:\n{r.stderr}\n{ptx}"
    regs = {}
    current = None
    for line in r.stderr.splitlines():
        if "Compiling entry function" in line or "Function properties for" in line:
            current = line.split("'")[1] if "'" in line else line.split()[-1]
        if "Used" in line and "registers" in line and current is not None:
            regs[current] = int(line.split("Used")[1].split("registers")[0])
    return regs


@pytest.fixture
def assemble():
    """assemble(ptx) -> {kernel: registers}, through ptxas -arch=sm_90 -v."""
    if PTXAS is None:
        pytest.skip("ptxas not found")
    if not _nvvm_available():
        pytest.skip("libnvvm not found")
    return ptxas_info


@pytest.fixture
def nvvm():
    if not _nvvm_available():
        pytest.skip("libnvvm not found")
