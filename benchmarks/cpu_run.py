"""Run time on the CPU: cujit vs numba's CPU target (vs CPython for the mandelbrot), side by side
in one run, as ratios.
  (a) the seed mandelbrot;
  (b) scalar kernels over 10**6 elements (issue 16; goal <= 1.05x numba each): a Lennard-Jones
      energy with `sr ** 6` / `sr ** 12`, an int64 sum, a `fastmath=True` float64 sum, a
      `fastmath=True` squared distance `s += (x[i] - y[i]) ** 2`, an axpy loop
      `out[i] = a * x[i] + y[i]`, and a CPU `@vectorize` ufunc called with one array and one
      scalar (`f(values, 8.0)`).
  (c) a Monte-Carlo pi drawing 10**7 random.random() values.
Usage: python benchmarks/cpu_run.py [width height iters]"""
import random
import sys

import numpy as np

from _common import best_of
import mandelbrot as _seed_mandel

N = 10 ** 6


def lennard_jones(r, eps, sigma):
    e = 0.0
    for i in range(r.shape[0]):
        sr = sigma / r[i]
        e += 4.0 * eps * (sr ** 12 - sr ** 6)
    return e


def int_sum(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def float_sum(a):  # compiled with fastmath=True
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def distance2(x, y):  # compiled with fastmath=True
    s = 0.0
    for i in range(x.shape[0]):
        s += (x[i] - y[i]) ** 2
    return s


def axpy(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]


def scaled(v, s):  # the @vectorize kernel, called as f(values, 8.0)
    return v / s + 1.0


def kernels(lib):
    """(name, compiled callable taking no arguments) for one jit library (cujit or numba)."""
    rng = np.random.default_rng(0)
    r = rng.uniform(0.8, 3.0, N)
    ints = rng.integers(-1000, 1000, N)
    x, y = rng.random(N), rng.random(N)
    out = np.empty(N)
    lj = lib.njit(lennard_jones)
    isum = lib.njit(int_sum)
    fsum = lib.njit(fastmath=True)(float_sum)
    dist = lib.njit(fastmath=True)(distance2)
    ax = lib.njit(axpy)
    uf = lib.vectorize(["float64(float64, float64)"])(scaled)
    return [
        ("lennard-jones x**12 - x**6", lambda: lj(r, 0.5, 1.1)),
        ("int64 sum", lambda: isum(ints)),
        ("float64 sum (fastmath)", lambda: fsum(x)),
        ("(x[i]-y[i])**2 sum (fastmath)", lambda: dist(x, y)),
        ("axpy out[i] = a*x[i] + y[i]", lambda: ax(2.5, x, y, out)),
        ("vectorize f(values, 8.0)", lambda: uf(x, 8.0)),
    ]


def scalar_section():
    import cujit
    try:
        import numba
    except ImportError:
        print("numba not installed: the scalar kernels are skipped")
        return
    ours, theirs = kernels(cujit), kernels(numba)
    print(f"\nscalar kernels over {N:,} elements (best of 15; goal cujit/numba <= 1.05)")
    print(f"{'':32}{'cujit ms':>10}{'numba ms':>10}{'cujit/numba':>13}")
    for (name, c), (_, n) in zip(ours, theirs):
        rc, rn = c(), n()
        if isinstance(rc, np.ndarray):
            assert np.array_equal(rc, rn), name
        elif rc is not None:
            assert rc == rn or abs(rc - rn) <= 1e-9 * abs(rn), (name, rc, rn)
        tc, tn = best_of(c, 15), best_of(n, 15)
        print(f"{name:32}{1e3 * tc:10.3f}{1e3 * tn:10.3f}{tc / tn:13.3f}")


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
    compiled = {"cujit": cujit.njit(_pi_kernel)}
    try:
        import numba
        compiled["numba"] = numba.njit(_pi_kernel)
    except ImportError:
        print("numba not installed: skipped")
    for name, kernel in compiled.items():
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
    scalar_section()


if __name__ == "__main__":
    main()
    monte_carlo_pi()
