"""What the benchmarks share: the in-place package on the path, the seed mandelbrot, timing."""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "pkg"))
sys.path.insert(0, os.path.join(ROOT, "examples"))


def best_of(fn, repeats=7):
    """The fastest of `repeats` timed calls, after one untimed warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def per_call(fn, sync, calls):
    """Mean seconds per call over `calls` calls and one synchronize (after a warm-up)."""
    for _ in range(5):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    sync()
    return (time.perf_counter() - t0) / calls
