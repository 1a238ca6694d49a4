"""Run time of the seed mandelbrot on the CPU: cujit vs numba's CPU target vs CPython, side by
side in one run, as ratios; then a Monte-Carlo pi drawing 10**7 random.random() values.
Usage: python benchmarks/cpu_run.py [width height iters]"""
import random
import sys

import numpy as np

from _common import best_of
import mandelbrot as _seed_mandel


def _pi_kernel(n):
    inside = 0
    for _ in range(n // 2):
        x = random.random()
        y = random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / (n // 2)


def monte_carlo_pi(draws=10**7):
    """Python's random module in compiled code: pi from `draws` random.random() values, after
    the same seed in both (cujit seeds as CPython, numba as NumPy: the estimates differ)."""
    import cujit
    rows = {}
    kernels = {"cujit": cujit.njit(_pi_kernel)}
    try:
        import numba
        kernels["numba"] = numba.njit(_pi_kernel)
    except ImportError:
        print("numba not installed: skipped")
    for name, kernel in kernels.items():
        rows[name] = best_of(lambda: kernel(draws), 7)
    print(f"Monte-Carlo pi, {draws} random.random() draws (best of 7)")
    for name, t in rows.items():
        print(f"{name:8}{1e3 * t:12.2f} ms   {t / rows['cujit']:8.2f}x cujit's time")
    if "numba" in rows:
        print(f"cujit/numba run time: {rows['cujit'] / rows['numba']:.3f}  (goal <= 1.10)")


def main():
    width, height, iters = (int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else (1500, 1000, 20)
    image = np.zeros((height, width), dtype=np.uint8)
    args = (-2.0, 1.0, -1.0, 1.0, image, iters)
    rows = {}
    import cujit
    _, fractal = _seed_mandel.build(cujit.njit)
    fractal(*args)
    expected = image.copy()
    rows["cujit"] = best_of(lambda: fractal(*args), 7)
    try:
        import numba
        _, nfractal = _seed_mandel.build(numba.njit)
        nfractal(*args)
        assert (image == expected).all()
        rows["numba"] = best_of(lambda: nfractal(*args), 7)
    except ImportError:
        print("numba not installed: skipped")
    # CPython on a 1/25 of the pixels, scaled up
    small = np.zeros((height // 5, width // 5), dtype=np.uint8)
    _, pyfractal = _seed_mandel.build(None)
    rows["cpython"] = best_of(lambda: pyfractal(-2.0, 1.0, -1.0, 1.0, small, iters), 1) * 25
    print(f"seed mandelbrot {width}x{height}, {iters} iterations (best of 7; CPython scaled "
          f"from {width // 5}x{height // 5})")
    for name, t in rows.items():
        print(f"{name:8}{1e3 * t:12.2f} ms   {t / rows['cujit']:8.2f}x cujit's time")
    if "numba" in rows:
        print(f"cujit/numba run time: {rows['cujit'] / rows['numba']:.3f}  (goal <= 1.10)")


if __name__ == "__main__":
    main()
    monte_carlo_pi()
