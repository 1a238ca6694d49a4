"""The C launch path against a fake libcuda (tests/cuda/fake_libcuda.c + fake_launch.c): the
parameters cuLaunchKernel receives, NumPy copies, eager conversions, the debug exception
record, configurations and per-signature resources. No GPU needed."""
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the fake driver")
    out = tmp_path_factory.mktemp("fakelaunch") / "libcuda.so.1"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(out),
                    os.path.join(ROOT, "tests", "cuda", "fake_libcuda.c"),
                    os.path.join(HERE, "fake_launch.c")], check=True)
    return str(out)


def test_launch_path_on_fake_driver(fake_driver, nvvm):
    env = dict(os.environ, CUJIT_CUDA_DRIVER=fake_driver, FAKE_CUDA_MEMORY=str(64 << 20),
               PYTHONPATH=os.path.join(ROOT, "pkg"))
    r = subprocess.run([sys.executable, os.path.join(HERE, "launch_checks.py")], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-4000:] + r.stderr[-4000:]
