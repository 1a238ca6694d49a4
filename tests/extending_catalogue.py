"""Extensions written with cujit.extending's high-level API, shared by the CPU tests
(test_extending.py) and the CUDA ones (cuda_kernels/test_extending_cuda.py). Each overloaded
function is also a working Python function, so compiled code is checked against it."""
import math

import numpy as np

from cujit import types
from cujit.errors import TypingError
from cujit.extending import (overload, overload_attribute, overload_method,
                             register_jitable)

# ---- functions: per-type implementations, keyword defaults, optional arguments ----


def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@overload(clamp)
def ov_clamp(x, lo, hi):
    if isinstance(x, (types.Integer, types.Float)):
        def impl(x, lo, hi):
            if x < lo:
                return lo
            if x > hi:
                return hi
            return x
        return impl


def scaled(x, factor=2):
    return x * factor


@overload(scaled)
def ov_scaled(x, factor=2):
    def impl(x, factor=2):
        return x * factor
    return impl


def kind_of(x):  # generated_jit style: one implementation per type
    if isinstance(x, np.ndarray):
        return 4
    if isinstance(x, (bool, np.bool_)):
        return 5
    if isinstance(x, complex):
        return 3
    return 2 if isinstance(x, float) else 1


@overload(kind_of)
def ov_kind_of(x):
    if isinstance(x, types.Boolean):
        return lambda x: 5
    if isinstance(x, types.Integer):
        return lambda x: 1
    if isinstance(x, types.Float):
        return lambda x: 2
    if isinstance(x, types.Complex):
        return lambda x: 3
    if isinstance(x, types.Array):
        return lambda x: 4


def norm2(x):
    return float(np.sqrt(np.sum(np.asarray(x, dtype=np.float64) ** 2)))


@overload(norm2)
def ov_norm2_array(x):
    if isinstance(x, types.Array) and x.ndim == 1:
        def impl(x):
            s = 0.0
            for i in range(x.shape[0]):
                s += x[i] * x[i]
            return math.sqrt(s)
        return impl


@overload(norm2)
def ov_norm2_scalar(x):  # a second overload of the same function, tried after the first
    if isinstance(x, (types.Integer, types.Float)):
        def impl(x):
            return math.sqrt(x * x)
        return impl


def offset(x, y=None):
    return x if y is None else x + y


@overload(offset)
def ov_offset(x, y=None):
    if y is None or isinstance(y, (types.NoneType, types.Omitted)):
        def impl(x, y=None):
            return x
        return impl

    def impl_y(x, y=None):
        return x + y
    return impl_y


def floor_divmod(a, b):
    return a // b, a % b


@overload(floor_divmod)
def ov_floor_divmod(a, b):
    if isinstance(a, types.Integer) and isinstance(b, types.Integer):
        def impl(a, b):
            return a // b, a % b
        return impl


def ramp(n, step=1.0):
    return np.arange(n) * step


@overload(ramp)
def ov_ramp(n, step=1.0):
    def impl(n, step=1.0):
        out = np.empty(n)
        for i in range(n):
            out[i] = i * step
        return out
    return impl


def safe_div(a, b):
    return np.float64(a) / np.float64(b) if b == 0 else a / b


@overload(safe_div, jit_options={"error_model": "numpy"})
def ov_safe_div(a, b):
    def impl(a, b):
        return a / b  # error_model='numpy': inf, not ZeroDivisionError
    return impl


def where_am_i():
    return 0


@overload(where_am_i)
def ov_where_generic():
    return lambda: 0


@overload(where_am_i, target="cpu")
def ov_where_cpu():
    return lambda: 1


@overload(where_am_i, target="cuda")
def ov_where_cuda():
    return lambda: 2


def twice_clamped(x):
    return clamp(scaled(x), -10, 10)


@overload(twice_clamped)
def ov_twice_clamped(x):
    def impl(x):
        return clamp(scaled(x), -10, 10)  # extensions calling extensions
    return impl


# ---- functions cujit compiles itself, or NumPy's: the user's overload comes first ----

