"""ufunc benchmarks, side by side in one run, as ratios.

CPU section (runs anywhere): throughput of a compiled CPU ufunc (5M float32 add, and the seed's
gaussian_pdf) against numba's CPU vectorize and NumPy's own ufuncs. The CUDA section (issue 5)
runs when a GPU and the CUDA vectorize target are present.
Usage: python benchmarks/ufunc.py"""
import math

import numpy as np

from _common import best_of

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


def add(x, y):
    return x + y


def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)



def cpu_section():
    import cujit
    n = 5_000_000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    out = np.empty_like(x)
    libs = {"cujit": cujit}
    try:
        import numba
        libs["numba"] = numba
    except ImportError:
        print("numba not installed: its rows are skipped")
    rows = {}
    for name, lib in libs.items():
        uadd = lib.vectorize(["float32(float32, float32)"])(add)
        updf = lib.vectorize(["float32(float32, float32, float32)"])(gaussian_pdf)
        rows[name] = (best_of(lambda: uadd(x, y, out=out)),
                      best_of(lambda: updf(x, np.float32(0), np.float32(1), out=out)))
    rows["numpy"] = (best_of(lambda: np.add(x, y, out=out)),
                     best_of(lambda: np.divide(np.exp(-0.5 * ((x - 0) / 1) ** 2), SQRT_2PI, out=out)))
    print(f"CPU ufuncs on {n:,} float32 (best of 15, out= given)")
    print(f"{'':8}{'add ms':>10}{'gaussian ms':>14}")
    for name, (a, g) in rows.items():
        print(f"{name:8}{1e3 * a:10.2f}{1e3 * g:14.2f}")
    if "numba" in rows:
        print(f"cujit/numba add: {rows['cujit'][0] / rows['numba'][0]:.3f}   "
              f"gaussian: {rows['cujit'][1] / rows['numba'][1]:.3f}")


def main():
    cpu_section()
    try:
        from cujit import cuda
        available = cuda.is_available()
    except Exception:
        available = False
    if not available:
        print("CUDA section skipped: no GPU")


if __name__ == "__main__":
    main()
