"""Run under a fake libcuda (fake_libcuda.c + fake_launch.c) by test_compile_options.py: what
link=[...] hands to the driver's linker, launch_bounds against the driver's limit, and the
extensions' argument preprocessing. Files to link are made in a temporary directory."""
import ctypes
import os
import sys
import tempfile

import numpy as np

from cujit import cuda
from cujit.cuda.linking import LinkerError

fake = ctypes.CDLL(os.environ["CUJIT_CUDA_DRIVER"])
fake.fake_link_names.restype = ctypes.c_char_p
TMP = tempfile.mkdtemp()

# numba's ABI: the result through the first pointer, a status returned
CU_SOURCE = 'extern "C" __device__ int twice(float *ret, float x) { *ret = 2 * x; return 0; }\n'
twice = cuda.declare_device("twice", "float32(float32)")


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def caller(x):
    x[0] = twice(x[0])


def check_link_cu_compiled_by_nvrtc():
    k = cuda.jit(link=[write("twice.cu", CU_SOURCE)])(caller)
    before = fake.fake_link_destroys()
    k[1, 1](cuda.device_array(1, dtype=np.float32))
    assert fake.fake_link_inputs() == 2
    assert fake.fake_link_names() == b"cujit;twice.cu;", fake.fake_link_names()
    assert fake.fake_link_destroys() == before + 1
    k[1, 1](cuda.device_array(1, dtype=np.float32))  # loaded once: no second link
    assert fake.fake_link_destroys() == before + 1


def check_link_ptx():
    from cujit import _core
    ptx = _core.nvrtc_compile(CU_SOURCE.encode(), "twice.cu", (9, 0))
    k = cuda.jit("void(float32[:])", link=[write("twice.ptx", ptx)])(caller)
    k[1, 1](cuda.device_array(1, dtype=np.float32))
    assert fake.fake_link_names() == b"cujit;twice.ptx;", fake.fake_link_names()


def check_link_failure_is_linker_error_with_log():
    k = cuda.jit(link=[write("broken.ptx", "not ptx at all\n")])(caller)
    try:
        k[1, 1](cuda.device_array(1, dtype=np.float32))
    except LinkerError as exc:
        assert "broken.ptx" in str(exc) and "ptxas fatal" in str(exc), str(exc)
    else:
        raise AssertionError("expected LinkerError")
    before = fake.fake_link_destroys()
    try:
        k[1, 1](cuda.device_array(1, dtype=np.float32))  # fails again, and cleans up again
    except LinkerError:
        pass
    assert fake.fake_link_destroys() == before + 1


def check_link_cubin_through_nvjitlink():
    import subprocess
    from cujit import _core
    ptx = write("twice_c.ptx", _core.nvrtc_compile(CU_SOURCE.encode(), "twice.cu", (9, 0)))
    cubin = os.path.join(TMP, "twice.cubin")
    subprocess.run([os.environ["PTXAS"], "-arch=sm_90", "-c", "-o", cubin, ptx], check=True)
    k = cuda.jit(link=[cubin])(caller)
    fake.fake_link_names.restype = ctypes.c_char_p
    names = fake.fake_link_names()
    launches = fake.fake_launches()
    k[1, 1](cuda.device_array(1, dtype=np.float32))  # on the fake device: cc 9.0
    assert fake.fake_launches() == launches + 1
    assert fake.fake_link_names() == names  # not the driver's linker


def check_lto_kernel_links_through_nvjitlink():
    k = cuda.jit(lto=True, link=[write("twice_lto.cu", CU_SOURCE)])(caller)
    names, launches = fake.fake_link_names(), fake.fake_launches()
    k[1, 1](cuda.device_array(1, dtype=np.float32))
    assert fake.fake_launches() == launches + 1
    assert fake.fake_link_names() == names  # nvJitLink, not the driver's linker
    [ov] = k.overloads.values()
    assert isinstance(ov.result["ltoir"], bytes) and ".entry caller" in ov.result["ptx"]


def check_declare_device_link_travels_with_its_callers():
    path = write("thrice.cu", CU_SOURCE.replace("twice", "thrice").replace("2 *", "3 *"))
    thrice = cuda.declare_device("thrice", "float32(float32)", link=[path])

    @cuda.jit(device=True)
    def helper(v):
        return thrice(v) + 1

    @cuda.jit
    def direct(x):
        x[0] = thrice(x[0])

    @cuda.jit(link=[path])  # the same file from the kernel too: linked once
    def nested(x):
        x[0] = helper(x[0])

    d = cuda.device_array(1, dtype=np.float32)
    direct[1, 1](d)
    assert fake.fake_link_names() == b"cujit;thrice.cu;", fake.fake_link_names()
    nested[1, 1](d)  # through a device function
    assert fake.fake_link_names() == b"cujit;thrice.cu;", fake.fake_link_names()
    [result] = [ov for ov in direct.overloads.values()]
    assert [f[:2] for f in result.result["link"]] == [("cu", "thrice.cu")]


def check_launch_bounds_limit_the_block():
    @cuda.jit(launch_bounds=128)
    def k(x):
        x[cuda.grid(1)] = 1

    d = cuda.device_array(256, dtype=np.float32)
    k[2, 128](d)
    try:
        k[1, 129](d)
    except ValueError as exc:
        assert "more threads than kernel" in str(exc) and "(128)" in str(exc), str(exc)
    else:
        raise AssertionError("expected ValueError")
    assert k.get_max_threads_per_block() == {k.signatures[0]: 128}


class Doubler:
    """An extension: a host list becomes a device array; retr copies it back."""

    def __init__(self):
        self.seen = []

    def prepare_args(self, ty, val, stream, retr):
        self.seen.append((str(ty), type(val).__name__, stream))
        if isinstance(val, list):
            dev = cuda.to_device(np.array(val, dtype=np.float32))
            retr.append(lambda: val.__setitem__(slice(None), dev.copy_to_host().tolist()))
            return ty, dev
        return ty, val


def check_extensions_prepare_args_and_retr():
    ext = Doubler()

    @cuda.jit("void(float32[::1], float32)", extensions=[ext])
    def k(x, v):
        x[0] = v

    host = [1.0, 2.0]
    launches = fake.fake_launches()
    k[1, 1, 0](host, 5.0)
    assert fake.fake_launches() == launches + 1
    assert ext.seen == [("array(float32, 1d, C)", "list", 0), ("float32", "float", 0)], ext.seen
    assert host == [1.0, 2.0]  # the fake device ran nothing: retr copied back unchanged
    assert k.extensions == [ext]


def check_specialize_launches_its_version():
    @cuda.jit
    def k(x):
        x[0] = 1

    d = cuda.device_array(4, dtype=np.int32)
    s = k.specialize(d)
    assert s.specialized and not k.specialized
    assert s is k.specialize(cuda.device_array(8, dtype=np.int32))
    s[1, 1](d)
    assert len(s.overloads) == 1 and len(k.overloads) == 0
    try:
        s.specialize(d)
    except RuntimeError as exc:
        assert str(exc) == "Dispatcher already specialized"
    else:
        raise AssertionError("expected RuntimeError")


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
        sys.stdout.flush()
print("ALL OK")
