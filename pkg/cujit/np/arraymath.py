"""NumPy functions compiled from Python, as numba implements most of its NumPy library: a call
of ``np.diff(a)`` in jitted code is typed and compiled as a call of ``diff`` below (the C core
looks the NumPy function up in IMPLEMENTATIONS). Each follows numba's semantics and error
texts; what a function does not support raises a clear error at compile time."""
import numpy as np

from cujit.decorators import njit


# --- shaping and products ---
# numba builds np.flip's tuple of slices for any rank; cujit has no slice objects as values, so
# each rank (its ndim is a compile-time constant) spells its view out, up to 8 dimensions.


@njit
def flip(m):
    a = np.asarray(m)
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        return a[::-1]
    if a.ndim == 2:
        return a[::-1, ::-1]
    if a.ndim == 3:
        return a[::-1, ::-1, ::-1]
    if a.ndim == 4:
        return a[::-1, ::-1, ::-1, ::-1]
    if a.ndim == 5:
        return a[::-1, ::-1, ::-1, ::-1, ::-1]
    if a.ndim == 6:
        return a[::-1, ::-1, ::-1, ::-1, ::-1, ::-1]
    if a.ndim == 7:
        return a[::-1, ::-1, ::-1, ::-1, ::-1, ::-1, ::-1]
    if a.ndim == 8:
        return a[::-1, ::-1, ::-1, ::-1, ::-1, ::-1, ::-1, ::-1]
    raise NotImplementedError("np.flip() of arrays of more than 8 dimensions")


@njit
def flipud(m):
    a = np.asarray(m)
    if a.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return a[::-1]


@njit
def fliplr(m):
    a = np.asarray(m)
    if a.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return a[:, ::-1]


@njit
def outer(a, b, out=None):
    aa = np.asarray(a)
    bb = np.asarray(b)
    column = aa.ravel().reshape((aa.size, 1))
    row = bb.ravel().reshape((1, bb.size))
    if out is None:
        return np.multiply(column, row)
    return np.multiply(column, row, out)


@njit
def _cross_components(x):
    # each component keeps a trailing axis of length 1, so that the components of a 1-D and
    # an N-D operand broadcast against each other as their vectors do
    x0 = x.T[0:1].T
    x1 = x.T[1:2].T
    if x.shape[-1] == 3:
        x2 = x.T[2:3].T
    else:
        x2 = np.multiply(np.zeros_like(x0), x0)
    return x0, x1, x2


