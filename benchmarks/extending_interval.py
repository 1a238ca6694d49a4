"""The call cost of an extension type's argument (numba's Interval example,
tests/interval_extension.py): typeof_impl and the user's unbox/box run on every call.
`PYTHONPATH=pkg python3 benchmarks/extending_interval.py` prints ns per call (best of 5)."""
import os
import sys
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from cujit import njit  # noqa: E402
from interval_extension import Interval  # noqa: E402


@njit
def inside_interval(interval, x):
    return interval.lo <= x < interval.hi


@njit
def inside_plain(lo, hi, x):
    return lo <= x < hi


@njit
def passthrough(i):
    return i


def main(n=200000):
    i = Interval(1.0, 3.0)
    inside_interval(i, 2.0), inside_plain(1.0, 3.0, 2.0), passthrough(i)
    for name, stmt in [("inside_interval(i, 2.0)", lambda: inside_interval(i, 2.0)),
                       ("inside_plain(1.0, 3.0, 2.0)", lambda: inside_plain(1.0, 3.0, 2.0)),
                       ("Python: i.lo <= 2.0 < i.hi", lambda: i.lo <= 2.0 < i.hi),
                       ("passthrough(i) (unbox + box)", lambda: passthrough(i))]:
        t = min(timeit.repeat(stmt, number=n, repeat=5)) / n * 1e9
        print("%-32s %7.0f ns/call" % (name, t))


if __name__ == "__main__":
    main()
