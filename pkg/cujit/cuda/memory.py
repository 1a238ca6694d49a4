"""Memory managers (numba's EMM plugin interface) and pinned / mapped host memory.

Built in: the default manager (cuMemAlloc/cuMemFree with numba's deferred deallocation) and a
stream-ordered pool manager (cuMemAllocAsync over the device's default memory pool). Both run in
C without calling back into Python; any other BaseCUDAMemoryManager is a plugin whose memalloc()
cujit calls for every device allocation.
"""
import contextlib
import ctypes
import importlib
import weakref

import numpy as np

from .. import _core, config
from . import devices


def _pointer_value(pointer):
    """An address given as an int, a ctypes pointer/integer or None."""
    if pointer is None:
        return 0
    if isinstance(pointer, int):
        return pointer
    value = getattr(pointer, "value", None)
    if value is None and isinstance(pointer, ctypes.c_void_p):
        return 0
    if not isinstance(value, int):
        raise TypeError(f"not a pointer: {pointer!r}")
    return value


class MemoryPointer:
    """Device memory handed out by a memory manager (numba's MemoryPointer).

    MemoryPointer(context, pointer, size, owner=None, finalizer=None): `finalizer` runs once when
    this object is garbage collected or free() is called.
    """
    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        self.context = context
        self.device_pointer = pointer
        self.device_pointer_value = _pointer_value(pointer)
        self.size = int(size)
        self._owner = owner
        self.handle = pointer
        self.is_managed = finalizer is not None
        self._finalizer = weakref.finalize(self, finalizer) if finalizer is not None else None

    @property
    def owner(self):
        return self if self._owner is None else self._owner

    def own(self):
        return self

    def free(self):
        """Runs the finalizer now (numba's MemoryPointer.free)."""
        if self._finalizer is not None:
            self._finalizer()

    def view(self, start, stop=None):
        stop = self.size if stop is None else stop
        if not 0 <= start <= stop <= self.size:
            raise IndexError("memory view out of range")
        return MemoryPointer(self.context, self.device_pointer_value + start, stop - start,
                             owner=self.owner)

    def __repr__(self):
        return (f"<{type(self).__name__} 0x{self.device_pointer_value:x} "
                f"{self.size} bytes>")


class _HostMemory(MemoryPointer):
    """Host memory seen by NumPy through __array_interface__ (bytes, uint8)."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None, device_pointer=None):
        self.host_pointer = _pointer_value(pointer)
        # with unified addressing (every 64-bit Linux system) a mapped host block has the same
        # address on the device
        super().__init__(context, self.host_pointer if device_pointer is None else device_pointer,
                         size, owner=owner, finalizer=finalizer)
        self.handle = pointer

    @property
    def __array_interface__(self):
        return {"shape": (max(self.size, 1),), "typestr": "|u1",
                "data": (self.host_pointer, False), "version": 3}


class PinnedMemory(_HostMemory):
    """Page-locked host memory, not mapped into the device's address space."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        super().__init__(context, pointer, size, owner=owner, finalizer=finalizer)
        self.device_pointer = None
        self.device_pointer_value = 0


class MappedMemory(_HostMemory):
    """Page-locked host memory mapped into the device's address space."""


class ManagedMemory(_HostMemory):
    """Managed (unified) memory, cuMemAllocManaged: one address on the host and the device."""


class BaseCUDAMemoryManager:
    """The EMM plugin interface (numba's BaseCUDAMemoryManager). Subclasses get `context`."""

    def __init__(self, *args, **kwargs):
        if "context" not in kwargs:
            raise RuntimeError("Memory manager requires a context")
        self.context = kwargs.pop("context")

    def memalloc(self, size):
        """Allocate on-device memory in the current context: return a MemoryPointer."""
        raise NotImplementedError

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        """Allocate pinned host memory: return MappedMemory or PinnedMemory."""
        raise NotImplementedError

    def mempin(self, owner, pointer, size, mapped=False):
        """Pin a region of already allocated host memory."""
        raise NotImplementedError

    def initialize(self):
        """Do anything needed for the plugin instance to be ready."""
        raise NotImplementedError

    def get_ipc_handle(self, memory):
        """Return an IPC handle from a GPU allocation."""
        raise NotImplementedError

    def get_memory_info(self):
        """(free, total) bytes in the context; may raise NotImplementedError."""
        raise NotImplementedError

    def reset(self):
        """Clear up all memory allocated in this context."""
        raise NotImplementedError

    def defer_cleanup(self):
        """Context manager during which no deallocation happens."""
        raise NotImplementedError

    @property
    def interface_version(self):
        raise NotImplementedError


