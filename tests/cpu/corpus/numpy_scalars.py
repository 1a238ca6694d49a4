"""NumPy scalar types as casts (np.float32(x), np.int32(a)...) and NumPy ufuncs on scalars."""
import numpy as np

from . import C, F, I, case


@case(gen=lambda rng: (F(rng),))
def cast_float32(x):
    return np.float32(x)


@case(gen=lambda rng: (F(rng),))
def float32_arith(x):
    y = np.float32(x)
    return y * np.float32(2.5) + y


@case(gen=lambda rng: (np.float32(F(rng)), np.float32(F(rng))), sig="float32(float32, float32)")
def float32_args(a, b):
    return a * b - a


@case(gen=lambda rng: (np.float32(F(rng)), I(rng)))
def float32_plus_int64(a, k):
    return a + k


@case(gen=lambda rng: (np.float32(F(rng)), np.int32(I(rng))), sig="float64(float32, int32)")
def float32_plus_int32(a, k):
    return a + k


@case(gen=lambda rng: (np.float32(F(rng)), F(rng)))
def float32_plus_float64(a, x):
    return a + x


@case(gen=lambda rng: (np.float32(F(rng)),))
def float32_plus_literal(a):
    return a + 1.0, a * 2


@case(gen=lambda rng: (I(rng, -100, 100),))
def cast_ints(a):
    return np.int8(a), np.int16(a), np.int32(a), np.int64(a)


@case(gen=lambda rng: (I(rng, 0, 200),))
def cast_uints(a):
    return np.uint8(a), np.uint16(a), np.uint32(a), np.uint64(a)


@case(gen=lambda rng: (F(rng, -100, 100),))
def cast_float_to_int(x):
    return np.int32(x), np.int64(x)


@case(gen=lambda rng: (np.int32(I(rng)), np.int32(I(rng))))
def int32_args(a, b):
    return a + b, a * b, a - b


@case(gen=lambda rng: (np.uint8(I(rng, 0, 100)), np.uint8(I(rng, 0, 100))), sig="uint64(uint8, uint8)")
def uint8_args(a, b):
    return a + b


@case(gen=lambda rng: (np.uint64(I(rng, 0, 1000)), np.uint64(I(rng, 0, 1000))))
def uint64_args(a, b):
    return a + b, a * b


@case(gen=lambda rng: (np.int16(I(rng)), np.float32(F(rng))), sig="float32(int16, float32)")
def int16_times_float32(a, x):
    return a * x


@case(gen=lambda rng: (F(rng, -5, 5),))
def np_sin_cos(x):
    return np.sin(x), np.cos(x)


@case(gen=lambda rng: (F(rng, 0.1, 5),))
def np_exp_log_sqrt(x):
    return np.exp(x), np.log(x), np.sqrt(x)


@case(gen=lambda rng: (F(rng, -5, 5), F(rng, -5, 5)))
def np_binary_ufuncs(x, y):
    return np.arctan2(x, y), np.hypot(x, y), np.maximum(x, y), np.minimum(x, y)


@case(gen=lambda rng: (F(rng, -5, 5),))
def np_rounding(x):
    return np.floor(x), np.ceil(x), np.trunc(x), np.abs(x)


@case(gen=lambda rng: (np.float32(F(rng, 0.1, 5)),))
def np_ufunc_float32(a):
    return np.sqrt(a), np.sin(a)


@case(gen=lambda rng: (F(rng, -5, 5),))
def np_sign_square(x):
    return np.sign(x), np.square(x)


@case(gen=lambda rng: (I(rng, -100, 100),))
def np_ufunc_on_int(a):
    return np.abs(a), np.sqrt(abs(a))


@case(gen=lambda rng: (C(rng),))
def cast_complex64(z):
    return np.complex64(z) * np.complex64(2)


@case(gen=lambda rng: (np.complex64(C(rng)), np.float32(F(rng))))
def complex64_args(z, x):
    return z * x, z + z


@case(gen=lambda rng: (F(rng),))
def float32_roundtrip(x):
    return np.float64(np.float32(x))


@case(gen=lambda rng: (np.float32(F(rng, -10, 10)),))
def float32_compare(a):
    return a > np.float32(0.5), a == a


@case(gen=lambda rng: (np.float64(F(rng)), np.float32(F(rng))))
def np_float64_arg(x, y):
    return x - y


@case(gen=lambda rng: (F(rng, -5, 5),))
def np_isnan_isfinite(x):
    return np.isnan(x), np.isfinite(x), np.isinf(x)
