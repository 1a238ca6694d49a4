"""Run under a fake libcuda (fake_libcuda.c + fake_launch.c): cuda.reduce's host side, what its
kernel is launched with, its scratch reuse and its argument errors. Invoked by test_reduce.py in
a subprocess (the fake driver records launches; it runs no kernel)."""
import ctypes
import os

import numpy as np

from cujit import cuda

fake = ctypes.CDLL(os.environ["CUJIT_CUDA_DRIVER"])
fake.fake_param.restype = ctypes.c_uint64

BLOCK, MAX_BLOCKS = 256, 132 * 4  # the fake device has 132 SMs

total = cuda.reduce(lambda a, b: a + b)


def params():
    return [fake.fake_param(i) for i in range(fake.fake_nparams())]


def raises(exc_type, words, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        assert words in str(exc), (words, str(exc))
    else:
        raise AssertionError(f"{args} {kwargs}: no {exc_type.__name__}")


def check_one_launch_filling_the_device():
    d = cuda.device_array(1_000_000, dtype=np.float64)
    launches = fake.fake_launches()
    value = total(d)
    assert fake.fake_launches() == launches + 1  # one kernel, no second pass
    assert [fake.fake_dim(i) for i in range(7)] == [MAX_BLOCKS, 1, 1, BLOCK, 1, 1, 0]
    assert type(value) is np.float64
    p = params()
    # arr (data, shape, stride), n, partials, ticket, out (3 words each), init
    assert len(p) == 14, p
    assert p[0] == d.device_ctypes_pointer.value and p[1] == 1_000_000 and p[3] == 1_000_000
    assert p[4 + 1] == MAX_BLOCKS and p[7 + 1] == 1 and p[10 + 1] == 1
    partials, out = p[4], p[10]
    total(d[:1000], init=5)                                   # 4 blocks; scratch reused
    q = params()
    assert fake.fake_dim(0) == 4 and q[3] == 1000 and q[4] == partials and q[10] == out
    assert q[13] == np.float64(5).view(np.uint64)


def check_size_and_res():
    d = cuda.device_array(1000, dtype=np.int32)
    total(d, size=33)
    assert fake.fake_dim(0) == 1 and params()[3] == 33
    total(d, size=5000)                                        # clamped to the length
    assert params()[3] == 1000
    res = cuda.device_array(3, dtype=np.int32)
    assert total(d, res=res) is None
    assert params()[10] == res.device_ctypes_pointer.value      # written by the kernel itself


def check_empty_input_gives_init():
    d = cuda.device_array(0, dtype=np.int16)
    launches = fake.fake_launches()
    got = total(d, init=7)
    assert got == 7 and type(got) is np.int16
    assert type(total(np.zeros(10, np.float32), size=0)) is np.float32
    res = cuda.to_device(np.zeros(2, np.int16))
    assert total(d, res=res, init=-3) is None
    assert res.copy_to_host()[0] == -3
    assert fake.fake_launches() == launches


def check_host_array_is_copied_once():
    a = np.arange(300, dtype=np.uint8)
    total(a)
    p = params()
    assert p[1] == 300 and p[3] == 300 and fake.fake_dim(0) == 2
    total(a, size=10)
    assert params()[1] == 10  # only the elements reduced are copied


def check_cai_object_and_strided_view():
    d = cuda.device_array(64, dtype=np.float32)

    class Wrapper:
        __cuda_array_interface__ = d.__cuda_array_interface__

    total(Wrapper())
    assert params()[0] == d.device_ctypes_pointer.value
    total(d[::2])
    assert params()[1] == 32 and params()[2] == 8  # the view's own stride


def check_errors():
    d = cuda.device_array(10, dtype=np.float64)
    raises(TypeError, "only support 1D array", total, cuda.device_array((2, 2)))
    raises(TypeError, "1-D NumPy or device array, not list", total, [1, 2, 3])
    raises(TypeError, "does not support arrays of dtype", total, np.array(["a"]))
    raises(TypeError, "size must be an int, not float", total, d, size=2.0)
    raises(ValueError, "size must not be negative", total, d, size=-1)
    raises(TypeError, "res must be a device array, not ndarray", total, d, res=np.zeros(1))
    raises(ValueError, "at least one element", total, d, res=cuda.device_array(0))
    raises(TypeError, "incompatible dtype", total, d, res=cuda.device_array(1, np.float32))
    raises(TypeError, "Reduce needs a binary function", cuda.Reduce, 3)
    raises(TypeError, "stream must be", total, d, stream="s")


def check_streams_get_their_own_scratch():
    d = cuda.device_array(100, dtype=np.float64)
    total(d)
    first = params()[4]
    s = cuda.stream()
    total(d, stream=s)
    assert params()[4] != first
    total(d)
    assert params()[4] == first


def check_threads_get_their_own_scratch():
    import threading
    d = cuda.device_array(100, dtype=np.float64)
    total(d)
    mine = params()[4]
    seen = []
    t = threading.Thread(target=lambda: (total(d), seen.append(params()[4])))
    t.start()
    t.join()
    assert seen and seen[0] != mine  # concurrent calls never share partials or the ticket
    total(d)
    assert params()[4] == mine


def check_after_close_the_scratch_is_made_again():
    total(cuda.device_array(10, dtype=np.float64))
    cuda.close()
    d = cuda.device_array(10, dtype=np.float64)  # a new context
    total(d)
    assert params()[0] == d.device_ctypes_pointer.value
    cuda.close()
    raises(cuda.CudaSupportError, "cuda.close()", total, d)  # the input's context is gone


def check_one_kernel_per_function_and_dtype():
    r2 = cuda.Reduce(total._functor)  # another Reduce of the same function shares the kernels
    assert r2._compile(np.dtype(np.float64)) is total._compile(np.dtype(np.float64))
    assert cuda.reduce is cuda.Reduce


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
print("ALL OK")
