"""range objects in compiled code, as numba.cpython.rangeobj: ``r.start``, ``r.stop``,
``r.step``, ``x in r`` / ``x not in r`` (arithmetic, no loop; False for a non-integer x as
numba) and ``r[i]`` (negative indices from the end; IndexError out of range), compiled from
Python. The range value is the core's {start, stop, step} (csrc/lower/lower_call.c's
make_range); typing/range_ops.c types ``in`` and indexing as calls of the helpers below."""
from cujit.core import types
from cujit.core.extending import intrinsic, overload_attribute, register_jitable


@intrinsic
def _fields(typingctx, r):
    """(start, stop, step) of a range: the same three int64 as the range's own value."""
    if isinstance(r, types.RangeType):
        def codegen(context, builder, sig, args):
            return args[0]
        return types.UniTuple(types.int64, 3)(r), codegen


def _attribute(index):
    def typer(r):
        return lambda r: _fields(r)[index]
    return typer


for _i, _name in enumerate(("start", "stop", "step")):
    overload_attribute(types.RangeType, _name)(_attribute(_i))


@register_jitable
def _length(start, stop, step):
    if step > 0:
        return (stop - start + step - 1) // step if stop > start else 0
    return (start - stop - step - 1) // -step if start > stop else 0


from cujit.decorators import njit  # noqa: E402


@njit
def range_contains(r, x):
    start, stop, step = _fields(r)
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
    start, stop, step = _fields(r)
    n = _length(start, stop, step)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("range object index out of range")
    return start + i * step
