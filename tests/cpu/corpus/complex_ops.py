"""complex128 arithmetic, attributes and mixing with ints and floats."""
from . import C, F, I, case


def cc(rng):
    return C(rng), C(rng)


def ccnz(rng):
    b = C(rng)
    while abs(b) < 1e-2:
        b = C(rng)
    return C(rng), b


@case(gen=cc, sig="complex128(complex128, complex128)")
def add(a, b):
    return a + b


@case(gen=cc, sig="complex128(complex128, complex128)")
def sub(a, b):
    return a - b


@case(gen=cc, sig="complex128(complex128, complex128)")
def mul(a, b):
    return a * b


@case(gen=ccnz)
def truediv(a, b):
    return a / b


@case(gen=cc)
def neg_pos(a, b):
    return -a, +b


@case(gen=cc)
def eq_ne(a, b):
    return a == b, a != b, a == a


@case(gen=cc)
def real_imag(a, b):
    return a.real + b.imag, a.imag - b.real


@case(gen=cc)
def conjugate(a, b):
    return a.conjugate() * b


@case(gen=lambda rng: (C(rng), F(rng)))
def mix_float(a, x):
    return a + x, a * x, x - a


@case(gen=lambda rng: (C(rng), I(rng)))
def mix_int(a, k):
    return a * k + k


@case(gen=lambda rng: (C(rng, -2.0, 2.0), I(rng, 0, 6)))
def pow_int(a, k):
    return a ** k


@case(gen=lambda rng: (C(rng, -2.0, 2.0),))
def square(a):
    return a * a, a ** 2


@case(gen=cc)
def abs_complex(a, b):
    return abs(a) + abs(b)


@case(gen=lambda rng: (F(rng), F(rng)))
def build(x, y):
    return complex(x, y)


@case(gen=lambda rng: (F(rng),))
def literal(x):
    return x * 1j + (2 - 3j)


@case(gen=cc)
def augmented(a, b):
    z = a
    z += b
    z *= 1.5 - 0.5j
    z -= 2
    return z


@case(gen=lambda rng: (C(rng),))
def truthiness(a):
    if a:
        return 1
    return 0


@case(gen=lambda rng: (C(rng, -1.0, 1.0), I(rng, 1, 20)))
def iterate_map(c, n):
    z = 0j
    for _ in range(n):
        z = z * z + c
        if abs(z) > 2.0:
            return _
    return n


@case(gen=lambda rng: (C(rng),))
def norm2(a):
    return a.real * a.real + a.imag * a.imag


@case(gen=lambda rng: (C(rng), C(rng)))
def complex_of_parts(a, b):
    return complex(a.real, b.imag) - complex(b.real, a.imag)
