"""Memory benchmarks, side by side: cujit vs numba-cuda vs CuPy (whichever are installed).

  * device_array allocation latency: cujit default manager (cuMemAlloc + deferred cuMemFree),
    cujit pool manager (cuMemAllocAsync), numba-cuda (default manager), CuPy (its pool);
  * to_device / copy_to_host bandwidth from pageable and pinned host memory, 4 KB, 1 MB, 256 MB;
  * as_cuda_array(cupy_array) latency (cujit vs numba-cuda).

Usage: python benchmarks/memory.py [--out results.json] [--quick]
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg"))

from cujit import cuda  # noqa: E402

if not hasattr(np, "row_stack"):  # numba-cuda 0.30 still calls np.row_stack
    np.row_stack = np.vstack

try:
    import cupy
except ImportError:
    cupy = None
try:
    from numba import cuda as nb_cuda
    if not nb_cuda.is_available():
        nb_cuda = None
except Exception:  # numba missing or broken
    nb_cuda = None


def per_call_us(fn, n, repeat=5):
    """Median over `repeat` runs of the mean time per call, in microseconds."""
    fn()
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(runs)


def bandwidth_gbs(fn, nbytes, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return nbytes / min(times) / 1e9


def alloc_benchmarks(results, n):
    for size in (1024, 1 << 20):
        row = {}
        cuda.set_memory_manager(cuda.DefaultMemoryManager)
        row["cujit default"] = per_call_us(lambda: cuda.device_array(size, dtype=np.uint8), n)
        cuda.set_memory_manager(cuda.PoolMemoryManager)
        row["cujit pool"] = per_call_us(lambda: cuda.device_array(size, dtype=np.uint8), n)
        cuda.set_memory_manager(cuda.DefaultMemoryManager)
        if nb_cuda is not None:
            row["numba-cuda"] = per_call_us(lambda: nb_cuda.device_array(size, dtype=np.uint8), n)
        if cupy is not None:
            row["cupy pool"] = per_call_us(lambda: cupy.empty(size, dtype=cupy.uint8), n)
        results[f"device_array latency (us), {size} B"] = row


def transfer_benchmarks(results, quick):
    sizes = [(4 << 10, "4 KB", 200), (1 << 20, "1 MB", 50),
             (256 << 20, "256 MB", 3 if quick else 10)]
    for nbytes, label, reps in sizes:
        for kind in ("pageable", "pinned"):
            n = nbytes // 4
            if kind == "pinned":
                host = cuda.pinned_array(n, dtype=np.float32)
                host[:] = 1
            else:
                host = np.ones(n, dtype=np.float32)
            out = np.empty_like(host) if kind == "pageable" else cuda.pinned_array(n, np.float32)
            h2d, d2h = {}, {}
            d = cuda.to_device(host)
            h2d["cujit"] = bandwidth_gbs(lambda: cuda.to_device(host), nbytes, reps)
            cuda.set_memory_manager(cuda.PoolMemoryManager)
            h2d["cujit pool"] = bandwidth_gbs(lambda: cuda.to_device(host), nbytes, reps)
            cuda.set_memory_manager(cuda.DefaultMemoryManager)
            d2h["cujit"] = bandwidth_gbs(lambda: d.copy_to_host(out), nbytes, reps)
            if nb_cuda is not None:
                nd = nb_cuda.to_device(host)
                h2d["numba-cuda"] = bandwidth_gbs(lambda: nb_cuda.to_device(host), nbytes, reps)
                d2h["numba-cuda"] = bandwidth_gbs(lambda: nd.copy_to_host(out), nbytes, reps)
            if cupy is not None:
                c = cupy.asarray(host)

                def cupy_h2d():
                    cupy.asarray(host)
                    cupy.cuda.runtime.deviceSynchronize()

                def cupy_d2h():
                    c.get(out=out)
                    cupy.cuda.runtime.deviceSynchronize()
                h2d["cupy"] = bandwidth_gbs(cupy_h2d, nbytes, reps)
                d2h["cupy"] = bandwidth_gbs(cupy_d2h, nbytes, reps)
            results[f"to_device GB/s, {label} {kind}"] = h2d
            results[f"copy_to_host GB/s, {label} {kind}"] = d2h
            del host, out, d


def interop_benchmarks(results, n):
    if cupy is None:
        return
    c = cupy.arange(1024, dtype=cupy.float32)
    row = {"cujit": per_call_us(lambda: cuda.as_cuda_array(c), n)}
    if nb_cuda is not None:
        row["numba-cuda"] = per_call_us(lambda: nb_cuda.as_cuda_array(c), n)
    row["cupy.asarray(cujit array)"] = per_call_us(lambda: cupy.asarray(cuda.as_cuda_array(c)), n)
    results["as_cuda_array(cupy array) latency (us)"] = row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if not cuda.is_available():
        print("no CUDA GPU: nothing to measure")
        return
    n = 2000 if args.quick else 10000
    results = {}
    alloc_benchmarks(results, n)
    transfer_benchmarks(results, args.quick)
    interop_benchmarks(results, n)
    print(f"device: {cuda.get_current_device().name}")
    for name, row in results.items():
        cells = "  ".join(f"{k}: {v:8.2f}" for k, v in row.items())
        print(f"{name:<40} {cells}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"device": cuda.get_current_device().name, "results": results}, f,
                      indent=1)


if __name__ == "__main__":
    main()
