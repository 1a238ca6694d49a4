"""cuda.atomic.* over numba-cuda's matrix of dtypes (int32/uint32/int64/uint64/float32/float64,
plus float16 add/sub/max/min/nanmax/nanmin, sm_70+), on 1-D and N-D (tuple index) global and
shared arrays: the old value's type, the PTX instruction each op becomes, ptxas -arch=sm_90,
numba-cuda's TypingError for combinations it does not type, and (GPU) results against
NumPy. One device function per dtype exercises every op legal for it."""
import re

import numpy as np
import pytest

from cujit import cuda, float16, float32, float64, int32, int64, uint32, uint64
from cujit.errors import TypingError

INTS = ("int32", "uint32", "int64", "uint64")
OPS = {  # op -> the dtypes numba-cuda types it for (float16: cujit's sm_70+ addition)
    "add": INTS + ("float32", "float64", "float16"),
    "sub": INTS + ("float32", "float64", "float16"),
    "max": INTS + ("float32", "float64", "float16"),
    "min": INTS + ("float32", "float64", "float16"),
    "nanmax": INTS + ("float32", "float64", "float16"),
    "nanmin": INTS + ("float32", "float64", "float16"),
    "and_": INTS, "or_": INTS, "xor": INTS,
    "inc": ("uint32", "uint64"), "dec": ("uint32", "uint64"),
    "exch": INTS + ("float32", "float64"),  # float exch: cujit's, numba-cuda types ints only
    "cas": INTS,
}
TYPES = {"int32": int32, "uint32": uint32, "int64": int64, "uint64": uint64,
         "float32": float32, "float64": float64, "float16": float16}


def _ops_of(dtype):
    return [op for op, dts in OPS.items() if dtype in dts]


def _device_source(dtype):
    """def f(a, b, v): returns the old values of every legal op, as three tuples: on a (1-D),
    b (2-D, tuple index) and a shared array."""
    groups = [[], [], []]
    for k, op in enumerate(_ops_of(dtype)):
        args = "v, v" if op == "cas" else "v"
        groups[0].append(f"cuda.atomic.{op}(a, {k}, {args})")
        groups[1].append(f"cuda.atomic.{op}(b, ({k % 2}, {k}), {args})")
        groups[2].append(f"cuda.atomic.{op}(s, {k}, {args})")
    if dtype in INTS:
        groups[0].append("cuda.atomic.compare_and_swap(a, v, v)")
    body = ",\n            ".join("(" + ", ".join(g) + ",)" for g in groups)
    return (f"def f(a, b, v):\n    s = cuda.shared.array(16, {dtype})\n"
            f"    return ({body})\n")


_COMPILED = {}


def _compiled(dtype):
    if dtype not in _COMPILED:
        g = {"cuda": cuda, dtype: TYPES[dtype]}
        exec(_device_source(dtype), g)
        t = TYPES[dtype]
        _COMPILED[dtype] = cuda.compile_ptx(g["f"], (t[:], t[:, :], t), device=True)
    return _COMPILED[dtype]


# the PTX each op becomes (a CAS loop where PTX has no instruction)
def _expected_ptx(op, dtype):
    bits = int(dtype[-2:]) if dtype != "float16" else 16
    fl = dtype.startswith("float")
    if op in ("add", "sub"):
        if dtype == "float16":
            return r"atom(\.\w+)?\.add\.noftz\.f16"
        return rf"atom(\.\w+)?\.add\.{'f' if fl else 'u'}{bits}"
    if op in ("max", "min") and not fl:
        return rf"atom(\.\w+)?\.{op}\.{'s' if dtype[0] == 'i' else 'u'}{bits}"
    if op in ("and_", "or_", "xor"):
        return rf"atom(\.\w+)?\.{op.rstrip('_')}\.b{bits}"
    if op == "exch":
        return rf"atom(\.\w+)?\.exch\.b{bits}"
    return rf"atom(\.\w+)?\.cas\.b{bits}"


DTYPES = list(TYPES)


@pytest.mark.parametrize("dtype", DTYPES)
def test_old_value_types_and_ptx(dtype, nvvm):
    ptx, resty = _compiled(dtype)
    n = len(_ops_of(dtype))
    if dtype in INTS:  # + compare_and_swap
        expected = (f"Tuple(UniTuple({dtype} x {n + 1}), UniTuple({dtype} x {n}), "
                    f"UniTuple({dtype} x {n}))")
    else:
        expected = f"UniTuple(UniTuple({dtype} x {n}) x 3)"
    assert str(resty) == expected
    for op in _ops_of(dtype):
        assert re.search(_expected_ptx(op, dtype), ptx), (op, dtype)
    assert re.search(r"atom\.shared\.", ptx) or "atom." in ptx


