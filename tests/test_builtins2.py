"""Built-ins and standard-library functions compiled from Python (cujit.cpython: sum() of a
range or an array and sum(it, start), functools.reduce, operator.contains, cmath.log(z, base),
the random module's distributions): differential against CPython (and numba's types where
they differ), exact types, numba's errors, compiled allocations freed."""
import cmath
import functools
import math
import operator
import random
import re

import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError

from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def sums(n, lst, flst):
    return (sum(range(n)), sum(range(1, n, 2)), sum(lst, n), sum(flst, n), sum(range(n), 0.5),
            sum(lst), sum(flst))


def array_sums(a, f):
    return sum(a), sum(f), sum(a, 2.0)


def reduces(n, lst):
    add = functools.reduce(lambda a, b: a + b, range(n), 0)
    mul = functools.reduce(lambda a, b: a * b, lst, 1.0)
    first = functools.reduce(lambda a, b: a - b, lst)
    return add, mul, first


def reduce_empty(n):
    return functools.reduce(lambda a, b: a + b, [n][:0])


def contains(x, lst, s):
    return (operator.contains(lst, x), operator.contains(s, "b"), operator.contains(s, "x"),
            operator.contains({x: 1}, 2), operator.contains({x, 5}, 5))


def log_base(z, b):
    return cmath.log(z, b)


def draws(s):
    random.seed(s)
    return (random.betavariate(2.0, 3.0), random.betavariate(0.5, 0.5),
            random.gammavariate(0.5, 2), random.gammavariate(3.0, 1.5),
            random.gammavariate(1.0, 2.0), random.paretovariate(2.0),
            random.triangular(0.0, 3.0), random.triangular(1, 5, 2),
            random.triangular(2.0, 2.0, 2.0),
            random.vonmisesvariate(1.0, 2.0), random.vonmisesvariate(1.0, 0.0),
            random.weibullvariate(1.0, 2.0))


def lognorm(s):
    random.seed(s)
    a = random.lognormvariate(0.5, 2.0)
    random.seed(s)
    return a, math.exp(random.gauss(0.5, 2.0))


def gamma_bad(a):
    return random.gammavariate(a, 1.0)


sums_jit, array_sums_jit = njit(sums), njit(array_sums)
reduces_jit, reduce_empty_jit = njit(reduces), njit(reduce_empty)
contains_jit, log_base_jit = njit(contains), njit(log_base)
draws_jit, lognorm_jit, gamma_bad_jit = njit(draws), njit(lognorm), njit(gamma_bad)


@pytest.mark.parametrize("n", [0, 1, 7, -3])
def test_sum_of_ranges_and_with_start(n):
    exact(sums_jit(n, [1, 2, 3], [0.5, 1.25]), sums(n, [1, 2, 3], [0.5, 1.25]))


def test_sum_of_arrays_has_numbas_types():
    a = np.arange(5, dtype=np.int32)
    f = np.array([0.5, 0.25], dtype=np.float32)
    # numba adds the items to an int64 0: int64 and float64, where CPython keeps NumPy's types
    exact(array_sums_jit(a, f), (10, 0.75, 12.0))


def test_sum_of_a_string_start_is_a_typing_error():
    with pytest.raises(TypingError, match=re.escape("sum() can't sum strings [use ''.join(seq)")):
        njit(lambda: sum(["a"], "b"))()


def test_reduce_matches_cpython():
    rng = random.Random(3)
    for n in (0, 1, 6):
        lst = [rng.uniform(-2, 2) for _ in range(n + 1)]
        exact(reduces_jit(n, lst), reduces(n, lst))
    with pytest.raises(TypeError, match="reduce\\(\\) of empty iterable with no initial value"):
        reduce_empty_jit(1)
    with pytest.raises(TypeError, match="reduce\\(\\) of empty iterable with no initial value"):
        reduce_empty(1)


def test_reduce_needs_a_function():
    with pytest.raises(TypingError, match="reduce\\(\\): the function must be a jitted"):
        njit(lambda n: functools.reduce(n, [1, 2], 0))(1)


@pytest.mark.parametrize("x", [0, 2, 9])
def test_operator_contains(x):
    exact(contains_jit(x, [1, 2, 3], "abc"), contains(x, [1, 2, 3], "abc"))


def test_cmath_log_of_a_base():
    rng = random.Random(5)
    for _ in range(40):
        z = complex(rng.uniform(-9, 9), rng.uniform(-9, 9))
        for b in (2.0, rng.uniform(0.1, 50), complex(rng.uniform(-3, 3), rng.uniform(-3, 3))):
            got, want = log_base_jit(z, b), log_base(z, b)
            assert type(got) is complex
            assert cmath.isclose(got, want, rel_tol=1e-14), (z, b, got, want)
    exact(log_base_jit(8 + 0j, 2), log_base(8 + 0j, 2))


