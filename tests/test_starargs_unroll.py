"""*args (issue 13): a jitted ``def f(a, *rest)`` (its extra positional arguments one tuple,
numba's StarArgTuple, heterogeneous too) called from Python and from compiled code, and
``g(*t)``, ``g(a, *t, *u)``, ``g(*t, a)`` and ``g(*t, a, *u)`` of tuples inside compiled code
(3.11's LIST_APPEND/LIST_EXTEND/LIST_TO_TUPLE, 3.12's CALL_INTRINSIC_1); compared with CPython,
exact types. What is not compiled (**kwargs, f(*list)) says so. ``literal_unroll`` compiles
where it changes nothing (a tuple of one item type, a list made in the function); its
unrolling per item is tests/test_literal_unroll.py."""
import numpy as np
import pytest

from cujit import literal_unroll, njit
from cujit.errors import TypingError, UnsupportedError
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

RNG = np.random.default_rng(1314)




def all_args(*args):
    return args


def first_and_rest(a, *rest):
    return a, rest, len(rest)


def summed(a, *rest):
    s = a
    for x in rest:
        s += x
    return s


def with_keyword_only(a, *rest, scale=2):
    return a * scale + len(rest)


def indexed(*args):
    return args[0] * args[-1]


all_j, first_j, summed_j, kwonly_j, indexed_j = (
    njit(all_args), njit(first_and_rest), njit(summed), njit(with_keyword_only),
    njit(indexed))


def random_args(n):
    out = []
    for v in RNG.integers(-9, 9, n):
        out.append(int(v) if v % 2 else float(v) / 4)
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_star_parameters_called_from_python(n):
    args = random_args(n)
    exact(all_j(*args), all_args(*args))
    if n >= 1:
        exact(first_j(*args), first_and_rest(*args))
        exact(kwonly_j(*args), with_keyword_only(*args))
        exact(kwonly_j(*args, scale=3), with_keyword_only(*args, scale=3))
        exact(indexed_j(*args), indexed(*args))
    if n >= 2:
        ints = [int(v) for v in RNG.integers(-9, 9, n)]
        exact(summed_j(*ints), summed(*ints))


def test_heterogeneous_star_arguments():
    exact(all_j(1, 2.5, True, (1, 2)), (1, 2.5, True, (1, 2)))
    exact(first_j(1, (2.5, 3)), (1, ((2.5, 3),), 1))


def test_binding_errors_are_pythons():
    with pytest.raises(TypeError, match=r"missing required argument 'a'"):
        first_j()
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'b'"):
        first_j(1, b=2)
    with pytest.raises(TypeError, match=r"multiple values for argument 'a'"):
        first_j(1, a=2)


def calls_star_functions(x, y):
    return (all_args(x, y, 1.5), first_and_rest(x, y), first_and_rest(x),
            with_keyword_only(x, y, y, scale=5), all_args())


def star_calls_j(x, y):
    return (all_j(x, y, 1.5), first_j(x, y), first_j(x), kwonly_j(x, y, y, scale=5), all_j())


def test_star_functions_called_from_compiled_code():
    jf = njit(star_calls_j)
    for x, y in ((1, 2), (3, -4.5), (0, True)):
        exact(jf(x, y), calls_star_functions(x, y))


def add3(a, b, c=10):
    return a + b * c


add3_j = njit(add3)


def unpack_call(t):
    return add3(*t)


def unpack_call_j(t):
    return add3_j(*t)


def unpack_into_star(t):
    return all_args(*t), first_and_rest(*t)


def unpack_into_star_j(t):
    return all_j(*t), first_j(*t)


def unpack_built(x):
    return add3_j(*(x, 2.5))


@pytest.mark.parametrize("t", [(1, 2), (1, 2.5, 3), (True, 2, -1), (4.0, 2, 2)])
def test_star_call_in_compiled_code(t):
    exact(njit(unpack_call_j)(t), unpack_call(t))
    exact(njit(unpack_into_star_j)(t), unpack_into_star(t))


def test_star_call_of_a_built_tuple():
    exact(njit(unpack_built)(3), add3(3, 2.5))


def mixed_star(x, t):
    return add3_j(x, *t)


def mixed_star_py(x, t):
    return add3(x, *t)


def two_stars(x, t, u):
    return all_j(x, *t, *u), (x, *t)


def two_stars_py(x, t, u):
    return all_args(x, *t, *u), (x, *t)


@pytest.mark.parametrize("x, t, u", [(1, (2,), ()), (1.5, (2, 3), (True,)),
                                     (0, (), (2.5, (1, 2)))])
def test_star_arguments_after_others(x, t, u):
    if len(t) in (1, 2):
        exact(njit(mixed_star)(x, t), mixed_star_py(x, t))
    exact(njit(two_stars)(x, t, u), two_stars_py(x, t, u))


def after_a_star(x, t, u):
    return all_j(*t, x), all_j(*t, x, *u), (*t, x), (*u, x, *t, x), add3_j(*(x,), x, *(x,))


def after_a_star_py(x, t, u):
    return all_args(*t, x), all_args(*t, x, *u), (*t, x), (*u, x, *t, x), add3(x, *(x, x))


after_a_star_j = njit(after_a_star)


@pytest.mark.parametrize("seed", range(4))
def test_star_arguments_before_others(seed):
    rng = np.random.default_rng(seed)
    x = int(rng.integers(-50, 50))
    t = tuple(float(v) for v in rng.normal(size=int(rng.integers(0, 3))))
    u = (int(rng.integers(5)), bool(rng.integers(2)))
    exact(after_a_star_j(x, t, u), after_a_star_py(x, t, u))


def star_of_a_list(lst):
    return add3_j(*lst)


def star_of_python(t):
    return max(*t)


def too_many(t):
    return add3_j(*t)


def test_what_is_not_compiled_says_so():
    with pytest.raises(UnsupportedError, match=r"cujit unpacks tuples only"):
        njit(star_of_a_list)([1, 2])
    with pytest.raises(UnsupportedError, match=r"only of a jitted function"):
        njit(star_of_python)((1, 2))
    with pytest.raises(TypingError, match=r"too many positional arguments for add3\(\)"):
        njit(too_many)((1, 2, 3, 4))


def test_kwargs_parameters_are_refused():
    def kw(**kwargs):
        return 1
    with pytest.raises(UnsupportedError, match=r"\*\*kwargs parameters"):
        njit(kw)


# ---- literal_unroll: compiled where it changes nothing (its unrolling: test_literal_unroll.py) ----

def unroll_sum(t):
    s = 0.0
    for x in literal_unroll(t):
        s += x * 2
    return s


def unroll_local_list(n):
    s = 0
    for x in literal_unroll([1, n, 3]):
        s = s * 10 + x
    return s


def test_literal_unroll_of_one_item_type():
    assert literal_unroll((1, 2.5)) == (1, 2.5)  # the interpreter's: its argument
    for t in ((1.0, 2.5, -3.0), (4,), (True, False)):
        exact(njit(unroll_sum)(t), unroll_sum(t))
    for n in (0, 7):
        exact(njit(unroll_local_list)(n), unroll_local_list(n))


def unroll_two(t):
    return literal_unroll(t, t)


@pytest.mark.parametrize("fn, arg, words", [
    (unroll_sum, [1.0, 2.0], r"Invalid use of literal_unroll with a function argument, only "
                             r"tuples are supported as function arguments"),
    (unroll_two, (1,), r"literal_unroll takes one argument, found 2"),
])
def test_literal_unroll_what_is_not_compiled_says_so(fn, arg, words):
    with pytest.raises(UnsupportedError, match=words):
        njit(fn)(arg)
