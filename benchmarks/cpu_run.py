"""Run time of the seed mandelbrot on the CPU: cujit vs numba's CPU target vs CPython, side by
side in one run, as ratios. Usage: python benchmarks/cpu_run.py [width height iters]"""
import sys

import numpy as np

from _common import best_of
import mandelbrot as _seed_mandel


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
