"""The CUDA simulator (CUJIT_ENABLE_CUDASIM=1, or numba's NUMBA_ENABLE_CUDASIM=1): `cuda.jit`
kernels run in the Python interpreter, so `pdb.set_trace()` / `breakpoint()` work inside them.

A launch runs the blocks one after another; the threads of a block are Python threads, all
live together, so `syncthreads()` is a real barrier (threads that returned no longer take part,
as on Volta and later). Inside a kernel `cuda` is a per-launch module whose `threadIdx`,
`blockIdx`, `grid()` ... read the calling thread's indices: references to the cuda module in
the kernel's globals and closure cells are swapped for it (in a copy: the function's own
globals are never changed). Shared arrays are NumPy arrays shared by the block (one per call
site), local arrays NumPy arrays per call, atomics are done under one lock, and device arrays
are NumPy arrays with the DeviceNDArray API. Host arrays passed to a kernel are used in place.

What the simulator does not do raises NotImplementedError naming it: warp-level functions
(shuffles, votes, match), cooperative groups, fp16, and the driver-level API (contexts, IPC,
memory managers). Ordering between blocks is sequential, so a kernel that needs two blocks to
run at once (a spin-wait on another block) hangs here as it may on a GPU.
"""
import math
import sys
import threading
import types

import numpy as np

from ..errors import CudaSupportError

WARP_SIZE = 32
_atomic_lock = threading.Lock()
_current = threading.local()  # the running thread's launch (for device functions)


class Dim3(tuple):
    """x, y, z as attributes (threadIdx, blockDim, ...)."""

    def __new__(cls, x=1, y=1, z=1):
        return super().__new__(cls, (x, y, z))

    x = property(lambda self: self[0])
    y = property(lambda self: self[1])
    z = property(lambda self: self[2])


def _dim3(value, what):
    if isinstance(value, (int, np.integer)):
        value = (int(value),)
    if not isinstance(value, tuple) or not 1 <= len(value) <= 3 or \
            not all(isinstance(v, (int, np.integer)) and v >= 1 for v in value):
        raise ValueError(f"{what} must be a positive int or a tuple of 1 to 3 positive ints, "
                         f"not {value!r}")
    return Dim3(*(int(v) for v in value))


# ---- the block barrier ----

class _Aborted(Exception):
    """A thread of the block raised: the others leave their barrier."""


class _Barrier:
    """syncthreads among the live threads of a block (a thread that returned leaves it)."""

    def __init__(self, parties):
        self.cond = threading.Condition()
        self.live, self.waiting, self.generation, self.broken = parties, 0, 0, False
        self.values, self.results = [], [None, None]

    def wait(self, value=0):
        with self.cond:
            if self.broken:
                raise _Aborted()
            gen = self.generation
            self.waiting += 1
            self.values.append(value)
            if self.waiting == self.live:
                self._release()
            else:
                while gen == self.generation and not self.broken:
                    self.cond.wait()
                if self.broken:
                    raise _Aborted()
            return self.results[gen % 2]

    def _release(self):
        vals = self.values
        self.results[self.generation % 2] = (sum(1 for v in vals if v), all(vals), any(vals))
        self.values, self.waiting = [], 0
        self.generation += 1
        self.cond.notify_all()

    def leave(self):
        with self.cond:
            self.live -= 1
            if self.waiting and self.waiting == self.live:
                self._release()

    def abort(self):
        with self.cond:
            self.broken = True
            self.cond.notify_all()


# ---- what `cuda` is inside a kernel ----

class _Shared:
    def __init__(self, module):
        self._module = module

    def array(self, shape, dtype):
        """One array per block and call site (all threads of the block get the same one)."""
        block = self._module._block()
        frame = sys._getframe(1)
        key = (frame.f_code, frame.f_lasti)
        with block.lock:
            arr = block.shared.get(key)
            if arr is None:
                arr = block.shared[key] = _zeros(shape, dtype)
        return arr


class _Local:
    @staticmethod
    def array(shape, dtype):
        return _zeros(shape, dtype)


class _Const:
    @staticmethod
    def array_like(ary):
        arr = np.array(ary)
        return arr.view(np.recarray) if arr.dtype.names is not None else arr


def _zeros(shape, dtype):
    """A zeroed array; of records, a record array (a[i].x works on np.record)."""
    arr = np.zeros(shape, dtype=_np_dtype(dtype))
    return arr.view(np.recarray) if arr.dtype.names is not None else arr


