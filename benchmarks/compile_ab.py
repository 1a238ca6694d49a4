"""Compile time of the seed mandelbrot in two checkouts, interleaved (A B, B A, ...) so that a
shared machine's changing load falls on both alike: for "before/after" claims of a change.
Targets: 'cpu' (njit of mandel + create_fractal, examples/mandelbrot.py, compiled by its first
call) and 'cuda' (cuda.compile_ptx of the seed kernel create_fractal with its device function
mandel, tests/cuda_kernels/seed_kernels.py: typing, lowering, NVVM to PTX; no GPU needed).
Each process compiles 25 fresh copies; 'cold' is its first compile, 'warm' the median of the
rest, in CPU time of the process (time.process_time). Reports the medians over processes.
Usage: python benchmarks/compile_ab.py ROOT_A ROOT_B [rounds] [cpu|cuda|both]
(ROOT: a checkout, built)"""
import json
import statistics
import subprocess
import sys

CHILDREN = {
    "cpu": r'''
import sys, time, json
sys.path.insert(0, {root!r} + "/examples"); sys.path.insert(0, {root!r} + "/pkg")
import numpy as np, mandelbrot as seed, cujit
image = np.zeros((20, 30), dtype=np.uint8)
times = []
for i in range(25):
    mandel, fractal = seed.build(cujit.njit)
    t0 = time.process_time()
    fractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    times.append(time.process_time() - t0)
print(json.dumps(times))
''',
    "cuda": r'''
import sys, time, json
sys.path.insert(0, {root!r} + "/tests/cuda_kernels"); sys.path.insert(0, {root!r} + "/pkg")
import cujit, seed_kernels
from cujit import cuda, float32
times = []
for i in range(25):
    fn, sig = seed_kernels.make(cuda, float32)["create_fractal"]
    t0 = time.process_time()
    ptx, _ = cuda.compile_ptx(fn, sig)
    times.append(time.process_time() - t0)
print(json.dumps(times))
''',
}


def measure(roots, rounds, target):
    results = {root: [] for root in roots}
    for r in range(rounds):
        for root in roots if r % 2 == 0 else roots[::-1]:
            out = subprocess.run([sys.executable, "-c", CHILDREN[target].format(root=root)],
                                 check=True, capture_output=True, text=True).stdout
            times = json.loads(out.strip().splitlines()[-1])
            results[root].append((times[0], statistics.median(times[1:])))
    print(f"seed mandelbrot compile ({target}), CPU ms, median of {rounds} processes each "
          f"(interleaved)")
    medians = []
    for root, runs in results.items():
        cold = 1e3 * statistics.median(c for c, _ in runs)
        warm = 1e3 * statistics.median(w for _, w in runs)
        medians.append((cold, warm))
        print(f"{root:40} cold {cold:7.2f}  warm {warm:7.2f}")
    (ca, wa), (cb, wb) = medians
    print(f"{'ratio B/A':40} cold {cb / ca:7.3f}  warm {wb / wa:7.3f}")


def main():
    roots = sys.argv[1:3]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    which = sys.argv[4] if len(sys.argv) > 4 else "both"
    for target in (["cpu", "cuda"] if which == "both" else [which]):
        measure(roots, rounds, target)


if __name__ == "__main__":
    main()
