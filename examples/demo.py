"""cujit's main demo: the seed's hypot and mandelbrot compiled for the CPU."""
import math
import time

import numpy as np

import cujit


@cujit.njit
def hypot(x, y):
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)


@cujit.njit
def mandel(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return 255


@cujit.njit
def create_fractal(min_x, max_x, min_y, max_y, image, iters):
    height = image.shape[0]
    width = image.shape[1]
    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    for x in range(width):
        real = min_x + x * pixel_size_x
        for y in range(height):
            imag = min_y + y * pixel_size_y
            color = mandel(real, imag, iters)
            image[y, x] = color
    return image


def main():
    print("hypot(3.0, 4.0) =", hypot(3.0, 4.0))
    image = np.zeros((500, 750), dtype=np.uint8)
    t0 = time.perf_counter()
    create_fractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    t1 = time.perf_counter()
    create_fractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    t2 = time.perf_counter()
    print(f"mandelbrot 750x500: first call {1e3 * (t1 - t0):.1f} ms (compile + run), "
          f"then {1e3 * (t2 - t1):.2f} ms; {int((image < 255).sum())} pixels escaped")


if __name__ == "__main__":
    main()
