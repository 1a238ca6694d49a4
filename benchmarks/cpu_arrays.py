"""Arrays made inside compiled code (issue 10): cujit vs numba vs NumPy, side by side in one
run, as ratios of cujit's time. What exists so far:
  (c) allocation-heavy: 10**6 calls of a jitted function returning np.empty(4), from Python
      (call + allocate + box + free), and 10**6 allocations inside one compiled loop;
  zeros: np.zeros((4000, 4000)) made and walked in compiled code;
  (a) the expression a*b + c*d - e on 10**7 float64 (fused into one loop, as numba does);
  (a2) np.sqrt(a*a + b*b) * np.sign(a) on 10**7 float64 (ufuncs fused with operators);
  (b) a.sum() of 4000x4000 float64;
  (e) np.random.normal(0, 1, 10**7) (NumPy's legacy stream, as numba's).
The rest of the issue's list (axis reductions, np.dot, np.sort) is added as those
land. Usage: python benchmarks/cpu_arrays.py"""
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


def normals(n):
    return np.random.normal(0.0, 1.0, n)


def calls(f, n):
    def run():
        for _ in range(n):
            f()
    return run


def main():
    import cujit
    jits = {"cujit": cujit.njit}
    try:
        import numba
        jits["numba"] = numba.njit
    except ImportError:
        print("numba not installed: cujit alone")
    rows = {}
    rng = np.random.default_rng(0)
    ops = [rng.random(10**7) for _ in range(5)]
    big = rng.random((4000, 4000))
    for name, jit in jits.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f, g, h = jit(returns_empty), jit(allocates_in_loop), jit(zeros_and_walk)
            x, s, u, r = jit(expression), jit(total), jit(hypot_sign), jit(normals)
            f(), g(10), h(10), x(*ops), s(big), u(*ops[:2]), r(10)
        rows[name] = (best_of(calls(f, 10**6), 3), best_of(lambda: g(10**6), 5),
                      best_of(lambda: h(4000), 5), best_of(lambda: x(*ops), 5),
                      best_of(lambda: u(*ops[:2]), 5), best_of(lambda: s(big), 5),
                      best_of(lambda: r(10**7), 5))
    rows["numpy"] = (best_of(calls(lambda: np.empty(4), 10**6), 3), float("nan"),
                     best_of(lambda: np.zeros((4000, 4000)).trace() + 4000, 5),
                     best_of(lambda: expression(*ops), 5),
                     best_of(lambda: hypot_sign(*ops[:2]), 5), best_of(lambda: big.sum(), 5),
                     best_of(lambda: normals(10**7), 5))
    titles = ["10**6 calls returning np.empty(4)", "10**6 np.empty(4) in a compiled loop",
              "np.zeros((4000, 4000)) + diagonal walk", "(a) a*b + c*d - e, 10**7 float64",
              "(a2) np.sqrt(a*a + b*b) * np.sign(a), 10**7 float64",
              "(b) a.sum(), 4000x4000 float64", "(e) np.random.normal(0, 1, 10**7)"]
    for k, title in enumerate(titles):
        print(title)
        base = rows["cujit"][k]
        for name, times in rows.items():
            t = times[k]
            if t == t:
                print(f"  {name:6} {1e3 * t:10.2f} ms  {t / base:6.2f}x cujit's time")
    if "numba" in rows:
        print("cujit/numba:", " ".join(f"{rows['cujit'][k] / rows['numba'][k]:.2f}"
                                       for k in range(len(titles))))


if __name__ == "__main__":
    main()
