"""C pointers for foreign device functions (numba-cuda's "Passing pointers"): types.CPointer
and voidptr as compiled types, ffi.from_buffer(array) (numba's cffi typing and texts), p[i]
and p[i] = v, and cuda.declare_device with pointer parameters: the PTX of numba-cuda's
doc example, assembled by ptxas -arch=sm_90 with the .cu compiled by NVRTC and linked by
nvJitLink; njit CPU code against NumPy; GPU-marked runs of the doc example."""
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import cujit
from cujit import _core, cuda, types
from cujit.cuda.linking import LinkerError
from cujit.errors import TypingError, UnsupportedError

try:
    import cffi
    ffi = cffi.FFI()
except ImportError:  # cujit knows the ffi by its class, cffi.api.FFI: a stand-in of that name
    class FFI:
        pass

    FFI.__module__ = "cffi.api"
    ffi = FFI()

HERE = os.path.dirname(os.path.abspath(__file__))
PTXAS = shutil.which("ptxas") or next(
    (p for p in ("/usr/local/cuda/bin/ptxas",) if os.path.exists(p)), None)

# numba-cuda's tests/doc_examples/ffi/functions.cu (sum_reduce) and a function writing
# through its pointer, in numba's ABI: the result through the first pointer, 0 returned
CU_SOURCE = b"""
extern "C" __device__ int sum_reduce(float *return_value, float *array, int n) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += array[i];
    *return_value = (float)sum;
    return 0;
}
extern "C" __device__ int fill_squares(int *return_value, void *out, int n) {
    double *o = (double *)out;
    for (int i = 0; i < n; ++i) o[i] = (double)i * i;
    *return_value = n;
    return 0;
}
"""

# the doc example, as numba-cuda documents it
signature = "float32(CPointer(float32), int32)"
sum_reduce = cuda.declare_device("sum_reduce", signature)
fill_squares = cuda.declare_device("fill_squares", "int32(voidptr, int32)")


def reduction_caller(result, array):
    array_ptr = ffi.from_buffer(array)
    result[()] = sum_reduce(array_ptr, len(array))


def filler(out, count):
    count[0] = fill_squares(ffi.from_buffer(out), out.size)


DOC_SIG = (types.Array(types.float32, 0, "C"), types.float32[::1])
FILL_SIG = "void(float64[::1], int32[::1])"


# ---- the types ----

def test_cpointer_and_voidptr_are_compiled_types():
    p = types.CPointer(types.float32)
    assert p._compilable and str(p) == "float32*" and p.dtype is types.float32
    assert p is types.CPointer(types.float32) and isinstance(p, types.CPointer)
    assert types.voidptr._compilable and str(types.voidptr) == "void*"
    assert isinstance(types.voidptr, types.RawPointer)
    sig = cujit.typing.parse_signature(signature)
    assert sig.return_type is types.float32 and sig.args == (p, types.int32)
    assert str(sig) == "float32(float32*, int32)"
    # a pointer in an address space, or to a record, stays Python-only (numba's class)
    assert not types.CPointer(types.int8, 3)._compilable
    assert str(types.CPointer(types.int8, 3)) == "int8_3*"
    with pytest.raises(UnsupportedError, match=r"int8_3\*"):
        types.void(types.CPointer(types.int8, 3))
    assert _core.can_convert(p, types.voidptr) == "safe"
    assert _core.can_convert(types.voidptr, p) is None
    assert _core.can_convert(p, types.CPointer(types.float64)) is None


# ---- CPU: ffi.from_buffer and p[i] against NumPy ----

@cujit.njit
def read_write(a, i, v):
    p = ffi.from_buffer(a)
    old = p[i]
    p[i] = v
    return old, p[i + 1]


@cujit.njit
def pointer_sum(a):
    p = ffi.from_buffer(a)
    s = p[0] - p[0]
    for i in range(a.size):
        s += p[i]
    return s


