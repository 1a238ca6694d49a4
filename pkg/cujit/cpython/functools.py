"""``functools.reduce(function, iterable[, initial])`` in compiled code, compiled from Python:
the function (a jitted function, or an inner function or lambda jitted where it is passed)
folds the items left to right, from `initial` when given (numba requires it; cujit also takes
the two-argument form, CPython's TypeError on an empty iterable)."""
import functools as _ft

from cujit.core import types
from cujit.core.extending import overload
from cujit.errors import TypingError


@overload(_ft.reduce, target="cpu")
def _ov_reduce(function, iterable, initial=None):
    if not isinstance(function, types.Dispatcher):
        raise TypingError("reduce(): the function must be a jitted function, an inner "
                          "function or a lambda (got %s)" % (function,))
    if initial is None or isinstance(initial, (types.NoneType, types.Omitted)):
        def impl(function, iterable, initial=None):
            items = [x for x in iterable]
            if len(items) == 0:
                raise TypeError("reduce() of empty iterable with no initial value")
            value = items[0]
            for i in range(1, len(items)):
                value = function(value, items[i])
            return value
        return impl

    def impl_initial(function, iterable, initial=None):
        value = initial
        for x in iterable:
            value = function(value, x)
        return value
    return impl_initial