class HostOnlyCUDAMemoryManager(BaseCUDAMemoryManager):
    """Implements the host side (pinned, mapped, deferred cleanup); subclasses do the device."""

    def memallocmanaged(self, size, attach_global=True):
        """Managed memory (cuMemAllocManaged): a ManagedMemory, host and device visible."""
        mem = _core.managed_alloc(int(size), attach_global=bool(attach_global))
        return ManagedMemory(self.context, mem.host_pointer, size, owner=mem)

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        mem = _core.host_alloc(int(size), mapped=mapped, portable=portable, wc=wc)
        if mapped:
            return MappedMemory(self.context, mem.host_pointer, size, owner=mem,
                                device_pointer=mem.device_pointer_value)
        return PinnedMemory(self.context, mem.host_pointer, size, owner=mem)

    def mempin(self, owner, pointer, size, mapped=False):
        address = _pointer_value(pointer)
        if size == 0:
            return PinnedMemory(self.context, address, 0, owner=owner)
        buffer = (ctypes.c_byte * int(size)).from_address(address)
        mem = _core.host_register(buffer, mapped=mapped)
        keep = (mem, owner)  # the registration, then what owns the bytes
        if mapped:
            return MappedMemory(self.context, address, size, owner=keep,
                                device_pointer=mem.device_pointer_value)
        return PinnedMemory(self.context, address, size, owner=keep)

    def reset(self):
        _core.deallocations_flush_all()

    @contextlib.contextmanager
    def defer_cleanup(self):
        _core.defer_cleanup_enter()
        try:
            yield
        finally:
            _core.defer_cleanup_exit()


class GetIpcHandleMixin:
    """get_ipc_handle for any manager whose memory is a plain device allocation."""

    def get_ipc_handle(self, memory):
        from . import arrays
        view = arrays.as_cuda_array(_RawDevice(memory.device_pointer_value, memory.size, memory))
        return view.get_ipc_handle()


class _RawDevice:
    """A byte range of device memory seen through __cuda_array_interface__."""

    def __init__(self, pointer, size, owner):
        self._owner = owner
        self.__cuda_array_interface__ = {"shape": (size,), "typestr": "|u1",
                                         "data": (pointer, False), "version": 3, "strides": None}


class DefaultMemoryManager(GetIpcHandleMixin, HostOnlyCUDAMemoryManager):
    """numba's default: cuMemAlloc at once, cuMemFree deferred (cujit runs it in C)."""
    _cujit_kind = "default"

    def initialize(self):
        pass

    def memalloc(self, size):
        mem = _core.memalloc(int(size))
        return MemoryPointer(self.context, mem.device_pointer_value, size, owner=mem)

    def get_memory_info(self):
        return devices.MemoryInfo(*_core.cuda_mem_get_info())

    @property
    def interface_version(self):
        return 1


NumbaCUDAMemoryManager = DefaultMemoryManager


class PoolMemoryManager(DefaultMemoryManager):
    """Stream-ordered pool: cuMemAllocAsync / cuMemFreeAsync on the device's default memory
    pool, which keeps freed memory cached (no deferred queue, no synchronisation on free)."""
    _cujit_kind = "pool"

    def memalloc(self, size):
        mem = _core.memalloc(int(size), pool=True)
        return MemoryPointer(self.context, mem.device_pointer_value, size, owner=mem)

    def reset(self):
        super().reset()
        _core.cuda_synchronize()
        _core.pool_trim(0)


_manager = None  # the active manager instance; None = the default, not yet made


def current_memory_manager():
    global _manager
    _core.run_first_use_hook()
    if _manager is None:
        _manager = DefaultMemoryManager(context=devices.Context(None))
    return _manager


def _builtin_kind(instance):
    kind = getattr(type(instance), "_cujit_kind", None)
    if kind is None:
        return None
    builtin = PoolMemoryManager if kind == "pool" else DefaultMemoryManager
    # a subclass overriding memalloc is a plugin like any other
    return kind if type(instance).memalloc is builtin.memalloc else None


def set_memory_manager(mm_plugin):
    """Uses the EMM plugin class `mm_plugin` for all further allocations (numba's API).
    DefaultMemoryManager and PoolMemoryManager select cujit's built-in C managers."""
    if not (isinstance(mm_plugin, type) and issubclass(mm_plugin, BaseCUDAMemoryManager)):
        raise TypeError("set_memory_manager needs a BaseCUDAMemoryManager subclass")
    dummy = mm_plugin(context=None)
    _core.set_first_use_hook(None)  # an explicit choice wins over the environment
    if dummy.interface_version != 1:
        raise RuntimeError(f"EMM plugin interface has version {dummy.interface_version}, "
                           "but only version 1 is supported")
    global _manager
    instance = mm_plugin(context=devices.Context(None))
    kind = _builtin_kind(instance)
    if kind is None and devices.is_available():
        instance.context = devices.current_context()
        instance.initialize()
    _core.set_memory_manager(kind or "plugin", None if kind else instance)
    _manager = instance


