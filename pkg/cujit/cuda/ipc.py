"""IPC handles: share a device array with another process (numba's IpcHandle)."""
import os

import numpy as np

from .. import _core


class IpcHandle:
    """A picklable handle to a device allocation. In another process, open() returns a device
    array over the same memory; close() (or leaving `with handle as ary:`) unmaps it."""

    def __init__(self, handle, size, offset, shape, strides, dtype, device, source_pid=None):
        self.handle = bytes(handle)
        self.size = int(size)
        self.offset = int(offset)
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.dtype = np.dtype(dtype)
        self.device = int(device)
        self.source_pid = os.getpid() if source_pid is None else source_pid
        self._array = None

    def open(self):
        """Maps the memory (in a process other than its owner) and returns a DeviceNDArray."""
        self._check_layout()
        if self.source_pid == os.getpid():
            raise ValueError("an IPC handle cannot be opened in the process that exported it; "
                             "use the original array")
        self._array = _core.ipc_open(self.handle, self.offset, self.shape, self.strides,
                                     self.dtype)
        return self._array

    def _check_layout(self):
        """The handle may come from anywhere (it is pickled): its layout must fit the mapping."""
        item = self.dtype.itemsize
        if len(self.shape) != len(self.strides) or any(n < 0 for n in self.shape):
            raise ValueError("IPC handle has a bad shape or strides")
        if any(s % item for s in self.strides):
            raise ValueError("IPC handle strides are not multiples of the itemsize")
        if 0 in self.shape:
            return
        lo = sum((n - 1) * s for n, s in zip(self.shape, self.strides) if s < 0)
        hi = sum((n - 1) * s for n, s in zip(self.shape, self.strides) if s > 0) + item
        if self.offset + lo < 0 or self.offset + hi > self.size:
            raise ValueError("IPC handle layout reaches outside the shared allocation")

    def close(self):
        """Unmaps the memory now; arrays from open() must not be used afterwards."""
        if self._array is not None:
            self._array.gpu_data.free()
            self._array = None

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()

    def __reduce__(self):
        return (IpcHandle, (self.handle, self.size, self.offset, self.shape, self.strides,
                            self.dtype.str, self.device, self.source_pid))

    def __repr__(self):
        return (f"<IpcHandle shape={self.shape} dtype={self.dtype} device={self.device} "
                f"from pid {self.source_pid}>")