def _np_dtype(dtype):
    """A NumPy dtype from a NumPy type, a dtype, or a cujit/numba scalar type."""
    if isinstance(dtype, (np.dtype, type)):
        return np.dtype(dtype)
    name = str(dtype)
    if name.startswith("Record("):  # a record type: its NumPy dtype
        return dtype.dtype
    if name in ("bool", "boolean"):
        return np.dtype(np.bool_)
    try:
        return np.dtype(name)
    except TypeError:
        raise TypeError(f"the simulator cannot make an array of {dtype!r}") from None


class _Atomic:
    """Atomics under one lock; each returns the old value, as on the GPU."""

    @staticmethod
    def _rmw(ary, idx, fn):
        with _atomic_lock:
            old = ary[idx]
            ary[idx] = fn(old)
            return old

    def add(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: o + val)

    def sub(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: o - val)

    def max(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: max(o, val))

    def min(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: min(o, val))

    def nanmax(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: np.nanmax([o, val]))

    def nanmin(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: np.nanmin([o, val]))

    def exch(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: val)

    def inc(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: 0 if o >= val else o + 1)

    def dec(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: val if o == 0 or o > val else o - 1)

    def and_(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: o & val)

    def or_(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: o | val)

    def xor(self, ary, idx, val):
        return self._rmw(ary, idx, lambda o: o ^ val)

    def compare_and_swap(self, ary, old, val):
        return self.cas(ary, 0, old, val)

    def cas(self, ary, idx, old, val):
        return self._rmw(ary, idx, lambda o: val if o == old else o)


class _Block:
    def __init__(self, idx, nthreads):
        self.idx, self.lock, self.shared = idx, threading.Lock(), {}
        self.barrier = _Barrier(nthreads)


class KernelModule:
    """`cuda` inside one launch: indices of the calling thread, barriers of its block."""

    def __init__(self, griddim, blockdim):
        self.gridDim, self.blockDim = griddim, blockdim
        self._state = threading.local()
        self.shared, self.local, self.const, self.atomic = _Shared(self), _Local(), _Const(), _Atomic()
        self.warpsize = WARP_SIZE

    def _block(self):
        return self._state.block

    threadIdx = property(lambda self: self._state.tid)
    blockIdx = property(lambda self: self._state.block.idx)
    laneid = property(lambda self: _linear(self._state.tid, self.blockDim) % WARP_SIZE)

    def grid(self, ndim):
        t, b, d = self.threadIdx, self.blockIdx, self.blockDim
        idx = tuple(b[i] * d[i] + t[i] for i in range(ndim))
        return idx[0] if ndim == 1 else idx

    def gridsize(self, ndim):
        size = tuple(self.gridDim[i] * self.blockDim[i] for i in range(ndim))
        return size[0] if ndim == 1 else size

    def syncthreads(self):
        self._block().barrier.wait()

    def syncthreads_count(self, pred):
        return self._block().barrier.wait(bool(pred))[0]

    def syncthreads_and(self, pred):
        return int(self._block().barrier.wait(bool(pred))[1])

    def syncthreads_or(self, pred):
        return int(self._block().barrier.wait(bool(pred))[2])

    def threadfence(self):
        pass

    threadfence_block = threadfence_system = threadfence

    @staticmethod
    def selp(cond, a, b):
        return a if cond else b

    @staticmethod
    def fma(a, b, c):
        return a * b + c

    @staticmethod
    def cbrt(x):
        return math.copysign(abs(x) ** (1.0 / 3.0), x)

    @staticmethod
    def popc(x):
        return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")

    @staticmethod
    def brev(x):
        bits = np.dtype(type(x)).itemsize * 8 if isinstance(x, np.integer) else 32
        return int(format(int(x) & ((1 << bits) - 1), f"0{bits}b")[::-1], 2)

    @staticmethod
    def clz(x):
        bits = np.dtype(type(x)).itemsize * 8 if isinstance(x, np.integer) else 32
        v = int(x) & ((1 << bits) - 1)
        return bits - v.bit_length()

    @staticmethod
    def ffs(x):
        v = int(x)
        return (v & -v).bit_length()

    def __getattr__(self, name):
        return _module_attr(name)


def _linear(tid, bdim):
    return tid[0] + bdim[0] * (tid[1] + bdim[1] * tid[2])


_UNSUPPORTED = {"shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "all_sync",
                "any_sync", "eq_sync", "ballot_sync", "match_any_sync", "match_all_sync",
                "activemask", "lanemask_lt", "fp16", "cg"}


def _module_attr(name):
    if name in _UNSUPPORTED:
        raise NotImplementedError(f"cuda.{name} is not supported by the CUDA simulator")
    api = sys.modules[__name__]
    if name in API:
        return getattr(api, name)
    raise AttributeError(f"the simulated cuda module has no attribute {name!r}")


