"""DeviceNDArray, copies, views, streams, events and memory managers on a device.

Marked gpu: they run on a real GPU, and in CI against tests/cuda/fake_libcuda.c (see
test_fake_driver.py), a host-memory stand-in for libcuda that exercises the same C paths."""
import gc
import threading

import numpy as np
import pytest

from cujit import cuda

pytestmark = pytest.mark.gpu


def real_gpu():
    return cuda.get_current_device().name != "Fake GPU"


# ---- devices and contexts ----

def test_devices():
    dev = cuda.get_current_device()
    assert isinstance(dev.name, str) and dev.name
    cc = dev.compute_capability
    assert isinstance(cc, tuple) and len(cc) == 2 and cc[0] >= 5
    assert dev.MULTIPROCESSOR_COUNT > 0
    assert dev.MAX_THREADS_PER_BLOCK >= 512
    assert dev.WARP_SIZE == 32
    assert dev.uuid.startswith("GPU-")
    with pytest.raises(AttributeError):
        dev.NOT_AN_ATTRIBUTE
    assert len(cuda.gpus) == len(cuda.list_devices()) >= 1
    with cuda.gpus[0] as g:
        assert g.id == 0 and cuda.get_current_device().id == 0
    with pytest.raises(IndexError):
        cuda.gpus[len(cuda.gpus)]
    with pytest.raises(cuda.CudaSupportError, match="no CUDA device"):
        cuda.select_device(999)
    assert cuda.select_device(0).id == 0
    free, total = cuda.current_context().get_memory_info()
    assert 0 < free <= total
    assert cuda.detect() is True
    cuda.synchronize()


def test_cuda_api_error_carries_code_and_name():
    from cujit import _core
    with pytest.raises(cuda.CudaAPIError) as info:
        _core.cuda_raise_error(2)
    e = info.value
    assert e.code == 2 and e.name == "CUDA_ERROR_OUT_OF_MEMORY"
    assert "out of memory" in str(e) and "[2]" in str(e)


# ---- arrays and copies ----

def test_round_trip_and_attributes():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    d = cuda.to_device(a)
    assert isinstance(d, cuda.DeviceNDArray)
    assert d.shape == (4, 6) and d.strides == (24, 4) and d.dtype == np.float32
    assert d.size == 24 and d.ndim == 2 and d.nbytes == 96 and d.itemsize == 4 and len(d) == 4
    assert d.is_c_contiguous() and not d.is_f_contiguous()
    np.testing.assert_array_equal(d.copy_to_host(), a)
    np.testing.assert_array_equal(np.asarray(d), a)
    assert np.asarray(d, dtype=np.float64).dtype == np.float64
    out = np.empty_like(a)
    assert d.copy_to_host(out) is out
    np.testing.assert_array_equal(out, a)
    assert "shape=(4, 6)" in repr(d) and "float32" in repr(d)


def test_fortran_and_noncontiguous_host():
    f = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    d = cuda.to_device(f)
    assert d.is_f_contiguous() and d.strides == f.strides
    np.testing.assert_array_equal(d.copy_to_host(), f)
    s = np.arange(20.0)[::2]
    np.testing.assert_array_equal(cuda.to_device(s).copy_to_host(), s)


def test_views_and_indexing():
    a = np.arange(60, dtype=np.int64).reshape(3, 4, 5)
    d = cuda.to_device(a)
    for key in [1, (1, 2), (slice(None), 1), (Ellipsis, 2), (slice(None, None, -1),),
                (slice(1, 3), slice(None, None, 2)), (None, 0), (0, None, slice(1, 4)),
                (-1, -2), (slice(5, 1),)]:
        np.testing.assert_array_equal(d[key].copy_to_host(), a[key], err_msg=str(key))
    assert d[1, 2, 3] == a[1, 2, 3]
    assert isinstance(d[1, 2, 3], np.integer)
    one = cuda.to_device(np.arange(5.0))
    assert one[3] == 3.0 and one[-1] == 4.0
    with pytest.raises(IndexError, match="out of bounds"):
        one[5]
    with pytest.raises(IndexError, match="too many indices"):
        one[1, 2]
    with pytest.raises(IndexError, match="basic indexing"):
        one[[0, 1]]
    with pytest.raises(IndexError, match="basic indexing"):
        one[True]
    np.testing.assert_array_equal(d.T.copy_to_host(), a.T)
    np.testing.assert_array_equal(d.transpose(1, 0, 2).copy_to_host(), a.transpose(1, 0, 2))
    with pytest.raises(ValueError):
        d.transpose(0, 0, 1)


