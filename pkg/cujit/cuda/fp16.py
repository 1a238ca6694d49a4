"""cuda.fp16: half-precision arithmetic in kernels (numba's cuda.fp16 names)."""
from .intrinsics import _intrinsic

_NAMES = ["hadd", "hsub", "hmul", "hdiv", "hneg", "habs", "hfma", "hmax", "hmin", "heq", "hne",
          "hgt", "hge", "hlt", "hle", "hsqrt", "hexp", "hlog", "hsin", "hcos", "hfloor", "hceil",
          "hrsqrt", "hexp2", "hexp10", "hlog2", "hlog10", "htrunc", "hrint", "hrcp"]
for _n in _NAMES:
    globals()[_n] = _intrinsic(f"fp16.{_n}")
__all__ = list(_NAMES)
