"""Device arrays: to_device, device_array(_like), as_cuda_array, is_cuda_array, from_dlpack."""
import numpy as np

from .. import _core

DeviceNDArray = _core.DeviceNDArray


def to_device(obj, stream=0, copy=True, to=None):
    """Copies a host array to the device (numba's cuda.to_device). With `to`, copies into that
    device array instead. Device arrays and CUDA-array-interface objects are returned as views.
    """
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, np.void) and obj.dtype.fields is not None:
        raise NotImplementedError(
            "cujit does not support cuda.to_device of a single record (numba-cuda's "
            "DeviceRecord) yet: copy an array of records, e.g. cuda.to_device(a[i:i + 1])")
    return _core.to_device(obj, stream, copy)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialised device array (like np.empty)."""
    return _core.device_array(shape, dtype, strides, order, stream)


def device_array_like(ary, stream=0):
    """An uninitialised device array with `ary`'s shape, dtype and (C or F) order."""
    order = "C"
    if isinstance(ary, DeviceNDArray):
        if ary.is_f_contiguous() and not ary.is_c_contiguous():
            order = "F"
    else:
        ary = np.asarray(ary)
        if ary.flags.f_contiguous and not ary.flags.c_contiguous:
            order = "F"
    return _core.device_array(ary.shape, ary.dtype, None, order, stream)


def is_cuda_array(obj):
    """True when `obj` exposes __cuda_array_interface__."""
    return hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj, sync=True):
    """A zero-copy DeviceNDArray over `obj`'s __cuda_array_interface__; keeps `obj` alive. With
    sync, waits for the producer's stream (the interface's `stream` key)."""
    if not is_cuda_array(obj):
        raise TypeError("*obj* doesn't implement the cuda array interface.")
    return _core.as_cuda_array(obj, sync)


def from_dlpack(obj):
    """A zero-copy DeviceNDArray over a DLPack producer (an object with __dlpack__, or a
    capsule). cujit consumes on the legacy default stream, which the producer orders after its
    pending work."""
    if type(obj).__name__ == "PyCapsule":
        return _core.from_dlpack_capsule(obj)
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(f"{type(obj).__name__} does not support DLPack (__dlpack__)")
    device = getattr(obj, "__dlpack_device__", None)
    if device is not None:
        kind, _ = device()
        if int(kind) not in (2, 13):  # kDLCUDA, kDLCUDAManaged
            raise BufferError(f"DLPack producer lives on device type {int(kind)}, not CUDA: "
                              "use cuda.to_device for host data")
    try:
        capsule = obj.__dlpack__(stream=1, max_version=(1, 0))
    except TypeError:
        capsule = obj.__dlpack__(stream=1)  # a producer from before DLPack 1.0
    return _core.from_dlpack_capsule(capsule)
