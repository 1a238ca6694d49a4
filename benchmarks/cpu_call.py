"""Call overhead of a jitted CPU function (dispatch: typeof, lookup, unbox, call, box),
cujit vs numba, side by side in one run. Usage: python benchmarks/cpu_call.py"""
import timeit

import numpy as np

import _common  # noqa: F401  (the in-place package on the path)


def add(a, b):
    return a + b


def first(x):
    return x[0]


def three(a, b, c):
    return a[0] + b[0] + c


def main():
    import cujit
    libs = {"cujit": cujit}
    try:
        import numba
        libs["numba"] = numba
    except ImportError:
        print("numba not installed: its column is skipped")
    a, b = np.zeros(10), np.ones(10)
    cases = [("add(1, 2)", add, (1, 2)), ("add(1.5, 2.5)", add, (1.5, 2.5)),
             ("first(array)", first, (a,)), ("three(array, array, 3.0)", three, (a, b, 3.0))]
    print(f"{'call':28}" + "".join(f"{name:>12}" for name in libs) + "   ratio")
    for label, fn, args in cases:
        times = []
        for lib in libs.values():
            jitted = lib.njit(fn)
            jitted(*args)
            times.append(min(timeit.repeat(lambda: jitted(*args), number=100000, repeat=5)) / 1e5)
        ratio = f"{times[0] / times[1]:8.2f}" if len(times) > 1 else ""
        print(f"{label:28}" + "".join(f"{1e9 * t:10.0f}ns" for t in times) + ratio)


if __name__ == "__main__":
    main()