def test_reshape_ravel_view():
    a = np.arange(24, dtype=np.float32)
    d = cuda.to_device(a)
    np.testing.assert_array_equal(d.reshape(4, 6).copy_to_host(), a.reshape(4, 6))
    np.testing.assert_array_equal(d.reshape((2, -1)).copy_to_host(), a.reshape(2, -1))
    np.testing.assert_array_equal(d.reshape(4, 6, order="F").copy_to_host(),
                                  a.reshape(4, 6, order="F"))
    with pytest.raises(ValueError, match="cannot reshape"):
        d.reshape(5, 5)
    with pytest.raises(ValueError, match="one unknown"):
        d.reshape(-1, -1)
    with pytest.raises(ValueError, match="order"):
        d.reshape(24, order="K")
    m = d.reshape(4, 6)
    with pytest.raises(NotImplementedError, match="copy"):
        m[:, ::2].reshape(12)
    with pytest.raises(NotImplementedError, match="copy"):
        m.T.ravel()
    np.testing.assert_array_equal(m.ravel().copy_to_host(), a)
    v = d.view(np.int32)
    np.testing.assert_array_equal(v.copy_to_host(), a.view(np.int32))
    np.testing.assert_array_equal(d.view(np.uint8).copy_to_host(), a.view(np.uint8))
    np.testing.assert_array_equal(d.view(np.float64).copy_to_host(), a.view(np.float64))
    with pytest.raises(ValueError, match="itemsize"):
        m[:, ::2].view(np.float64)
    with pytest.raises(TypeError):
        d.view(object)


def test_flags_and_squeeze():
    """numba-cuda's: .flags a new dict each time; squeeze(axis=None, stream=0) a view."""
    a = np.arange(6, dtype=np.float64).reshape(1, 3, 1, 2)
    d = cuda.to_device(a)
    assert d.flags == {"C_CONTIGUOUS": True, "F_CONTIGUOUS": False}
    assert type(d.flags) is dict and d.flags is not d.flags
    assert d.T.flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": True}
    assert d[:, :, :, ::2].flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": False}
    f = cuda.device_array((3, 4), dtype=np.int32, order="F")
    assert f.flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": True} and f.strides == (4, 12)
    for axis in [None, 0, 2, -2, (0, 2)]:
        s = d.squeeze() if axis is None else d.squeeze(axis=axis)
        assert s.shape == a.squeeze(axis=axis).shape, axis
        np.testing.assert_array_equal(s.copy_to_host(), a.squeeze(axis=axis))
        assert s.device_pointer_value == d.device_pointer_value
    with pytest.raises(ValueError, match="size not equal to one"):
        d.squeeze(axis=1)
    with pytest.raises(ValueError, match="out of bounds"):
        d.squeeze(axis=4)
    with pytest.raises(TypeError, match="axis must be"):
        d.squeeze(axis="0")
    with pytest.raises(TypeError, match="axis must be"):
        d.squeeze(axis=(0, 1.5))
    with pytest.raises(OverflowError):
        d.squeeze(axis=2 ** 70)
    stream = cuda.stream()
    s = d.squeeze(stream=stream)
    assert s.stream is stream and s.shape == (3, 2)
    assert s.squeeze().stream is stream and s.squeeze(stream=0).stream is stream
    assert d.squeeze(0).squeeze().shape == (3, 2)
    assert np.asarray(d).shape == a.shape and np.asarray(d, dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError, match="`copy=False` is not supported. A copy is always"):
        d.__array__(copy=False)


