"""Run under a fake libcuda (fake_libcuda.c + fake_launch.c): checks what the C launch path
hands to cuLaunchKernel. Invoked by test_launch_fake.py in a subprocess."""
import ctypes
import os
import struct
import sys

import numpy as np

from cujit import cuda, float32, int32

fake = ctypes.CDLL(os.environ["CUJIT_CUDA_DRIVER"])
fake.fake_param.restype = ctypes.c_uint64


def params():
    return [fake.fake_param(i) for i in range(fake.fake_nparams())]


def as_f32(word):
    return struct.unpack("<f", struct.pack("<I", word & 0xffffffff))[0]


@cuda.jit
def scale(a, factor, flag, pair):
    i = cuda.grid(1)
    if i < a.size and flag:
        a[i] = a[i] * factor + pair[0] + pair[1]


def check_device_array_and_scalars():
    d = cuda.to_device(np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1])
    scale[(2, 1), (32, 2, 1), 0, 64](d, 2.5, True, (1, 2.0))
    assert [fake.fake_dim(i) for i in range(7)] == [2, 1, 1, 32, 2, 1, 64]
    p = params()
    # data pointer, shape, stride (bytes), then the scalars flattened
    assert p[0] == d.device_ctypes_pointer.value, (p, d.device_ctypes_pointer)
    assert p[1] == 3 and p[2] == d.strides[0]
    assert struct.unpack("<d", struct.pack("<Q", p[3]))[0] == 2.5
    assert p[4] & 0xff == 1
    assert p[5] == 1 and struct.unpack("<d", struct.pack("<Q", p[6]))[0] == 2.0
    assert len(p) == 7
    first = scale._launcher.loaded
    scale[1, 32](d, 2.5, True, (1, 2.0))  # same types: no new version
    assert scale._launcher.loaded == first
    scale[1, 32](d, 1, True, (1, 2.0))   # int factor: a new version
    assert scale._launcher.loaded == first + 1


def check_numpy_copy_back():
    a = np.ones(8, dtype=np.float32)
    scale[1, 8](a, 1.0, False, (0, 0.0))
    assert fake.fake_launches() > 0
    assert np.all(a == 1)  # copied to the fake device and back unchanged


def check_eager_signature_converts():
    @cuda.jit("void(float32[:], float32)")
    def k(a, x):
        a[0] = x

    d = cuda.device_array(4, dtype=np.float32)
    k[1, 1](d, 3)  # an int passed as float32
    assert as_f32(params()[3]) == 3.0
    try:
        k[1, 1](cuda.device_array(4, dtype=np.int32), 3)
    except TypeError as exc:
        assert "No matching definition" in str(exc)
    else:
        raise AssertionError("expected TypeError")


def check_debug_exception():
    @cuda.jit(debug=True)
    def reciprocal(x):
        i = cuda.grid(1)
        if i > x.shape[0]:
            return
        x[i] = 1 / x[i]

    d = cuda.device_array(10, dtype=np.float64)
    fake.fake_set_exception(5, 10, 0)  # as if thread 10 had indexed out of bounds
    try:
        reciprocal[1, 32](d)
    except IndexError as exc:
        assert str(exc) == "tid=[10, 0, 0] ctaid=[0, 0, 0]: index is out of bounds", str(exc)
    else:
        raise AssertionError("expected IndexError")
    assert fake.fake_exception_id() == 0  # reset for the next launch
    reciprocal[1, 32](d)


def check_invalid_configs():
    d = cuda.device_array(4, dtype=np.float32)
    for cfg in [(0, 1), (1, 0), (1, 2000), (1, (32, 32, 2))]:
        try:
            scale[cfg]
        except ValueError:
            pass
        else:
            raise AssertionError(f"{cfg} accepted")
    try:
        scale[1, 1, 0, 64 * 1024](d, 1.0, True, (1, 2.0))
    except ValueError as exc:
        assert "scale" in str(exc) and "shared memory" in str(exc)
    else:
        raise AssertionError("too much shared memory accepted")
    try:
        scale[1, 1](d, 1.0, True)
    except Exception as exc:
        assert "argument" in str(exc) or "positional" in str(exc), str(exc)
    # the private launch() takes extents up to 2^31: their product must not wrap 32 bits
    try:
        scale._launcher.launch((1, 1, 1), (65536, 65536, 1), None, 0, (d, 1.0, True, (1, 2.0)))
    except ValueError as exc:
        assert "more threads than kernel" in str(exc), str(exc)
    else:
        raise AssertionError("2^32 threads per block accepted")