# ---- kernels and device functions ----

def _is_cuda_module(value):
    return isinstance(value, (types.ModuleType, KernelModule)) and (
        isinstance(value, KernelModule) or value.__name__ == "cujit.cuda")


def _swapped(fn, module):
    """`fn` with the cuda module in its globals and closure replaced by `module`."""
    glb = {k: (module if _is_cuda_module(v) else v) for k, v in fn.__globals__.items()}
    closure = None
    if fn.__closure__:
        closure = tuple(types.CellType(module) if _cell_is_cuda(c) else c for c in fn.__closure__)
    new = types.FunctionType(fn.__code__, glb, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    return new


def _cell_is_cuda(cell):
    try:
        return _is_cuda_module(cell.cell_contents)
    except ValueError:  # an empty cell
        return False


def _device_value(arg):
    """What a kernel sees for an argument: device arrays as their NumPy array; arrays of
    records as record arrays (a[i].x and a[i].x = v work on np.record, as in compiled code)."""
    value = arg._array if isinstance(arg, DeviceNDArray) else arg
    if isinstance(value, np.ndarray) and value.dtype.names is not None:
        return value.view(np.recarray)
    if isinstance(value, np.void) and value.dtype.names is not None:
        return np.array(value).view(np.recarray)[()]  # a writable copy (the device's)
    return value


class DeviceFunction:
    """cuda.jit(device=True) under the simulator: runs in the calling kernel thread."""

    def __init__(self, fn):
        self.py_func = fn
        self.__name__ = getattr(fn, "__name__", "device_function")
        self._per_launch = {}

    def __call__(self, *args):
        module = getattr(_current, "module", None)
        if module is None:
            raise RuntimeError(f"device function {self.__name__} called outside a kernel")
        fn = self._per_launch.get(id(module))
        if fn is None or fn[0] is not module:
            fn = self._per_launch[id(module)] = (module, _swapped(self.py_func, module))
        return fn[1](*args)


class Kernel:
    """cuda.jit kernels under the simulator: `kernel[griddim, blockdim](args)`."""

    def __init__(self, fn, griddim=None, blockdim=None):
        self.py_func = fn
        self.__name__ = getattr(fn, "__name__", "kernel")
        self._config = (griddim, blockdim)

    def __getitem__(self, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError("a launch configuration is [griddim, blockdim] "
                             "(optionally stream and dynamic shared memory)")
        return Kernel(self.py_func, _dim3(config[0], "griddim"), _dim3(config[1], "blockdim"))

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """numba-cuda's 1-D launch over ntasks (tpb 0: 128 here, there being no occupancy)."""
        for name, value in (("ntasks", ntasks), ("tpb", tpb)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"forall: {name} must be an int, not {type(value).__name__}")
        if ntasks < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks}")
        if not 0 <= tpb <= 1024:
            raise ValueError(f"forall: tpb must be in 0..1024, got {tpb}")
        if ntasks == 0:
            return lambda *args: None  # no tasks, no launch (numba-cuda)
        tpb = tpb or 128
        return self[math.ceil(ntasks / tpb), tpb]

    def __call__(self, *args):
        griddim, blockdim = self._config
        if griddim is None:
            raise ValueError(f"kernel {self.__name__} needs a launch configuration: "
                             f"{self.__name__}[blocks, threads](...)")
        module = KernelModule(griddim, blockdim)
        fn = _swapped(self.py_func, module)
        values = [_device_value(a) for a in args]
        for bz in range(griddim[2]):
            for by in range(griddim[1]):
                for bx in range(griddim[0]):
                    _run_block(fn, values, module, Dim3(bx, by, bz))
        for arg, value in zip(args, values):  # records: copied back, as numba-cuda does
            if isinstance(arg, np.void) and arg.dtype.names is not None:
                for name in arg.dtype.names:
                    arg[name] = value[name]


def _run_block(fn, args, module, bidx):
    bdim = module.blockDim
    block = _Block(bidx, bdim[0] * bdim[1] * bdim[2])
    errors = []

    def thread_main(tid):
        module._state.tid, module._state.block = tid, block
        _current.module = module
        try:
            fn(*args)
        except _Aborted:
            pass
        except BaseException as exc:  # noqa: BLE001  (re-raised by the launcher)
            errors.append((tid, exc))
            block.barrier.abort()
        finally:
            block.barrier.leave()
            _current.module = None

    threads = [threading.Thread(target=thread_main, args=(Dim3(x, y, z),), daemon=True)
               for z in range(bdim[2]) for y in range(bdim[1]) for x in range(bdim[0])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        tid, exc = min(errors, key=lambda e: (e[0][2], e[0][1], e[0][0]))
        where = f"tid={list(tid)} ctaid={list(bidx)}"
        raise type(exc)(f"{where}: {exc}") from exc


def jit(func_or_sig=None, device=False, **options):
    """cuda.jit under the simulator: signatures and options are accepted and not used, but for
    link=[...] (numba's simulator refuses it too: no device code to link with)."""
    if options.get("link"):
        raise NotImplementedError("Cannot link PTX in the simulator")

    def wrap(fn):
        return DeviceFunction(fn) if device else Kernel(fn)
    if callable(func_or_sig) and not isinstance(func_or_sig, (str, list, tuple)):
        return wrap(func_or_sig)
    return wrap


# ---- device arrays: NumPy arrays with the DeviceNDArray API ----

class DeviceNDArray:
    def __init__(self, array):
        self._array = array

    shape = property(lambda self: self._array.shape)
    strides = property(lambda self: self._array.strides)
    dtype = property(lambda self: self._array.dtype)
    size = property(lambda self: self._array.size)
    ndim = property(lambda self: self._array.ndim)
    nbytes = property(lambda self: self._array.nbytes)
    T = property(lambda self: DeviceNDArray(self._array.T))

    def __len__(self):
        return len(self._array)

    def __array__(self, dtype=None, copy=None):
        return self._array if dtype is None else self._array.astype(dtype)

    def __getitem__(self, idx):
        r = self._array[idx]
        return DeviceNDArray(r) if isinstance(r, np.ndarray) else r

    def __setitem__(self, idx, value):
        self._array[idx] = _device_value(value)

    def copy_to_host(self, ary=None, stream=0):
        if ary is None:
            return self._array.copy()
        np.copyto(ary, self._array)
        return ary

    def copy_to_device(self, ary, stream=0):
        np.copyto(self._array, _device_value(ary))

    def reshape(self, *shape, order="C"):
        return DeviceNDArray(self._array.reshape(*shape, order=order))

    def ravel(self, order="C"):
        return DeviceNDArray(self._array.ravel(order=order))

    def is_c_contiguous(self):
        return self._array.flags.c_contiguous

    def is_f_contiguous(self):
        return self._array.flags.f_contiguous

    def __repr__(self):
        return f"<simulated DeviceNDArray shape={self.shape} dtype={self.dtype}>"


def to_device(obj, stream=0, copy=True, to=None):
    if to is not None:
        to.copy_to_device(obj)
        return to
    return DeviceNDArray(np.array(_device_value(obj), copy=True))


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    return DeviceNDArray(np.zeros(shape, dtype=dtype, order=order))


def device_array_like(ary, stream=0):
    return DeviceNDArray(np.zeros_like(np.asarray(_device_value(ary))))


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    return np.zeros(shape, dtype=dtype, order=order)


mapped_array = pinned_array


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0,
                  attach_global=True):
    return np.zeros(shape, dtype=dtype, order=order)


def pinned_array_like(ary):
    return np.zeros_like(ary)


mapped_array_like = pinned_array_like


def is_cuda_array(obj):
    return isinstance(obj, DeviceNDArray)


def is_available():
    return True


def detect():
    print("Found 1 CUDA device (the CUDA simulator)")
    return True


def synchronize():
    pass


class Stream:
    """Work runs when it is queued, so a stream is always done."""

    def synchronize(self):
        pass

    def auto_synchronize(self):
        import contextlib
        return contextlib.nullcontext(self)


class Event:
    def __init__(self, timing=True):
        self._t = None

    def record(self, stream=0):
        import time
        self._t = time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=0):
        pass

    def elapsed_time(self, end):
        return 1000.0 * (end._t - self._t)


def stream():
    return Stream()


default_stream = legacy_default_stream = per_thread_default_stream = stream


def event(timing=True):
    return Event(timing)


def event_elapsed_time(start, end):
    return start.elapsed_time(end)


def _no_driver(*args, **kwargs):
    raise CudaSupportError("the CUDA simulator has no driver API (contexts, devices, IPC, "
                           "memory managers)")


get_current_device = current_context = select_device = list_devices = _no_driver

API = ["jit", "DeviceNDArray", "to_device", "device_array", "device_array_like", "pinned_array",
       "pinned_array_like", "mapped_array", "mapped_array_like", "managed_array", "is_cuda_array",
       "is_available", "detect", "synchronize", "stream", "default_stream",
       "legacy_default_stream", "per_thread_default_stream", "event", "event_elapsed_time",
       "Stream", "Event", "get_current_device", "current_context", "select_device",
       "list_devices", "CudaSupportError"]
