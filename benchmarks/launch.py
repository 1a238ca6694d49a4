"""Kernel launch latency, side by side: cujit, numba-cuda, CuPy RawKernel and a raw
cuLaunchKernel loop in C (the driver's floor). An empty kernel taking 0, 1, 3, 5 device-array
arguments (and 5 CuPy arrays for cujit and numba-cuda); each figure is the mean time per launch
over a loop of launches, then one synchronize, and the best of ROUNDS rounds that alternate
between the libraries (launch times on a shared VM drift by 30% from one minute to the next).
Usage: python benchmarks/launch.py"""
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "pkg"))

N = 20000
ROUNDS = 5
COUNTS = (0, 1, 3, 5)


def kernels(cuda):
    def k0():
        pass

    def k1(a):
        pass

    def k3(a, b, c):
        pass

    def k5(a, b, c, d, e):
        pass

    return {0: cuda.jit(k0), 1: cuda.jit(k1), 3: cuda.jit(k3), 5: cuda.jit(k5)}


def per_launch(launch, args, sync):
    for _ in range(200):
        launch(*args)
    sync()
    t = time.perf_counter()
    for _ in range(N):
        launch(*args)
    sync()
    return (time.perf_counter() - t) / N * 1e6


def bench_cujit():
    from cujit import cuda
    ks = kernels(cuda)
    arrays = [cuda.device_array(16, dtype=np.float32) for _ in range(5)]
    out = {n: per_launch(ks[n][1, 32], arrays[:n], cuda.synchronize) for n in COUNTS}
    try:
        import cupy
        cp = [cupy.zeros(16, dtype=cupy.float32) for _ in range(5)]
        out["cupy5"] = per_launch(ks[5][1, 32], cp, cuda.synchronize)
    except ImportError:
        pass
    return out


def bench_numba():
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack  # numba-cuda 0.30 with NumPy 2.5
    from numba import cuda
    ks = kernels(cuda)
    arrays = [cuda.device_array(16, dtype=np.float32) for _ in range(5)]
    out = {n: per_launch(ks[n][1, 32], arrays[:n], cuda.synchronize) for n in COUNTS}
    try:
        import cupy
        cp = [cupy.zeros(16, dtype=cupy.float32) for _ in range(5)]
        out["cupy5"] = per_launch(ks[5][1, 32], cp, cuda.synchronize)
    except ImportError:
        pass
    return out


def bench_cupy():
    import cupy
    out = {}
    for n in COUNTS:
        params = ", ".join(f"float* a{i}" for i in range(n))
        k = cupy.RawKernel(f'extern "C" __global__ void k({params}) {{}}', "k")
        arrays = tuple(cupy.zeros(16, dtype=cupy.float32) for _ in range(n))
        out[n] = per_launch(lambda *a: k((1,), (32,), a), arrays,
                            cupy.cuda.runtime.deviceSynchronize)
    return out


RAW_C = r"""
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef int (*fn_t)();
int main(int argc, char **argv) {
    int nargs = atoi(argv[1]), n = atoi(argv[2]);
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    fn_t cuInit = (fn_t)dlsym(lib, "cuInit"), cuDeviceGet = (fn_t)dlsym(lib, "cuDeviceGet");
    fn_t cuCtx = (fn_t)dlsym(lib, "cuDevicePrimaryCtxRetain");
    fn_t cuSet = (fn_t)dlsym(lib, "cuCtxSetCurrent");
    fn_t cuLoad = (fn_t)dlsym(lib, "cuModuleLoadData");
    fn_t cuGet = (fn_t)dlsym(lib, "cuModuleGetFunction");
    fn_t cuAlloc = (fn_t)dlsym(lib, "cuMemAlloc_v2");
    fn_t cuLaunch = (fn_t)dlsym(lib, "cuLaunchKernel");
    fn_t cuSync = (fn_t)dlsym(lib, "cuCtxSynchronize");
    int dev; void *ctx, *mod, *fn;
    cuInit(0); cuDeviceGet(&dev, 0); cuCtx(&ctx, dev); cuSet(ctx);
    char ptx[4096];
    int len = snprintf(ptx, sizeof(ptx), ".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry k(");
    for (int i = 0; i < nargs; i++)
        len += snprintf(ptx + len, sizeof(ptx) - len, "%s.param .u64 p%d", i ? ", " : "", i);
    snprintf(ptx + len, sizeof(ptx) - len, ")\n{\nret;\n}\n");
    if (cuLoad(&mod, ptx) || cuGet(&fn, mod, "k")) { fprintf(stderr, "load failed\n"); return 1; }
    unsigned long long ptrs[8]; void *params[8];
    for (int i = 0; i < nargs; i++) { cuAlloc(&ptrs[i], 64); params[i] = &ptrs[i]; }
    for (int i = 0; i < 200; i++) cuLaunch(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
    cuSync();
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++) cuLaunch(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
    cuSync();
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n / 1e3);
    return 0;
}
"""


def bench_raw():
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise RuntimeError("no C compiler")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "raw.c"), os.path.join(tmp, "raw")
        with open(src, "w") as f:
            f.write(RAW_C)
        subprocess.run([cc, "-O2", "-o", exe, src, "-ldl"], check=True)
        return {n: float(subprocess.run([exe, str(n), str(N)], check=True, capture_output=True,
                                        text=True).stdout) for n in COUNTS}


def main():
    results = {}
    benches = [("cujit", bench_cujit), ("numba-cuda", bench_numba),
               ("CuPy RawKernel", bench_cupy), ("raw cuLaunchKernel", bench_raw)]
    skipped = set()
    for _ in range(ROUNDS):
        for name, fn in benches:
            if name in skipped:
                continue
            try:
                got = fn()
            except Exception as exc:
                print(f"{name}: skipped ({type(exc).__name__}: {exc})")
                skipped.add(name)
                continue
            best = results.setdefault(name, got)
            for key, value in got.items():
                best[key] = min(best[key], value)
    rows = [(f"{n} device arrays", n) for n in COUNTS] + [("5 CuPy arrays", "cupy5")]
    print(f"launch latency, us per launch (mean of {N}, best of {ROUNDS} rounds)")
    print(f"{'':18}" + "".join(f"{name:>20}" for name in results))
    for label, key in rows:
        cells = "".join(f"{results[name][key]:>20.2f}" if key in results[name] else f"{'-':>20}"
                        for name in results)
        print(f"{label:18}{cells}")
    if "cujit" in results and "raw cuLaunchKernel" in results:
        r = results["cujit"][5] / results["raw cuLaunchKernel"][5]
        print(f"cujit / raw cuLaunchKernel with 5 arrays: {r:.2f}x (goal <= 1.2x)")


if __name__ == "__main__":
    main()
