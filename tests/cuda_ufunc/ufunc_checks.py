"""Run under a fake libcuda (tests/cuda/fake_libcuda.c + tests/cuda_kernels/fake_launch.c): checks
what the CUDA ufunc call path (csrc/runtime/ufunc_cuda.c) decides and hands to cuLaunchKernel.
The fake driver runs no kernels, so results are checked for type, shape and placement only.
Invoked by test_ufunc_cuda_ci.py in a subprocess."""
import ctypes
import os
import struct

import numpy as np

from cujit import cuda, float32, float64, guvectorize, int64, vectorize
from cujit.errors import TypingError

fake = ctypes.CDLL(os.environ["CUJIT_CUDA_DRIVER"])
fake.fake_param.restype = ctypes.c_uint64


def params():
    return [fake.fake_param(i) for i in range(fake.fake_nparams())]


def dims():
    return [fake.fake_dim(i) for i in range(7)]


def ptr(d):
    return d.device_ctypes_pointer.value


def raises(exc, fn, *args, match="", **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        assert match in str(e), f"{match!r} not in {str(e)!r}"
        return
    raise AssertionError(f"{fn} did not raise {exc.__name__}")


@vectorize([float32(float32, float32), float64(float64, float64)], target="cuda")
def add(x, y):
    return x + y


def check_loop_selection():
    f32, f64 = np.ones(4, np.float32), np.ones(4)
    assert add(f32, f32).dtype == np.float32
    assert add(f64, f32).dtype == np.float64
    assert add(np.ones(4, np.int16), f32).dtype == np.float32   # safe casts, first loop wins
    assert add(np.ones(4, np.int64), f32).dtype == np.float64   # int64 -> float32 is unsafe
    assert add(f32, 2.0).dtype == np.float32                     # Python floats are weak
    assert add(f32, np.float64(2.0)).dtype == np.float64         # NumPy scalars are not
    assert add(f32, np.float32(2.0)).dtype == np.float32
    assert isinstance(add(1.0, 2.0), np.float64)                 # all Python: default dtypes
    assert isinstance(add(1, 2), np.float64)
    raises(TypeError, add, np.ones(4, np.complex64), f32,
           match="no loop for input types (complex64, float32); the compiled signatures are "
                 "['float32(float32, float32)', 'float64(float64, float64)']")
    raises(TypeError, add, f32, "a", match="no loop for input types (float32, <U1)")
    raises(TypeError, add, f32, None, match="take arrays and numbers, not NoneType")


def check_params_and_configuration():
    n = 100_000
    a, b = cuda.device_array(n, np.float32), cuda.device_array(n, np.float32)
    before = fake.fake_launches()
    r = add(a, b)
    assert fake.fake_launches() == before + 1
    assert params() == [n, ptr(a), n, 4, ptr(b), n, 4, ptr(r), n, 4]
    blocks = (n + 255) // 256
    assert dims() == [blocks, 1, 1, 256, 1, 1, 0]
    big = cuda.device_array(10_000_000, np.float32)
    add(big, big)
    assert dims()[0] == 132 * 32  # grid-stride: at most 32 blocks per SM (the fake has 132)
    built = add._kernels_built
    add(a, b)
    add(cuda.device_array(7, np.float32), cuda.device_array(7, np.float32))
    assert add._kernels_built == built  # same loop, dimensions and scalars: same kernel


def check_dimension_merging():
    c = cuda.device_array((3, 4))
    r = add(c, c)
    assert params() == [12, ptr(c), 12, 8, ptr(c), 12, 8, ptr(r), 12, 8]  # one dimension
    row = cuda.device_array(4)
    r = add(c, row)  # broadcast along rows: two loop dimensions, stride 0 for the row
    assert params() == [12, ptr(c), 3, 4, 32, 8, ptr(row), 3, 4, 0, 8, ptr(r), 3, 4, 32, 8]
    t = c.T
    r = add(t, t)  # Fortran-ordered inputs: a Fortran-ordered output, merged to one dimension
    assert r.is_f_contiguous() and params()[:4] == [12, ptr(t), 12, 8]
    r = add(t, 1.5)  # a scalar input is a kernel parameter of the loop's type
    p = params()
    assert p[:4] == [12, ptr(t), 12, 8] and struct.unpack("<d", struct.pack("<Q", p[4]))[0] == 1.5
    s = cuda.device_array((4, 6))[:, ::2]
    r = add(s, s)
    assert params()[:4] == [12, ptr(s), 12, 16]  # an even step merges too
    s = cuda.device_array((4, 6))[:, :3]
    r = add(s, s)
    assert params()[:6] == [12, ptr(s), 4, 3, 48, 8]  # a gap between rows: two dimensions


def check_results_and_outputs():
    f32 = np.ones(5, np.float32)
    d = cuda.to_device(f32)
    assert isinstance(add(f32, f32), np.ndarray)            # host in, host out
    assert isinstance(add(d, f32), cuda.DeviceNDArray)      # a device input: device out
    out = cuda.device_array(5, np.float32)
    assert add(d, d, out=out) is out
    assert add(d, d, out) is out                            # positional output
    host_out = np.zeros(5, np.float64)
    assert add(f32, f32, out=host_out) is host_out          # same-kind cast on the way out
    raises(TypeError, add, d, d, out=cuda.device_array(5, np.int32),
           match="output 0 has dtype dtype('int32'); the loop float32(float32, float32) writes")
    raises(ValueError, add, d, d, out=cuda.device_array(6, np.float32),
           match="could not be broadcast together with shapes [(5,), (5,), (6,)]")
    raises(ValueError, add, d, np.ones((2, 5), np.float32), out=out,
           match="output 0 has loop shape (5,); the inputs broadcast to (2, 5)")
    raises(ValueError, add, d, np.ones(4, np.float32),
           match="could not be broadcast together with shapes [(5,), (4,)]")
    raises(TypeError, add, d, d, out, out=out, match="both positionally and as out=")
    raises(TypeError, add, d, d, out=[1, 2], match="output 0 must be an array")
    raises(TypeError, add, d, d, out=3.0, match="output 0 must be an array")
    raises(TypeError, add, d, d, where=True, match="unexpected keyword argument 'where'")
    raises(TypeError, add, d, match="takes 2 input(s) and optionally 1 output(s), got 1")
    raises(TypeError, add, d, d, out, out, match="got 4 positional")
    raises(TypeError, add, d, d, stream="s", match="stream")
    ro = cuda.to_device(f32)
    ro_cai = type("RO", (), {"__cuda_array_interface__": dict(
        ro.__cuda_array_interface__, data=(ptr(ro), True))})()
    raises(ValueError, add, d, d, out=ro_cai, match="output 0 is read-only")


def check_foreign_arrays_in_place():
    d = cuda.device_array(8, np.float32)
    foreign = type("Foreign", (), {"__cuda_array_interface__": d.__cuda_array_interface__})()
    r = add(foreign, foreign)
    assert isinstance(r, cuda.DeviceNDArray) and params()[1] == ptr(d) and params()[4] == ptr(d)
    bad = type("Bad", (), {"__cuda_array_interface__": {"shape": (2,)}})()
    raises((KeyError, ValueError, TypeError), add, bad, d)


def check_zero_size_and_scalars():
    before = fake.fake_launches()
    r = add(cuda.device_array((3, 0), np.float32), 1.0)
    assert r.shape == (3, 0) and fake.fake_launches() == before  # nothing to launch
    r = add(np.float32(1), np.float32(2))
    assert isinstance(r, np.float32) and params()[0] == 1  # one element


@guvectorize([(int64[:], int64[:], int64[:])], "(n),()->(n)", target="cuda")
def g(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y[0]


@guvectorize([(float64[:], float64, float64[:])], "(n),()->(n)", target="cuda")
def gs(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y


@guvectorize([(float64[:, :], float64[:], float64[:])], "(m,n),(n)->(m)", target="cuda")
def mv(M, v, y):
    for i in range(M.shape[0]):
        y[i] = M[i, 0] * v[0]


@guvectorize([(float64[:], float64[:], float64[:])], "(n)->(),()", target="cuda")
def max_min(a, hi, lo):
    hi[0] = a[0]
    lo[0] = a[0]


def check_gufuncs():
    x = cuda.device_array((3, 4), np.int64)
    r = g(x, 5)  # a scalar for an array-typed () argument: a 0-d device array, one element
    p = params()
    assert r.shape == (3, 4) and p[0] == 3 and p[1:6] == [ptr(x), 3, 4, 32, 8]
    assert p[7:10] == [3, 1, 0] and p[10] == 8  # y: loop dim broadcast, core dim of 1
    xf = cuda.device_array((3, 4))
    gs(xf, 2.5)  # scalar-typed (): a kernel parameter
    assert struct.unpack("<d", struct.pack("<Q", params()[6]))[0] == 2.5
    M, v = cuda.device_array((5, 3, 4)), cuda.device_array(4)
    y = mv(M, v)
    assert y.shape == (5, 3) and params()[:9] == [5, ptr(M), 5, 3, 4, 96, 32, 8, ptr(v)]
    hi, lo = max_min(cuda.device_array((6, 3)))
    assert hi.shape == (6,) and lo.shape == (6,)
    a, b = max_min(np.ones(3))
    assert isinstance(a, np.float64) and isinstance(b, np.float64)
    raises(ValueError, mv, M, cuda.device_array(5), match="core dimension 0 of argument 1 has "
                                                          "size 5, but 4 elsewhere")
    raises(TypeError, mv, cuda.device_array((5, 3, 4), np.float32), v,
           match="device arrays need the signature's exact dtype")
    assert mv(np.ones((5, 3, 4), np.float32), np.ones(4)).shape == (5, 3)  # host: cast
    raises(ValueError, mv, cuda.device_array(4), v, match="argument 0 has 1 dimension(s), fewer "
                                                          "than its 2 core dimension(s)")
    raises(TypeError, mv, 1.0, v, match="argument 0 must be an array with 2 core dimension(s)")
    out = cuda.device_array((5, 3))
    assert mv(M, v, out) is out and mv(M, v, out=out) is out
    h, l2 = cuda.device_array(6), cuda.device_array(6)
    assert max_min(cuda.device_array((6, 3)), out=(h, l2)) == (h, l2)
    raises(ValueError, max_min, cuda.device_array((6, 3)), out=(h,), match="out= must have 2")


def check_decoration_errors():
    def index_scalar(x):
        return x[0]
    raises(TypingError, vectorize(["float64(float64)"], target="cuda"), index_scalar)
    raises(NotImplementedError, vectorize(target="cuda"), lambda x: x, match="need signatures")
    raises(TypeError, vectorize(["(float64,)"], target="cuda"), lambda x: x,
           match="need a return type")
    raises(TypeError, vectorize, ["float64(float64)"], target="cuda", fastmath=True,
           match="unexpected option(s): fastmath")
    raises(TypeError, guvectorize([(float64[:], float64[:])], "(n),()->(n)", target="cuda"),
           lambda x, y, z: None, match="has 2 arguments; the layout")
    raises(TypeError, guvectorize([(float64[:], float64)], "(n)->()", target="cuda"),
           lambda x, y: None, match="outputs must be arrays")
    raises(ValueError, guvectorize([(float64[:], float64[:])], "(n)->(m)", target="cuda")(
        lambda x, y: None), np.ones(3), match="size of core dimension 0 of output 0 is not "
                                              "given by any input")


if __name__ == "__main__":
    for name, fn in list(globals().items()):
        if name.startswith("check_"):
            fn()
            print(name, "ok")
    print("ALL OK")