@njit
def cross(a, b):
    a_ = np.asarray(a)
    b_ = np.asarray(b)
    na = a_.shape[-1]
    nb = b_.shape[-1]
    if (na != 2 and na != 3) or (nb != 2 and nb != 3):
        raise ValueError("Incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if na == 2 and nb == 2:
        raise ValueError("Dimensions for both inputs is 2.\n"
                         "Please replace your numpy.cross(a, b) call with "
                         "a call to `cross2d(a, b)` from `numba.np.extensions`.")
    a0, a1, a2 = _cross_components(a_)
    b0, b1, b2 = _cross_components(b_)
    cp0 = np.multiply(a1, b2) - np.multiply(a2, b1)
    cp1 = np.multiply(a2, b0) - np.multiply(a0, b2)
    cp2 = np.multiply(a0, b1) - np.multiply(a1, b0)
    out = cp0 + np.zeros(3, np.bool_)  # the broadcast shape plus (3,), in cp0's dtype
    t = out.T
    t[0:1] = cp0.T
    t[1:2] = cp1.T
    t[2:3] = cp2.T
    return out


# --- np.random's multinomial and dirichlet, on the compiled generators ---
# NumPy's legacy algorithms over np.random.binomial and np.random.standard_gamma, which draw
# from the same per-thread stream as NumPy's RandomState, so a seeded run matches NumPy's values.


@njit
def _size_plus(size, k):
    # `size` (an int or a tuple of ints) with a trailing dimension of length k
    return np.empty(size, np.bool_).shape + (k,)


@njit
def multinomial(n, pvals, size=None):
    k = len(pvals)
    if size is None:
        out = np.zeros(k, np.int64)
    else:
        out = np.zeros(_size_plus(size, k), np.int64)
    if n < 0:
        raise ValueError("n < 0")
    head = 0.0
    for j in range(k):
        p = pvals[j]
        if not (p >= 0.0 and p <= 1.0):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if j < k - 1:
            head += p
    if head > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")
    flat = out.reshape(out.size)
    for i in range(0, out.size, k):
        p_sum = 1.0
        left = n
        for j in range(k - 1):
            p_j = pvals[j]
            n_j = np.random.binomial(left, min(p_j / p_sum, 1.0))
            flat[i + j] = n_j
            left -= n_j
            if left <= 0:
                break
            p_sum -= p_j
        if left > 0:
            flat[i + k - 1] = left
    return out


@njit
def dirichlet(alpha, size=None):
    k = len(alpha)
    if size is None:
        out = np.empty(k, np.float64)
    else:
        out = np.empty(_size_plus(size, k), np.float64)
    for j in range(k):
        if alpha[j] <= 0:
            raise ValueError("alpha <= 0")
    flat = out.reshape(out.size)
    for i in range(0, out.size, k):
        acc = 0.0
        for j in range(k):
            flat[i + j] = np.random.standard_gamma(alpha[j])
            acc += flat[i + j]
        inv = 1.0 / acc if acc != 0.0 else np.inf  # NumPy's C: 0 * inf, a NaN
        for j in range(k):
            flat[i + j] = flat[i + j] * inv
    return out


@njit
def _draw_index(cdf, x):
    # cdf.searchsorted(x, side='right'): the count of cdf's items <= x
    lo = 0
    hi = cdf.size
    while lo < hi:
        mid = (lo + hi) // 2
        if cdf[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit
def _choice_cdf(p):
    cdf = np.cumsum(p)
    return cdf / cdf[-1]


@njit
def _choice_indices(n, count, replace, p):
    # NumPy's legacy RandomState.choice with p, value for value: one random_sample per draw
    idx = np.empty(count, np.int64)
    if replace:
        cdf = _choice_cdf(p)
        for i in range(count):
            idx[i] = _draw_index(cdf, np.random.random_sample())
        return idx
    if count > n:
        raise ValueError("Cannot take a larger sample than population when replace is False")
    nonzero = 0
    for j in range(n):
        if p[j] > 0:
            nonzero += 1
    if nonzero < count:
        raise ValueError("Fewer non-zero entries in p than size")
    q = p.copy()
    seen = np.zeros(n, np.bool_)
    found = 0
    while found < count:
        x = np.random.random_sample(count - found)
        for i in range(found):
            q[idx[i]] = 0.0
        cdf = _choice_cdf(q)
        for i in range(x.size):  # each new index once, in the order first drawn
            j = _draw_index(cdf, x[i])
            if not seen[j]:
                seen[j] = True
                idx[found] = j
                found += 1
        seen[:] = False
        for i in range(found):
            seen[idx[i]] = True
    return idx


@njit
def choice(a, size=None, replace=True, p=None):
    pool = np.asarray(a)
    if pool.ndim == 0:
        n = pool[()]
    else:
        n = pool.shape[0]
    if pool.ndim > 1:
        raise ValueError("a must be 1-dimensional")
    probs = np.asarray(p).astype(np.float64)
    if probs.ndim != 1:
        raise ValueError("'p' must be 1-dimensional")
    if probs.size != n:
        raise ValueError("'a' and 'p' must have same size")
    total = 0.0
    for j in range(probs.size):
        total += probs[j]
        if probs[j] < 0:
            raise ValueError("probabilities are not non-negative")
    if total != total:
        raise ValueError("probabilities contain NaN")
    if abs(total - 1.0) > 1.4901161193847656e-08:
        raise ValueError("probabilities do not sum to 1")
    if size is None:
        i = _choice_indices(n, 1, replace, probs)[0]
        if pool.ndim == 0:
            return i
        return pool[i]
    shape = np.empty(size, np.bool_).shape
    idx = _choice_indices(n, np.empty(size, np.bool_).size, replace, probs)
    if pool.ndim == 0:
        return idx.reshape(shape)
    return pool[idx].reshape(shape)


@njit
def diff(a, n=1):
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    if n == 0:
        return a.copy()
    if n < 0:
        raise ValueError("diff(): order must be non-negative")
    # numba's algorithm: each last-axis row of a C copy differenced in place, in a.dtype (a
    # bool difference is True where the two differ), then the first size - n items kept
    size = a.shape[-1]
    work = a.copy()
    if size > n:
        rows = work.reshape((work.size // size, size))
        for r in range(rows.shape[0]):
            for k in range(n):
                for i in range(size - k - 1):
                    rows[r, i] = rows[r, i + 1] - rows[r, i]
    return work.T[:max(size - n, 0)].T.copy()


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
    s = a[:0, :0].sum()  # a zero of the sum's type (a[0, 0] - a[0, 0] is NaN for inf)
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
    # numba: the flattened elements rolled, in the input's shape
    arr = np.asarray(a)
    flat = arr.ravel()
    out = np.empty_like(flat)
    n = flat.size
    if n == 0:
        return out.reshape(arr.shape)
    s = shift % n
    out[s:] = flat[:n - s]
    out[:s] = flat[n - s:]
    return out.reshape(arr.shape)



# --- searching and counting ---
# np.nonzero, np.where(c) and np.argwhere are C (typing/array_search.c); np.searchsorted's
# side is read by the C typer, which calls searchsorted or searchsorted_array below with the
# constant `right`. The comparisons are NumPy's sort order (NaN last; complex numbers by real
# part, then imaginary part, as numba's), written once for every dtype: the imaginary part of
# a real number is a constant 0 the compiler folds away. `x.real.itemsize < x.itemsize` is a
# compile-time test for a complex array (the branches it decides are pruned).

_range = range  # histogram's parameter `range` hides the builtin inside it
_LIKELY_IN_CACHE_SIZE = 8


@njit
def _sorts_before(x, y):
    xr, yr, xi, yi = x.real, y.real, x.imag, y.imag
    if xr < yr:
        return xi == xi or yi != yi
    if xr > yr:
        return yi != yi and xi == xi
    if xr == yr or (xr != xr and yr != yr):
        return xi < yi or (yi != yi and xi == xi)
    return yr != yr


@njit
def _bisect(a, key, lo, hi, right):
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if right:
            after = not _sorts_before(key, a[mid])
        else:
            after = _sorts_before(a[mid], key)
        if after:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit
def searchsorted(a, v, right=False):
    return _bisect(a, v, 0, a.size, right)


@njit
def searchsorted_array(a, v, right=False):
    keys = v.ravel()
    out = np.empty(keys.size, np.int64)
    n = a.size
    lo = 0
    hi = n
    for i in _range(keys.size):
        key = keys[i]
        # NumPy's binsearch: after a smaller key only the lower bound is kept
        if i > 0 and (not _sorts_before(key, keys[i - 1]) if right
                      else _sorts_before(keys[i - 1], key)):
            hi = n
        else:
            lo = 0
            hi = hi + 1 if hi < n else n
        lo = _bisect(a, key, lo, hi, right)
        hi = lo
        out[i] = lo
    return out.reshape(v.shape)


@njit
def _monotonicity(bins):
    n = bins.size
    if n == 0:
        return 1
    last = bins[0]
    i = 1
    while i < n and bins[i] == last:
        i += 1
    if i == n:
        return 1
    nxt = bins[i]
    if last < nxt:
        for k in _range(i + 1, n):
            last = nxt
            nxt = bins[k]
            if last > nxt:
                return 0
        return 1
    for k in _range(i + 1, n):
        last = nxt
        nxt = bins[k]
        if last < nxt:
            return 0
    return -1


@njit
def digitize(x, bins, right=False):
    xa = np.asarray(x)
    if xa.real.itemsize < xa.itemsize:
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array")
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    # the sides swap: digitize's right=False is searchsorted's 'right'
    if right:
        if mono == -1:
            return bins.size - np.searchsorted(bins[::-1], x, side='left')
        return np.searchsorted(bins, x, side='left')
    if mono == -1:
        return bins.size - np.searchsorted(bins[::-1], x, side='right')
    return np.searchsorted(bins, x, side='right')


@njit
def _outer_edges(a, range):
    if range is None:
        if a.size == 0:
            return 0.0, 1.0
        first = float(a.min())
        last = float(a.max())
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError("histogram(): autodetected range is not finite")
    else:
        first = float(range[0])
        last = float(range[1])
        if first > last:
            raise ValueError("histogram(): max must be larger than min in range parameter")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError("histogram(): supplied range is not finite")
    if first == last:
        first -= 0.5
        last += 0.5
    return first, last


@njit
def _histogram_equal_bins(a, n, range):
    if n < 1:
        raise ValueError("histogram(): `bins` should be a positive integer")
    first, last = _outer_edges(a, range)
    edges = np.linspace(first, last, n + 1)
    hist = np.zeros(n, np.int64)
    width = last - first
    for i in _range(a.size):
        v = a[i]
        if not (v >= first and v <= last):
            continue
        x = float(v)
        # NumPy's: the bin from the width, then moved by one where rounding missed an edge
        k = int((x - first) / width * n)
        if k == n:
            k -= 1
        if x < edges[k]:
            k -= 1
        elif x >= edges[k + 1] and k != n - 1:
            k += 1
        hist[k] += 1
    return hist, edges


@njit
def _histogram_edges(a, bins):
    nbins = bins.size - 1
    if nbins < 0:
        raise ValueError("histogram(): bins must have at least one edge")
    for i in _range(nbins):
        if not bins[i] <= bins[i + 1]:  # NaN too
            raise ValueError("histogram(): bins must increase monotonically")
    hist = np.zeros(nbins, np.int64)
    if nbins == 0:
        return hist, bins
    lowest = bins[0]
    highest = bins[nbins]
    for i in _range(a.size):
        v = a[i]
        if not (lowest <= v and v <= highest):  # outside, or NaN
            continue
        lo = 0  # the last edge at or below v, among bins[:-1]
        hi = nbins - 1
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if v < bins[mid]:
                hi = mid - 1
            else:
                lo = mid
        hist[lo] += 1
    return hist, bins


@njit
def histogram(a, bins=10, range=None):
    flat = np.asarray(a).ravel()
    if np.asarray(bins).ndim == 0:
        return _histogram_equal_bins(flat, bins, range)
    if bins.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    return _histogram_edges(flat, bins)


@njit
def _search_with_guess(key, arr, length, guess):
    # numba's binary_search_with_guess, NumPy's before 1.15
    imin = 0
    imax = length
    if key > arr[length - 1]:
        return length
    elif key < arr[0]:
        return -1
    if length <= 4:
        i = 1
        while i < length and key >= arr[i]:
            i += 1
        return i - 1
    if guess > length - 3:
        guess = length - 3
    if guess < 1:
        guess = 1
    if key < arr[guess]:
        if key < arr[guess - 1]:
            imax = guess - 1
            if guess > _LIKELY_IN_CACHE_SIZE and key >= arr[guess - _LIKELY_IN_CACHE_SIZE]:
                imin = guess - _LIKELY_IN_CACHE_SIZE
        else:
            return guess - 1
    else:
        if key < arr[guess + 1]:
            return guess
        if key < arr[guess + 2]:
            return guess + 1
        imin = guess + 2
        if guess < length - _LIKELY_IN_CACHE_SIZE - 1 and \
                key < arr[guess + _LIKELY_IN_CACHE_SIZE]:
            imax = guess + _LIKELY_IN_CACHE_SIZE
    while imin < imax:
        imid = imin + ((imax - imin) >> 1)
        if key >= arr[imid]:
            imin = imid + 1
        else:
            imax = imid
    return imin - 1


@njit
def _interp_part(slope, x, dx, dy, j):
    # NumPy's: if one direction gives NaN, try the other
    r = slope * (x - dx[j]) + dy[j]
    if np.isnan(r):
        r = slope * (x - dx[j + 1]) + dy[j + 1]
        if np.isnan(r) and dy[j] == dy[j + 1]:
            r = dy[j]
    return r


@njit
def _interp_complex(z, dx, fp):
    dy = np.asarray(fp, np.complex128)
    out = np.empty(z.size, np.complex128)
    n = dx.size
    j = 0
    for i in _range(z.size):
        x = z[i]
        if n == 1:
            out[i] = dy[0]
            continue
        if np.isnan(x):
            out[i] = complex(x, 0.0)
            continue
        j = _search_with_guess(x, dx, n, j)
        if j == -1:
            out[i] = dy[0]
        elif j >= n - 1:
            out[i] = dy[n - 1]
        elif dx[j] == x:
            out[i] = dy[j]
        else:
            inv = np.divide(1.0, dx[j + 1] - dx[j])
            re = _interp_part((dy[j + 1].real - dy[j].real) * inv, x, dx, dy.real, j)
            im = _interp_part((dy[j + 1].imag - dy[j].imag) * inv, x, dx, dy.imag, j)
            out[i] = complex(re, im)
    return out


@njit
def _interp_real(z, dx, fp):
    dy = np.asarray(fp, np.float64)
    out = np.empty(z.size, np.float64)
    n = dx.size
    j = 0
    for i in _range(z.size):
        x = z[i]
        if n == 1:
            out[i] = dy[0]
            continue
        if np.isnan(x):
            out[i] = x
            continue
        j = _search_with_guess(x, dx, n, j)
        if j == -1:
            out[i] = dy[0]
        elif j >= n - 1:
            out[i] = dy[n - 1]
        elif dx[j] == x:
            out[i] = dy[j]
        else:
            slope = np.divide(dy[j + 1] - dy[j], dx[j + 1] - dx[j])
            out[i] = _interp_part(slope, x, dx, dy, j)
    return out


@njit
def interp(x, xp, fp):
    xa = np.asarray(x)
    if xa.real.itemsize < xa.itemsize or xp.real.itemsize < xp.itemsize:
        raise TypeError("Cannot cast array data from complex dtype to float64 dtype")
    if xp.ndim != 1:
        raise ValueError("xp must be 1D")
    if fp.ndim != 1:
        raise ValueError("fp must be 1D")
    if xp.size == 0:
        raise ValueError("array of sample points is empty")
    if xp.size != fp.size:
        raise ValueError("fp and xp are not of the same size.")
    z = np.asarray(xa.ravel(), np.float64)
    dx = np.asarray(xp, np.float64)
    if fp.real.itemsize < fp.itemsize:
        out = _interp_complex(z, dx, fp)
    else:
        out = _interp_real(z, dx, fp)
    if xa.ndim == 0:
        return out[0]
    return out.reshape(xa.shape)

IMPLEMENTATIONS = {
    np.flip: flip,
    np.flipud: flipud,
    np.fliplr: fliplr,
    np.outer: outer,
    np.cross: cross,
    np.random.multinomial: multinomial,
    np.random.dirichlet: dirichlet,
    np.random.choice: choice,  # with p= only (array_random.c)
    np.diff: diff,
    np.flatnonzero: flatnonzero,
    np.unique: unique,
    np.trace: trace,
    np.array_equal: array_equal,
    np.isclose: isclose,
    np.allclose: allclose,
    np.bincount: bincount,
    np.roll: roll,
    # --- searching and counting ---
    np.digitize: digitize,
    np.histogram: histogram,
    np.interp: interp,
}