def check_resources():
    @cuda.jit("void(int32[:])")
    def k(a):
        a[0] = 1

    assert k.get_regs_per_thread(k.signatures[0]) == 17
    assert k.get_max_threads_per_block(k.signatures[0]) == 1024


def check_cai_object():
    d = cuda.device_array(6, dtype=np.int32)

    class Wrapper:
        def __init__(self, arr):
            self.__cuda_array_interface__ = arr.__cuda_array_interface__

    @cuda.jit
    def k(a):
        a[0] = 1

    k[1, 1](Wrapper(d))
    assert params()[0] == d.device_ctypes_pointer.value and params()[1] == 6


def check_one_layout_rule_for_every_array():
    # a __cuda_array_interface__ object is typed as a DeviceNDArray of the same layout would be
    # (abi/layout.c: NumPy's rule, empty arrays contiguous both ways)
    class Wrapper:
        def __init__(self, arr):
            self.__cuda_array_interface__ = arr.__cuda_array_interface__

    @cuda.jit
    def k(a):
        pass

    f = cuda.to_device(np.asfortranarray(np.zeros((3, 4), np.float32)))
    k[1, 1](Wrapper(f))
    k[1, 1](f)
    empty = cuda.device_array((0, 4), dtype=np.float32)
    k[1, 1](Wrapper(empty))
    k[1, 1](empty)
    assert [t[0].layout for t in k.signatures] == ["F", "C"], k.signatures
    k[1, 1](np.zeros((3, 0), np.float32))  # the device copy of an empty host array
    assert params()[1:5] == [3, 0, 4, 4], params()  # default strides count the 0 as 1


def check_failed_load_keeps_its_exception():
    # a cached entry whose PTX lacks its entry: the driver's error reaches the caller (the
    # version being freed must not clear it into "SystemError: ... without an exception")
    import tempfile
    from cujit.cuda import cache, compiler
    from cujit.errors import CudaAPIError
    os.environ["CUJIT_CACHE_DIR"] = tempfile.mkdtemp()

    def body(a):
        a[0] = 7

    disk = cache.KernelCache(body, {"cache": True, "device": False}, compiler._core_options)
    disk.store((int32[:],), (9, 0), {"ptx": "// no entry here", "llvm": "", "annotation": "",
                                     "entry": "missing_entry", "params": [3]})
    k = cuda.jit("void(int32[:])", cache=True)(body)
    assert k.overloads[(int32[:],)].result["cached"]
    try:
        k[1, 1](cuda.device_array(2, dtype=np.int32))
    except CudaAPIError as exc:
        assert "cuModuleGetFunction" in str(exc), exc
    else:
        raise AssertionError("expected CudaAPIError")
    del os.environ["CUJIT_CACHE_DIR"]


