"""Arrays made inside compiled code (issue 10): cujit vs numba vs NumPy vs the memory floor, side
by side in one run, as ratios of cujit's time, and each jit's first call (compile + run).
  (a)  a*b + c*d - e on 10**7 float64 (fused into one loop, as numba does);
  (a2) np.sqrt(a*a + b*b) * np.sign(a) on 10**7 float64 (ufuncs fused with operators);
  (b)  a.sum() and (b2) a.mean(axis=0) of 4000x4000 float64;
  (c)  10**6 calls of a jitted function returning np.empty(4), from Python (call + allocate +
       box + free), and 10**6 np.empty(4) inside one compiled loop;
  (d)  np.dot of two 1000x1000 float64 (the process's BLAS);
  (e)  np.random.normal(0, 1, 10**7) (NumPy's legacy stream, as numba's);
  (f)  np.sort of 10**7 float64.
The floor of a streaming row is the bytes it must move at the bandwidth of np.copyto on 10**7
float64 (read + write). Usage: python benchmarks/cpu_arrays.py"""
import time
import warnings

import numpy as np

from _common import best_of


def returns_empty():
    return np.empty(4)


def allocates_in_loop(n):
    s = 0.0
    for i in range(n):
        a = np.empty(4)
        a[0] = i
        s += a[0]
    return s


def zeros_and_walk(n):
    z = np.zeros((n, n))
    s = 0.0
    for i in range(n):
        s += z[i, i] + 1.0
    return s


def expression(a, b, c, d, e):
    return a * b + c * d - e


def hypot_sign(a, b):
    return np.sqrt(a * a + b * b) * np.sign(a)


def total(a):
    return a.sum()


def column_means(a):
    return a.mean(axis=0)


def matmul(a, b):
    return np.dot(a, b)


def normals(n):
    return np.random.normal(0.0, 1.0, n)


def sort(a):
    return np.sort(a)


def repeat(f, n):
    def run():
        for _ in range(n):
            f()
    return run


def cases():
    """(title, function, arguments, repeats, bytes a streaming floor must move or 0)."""
    rng = np.random.default_rng(0)
    ops = [rng.random(10**7) for _ in range(5)]
    big = rng.random((4000, 4000))
    m1, m2 = rng.random((1000, 1000)), rng.random((1000, 1000))
    unsorted = rng.random(10**7)
    return [
        ("(a) a*b + c*d - e, 10**7 float64", expression, ops, 5, 6 * ops[0].nbytes),
        ("(a2) np.sqrt(a*a + b*b) * np.sign(a), 10**7", hypot_sign, ops[:2], 5,
         3 * ops[0].nbytes),
        ("(b) a.sum(), 4000x4000 float64", total, (big,), 5, big.nbytes),
        ("(b2) a.mean(axis=0), 4000x4000 float64", column_means, (big,), 5, big.nbytes),
        ("(c) 10**6 calls returning np.empty(4)", returns_empty, (), 3, 0),
        ("(c2) 10**6 np.empty(4) in a compiled loop", allocates_in_loop, (10**6,), 5, 0),
        ("np.zeros((4000, 4000)) + diagonal walk", zeros_and_walk, (4000,), 5, 0),
        ("(d) np.dot, 1000x1000 float64", matmul, (m1, m2), 5, 0),
        ("(e) np.random.normal(0, 1, 10**7)", normals, (10**7,), 5, 0),
        ("(f) np.sort, 10**7 float64", sort, (unsorted,), 3, 0),
    ]


def timed(f, args, repeats, title):
    if title.startswith("(c) "):
        return best_of(repeat(f, 10**6), repeats)
    return best_of(lambda: f(*args), repeats)


def numpy_version(title, f):
    """NumPy's own call for a row (the same Python function run by the interpreter), or None
    where NumPy has no counterpart (the compiled loop)."""
    if title.startswith("(c2)"):
        return None
    if title.startswith("np.zeros"):
        return lambda n: np.zeros((n, n)).trace() + n
    return f


def memory_bandwidth():
    src, dst = np.random.default_rng(1).random(10**7), np.empty(10**7)
    return 2 * src.nbytes / best_of(lambda: np.copyto(dst, src), 7)


def main():
    import cujit
    jits = {"cujit": cujit.njit}
    try:
        import numba
        jits["numba"] = numba.njit
    except ImportError:
        print("numba not installed: cujit alone")
    table = cases()
    times = {name: [] for name in list(jits) + ["numpy", "floor"]}
    first = {name: [] for name in jits}
    bandwidth = memory_bandwidth()
    for name, jit in jits.items():
        for title, f, args, repeats, _ in table:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compiled = jit(f)
                t0 = time.perf_counter()
                try:
                    compiled(*args)
                except Exception as e:  # numba has no a.mean(axis=...)
                    print(f"{name} cannot compile {f.__name__}: {type(e).__name__}")
                    first[name].append(float("nan"))
                    times[name].append(float("nan"))
                    continue
                first[name].append(time.perf_counter() - t0)
            times[name].append(timed(compiled, args, repeats, title))
    for title, f, args, repeats, nbytes in table:
        plain = numpy_version(title, f)
        times["numpy"].append(timed(plain, args, repeats, title) if plain else float("nan"))
        times["floor"].append(nbytes / bandwidth if nbytes else float("nan"))
    print(f"memory bandwidth (np.copyto, read + write): {bandwidth / 1e9:.1f} GB/s")
    for k, (title, *_rest) in enumerate(table):
        print(title)
        base = times["cujit"][k]
        for name, row in times.items():
            if row[k] == row[k]:
                print(f"  {name:6} {1e3 * row[k]:10.2f} ms  {row[k] / base:6.2f}x cujit's time")
        print("  first call: " + "  ".join(f"{n} {1e3 * first[n][k]:.0f} ms" for n in first
                                           if first[n][k] == first[n][k]))
    if "numba" in times:
        print("cujit/numba:", " ".join(f"{times['cujit'][k] / times['numba'][k]:.2f}"
                                       for k in range(len(table))))


if __name__ == "__main__":
    main()
