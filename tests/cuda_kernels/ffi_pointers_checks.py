"""Run under a fake libcuda (fake_libcuda.c + fake_launch.c) by test_ffi_pointers.py: numba-cuda's
"Passing pointers" doc example linked with its .cu (compiled by NVRTC) and launched: what the
driver's linker receives and the kernel's parameters."""
import ctypes
import os
import sys
import tempfile

import numpy as np

from cujit import cuda

fake = ctypes.CDLL(os.environ["CUJIT_CUDA_DRIVER"])
fake.fake_link_names.restype = ctypes.c_char_p
fake.fake_param.restype = ctypes.c_uint64
TMP = tempfile.mkdtemp()
CU_SOURCE = os.environ["FFI_CU_SOURCE"]

sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)")
try:
    import cffi
    ffi = cffi.FFI()
except ImportError:  # as test_ffi_pointers.py: a stand-in of cffi.api.FFI
    class FFI:
        pass

    FFI.__module__ = "cffi.api"
    ffi = FFI()


def check_doc_example_links_and_launches():
    path = os.path.join(TMP, "functions.cu")
    with open(path, "w") as f:
        f.write(CU_SOURCE)

    @cuda.jit(link=[path])
    def reduction_caller(result, array):
        array_ptr = ffi.from_buffer(array)
        result[()] = sum_reduce(array_ptr, len(array))

    result = cuda.device_array((), np.float32)
    array = cuda.to_device(np.arange(1000, dtype=np.float32))
    reduction_caller[1, 1](result, array)
    assert fake.fake_link_inputs() == 2
    assert fake.fake_link_names() == b"cujit;functions.cu;", fake.fake_link_names()
    params = [fake.fake_param(i) for i in range(fake.fake_nparams())]
    assert params[0] == result.device_ctypes_pointer.value, params
    assert array.device_ctypes_pointer.value in params and 1000 in params, params
    sig = reduction_caller.signatures[0]
    assert [str(t) for t in sig] == ["array(float32, 0d, C)", "array(float32, 1d, C)"], sig


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
        sys.stdout.flush()
print("ALL OK")
