"""numba.typed's names: `List` (numba's typed.List, a list of one item type shared with compiled
code without copying; csrc/jit/typed_list.c) and `Dict` (numba's typed.Dict, likewise;
csrc/jit/typed_dict.c and typeddict.py)."""
from cujit._core import TypedList as List

from .typeddict import Dict

__all__ = ["List", "Dict"]