def raises(exc_type, words, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        assert words in str(exc), (words, str(exc))
    else:
        raise AssertionError(f"{fn} {args} {kwargs}: no {exc_type.__name__}")


def check_forall_grid_from_occupancy():
    d = cuda.device_array(1000, dtype=np.float32)
    calls = fake.fake_occupancy_calls()
    launches = fake.fake_launches()
    scale.forall(1000)(d, 2.0, True, (1, 2.0))  # tpb 0: the fake's 384 threads per block
    assert [fake.fake_dim(i) for i in range(7)] == [3, 1, 1, 384, 1, 1, 0]
    assert fake.fake_occupancy_calls() == calls + 1 and fake.fake_occupancy_limit() == 1024
    assert params()[0] == d.device_ctypes_pointer.value
    scale.forall(769)(d, 2.0, True, (1, 2.0))   # asked once per version: cached
    assert fake.fake_dim(0) == 3 and fake.fake_occupancy_calls() == calls + 1
    scale.forall(768, sharedmem=256)(d, 2.0, True, (1, 2.0))  # another shared size: asked again
    assert fake.fake_dim(0) == 2 and fake.fake_dim(6) == 256
    assert fake.fake_occupancy_calls() == calls + 2 and fake.fake_occupancy_smem() == 256
    assert fake.fake_launches() == launches + 3


def check_forall_given_block_and_stream():
    d = cuda.device_array(100, dtype=np.float32)
    s = cuda.stream()
    f = scale.forall(100, tpb=32, stream=s)
    assert (f.ntasks, f.thread_per_block, f.stream, f.sharedmem) == (100, 32, s, 0)
    f(d, 1.0, True, (0, 0.0))
    assert [fake.fake_dim(i) for i in range(6)] == [4, 1, 1, 32, 1, 1]  # 100 = 3 * 32 + 4
    scale.forall(1, 1)(d, 1.0, True, (0, 0.0))
    assert [fake.fake_dim(i) for i in range(6)] == [1, 1, 1, 1, 1, 1]


def check_forall_zero_tasks_launches_nothing():
    d = cuda.device_array(4, dtype=np.float32)
    launches = fake.fake_launches()
    assert scale.forall(0)(d, 1.0, True, (0, 0.0)) is None
    assert fake.fake_launches() == launches


def check_forall_argument_errors():
    raises(ValueError, "Can't create ForAll with negative task count: -1", scale.forall, -1)
    raises(ValueError, "negative task count", scale.forall, -(1 << 80))
    raises(TypeError, "ntasks must be an int, not float", scale.forall, 10.0)
    raises(TypeError, "ntasks must be an int, not bool", scale.forall, True)
    raises(ValueError, "tpb must be in 0..1024", scale.forall, 10, 2048)
    raises(ValueError, "tpb must be in 0..1024", scale.forall, 10, -32)
    raises(TypeError, "tpb must be an int", scale.forall, 10, "32")
    raises(ValueError, "sharedmem must be in", scale.forall, 10, 0, 0, -1)
    raises(TypeError, "stream must be", scale.forall, 10, 0, "stream")
    raises(TypeError, "stream must be", scale.forall, 10, 0, 5)
    raises(TypeError, "cannot be launched", cuda.jit(device=True)(lambda x: x).forall, 10)
    d = cuda.device_array(4, dtype=np.float32)
    # the grid must fit: 2^31 blocks of 1 thread do not
    raises(ValueError, "the grid holds at most", scale.forall(1 << 31, 1), d, 1.0, True,
           (0, 0.0))
    raises(TypeError, "no keyword arguments", scale.forall(4), d, 1.0, True, pair=(0, 0.0))
    raises(ValueError, "shared memory", scale.forall(4, 0, 0, 64 * 1024), d, 1.0, True,
           (0, 0.0))


@cuda.jit
def grid_synced(a):
    g = cuda.cg.this_grid()
    a[cuda.grid(1)] = 1
    g.sync()


def check_grid_sync_launches_cooperatively():
    d = cuda.device_array(4096, dtype=np.float32)
    plain, coop = fake.fake_launches(), fake.fake_cooperative_launches()
    grid_synced[16, 256](d)
    assert fake.fake_cooperative_launches() == coop + 1 and fake.fake_launches() == plain + 1
    assert [fake.fake_dim(i) for i in range(7)] == [16, 1, 1, 256, 1, 1, 0]
    scale[1, 32](d, 1.0, True, (0, 0.0))  # no grid sync: a plain launch
    assert fake.fake_cooperative_launches() == coop + 1
    # the fake: 2048 threads an SM (228 KB of shared memory, 4 KB per block kept), 132 SMs
    assert grid_synced.max_cooperative_grid_blocks(256) == 8 * 132
    assert grid_synced.max_cooperative_grid_blocks((16, 16)) == 8 * 132
    ov = grid_synced.overloads[grid_synced.signatures[0]]
    assert ov.max_cooperative_grid_blocks(1024, 120 * 1024) == 1 * 132
    raises(ValueError, "blockdim", grid_synced.max_cooperative_grid_blocks, 0)
    raises(ValueError, "dynsmemsize must not be negative",
           grid_synced.max_cooperative_grid_blocks, 32, -1)
    raises(ValueError, "holds at most 1056 (max_cooperative_grid_blocks)",
           grid_synced[8 * 132 + 1, 256], d)
    assert fake.fake_cooperative_launches() == coop + 1  # refused before the driver
STATE = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)


