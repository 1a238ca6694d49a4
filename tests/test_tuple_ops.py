"""Tuple operations (issue 13): comparisons of tuples whose items are strings, lists and
nested tuples (lexicographic, as CPython), sorted()/min()/max() of them, slices by constants,
`in`, sum(), and the truth of containers (numba's: len != 0). Each against CPython with exact
types; numba's errors where numba refuses. The dispatchers are shared: few compilations."""
import re

import pytest

from cujit import njit
from cujit.errors import TypingError
from cujit.extending import register_jitable
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")


@register_jitable
def compare_all(a, b):
    return a < b, a <= b, a > b, a >= b, a == b, a != b


compare_all_jit = njit(compare_all)

STR_INT_PAIRS = [
    (("a", 1), ("a", 2)), (("b", 1), ("a", 9)), (("", 0), ("", 0)), (("é", 1), ("e", 1)),
    (("中", 3), ("😀", 3)), (("ab", 1), ("a", 1)), (("", 5), ("a", -5)), (("Ωж", 0), ("Ωж", 0)),
]


@pytest.mark.parametrize("a,b", STR_INT_PAIRS)
def test_tuples_with_strings_compare_as_cpython(a, b):
    exact(compare_all_jit(a, b), compare_all(a, b))
    exact(compare_all_jit(b, a), compare_all(b, a))


@pytest.mark.parametrize("a,b", [((1, "x", 2.5), (1, "x", 2.5)), ((1, "x", 2.5), (1, "y", -1.0)),
                                 ((0, "", 0.0), (0, "", -0.0)), ((2, "é", 1.0), (1, "z", 9.0))])
def test_tuples_of_numbers_and_strings_compare_as_cpython(a, b):
    exact(compare_all_jit(a, b), compare_all(a, b))


def lists_and_nested(x, y, s):
    a = ((x, [x, y]), s)
    b = ((x, [x, x]), s + "")
    c = ((x, [x]), "")
    return compare_all(a, b) + compare_all(b, c) + compare_all(c, c)


lists_and_nested_jit = njit(lists_and_nested)


@pytest.mark.parametrize("x,y,s", [(1, 2, "a"), (1, 1, "é"), (3, -1, ""), (0, 0, "中文")])
def test_tuples_holding_lists_and_tuples_compare_as_cpython(x, y, s):
    exact(lists_and_nested_jit(x, y, s), lists_and_nested(x, y, s))


def sort_pairs(words, xs):
    pairs = [(w, [x, len(w)]) for w, x in zip(words, xs)]
    by_sorted = sorted(pairs)
    pairs.sort(reverse=True)
    return by_sorted, pairs, min(pairs), max(pairs)


sort_pairs_jit = njit(sort_pairs)


@pytest.mark.parametrize("words,xs", [
    (["b", "a", "b", "é", ""], [1, 2, 0, 5, 5]),
    (["😀", "中", "a"], [0, 0, 0]),
    (["x"], [-3]),
])
def test_sorted_min_max_of_tuples_holding_strings_and_lists(words, xs):
    exact(sort_pairs_jit(list(words), list(xs)), sort_pairs(list(words), list(xs)))


def minmax_args(a, b, s):
    return (min((a, s), (b, s), (a, "")), max((a, s), (b, s)), min((a, b), (b, a)),
            max((s, a), (s + "!", b)))


minmax_args_jit = njit(minmax_args)


@pytest.mark.parametrize("a,b,s", [(1, 2, "a"), (2, 2, ""), (-1, 5, "é中")])
def test_min_max_of_several_tuples(a, b, s):
    exact(minmax_args_jit(a, b, s), minmax_args(a, b, s))


def min_max_of_one_tuple(x, s):
    return min((x, 2.5)), max((x, True)), min((x,)), max((x, 3, -1)), min((s, "a", "é")), \
        max((s, s + "!"))


@pytest.mark.parametrize("x,s,want", [
    (1, "b", (1.0, 1, 1, 3, "a", "b!")),  # numba's: the numbers unified (CPython: 1, True)
    (7, "", (2.5, 7, 7, 7, "", "!")),
])
def test_min_max_of_one_tuple_unify_numbers_as_numba(x, s, want):
    exact(njit(min_max_of_one_tuple)(x, s), want)


def min_max_of_empty_list_of_tuples(n):
    pairs = [(str(i), i) for i in range(n)]
    return min(pairs)


