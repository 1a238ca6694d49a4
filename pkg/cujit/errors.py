"""The exceptions cujit raises (numba's names)."""
from ._core import (CujitError, CudaAPIError, CudaSupportError, LoweringError, NvvmError,
                    TypingError, UnsupportedError)

NumbaError = CujitError


class NumbaWarning(Warning):
    """A cujit warning (numba's name): e.g. an on-disk cache folder that is not used."""


__all__ = ["CujitError", "NumbaError", "TypingError", "UnsupportedError", "LoweringError",
           "CudaSupportError", "CudaAPIError", "NvvmError", "NumbaWarning"]