def _reset_managers():
    """close(): the plugin keeps its instance; a later allocation re-creates contexts."""


def defer_cleanup():
    """Context manager: no deallocation happens inside it (numba's cuda.defer_cleanup)."""
    return current_memory_manager().defer_cleanup()


def set_deallocation_limits(count=None, ratio=None):
    """Tunes the deferred deallocation queue: flushed past `count` entries (numba's
    CUDA_MAX_PENDING_DEALLOCS_COUNT, default 10) or `ratio` of device memory (default 0.2)."""
    global _limits
    count = _limits[0] if count is None else int(count)
    ratio = _limits[1] if ratio is None else float(ratio)
    _core.set_deallocation_limits(count, ratio)
    _limits = (count, ratio)


_limits = (10, 0.2)


def _configure_from_environment():
    """Reads the CUDA_* settings (cujit.config: CUJIT_, else NUMBA_); a plugin module is imported at the first allocation
    (as numba does at context creation), so it may import cujit itself."""
    count = config.env("CUDA_MAX_PENDING_DEALLOCS_COUNT")
    ratio = config.env("CUDA_MAX_PENDING_DEALLOCS_RATIO")
    if count is not None or ratio is not None:
        set_deallocation_limits(None if count is None else int(count),
                                None if ratio is None else float(ratio))
    name = config.env("CUDA_MEMORY_MANAGER", "").strip()
    if not name or name == "default":
        return
    if name == "pool":
        set_memory_manager(PoolMemoryManager)
        return
    _core.set_first_use_hook(lambda: _load_plugin(name))


