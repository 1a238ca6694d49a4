"""Interop on a real GPU: CuPy and PyTorch through __cuda_array_interface__ and DLPack (zero
copy, writes visible both ways, streams respected), a CuPy-pool EMM plugin, IPC to a spawned
process, and seed 003's stream/event timing pattern."""
import base64
import os
import pickle
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from cujit import cuda

pytestmark = pytest.mark.gpu
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def real_gpu_only():
    if cuda.get_current_device().name == "Fake GPU":
        pytest.skip("needs a real GPU")


def test_cupy_interface_both_ways():
    cupy = pytest.importorskip("cupy")
    c = cupy.arange(12, dtype=cupy.float32).reshape(3, 4)
    d = cuda.as_cuda_array(c)
    assert d.device_pointer_value == c.data.ptr and d.shape == (3, 4)
    np.testing.assert_array_equal(d.copy_to_host(), cupy.asnumpy(c))
    d[0, 0] = 42  # visible to CuPy
    assert float(c[0, 0]) == 42
    c[1] = 7  # visible to cujit
    cupy.cuda.runtime.deviceSynchronize()
    np.testing.assert_array_equal(d[1].copy_to_host(), np.full(4, 7, np.float32))
    back = cupy.asarray(d)
    assert back.data.ptr == d.device_pointer_value
    t = cuda.as_cuda_array(c.T)
    np.testing.assert_array_equal(t.copy_to_host(), cupy.asnumpy(c).T)
    ours = cuda.to_device(np.arange(5.0))
    cp = cupy.asarray(ours)
    assert cp.data.ptr == ours.device_pointer_value
    cp += 1
    np.testing.assert_array_equal(ours.copy_to_host(), np.arange(5.0) + 1)


def test_cupy_stream_semantics():
    cupy = pytest.importorskip("cupy")
    s = cupy.cuda.Stream(non_blocking=True)
    with s:  # CuPy reports its current stream in the interface
        c = cupy.ones(1 << 22, dtype=cupy.float32) * 3
        assert c.__cuda_array_interface__["stream"] == s.ptr
        d = cuda.as_cuda_array(c)  # synchronises on CuPy's stream
        nosync = cuda.as_cuda_array(c, sync=False)
    assert d.stream.handle_value == s.ptr and d.stream.external
    assert float(d[-1]) == 3.0
    assert nosync.device_pointer_value == c.data.ptr
    # outside the block CuPy is on the legacy default stream (1)
    assert cuda.as_cuda_array(c).stream.handle_value == 1
    # our arrays on our streams: CuPy orders its work after ours through the stream key
    ours = cuda.stream()
    a = cuda.to_device(np.full(1 << 20, 5.0, np.float32), stream=ours)
    assert a.__cuda_array_interface__["stream"] == ours.handle.value
    assert float(cupy.asarray(a).sum()) == 5.0 * (1 << 20)


def test_cupy_dlpack_both_ways():
    cupy = pytest.importorskip("cupy")
    c = cupy.arange(10, dtype=cupy.int64)
    d = cuda.from_dlpack(c)
    assert d.device_pointer_value == c.data.ptr
    d[3] = -3
    assert int(c[3]) == -3
    ours = cuda.to_device(np.arange(6, dtype=np.float64).reshape(2, 3))
    back = cupy.from_dlpack(ours)
    assert back.data.ptr == ours.device_pointer_value
    np.testing.assert_array_equal(cupy.asnumpy(back), np.arange(6.0).reshape(2, 3))
    back[0, 0] = 100
    assert ours[0, 0] == 100


