"""``operator.contains(a, b)`` in compiled code: ``b in a``, for every container ``in``
takes (numba's overload)."""
import operator as _op

from cujit.core.extending import overload


@overload(_op.contains)
def _ov_contains(a, b):
    def impl(a, b):
        return b in a
    return impl
