"""NumPy functions compiled from Python, as numba implements most of its NumPy library: a call
of ``np.diff(a)`` in jitted code is typed and compiled as a call of ``diff`` below (the C core
looks the NumPy function up in IMPLEMENTATIONS). Each follows numba's semantics and error
texts; what a function does not support raises a clear error at compile time."""
import numpy as np

from cujit.decorators import njit


@njit
def diff(a, n=1):
    if n < 0:
        raise ValueError("diff(): order must be non-negative")
    if a.ndim > 2:
        raise NotImplementedError("np.diff() of arrays of more than 2 dimensions")
    r = a.copy()
    for _ in range(n):
        if a.ndim == 1:
            r = r[1:] - r[:-1]
        else:
            r = r[:, 1:] - r[:, :-1]
    return r


@njit
def flatnonzero(a):
    flat = a[np.ones(a.shape, np.bool_)]
    count = 0
    for i in range(flat.size):
        if flat[i]:
            count += 1
    out = np.empty(count, np.int64)
    k = 0
    for i in range(flat.size):
        if flat[i]:
            out[k] = i
            k += 1
    return out


@njit
def unique(a):
    b = np.sort(a[np.ones(a.shape, np.bool_)])
    if b.size == 0:
        return b
    keep = np.empty(b.size, np.bool_)
    keep[0] = True
    for i in range(1, b.size):
        keep[i] = b[i] != b[i - 1] and not (b[i] != b[i] and b[i - 1] != b[i - 1])
    return b[keep]


@njit
def trace(a):
    s = a[0, 0] - a[0, 0] if a.shape[0] > 0 and a.shape[1] > 0 else a[:0, :0].sum()
    for i in range(min(a.shape[0], a.shape[1])):
        s += a[i, i]
    return s


@njit
def array_equal(a1, a2):
    if a1.shape != a2.shape:
        return False
    return bool(np.all(a1 == a2))


@njit
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    close = np.abs(a - b) <= atol + rtol * np.abs(b)
    exact = a == b  # infinities of one sign
    both_nan = np.isnan(a) & np.isnan(b)
    return (close & np.isfinite(b)) | exact | (both_nan & equal_nan)


@njit
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.all(isclose(a, b, rtol, atol, equal_nan)))


@njit
def bincount(x, minlength=0):
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    n = minlength
    for i in range(x.size):
        if x[i] < 0:
            raise ValueError("bincount(): first argument must be non-negative")
        if x[i] + 1 > n:
            n = x[i] + 1
    out = np.zeros(n, np.int64)
    for i in range(x.size):
        out[x[i]] += 1
    return out


@njit
def roll(a, shift):
    if a.ndim != 1:
        raise NotImplementedError("np.roll() of arrays of more than one dimension")
    flat = a[np.ones(a.shape, np.bool_)]
    out = np.empty_like(flat)
    n = flat.size
    if n == 0:
        return out
    s = shift % n
    out[s:] = flat[:n - s]
    out[:s] = flat[n - s:]
    return out


IMPLEMENTATIONS = {
    np.diff: diff,
    np.flatnonzero: flatnonzero,
    np.unique: unique,
    np.trace: trace,
    np.array_equal: array_equal,
    np.isclose: isclose,
    np.allclose: allclose,
    np.bincount: bincount,
    np.roll: roll,
}
