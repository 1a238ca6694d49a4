"""range() loops: Python's values for every step, and the step-1 ranges (range(n), range(a, b),
enumerate's counter) typed apart so their loop index is a non-wrapping (nsw) increment."""
import io

import pytest

from cujit import njit

INT64_MAX = 2**63 - 1


@njit
def _sum_range(a, b, c, which):
    r = range(a, b) if which == 0 else range(a, b, c)  # step 1 or any: unified
    s = 0
    n = 0
    for v in r:
        s += v
        n += 1
    return s, n


@pytest.mark.parametrize("a,b,c", [(0, 10, 1), (-5, 5, 2), (10, 0, -3), (5, 5, 1), (7, 3, 1),
                                   (3, 9, 4), (9, 3, -1)])
@pytest.mark.parametrize("which", [0, 1])
def test_steps_and_unification(a, b, c, which):
    r = range(a, b) if which == 0 else range(a, b, c)
    assert _sum_range(a, b, c, which) == (sum(r), len(r))


@njit
def _last(a, b):
    n = 0
    last = 0
    for v in range(a, b):
        n += 1
        last = v
    return n, last


def test_step_one_at_the_int64_bounds():
    assert _last(INT64_MAX - 3, INT64_MAX) == (3, INT64_MAX - 1)
    assert _last(-2**63, -2**63 + 2) == (2, -2**63 + 1)


@njit
def _enumerate_zip(n, m):
    s = 0
    for k, (x, y) in enumerate(zip(range(n), range(m, 0, -1)), 5):
        s += k * 1000 + x * 10 + y
    return s


@pytest.mark.parametrize("n,m", [(4, 6), (6, 4), (0, 3)])
def test_enumerate_and_zip_over_ranges(n, m):
    s = 0
    for k, (x, y) in enumerate(zip(range(n), range(m, 0, -1)), 5):
        s += k * 1000 + x * 10 + y
    assert _enumerate_zip(n, m) == s


@njit
def _tuple_of_ranges(n):
    s = 0
    for r in (range(n), range(0, n, 2)):  # still a UniTuple: iterable
        for v in r:
            s += v
    return s


def test_tuple_of_ranges_of_both_kinds():
    assert _tuple_of_ranges(7) == sum(range(7)) + sum(range(0, 7, 2))


def test_step_one_range_is_typed_apart():
    _last(0, 3)
    _sum_range(0, 3, 1, 1)
    for disp, marked in ((_last, True), (_sum_range, False)):
        buf = io.StringIO()
        disp.inspect_types(file=buf)
        assert ("range_iter64[step=1]" in buf.getvalue()) == marked

