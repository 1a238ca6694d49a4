"""The seed's mandelbrot, written as the tutorial writes it (plain Python).

`build(jit)` makes fresh jitted copies (so benchmarks and tests compile from scratch), with
create_fractal calling the jitted mandel, as the seed's decorated module does."""
import inspect
import sys


def mandel(x, y, max_iters):
    i = 0
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return 255


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


def build(jit=None):
    """Fresh (mandel, create_fractal), jitted with `jit` (or plain Python when None)."""
    ns = {}
    source = inspect.getsource(mandel) + "\n\n" + inspect.getsource(create_fractal)
    exec(compile(source, inspect.getsourcefile(sys.modules[__name__]), "exec"), ns)
    if jit is not None:
        ns["mandel"] = jit(ns["mandel"])
        ns["create_fractal"] = jit(ns["create_fractal"])
    return ns["mandel"], ns["create_fractal"]