@overload(abs)
def ov_abs_tuple(t):
    if isinstance(t, types.UniTuple):  # numbers stay with cujit's own abs
        def impl(t):
            s = 0
            for v in t:
                s += abs(v)
            return s
        return impl


@overload(np.sum)
def ov_np_sum_tuple(t):
    if isinstance(t, types.UniTuple):
        def impl(t):
            s = 0
            for v in t:
                s += v
            return s
        return impl


# numba's documented example (overload(scipy.linalg.norm)), on np.linalg.norm


@register_jitable
def _oneD_norm_2(a):
    val = np.abs(a)
    return np.sqrt(np.sum(val * val))


@overload(np.linalg.norm)
def jit_norm(a, ord=None):
    if isinstance(ord, types.Optional):
        ord = ord.type
    # Reject non integer, floating-point or None types for ord
    if not isinstance(ord, (types.Integer, types.Float, types.NoneType)):
        raise TypingError("'ord' must be either integer or floating-point")
    # Reject non-ndarray types
    if not isinstance(a, types.Array):
        raise TypingError("Only accepts NumPy ndarray")
    # Reject ndarrays with non integer or floating-point dtype
    if not isinstance(a.dtype, (types.Integer, types.Float)):
        raise TypingError("Only integer and floating point types accepted")
    # Reject ndarrays with unsupported dimensionality
    if not (0 <= a.ndim <= 2):
        raise TypingError('3D and beyond are not allowed')
    # Implementation for scalars/0d-arrays
    elif a.ndim == 0:
        return a.item()
    # Implementation for vectors
    elif a.ndim == 1:
        def _oneD_norm_x(a, ord=None):
            if ord == 2 or ord is None:
                return _oneD_norm_2(a)
            elif ord == np.inf:
                return np.max(np.abs(a))
            elif ord == -np.inf:
                return np.min(np.abs(a))
            elif ord == 0:
                return np.sum(a != 0)
            elif ord == 1:
                return np.sum(np.abs(a))
            else:
                return np.sum(np.abs(a)**ord)**(1. / ord)
        return _oneD_norm_x
    # Implementation for matrices
    elif a.ndim == 2:
        def _two_D_norm_2(a, ord=None):
            return _oneD_norm_2(a.ravel())
        return _two_D_norm_2


# ---- register_jitable helpers calling each other ----

@register_jitable
def sq(x):
    return x * x


@register_jitable
def hyp(a, b):
    return math.sqrt(sq(a) + sq(b))


@register_jitable(fastmath=True)
def poly(x, c0=1.0, c1=0.0):
    return c0 + c1 * x + hyp(x, c1)


# ---- methods ----

@overload_method(types.Array, "sum_of_squares")
def ov_sum_of_squares(a):
    def impl(a):
        s = 0.0
        for v in a.flat:
            s += v * v
        return s
    return impl


@overload_method(types.Array, "scaled_sum")
def ov_scaled_sum(a, scale=1.0):
    def impl(a, scale=1.0):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s * scale
    return impl


# numba's documented overload_method example
@overload_method(types.Array, 'take')
def array_take(arr, indices):
    if isinstance(indices, types.Array):
        def take_impl(arr, indices):
            n = indices.shape[0]
            res = np.empty(n, arr.dtype)
            for i in range(n):
                res[i] = arr[indices[i]]
            return res
        return take_impl


@overload_method(types.Integer, "is_even")
def ov_is_even(x):
    return lambda x: x % 2 == 0


@overload_method(types.Float, "clip01")
def ov_clip01(x):
    def impl(x):
        return clamp(x, 0.0, 1.0)
    return impl


# ---- attributes ----

@overload_attribute(types.Array, "nbytes2")
def ov_nbytes2(a):
    def get(a):
        return a.size * a.itemsize
    return get


@overload_attribute(types.Array, "first")
def ov_first(a):
    if a.ndim == 1:
        return lambda a: a[0]


@overload_attribute(types.Complex, "abs2")
def ov_abs2(z):
    return lambda z: z.real * z.real + z.imag * z.imag


@overload_attribute(types.UniTuple, "total")
def ov_total(t):
    def get(t):
        s = 0
        for v in t:
            s += v
        return s
    return get