def test_setitem():
    a = np.zeros((4, 5), dtype=np.float64)
    d = cuda.to_device(a)
    d[1] = 7.0
    a[1] = 7.0
    d[:, 2] = np.arange(4)
    a[:, 2] = np.arange(4)
    d[3, 4] = -1
    a[3, 4] = -1
    d[::2, ::2] = 3
    a[::2, ::2] = 3
    d[0, :] = cuda.to_device(np.arange(5.0))
    a[0, :] = np.arange(5.0)
    d[2] = cuda.to_device(np.float64(9.0).reshape(()))  # broadcast from a device 0-d array
    a[2] = 9.0
    np.testing.assert_array_equal(d.copy_to_host(), a)
    i8 = cuda.device_array(7, dtype=np.int8)
    i8[:] = 5
    np.testing.assert_array_equal(i8.copy_to_host(), np.full(7, 5, np.int8))
    h = cuda.device_array(3, dtype=np.float16)
    h[:] = 1.5
    np.testing.assert_array_equal(h.copy_to_host(), np.full(3, 1.5, np.float16))
    c = cuda.device_array(3, dtype=np.complex128)
    c[:] = 1 + 2j
    np.testing.assert_array_equal(c.copy_to_host(), np.full(3, 1 + 2j))
    with pytest.raises(ValueError):
        d[0] = np.arange(3)  # cannot broadcast
    with pytest.raises(TypeError):
        del d[0]


