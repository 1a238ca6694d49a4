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


PLUGIN = '''
from cujit import cuda
allocations = []

class LoggingManager(cuda.GetIpcHandleMixin, cuda.HostOnlyCUDAMemoryManager):
    def initialize(self):
        pass

    def memalloc(self, size):
        allocations.append(size)
        mem = cuda.DefaultMemoryManager(context=self.context).memalloc(size)
        return cuda.MemoryPointer(self.context, mem.device_pointer_value, size, owner=mem)

    def get_memory_info(self):
        raise NotImplementedError

    @property
    def interface_version(self):
        return 1

_cujit_memory_manager = LoggingManager
'''


def run_env(fake_driver, tmp_path, manager, code):
    env = dict(os.environ, CUJIT_CUDA_DRIVER=fake_driver, CUJIT_CUDA_MEMORY_MANAGER=manager,
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "pkg"), str(tmp_path)]))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)


def test_memory_manager_environment_variable(fake_driver, tmp_path):
    (tmp_path / "logging_plugin.py").write_text(PLUGIN)
    r = run_env(fake_driver, tmp_path, "logging_plugin",
                "import numpy as np, logging_plugin\n"
                "from cujit import cuda\n"
                "d = cuda.to_device(np.arange(10.0))\n"
                "assert logging_plugin.allocations == [80], logging_plugin.allocations\n"
                "assert isinstance(d.gpu_data, cuda.MemoryPointer)\n"
                "print('ok')\n")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    r = run_env(fake_driver, tmp_path, "pool",
                "from cujit import cuda\n"
                "assert cuda.device_array(4).gpu_data.kind == 'pool'\nprint('ok')\n")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    r = run_env(fake_driver, tmp_path, "no_such_plugin_module",
                "from cujit import cuda\n"
                "try:\n    cuda.device_array(3)\nexcept RuntimeError as e:\n    print(e)\n")
    assert r.returncode == 0 and "CUJIT_CUDA_MEMORY_MANAGER" in r.stdout, r.stderr
