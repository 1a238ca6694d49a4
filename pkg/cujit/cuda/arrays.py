"""Device arrays: to_device, device_array(_like), as_cuda_array, is_cuda_array, from_dlpack."""
import numpy as np

from .. import _core
from ..np.numpy_support import from_dtype

DeviceNDArray = _core.DeviceNDArray


def to_device(obj, stream=0, copy=True, to=None):
    """Copies a host array to the device (numba's cuda.to_device). With `to`, copies into that
    device array instead. Device arrays and CUDA-array-interface objects are returned as views.
    """
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, np.void) and obj.dtype.names is not None:
        rec = DeviceRecord(obj.dtype, stream=stream)
        if copy:
            rec.copy_to_device(obj, stream=stream)
        return rec
    return _core.to_device(obj, stream, copy)


class DeviceRecord:
    """A record on the device (numba-cuda's DeviceRecord): what ``cuda.to_device(a[i])`` gives
    for a record of a structured dtype. A kernel takes it as that record, in place: its writes
    stay on the device until ``copy_to_host()``."""

    def __init__(self, dtype, stream=0):
        dtype = np.dtype(dtype)
        if dtype.names is None:
            raise TypeError(f"a DeviceRecord needs a structured dtype, not {dtype}")
        from_dtype(dtype)  # UnsupportedError naming a field cujit cannot type
        self._array = _core.device_array((), dtype, None, "C", stream)  # 0-d: owns the bytes

    dtype = property(lambda self: self._array.dtype, doc="The record's NumPy dtype.")
    shape = property(lambda self: (), doc="() as numba-cuda's")
    strides = property(lambda self: (), doc="() as numba-cuda's")
    size = property(lambda self: 1, doc="1 as numba-cuda's")
    nbytes = property(lambda self: self._array.nbytes, doc="The dtype's itemsize.")
    alloc_size = property(lambda self: self._array.alloc_size, doc="Bytes allocated.")
    device_ctypes_pointer = property(lambda self: self._array.device_ctypes_pointer,
                                     doc="The device address of the record's bytes.")
    _numba_type_ = property(lambda self: from_dtype(self.dtype),
                            doc="The record's cujit type (numba's magic attribute).")

    def copy_to_device(self, ary, stream=0):
        """Copies a host record (np.void or a 0-d array of the same dtype) to the device."""
        host = np.asarray(ary)
        if host.dtype != self.dtype or host.shape != ():
            raise TypeError(f"copy_to_device needs a record of dtype {self.dtype}, not "
                            f"{host.dtype} of shape {host.shape}")
        self._array.copy_to_device(host, stream=stream)

    def copy_to_host(self, ary=None, stream=0):
        """The record's bytes in a 0-d host array (numba-cuda's), or copied into `ary`."""
        return self._array.copy_to_host(ary, stream=stream)

    def __repr__(self):
        return f"<cujit.cuda.DeviceRecord dtype={self.dtype}>"


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
