"""cuda.reduce against CuPy's sum, numba-cuda's cuda.reduce and the hardware floor, as ratios.

A 1e7-element float64 sum on a device array (80 MB), each library where installed:
  * "to host": a call that returns the sum on the host (cujit's and numba-cuda's reduce return a
    scalar; CuPy's sum is followed by .item()), mean over a loop of calls;
  * "on device": the result left on the device (cujit: res=, CuPy: out=), mean per call over a
    loop of calls and one synchronize;
  * "GPU time": what CUDA events around a loop of on-device calls measure, per call.
The floor is the bytes read over the device's peak memory bandwidth (memory clock x bus width
x 2, from the device's attributes).
Usage: python benchmarks/cuda_reduce.py [n]"""
import sys

import numpy as np

from _common import per_call

CALLS = 200


def event_time(cuda_events, fn, calls):
    """Seconds per call between two events around `calls` calls (after a warm-up)."""
    start, end, sync = cuda_events
    for _ in range(5):
        fn()
    sync()
    t0 = start()
    for _ in range(calls):
        fn()
    return end(t0) / calls


def reduce_row(cuda, label, x, calls):
    """The three timings of `cuda`'s reduce (cujit's or numba-cuda's: the same API)."""
    total = cuda.reduce(lambda a, b: a + b)
    d = cuda.to_device(x)
    res = cuda.device_array(1)
    want = x.sum()
    got = total(d)
    assert abs(got - want) <= 1e-9 * abs(want), (label, got, want)

    def start():
        e = cuda.event()
        e.record()
        return e

    def end(e0):
        e1 = cuda.event()
        e1.record()
        e1.synchronize()
        return cuda.event_elapsed_time(e0, e1) / 1e3

    return {
        "to host": per_call(lambda: total(d), cuda.synchronize, calls),
        "on device": per_call(lambda: total(d, res=res), cuda.synchronize, calls),
        "GPU time": event_time((start, end, cuda.synchronize), lambda: total(d, res=res), calls),
    }


def cujit_row(x):
    from cujit import cuda
    return reduce_row(cuda, "cujit", x, CALLS)


def cupy_row(x):
    import cupy
    d = cupy.asarray(x)
    out = cupy.empty((), dtype=cupy.float64)
    want = x.sum()
    got = cupy.sum(d).item()
    assert abs(got - want) <= 1e-9 * abs(want), ("CuPy", got, want)
    sync = cupy.cuda.runtime.deviceSynchronize

    def start():
        e = cupy.cuda.Event()
        e.record()
        return e

    def end(e0):
        e1 = cupy.cuda.Event()
        e1.record()
        e1.synchronize()
        return cupy.cuda.get_elapsed_time(e0, e1) / 1e3

    return {
        "to host": per_call(lambda: cupy.sum(d).item(), sync, CALLS),
        "on device": per_call(lambda: cupy.sum(d, out=out), sync, CALLS),
        "GPU time": event_time((start, end, sync), lambda: cupy.sum(d, out=out), CALLS),
    }


def numba_row(x):
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack  # numba-cuda 0.30 with NumPy 2.5
    from numba import cuda
    return reduce_row(cuda, "numba-cuda", x, CALLS // 10)  # about 13x slower


def floor_seconds(nbytes):
    """Bytes over the peak bandwidth of the current device, and that bandwidth in GB/s."""
    from cujit import cuda
    dev = cuda.get_current_device()
    clock_hz = dev.MEMORY_CLOCK_RATE * 1e3            # kHz
    bus_bytes = dev.GLOBAL_MEMORY_BUS_WIDTH / 8       # bits
    peak = 2 * clock_hz * bus_bytes                   # double data rate
    return nbytes / peak, peak / 1e9


def main():
    from cujit import cuda
    if not cuda.is_available():
        print("no GPU: nothing to measure")
        return
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
    x = np.random.default_rng(0).random(n)
    floor, peak = floor_seconds(x.nbytes)
    print(f"{cuda.get_current_device().name}: sum of {n:,} float64 ({x.nbytes / 1e6:.0f} MB), "
          f"peak bandwidth {peak:.0f} GB/s, floor {1e6 * floor:.1f} us")
    rows = {"cujit": cujit_row(x)}
    for name, make in (("CuPy", cupy_row), ("numba-cuda", numba_row)):
        try:
            rows[name] = make(x)
        except ImportError:
            print(f"{name} not installed: its column is skipped")
        except Exception as exc:  # a library that fails here is reported, not fatal
            print(f"{name} skipped: {type(exc).__name__}: {exc}")
    names = list(rows)
    print(f"{'us per call':16}" + "".join(f"{name:>14}" for name in names) + f"{'floor':>14}")
    for key in rows["cujit"]:
        print(f"{key:16}" + "".join(f"{1e6 * rows[nm][key]:14.1f}" for nm in names) +
              f"{1e6 * floor:14.1f}")
    for other in names[1:]:
        ratios = "  ".join(f"{k}: {rows['cujit'][k] / rows[other][k]:.2f}" for k in rows["cujit"])
        print(f"cujit / {other}: {ratios}")
    ratios = "  ".join(f"{k}: {rows['cujit'][k] / floor:.2f}" for k in rows["cujit"])
    print(f"cujit / floor: {ratios}")


if __name__ == "__main__":
    main()
