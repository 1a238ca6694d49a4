"""CUDA intrinsics: the objects kernels use (cuda.threadIdx.x, cuda.grid(1), cuda.atomic.add...).

They are recognised by identity when a kernel is compiled (csrc/types/cuda_typing.c); on the host
they only raise, as numba's stubs do. Each is registered with _core under its intrinsic name.
"""
from .. import _core

__all__ = [
    "threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize", "grid", "gridsize",
    "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "threadfence",
    "threadfence_block", "threadfence_system", "shared", "local", "const", "atomic",
    "all_sync", "any_sync", "eq_sync", "ballot_sync", "shfl_sync", "shfl_up_sync",
    "shfl_down_sync", "shfl_xor_sync", "match_any_sync", "match_all_sync", "activemask",
    "lanemask_lt", "popc", "brev", "clz", "ffs", "fma", "cbrt", "selp", "syncwarp", "nanosleep",
]


class Intrinsic:
    """A CUDA intrinsic function: callable only inside kernels and device functions."""
    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"cuda.{self._name}() can only be called inside a kernel or a device "
                           f"function compiled by cujit.cuda.jit")

    def __repr__(self):
        return f"<cujit.cuda intrinsic {self._name}>"


class _Stub:
    """Callable so the compiler takes it as a compile-time object (its typing says what it is);
    calling it raises, on the host and in kernels."""

    def __call__(self, *args, **kwargs):
        raise TypeError(f"cuda.{self._name} is not callable")


class Dim3(_Stub):
    """threadIdx / blockIdx / blockDim / gridDim: .x .y .z inside kernels."""
    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise RuntimeError(f"cuda.{self._name}.{attr} is only available inside kernels")

    def __repr__(self):
        return f"<cujit.cuda {self._name}>"


class Value(Dim3):
    """laneid / warpsize: int32 values inside kernels."""


class Namespace(_Stub):
    """cuda.shared, cuda.local, cuda.const, cuda.atomic: groups of intrinsics."""

    def __init__(self, name, members):
        self._name = name
        for member in members:
            setattr(self, member, _intrinsic(f"{name}.{member}"))

    def __repr__(self):
        return f"<cujit.cuda.{self._name}>"


def _intrinsic(name, obj=None):
    obj = Intrinsic(name.rsplit(".", 1)[-1]) if obj is None else obj
    if isinstance(obj, Intrinsic):
        obj._name = name
    _core.cuda_register_intrinsic(obj, name)
    return obj


threadIdx = _intrinsic("threadIdx", Dim3("threadIdx"))
blockIdx = _intrinsic("blockIdx", Dim3("blockIdx"))
blockDim = _intrinsic("blockDim", Dim3("blockDim"))
gridDim = _intrinsic("gridDim", Dim3("gridDim"))
laneid = _intrinsic("laneid", Value("laneid"))
warpsize = _intrinsic("warpsize", Value("warpsize"))

grid = _intrinsic("grid")
gridsize = _intrinsic("gridsize")
syncthreads = _intrinsic("syncthreads")
syncthreads_count = _intrinsic("syncthreads_count")
syncthreads_and = _intrinsic("syncthreads_and")
syncthreads_or = _intrinsic("syncthreads_or")
threadfence = _intrinsic("threadfence")
threadfence_block = _intrinsic("threadfence_block")
threadfence_system = _intrinsic("threadfence_system")

shared = _intrinsic("shared", Namespace("shared", ["array"]))
local = _intrinsic("local", Namespace("local", ["array"]))
const = _intrinsic("const", Namespace("const", ["array_like"]))
atomic = _intrinsic("atomic", Namespace("atomic", [
    "add", "sub", "and_", "or_", "xor", "max", "min", "nanmax", "nanmin", "exch", "inc", "dec",
    "cas", "compare_and_swap"]))

all_sync = _intrinsic("all_sync")
any_sync = _intrinsic("any_sync")
eq_sync = _intrinsic("eq_sync")
ballot_sync = _intrinsic("ballot_sync")
shfl_sync = _intrinsic("shfl_sync")
shfl_up_sync = _intrinsic("shfl_up_sync")
shfl_down_sync = _intrinsic("shfl_down_sync")
shfl_xor_sync = _intrinsic("shfl_xor_sync")
match_any_sync = _intrinsic("match_any_sync")
match_all_sync = _intrinsic("match_all_sync")
activemask = _intrinsic("activemask")
lanemask_lt = _intrinsic("lanemask_lt")
syncwarp = _intrinsic("syncwarp")
nanosleep = _intrinsic("nanosleep")

popc = _intrinsic("popc")
brev = _intrinsic("brev")
clz = _intrinsic("clz")
ffs = _intrinsic("ffs")
fma = _intrinsic("fma")
cbrt = _intrinsic("cbrt")
selp = _intrinsic("selp")

# print() in kernels goes through vprintf
import builtins as _builtins  # noqa: E402
_core.cuda_register_intrinsic(_builtins.print, "print")
