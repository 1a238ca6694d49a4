"""numba-cuda's reduction kernels (numba.cuda.kernels.reduction): cuda.Reduce / cuda.reduce.

`Reduce(fn)(arr, size=None, res=None, init=0, stream=0)` reduces a 1-D host or device array with
any binary function that compiles as a CUDA device function. The result is
fn(reduction of the elements, init), as in numba-cuda.

One launch per call: a grid of at most a few blocks per SM reads the input with a grid-stride
loop (eight loads in flight per thread), reduces each block with a warp-shuffle tree, writes one
partial per block, and the last block to finish (an atomic ticket after a fence) reduces the
partials and writes the result. The kernel is written with cujit's own cuda.jit and compiled
once per (function, dtype) (then per array layout by the dispatcher); the partials and the
ticket live in scratch memory kept per (device, stream, dtype) by each host thread (freed with
it), so a call allocates nothing on the device and copies back only the final scalar (none
when `res` is given).
"""
import operator
import threading

import numpy as np

from ... import _core

__all__ = ["Reduce"]

_WARPSIZE = 32
_BLOCK = 256                 # threads per block: 8 warps
_NUMWARPS = _BLOCK // _WARPSIZE
# blocks per SM in the grid: all resident at once (one wave: the kernel is compiled for at
# most _MAX_REGISTERS a thread), and with eight loads in flight per thread (four, then one, in
# the grid-stride loop's last steps) enough bytes requested to keep HBM busy
_BLOCKS_PER_SM = 4
_MAX_REGISTERS = 65536 // (_BLOCKS_PER_SM * _BLOCK)
# dtypes cuda.shfl_down_sync moves; the others are reduced through shared memory
_SHUFFLED = frozenset("int32 int64 uint32 uint64 float32 float64".split())


def _numba_type(dtype):
    """cujit's scalar type of a NumPy dtype (numba's from_dtype)."""
    from ... import typeof
    return typeof(np.dtype(dtype).type(0))


def _cuda():
    """The cujit.cuda in use: the GPU's, or the simulator's (CUJIT_ENABLE_CUDASIM=1)."""
    from ... import cuda
    return cuda


def _reduce_factory(fn, dtype):
    """The reduction kernel of `fn` over arrays of `dtype` (a cuda.jit dispatcher)."""
    from ...types import int32
    cuda = _cuda()  # also the name the kernels use, which the simulator recognises
    jit = cuda.jit
    # the values of `fn` are cast back to the dtype, as storing them into an array would
    nbtype = dtype.type if cuda.SIMULATOR else _numba_type(dtype)
    op = jit(device=True)(fn)
    shuffled = dtype.name in _SHUFFLED and not cuda.SIMULATOR  # the simulator has no shuffles
    lanes = 1 if shuffled else _BLOCK  # shared slots of the tree without shuffles

    @jit(device=True)
    def warp_reduce(v, count):
        """Lane 0 gets fn over the values of the warp's first `count` lanes."""
        lane = cuda.threadIdx.x % _WARPSIZE
        offset = _WARPSIZE // 2
        while offset > 0:
            # shfl_down_sync gives 64-bit ints as int64 (numba-cuda's typing): a uint64 comes
            # back to its own type, else fn would compare it with a uint64 as a float64
            other = nbtype(cuda.shfl_down_sync(0xffffffff, v, offset))
            if lane + offset < count:
                v = nbtype(op(v, other))
            offset //= 2
        return v

    @jit(device=True)
    def shuffle_block_reduce(v, count, sm_warps, sm_lanes):
        """Thread 0 gets fn over the values of the block's first `count` threads (they form a
        prefix of the block): a shuffle tree per warp, then one over the warps' results."""
        tid = cuda.threadIdx.x
        warp = tid // _WARPSIZE
        v = warp_reduce(v, count - warp * _WARPSIZE)
        if tid % _WARPSIZE == 0:
            sm_warps[warp] = v
        cuda.syncthreads()
        if warp == 0:
            nwarps = (count + _WARPSIZE - 1) // _WARPSIZE
            v = warp_reduce(sm_warps[tid] if tid < nwarps else sm_warps[0], nwarps)
        cuda.syncthreads()  # sm_warps is reused by the final step
        return v

    @jit(device=True)
    def shared_block_reduce(v, count, sm_warps, sm_lanes):
        """The same for dtypes shfl_down_sync does not move: a tree in shared memory."""
        tid = cuda.threadIdx.x
        sm_lanes[tid] = v
        cuda.syncthreads()
        offset = _BLOCK // 2
        while offset > 0:
            if tid + offset < count and tid < offset:
                sm_lanes[tid] = nbtype(op(sm_lanes[tid], sm_lanes[tid + offset]))
            cuda.syncthreads()
            offset //= 2
        v = sm_lanes[0]
        cuda.syncthreads()  # sm_lanes is reused by the final step
        return v

    block_reduce = shuffle_block_reduce if shuffled else shared_block_reduce

    def reduce_kernel(arr, n, partials, ticket, out, init):
        sm_warps = cuda.shared.array(_NUMWARPS, dtype=nbtype)
        sm_lanes = cuda.shared.array(lanes, dtype=nbtype)
        last = cuda.shared.array(1, dtype=int32)
        tid = cuda.threadIdx.x
        block = cuda.blockIdx.x
        nblocks = cuda.gridDim.x
        stride = nblocks * _BLOCK
        # thread i starts at element i: a block's threads with a value form a prefix
        i = block * _BLOCK + tid
        v = arr[i] if i < n else arr[0]
        i += stride
        # the loads of a step are all issued before their values are combined, in order
        while i + 7 * stride < n:
            a0 = arr[i]
            a1 = arr[i + stride]
            a2 = arr[i + 2 * stride]
            a3 = arr[i + 3 * stride]
            a4 = arr[i + 4 * stride]
            a5 = arr[i + 5 * stride]
            a6 = arr[i + 6 * stride]
            a7 = arr[i + 7 * stride]
            v = nbtype(op(v, a0))
            v = nbtype(op(v, a1))
            v = nbtype(op(v, a2))
            v = nbtype(op(v, a3))
            v = nbtype(op(v, a4))
            v = nbtype(op(v, a5))
            v = nbtype(op(v, a6))
            v = nbtype(op(v, a7))
            i += 8 * stride
        if i + 3 * stride < n:
            a0 = arr[i]
            a1 = arr[i + stride]
            a2 = arr[i + 2 * stride]
            a3 = arr[i + 3 * stride]
            v = nbtype(op(v, a0))
            v = nbtype(op(v, a1))
            v = nbtype(op(v, a2))
            v = nbtype(op(v, a3))
            i += 4 * stride
        while i < n:
            v = nbtype(op(v, arr[i]))
            i += stride
        v = block_reduce(v, min(n - block * _BLOCK, _BLOCK), sm_warps, sm_lanes)
        if tid == 0:
            partials[block] = v
            cuda.threadfence()  # the partial is visible before the ticket is taken
            last[0] = cuda.atomic.add(ticket, 0, 1) == nblocks - 1
        cuda.syncthreads()
        if last[0]:
            j = tid
            v = partials[j] if j < nblocks else partials[0]
            j += _BLOCK
            while j < nblocks:
                v = nbtype(op(v, partials[j]))
                j += _BLOCK
            v = block_reduce(v, min(nblocks, _BLOCK), sm_warps, sm_lanes)
            if tid == 0:
                out[0] = nbtype(op(v, init))
                ticket[0] = 0  # ready for the next call on this scratch

    reduce_kernel.__qualname__ = f"reduce_{dtype.name}_{getattr(fn, '__name__', 'fn')}"
    return jit(max_registers=_MAX_REGISTERS)(reduce_kernel)


