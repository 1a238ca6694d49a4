"""Array arguments: indexing (negative wraps), slicing views, 2-D row views, iteration, attributes,
setitem visible to the caller, C/F/non-contiguous layouts, every numeric dtype."""
import numpy as np

from . import F, I, case

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float32, np.float64, np.complex64, np.complex128, np.bool_]


def arr1(rng, n=None, dtype=np.float64, lo=-10, hi=10):
    n = int(rng.integers(1, 12)) if n is None else n
    if np.dtype(dtype).kind in "iu":
        lo = max(lo, 0) if np.dtype(dtype).kind == "u" else lo
        return rng.integers(lo, hi, size=n).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, size=n).astype(np.bool_)
    if np.dtype(dtype).kind == "c":
        return (rng.uniform(lo, hi, n) + 1j * rng.uniform(lo, hi, n)).astype(dtype)
    return rng.uniform(lo, hi, n).astype(dtype)


def arr2(rng, order="C", dtype=np.float64):
    r, c = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    a = rng.uniform(-10, 10, (r, c)).astype(dtype)
    return np.asfortranarray(a) if order == "F" else a


def noncontig(rng, dtype=np.float64):
    return arr1(rng, int(rng.integers(2, 20)), dtype)[::2]


@case(gen=lambda rng: (arr1(rng),), sig="float64(float64[::1])")
def sum_1d(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@case(gen=lambda rng: (arr1(rng),), sig="float64(float64[:])")
def iterate_1d(a):
    s = 0.0
    for v in a:
        s += v * v
    return s


@case(gen=lambda rng: (arr1(rng),))
def negative_index(a):
    return a[-1] + a[-len(a)]


@case(gen=lambda rng: (arr1(rng), I(rng, -1, 1)))
def index_wraps(a, k):
    return a[k]


@case(gen=lambda rng: (arr1(rng, dtype=np.int64), F(rng)))
def setitem_visible(a, x):
    a[0] = 7
    a[-1] += 1
    return a[0]


@case(gen=lambda rng: (arr1(rng), F(rng)), sig="none(float64[::1], float64)")
def fill_returns_none(a, x):
    for i in range(len(a)):
        a[i] = x * i


@case(gen=lambda rng: (arr1(rng),))
def attributes_1d(a):
    return a.shape, a.ndim, a.size, len(a), a.strides


@case(gen=lambda rng: (arr2(rng),))
def attributes_2d_c(a):
    return a.shape, a.ndim, a.size, len(a), a.strides, a.shape[1]


@case(gen=lambda rng: (arr2(rng, "F"),))
def attributes_2d_f(a):
    return a.shape, a.strides, a.size


@case(gen=lambda rng: (arr2(rng),), sig="float64(float64[:, ::1])")
def sum_2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i + 1)
    return s


