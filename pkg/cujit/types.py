"""cujit.types is cujit.core.types (numba.types is numba.core.types): numba's type hierarchy,
its instances (``from cujit import float32, int64, void``) and the slicing sugar."""
import sys

from .core import types as _types

sys.modules[__name__] = _types
