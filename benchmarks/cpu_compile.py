"""Compile time of the seed mandelbrot (mandel + create_fractal), cujit vs numba's CPU target.

Each measurement runs in a fresh process. 'cold' is the first compile in the process (numba
initialises its typing and target contexts then); 'warm' compiles a fresh copy after the
compiler has compiled something else. Usage: python benchmarks/cpu_compile.py [repeats]"""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r'''
import json, sys, time
sys.path.insert(0, {here!r}); sys.path.insert(0, {pkg!r})
import numpy as np
import mandelbrot as _seed_mandel
which = {which!r}
if which == "cujit":
    import cujit as lib
else:
    import numba as lib
image = np.zeros((20, 30), dtype=np.uint8)
def timed():
    mandel, fractal = _seed_mandel.build(lib.njit)
    t0 = time.perf_counter()
    fractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    return time.perf_counter() - t0
cold = timed()
warm = timed()
print(json.dumps({{"cold": cold, "warm": warm}}))
'''


def measure(which, repeats):
    pkg = os.path.join(os.path.dirname(HERE), "pkg")
    examples = os.path.join(os.path.dirname(HERE), "examples")
    runs = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", CHILD.format(here=examples, pkg=pkg, which=which)],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    return {k: statistics.median(r[k] for r in runs) for k in ("cold", "warm")}


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    results = {"cujit": measure("cujit", repeats)}
    try:
        results["numba"] = measure("numba", repeats)
    except subprocess.CalledProcessError as exc:
        print("numba unavailable:", exc.stderr.strip().splitlines()[-1:])
    print(f"seed mandelbrot compile (first call on a 30x20 image), median of {repeats} processes")
    print(f"{'':8}{'cold ms':>10}{'warm ms':>10}")
    for name, r in results.items():
        print(f"{name:8}{1e3 * r['cold']:10.1f}{1e3 * r['warm']:10.1f}")
    if "numba" in results:
        for k in ("cold", "warm"):
            ratio = results["cujit"][k] / results["numba"][k]
            print(f"cujit/numba {k}: {ratio:.3f}  (goal <= 0.20)")


if __name__ == "__main__":
    main()
