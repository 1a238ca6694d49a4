"""The seeds' CPU examples run as written (apart from the import), with numba's types."""
import math
import os
import sys

import numpy as np

from cujit import jit, njit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "examples"))


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


def test_mandelbrot_seed_equals_cpython():
    import mandelbrot  # examples/mandelbrot.py: the seed's code as written
    expected = mandelbrot.create_fractal(-2.0, 1.0, -1.0, 1.0,
                                         np.zeros((40, 60), dtype=np.uint8), 20)
    jmandel, jfractal = mandelbrot.build(jit)
    image = np.zeros((40, 60), dtype=np.uint8)
    out = jfractal(-2.0, 1.0, -1.0, 1.0, image, 20)
    assert out is image  # the argument itself, as numba returns it
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