def test_from_buffer_reads_and_writes_the_array():
    a = np.arange(6, dtype=np.float64) * 1.5
    want = a.copy()
    old, nxt = read_write(a, np.int32(2), 7)  # an int stored as float64
    want[2] = 7
    assert (old, nxt) == (3.0, 4.5) and type(old) is float
    np.testing.assert_array_equal(a, want)
    b = np.arange(10, dtype=np.int32)[3:]  # a C-contiguous view: the pointer is at b[0]
    old, nxt = read_write(b, np.uint64(0), 2.9)  # float -> int32 truncates (numba's cast)
    assert (old, nxt) == (3, 4) and type(old) is int and b[0] == 2
    old, _ = read_write(b, -1, 5)  # no wrap: p[-1] is the element before the view
    assert old == 2 and b.base[2] == 5
    c = np.zeros(3, np.bool_)
    read_write(c, 1, True)
    np.testing.assert_array_equal(c, [False, True, False])


def test_from_buffer_of_2d_and_f_contiguous_1d():
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert pointer_sum(m) == np.sum(m, dtype=np.float32)
    f = np.asfortranarray(np.arange(5, dtype=np.int16))
    assert pointer_sum(f[:, None][:, 0]) == 10  # a 1-d F array is contiguous
    z = np.arange(4, dtype=np.complex64) * (1 + 1j)
    assert pointer_sum(z) == np.sum(z)


def test_from_buffer_errors_are_numbas():
    with pytest.raises(TypingError, match=r"from_buffer\(\) unsupported on non-contiguous "
                                          r"buffers \(got array\(float64, 1d, A\)\)"):
        pointer_sum(np.arange(8.0)[::2])
    with pytest.raises(TypingError, match=r"from_buffer\(\) only supports multidimensional "
                                          r"arrays with C layout \(got array\(float64, 2d, F\)"):
        pointer_sum(np.zeros((2, 2), order="F"))

    @cujit.njit
    def scalar(x):
        return ffi.from_buffer(x)

    with pytest.raises(TypingError, match=r"from_buffer\(\) expected a buffer object, got "
                                          r"float64"):
        scalar(1.0)

    @cujit.njit
    def bad_index(a):
        return ffi.from_buffer(a)[1.0]

    with pytest.raises(TypingError, match=r"Invalid use of getitem with argument\(s\) of "
                                          r"type\(s\): \(float64\*, float64\)"):
        bad_index(np.zeros(2))

    @cujit.njit
    def bad_value(a):
        ffi.from_buffer(a)[0] = 1j

    with pytest.raises(TypingError, match=r"Invalid use of setitem .*complex128"):
        bad_value(np.zeros(2))

    @cujit.njit
    def other_attr(a):
        return ffi.new(a)

    with pytest.raises(TypingError, match=r"Unknown attribute 'new' of type ffi"):
        other_attr(np.zeros(2))

    @cujit.njit
    def returned(a):
        return ffi.from_buffer(a)

    with pytest.raises(TypeError, match=r"cujit cannot return a value of type float64\*"):
        returned(np.zeros(2))


# ---- CUDA: PTX, ptxas, NVRTC and nvJitLink ----

def doc_ptx():
    return cuda.compile_ptx(reduction_caller, DOC_SIG)[0]


def test_doc_example_passes_a_b64_pointer():
    ptx = doc_ptx()
    flat = " ".join(ptx.split())
    decl = re.search(r"\.extern \.func \(\.param \.b32 func_retval0\) sum_reduce ?\((.*?)\)",
                     flat)
    assert decl, ptx
    params = re.findall(r"\.param \.(\w+) sum_reduce_param_\d", decl.group(1))
    assert params == ["b64", "b64", "b32"]  # return slot, the array's pointer, n
    call = re.search(r"call\.uni \(retval0\), sum_reduce, \( ?param0, param1, param2 ?\)", flat)
    assert call, ptx
    assert re.search(r"\.param \.b64 param1; st\.param\.b64 \[param1\+0\], %rd\d+", flat)
    ptx2 = cuda.compile_ptx(filler, FILL_SIG)[0]
    assert re.search(r"fill_squares \( ?\.param \.b64 fill_squares_param_0, \.param \.b64 "
                     r"fill_squares_param_1, \.param \.b32", " ".join(ptx2.split())), ptx2


