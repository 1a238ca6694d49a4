"""Argument validation happens before any driver call, so these hold with or without a GPU."""
import numpy as np
import pytest

from cujit import cuda


@pytest.mark.parametrize("kwargs,exc,words", [
    (dict(shape=-1), ValueError, "negative"),
    (dict(shape=(3, -2)), ValueError, "negative"),
    (dict(shape=(2**40, 2**40)), ValueError, "too big"),
    (dict(shape=(2**62, 4), dtype=np.float64), ValueError, "too big"),
    (dict(shape=(1,) * 33), ValueError, "exceed the limit"),
    (dict(shape="abc"), TypeError, "ints"),
    (dict(shape=(3, 4.0)), TypeError, "ints"),
    (dict(shape=(3, True)), TypeError, "ints"),
    (dict(shape=3, order="X"), ValueError, "order"),
    (dict(shape=3, dtype=object), TypeError, "cannot live on the device"),
    (dict(shape=3, dtype="not a dtype"), TypeError, "data type"),
    (dict(shape=(3, 4), strides=(8,)), ValueError, "strides has 1 entries"),
    (dict(shape=(3, 4), strides=(32, 4)), ValueError, "multiples of the itemsize"),
    (dict(shape=(3, 4), strides=(-32, 8)), ValueError, "non-negative"),
    (dict(shape=(3, 4), strides=(2**62, 8)), ValueError, "too big"),
    (dict(shape=3, stream=5), TypeError, "stream"),
    (dict(shape=3, stream="s"), TypeError, "stream"),
])
def test_device_array_rejects(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        cuda.device_array(**kwargs)


def test_to_device_rejects_object_arrays():
    with pytest.raises(TypeError, match="cannot live on the device"):
        cuda.to_device(np.array([object(), 1]))


def test_stream_and_event_arguments():
    with pytest.raises(TypeError):
        cuda.external_stream("0x1234")
    with pytest.raises(ValueError):
        cuda.external_stream(-1)
    with pytest.raises(TypeError):
        cuda.external_stream(True)


def test_memory_manager_arguments():
    with pytest.raises(TypeError, match="BaseCUDAMemoryManager"):
        cuda.set_memory_manager(object)
    with pytest.raises(RuntimeError, match="requires a context"):
        cuda.HostOnlyCUDAMemoryManager()
    with pytest.raises(ValueError):
        cuda.set_deallocation_limits(count=-1)
    with pytest.raises(ValueError):
        cuda.set_deallocation_limits(ratio=2.0)


def test_memory_pointer_bookkeeping():
    freed = []
    mp = cuda.MemoryPointer(None, 0x1000, 64, finalizer=lambda: freed.append(1))
    assert mp.device_pointer_value == 0x1000 and mp.owner is mp
    sub = mp.view(16, 32)
    assert sub.device_pointer_value == 0x1010 and sub.size == 16 and sub.owner is mp
    with pytest.raises(IndexError):
        mp.view(60, 80)
    mp.free()
    mp.free()  # the finalizer runs once
    assert freed == [1]
    import ctypes
    assert cuda.MemoryPointer(None, ctypes.c_uint64(0x2000), 8).device_pointer_value == 0x2000
    with pytest.raises(TypeError):
        cuda.MemoryPointer(None, "0x10", 8)


def test_pinned_array_rejects_bad_layouts():
    with pytest.raises(ValueError, match="negative"):
        cuda.pinned_array(-1)
    with pytest.raises(ValueError, match="order"):
        cuda.pinned_array(3, order="Z")
    with pytest.raises(TypeError, match="pinned memory"):
        cuda.pinned_array(3, dtype=object)


def test_ipc_handle_pickles():
    import pickle
    h = cuda.IpcHandle(b"x" * 64, 4096, 128, (4, 4), (32, 8), "<f8", 0, source_pid=1)
    h2 = pickle.loads(pickle.dumps(h))
    assert (h2.handle, h2.offset, h2.shape, h2.strides, h2.dtype, h2.source_pid) == \
        (h.handle, 128, (4, 4), (32, 8), np.dtype("<f8"), 1)


def test_ipc_handle_layout_is_checked_before_mapping():
    for shape, strides, offset in [((10,), (8,), 4096 - 40), ((4,), (-8,), 0), ((2,), (3,), 0),
                                   ((-1,), (8,), 0), ((2, 2), (8,), 0)]:
        h = cuda.IpcHandle(b"x" * 64, 4096, offset, shape, strides, "<f8", 0, source_pid=-1)
        with pytest.raises(ValueError, match="IPC handle"):
            h.open()
