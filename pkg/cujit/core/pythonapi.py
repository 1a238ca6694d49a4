"""cujit.core.pythonapi (numba.core.pythonapi): the boxing registrations of the low-level
extension API (box, unbox, reflect, NativeValue) and the PythonAPI their functions get as
``c.pyapi``; they live in cujit.core.lowlevel."""
from .lowlevel import NativeValue, PythonAPI, box, reflect, unbox  # noqa: F401

__all__ = ["NativeValue", "PythonAPI", "box", "reflect", "unbox"]
