"""The exceptions cujit raises (numba's names)."""
from ._core import (CujitError, CudaAPIError, CudaSupportError, LoweringError, NvvmError,
                    TypingError, UnsupportedError)

NumbaError = CujitError


class NumbaTypeError(TypingError, TypeError):
    """A type given where it cannot go (numba's name; also a TypeError)."""


class NumbaValueError(TypingError, ValueError):
    """A bad value for a type's parameter, as an array layout (numba's name; also a ValueError)."""


class NumbaNotImplementedError(TypingError, NotImplementedError):
    """No correspondence is known, as a NumPy dtype cujit has no type for (numba's name)."""


class NumbaWarning(Warning):
    """A cujit warning (numba's name): e.g. an on-disk cache folder that is not used."""


__all__ = ["CujitError", "NumbaError", "TypingError", "UnsupportedError", "LoweringError",
           "CudaSupportError", "CudaAPIError", "NvvmError", "NumbaWarning", "NumbaTypeError",
           "NumbaValueError", "NumbaNotImplementedError"]
