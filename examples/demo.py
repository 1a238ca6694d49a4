"""cujit's main demo: the seed's hypot and mandelbrot, compiled for the CPU (and, when a GPU is
present, the CUDA runtime's device query)."""
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cujit  # noqa: E402
import mandelbrot  # noqa: E402


@cujit.njit
def hypot(x, y):
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)


def main():
    print("hypot(3.0, 4.0) =", hypot(3.0, 4.0))
    _, create_fractal = mandelbrot.build(cujit.njit)
    image = np.zeros((500, 750), dtype=np.uint8)
    t0 = time.perf_counter()
    create_fractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    t1 = time.perf_counter()
    create_fractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    t2 = time.perf_counter()
    print(f"mandelbrot 750x500 on the CPU: first call {1e3 * (t1 - t0):.1f} ms (compile + run), "
          f"then {1e3 * (t2 - t1):.2f} ms; {int((image < 255).sum())} pixels escaped")
    if cujit.cuda.is_available():
        dev = cujit.cuda.get_current_device()
        print(f"GPU: {dev.name.decode() if isinstance(dev.name, bytes) else dev.name}, "
              f"compute capability {dev.compute_capability}")
    else:
        print("no GPU here: the CPU target ran the demo")


if __name__ == "__main__":
    main()
