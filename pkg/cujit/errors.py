"""The exceptions cujit raises (numba's names)."""
from ._core import (CujitError, CudaAPIError, CudaSupportError, LoweringError, NvvmError,
                    TypingError, UnsupportedError)

NumbaError = CujitError

__all__ = ["CujitError", "NumbaError", "TypingError", "UnsupportedError", "LoweringError",
           "CudaSupportError", "CudaAPIError", "NvvmError"]
