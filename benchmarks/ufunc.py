"""ufunc benchmarks, side by side in one run, as ratios.

CPU section (runs anywhere): throughput of a compiled CPU ufunc (5M float32 add, and the seed's
gaussian_pdf) against numba's CPU vectorize and NumPy's own ufuncs. CUDA section (when a GPU is
present): cujit's vectorize(target='cuda') against numba-cuda's and CuPy's add: a 5M float32 add
on device arrays with out= (mean per call over a loop, then one synchronize), the call
overhead on a 10,000-element device array (with out= and with a new output), and the 5M add on
host arrays (copies in and out).
Usage: python benchmarks/ufunc.py"""
import math

import numpy as np

from _common import best_of, per_call

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


def add(x, y):
    return x + y


def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)



def cpu_section():
    import cujit
    n = 5_000_000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    out = np.empty_like(x)
    libs = {"cujit": cujit}
    try:
        import numba
        libs["numba"] = numba
    except ImportError:
        print("numba not installed: its rows are skipped")
    rows = {}
    for name, lib in libs.items():
        uadd = lib.vectorize(["float32(float32, float32)"])(add)
        updf = lib.vectorize(["float32(float32, float32, float32)"])(gaussian_pdf)
        rows[name] = (best_of(lambda: uadd(x, y, out=out)),
                      best_of(lambda: updf(x, np.float32(0), np.float32(1), out=out)))
    rows["numpy"] = (best_of(lambda: np.add(x, y, out=out)),
                     best_of(lambda: np.divide(np.exp(-0.5 * ((x - 0) / 1) ** 2), SQRT_2PI, out=out)))
    print(f"CPU ufuncs on {n:,} float32 (best of 15, out= given)")
    print(f"{'':8}{'add ms':>10}{'gaussian ms':>14}")
    for name, (a, g) in rows.items():
        print(f"{name:8}{1e3 * a:10.2f}{1e3 * g:14.2f}")
    if "numba" in rows:
        print(f"cujit/numba add: {rows['cujit'][0] / rows['numba'][0]:.3f}   "
              f"gaussian: {rows['cujit'][1] / rows['numba'][1]:.3f}")


def cuda_rows(name, vectorize, to_device, device_array, sync):
    n, small = 5_000_000, 10_000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    uadd = vectorize(["float32(float32, float32)"], target="cuda")(add)
    dx, dy, out = to_device(x), to_device(y), device_array(n, np.float32)
    sx, sout = to_device(x[:small]), device_array(small, np.float32)
    row = {
        "5M add, device, out=": per_call(lambda: uadd(dx, dy, out=out), sync, 200),
        "10k call, out=": per_call(lambda: uadd(sx, sx, out=sout), sync, 5000),
        "10k call, new output": per_call(lambda: uadd(sx, sx), sync, 5000),
        "5M add, host arrays": best_of(lambda: uadd(x, y)),
    }
    got = out.copy_to_host() if hasattr(out, "copy_to_host") else out.get()
    assert np.array_equal(got, x + y), f"{name}: wrong result"
    return row


def cuda_section():
    rows = {}
    from cujit import cuda, vectorize
    rows["cujit"] = cuda_rows("cujit", vectorize, cuda.to_device, cuda.device_array,
                              cuda.synchronize)
    try:
        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack  # numba-cuda 0.30 with NumPy 2.5
        import numba
        from numba import cuda as ncuda
        rows["numba-cuda"] = cuda_rows("numba-cuda", numba.vectorize, ncuda.to_device,
                                       ncuda.device_array, ncuda.synchronize)
    except Exception as exc:
        print(f"numba-cuda skipped: {type(exc).__name__}: {exc}")
    try:
        import cupy
        n, small = 5_000_000, 10_000
        x = np.arange(n, dtype=np.float32)
        cx, cy, cout = cupy.asarray(x), cupy.asarray(2 * x), cupy.empty(n, cupy.float32)
        sx, sout = cx[:small].copy(), cupy.empty(small, cupy.float32)
        sync = cupy.cuda.runtime.deviceSynchronize
        rows["CuPy"] = {
            "5M add, device, out=": per_call(lambda: cupy.add(cx, cy, out=cout), sync, 200),
            "10k call, out=": per_call(lambda: cupy.add(sx, sx, out=sout), sync, 5000),
            "10k call, new output": per_call(lambda: cupy.add(sx, sx), sync, 5000),
            "5M add, host arrays": best_of(
                lambda: cupy.asnumpy(cupy.add(cupy.asarray(x), cupy.asarray(2 * x)))),
        }
    except ImportError:
        print("CuPy not installed: its column is skipped")
    names = list(rows)
    print("CUDA ufuncs, float32 add: ms for 5M elements, us for calls on 10k")
    print(f"{'':24}" + "".join(f"{name:>14}" for name in names))
    for key in rows["cujit"]:
        scale, unit = (1e3, "ms") if key.startswith("5M") else (1e6, "us")
        print(f"{key + ' ' + unit:24}" + "".join(f"{scale * rows[n][key]:14.4f}" for n in names))
    for other in names[1:]:
        ratios = "  ".join(f"{k}: {rows['cujit'][k] / rows[other][k]:.2f}" for k in rows["cujit"])
        print(f"cujit / {other}: {ratios}")


def main():
    cpu_section()
    try:
        from cujit import cuda
        available = cuda.is_available()
    except Exception:
        available = False
    if not available:
        print("CUDA section skipped: no GPU")
        return
    cuda_section()


if __name__ == "__main__":
    main()
