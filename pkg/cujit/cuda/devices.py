"""Devices and contexts: is_available, detect, gpus, select_device, current_context, close...

cujit works in each device's *primary* context, the one CuPy and PyTorch use too, so memory and
streams are shared with them in the same process. Nothing here touches the driver at import.
"""
import collections
import ctypes
import threading

from .. import _core
from ..errors import CudaSupportError

# memory.py depends on this module, not the other way round: at its import (the package
# imports it) it installs the current memory manager and the managers' reset for close().
_memory_hooks = {"current": None, "reset": None}


def _install_memory_hooks(current, reset):
    _memory_hooks["current"] = current
    _memory_hooks["reset"] = reset

MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])

# CUdevice_attribute values (cuda.h), by numba's attribute names.
DEVICE_ATTRIBUTES = {
    "MAX_THREADS_PER_BLOCK": 1, "MAX_BLOCK_DIM_X": 2, "MAX_BLOCK_DIM_Y": 3, "MAX_BLOCK_DIM_Z": 4,
    "MAX_GRID_DIM_X": 5, "MAX_GRID_DIM_Y": 6, "MAX_GRID_DIM_Z": 7,
    "MAX_SHARED_MEMORY_PER_BLOCK": 8, "TOTAL_CONSTANT_MEMORY": 9, "WARP_SIZE": 10,
    "MAX_PITCH": 11, "MAX_REGISTERS_PER_BLOCK": 12, "CLOCK_RATE": 13, "TEXTURE_ALIGNMENT": 14,
    "GPU_OVERLAP": 15, "MULTIPROCESSOR_COUNT": 16, "KERNEL_EXEC_TIMEOUT": 17, "INTEGRATED": 18,
    "CAN_MAP_HOST_MEMORY": 19, "COMPUTE_MODE": 20, "CONCURRENT_KERNELS": 31, "ECC_ENABLED": 32,
    "PCI_BUS_ID": 33, "PCI_DEVICE_ID": 34, "TCC_DRIVER": 35, "MEMORY_CLOCK_RATE": 36,
    "GLOBAL_MEMORY_BUS_WIDTH": 37, "L2_CACHE_SIZE": 38, "MAX_THREADS_PER_MULTI_PROCESSOR": 39,
    "ASYNC_ENGINE_COUNT": 40, "UNIFIED_ADDRESSING": 41, "PCI_DOMAIN_ID": 50,
    "COMPUTE_CAPABILITY_MAJOR": 75, "COMPUTE_CAPABILITY_MINOR": 76,
    "STREAM_PRIORITIES_SUPPORTED": 78, "GLOBAL_L1_CACHE_SUPPORTED": 79,
    "LOCAL_L1_CACHE_SUPPORTED": 80, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 81,
    "MAX_REGISTERS_PER_MULTIPROCESSOR": 82, "MANAGED_MEMORY": 83, "MULTI_GPU_BOARD": 84,
    "MULTI_GPU_BOARD_GROUP_ID": 85, "HOST_NATIVE_ATOMIC_SUPPORTED": 86,
    "SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO": 87, "PAGEABLE_MEMORY_ACCESS": 88,
    "CONCURRENT_MANAGED_ACCESS": 89, "COMPUTE_PREEMPTION_SUPPORTED": 90,
    "CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM": 91, "COOPERATIVE_LAUNCH": 95,
    "COOPERATIVE_MULTI_DEVICE_LAUNCH": 96, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97,
    "MAX_BLOCKS_PER_MULTIPROCESSOR": 106, "MEMORY_POOLS_SUPPORTED": 115,
}
# numba's spelling of this one
DEVICE_ATTRIBUTES["MAX_THREADS_PER_MULTIPROCESSOR"] = 39


def is_available():
    """True when the CUDA driver loads and finds at least one GPU (never raises)."""
    return bool(_core.cuda_available()[0])


def unavailable_reason():
    """Why CUDA is not available, or None when it is."""
    return _core.cuda_available()[1]


class Device:
    """One CUDA device; attributes such as MULTIPROCESSOR_COUNT read the driver's values."""

    def __init__(self, devnum):
        self.id = int(devnum)
        self._name = None

    @property
    def name(self):
        if self._name is None:
            self._name = _core.cuda_device_name(self.id)
        return self._name

    @property
    def compute_capability(self):
        return (_core.cuda_device_attribute(self.id, 75), _core.cuda_device_attribute(self.id, 76))

    @property
    def uuid(self):
        return _core.cuda_device_uuid(self.id)

    @property
    def pci_bus_id(self):
        return _core.cuda_device_pci_bus_id(self.id)

    @property
    def total_memory(self):
        return _core.cuda_device_total_memory(self.id)

    def get_attribute(self, attribute):
        """Reads a CUdevice_attribute by numba name or by its number."""
        code = DEVICE_ATTRIBUTES.get(attribute, attribute) if isinstance(attribute, str) else attribute
        if isinstance(code, str):
            raise AttributeError(f"unknown CUDA device attribute {attribute!r}")
        return _core.cuda_device_attribute(self.id, code)

    def __getattr__(self, name):
        code = DEVICE_ATTRIBUTES.get(name)
        if code is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return _core.cuda_device_attribute(self.id, code)

    def get_primary_context(self):
        _core.cuda_select_device(self.id)
        return Context(self)

    def reset(self):
        """Releases cujit's contexts (numba's Device.reset); other libraries' hold stays."""
        close()

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cujit.Device", self.id))

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}'>"


