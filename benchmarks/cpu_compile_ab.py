"""Compile time of the seed mandelbrot in two checkouts, interleaved (A B, B A, ...) so that a
shared machine's changing load falls on both alike: for "before/after" claims of a change.
Each process compiles 25 fresh copies; 'cold' is its first compile, 'warm' the median of the
rest, in CPU time of the process (time.process_time). Reports the medians over processes.
Usage: python benchmarks/cpu_compile_ab.py ROOT_A ROOT_B [rounds]   (ROOT: a checkout, built)"""
import json
import statistics
import subprocess
import sys

CHILD = r'''
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
'''


def main():
    roots = sys.argv[1:3]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    results = {root: [] for root in roots}
    for r in range(rounds):
        for root in roots if r % 2 == 0 else roots[::-1]:
            out = subprocess.run([sys.executable, "-c", CHILD.format(root=root)], check=True,
                                 capture_output=True, text=True).stdout
            times = json.loads(out.strip().splitlines()[-1])
            results[root].append((times[0], statistics.median(times[1:])))
    print(f"seed mandelbrot compile, CPU ms, median of {rounds} processes each (interleaved)")
    for root, runs in results.items():
        cold = 1e3 * statistics.median(c for c, _ in runs)
        warm = 1e3 * statistics.median(w for _, w in runs)
        print(f"{root:40} cold {cold:7.2f}  warm {warm:7.2f}")


if __name__ == "__main__":
    main()
