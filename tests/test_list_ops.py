"""List operators and slice assignment (issue 13): l1 + l2, l * n, n * l, l += other,
l *= n, l1 == l2 ... l1 >= l2, l[a:b:c] = other, del l[a:b:c], l.index(x, start, stop) and
list(s); differential against CPython over random lists (empty ones, negative and huge
bounds, steps), lists of numbers, strings (beyond ASCII) and arrays (items that hold
references). Dispatchers are shared at module level; the NRT counters prove every
allocation freed."""
import random

import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

RNG = random.Random(2024)




def _ints(n):
    return [RNG.randrange(-5, 6) for _ in range(n)]


LISTS = [[], [0], [1, 2], [2, 1], [1, 2, 3], [1, 2, 3, 4, 5, 6, 7]] + \
    [_ints(RNG.randrange(0, 9)) for _ in range(12)]
WORDS = [[], ["a"], ["é", "中"], ["a", "b"], ["a", "bé", ""], ["😀", "x"]]


def concat(a, b):
    a, b = a[1:], b[1:]
    return a + b


def repeat(a, n):
    a = a[1:]
    return a * n, n * a


def iadd(a, b):
    a, b = a[1:], b[1:]
    a += b
    return a


def iadd_reflected(a, b):
    a += b
    return a


def imul(a, n):
    a = a[1:]
    a *= n
    return a


def iadd_self(a):
    a = a[1:]
    a += a
    return a


def compare(a, b):
    a, b = a[1:], b[1:]
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def set_slice(a, i, j, b):
    a, b = a[1:], b[1:]
    a[i:j] = b
    return a


def set_ext_slice(a, i, j, k, b):
    a, b = a[1:], b[1:]
    a[i:j:k] = b
    return a


def del_slice(a, i, j):
    a = a[1:]
    del a[i:j]
    return a


def del_ext_slice(a, i, j, k):
    a = a[1:]
    del a[i:j:k]
    return a


def index3(a, x, i, j):
    a = a[1:]
    return a.index(x, i, j)


def index2(a, x, i):
    return a.index(x, i)


def list_of_chars(s):
    return list(s)


def mixed_concat(a):
    return a + [0.5]


def arrays_ops(n):
    a = [np.arange(n), np.ones(n, np.int64)]
    b = a * 2
    b += a
    b[1:3] = [np.zeros(n, np.int64)]
    del b[::2]
    return b


def self_slice(a):
    a = a[1:]
    a[1:2] = a
    return a


JIT = {f.__name__: njit(f) for f in [concat, repeat, iadd, iadd_reflected, imul, iadd_self, compare,
                                     set_slice, set_ext_slice, del_slice, del_ext_slice,
                                     index3, index2, list_of_chars, mixed_concat, arrays_ops,
                                     self_slice]}


def P(a):
    """The list as the jitted functions take it: a placeholder first (an empty list cannot be
    passed in, as in numba: it has no item type)."""
    return [0] + list(a)


def W(a):
    return [""] + list(a)


def _pairs():
    return [(a, b) for a in LISTS[:10] for b in LISTS[:10]]


def test_concatenation_matches_python():
    for a, b in _pairs():
        exact(JIT["concat"](P(a), P(b)), a + b)


def test_concatenation_leaves_operands_alone():
    a, b = [1, 2], [3]
    JIT["concat"](P(a), P(b))
    assert a == [1, 2] and b == [3]


def test_concatenation_unifies_items():
    exact(JIT["mixed_concat"]([1, 2]), [1.0, 2.0, 0.5])


def test_concatenation_of_strings():
    for a in WORDS:
        for b in WORDS:
            exact(JIT["concat"](W(a), W(b)), a + b)


@pytest.mark.parametrize("n", [-2, 0, 1, 2, 5])
def test_repetition_both_orders(n):
    for a in LISTS:
        exact(JIT["repeat"](P(a), n), (a * n, n * a))


def test_repetition_of_an_empty_list_by_a_huge_count_is_quick():
    exact(JIT["repeat"]([0], 10**18), ([], []))


def test_repetition_of_strings():
    for a in WORDS:
        exact(JIT["repeat"](W(a), 3), (a * 3, 3 * a))


def test_inplace_add_matches_python():
    for a, b in _pairs():
        want = list(a)
        want += b
        exact(JIT["iadd"](P(a), P(b)), want)


def test_inplace_add_of_itself_doubles():
    for a in LISTS:
        exact(JIT["iadd_self"](P(a)), a + a)