@pytest.mark.parametrize("dtype", DTYPES)
def test_ptx_assembles_for_sm_90(dtype, assemble):
    ptx, _ = _compiled(dtype)
    assemble(ptx)


def test_float_max_min_have_numba_cuda_nan_rules(nvvm):
    """max/min leave the element when either side is NaN (ordered compares); nanmax/nanmin
    ignore a NaN value and replace a NaN element (an unordered compare)."""
    ptx, _ = _compiled("float32")
    assert re.search(r"setp\.(gtu|ltu)\.f32", ptx)   # nanmax/nanmin: unordered
    assert re.search(r"setp\.(gt|lt)\.f32", ptx)     # max/min: ordered
    assert "atom.cas.b32" in ptx


BAD = [  # (op, array type, call arguments) numba-cuda does not type
    ("and_", "float32[:]", "a, 0, 1"),
    ("or_", "float64[:]", "a, 0, 1"),
    ("xor", "float16[:]", "a, 0, 1"),
    ("inc", "int32[:]", "a, 0, 1"),
    ("dec", "int64[:]", "a, 0, 1"),
    ("inc", "float32[:]", "a, 0, 1"),
    ("exch", "float16[:]", "a, 0, 1"),
    ("cas", "float32[:]", "a, 0, 1, 2"),
    ("compare_and_swap", "int32[:, :]", "a, 1, 2"),
    ("add", "int16[:]", "a, 0, 1"),
    ("add", "int32[:, :]", "a, 0, 1"),   # a 2-D array needs a tuple index
    ("add", "int32[:]", "a, (0, 1), 1"),
    ("max", "complex128[:]", "a, 0, 1"),
]


@pytest.mark.parametrize("op,aty,args", BAD, ids=[f"{o}-{a}" for o, a, _ in BAD])
def test_unsupported_combination_is_numba_cudas_typing_error(op, aty, args, nvvm):
    g = {"cuda": cuda}
    exec(f"def k(a):\n    cuda.atomic.{op}({args})\n", g)
    with pytest.raises(TypingError, match=rf"No implementation of function cuda\.atomic\.{op}"
                                          rf" found for signature"):
        cuda.compile_ptx(g["k"], f"void({aty})")


def test_numba_cuda_rejects_the_same_combinations():
    """The oracle, where numba-cuda is installed: each BAD combination fails its typing too
    (cujit's additions, float16 and float exch, are checked apart)."""
    pytest.importorskip("numba.cuda")
    from numba import cuda as ncuda, types as nt
    from numba.cuda.compiler import compile_cuda

    def numba_types(op, aty, args):
        g = {"cuda": ncuda}
        exec(f"def k(a):\n    cuda.atomic.{op}({args})\n", g)
        name, dims = aty.split("[")
        dtype = getattr(nt, name)
        try:
            compile_cuda(g["k"], nt.void, (nt.Array(dtype, dims.count(":"), "A"),), cc=(9, 0))
        except Exception as exc:  # noqa: BLE001 - any failure is a rejection
            if "driver" in str(exc).lower():
                pytest.skip("numba-cuda needs a driver here")
            return False
        return True

    accepted = [(op, aty) for op, aty, args in BAD if numba_types(op, aty, args)]
    assert accepted == [], accepted
    assert numba_types("add", "float16[:]", "a, 0, 1") is False  # cujit's addition
    assert numba_types("exch", "float32[:]", "a, 0, 1") is False  # cujit's addition


def test_float16_atomics_need_sm_70(nvvm):
    from cujit.errors import UnsupportedError

    def k(a):
        cuda.atomic.add(a, 0, a[1])

    with pytest.raises(UnsupportedError, match=r"cuda\.atomic\.add on float16 needs compute "
                                               r"capability 7\.0 or later \(compiling for 6\.1\)"):
        cuda.compile_ptx(k, "void(float16[:])", cc=(6, 1))
    ptx, _ = cuda.compile_ptx(k, "void(float16[:])", cc=(7, 5))
    assert "atom.add.noftz.f16" in ptx


def test_zero_d_array_with_an_empty_tuple_index(nvvm):
    """cujit's addition: a 0-d array takes the index (); numba-cuda does not type 0-d."""
    from cujit import types, void

    def k(a):
        cuda.atomic.add(a, (), 1)

    ptx, _ = cuda.compile_ptx(k, void(types.Array(int32, 0, "C")))
    assert re.search(r"atom(\.global)?\.add\.u32", ptx)