@pytest.mark.parametrize("seed", [1, 42])
def test_random_distributions_draw_as_cpython(seed):
    exact(draws_jit(seed), draws(seed))


def test_lognormvariate_is_exp_of_numbas_gauss():
    a, b = lognorm_jit(7)
    exact(a, b)


def test_gammavariate_domain_error_and_argument_types():
    with pytest.raises(ValueError, match="gammavariate: alpha and beta must be > 0.0"):
        gamma_bad_jit(0.0)
    with pytest.raises(TypingError):
        njit(lambda: random.paretovariate(2))()  # numba: a float alpha only


def range_ops(n, x):
    r = range(1, n, 3)
    back = range(n, -5, -2)
    return (r.start, r.stop, r.step, x in r, x not in r, r[0], r[-1], x in back, back[1],
            2.5 in r, 4.0 in r, operator.contains(r, x), range(n).start, range(n).stop,
            range(2, n).step, x in range(n), range(n)[-1] if n > 0 else -1)


range_ops_jit = njit(range_ops)


@pytest.mark.parametrize("n, x", [(11, 4), (11, 5), (2, 1), (20, -3), (5, 10)])
def test_range_attributes_in_and_indexing(n, x):
    exact(range_ops_jit(n, x), range_ops(n, x))


def test_range_index_out_of_range_is_cpythons_index_error():
    def f(n, i):
        return range(0, n, 2)[i]
    g = njit(f)
    exact(g(7, -4), f(7, -4))
    for i in (4, -5):
        with pytest.raises(IndexError, match="range object index out of range"):
            f(7, i)
        with pytest.raises(IndexError, match="range object index out of range"):
            g(7, i)


def slicing(n, a, lst, s):
    s1, s2, s3 = slice(1, n), slice(None, None, -1), slice(n)
    return (a[s1], a[s2], lst[s1], lst[s3], s[s2], s[slice(1, None, 2)], a[slice(None)],
            lst[slice(-n, None)])


slicing_jit = njit(slicing)


@pytest.mark.parametrize("n", [0, 2, -1, 9])
def test_slice_objects_index_arrays_lists_strings(n):
    a = np.arange(6)
    exact(slicing_jit(n, a, [1, 2, 3, 4], "hello"), slicing(n, a, [1, 2, 3, 4], "hello"))


def test_slice_argument_errors():
    with pytest.raises(TypingError, match="slice expected at least 1 argument, got 0"):
        njit(lambda: slice())()
    with pytest.raises(TypingError, match="slice indices must be integers or None, not float64"):
        njit(lambda x: [1, 2][slice(x, 2)])(1.5)


def attributes(x, a):
    return (getattr(x, "real"), getattr(x, "imag", 5), getattr(x, "nope", 7),
            hasattr(x, "real"), hasattr(x, "nope"), getattr(a, "ndim"), hasattr(a, "shape"),
            hasattr(a, "nope"), getattr(math, "pi"), getattr(a, "size", 2.5))


attributes_jit = njit(attributes)


@pytest.mark.parametrize("x", [2.5, 3, 1 + 2j])
def test_getattr_hasattr_at_compile_time(x):
    a = np.ones(3)
    exact(attributes_jit(x, a), attributes(x, a))


def test_getattr_errors():
    with pytest.raises(TypingError, match="Unknown attribute 'nope' of type float64"):
        njit(lambda x: getattr(x, "nope"))(1.5)
    with pytest.raises(TypingError, match="the attribute name must be a constant string"):
        njit(lambda x, s: getattr(x, s))(1.5, "real")
    with pytest.raises(TypingError, match="getattr expected at most 3 arguments, got 4"):
        njit(lambda x: getattr(x, "real", 1, 2))(1.5)
    with pytest.raises(TypingError, match="hasattr expected 2 arguments, got 1"):
        njit(lambda x: hasattr(x))(1.5)


def same_type(x):
    return type(x)(3), type(x)(x) == x


same_type_jit = njit(same_type)


def test_type_of_a_number_casts_as_numba():
    for x in (1.5, 2, True, 1 + 2j):
        exact(same_type_jit(x), same_type(x))
    # numba's results: a NumPy scalar's class casts, the value comes back as a Python number
    exact(same_type_jit(np.float32(1)), (3.0, True))
    exact(same_type_jit(np.int32(4)), (3, True))
    with pytest.raises(TypingError, match="type\\(\\) of unicode_type is not supported"):
        same_type_jit("a")
