"""The seeds' CPU examples run as written (apart from the import), with numba's types."""
import math

import numpy as np

from cujit import jit, njit


def test_hypot_seed():
    @jit
    def hypot(x, y):
        # Implementation from https://en.wikipedia.org/wiki/Hypot
        x = abs(x)
        y = abs(y)
        t = min(x, y)
        x = max(x, y)
        t = t / x
        return x * math.sqrt(1 + t * t)

    assert hypot(3.0, 4.0) == 5.0
    assert hypot.py_func(3.0, 4.0) == 5.0
    assert [str(s) for s in hypot.nopython_signatures] == ["float64(float64, float64)"]


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


def test_mandelbrot_seed_equals_cpython():
    expected = create_fractal(-2.0, 1.0, -1.0, 1.0, np.zeros((40, 60), dtype=np.uint8), 20)
    jmandel = jit(mandel)
    # the jitted create_fractal must call the jitted mandel: rebind it in a fresh namespace
    ns = {"mandel": jmandel}
    exec(compile("def create_fractal(min_x, max_x, min_y, max_y, image, iters):\n"
                 "    height = image.shape[0]\n    width = image.shape[1]\n"
                 "    pixel_size_x = (max_x - min_x) / width\n"
                 "    pixel_size_y = (max_y - min_y) / height\n"
                 "    for x in range(width):\n        real = min_x + x * pixel_size_x\n"
                 "        for y in range(height):\n            imag = min_y + y * pixel_size_y\n"
                 "            color = mandel(real, imag, iters)\n            image[y, x] = color\n"
                 "    return image\n", "<seed>", "exec"), ns)
    jfractal = jit(ns["create_fractal"])
    image = np.zeros((40, 60), dtype=np.uint8)
    out = jfractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    assert out is not image and out.base is image  # a view of the argument, as numba
    np.testing.assert_array_equal(image, expected)
    assert str(jmandel.nopython_signatures[0]) == "int64(float64, float64, int64)"


def test_course_select_unification():
    # course session 2: the same variable assigned different types unifies them
    @njit
    def select(a, b, c):
        if c:
            x = a
        else:
            x = b
        return x

    select(1, 2.5, True)
    select(np.float32(1), np.int32(2), True)
    select(np.float32(1), np.float32(2), False)
    assert [str(s.return_type) for s in select.nopython_signatures] == [
        "float64", "float64", "float32"]


def test_course_widening_float32():
    # float32 arithmetic stays float32; mixing with int32 or a float64 literal widens
    @njit
    def keep(a, b):
        return a * b + a

    @njit
    def widen_literal(a):
        return a * 2.5

    @njit
    def widen_int(a, i):
        return a + i

    f32 = np.float32
    keep(f32(1), f32(2))
    widen_literal(f32(1))
    widen_int(f32(1), np.int32(2))
    assert str(keep.nopython_signatures[0].return_type) == "float32"
    assert str(widen_literal.nopython_signatures[0].return_type) == "float64"
    assert str(widen_int.nopython_signatures[0].return_type) == "float64"


def test_int64_index_arithmetic():
    @njit
    def index_math(i, n):
        return (i * 3 + n) // 2, i % n

    index_math(np.int32(5), np.int16(3))
    assert str(index_math.nopython_signatures[0].return_type) == "UniTuple(int64 x 2)"


def test_variables_are_versioned_like_numba():
    # a name reassigned with an unrelated type is a new variable unless the two meet at a join
    @njit
    def reuse(a):
        x = a[0]
        y = x * 2
        x = (1, 2)
        z = x[1]
        x = 1.5
        return y + z + x

    assert reuse(np.arange(3.0)) == 3.5

    @njit
    def joined(c):
        if c:
            x = 1
        else:
            x = 2.5
        return x

    assert joined(True) == 1.0 and isinstance(joined(True), float)