class _PendingDeallocations:
    """numba's context.deallocations: the deferred-free queue (process-wide in cujit)."""

    def clear(self):
        _core.deallocations_flush()

    def __len__(self):
        return _core.deallocations_pending()[0]

    @property
    def pending_bytes(self):
        return _core.deallocations_pending()[1]


class Context:
    """A device's primary context as numba's Context: memory info, deallocations, manager."""

    def __init__(self, device):
        self.device = device
        self.deallocations = _PendingDeallocations()

    @property
    def handle(self):
        return ctypes.c_void_p(_core.cuda_context_handle())

    @property
    def memory_manager(self):
        return _memory_hooks["current"]()

    def get_memory_info(self):
        """(free, total) from the memory manager (a pool plugin knows its own), else the
        driver's numbers for the device."""
        try:
            info = self.memory_manager.get_memory_info()
        except NotImplementedError:
            info = _core.cuda_mem_get_info()
        return MemoryInfo(*info)

    def synchronize(self):
        _core.cuda_synchronize()

    def reset(self):
        self.memory_manager.reset()
        _core.deallocations_flush_all()

    def memalloc(self, size):
        return self.memory_manager.memalloc(size)

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        return self.memory_manager.memhostalloc(size, mapped, portable, wc)

    def mempin(self, owner, pointer, size, mapped=False):
        return self.memory_manager.mempin(owner, pointer, size, mapped)

    def get_ipc_handle(self, memory):
        return self.memory_manager.get_ipc_handle(memory)

    def __eq__(self, other):
        return isinstance(other, Context) and other.device == self.device

    def __hash__(self):
        return hash(("cujit.Context", self.device.id))

    def __repr__(self):
        return f"<CUDA context of device {self.device.id}>"


def get_current_device():
    """The device of this thread's current context (device 0 unless one was selected)."""
    return Device(_core.cuda_current_device())


def select_device(device_id):
    """Makes device `device_id` current on this thread (its primary context) and returns it."""
    _core.cuda_select_device(int(device_id))
    return Device(device_id)


def list_devices():
    """The CUDA devices of this machine, as Device objects."""
    return [Device(i) for i in range(_core.cuda_device_count())]


def current_context(devnum=None):
    """The current context (selecting `devnum` first when given)."""
    if devnum is not None:
        select_device(devnum)
    return Context(get_current_device())


def synchronize():
    """Waits for all work on the current device."""
    _core.cuda_synchronize()


def close():
    """Frees pending deallocations and releases cujit's contexts on all devices. Arrays, streams
    and events made before refuse further use (CudaSupportError); new work opens them again."""
    _core.deallocations_flush_all()
    _memory_hooks["reset"]()
    _core.cuda_close_contexts()


_selection = threading.local()


class _DeviceContextManager:
    """gpus[i]: the device, and `with cuda.gpus[i]:` makes it current for the block."""

    def __init__(self, device):
        self._device = device

    def __getattr__(self, name):
        return getattr(self._device, name)

    def __enter__(self):
        stack = getattr(_selection, "stack", None)
        if stack is None:
            stack = _selection.stack = []
        stack.append(_core.cuda_current_device())
        select_device(self._device.id)
        return self._device

    def __exit__(self, *exc):
        previous = _selection.stack.pop()
        select_device(previous)

    def __eq__(self, other):
        return self._device == getattr(other, "_device", other)

    def __hash__(self):
        return hash(self._device)

    def __repr__(self):
        return repr(self._device)


class _DeviceList:
    """numba's cuda.gpus: indexable, iterable, len(); `current` is this thread's device."""

    def __getitem__(self, devnum):
        count = _core.cuda_device_count()
        if not isinstance(devnum, int) or isinstance(devnum, bool):
            raise TypeError("device index must be an int")
        if devnum < 0:
            devnum += count
        if not 0 <= devnum < count:
            raise IndexError(f"no CUDA device {devnum} (there are {count})")
        return _DeviceContextManager(Device(devnum))

    def __len__(self):
        return _core.cuda_device_count()

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    @property
    def current(self):
        return get_current_device()

    def __repr__(self):
        try:
            return f"<cujit.cuda.gpus: {list(self)}>"
        except CudaSupportError as e:
            return f"<cujit.cuda.gpus: none ({e})>"


gpus = _DeviceList()


def detect():
    """Prints the CUDA devices found and whether cujit supports them; True when some are."""
    ok, why = _core.cuda_available()
    if not ok:
        print(f"CUDA driver/devices not available: {why}")
        return False
    devices = list_devices()
    print(f"Found {len(devices)} CUDA devices")
    supported = 0
    for dev in devices:
        cc = dev.compute_capability
        good = cc >= (5, 0)
        supported += good
        print(f"id {dev.id:>4} {dev.name!r:>40} {'[SUPPORTED]' if good else '[NOT SUPPORTED]'}")
        print(f"{'Compute Capability:':>40} {cc[0]}.{cc[1]}")
        print(f"{'PCI Bus ID:':>40} {dev.pci_bus_id}")
        print(f"{'UUID:':>40} {dev.uuid}")
    print("Summary:")
    print(f"\t{supported}/{len(devices)} devices are supported")
    return supported > 0
