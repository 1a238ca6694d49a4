"""Typing in kernels matches numba-cuda's: the course's float32/float64 widening cases, int64
index arithmetic from cuda.grid, and the intrinsics' result types. numba-cuda (when installed)
is the oracle: the same device function is compiled by both and the return types compared."""
import pytest

from cujit import cuda

# (expression over i32: int32, u32: uint32, f32: float32, f64: float64, i64: int64, a: float32[:],
#  b: int32[:], u: uint32[:]) -> numba-cuda's type, checked on this machine with numba 0.68
CASES = [
    ("cuda.grid(1)", "int64"),
    ("cuda.grid(2)", "UniTuple(int64 x 2)"),
    ("cuda.gridsize(1)", "int64"),
    ("cuda.gridsize(3)", "UniTuple(int64 x 3)"),
    ("cuda.threadIdx.x", "int32"),
    ("cuda.blockIdx.y", "int32"),
    ("cuda.blockDim.z", "int32"),
    ("cuda.gridDim.x", "int32"),
    ("cuda.laneid", "int32"),
    ("cuda.threadIdx.x + 1", "int64"),
    ("cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x", "int64"),
    ("cuda.grid(1) * 2 + 1", "int64"),
    ("cuda.threadIdx.x * f32", "float64"),
    ("f32 * 2.0", "float64"),
    ("f32 * f32", "float32"),
    ("f32 * f64", "float64"),
    ("f32 + 1", "float64"),
    ("f32 + i32", "float64"),
    ("i32 + 1", "int64"),
    ("i32 * i32", "int64"),
    ("i32 / i32", "float64"),
    ("math.sin(f32)", "float32"),
    ("math.sin(i32)", "float64"),
    ("math.sqrt(f64)", "float64"),
    ("cuda.syncthreads_count(1)", "int32"),
    ("cuda.popc(i32)", "int32"),
    ("cuda.popc(i64)", "int64"),
    ("cuda.popc(u32)", "uint32"),
    ("cuda.clz(i32)", "int32"),
    ("cuda.ffs(i32)", "uint32"),
    ("cuda.ffs(i64)", "uint32"),
    ("cuda.brev(u32)", "uint32"),
    ("cuda.brev(i32)", "uint32"),
    ("cuda.fma(f32, f32, f32)", "float32"),
    ("cuda.fma(1.0, 2.0, 3.0)", "float64"),
    ("cuda.cbrt(f32)", "float32"),
    ("cuda.cbrt(f64)", "float64"),
    ("cuda.selp(True, 1.0, 2.0)", "float64"),
    ("cuda.selp(True, i32, i32)", "int32"),
    ("cuda.activemask()", "uint32"),
    ("cuda.lanemask_lt()", "uint32"),
    ("cuda.atomic.add(a, 0, 1.0)", "float32"),
    ("cuda.atomic.add(b, 0, 1)", "int32"),
    ("cuda.atomic.max(a, 0, f32)", "float32"),
    ("cuda.atomic.cas(b, 0, i32, i32)", "int32"),
    ("cuda.atomic.compare_and_swap(b, i32, i32)", "int32"),
    ("cuda.atomic.exch(b, 0, 1)", "int32"),
    ("cuda.atomic.nanmax(a, 0, f32)", "float32"),
    ("cuda.atomic.and_(b, 0, i32)", "int32"),
    ("cuda.atomic.sub(b, 0, 1)", "int32"),
    ("cuda.atomic.inc(u, 0, u32)", "uint32"),
    ("cuda.match_any_sync(0xffffffff, i32)", "int32"),
    ("cuda.match_all_sync(0xffffffff, i32)", "Tuple(int32, bool)"),
    ("cuda.shared.array(10, float32)[0]", "float32"),
    ("cuda.local.array(5, int64)[1]", "int64"),
]

ARGS = "i32, u32, f32, f64, i64, a, b, u"
SIG = "(int32, uint32, float32, float64, int64, float32[:], int32[:], uint32[:])"


def _device_function(expr, cuda_module, types_module=None):
    import math
    import cujit
    types_module = types_module or cujit
    src = f"def f({ARGS}):\n    return {expr}\n"
    g = {"cuda": cuda_module, "math": math, "float32": types_module.float32,
         "int64": types_module.int64}
    exec(src, g)
    return g["f"]


@pytest.mark.parametrize("expr,expected", CASES, ids=[c[0] for c in CASES])
def test_result_type(expr, expected, nvvm):
    _, resty = cuda.compile_ptx(_device_function(expr, cuda), SIG, device=True)
    assert str(resty) == expected


def _numba_type(expr):
    numba_cuda = pytest.importorskip("numba.cuda")
    from numba.cuda.compiler import compile_cuda
    from numba.core import types
    f = _device_function(expr, numba_cuda, types)
    sig = (types.int32, types.uint32, types.float32, types.float64, types.int64,
           types.float32[:], types.int32[:], types.uint32[:])
    cres = compile_cuda(f, None, sig, cc=(9, 0))
    return str(cres.signature.return_type)


