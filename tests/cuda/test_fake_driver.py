"""Runs the device tests (test_device.py) against fake_libcuda.c, a host-memory stand-in for
libcuda, so CI without a GPU exercises the runtime's C paths: allocation, deferred frees and the
flush on out-of-memory, copies, views, streams, events, managers, DLPack, close()."""
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
    out = tmp_path_factory.mktemp("fakecuda") / "libcuda.so.1"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(out),
                    os.path.join(HERE, "fake_libcuda.c")], check=True)
    return str(out)


def test_device_suite_on_fake_driver(fake_driver):
    env = dict(os.environ, CUJIT_CUDA_DRIVER=fake_driver, FAKE_CUDA_MEMORY=str(256 << 20),
               PYTHONPATH=os.path.join(ROOT, "pkg"))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-s",
                        os.path.join(HERE, "test_device.py")],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    assert " passed" in r.stdout and "skipped" not in r.stdout.splitlines()[-1], r.stdout[-2000:]
