"""``cmath.log(z, base)`` in compiled code, as CPython's cmath_log_impl and numba's overload:
log(z) divided by log(base) (complex division, CPython's algorithm). The one-argument log is
the core's (csrc/typing/builtins.c)."""
import cmath

from cujit.core import types
from cujit.core.extending import overload

_NUMBER = (types.Integer, types.Float, types.Complex, types.Boolean)


@overload(cmath.log)
def _ov_log(z, base=None):
    if base is None or isinstance(base, (types.Omitted, types.NoneType)):
        return None  # the core's one-argument log
    if isinstance(z, _NUMBER) and isinstance(base, _NUMBER):
        def impl(z, base=None):
            return cmath.log(z) / cmath.log(base)
        return impl