def test_copy_errors():
    d = cuda.device_array((3, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="shape"):
        d.copy_to_host(np.empty((4, 3), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        d.copy_to_host(np.empty((3, 4), np.float64))
    with pytest.raises(TypeError, match="NumPy array"):
        d.copy_to_host([1, 2])
    ro = np.empty((3, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        d.copy_to_host(ro)
    with pytest.raises(ValueError, match="shape"):
        d.copy_to_device(np.zeros(12, np.float32))
    with pytest.raises(TypeError, match="dtype"):
        d.copy_to_device(np.zeros((3, 4), np.int32))
    with pytest.raises(ValueError, match="shape"):
        d.copy_to_device(cuda.device_array(12, np.float32))
    with pytest.raises(TypeError):
        cuda.to_device(np.array([object()]))


def test_device_to_device_and_strided_copies():
    a = np.arange(30.0).reshape(5, 6)
    src = cuda.to_device(a)
    dst = cuda.device_array_like(a)
    dst.copy_to_device(src)
    np.testing.assert_array_equal(dst.copy_to_host(), a)
    # strided device target and source
    big = cuda.to_device(np.zeros((5, 12)))
    big[:, ::2].copy_to_device(a)
    expect = np.zeros((5, 12))
    expect[:, ::2] = a
    np.testing.assert_array_equal(big.copy_to_host(), expect)
    h = big[:, ::2].copy_to_host()
    np.testing.assert_array_equal(h, a)
    out = np.empty((5, 6))
    big[:, ::2].copy_to_host(out)
    np.testing.assert_array_equal(out, a)
    f = cuda.device_array_like(np.asfortranarray(a))
    assert f.is_f_contiguous()
    f.copy_to_device(np.asfortranarray(a))
    np.testing.assert_array_equal(f.copy_to_host(), a)
    t = cuda.to_device(a).T
    np.testing.assert_array_equal(t.copy_to_host(), a.T)


def test_device_array_arguments():
    d = cuda.device_array(shape=(3,), dtype=np.float32)
    assert d.shape == (3,) and d.dtype == np.float32
    assert cuda.device_array(5).dtype == np.float64
    f = cuda.device_array((3, 4), order="F")
    assert f.strides == (8, 24)
    s = cuda.device_array((3, 4), dtype=np.int32, strides=(32, 8))
    assert s.strides == (32, 8) and not s.is_c_contiguous()
    e = cuda.device_array((0, 3))
    assert e.size == 0 and e.copy_to_host().shape == (0, 3)
    with pytest.raises(ValueError, match="negative"):
        cuda.device_array(-1)
    with pytest.raises(ValueError, match="order"):
        cuda.device_array(3, order="X")
    with pytest.raises(ValueError, match="strides"):
        cuda.device_array((3, 4), strides=(8,))
    with pytest.raises(ValueError, match="itemsize"):
        cuda.device_array((3, 4), dtype=np.float64, strides=(32, 4))
    with pytest.raises(ValueError, match="too big"):
        cuda.device_array((2**40, 2**40))
    with pytest.raises(TypeError):
        cuda.device_array((3, "4"))
    with pytest.raises(TypeError):
        cuda.device_array(3, dtype="not a dtype")


def test_out_of_memory_is_cuda_api_error():
    total = cuda.current_context().get_memory_info().total
    with pytest.raises(cuda.CudaAPIError) as info:
        cuda.device_array(total * 4, dtype=np.uint8)
    assert info.value.code == 2 and info.value.name == "CUDA_ERROR_OUT_OF_MEMORY"


def test_deferred_deallocation_and_flush_on_oom():
    from cujit import _core
    ctx = cuda.current_context()
    ctx.deallocations.clear()
    cuda.set_deallocation_limits(count=10, ratio=1.0)
    try:
        for _ in range(5):
            cuda.device_array(1000)
        gc.collect()
        assert len(ctx.deallocations) == 5  # queued, not freed
        for _ in range(6):
            cuda.device_array(1000)
        gc.collect()
        assert len(ctx.deallocations) <= 10  # the queue flushed when it passed 10
        # an allocation that fits only after the pending frees are flushed
        free = ctx.get_memory_info().free
        size = int(free * 0.6)
        x = cuda.device_array(size, dtype=np.uint8)
        del x
        assert len(ctx.deallocations) >= 1
        y = cuda.device_array(size, dtype=np.uint8)  # OOM -> flush -> retry
        del y
        with cuda.defer_cleanup():
            for _ in range(20):
                cuda.device_array(1000)
            assert len(ctx.deallocations) >= 20  # nothing freed inside defer_cleanup
        ctx.deallocations.clear()
        assert len(ctx.deallocations) == 0
        assert _core.deallocations_pending() == (0, 0)
    finally:
        cuda.set_deallocation_limits(count=10, ratio=0.2)


def test_pool_manager_and_plugins():
    a = np.arange(100.0)
    try:
        cuda.set_memory_manager(cuda.PoolMemoryManager)
        s = cuda.stream()
        d = cuda.to_device(a, stream=s)
        s.synchronize()
        np.testing.assert_array_equal(d.copy_to_host(), a)
        assert d.gpu_data.kind == "pool"
        del d
        log = []

        class Plugin(cuda.GetIpcHandleMixin, cuda.HostOnlyCUDAMemoryManager):
            def initialize(self):
                log.append("init")

            def memalloc(self, size):
                mem = cuda.DefaultMemoryManager(context=self.context).memalloc(size)
                log.append(size)
                return cuda.MemoryPointer(self.context, mem.device_pointer_value, size,
                                          owner=mem, finalizer=lambda: log.append("free"))

            def get_memory_info(self):
                raise NotImplementedError

            @property
            def interface_version(self):
                return 1

        cuda.set_memory_manager(Plugin)
        assert cuda.current_context().get_memory_info().total > 0  # plugin says: ask the driver
        d = cuda.to_device(a)
        assert log[:2] == ["init", 800]
        assert isinstance(d.gpu_data, cuda.MemoryPointer)
        np.testing.assert_array_equal(d.copy_to_host(), a)
        del d
        gc.collect()
        assert log[-1] == "free"

        class BadVersion(Plugin):
            @property
            def interface_version(self):
                return 2
        with pytest.raises(RuntimeError, match="version"):
            cuda.set_memory_manager(BadVersion)
        with pytest.raises(TypeError):
            cuda.set_memory_manager(object)

        class Broken(Plugin):
            def memalloc(self, size):
                return 42
        cuda.set_memory_manager(Broken)
        with pytest.raises(TypeError, match="MemoryPointer"):
            cuda.device_array(4)
    finally:
        cuda.set_memory_manager(cuda.DefaultMemoryManager)
    assert cuda.device_array(3).gpu_data.kind == "device"


# ---- streams and events ----

def test_streams_and_events():
    s = cuda.stream()
    assert s.handle.value and int(s) == s.handle.value
    assert cuda.default_stream().handle_value == 0
    assert cuda.legacy_default_stream().handle_value == 1
    assert cuda.per_thread_default_stream().handle_value == 2
    ext = cuda.external_stream(s.handle.value)
    assert ext.external and ext.handle_value == s.handle.value
    a = cuda.pinned_array(1 << 16, dtype=np.int32)
    a[:] = np.arange(a.size)
    d = cuda.device_array_like(a, stream=s)
    start, stop = cuda.event(), cuda.event()
    start.record(stream=s)
    d.copy_to_device(a, stream=s)
    b = np.empty_like(a)
    d.copy_to_host(b, stream=s)
    stop.record(stream=s)
    while not stop.query():
        pass
    stop.synchronize()
    assert s.query()
    np.testing.assert_array_equal(b, a)
    assert stop.elapsed_time(start) is not None
    assert cuda.event_elapsed_time(start, stop) >= 0
    with s.auto_synchronize():
        d.copy_to_host(b, stream=s)
    stop.wait(s)
    calls = []
    done = threading.Event()

    def callback(stream, status, arg):
        calls.append((stream, status, arg))
        done.set()
    s.add_callback(callback, "x")
    s.synchronize()
    assert done.wait(10) and calls == [(s, 0, "x")]
    with pytest.raises(ValueError, match="timing"):
        cuda.event(timing=False).elapsed_time(stop)
    with pytest.raises(TypeError):
        d.copy_to_host(stream=5)
    with pytest.raises(TypeError):
        cuda.external_stream("x")


# ---- interface, DLPack, pinned/mapped ----

def test_cuda_array_interface_export_and_import():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    d = cuda.to_device(a)
    iface = d.__cuda_array_interface__
    assert iface["version"] == 3 and iface["shape"] == (3, 4) and iface["typestr"] == "<i4"
    assert iface["strides"] is None and iface["stream"] is None
    assert d.T.__cuda_array_interface__["strides"] == (4, 16)
    s = cuda.stream()
    assert cuda.to_device(a, stream=s).__cuda_array_interface__["stream"] == s.handle.value
    assert cuda.is_cuda_array(d) and not cuda.is_cuda_array(a)
    v = cuda.as_cuda_array(d.T)
    np.testing.assert_array_equal(v.copy_to_host(), a.T)
    with pytest.raises(TypeError, match="cuda array interface"):
        cuda.as_cuda_array(a)

    class Foreign:
        def __init__(self, iface):
            self.__cuda_array_interface__ = iface
    owner = cuda.to_device(np.arange(6.0))
    f = Foreign({"shape": (2, 3), "typestr": "<f8", "version": 3, "strides": None,
                 "data": (owner.device_pointer_value, False), "stream": 1, "keep": owner})
    v = cuda.as_cuda_array(f)
    assert v.gpu_data is f
    np.testing.assert_array_equal(v.copy_to_host(), np.arange(6.0).reshape(2, 3))
    v[0, 0] = 42  # writes are visible to the producer
    assert owner[0] == 42
    ro = Foreign({"shape": (6,), "typestr": "<f8", "version": 2,
                  "data": (owner.device_pointer_value, True)})
    with pytest.raises(ValueError, match="read-only"):
        cuda.as_cuda_array(ro)[0] = 1
    assert cuda.to_device(f) is not None  # to_device of a CUDA array is a view


def test_dlpack_round_trip():
    a = np.arange(10, dtype=np.float32)
    d = cuda.to_device(a)
    assert d.__dlpack_device__() == (2, d.device_id)
    x = cuda.from_dlpack(d)
    assert x.device_pointer_value == d.device_pointer_value
    np.testing.assert_array_equal(x.copy_to_host(), a)
    t = cuda.from_dlpack(d.reshape(2, 5).T)
    np.testing.assert_array_equal(t.copy_to_host(), a.reshape(2, 5).T)
    cap = d.__dlpack__()
    y = cuda.from_dlpack(cap)
    np.testing.assert_array_equal(y.copy_to_host(), a)
    with pytest.raises(TypeError, match="unconsumed"):
        cuda.from_dlpack(cap)  # a capsule is consumed once
    d.__dlpack__(max_version=(1, 0))  # dropped unconsumed: its destructor frees it
    with pytest.raises(BufferError):
        d.__dlpack__(copy=True)
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(1, 0))
    with pytest.raises(ValueError):
        d.__dlpack__(stream=0)
    with pytest.raises(BufferError):
        cuda.from_dlpack(np.arange(3))  # host data is refused


def test_pinned_and_mapped():
    p = cuda.pinned_array((3, 4), dtype=np.float32)
    assert isinstance(p, np.ndarray) and p.shape == (3, 4)
    p[:] = 1
    q = cuda.pinned_array_like(np.asfortranarray(np.zeros((2, 3))))
    assert q.flags.f_contiguous
    m = cuda.mapped_array(8, dtype=np.int64)
    m[:] = np.arange(8)
    dm = cuda.as_cuda_array(m)
    np.testing.assert_array_equal(dm.copy_to_host(), np.arange(8))
    np.testing.assert_array_equal(cuda.as_cuda_array(m[2:6]).copy_to_host(), np.arange(2, 6))
    ml = cuda.mapped_array_like(np.zeros((2, 2)))
    assert ml.shape == (2, 2)
    h = np.arange(16.0)
    with cuda.pinned(h):
        np.testing.assert_array_equal(cuda.to_device(h).copy_to_host(), h)
    with cuda.mapped(h) as dh:
        np.testing.assert_array_equal(dh.copy_to_host(), h)
    with pytest.raises(ValueError):
        with cuda.pinned(np.arange(10.0)[::2]):
            pass
    with pytest.raises(ValueError, match="negative"):
        cuda.pinned_array(-1)


def test_managed_array():
    """numba-cuda's cuda.managed_array: a host ndarray in cuMemAllocManaged memory, the same
    bytes on the device (zero copy)."""
    m = cuda.managed_array((3, 4), dtype=np.int32)
    assert isinstance(m, cuda.ManagedNDArray) and isinstance(m, np.ndarray)
    assert m.shape == (3, 4) and m.dtype == np.int32 and m.flags.c_contiguous
    m[:] = np.arange(12).reshape(3, 4)
    cai = m.__cuda_array_interface__
    assert cai["data"][0] == m.__array_interface__["data"][0]  # one address for both
    np.testing.assert_array_equal(cuda.as_cuda_array(m).copy_to_host(), m)
    f = cuda.managed_array((2, 5), dtype=np.float64, order="F", attach_global=False)
    assert f.flags.f_contiguous and f.strides == (8, 16)
    np.testing.assert_array_equal(cuda.as_cuda_array(m[1:]).copy_to_host(), m[1:])
    assert cuda.managed_array(0).size == 0
    with pytest.raises(ValueError, match="negative"):
        cuda.managed_array(-1)
    d = cuda.to_device(np.arange(12, dtype=np.int32).reshape(3, 4) * 2)
    cuda.as_cuda_array(m).copy_to_device(d)
    cuda.synchronize()
    np.testing.assert_array_equal(m, np.arange(12).reshape(3, 4) * 2)


def test_profiler_switches():
    cuda.profile_start()
    cuda.profile_stop()
    with cuda.profiling():
        cuda.to_device(np.arange(4)).copy_to_host()


# ---- threads, close ----

def test_eight_threads_allocate_and_copy():
    errors = []

    def work(seed):
        try:
            rng = np.random.default_rng(seed)
            for _ in range(20):
                a = rng.random(rng.integers(1, 5000))
                d = cuda.to_device(a)
                e = cuda.device_array_like(d)
                e.copy_to_device(d)
                np.testing.assert_array_equal(e.copy_to_host(), a)
        except Exception as exc:  # reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_use_after_close():
    d = cuda.to_device(np.arange(4.0))
    s = cuda.stream()
    e = cuda.event()
    cuda.close()
    with pytest.raises(cuda.CudaSupportError, match="close"):
        d.copy_to_host()
    with pytest.raises(cuda.CudaSupportError, match="close"):
        s.synchronize()
    with pytest.raises(cuda.CudaSupportError, match="close"):
        e.record()
    with pytest.raises(cuda.CudaSupportError, match="close"):
        d.__cuda_array_interface__
    del d, s, e
    gc.collect()
    # new work opens the context again
    np.testing.assert_array_equal(cuda.to_device(np.arange(3)).copy_to_host(), np.arange(3))


def test_constructor_and_module_path():
    from cujit.cuda.cudadrv.devicearray import DeviceNDArray
    assert DeviceNDArray is cuda.DeviceNDArray
    d = DeviceNDArray((2, 3), (24, 8), np.float64)
    d[:] = 1.5
    np.testing.assert_array_equal(d.copy_to_host(), np.full((2, 3), 1.5))
    v = DeviceNDArray((3,), (16,), np.float64, gpu_data=d.gpu_data)
    assert v.gpu_data is d.gpu_data
    np.testing.assert_array_equal(v.copy_to_host(), np.full(3, 1.5))
    with pytest.raises(ValueError, match="strides"):
        DeviceNDArray((2, 3), (24,), np.float64)
    with pytest.raises(TypeError):
        DeviceNDArray((2,), (8,), np.float64, gpu_data=object())
    assert d.ravel(stream=0).shape == (6,)
