"""numba.typed's names: `List` (numba's typed.List, a list of one item type shared with compiled
code without copying; csrc/jit/typed_list.c). `Dict` is not there yet."""
from cujit._core import TypedList as List

__all__ = ["List"]


def __getattr__(name):
    if name == "Dict":
        raise NotImplementedError("cujit.typed.Dict is not supported yet")
    raise AttributeError(f"module 'cujit.typed' has no attribute {name!r}")