def test_inplace_add_changes_the_reflected_list():
    a = [1, 2]
    JIT["iadd_reflected"](a, [3])
    assert a == [1, 2, 3]


@pytest.mark.parametrize("n", [-1, 0, 1, 3])
def test_inplace_repeat_matches_python(n):
    for a in LISTS:
        want = list(a)
        want *= n
        exact(JIT["imul"](P(a), n), want)


def test_inplace_repeat_of_strings_drops_references():
    exact(JIT["imul"](W(["é", "中"]), 0), [])
    exact(JIT["imul"](W(["é", "中"]), 2), ["é", "中", "é", "中"])


def test_comparisons_match_python():
    for a, b in _pairs():
        exact(JIT["compare"](P(a), P(b)), (a == b, a != b, a < b, a <= b, a > b, a >= b))


def test_comparisons_of_strings_and_mixed_numbers():
    for a in WORDS:
        for b in WORDS:
            exact(JIT["compare"](W(a), W(b)),
                  (a == b, a != b, a < b, a <= b, a > b, a >= b))
    exact(JIT["compare"]([0, 1, 2], [0.0, 1.0, 2.5]), (False, True, True, True, False, False))


def test_comparison_of_unlike_items_is_a_typing_error():
    with pytest.raises(TypingError, match="No implementation of function"):
        njit(lambda a, b: a < b)([1], ["a"])


BOUNDS = [None, -10, -3, -1, 0, 1, 2, 4, 10]


def test_slice_assignment_matches_python():
    for a in LISTS[:12]:
        for i in BOUNDS:
            for j in BOUNDS:
                b = _ints(RNG.randrange(0, 5))
                want = list(a)
                want[i:j] = b
                exact(JIT["set_slice"](P(a), i, j, P(b)), want)


def test_extended_slice_assignment_matches_python():
    for a in LISTS:
        for k in [-3, -2, -1, 2, 3]:
            for i in [None, 0, 1, -2]:
                want = list(a)
                n = len(want[i::k])
                b = _ints(n)
                want[i::k] = b
                exact(JIT["set_ext_slice"](P(a), i, None, k, P(b)), want)


def test_extended_slice_assignment_of_another_size_raises():
    with pytest.raises(ValueError, match="attempt to assign sequence"):
        JIT["set_ext_slice"](P([1, 2, 3, 4]), None, None, 2, P([1]))


def test_slice_assignment_of_itself():
    for a in LISTS:
        want = list(a)
        want[1:2] = want
        exact(JIT["self_slice"](P(a)), want)


def test_slice_assignment_of_strings():
    exact(JIT["set_slice"](W(["a", "é", "中"]), 0, 2, W(["😀"])), ["😀", "中"])


def test_slice_deletion_matches_python():
    for a in LISTS:
        for i in BOUNDS:
            for j in BOUNDS:
                want = list(a)
                del want[i:j]
                exact(JIT["del_slice"](P(a), i, j), want)


def test_extended_slice_deletion_matches_python():
    for a in LISTS:
        for k in [-3, -2, -1, 2, 3]:
            for i in [None, 0, 1, -2, 5]:
                for j in [None, 0, -1, 3]:
                    want = list(a)
                    del want[i:j:k]
                    exact(JIT["del_ext_slice"](P(a), i, j, k), want)


def test_list_of_arrays_operators_count_references():
    got = JIT["arrays_ops"](3)
    want = [np.arange(3), np.arange(3), np.ones(3, np.int64)][0:0]
    a = [np.arange(3), np.ones(3, np.int64)]
    b = a * 2
    b += a
    b[1:3] = [np.zeros(3, np.int64)]
    del b[::2]
    assert len(got) == len(b) and not want
    for g, w in zip(got, b):
        np.testing.assert_array_equal(g, w)


def test_index_with_bounds_matches_python():
    for a in LISTS:
        for x in [0, 1, 2]:
            for i in [-10, -2, 0, 1, 3, 10]:
                for j in [-10, -1, 0, 2, 5, 10]:
                    try:
                        want = a.index(x, i, j)
                    except ValueError:
                        with pytest.raises(ValueError, match="value not in list"):
                            JIT["index3"](P(a), x, i, j)
                        continue
                    exact(JIT["index3"](P(a), x, i, j), want)


def test_index_with_start_only():
    exact(JIT["index2"]([1, 2, 1, 2], 2, 2), 3)
    exact(JIT["index2"]([1, 2, 1, 2], 1, -2), 2)


