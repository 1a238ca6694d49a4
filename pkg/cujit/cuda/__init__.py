"""cujit.cuda: numba's cuda API over cujit's C runtime (driver loaded at first use).

`import cujit` works without CUDA; is_available() then says False and every device call raises
CudaSupportError saying why. With CUJIT_ENABLE_CUDASIM=1 (or numba's NUMBA_ENABLE_CUDASIM=1)
this module is the CUDA simulator instead (simulator.py): kernels run in the interpreter.
"""
from .. import config as _config

if _config.env("ENABLE_CUDASIM", "0") not in ("", "0"):
    from .simulator import *  # noqa: F401,F403
    from .simulator import API as __all__  # noqa: F401
    from .kernels.reduction import Reduce
    reduce = Reduce  # kernels run in the simulator like any cuda.jit kernel
    __all__ = __all__ + ["Reduce", "reduce"]
    SIMULATOR = True
else:
    SIMULATOR = False
    from ..errors import CudaAPIError, CudaSupportError
    from .arrays import (DeviceNDArray, as_cuda_array, device_array, device_array_like,
                         from_dlpack, is_cuda_array, to_device)
    from .devices import (Context, Device, close, current_context, detect, get_current_device,
                          gpus, is_available, list_devices, select_device, synchronize)
    from .ipc import IpcHandle
    from .memory import (BaseCUDAMemoryManager, DefaultMemoryManager, GetIpcHandleMixin,
                         HostOnlyCUDAMemoryManager, ManagedMemory, ManagedNDArray,
                         MappedMemory, MappedNDArray, MemoryPointer, NumbaCUDAMemoryManager,
                         PinnedMemory, PoolMemoryManager, defer_cleanup, managed_array, mapped,
                         mapped_array, mapped_array_like, pinned, pinned_array,
                         pinned_array_like, profile_start, profile_stop, profiling,
                         set_deallocation_limits, set_memory_manager)
    from .streams import (Event, Stream, default_stream, event, event_elapsed_time,
                          external_stream, legacy_default_stream, per_thread_default_stream, stream)
    from . import memory as _memory
    # kernels (cujit's compiler: cuda.jit, compile_ptx, intrinsics)
    from . import fp16  # libdevice (317 functions) is imported on first use: __getattr__
    from .compiler import (compile, compile_ptx, compile_ptx_for_current_device, declare_device,
                           jit)
    from .intrinsics import *  # noqa: F401,F403
    from .intrinsics import __all__ as _intrinsics_all
    from .kernels.reduction import Reduce
    reduce = Reduce  # numba-cuda's decorator spelling: @cuda.reduce
    from . import cg
    from . import cudadecl, cudaimpl  # the low-level extension API's registries

    _memory._configure_from_environment()

    __all__ = [
        "CudaAPIError", "CudaSupportError", "DeviceNDArray", "as_cuda_array", "device_array",
        "device_array_like", "from_dlpack", "is_cuda_array", "to_device", "Context", "Device",
        "close", "current_context", "detect", "get_current_device", "gpus", "is_available",
        "list_devices", "select_device", "synchronize", "IpcHandle", "BaseCUDAMemoryManager",
        "DefaultMemoryManager", "GetIpcHandleMixin", "HostOnlyCUDAMemoryManager", "MappedMemory",
        "MappedNDArray", "MemoryPointer", "NumbaCUDAMemoryManager", "PinnedMemory",
        "PoolMemoryManager", "defer_cleanup", "mapped", "mapped_array", "mapped_array_like",
        "pinned", "pinned_array", "pinned_array_like", "set_deallocation_limits",
        "set_memory_manager", "Event", "Stream", "default_stream", "event", "event_elapsed_time",
        "external_stream", "legacy_default_stream", "per_thread_default_stream", "stream",
        "jit", "compile", "compile_ptx", "compile_ptx_for_current_device", "declare_device", "fp16",
        "libdevice", "Reduce", "reduce", "cg", "ManagedMemory", "ManagedNDArray",
        "managed_array", "profile_start", "profile_stop", "profiling",
    ] + list(_intrinsics_all)


def __getattr__(name):  # numba-cuda names not there yet: a clear NotImplementedError
    if name in ("libdevice", "random") and not SIMULATOR:  # imported on first use
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    from .._missing import CUDA, lookup
    return lookup(CUDA, __name__, name)
