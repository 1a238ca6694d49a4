"""Exceptions: raise with constant messages, assert, ZeroDivisionError from // % / by zero."""
from . import F, I, case, helper


@case(gen=lambda rng: (I(rng, -10, 10),), msg=True)
def raise_value_error(a):
    if a < 0:
        raise ValueError("negative input")
    return a


@case(gen=lambda rng: (I(rng, -10, 10),), msg=True)
def raise_type_error(a):
    if a == 3:
        raise TypeError("three is not allowed")
    return a * 2


@case(gen=lambda rng: (I(rng, -10, 10),))
def raise_class(a):
    if a > 5:
        raise IndexError
    return a


@case(gen=lambda rng: (I(rng, -10, 10),), msg=True)
def raise_in_loop(n):
    s = 0
    for i in range(abs(n)):
        if i == 7:
            raise RuntimeError("seven")
        s += i
    return s


@case(gen=lambda rng: (I(rng, -5, 5),))
def assert_plain(a):
    assert a != 0
    return 10 // a


@case(gen=lambda rng: (I(rng, -5, 5),), msg=True)
def assert_message(a):
    assert a >= 0, "a must be non-negative"
    return a


@case(gen=lambda rng: (I(rng, -100, 100), I(rng, -3, 3)))
def zero_floordiv(a, b):
    return a // b


@case(gen=lambda rng: (I(rng, -100, 100), I(rng, -3, 3)))
def zero_mod(a, b):
    return a % b


@case(gen=lambda rng: (I(rng, -100, 100), I(rng, -3, 3)))
def zero_truediv_int(a, b):
    return a / b


@case(gen=lambda rng: (F(rng), float(I(rng, -2, 2))))
def zero_truediv_float(x, y):
    return x / y


@case(gen=lambda rng: (F(rng), float(I(rng, -2, 2))))
def zero_floordiv_float(x, y):
    return x // y


@case(gen=lambda rng: (F(rng), float(I(rng, -2, 2))))
def zero_mod_float(x, y):
    return x % y


@case(gen=lambda rng: (I(rng, -3, 3),))
def zero_divmod(a):
    return divmod(10, a)


@case(gen=lambda rng: (I(rng, -10, 10),), msg=True)
def raise_from_helper_call(a):
    return _check(a) + 1


@helper
def _check(a):
    if a > 8:
        raise ValueError("too big")
    return a


@case(gen=lambda rng: (I(rng, -10, 10),))
def raise_after_work(a):
    s = 0
    for i in range(5):
        s += i * a
    if s > 50:
        raise OverflowError("too large")
    return s


@case(gen=lambda rng: (complex(F(rng), F(rng)), complex(I(rng, -1, 2), 0)))
def zero_complex_div(z, w):
    return z / w


@case(gen=lambda rng: (I(rng, -3, 3), I(rng, -3, 3)), msg=True)
def raise_either(a, b):
    if a == b:
        raise ValueError("equal")
    if a > b:
        raise KeyError("greater")
    return b - a
