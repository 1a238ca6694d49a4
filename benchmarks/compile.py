"""First-call time of the seed mandelbrot kernel (compile + load + launch, in a fresh process)
and registers per seed kernel, cujit vs numba-cuda. Usage: python benchmarks/compile.py"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIRST_CALL = r"""
import sys, time
sys.path.insert(0, {pkg!r}); sys.path.insert(0, {tests!r})
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack
lib = {lib!r}
if lib == "cujit":
    from cujit import cuda, float32
else:
    from numba import cuda, float32
import seed_kernels
image = cuda.device_array((1024, 1536), dtype=np.uint8)
cuda.synchronize()
k = cuda.jit(seed_kernels.make(cuda, float32)["create_fractal"][0])
t = time.perf_counter()
k[(48, 32), (32, 32)](-2.0, 1.0, -1.0, 1.0, image, 20)
cuda.synchronize()
print((time.perf_counter() - t) * 1e3)
"""

REGS = r"""
import sys
sys.path.insert(0, {pkg!r}); sys.path.insert(0, {tests!r})
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack
lib = {lib!r}
if lib == "cujit":
    from cujit import cuda, float32
else:
    from numba import cuda, float32
import seed_kernels
for name, (fn, sig) in seed_kernels.make(cuda, float32).items():
    k = cuda.jit(sig)(fn)
    regs = k.get_regs_per_thread()
    print(name, list(regs.values())[0] if isinstance(regs, dict) else regs)
"""


def run(code, lib):
    src = code.format(pkg=os.path.join(ROOT, "pkg"), tests=os.path.join(ROOT, "tests",
                                                                        "cuda_kernels"), lib=lib)
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr else "failed")
    return r.stdout


def main():
    print("first call of the seed mandelbrot kernel (compile, load, launch), ms, fresh process")
    first = {}
    for lib in ("cujit", "numba-cuda"):
        try:
            times = [float(run(FIRST_CALL, lib)) for _ in range(3)]
            first[lib] = min(times)
            print(f"  {lib:12} {first[lib]:9.1f}   (best of 3: {', '.join(f'{t:.1f}' for t in times)})")
        except Exception as exc:
            print(f"  {lib:12} skipped ({exc})")
    if len(first) == 2:
        print(f"  cujit / numba-cuda: {first['cujit'] / first['numba-cuda']:.2f} (goal <= 0.25)")
    print("registers per thread (cuFuncGetAttribute)")
    regs = {}
    for lib in ("cujit", "numba-cuda"):
        try:
            regs[lib] = dict(line.split() for line in run(REGS, lib).strip().splitlines())
        except Exception as exc:
            print(f"  {lib}: skipped ({exc})")
    names = sorted(set().union(*[set(r) for r in regs.values()])) if regs else []
    print(f"  {'kernel':24}" + "".join(f"{lib:>12}" for lib in regs))
    for n in names:
        print(f"  {n:24}" + "".join(f"{regs[lib].get(n, '-'):>12}" for lib in regs))


if __name__ == "__main__":
    main()
