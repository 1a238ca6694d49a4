"""Small gaps against numba: t.index(x) of any tuple, the members of a slice object, sum() of
strings refused in numba's words, and what numba refuses (max()/min() of several strings, a
list literal of mixed items) refused as numba does. Differential against CPython (and numba's
values where a slice's None members differ from CPython's), exact types, numba's errors,
compiled allocations freed."""
import re

import pytest

from cujit import njit
from cujit.errors import TypingError

from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

INT64_MAX = 2**63 - 1
INT64_MIN = -2**63


def index_of_ints(x):
    return (1, 2, 3, 2).index(x)


def index_of_mixed(s, f, i):
    t = (1, "a", 2.5, "b", 1)
    return t.index(s), t.index(f), t.index(i), t.index(2.5), t.index(True)


def index_in_argument(t, x):
    return t.index(x)


def index_of_empty(x):
    return ().index(x)


def index_with_start(x):
    return (1, 2, 3).index(x, 1)


INDEX_OF_INTS = njit(index_of_ints)
INDEX_OF_MIXED = njit(index_of_mixed)
INDEX_IN_ARGUMENT = njit(index_in_argument)


@pytest.mark.parametrize("x", [1, 2, 3, 2.0])
def test_index_of_a_homogeneous_tuple_is_cpythons(x):
    exact(INDEX_OF_INTS(x), index_of_ints(x))


@pytest.mark.parametrize("fn,args", [
    (index_of_ints, (7,)),
    (index_of_ints, (2.5,)),
    (index_in_argument, (("a", "bb"), "b")),
    (index_of_empty, (1,)),
])
def test_index_of_an_item_not_there_is_cpythons_value_error(fn, args):
    with pytest.raises(ValueError, match=re.escape("tuple.index(x): x not in tuple")):
        fn(*args)
    with pytest.raises(ValueError, match=re.escape("tuple.index(x): x not in tuple")):
        njit(fn)(*args)


def test_index_of_a_heterogeneous_tuple_compares_items_of_x_kind_only():
    exact(INDEX_OF_MIXED("b", 2.5, 1), index_of_mixed("b", 2.5, 1))
    exact(INDEX_OF_MIXED("a", 1.0, 1), index_of_mixed("a", 1.0, 1))
    with pytest.raises(ValueError, match=re.escape("tuple.index(x): x not in tuple")):
        INDEX_OF_MIXED("c", 2.5, 1)


@pytest.mark.parametrize("t,x", [
    ((1, 2, 3), 3),
    (("x", "yy", "yy"), "yy"),
    ((1, 2.5), 2.5),
    ((1, "a"), 1),
    ((1.5, 2.0), 2),
])
def test_index_of_an_argument_tuple_is_cpythons(t, x):
    exact(INDEX_IN_ARGUMENT(t, x), index_in_argument(t, x))


def test_index_takes_no_start_as_numba():
    with pytest.raises(TypingError, match=re.escape("BoundFunction(tuple.index)")):
        njit(index_with_start)(2)


def slice_members(a, b, c):
    s1, s2, s3 = slice(a), slice(a, b), slice(a, b, c)
    s4, s5, s6 = slice(None, None, c), slice(a, None, c), slice(None, b, None)
    return ((s1.start, s1.stop, s1.step), (s2.start, s2.stop, s2.step),
            (s3.start, s3.stop, s3.step), (s4.start, s4.stop, s4.step),
            (s5.start, s5.stop, s5.step), (s6.start, s6.stop, s6.step))


SLICE_MEMBERS = njit(slice_members)


def numba_members(s):
    """numba's slice members: a None step is 1, a None start or stop the bound of the
    step's direction (numba.cpython.slicing's defaults)."""
    step = 1 if s.step is None else s.step
    start = s.start if s.start is not None else 0 if step > 0 else INT64_MAX
    stop = s.stop if s.stop is not None else INT64_MAX if step > 0 else INT64_MIN
    return start, stop, step


@pytest.mark.parametrize("a,b,c", [(1, 5, 2), (3, -1, -1), (-2, 7, 3)])
def test_slice_members_are_numbas(a, b, c):
    want = (numba_members(slice(None, a)), numba_members(slice(a, b)),
            numba_members(slice(a, b, c)), numba_members(slice(None, None, c)),
            numba_members(slice(a, None, c)), numba_members(slice(None, b)))
    exact(SLICE_MEMBERS(a, b, c), want)


def test_slice_members_given_are_cpythons():
    got = SLICE_MEMBERS(1, 5, 2)[2]
    s = slice(1, 5, 2)
    exact(got, (s.start, s.stop, s.step))


def sum_list_from_string(s):
    return sum(["a"], s)


def sum_literal_start():
    return sum(["a"], "b")


def sum_range_from_string(s):
    return sum(range(2), s)


def sum_tuple_from_string(s):
    return sum(("a", "c"), s)


@pytest.mark.parametrize("fn,args", [
    (sum_list_from_string, ("b",)),
    (sum_literal_start, ()),
    (sum_range_from_string, ("b",)),
    (sum_tuple_from_string, ("b",)),
])
def test_sum_of_strings_is_refused_in_numbas_words(fn, args):
    text = "sum() can't sum strings [use ''.join(seq) instead]"
    with pytest.raises(TypeError, match=re.escape(text)):
        fn(*args)
    with pytest.raises(TypingError, match=re.escape(text)):
        njit(fn)(*args)


def max_of_strings(a, b):
    return max(a, b)


def min_of_strings(a, b, c):
    return min(a, b, c)


def mixed_list_literal(a):
    return len([a, "a"])


@pytest.mark.parametrize("fn,args,text", [
    (max_of_strings, ("a", "b"), "No implementation of function Function(max)"),
    (min_of_strings, ("a", "b", "c"), "No implementation of function Function(min)"),
    (mixed_list_literal, (1,), "numba's LiteralList of mixed items is not supported"),
])
def test_numba_refuses_these_and_so_does_cujit(fn, args, text):
    fn(*args)  # CPython has them
    with pytest.raises(TypingError, match=re.escape(text)):
        njit(fn)(*args)