def kernel_signature(dtype, layout="C"):
    """The signature reduce's kernel is launched with for 1-D arrays of `dtype` (a string for
    cuda.compile_ptx; `layout` "A" for strided input)."""
    t = str(_numba_type(np.dtype(dtype)))
    arr = f"{t}[::1]" if layout == "C" else f"{t}[:]"
    return f"void({arr}, int64, {t}[::1], uint32[::1], {t}[::1], {t})"


class _Scratch:
    """Device memory one reduction stream reuses: the partials, the ticket (zero between
    calls: the last block resets it), and the result slot."""
    __slots__ = ("partials", "ticket", "result")

    def __init__(self, dtype, nblocks, stream):
        cuda = _cuda()
        self.partials = cuda.device_array(nblocks, dtype=dtype, stream=stream)
        self.ticket = cuda.to_device(np.zeros(1, np.uint32), stream=stream)
        self.result = cuda.device_array(1, dtype=dtype, stream=stream)


def _stream_key(stream):
    if stream is None or (type(stream) is int and stream == 0):
        return 0
    handle = getattr(stream, "handle", None)
    value = getattr(handle, "value", handle)
    return value if isinstance(value, int) else id(stream)


class Reduce:
    """A reduction with a binary function (numba-cuda's cuda.Reduce; cuda.reduce is the same
    class, for use as a decorator).

    `r = cuda.reduce(lambda a, b: a + b)`, then `r(arr, size=None, res=None, init=0, stream=0)`
    reduces the first `size` elements (all by default) of `arr`, a 1-D NumPy array, device
    array or __cuda_array_interface__ object of any numeric dtype, to fn(reduction, init), a
    NumPy scalar of arr's dtype; an empty input gives init. With `res`, a 1-D device array of
    arr's dtype, the result is written into res[0] on the device and None is returned.

    The function is compiled as a CUDA device function (cuda.jit(device=True)) and the kernel
    built on it is compiled once per dtype and cached (shared by every Reduce of the function),
    as in numba-cuda."""

    _cache = {}  # (fn, dtype) -> kernel, shared by the Reduce objects of one function

    def __init__(self, functor):
        if not callable(functor):
            raise TypeError(f"Reduce needs a binary function, not {type(functor).__name__}")
        self._functor = getattr(functor, "py_func", functor)
        self._per_thread = threading.local()  # .scratch: (device, stream, dtype) -> _Scratch
        self._lock = threading.Lock()

    def __repr__(self):
        return f"<cujit.cuda.Reduce of {getattr(self._functor, '__qualname__', self._functor)}>"

    def _compile(self, dtype):
        key = self._functor, dtype
        kernel = self._cache.get(key)
        if kernel is None:
            with self._lock:
                kernel = self._cache.get(key)
                if kernel is None:
                    kernel = self._cache[key] = _reduce_factory(self._functor, dtype)
        return kernel

    def _scratch_table(self):
        """This thread's scratch (freed with the thread): concurrent calls never share it."""
        table = getattr(self._per_thread, "scratch", None)
        if table is None:
            table = self._per_thread.scratch = {}
        return table

    def _scratch_for(self, dtype, stream):
        device = 0 if _cuda().SIMULATOR else _core.cuda_current_device()
        table = self._scratch_table()
        key = (device, _stream_key(stream), dtype)
        s = table.get(key)
        if s is None:
            s = table[key] = _Scratch(dtype, _max_blocks(device), stream)
        return s

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Reduces the first `size` elements of the 1-D array `arr` (host or device); returns
        the result as a NumPy scalar of arr's dtype, or writes it into res[0] (a device array
        of arr's dtype) and returns None. An empty input gives `init`."""
        cuda = _cuda()
        if isinstance(arr, np.ndarray):
            host = True
        elif isinstance(arr, cuda.DeviceNDArray):
            host = False
        elif hasattr(arr, "__cuda_array_interface__") and not cuda.SIMULATOR:
            arr, host = cuda.as_cuda_array(arr), False
        else:
            raise TypeError(f"reduce needs a 1-D NumPy or device array, not "
                            f"{type(arr).__name__}")
        if arr.ndim != 1:
            raise TypeError(f"only support 1D array (got {arr.ndim} dimensions)")
        dtype = arr.dtype
        if dtype.kind not in "biufc":
            raise TypeError(f"reduce does not support arrays of dtype {dtype}")
        n = _count(arr.shape[0], size)
        init = dtype.type(init)
        out = _result_array(res, dtype) if res is not None else None
        if n == 0:
            if out is None:
                return init
            out[:1].copy_to_device(np.array([init], dtype=dtype), stream=stream)
            return None
        kernel = self._compile(dtype)
        if host:
            arr = cuda.to_device(arr[:n], stream=stream)
        try:
            scratch = self._launch(kernel, arr, n, out, init, dtype, stream)
        except cuda.CudaSupportError:
            # the scratch may be from a context cuda.close() closed: once more with new scratch
            self._scratch_table().clear()
            scratch = self._launch(kernel, arr, n, out, init, dtype, stream)
        if out is not None:
            return None
        value = scratch.result.copy_to_host(stream=stream)
        if stream is not None and not (type(stream) is int and stream == 0):
            stream.synchronize()
        return value[0]


    def _launch(self, kernel, arr, n, out, init, dtype, stream):
        scratch = self._scratch_for(dtype, stream)
        nblocks = min((n + _BLOCK - 1) // _BLOCK, scratch.partials.shape[0])
        target = out if out is not None else scratch.result
        kernel[nblocks, _BLOCK, stream](arr, n, scratch.partials, scratch.ticket, target, init)
        return scratch


def _count(length, size):
    """How many elements a call reduces: all, or the first `size` (clamped to the length)."""
    if size is None:
        return length
    if isinstance(size, bool):
        raise TypeError("size must be an int, not bool")
    try:
        size = operator.index(size)
    except TypeError:
        raise TypeError(f"size must be an int, not {type(size).__name__}") from None
    if size < 0:
        raise ValueError(f"size must not be negative, got {size}")
    return min(size, length)


def _result_array(res, dtype):
    """`res` as a device array receiving the result in its first element."""
    cuda = _cuda()
    if not isinstance(res, cuda.DeviceNDArray):
        if not hasattr(res, "__cuda_array_interface__") or cuda.SIMULATOR:
            raise TypeError(f"res must be a device array, not {type(res).__name__}")
        res = cuda.as_cuda_array(res)
    if res.ndim != 1 or res.shape[0] < 1:
        raise ValueError(f"res must be a 1-D device array of at least one element, got shape "
                         f"{tuple(res.shape)}")
    if res.dtype != dtype:
        raise TypeError(f"incompatible dtype: res is {res.dtype}, the array is {dtype}")
    return res


_max_blocks_of = {}


def _max_blocks(device):
    """Blocks of the largest grid: _BLOCKS_PER_SM on every SM of the device."""
    blocks = _max_blocks_of.get(device)
    if blocks is None:
        # CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT; the simulator: one SM, a small grid
        sms = 1 if _cuda().SIMULATOR else _core.cuda_device_attribute(device, 16)
        blocks = _max_blocks_of[device] = max(1, sms * _BLOCKS_PER_SM)
    return blocks