def test_declare_device_pointer_errors():
    arr = cuda.declare_device("arr_sum", "float32(float32[:])")

    def k(x):
        x[0] = arr(x)

    with pytest.raises(UnsupportedError, match=r"parameters of type array\(float32, 1d, A\) "
                                               r".*CPointer\(dtype\).*ffi\.from_buffer"):
        cuda.compile_ptx(k, "void(float32[::1])")

    def wrong_dtype(r, x):
        r[()] = sum_reduce(ffi.from_buffer(x), 3)

    with pytest.raises(TypingError, match=r"sum_reduce\(\): argument 1 of type float64\* "
                                          r"cannot be passed as float32\*"):
        cuda.compile_ptx(wrong_dtype, (DOC_SIG[0], types.float64[::1]))


@cuda.jit(device=True)
def scale_through(p, n, k):
    for i in range(n):
        p[i] = p[i] * k
    return p[n - 1]


def device_pointer_caller(x, out):
    out[0] = scale_through(ffi.from_buffer(x), x.size, 3)


def test_pointer_passed_to_a_device_function():
    ptx = cuda.compile_ptx(device_pointer_caller, "void(int16[::1], float64[::1])")[0]
    assert ".entry" in ptx and "ld.param.u64" in ptx


def _assemble(ptx, tmp_path, name):
    src, out = tmp_path / f"{name}.ptx", tmp_path / f"{name}.cubin"
    src.write_text(ptx)
    r = subprocess.run([PTXAS, "-arch=sm_90", "-c", "-o", str(out), str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out.read_bytes()


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found")
def test_ptxas_and_nvjitlink_with_the_cu(tmp_path):
    kernel = doc_ptx()
    kernel_o = _assemble(kernel, tmp_path, "k")
    assert kernel_o[:4] == b"\x7fELF"
    try:
        lib_ptx = _core.nvrtc_compile(CU_SOURCE, "functions.cu", (9, 0))
    except RuntimeError as exc:
        pytest.skip(str(exc))
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) sum_reduce\(\s*"
                     r"\.param \.b64 sum_reduce_param_0,\s*\.param \.b64", lib_ptx), lib_ptx
    lib = _assemble(lib_ptx, tmp_path, "functions")
    try:
        cubin = _core.nvjitlink((("ptx", "k", kernel.encode()), ("cubin", "f.cubin", lib)),
                                (9, 0))
    except LinkerError:
        raise
    except RuntimeError as exc:
        pytest.skip(str(exc))
    assert cubin[:4] == b"\x7fELF" and b"reduction_caller" in cubin and b"sum_reduce" in cubin


def test_doc_example_on_fake_driver(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "ffi_pointers_checks.py"),
                              env={"FFI_CU_SOURCE": CU_SOURCE.decode()})


# ---- on a GPU ----

@pytest.mark.gpu
def test_gpu_doc_example_sum_reduce(tmp_path):
    src = tmp_path / "functions.cu"
    src.write_bytes(CU_SOURCE)
    k = cuda.jit(link=[str(src)])(reduction_caller)
    x = np.arange(1000).astype(np.float32)
    r = np.ndarray((), dtype=np.float32)
    k[1, 1](r, x)
    np.testing.assert_allclose(r[()], np.sum(x))


@pytest.mark.gpu
def test_gpu_foreign_function_writes_through_the_pointer(tmp_path):
    src = tmp_path / "fill.cu"
    src.write_bytes(CU_SOURCE)
    k = cuda.jit(link=[str(src)])(filler)
    out, count = np.full(17, -1.0), np.zeros(1, np.int32)
    k[1, 1](out, count)
    np.testing.assert_array_equal(out, np.arange(17.0) ** 2)
    assert count[0] == 17


@pytest.mark.gpu
def test_gpu_pointer_in_a_device_function():
    x, out = np.arange(1, 6, dtype=np.int16), np.zeros(1)
    cuda.jit(device_pointer_caller)[1, 1](x, out)
    np.testing.assert_array_equal(x, np.arange(1, 6) * 3)
    assert out[0] == 15