@pytest.mark.parametrize("expr,expected", CASES[:40], ids=[c[0] for c in CASES[:40]])
def test_numba_cuda_agrees(expr, expected):
    try:
        got = _numba_type(expr)
    except Exception as exc:  # numba-cuda needs a driver for some of its stubs
        pytest.skip(f"numba-cuda cannot type this here: {type(exc).__name__}")
    assert got == expected


def test_course_widening_in_kernel(nvvm):
    """The course: a float32 kernel with a float64 constant computes in float64."""
    from cujit import float32

    def k(x, out):
        i = cuda.grid(1)
        a = x[i] * 2.5          # float32 * float literal -> float64
        b = x[i] * float32(2.5)  # stays float32
        out[i] = a + b

    d = cuda.jit("void(float32[:], float32[:])")(k)
    text = d.inspect_asm(d.signatures[0])
    assert "cvt.f64.f32" in text  # the widening is real in the PTX
    import io
    buf = io.StringIO()
    d.inspect_types(file=buf)
    assert "float64" in buf.getvalue() and "float32" in buf.getvalue()


def test_cuda_intrinsic_in_cpu_code_is_an_error():
    from cujit import njit
    from cujit.errors import UnsupportedError

    @njit
    def f():
        return cuda.threadIdx.x

    with pytest.raises(UnsupportedError, match="threadIdx"):
        f()


def test_bad_shared_shape_is_a_typing_error(nvvm):
    from cujit import float32
    from cujit.errors import TypingError

    def k(a, n):
        s = cuda.shared.array(n, dtype=float32)
        a[0] = s[0]

    with pytest.raises(TypingError):
        cuda.compile_ptx(k, "void(float32[:], int64)")


# numba-cuda's cbrt has a float32 and a float64 signature; an argument picks one by numba's
# conversion rule (checked against numba-cuda 0.68 on this machine)
CBRT = [("int8", "float32"), ("int16", "float32"), ("uint8", "float32"), ("uint16", "float64"),
        ("int32", "float64"), ("uint32", "float64"), ("int64", "float64"),
        ("uint64", "float64"), ("boolean", "float32"), ("float16", "float32"),
        ("float32", "float32"), ("float64", "float64")]


@pytest.mark.parametrize("arg,expected", CBRT, ids=[a for a, _ in CBRT])
def test_cbrt_picks_numba_cudas_signature(arg, expected, nvvm):
    import cujit

    def f(a):
        return cuda.cbrt(a)

    ptx, resty = cuda.compile_ptx(f, (getattr(cujit, arg),), device=True)
    assert str(resty) == expected
    assert f"st.{'f32' if expected == 'float32' else 'f64'} " in ptx  # the result stored


def test_cbrt_matches_numba_cuda():
    numba_cuda = pytest.importorskip("numba.cuda")
    from numba.cuda.compiler import compile_cuda
    from numba.core import types

    def f(a):
        return numba_cuda.cbrt(a)

    try:
        got = [str(compile_cuda(f, None, (getattr(types, a),), cc=(9, 0)).signature.return_type)
               for a, _ in CBRT]
    except Exception as exc:  # numba-cuda needs a driver for some of its stubs
        pytest.skip(f"numba-cuda cannot type this here: {type(exc).__name__}")
    assert got == [e for _, e in CBRT]


FMA = [(("int32", "int32", "int32"), "float64"), (("float16", "float16", "float16"), "float32"),
       (("float32", "float32", "float64"), "float64"), (("int8", "float32", "int16"), "float32"),
       (("float64", "int64", "float32"), "float64"), (("uint16", "float32", "float32"), "float64")]


@pytest.mark.parametrize("args,expected", FMA, ids=[",".join(a) for a, _ in FMA])
def test_fma_picks_numba_cudas_signature(args, expected, nvvm):
    import cujit

    def f(a, b, c):
        return cuda.fma(a, b, c)

    _, resty = cuda.compile_ptx(f, tuple(getattr(cujit, a) for a in args), device=True)
    assert str(resty) == expected


def test_fma_matches_numba_cuda():
    numba_cuda = pytest.importorskip("numba.cuda")
    from numba.cuda.compiler import compile_cuda
    from numba.core import types

    def f(a, b, c):
        return numba_cuda.fma(a, b, c)

    try:
        got = [str(compile_cuda(f, None, tuple(getattr(types, t) for t in a),
                                cc=(9, 0)).signature.return_type) for a, _ in FMA]
    except Exception as exc:  # numba-cuda needs a driver for some of its stubs
        pytest.skip(f"numba-cuda cannot type this here: {type(exc).__name__}")
    assert got == [e for _, e in FMA]
