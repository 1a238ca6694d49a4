"""Typing fixes of issue 13: a list's (set's) item type unified over all its appends, inserts
and extends, as numba does (it used to keep the first and cast later, wider items); a tuple
display of more than 30 items (CPython's BUILD_LIST + LIST_APPEND + LIST_TO_TUPLE); hash()
and print() of a tuple holding a string literal; enum.Enum members known at compile time.
Expected values are numba 0.68's (or CPython's where they agree)."""
import enum

import pytest

from cujit import njit
from cujit.errors import LoweringError, TypingError, UnsupportedError
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")


@njit
def append_int_then_float(n):
    out = []
    out.append(10)
    out.append(n + 0.5)
    return out


@njit
def append_float_then_int(n):
    out = []
    out.append(n + 0.5)
    out.append(10)
    return out


@njit
def literal_then_append(n):
    out = [1, 2]
    out.append(n + 0.5)
    return out


@njit
def appends_in_branches(n):
    out = []
    for i in range(n):
        if i % 2:
            out.append(i)
        else:
            out.append(i * 0.5)
    return out


@njit
def extend_insert_complex(n):
    a = [1]
    a.extend([n + 0.5])
    b = [n]
    b.insert(0, 2.5)
    c = []
    c.append(n)
    c.append(1j)
    return a, b, c


@njit
def widened_through_alias(n):
    first = []
    first.append(n)
    alias = first
    alias.append(2.5)
    return first, len(alias), first[0] + 1


@njit
def widened_after_loops(n):
    comp = [i for i in range(n)]
    comp.append(0.5)
    chain = []
    chain.append(1)
    for _ in range(n):
        chain.append(chain[-1] * 0.5)
    pairs = []
    pairs.append((1, 2))
    pairs.append((1.5, 2))
    seen = [1]
    total = 0
    for x in seen:  # an iterator made before the list is widened below
        total += x
    seen.append(0.5)
    return comp, chain, pairs, total


@njit
def setitem_casts(n):
    out = [1, 2]
    out[0] = n + 0.5  # numba: setitem casts to the item type, it does not widen
    return out


@njit
def set_add_widens(n):
    s = set()
    s.add(n)
    s.add(2.5)
    t = {n}
    t.update([0.5])
    return s, t


@njit
def append_str_to_ints(n):
    out = []
    out.append(n)
    out.append("a")
    return out


@njit
def two_lists_one_variable(c):
    if c:
        out = [1]
    else:
        out = [2.5]
    return out


@njit
def dict_value_wider(n):
    d = {}
    d[1] = n
    d[2] = 2.5
    return d


@njit
def append_to_argument(lst):
    lst.append(2.5)
    return lst


@pytest.mark.parametrize("fn, arg, want", [
    (append_int_then_float, 2, [10.0, 2.5]),
    (append_float_then_int, 2, [2.5, 10.0]),
    (literal_then_append, 1, [1.0, 2.0, 1.5]),
    (appends_in_branches, 4, [0.0, 1.0, 1.0, 3.0]),
    (extend_insert_complex, 1, ([1.0, 1.5], [2.5, 1.0], [1 + 0j, 1j])),
    (widened_through_alias, 3, ([3.0, 2.5], 2, 4.0)),
    (widened_after_loops, 2, ([0.0, 1.0, 0.5], [1.0, 0.5, 0.25], [(1.0, 2), (1.5, 2)], 1.0)),
    (setitem_casts, 1, [1, 2]),
    (set_add_widens, 1, ({1.0, 2.5}, {1.0, 0.5})),
])
def test_container_item_type_unified_over_adds(fn, arg, want):
    exact(fn(arg), want)


def test_container_adds_numba_refuses():
    with pytest.raises(TypingError, match=r"Invalid use of BoundFunction\(list.append\)"):
        append_str_to_ints(1)
    with pytest.raises(TypingError, match="cannot safely cast float64 to int64"):
        dict_value_wider(1)  # numba refuses it too: a dict's value type is not widened
    with pytest.raises(LoweringError, match="cannot convert list"):
        two_lists_one_variable(1)  # two different lists: no conversion between them
    # a reflected list keeps its type (numba fails with an internal error): the value is cast
    exact(append_to_argument([1, 2]), [1, 2, 2])


@njit
def big_tuple(x):
    return (x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x,
            x, x, x, x)


@njit
def big_mixed_tuple(x):
    t = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
         25, 26, 27, 28, 29, 30, 31, x, "s", x * 0.5)
    return t, len(t), t[33]


def test_tuple_display_of_more_than_30_items():
    exact(big_tuple(3), (3,) * 32)
    t = tuple(range(1, 32)) + (2, "s", 1.0)
    exact(big_mixed_tuple(2), (t, 34, 1.0))


def _display(name, items):
    namespace = {}
    exec(f"def {name}(x, c):\n    return ({', '.join(items)})\n", namespace)
    return njit(namespace[name])


def test_tuple_display_limits():
    with pytest.raises(UnsupportedError, match="tuples of more than 256 items"):
        _display("too_big", ["x"] * 300)(1, True)
    with pytest.raises(UnsupportedError, match="whose items branch"):
        _display("branching", ["x"] * 31 + ["x if c else 2"])(1, True)


@njit
def hash_of_literal_tuple(x):
    t = (x, "a", (2.5, "b"))
    return hash((x, "a")), hash(t), t


@njit
def print_literal_tuple(x):
    print((x, "a"), ("b", (x, "c")))
    return x


def test_tuple_holding_a_string_literal_as_a_value(capsys):
    exact(hash_of_literal_tuple(1),
          (hash((1, "a")), hash((1, "a", (2.5, "b"))), (1, "a", (2.5, "b"))))
    assert print_literal_tuple(3) == 3
    assert capsys.readouterr().out == "(3, 'a') ('b', (3, 'c'))\n"


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = "b"


class Shape(enum.IntEnum):
    CIRCLE = 1
    SQUARE = 2


def enum_globals(x):
    c = Color.RED
    hit = 0
    if c == Color.GREEN:  # a constant False: the branch is pruned
        hit = 1
    return (c == Color.GREEN, c == Color.RED, c != Color.GREEN, c is Color.RED,
            Color.RED is not Color.RED, c.value + x, Color.BLUE.value, hit,
            Shape.SQUARE + x, x == Shape.CIRCLE)


enum_globals_jit = njit(enum_globals)


@njit
def enum_name(x):
    return Color.RED.name


@njit
def enum_argument(c):
    return c == Color.RED


def test_enum_members_known_at_compile_time():
    for x in (1, -3):
        exact(enum_globals_jit(x), enum_globals(x))
    with pytest.raises(TypingError, match="Unknown attribute 'name'"):
        enum_name(1)  # numba refuses .name too
    with pytest.raises(TypeError, match="cannot compile for an argument of type Color"):
        enum_argument(Color.RED)  # numba's EnumMember arguments: not yet