@case(gen=lambda rng: (arr2(rng, "F"),), sig="float64(float64[::1, :])")
def sum_2d_fortran(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (j + 1)
    return s


@case(gen=lambda rng: (noncontig(rng),))
def sum_noncontig(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * i
    return s, a.strides[0]


@case(gen=lambda rng: (arr2(rng)[:, ::2],))
def sum_2d_noncontig(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


@case(gen=lambda rng: (arr2(rng), I(rng, 0, 1)))
def row_view(a, i):
    r = a[i]
    s = 0.0
    for v in r:
        s += v
    return s, r.shape[0]


@case(gen=lambda rng: (arr2(rng),))
def row_view_setitem(a):
    r = a[0]
    r[0] = 42.0
    return a[0, 0]


@case(gen=lambda rng: (arr2(rng),))
def iterate_2d_rows(a):
    s = 0.0
    for row in a:
        s += row[0] - row[-1]
    return s


@case(gen=lambda rng: (arr1(rng, 10),))
def slice_view(a):
    b = a[2:7]
    b[0] = -1.0
    return b.shape[0], a[2]


@case(gen=lambda rng: (arr1(rng, 10),))
def slice_step(a):
    b = a[::3]
    s = 0.0
    for v in b:
        s += v
    return s, len(b)


@case(gen=lambda rng: (arr1(rng, 10),))
def slice_negative(a):
    b = a[::-1]
    return b[0] - a[-1], a[-3:].shape[0], a[:-2].shape[0]


@case(gen=lambda rng: (arr1(rng, 10), I(rng, -12, 12), I(rng, -12, 12)))
def slice_dynamic(a, i, j):
    b = a[i:j]
    s = 0.0
    for v in b:
        s += v
    return s, len(b)


@case(gen=lambda rng: (arr2(rng),))
def slice_2d(a):
    b = a[1:, :2]
    return b.shape, b.strides


@case(gen=lambda rng: (arr1(rng),))
def return_array(a):
    return a


@case(gen=lambda rng: (arr1(rng, 8),))
def return_slice(a):
    return a[1:5]


@case(gen=lambda rng: (arr2(rng),))
def return_row(a):
    return a[-1]


@case(gen=lambda rng: (arr1(rng), arr1(rng)))
def two_arrays(a, b):
    n = min(len(a), len(b))
    s = 0.0
    for i in range(n):
        s += a[i] * b[i]
    return s


@case(gen=lambda rng: (arr1(rng), np.zeros(11)))
def copy_into(src, dst):
    for i in range(len(src)):
        dst[i] = src[i] * 2.0
    return len(src)


@case(gen=lambda rng: (rng.uniform(-5, 5, (2, 3, 4)),))
def three_d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k] * (i - j + k)
    return s, a.ndim, a.strides


@case(gen=lambda rng: (rng.uniform(-5, 5, (2, 3, 4)),))
def three_d_subview(a):
    m = a[1]
    return m.shape, m[2, 3], a[-1, -1, -1]


@case(gen=lambda rng: (arr1(rng, dtype=np.int64),), sig="int64(int64[:])")
def argmax_loop(a):
    best = 0
    for i in range(1, len(a)):
        if a[i] > a[best]:
            best = i
    return best


@case(gen=lambda rng: (arr1(rng, dtype=np.int64),))
def enumerate_array(a):
    s = 0
    for i, v in enumerate(a):
        s += i * v
    return s


@case(gen=lambda rng: (arr1(rng, 6), arr1(rng, 6)))
def zip_arrays(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x - y
    return s


@case(gen=lambda rng: (arr1(rng),))
def inplace_scale(a):
    for i in range(a.shape[0]):
        a[i] *= 0.5
    return a.size


@case(gen=lambda rng: (arr2(rng, "F"),))
def setitem_2d_fortran(a):
    for i in range(a.shape[0]):
        a[i, 0] = i
    return a.shape[0]


@case(gen=lambda rng: (arr1(rng, 12).reshape(3, 4), I(rng, -3, 3)))
def row_negative_index(a, i):
    return a[i][-1] + a[i, 0]


@case(gen=lambda rng: (arr1(rng, 5), I(rng, 0, 5)))
def index_unsigned_and_int32(a, i):
    return a[np.uint32(i)] + a[np.int32(i)]


@case(gen=lambda rng: (arr1(rng, dtype=np.bool_),))
def bool_array_count(a):
    c = 0
    for v in a:
        if v:
            c += 1
    return c


@case(gen=lambda rng: (noncontig(rng, np.int32),))
def noncontig_setitem(a):
    for i in range(len(a)):
        a[i] = i * 3
    return a.strides


@case(gen=lambda rng: (arr1(rng, 9),))
def swap_elements(a):
    a[0], a[-1] = a[-1], a[0]
    return a[0]


@case(gen=lambda rng: (np.zeros((0,)),))
def empty_array(a):
    s = 0.0
    for v in a:
        s += v
    return s, len(a)


def _dtype_sum_case(dtype):
    def dtype_sum(a):
        s = a[0]
        for i in range(1, a.shape[0]):
            s = s + a[i]
        return s, a[-1]
    name = f"dtype_sum_{np.dtype(dtype).name}"
    case(gen=lambda rng: (arr1(rng, dtype=dtype, lo=-3, hi=4),), name=name)(dtype_sum)


def _dtype_setitem_case(dtype):
    def dtype_setitem(a):
        a[0] = a[-1]
        a[-1] = 1
        return a
    name = f"dtype_setitem_{np.dtype(dtype).name}"
    case(gen=lambda rng: (arr1(rng, dtype=dtype, lo=0, hi=9),), name=name)(dtype_setitem)


for _dt in DTYPES:
    if _dt is not np.bool_:  # numba sums bools as int64, NumPy's bool_ + bool_ is a logical or
        _dtype_sum_case(_dt)
    _dtype_setitem_case(_dt)
