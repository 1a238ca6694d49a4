"""cuda.reduce / cuda.Reduce without a GPU: the reduction kernel's PTX through ptxas for the
dtypes of both block-reduction paths (warp shuffles; shared memory for the dtypes
shfl_down_sync does not move) and both input layouts, and the host side against the fake driver
(reduce_checks.py). On the GPU: test_reduce_gpu.py."""
import os

import numpy as np
import pytest

from cujit import cuda
from cujit.cuda.kernels import reduction

HERE = os.path.dirname(os.path.abspath(__file__))


def _max(a, b):
    return a if a > b else b


@pytest.mark.parametrize("fn, dtype, layout", [
    (lambda a, b: a + b, "float64", "C"),   # the shuffle path
    (lambda a, b: a + b, "float32", "A"),   # strided input
    (_max, "int32", "C"),
    (lambda a, b: a * b, "uint64", "C"),
    (lambda a, b: a + b, "int8", "C"),       # shared memory: no 8-bit shuffles
    (_max, "float16", "A"),
    (lambda a, b: a + b, "complex128", "C"),
])
def test_reduction_kernel_assembles(assemble, fn, dtype, layout):
    kernel = reduction._reduce_factory(fn, np.dtype(dtype))
    sig = reduction.kernel_signature(dtype, layout)
    kernel.compile(sig)
    ptx = kernel.inspect_asm(sig)
    regs = assemble(ptx)
    assert ".maxnreg 64" in ptx and regs and max(regs.values()) <= 64  # 4 blocks of 256 an SM
    shuffles = "shfl.sync.down" in ptx
    assert shuffles == (dtype in ("float64", "float32", "int32", "uint64"))
    assert "atom.global.add.u32" in ptx and "membar.gl" in ptx  # the last block's ticket


def test_host_side_on_fake_driver(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "reduce_checks.py"))


def test_kernel_runs_in_the_simulator():
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(HERE))
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", PYTHONPATH=os.path.join(root, "pkg"))
    r = subprocess.run([sys.executable, os.path.join(HERE, "reduce_sim_checks.py")], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout[-3000:] + r.stderr[-3000:]
