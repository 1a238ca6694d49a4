"""cujit.cuda: numba's cuda API (kernels compiled by cujit through libnvvm)."""
from . import fp16
from .compiler import (compile, compile_ptx, compile_ptx_for_current_device, declare_device,
                       jit)
from .intrinsics import *  # noqa: F401,F403
from .intrinsics import __all__ as _intrinsics_all


def is_available():
    """Whether a CUDA GPU can be used (the runtime is not part of this build yet)."""
    return False


__all__ = ["jit", "compile", "compile_ptx", "compile_ptx_for_current_device", "declare_device",
           "fp16", "is_available"] + list(_intrinsics_all)
