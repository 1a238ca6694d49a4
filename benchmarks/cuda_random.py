"""1e8 uniform float32 draws on the GPU, side by side: cujit.cuda.random's xoroshiro128+ in a
kernel, the same kernel under numba-cuda, CuPy's cupy.random (cuRAND), and the floor of writing
400 MB at the device's peak bandwidth. Each kernel thread owns one state and writes its draws
with a grid-stride loop; the states are made once, outside the timing (numba-cuda's and ours are
the same bits). Figures: ms per 1e8 draws, best of 5 after a warm-up, and ratios.
Usage: python benchmarks/cuda_random.py [n]"""
import sys
import time

import numpy as np

import _common  # noqa: F401  (puts the in-place package on the path)
from cuda_reduce import floor_seconds

N = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**8
THREADS = 132 * 4 * 256  # enough to fill an H100/H200

KERNEL = """
def fill(states, out):
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, out.shape[0], step):
        out[i] = xoroshiro128p_uniform_float32(states, start)
"""


def kernel(cuda_module, random_module):
    ns = {"cuda": cuda_module,
          "xoroshiro128p_uniform_float32": random_module.xoroshiro128p_uniform_float32}
    exec(KERNEL, ns)
    return cuda_module.jit(ns["fill"])


def best_ms(fn, sync, repeats=5):
    fn()
    sync()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def main():
    from cujit import cuda
    from cujit.cuda import random as R
    dev = cuda.get_current_device()
    rows = {}
    states = R.create_xoroshiro128p_states(THREADS, 1)
    out = cuda.device_array(N, np.float32)
    k = kernel(cuda, R)
    rows["cujit"] = best_ms(lambda: k[THREADS // 256, 256](states, out), cuda.synchronize)
    try:
        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack  # numba-cuda 0.30 with NumPy 2.5
        from numba import cuda as ncuda
        import numba.cuda.random as NR
        nstates = NR.create_xoroshiro128p_states(THREADS, 1)
        nout = ncuda.device_array(N, np.float32)
        nk = kernel(ncuda, NR)
        rows["numba-cuda"] = best_ms(lambda: nk[THREADS // 256, 256](nstates, nout),
                                     ncuda.synchronize)
    except ImportError:
        print("numba-cuda not installed: its column is skipped")
    try:
        import cupy
        rows["CuPy random"] = best_ms(lambda: cupy.random.random(N, dtype=cupy.float32),
                                      cupy.cuda.runtime.deviceSynchronize)
    except ImportError:
        print("CuPy not installed: its column is skipped")
    rows["floor"] = floor_seconds(N * 4)[0] * 1e3  # writing the draws at peak bandwidth
    print(f"{N:.0e} uniform float32 draws on {dev.name}: ms")
    for name, ms in rows.items():
        print(f"  {name:14}{ms:9.3f}   cujit / it: {rows['cujit'] / ms:.2f}")


if __name__ == "__main__":
    main()
