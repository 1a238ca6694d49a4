"""Built-in functions compiled from Python, as numba.cpython.builtins' overloads: ``sum()``
of a range or an array (items added in order from 0, numba's widening: an int64 accumulator
that a float item makes float64) and ``sum(iterable, start)``. Sums the core types itself
(``sum(list)``, ``sum()`` of a generator) are left to it (csrc/typing/lists.c)."""
import builtins as _bi

from cujit.core import types
from cujit.core.extending import overload

_CONTAINERS = (types.List, types.ListType, types.Array, types.RangeType)


def _start_given(start):
    return not (isinstance(start, (int, types.Omitted)) and not isinstance(start, bool))


@overload(_bi.sum)
def _ov_sum(iterable, start=0):
    if isinstance(start, (types.UnicodeType, types.StringLiteral)):
        return None  # the core refuses strings in numba's words (csrc/typing/builtins.c)
    given = _start_given(start)
    if isinstance(iterable, (types.List, types.ListType)) and not given:
        return None  # the core's own sum of a list
    if isinstance(iterable, types.Array) and iterable.ndim != 1:
        return None
    if not isinstance(iterable, _CONTAINERS):
        return None

    def impl(iterable, start=0):
        acc = start
        for x in iterable:
            acc = acc + x
        return acc
    return impl
