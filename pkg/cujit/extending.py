"""cujit.extending is cujit.core.extending (numba.extending re-exports numba.core.extending):
overload, register_jitable, overload_method, overload_attribute, and the low-level API
(typeof_impl, type_callable, register_model, lower_builtin, box, unbox, intrinsic, ...)."""
import sys

from .core import extending as _extending

sys.modules[__name__] = _extending
