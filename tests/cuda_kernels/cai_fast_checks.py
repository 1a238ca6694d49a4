"""Run under the fake libcuda: CuPy arrays and PyTorch tensors are read from their own
attributes (csrc/cuda/cai_fast.c), never through __cuda_array_interface__, and give the kernel
the same parameters as the dict would. Stand-in `cupy` and `torch` modules are installed in
sys.modules first (the reader recognises their classes only once imported). Invoked by
test_cai_fast.py in a subprocess."""
import ctypes
import os
import sys
import types

import numpy as np

fake = ctypes.CDLL(os.environ["CUJIT_CUDA_DRIVER"])
fake.fake_param.restype = ctypes.c_uint64


class Pointer:
    def __init__(self, ptr):
        self.ptr = ptr


class CupyArray:
    """Like cupy.ndarray: dtype, shape, strides in bytes, data.ptr; its interface must not be
    read (the point of the fast path), so asking for it fails the check."""

    def __init__(self, ptr, shape, strides, dtype):
        self.data, self.shape, self.strides, self.dtype = Pointer(ptr), shape, strides, dtype

    @property
    def __cuda_array_interface__(self):
        raise AssertionError("the dict was built")


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"torch.{self.name}"


class Tensor:
    """Like torch.Tensor: is_cuda, requires_grad, is_sparse, dtype, shape, stride() in elements,
    data_ptr(). A tensor that needs the dict (grad, CPU) gets one that says why."""

    def __init__(self, ptr, shape, stride, dtype, is_cuda=True, requires_grad=False):
        self.ptr, self.shape, self._stride, self.dtype = ptr, shape, stride, dtype
        self.is_cuda, self.requires_grad, self.is_sparse = is_cuda, requires_grad, False

    def stride(self):
        return self._stride

    def data_ptr(self):
        return self.ptr

    @property
    def __cuda_array_interface__(self):
        if self.requires_grad:
            raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
        raise AttributeError("not on the GPU")


sys.modules["cupy"] = types.SimpleNamespace(ndarray=CupyArray)
sys.modules["torch"] = types.SimpleNamespace(Tensor=Tensor)

from cujit import cuda  # noqa: E402


@cuda.jit
def touch(a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i, 0] = b[i]


def params():
    return [fake.fake_param(i) for i in range(fake.fake_nparams())]


def raises(exc_type, words, fn, *args):
    try:
        fn(*args)
    except exc_type as exc:
        assert words in str(exc), (words, str(exc))
    else:
        raise AssertionError(f"no {exc_type.__name__}")


def check_cupy_and_torch_give_the_dicts_parameters():
    a = CupyArray(0x10000, (4, 3), (24, 8), np.dtype("float64"))
    b = Tensor(0x20000, (4,), (2,), FakeDtype("float32"))
    touch[1, 32](a, b)
    assert params() == [0x10000, 4, 3, 24, 8, 0x20000, 4, 8], params()
    # read afresh each launch: a "resized" array is seen as it is now
    a.shape, a.strides, a.data = (2, 3), (8, 16), Pointer(0x30000)
    touch[1, 32](a, b)
    assert params()[:5] == [0x30000, 2, 3, 8, 16]
    # (2, 3) with strides (8, 16) was F-contiguous; every other row is neither: a new version
    loaded = touch._launcher.loaded
    touch[1, 32](CupyArray(0x10000, (4, 3), (48, 8), np.dtype("float64")), b)
    assert touch._launcher.loaded == loaded + 1 and params()[3:5] == [48, 8]


class ContiguousCupyArray(CupyArray):
    """Says it is C-contiguous (CuPy's _c_contiguous): its strides are then C order and are not
    read (building that tuple was a fifth of the read), so reading them fails the check."""
    _c_contiguous = True

    @property
    def strides(self):
        raise AssertionError("the strides were read")

    @strides.setter
    def strides(self, value):
        pass


def check_a_c_contiguous_cupy_array_skips_its_strides():
    b = Tensor(0x20000, (4,), (1,), FakeDtype("float32"))
    touch[1, 32](ContiguousCupyArray(0x10000, (4, 3), None, np.dtype("float64")), b)
    assert params()[:5] == [0x10000, 4, 3, 24, 8], params()
    touch[1, 32](ContiguousCupyArray(0x10000, (0, 3), None, np.dtype("float64")), b)
    assert params()[1:5] == [0, 3, 24, 8], params()


def check_bad_attributes_are_errors_not_crashes():
    b = Tensor(0x20000, (4,), (1,), FakeDtype("float32"))
    raises(ValueError, "negative extent", touch[1, 32],
           CupyArray(0x10000, (-1, 3), (24, 8), np.dtype("float64")), b)
    raises(ValueError, "misaligned", touch[1, 32],
           CupyArray(0x10001, (4, 3), (24, 8), np.dtype("float64")), b)
    raises(ValueError, "not a device address", touch[1, 32],
           CupyArray("nope", (4, 3), (24, 8), np.dtype("float64")), b)
    raises(ValueError, "'strides' has 1 entries for 2 dimensions", touch[1, 32],
           CupyArray(0x10000, (4, 3), (8,), np.dtype("float64")), b)
    raises(ValueError, "null data pointer", touch[1, 32],
           CupyArray(0, (4, 3), (24, 8), np.dtype("float64")), b)


def check_tensors_the_reader_leaves_to_the_dict():
    a = CupyArray(0x10000, (4, 3), (24, 8), np.dtype("float64"))
    raises(RuntimeError, "require gradient", touch[1, 32], a,
           Tensor(0x20000, (4,), (1,), FakeDtype("float32"), requires_grad=True))
    raises(TypeError, "Tensor", touch[1, 32], a,
           Tensor(0x20000, (4,), (1,), FakeDtype("float32"), is_cuda=False))
    raises(TypeError, "Tensor", touch[1, 32], a,
           Tensor(0x20000, (4,), (1,), FakeDtype("bfloat16")))
    # an empty tensor passes no pointer, as its interface
    touch[1, 32](CupyArray(0x10000, (0, 3), (24, 8), np.dtype("float64")),
                 Tensor(0x20000, (0,), (1,), FakeDtype("float32")))
    assert params()[5] == 0


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
print("ALL OK")
