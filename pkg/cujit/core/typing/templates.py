"""cujit.core.typing.templates (numba.core.typing.templates): AttributeTemplate and the
infer_getattr registration of the low-level extension API (cujit.core.lowlevel)."""
from ..lowlevel import AttributeTemplate, infer, infer_getattr  # noqa: F401
from ..templates import OverloadTemplate  # noqa: F401

__all__ = ["AttributeTemplate", "infer", "infer_getattr"]