@cuda.jit
def bump_states(st, k):
    i = cuda.grid(1)
    if i < st.shape[0]:
        st[i].s0 += k


@cuda.jit
def bump_one(r, k):
    r.s0 += k


def check_record_arrays():
    # cuda.random's state dtype: device arrays of records round-trip and pass as one pointer
    host = np.zeros(5, STATE)
    host["s0"] = np.arange(5)
    host["s1"] = 2 ** 63 + np.arange(5, dtype=np.uint64)
    d = cuda.to_device(host)
    assert d.dtype == STATE and d.shape == (5,)
    back = d.copy_to_host()
    assert back.dtype == STATE and back.tobytes() == host.tobytes()
    bump_states[1, 32](d, np.uint64(3))
    p = params()
    assert p[0] == d.device_ctypes_pointer.value and p[1:3] == [5, 16] and p[3] == 3, p
    e = cuda.device_array(4, dtype=STATE)
    assert e.dtype == STATE and e.strides == (16,)
    bump_states[1, 32](host, np.uint64(1))  # a NumPy array of records: copied in and back
    assert host.tobytes() == back.tobytes()  # the fake device runs nothing
    # a single record: a device copy of its 16 bytes, passed as one pointer and copied back
    before = fake.fake_launches()
    bump_one[1, 1](host[2], np.uint64(5))
    p = params()
    assert fake.fake_launches() == before + 1 and len(p) == 2 and p[1] == 5, p
    assert p[0] != 0 and host[2].tobytes() == back[2].tobytes()
    assert len(bump_one.overloads) == 1
    # cuda.to_device(record): a DeviceRecord, passed in place (no copies) as one pointer
    rec = cuda.to_device(host[3])
    assert type(rec).__name__ == "DeviceRecord" and rec.dtype == STATE and rec.shape == ()
    assert rec.copy_to_host().tobytes() == host[3].tobytes()
    assert rec.copy_to_host().shape == ()
    launches = fake.fake_launches()
    bump_one[1, 1](rec, np.uint64(2))
    p = params()
    assert fake.fake_launches() == launches + 1, p
    assert p == [rec.device_ctypes_pointer.value, 2], p
    assert len(bump_one.overloads) == 1  # the same Record type as host[2]'s
    rec.copy_to_device(host[1])
    assert rec.copy_to_host().tobytes() == host[1].tobytes()
    try:
        rec.copy_to_device(np.zeros((), [("s0", "u8")]))
    except TypeError as exc:
        assert "dtype" in str(exc)
    else:
        raise AssertionError("expected TypeError")


@cuda.jit
def apply_to_first(a, f):
    a[0] = f(a[0])


@cuda.jit
def square_first(a):
    a[0] = a[0] * a[0]


def check_jitted_function_as_kernel_argument():
    # a jitted function passed to a kernel is a compile-time value: no parameter of its own
    from cujit import njit

    @njit
    def sq(x):
        return x * x

    d = cuda.to_device(np.zeros(4, np.float32))
    square_first[1, 1](d)
    plain = params()
    launches = fake.fake_launches()
    apply_to_first[1, 1](d, sq)
    assert fake.fake_launches() == launches + 1
    assert params() == plain, (params(), plain)
    assert len(apply_to_first.overloads) == 1


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
print("ALL OK")