def test_index_bounds_must_be_integers():
    with pytest.raises(TypingError, match="list.index"):
        njit(lambda a: a.index(1, 0.5))([1, 2])


def test_list_of_a_string():
    for s in ["", "abc", "é中😀", "a b"]:
        exact(JIT["list_of_chars"](s), list(s))


def test_slice_assignment_of_another_item_type_is_a_typing_error():
    with pytest.raises(TypingError, match="setitem"):
        JIT["set_slice"]([0, 1, 2], 0, 1, [0.0, 0.5])


def str_args(t, words):
    return t[0] + t[1], words[0] + words[-1], len(words), t[2]


def words_changed(words):
    words.append("end")
    words[0] = words[0].upper()
    return len(words)


JIT_STR = njit(str_args)
JIT_CHANGED = njit(words_changed)


def test_strings_in_tuples_and_lists_as_arguments():
    exact(JIT_STR(("a", "é", 3), ["x", "中", "😀"]), ("aé", "x😀", 3, 3))


def test_list_of_strings_argument_is_reflected():
    words = ["ß", "b"]
    exact(JIT_CHANGED(words), 3)
    assert words == ["SS", "b", "end"]
    assert all(type(w) is str for w in words)


def test_heterogeneous_list_of_strings_is_refused():
    with pytest.raises(TypeError, match="can't unbox heterogeneous list"):
        JIT_CHANGED(["a", 1])


def test_tuple_of_strings_round_trips():
    f = njit(lambda t: (t[1], t[0]))
    exact(f(("é", "中")), ("中", "é"))
    with pytest.raises(TypeError):
        f(("é", b"x"))


@njit
def array_of_list(a):
    a = a[1:]
    return np.array(a), np.asarray(a)


@njit
def array_of_rows(n, m):
    rows = []
    for i in range(n):
        row = []
        for j in range(m):
            row.append(i * 10 + j + 0.5)
        rows.append(row)
    return np.array(rows)


@njit
def array_of_ragged():
    rows = [[1, 2], [3]]
    return np.asarray(rows)


@njit
def array_of_built(n):
    out = []
    for i in range(n):
        out.append(i % 2 == 0)
    return np.array(out, dtype=np.float32)


def test_np_array_of_a_list_of_numbers():
    for a in LISTS:
        got = array_of_list(P(a))
        for g in got:
            assert g.dtype == np.int64 and g.shape == (len(a),)
            np.testing.assert_array_equal(g, np.array(a, dtype=np.int64))
    got = array_of_list([0.0, 1.5, -2.0])
    assert got[0].dtype == np.float64
    np.testing.assert_array_equal(got[0], [1.5, -2.0])


def test_np_array_of_a_list_of_lists_is_two_dimensional():
    for n, m in [(0, 0), (1, 3), (3, 2), (2, 0)]:
        want = np.array([[i * 10 + j + 0.5 for j in range(m)] for i in range(n)],
                        dtype=np.float64).reshape(n, m)
        got = array_of_rows(n, m)
        assert got.dtype == np.float64 and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_np_array_of_ragged_lists_raises():
    with pytest.raises(ValueError, match="incompatible sequence shape"):
        array_of_ragged()


def test_np_array_of_a_list_with_a_dtype():
    got = array_of_built(5)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [1, 0, 1, 0, 1])


def test_np_array_of_a_list_of_strings_is_a_typing_error():
    with pytest.raises(TypingError, match="np.array"):
        njit(lambda a: np.array(a))(["a", "b"])


@njit
def word_list_search(words, w, i):
    words = words[1:]
    n = words.count(w)
    at = words.index(w, i) if w in words[i:] else -1
    if w in words:
        words.remove(w)
    return n, at, words


def test_count_index_remove_of_lists_of_strings():
    for ws in WORDS + [["a", "é", "a", "中", "a"]]:
        for w in ["a", "é", "zz", ""]:
            for i in [0, 1, -1]:
                want_words = list(ws)
                at = want_words.index(w, i) if w in want_words[i:] else -1
                n = want_words.count(w)
                if w in want_words:
                    want_words.remove(w)
                exact(word_list_search(W(ws), w, i), (n, at, want_words))


def test_index_of_a_missing_string_raises():
    with pytest.raises(ValueError, match="value not in list"):
        njit(lambda ws: ws.index("q"))(["a", "b"])
    with pytest.raises(TypingError, match="list.index"):
        njit(lambda ws: ws.index(1))(["a", "b"])