# ---- on the device: final and old values against NumPy ----

N = 64


@cuda.jit
def k_arith(a, b, olds, vals):
    i = cuda.grid(1)
    v = vals[i]
    olds[i] = cuda.atomic.add(a, 0, v)
    cuda.atomic.sub(a, 1, v)
    cuda.atomic.max(a, 2, v)
    cuda.atomic.min(a, 3, v)
    cuda.atomic.nanmax(b, (0, 1), v)
    cuda.atomic.nanmin(b, (1, 0), v)


@cuda.jit
def k_bits(a, b, vals):
    i = cuda.grid(1)
    v = vals[i]
    cuda.atomic.and_(a, 0, v)
    cuda.atomic.or_(a, 1, v)
    cuda.atomic.xor(a, 2, v)
    cuda.atomic.cas(b, (0, 0), 0, v)
    if i == 5:
        cuda.atomic.exch(a, 3, v)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_arith_ops_on_device(dtype):
    vals = (np.arange(N) % 7 + 1).astype(dtype)
    a = np.array([10, 1000, 3, 5], dtype=dtype)
    b = np.full((2, 2), 4, dtype=dtype)
    olds = np.zeros(N, dtype=dtype)
    k_arith[2, N // 2](a, b, olds, vals)
    total = vals.astype(np.float64).sum()
    assert a.dtype == np.dtype(dtype) and olds.dtype == np.dtype(dtype)
    assert a[0] == 10 + total and a[1] == 1000 - total
    assert a[2] == 7 and a[3] == 1 and b[0, 1] == 7 and b[1, 0] == 1
    assert olds.min() == 10 and olds.max() == 10 + total - vals[olds.argmax()]
    assert len(set(olds.tolist())) == N or dtype.startswith("float")


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", INTS)
def test_bitwise_ops_on_device(dtype):
    vals = (np.arange(N) * 2654435761 % 1021 + 1).astype(dtype)
    a = np.array([~np.zeros((), dtype), 0, 0, 0], dtype=dtype)
    b = np.zeros((1, 1), dtype=dtype)
    k_bits[1, N](a, b, vals)
    assert a[0] == np.bitwise_and.reduce(vals) and a[1] == np.bitwise_or.reduce(vals)
    assert a[2] == np.bitwise_xor.reduce(vals) and a[3] == vals[5]
    assert b[0, 0] in vals


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["uint32", "uint64"])
def test_inc_dec_wrap_on_device(dtype):
    @cuda.jit
    def k(u):
        cuda.atomic.inc(u, 0, 9)
        cuda.atomic.dec(u, 1, 9)

    u = np.zeros(2, dtype=dtype)
    k[1, N](u)
    assert u[0] == N % 10 and u[1] == (-N) % 10


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nan_rules_on_device(dtype):
    """numba-cuda: max/min keep a NaN element and ignore a NaN value; nanmax/nanmin replace
    a NaN element and ignore a NaN value."""
    @cuda.jit
    def k(a, x):
        cuda.atomic.max(a, 0, x[0])
        cuda.atomic.max(a, 1, x[1])
        cuda.atomic.nanmax(a, 2, x[0])
        cuda.atomic.nanmin(a, 3, x[1])
        cuda.atomic.min(a, 4, x[1])

    a = np.array([np.nan, 1, np.nan, 1, 1], dtype=dtype)
    x = np.array([2, np.nan], dtype=dtype)
    k[1, 1](a, x)
    assert np.isnan(a[0]) and a[1] == 1 and a[2] == 2 and a[3] == 1 and a[4] == 1


@pytest.mark.gpu
def test_shared_array_atomics_on_device():
    @cuda.jit
    def k(out):
        s = cuda.shared.array(2, int32)
        if cuda.threadIdx.x == 0:
            s[0] = 0
            s[1] = 0
        cuda.syncthreads()
        cuda.atomic.add(s, 0, 1)
        cuda.atomic.max(s, 1, cuda.threadIdx.x)
        cuda.syncthreads()
        if cuda.threadIdx.x == 0:
            out[cuda.blockIdx.x, 0] = s[0]
            out[cuda.blockIdx.x, 1] = s[1]

    out = np.zeros((3, 2), dtype=np.int32)
    k[3, N](out)
    assert (out[:, 0] == N).all() and (out[:, 1] == N - 1).all()
