"""Object mode with a lifted loop: cujit vs numba (both jit(forceobj=True), loop lifting on) vs
CPython, side by side in one run, as ratios. The function hashes its input with hashlib (object
mode) and then runs a loop over the array (lifted, compiled in nopython mode).
Usage: python benchmarks/objmode.py [n]"""
import hashlib
import sys
import warnings

import numpy as np

from _common import best_of


def work(data, n):
    tag = hashlib.sha1(data[:16].tobytes()).hexdigest()[:8]
    acc = 0.0
    for i in range(n):
        x = data[i % data.size]
        acc += x * x - 0.5 * x
    return tag, acc


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    data = np.random.default_rng(0).random(4096)
    rows = {}
    import cujit
    f = cujit.jit(forceobj=True)(work)
    expected = work(data, 1000)
    assert f(data, 1000)[0] == expected[0] and abs(f(data, 1000)[1] - expected[1]) < 1e-6
    rows["cujit"] = best_of(lambda: f(data, n), 7)
    try:
        import numba
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = numba.jit(forceobj=True)(work)
            g(data, 1000)
        rows["numba"] = best_of(lambda: g(data, n), 7)
    except ImportError:
        print("numba not installed: skipped")
    rows["cpython"] = best_of(lambda: work(data, n // 20), 1) * 20
    print(f"object mode + one lifted loop, n={n} (best of 7; CPython scaled from n/20)")
    for name, t in rows.items():
        print(f"{name:8}{1e3 * t:12.2f} ms   {t / rows['cujit']:8.2f}x cujit's time")
    if "numba" in rows:
        print(f"cujit/numba: {rows['cujit'] / rows['numba']:.3f}  (goal <= 1.10)")
    print(f"lifted loops: {len(f.lifted)}, compiled for {f.signatures}")


if __name__ == "__main__":
    main()