def test_min_of_an_empty_list_of_tuples_raises_value_error():
    f = njit(min_max_of_empty_list_of_tuples)
    exact(f(3), min_max_of_empty_list_of_tuples(3))
    with pytest.raises(ValueError, match="empty sequence"):
        f(0)


def slices(x, y, s):
    t = (x, y, s, (x, s), 2.5)
    e = ()
    return (t[1:], t[::-1], t[1:4:2], t[-2:], t[:-10], t[10:], t[::-2], t[-100:100:3],
            t[3:0:-1], e[::-1], e[1:], (s,)[0:1])


slices_jit = njit(slices)


@pytest.mark.parametrize("x,y,s", [(1, 2.5, "a"), (0, -0.0, ""), (-7, 1e10, "é中😀")])
def test_slices_by_constants_of_any_tuple(x, y, s):
    exact(slices_jit(x, y, s), slices(x, y, s))


def slice_312(t):
    return t[1:3], t[:2], t[2:]  # BINARY_SLICE on 3.12, BUILD_SLICE + BINARY_SUBSCR on 3.11


def test_slices_of_a_homogeneous_argument():
    exact(njit(slice_312)((4, 5, 6, 7)), slice_312((4, 5, 6, 7)))


def containment(x, t, s):
    h = (x, 1.5, s, (x, x))
    return (x in t, x not in t, 3 in t, s in h, x in h, (x, x) in h, 1.5 in h, "" in h,
            x in (), 2.0 in t)


containment_jit = njit(containment)


@pytest.mark.parametrize("x,t,s", [(3, (1, 2, 3), "a"), (0, (1, 2, 3), ""), (1, (0, 0, 1), "é")])
def test_in_over_homogeneous_and_heterogeneous_tuples(x, t, s):
    exact(containment_jit(x, t, s), containment(x, t, s))


def sums(t, f, b):
    return sum(t), sum((f, b, 1)), sum((b, b)), sum(()), sum(t, 10), sum((f, f), 0.5)


sums_jit = njit(sums)


@pytest.mark.parametrize("t,f,b", [((1, 2, 3), 1.5, True), ((0, -5, 7), -0.0, False)])
def test_sum_of_tuples(t, f, b):
    exact(sums_jit(t, f, b), sums(t, f, b))


def truths(a, s, x):
    lst = [v for v in a if v > x]
    d = {k: 1 for k in a if k > x}
    st = {v for v in a if v > x}
    t = (x,)
    n = 0
    while lst:
        lst.pop()
        n += 1
    return (bool(a), bool(lst), not a, not d, bool(d), bool(st), not st, bool(s), not s,
            bool(t), bool(()), 1 if a else 0, 1 if d else 0, n)


truths_jit = njit(truths)


@pytest.mark.parametrize("a,s,x", [([1, 2, 3], "", 1), ([5], "é", 9), ([0, 0], "a", -1)])
def test_truth_of_containers_is_their_length(a, s, x):
    exact(truths_jit(list(a), s, x), truths(list(a), s, x))


# ---- numba's errors where numba refuses ----

def order_of_str_and_int(a):
    return ("a", 1) < (a, 2)


def slice_by_run_time_bounds(t, a):
    return t[a:]


def slice_step_zero(t):
    return t[::0]


def min_of_tuples_of_two_types(a):
    return min((a, 1), (1.5, 2))


def sum_of_strings(s):
    return sum((s, s))


def list_order_of_str_and_int(a):
    return [a] < ["a"]


@pytest.mark.parametrize("fn,args,text,cpython_raises", [
    (order_of_str_and_int, (1,), "No implementation of function", True),
    (slice_by_run_time_bounds, ((1, 2, 3), 1), "getitem(UniTuple(int64 x 3), slice", False),
    (min_of_tuples_of_two_types, (1,), "No implementation of function", False),
    (sum_of_strings, ("a",), "No implementation of function", True),
    (list_order_of_str_and_int, (1,), "No implementation of function", True),
])
def test_numba_refuses_these_with_a_typing_error(fn, args, text, cpython_raises):
    with pytest.raises(TypingError, match=re.escape(text)):
        njit(fn)(*args)
    if cpython_raises:  # an order CPython has not either
        with pytest.raises(TypeError):
            fn(*args)


def test_a_zero_slice_step_is_cpythons_value_error():
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        njit(slice_step_zero)((1, 2))