def test_torch_interface_and_dlpack():
    torch = pytest.importorskip("torch")
    t = torch.arange(10, dtype=torch.float32, device="cuda")
    d = cuda.as_cuda_array(t)
    assert d.device_pointer_value == t.data_ptr()
    d[1] = 5
    torch.cuda.synchronize()
    assert t[1].item() == 5
    back = torch.as_tensor(d, device="cuda")
    assert back.data_ptr() == d.device_pointer_value
    x = cuda.from_dlpack(t)
    assert x.device_pointer_value == t.data_ptr()
    t2 = torch.from_dlpack(d)
    assert t2.data_ptr() == d.device_pointer_value
    t2 += 1
    torch.cuda.synchronize()
    assert d[1] == 6
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        big = torch.full((1 << 22,), 2.0, device="cuda")
        y = cuda.from_dlpack(big)  # we ask for the legacy stream; torch orders it after s
    assert y[-1] == 2.0


def test_cupy_pool_emm_plugin():
    cupy = pytest.importorskip("cupy")
    pool = cupy.get_default_memory_pool()

    class CupyPoolManager(cuda.GetIpcHandleMixin, cuda.HostOnlyCUDAMemoryManager):
        def initialize(self):
            self.pool = cupy.get_default_memory_pool()

        def memalloc(self, size):
            mem = self.pool.malloc(size)
            return cuda.MemoryPointer(self.context, mem.ptr, size, owner=mem)

        def get_memory_info(self):
            return (self.pool.free_bytes(), self.pool.total_bytes())

        @property
        def interface_version(self):
            return 1

    pool.free_all_blocks()
    before = pool.used_bytes()
    try:
        cuda.set_memory_manager(CupyPoolManager)
        d = cuda.to_device(np.arange(1 << 20, dtype=np.float32))
        assert pool.used_bytes() >= before + (4 << 20)
        np.testing.assert_array_equal(d[:5].copy_to_host(), np.arange(5, dtype=np.float32))
        del d
        import gc
        gc.collect()
        assert pool.used_bytes() == before
    finally:
        cuda.set_memory_manager(cuda.DefaultMemoryManager)


def test_ipc_with_spawned_process():
    a = np.arange(100, dtype=np.float32)
    d = cuda.to_device(a)
    handle = d[10:20].get_ipc_handle()
    assert handle.shape == (10,) and handle.offset == 40
    with pytest.raises(ValueError, match="exported"):
        handle.open()
    payload = base64.b64encode(pickle.dumps(handle)).decode()
    code = textwrap.dedent(f"""
        import base64, pickle, numpy as np
        from cujit import cuda
        h = pickle.loads(base64.b64decode({payload!r}))
        with h as arr:
            print(float(arr.copy_to_host().sum()))
            arr[0] = -1.0
            cuda.synchronize()
    """)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pkg"))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout.strip()) == float(a[10:20].sum())
    assert d[10] == -1.0


def test_seed_003_stream_event_timing():
    stream = cuda.stream()
    n = 16 * 1024 * 1024
    a = cuda.pinned_array(n, dtype=np.int32)
    a[:] = 0
    d_a = cuda.device_array_like(a, stream)
    start = cuda.event()
    stop = cuda.event()
    cuda.synchronize()
    start_time = time.time()
    start.record(stream=stream)
    d_a.copy_to_device(a, stream=stream)
    d_a[:] = 26  # stands in for the seed's kernel (ordered on the array's stream)
    d_a.copy_to_host(a)
    stop.record(stream=stream)
    stop_time = time.time()
    counter = 0
    while not stop.query():
        counter += 1
    gpu_time = start.elapsed_time(stop)
    assert gpu_time > 0 and stop_time >= start_time
    assert (a == 26).all()


def test_pool_manager_allocations_are_stream_ordered():
    try:
        cuda.set_memory_manager(cuda.PoolMemoryManager)
        s = cuda.stream()
        for _ in range(100):
            d = cuda.device_array(1 << 16, dtype=np.uint8, stream=s)
            d[:] = 1
        s.synchronize()
        assert d.gpu_data.kind == "pool"
        assert d[5] == 1
    finally:
        cuda.set_memory_manager(cuda.DefaultMemoryManager)
