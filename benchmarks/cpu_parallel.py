"""prange loops under parallel=True: cujit vs numba (parallel=True) vs each one's serial loop, side
by side in one run, with the speed-up over serial and the ratio to numba. Rows: a prange sum over
10^8 float64 (memory-bound: 800 MB read), a Monte-Carlo pi from random.random (each thread's own
stream), a 5-point stencil over 4000x4000, a prange sum of 10^8 computed terms (compute-bound:
the pool's scaling), and without prange: np.sum over 10^8, a 10^4 x 10^4 sum along axis 0,
argmax over 10^8 and an array expression over 2*10^7. Usage: python benchmarks/cpu_parallel.py [--small]"""
import random
import sys
import time

import numpy as np

from _common import best_of

SMALL = "--small" in sys.argv


SOURCES = {
    "npsum": "def f(a):\n    return np.sum(a)\n",
    "expr": "def f(a):\n    return a * 2.5 + np.sqrt(a)\n",
    "axis": "def f(a):\n    return a.sum(axis=0)\n",
    "argmax": "def f(a):\n    return a.argmax()\n",
    "terms": "def f(n):\n    s = 0.0\n    h = 1.0 / n\n    for i in prange(n):\n"
             "        x = (i + 0.5) * h\n        s += 4.0 / (1.0 + x * x)\n    return s * h\n",
    "sum": "def f(a):\n    s = 0.0\n    for i in prange(a.shape[0]):\n"
           "        s += a[i]\n    return s\n",
    "pi": "def f(n):\n    inside = 0\n    for i in prange(n):\n"
          "        x = random.random()\n        y = random.random()\n"
          "        inside += x * x + y * y <= 1.0\n    return 4.0 * inside / n\n",
    "stencil": "def f(a, out):\n    for i in prange(1, a.shape[0] - 1):\n"
               "        for j in range(1, a.shape[1] - 1):\n"
               "            out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1]"
               " + a[i, j + 1])\n    return out\n",
}


def compiled(jit, prange, kind, parallel):
    """The `kind` loop with its prange bound, compiled by `jit` (a fresh function each time)."""
    ns = {"np": np, "random": random, "prange": prange}
    exec(SOURCES[kind], ns)
    return jit(parallel=parallel)(ns["f"])


def _slice_worker(barrier, queue, n, start, stop):
    """One process of machine_speedup: its slice of the terms, timed from a common start."""
    import cujit
    ns = {"prange": range}
    exec("def part(n, a, b):\n    s = 0.0\n    h = 1.0 / n\n    for i in range(a, b):\n"
         "        x = (i + 0.5) * h\n        s += 4.0 / (1.0 + x * x)\n    return s * h\n", ns)
    part = cujit.njit(ns["part"])
    part(n, start, start + 10)  # compiled before the clock starts
    barrier.wait()
    t0 = time.perf_counter()
    part(n, start, stop)
    queue.put(time.perf_counter() - t0)


def machine_speedup(n, workers):
    """What the machine gives independent work: `workers` processes, each summing its slice of
    the n terms with no pool and nothing shared, against one process summing them all. The
    floor the pool's own speed-up is measured against."""
    import multiprocessing as mp
    ctx = mp.get_context("fork")

    def run(k):
        barrier, queue = ctx.Barrier(k), ctx.Queue()
        procs = [ctx.Process(target=_slice_worker, args=(barrier, queue, n, n * j // k,
                                                         n * (j + 1) // k)) for j in range(k)]
        for p in procs:
            p.start()
        times = [queue.get() for _ in procs]
        for p in procs:
            p.join()
        return max(times)
    one = min(run(1) for _ in range(2))
    return one / min(run(workers) for _ in range(3))


def main():
    import cujit
    grid = np.random.rand(1000, 1000) if SMALL else np.random.rand(4000, 4000)
    rows = [("prange sum 1e8", "sum", (np.random.rand(10**7 if SMALL else 10**8),)),
            ("Monte-Carlo pi 1e7", "pi", (10**6 if SMALL else 10**7,)),
            ("stencil 4000x4000", "stencil", (grid, np.zeros_like(grid))),
            ("prange sum 1e8 terms", "terms", (10**7 if SMALL else 10**8,)),
            ("np.sum 1e8", "npsum", (np.random.rand(10**7 if SMALL else 10**8),)),
            ("sum(axis=0) 1e4^2", "axis", (np.random.rand(*((2000,) * 2 if SMALL else (10**4,) * 2)),)),
            ("argmax 1e8", "argmax", (np.random.rand(10**7 if SMALL else 10**8),)),
            ("a*2.5+sqrt(a) 2e7", "expr", (np.random.rand(10**6 if SMALL else 2 * 10**7),))]
    impls = [("cujit", cujit.njit, cujit.prange)]
    try:
        import numba
        impls.append(("numba", numba.njit, numba.prange))
    except ImportError:
        print("numba not installed: its columns are skipped")
    print(f"threads: cujit {cujit.get_num_threads()}"
          + (f", numba {numba.get_num_threads()}" if len(impls) > 1 else ""))
    print(f"{'':20}{'cujit par':>11}{'serial':>9}{'speed-up':>9}"
          f"{'numba par':>11}{'serial':>9}{'speed-up':>9}{'cujit/numba':>12}")
    for name, kind, args in rows:
        line, times = f"{name:20}", {}
        for impl, jit, prange in impls:
            par, ser = compiled(jit, prange, kind, True), compiled(jit, prange, kind, False)
            tp, ts = best_of(lambda: par(*args), 5), best_of(lambda: ser(*args), 3)
            times[impl] = tp
            line += f"{1e3 * tp:9.1f}ms{1e3 * ts:8.1f}ms{ts / tp:8.2f}x"
        if "numba" in times:
            line += f"{times['cujit'] / times['numba']:11.2f}"
        print(line)
    threads = cujit.get_num_threads()
    floor = machine_speedup(10**7 if SMALL else 10**8, threads)
    print(f"the machine: {threads} processes summing slices of the 1e8 terms, no pool: "
          f"{floor:.2f}x one process ({floor / threads:.2f} x the threads)")
    print("goal: cujit/numba <= 1.1, and on the sum a speed-up >= 0.8 x the threads (the sum of"
          " terms: the array sum is bound by memory bandwidth)")


if __name__ == "__main__":
    main()