def _load_plugin(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:
        raise RuntimeError(f"{config.env_name('CUDA_MEMORY_MANAGER')}={name!r}: cannot import it "
                           f"({e})") from e
    plugin = getattr(module, "_cujit_memory_manager", None) or getattr(
        module, "_numba_memory_manager", None)
    if plugin is None:
        raise RuntimeError(f"{config.env_name('CUDA_MEMORY_MANAGER')}={name!r}: the module has no "
                           "_cujit_memory_manager (or _numba_memory_manager) attribute")
    set_memory_manager(plugin)


# ---- pinned and mapped host arrays ----

def _layout(shape, dtype, strides, order):
    """(shape, dtype, strides, bytes) for a host array, checked by NumPy itself."""
    dtype = np.dtype(dtype)
    if dtype.hasobject:
        raise TypeError(f"dtype {dtype} cannot live in pinned memory")
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', not {order!r}")
    probe = np.lib.stride_tricks.as_strided(np.empty(0, dtype), shape=shape,
                                            strides=strides) if strides is not None else None
    if probe is not None:
        span = sum((n - 1) * s for n, s in zip(shape, strides) if n > 0)
        nbytes = 0 if 0 in shape else span + dtype.itemsize
        if any(s < 0 for s in strides):
            raise ValueError("negative strides are not supported for pinned arrays")
    else:
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if any(n < 0 for n in shape):
            raise ValueError("negative dimensions are not allowed")
    return shape, dtype, strides, nbytes


def _host_array(mem, shape, dtype, strides, order, cls=np.ndarray):
    buffer = np.asarray(mem)  # uint8 over the block; its base keeps `mem` alive
    return np.ndarray(shape, dtype=dtype, buffer=buffer, strides=strides, order=order).view(cls)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory (fast, asynchronous transfers)."""
    shape, dtype, strides, nbytes = _layout(shape, dtype, strides, order)
    mem = current_memory_manager().memhostalloc(nbytes, mapped=False)
    return _host_array(mem, shape, dtype, strides, order)


class MappedNDArray(np.ndarray):
    """A host array in mapped pinned memory, usable on the device as is (zero copy)."""

    def __array_finalize__(self, obj):
        self._cujit_memory = getattr(obj, "_cujit_memory", None)

    @property
    def __cuda_array_interface__(self):
        mem = self._cujit_memory
        if mem is None:
            raise AttributeError("this array is not in mapped memory")
        offset = self.__array_interface__["data"][0] - mem.host_pointer
        return {"shape": self.shape, "typestr": self.dtype.str,
                "strides": None if self.flags.c_contiguous else self.strides,
                "data": (mem.device_pointer_value + offset if self.size else 0, False),
                "version": 3, "stream": None}


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False,
                 wc=False):
    """A host array in mapped pinned memory, also accessible from the device."""
    shape, dtype, strides, nbytes = _layout(shape, dtype, strides, order)
    mem = current_memory_manager().memhostalloc(nbytes, mapped=True, portable=portable, wc=wc)
    ary = _host_array(mem, shape, dtype, strides, order, MappedNDArray)
    ary._cujit_memory = mem
    return ary


class ManagedNDArray(np.ndarray):
    """A host array in managed memory, usable on the device as is (numba-cuda's)."""

    __array_finalize__ = MappedNDArray.__array_finalize__
    __cuda_array_interface__ = MappedNDArray.__cuda_array_interface__


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0,
                  attach_global=True):
    """A NumPy array in managed (unified) memory, also accessible from the device (numba-cuda's
    cuda.managed_array). attach_global=False attaches it to the host (devices of compute
    capability 6.0+ still reach it)."""
    shape, dtype, strides, nbytes = _layout(shape, dtype, strides, order)
    manager = current_memory_manager()
    if not hasattr(manager, "memallocmanaged"):
        raise NotImplementedError(f"managed_array: the memory manager {type(manager).__name__} "
                                  "has no memallocmanaged(size, attach_global)")
    mem = manager.memallocmanaged(nbytes, attach_global=attach_global)
    ary = _host_array(mem, shape, dtype, strides, order, ManagedNDArray)
    ary._cujit_memory = mem
    return ary


def profile_start():
    """Starts the CUDA profiler's collection (cuProfilerStart), as numba-cuda's."""
    _core.profile_start()


def profile_stop():
    """Stops the CUDA profiler's collection (cuProfilerStop)."""
    _core.profile_stop()


@contextlib.contextmanager
def profiling():
    """Profiles the block: profile_start() before, profile_stop() after (numba-cuda's)."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()


def _order_like(ary):
    return "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C"


def pinned_array_like(ary):
    """A pinned (page-locked) host array with the shape, dtype and order of `ary`."""
    ary = np.asarray(ary)
    return pinned_array(ary.shape, ary.dtype, order=_order_like(ary))


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped host array (visible to the device) with the shape, dtype and order of `ary`."""
    ary = np.asarray(ary)
    return mapped_array(ary.shape, ary.dtype, order=_order_like(ary), stream=stream,
                        portable=portable, wc=wc)


def _host_region(ary):
    if not isinstance(ary, np.ndarray):
        raise TypeError(f"expected a NumPy array, got {type(ary).__name__}")
    if not (ary.flags.c_contiguous or ary.flags.f_contiguous):
        raise ValueError("only contiguous arrays can be pinned")
    if not ary.flags.writeable:
        raise ValueError("read-only arrays cannot be pinned")
    return ary.__array_interface__["data"][0], ary.nbytes


@contextlib.contextmanager
def pinned(*arylist):
    """Pins the host arrays for the duration of the block (cuMemHostRegister)."""
    pins = []
    try:
        for ary in arylist:
            pointer, size = _host_region(ary)
            pins.append(current_memory_manager().mempin(ary, pointer, size, mapped=False))
        yield
    finally:
        for pin in reversed(pins):
            for item in pin._owner if isinstance(pin._owner, tuple) else ():
                if isinstance(item, _core.Memory):
                    item.free()


@contextlib.contextmanager
def mapped(*arylist, **kws):
    """Maps the host arrays into the device's address space for the block and yields device
    arrays over them (one array, or a list for several)."""
    from . import arrays
    stream = kws.pop("stream", 0)
    portable = kws.pop("portable", False)
    wc = kws.pop("wc", False)
    if kws:
        raise TypeError(f"unexpected keyword arguments {sorted(kws)}")
    del stream, portable, wc  # registration has no stream; portable/wc are allocation flags
    pins, views = [], []
    try:
        for ary in arylist:
            pointer, size = _host_region(ary)
            pin = current_memory_manager().mempin(ary, pointer, size, mapped=True)
            pins.append(pin)
            iface = {"shape": ary.shape, "typestr": ary.dtype.str,
                     "strides": None if ary.flags.c_contiguous else ary.strides,
                     "data": (pin.device_pointer_value if ary.size else 0, False), "version": 3}
            views.append(arrays.as_cuda_array(_Interface(iface, pin)))
        yield views[0] if len(views) == 1 else views
    finally:
        for pin in reversed(pins):
            for item in pin._owner if isinstance(pin._owner, tuple) else ():
                if isinstance(item, _core.Memory):
                    item.free()


class _Interface:
    def __init__(self, iface, owner):
        self.__cuda_array_interface__ = iface
        self._owner = owner


# devices.Context.memory_manager and devices.close() reach this module through these (looked
# up at each call, so the names here stay the ones used).
devices._install_memory_hooks(lambda: current_memory_manager(), lambda: _reset_managers())
