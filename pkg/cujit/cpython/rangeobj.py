"""range objects in compiled code, as numba.cpython.rangeobj: ``x in r``, ``x not in r``
(arithmetic, no loop; a float x gets CPython's answer, where numba's is False) and ``r[i]``
(negative indices from the end; CPython's IndexError out of range), compiled from Python over
the range's ``.start .stop .step`` (the core's fields: typing/access.c). typing/range_ops.c
types ``in`` and indexing as calls of the helpers below."""
from cujit.core.extending import register_jitable
from cujit.decorators import njit


@register_jitable
def _length(start, stop, step):
    if step > 0:
        return (stop - start + step - 1) // step if stop > start else 0
    return (start - stop - step - 1) // -step if start > stop else 0


@njit
def range_contains(r, x):
    start, stop, step = r.start, r.stop, r.step
    if step > 0:
        if x < start or x >= stop:
            return False
    elif x <= stop or x > start:
        return False
    return (x - start) % step == 0


@njit
def range_not_contains(r, x):
    return not range_contains(r, x)


@njit
def range_getitem(r, i):
    start, stop, step = r.start, r.stop, r.step
    n = _length(start, stop, step)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("range object index out of range")
    return start + i * step
