"""Records in CUDA kernels: PTX that ptxas -arch=sm_90 accepts for field reads and writes,
nested records, array fields and device functions taking records (cuda.random's state dtype
among them); the CUDA-only refusals; and, on a GPU, kernels over record arrays against NumPy."""
import numpy as np
import pytest

from cujit import cuda, from_dtype, uint64
from cujit.errors import UnsupportedError

STATE = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)  # cuda.random's
INNER = np.dtype([("a", "u1"), ("b", "f4")])
PACKED = np.dtype([("x", "i4"), ("y", "f8"), ("v", "f8", (3,)), ("inner", INNER)])
ALIGNED = np.dtype(PACKED.descr, align=True)
SCALARS = np.dtype([("x", "i4"), ("y", "f8"), ("inner", INNER)])  # packed, no array field


@cuda.jit(device=True)
def xorshift_step(r):
    # one xoroshiro128+-style step on a state record (a device function writing through it)
    s0 = r.s0
    s1 = r["s1"] ^ s0
    r.s0 = ((s0 << uint64(24)) | (s0 >> uint64(40))) ^ s1 ^ (s1 << uint64(16))
    r.s1 = (s1 << uint64(37)) | (s1 >> uint64(27))
    return r.s0 + r.s1


def k_states(states, out):
    i = cuda.grid(1)
    if i < states.shape[0]:
        out[i] = xorshift_step(states[i])


def k_fields(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        r.x += 1
        a[i].v[1] = r.y * 2
        r.inner.b = r.inner.a + 0.5
        out[i] = r.x + r.y + r.v[0] + r.v[2] + a[i]["inner"]["b"]


def k_scalars(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        r.x += 1
        r.inner.b = r.inner.a + 0.5
        a[i]["y"] = r.y * 2  # y at offset 4: read and written with the alignment it has
        out[i] = r.x + r.y + a[i]["inner"]["b"]


def k_copy_records(a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        b[i] = a[a.shape[0] - 1 - i]  # a record's bytes (llvm.memmove)
        for j, r in enumerate(b[i:i + 1]):
            r.inner.b += j


def k_one_record(r, k):
    # a single record argument: the launcher passes a device copy and copies it back
    s = xorshift_step(r)
    r.s1 += k + s


STATE_T = from_dtype(STATE)
TABLE = np.zeros(4, ALIGNED)  # a global array of records: cuda.const.array_like
TABLE["y"] = [0.5, 1.5, 2.5, 3.5]


def k_memory_spaces(out):
    # shared, local, dynamic shared and const arrays of records
    i = cuda.threadIdx.x
    sh = cuda.shared.array(32, dtype=STATE_T)
    loc = cuda.local.array(2, ALIGNED)
    dyn = cuda.shared.array(0, dtype=STATE)
    tab = cuda.const.array_like(TABLE)
    sh[i].s0 = i
    loc[0].y = tab[i % 4].y
    loc[1] = loc[0]
    dyn[i].s1 = sh[i].s0 + uint64(1)
    cuda.syncthreads()
    out[i] = loc[1].y + sh[31 - i].s0 + dyn[i].s1 + len(dyn)


def expected_scalars(a):
    a = a.copy()
    a["x"] += 1
    a["inner"]["b"] = a["inner"]["a"] + 0.5
    a["y"] *= 2
    return a, a["x"] + a["y"] + a["inner"]["b"]


def expected_states(states):
    s = states.copy()
    s0, s1 = s["s0"].copy(), s["s1"] ^ s["s0"]
    with np.errstate(over="ignore"):
        s["s0"] = ((s0 << np.uint64(24)) | (s0 >> np.uint64(40))) ^ s1 ^ (s1 << np.uint64(16))
        s["s1"] = (s1 << np.uint64(37)) | (s1 >> np.uint64(27))
        return s, s["s0"] + s["s1"]


def expected_fields(a):
    a = a.copy()
    a["x"] += 1
    a["v"][:, 1] = a["y"] * 2
    a["inner"]["b"] = a["inner"]["a"] + 0.5
    out = a["x"] + a["y"] + a["v"][:, 0] + a["v"][:, 2] + a["inner"]["b"]
    return a, out


def make_fields(dt, n=37):
    a = np.zeros(n, dt)
    a["x"] = np.arange(n) - 5
    a["y"] = np.arange(n) * 0.25
    if "v" in dt.names:
        a["v"] = np.arange(3 * n).reshape(n, 3)
    a["inner"]["a"] = np.arange(n) % 256
    return a


def make_states(n=100):
    s = np.zeros(n, STATE)
    s["s0"] = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    s["s1"] = np.arange(n, dtype=np.uint64) + np.uint64(2 ** 63 + 12345)
    return s


@pytest.mark.parametrize("kernel, argtypes", [
    (k_states, (from_dtype(STATE)[:], uint64[:])),
    (k_one_record, (from_dtype(STATE), uint64)),
    (k_copy_records, (from_dtype(PACKED)[:], from_dtype(PACKED)[:])),
    (k_memory_spaces, (from_dtype(np.float64)[:],)),
    (k_scalars, (from_dtype(SCALARS)[:], from_dtype(np.float64)[:])),
    (k_fields, (from_dtype(ALIGNED)[::1], from_dtype(np.float64)[:])),
], ids=["states", "one_record", "copies", "memory_spaces", "packed", "aligned"])
def test_record_kernels_assemble(kernel, argtypes, assemble):
    ptx, resty = cuda.compile_ptx(kernel, argtypes)
    assert str(resty) == "none"
    assemble(ptx)


def test_misaligned_array_field_refused_on_cuda(nvvm):
    with pytest.raises(UnsupportedError, match="misaligned array field 'v'.*align=True"):
        cuda.compile_ptx(k_fields, (from_dtype(PACKED)[:], from_dtype(np.float64)[:]))


def test_misaligned_nested_record_refused_on_cuda(nvvm):
    inner = np.dtype([("a", "u1"), ("b", "f4")], align=True)  # its fields assume 4 bytes
    outer = np.dtype([("c", "u1"), ("inner", inner)])  # packed: inner at offset 1

    def nested(a, out):
        out[0] = a[0].inner.b

    with pytest.raises(UnsupportedError, match="misaligned record field 'inner'"):
        cuda.compile_ptx(nested, (from_dtype(outer)[:], from_dtype(np.float64)[:]))
    # inner at offset 4 of a packed dtype: its records themselves need not be 4-aligned
    packed4 = np.dtype([("c", "u4"), ("inner", inner)])
    with pytest.raises(UnsupportedError, match="misaligned record field"):
        cuda.compile_ptx(nested, (from_dtype(packed4)[:], from_dtype(np.float64)[:]))
    aligned = np.dtype([("c", "u4"), ("inner", inner)], align=True)
    ptx, _ = cuda.compile_ptx(nested, (from_dtype(aligned)[:], from_dtype(np.float64)[:]))
    assert ".entry" in ptx


def test_misaligned_field_view_refused_on_cuda(nvvm):
    def view(a, out):
        out[0] = a.y[0]  # y sits at offset 4 of a packed dtype: a misaligned float64 view

    with pytest.raises(UnsupportedError, match="misaligned field view 'y'"):
        cuda.compile_ptx(view, (from_dtype(PACKED)[:], from_dtype(np.float64)[:]))

    def aligned_view(a, out):
        out[0] = a.y[0]

    ptx, _ = cuda.compile_ptx(aligned_view, (from_dtype(ALIGNED)[:], from_dtype(np.float64)[:]))
    assert ".entry" in ptx


@pytest.mark.gpu
def test_states_on_gpu():
    host = make_states()
    d = cuda.to_device(host)
    out = cuda.device_array(host.shape[0], np.uint64)
    cuda.jit(k_states)[4, 32](d, out)
    want_states, want_out = expected_states(host)
    np.testing.assert_array_equal(out.copy_to_host(), want_out)
    back = d.copy_to_host()
    np.testing.assert_array_equal(back["s0"], want_states["s0"])
    np.testing.assert_array_equal(back["s1"], want_states["s1"])


@pytest.mark.gpu
@pytest.mark.parametrize("dt, kernel, expected", [
    (SCALARS, k_scalars, expected_scalars), (ALIGNED, k_fields, expected_fields),
], ids=["packed", "aligned"])
def test_fields_on_gpu(dt, kernel, expected):
    host = make_fields(dt)
    want, want_out = expected(host)
    out = np.zeros(host.shape[0])
    cuda.jit(kernel)[2, 32](host, out)  # NumPy arrays: copied in and back
    np.testing.assert_allclose(out, want_out)
    for name in dt.names:
        if name != "inner":
            np.testing.assert_array_equal(host[name], want[name])
    np.testing.assert_array_equal(host["inner"]["b"], want["inner"]["b"])


@pytest.mark.gpu
def test_single_record_argument_on_gpu():
    host = make_states(4)
    want_states, want_out = expected_states(host[2:3])
    cuda.jit(k_one_record)[1, 1](host[2], np.uint64(7))
    with np.errstate(over="ignore"):
        want_s1 = want_states["s1"][0] + np.uint64(7) + want_out[0]
    assert host[2]["s0"] == want_states["s0"][0] and host[2]["s1"] == want_s1
    assert host[1]["s0"] == make_states(4)[1]["s0"]  # only that record changed


def _numba_cuda_random_under_cujit():
    """numba-cuda's own cuda.random module (xoroshiro128+ over a record array), its source run
    with cujit in numba's place; skipped where numba-cuda is not installed."""
    import importlib.util
    try:
        spec = importlib.util.find_spec("numba.cuda.random")
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        pytest.skip("numba-cuda not installed")
    with open(spec.origin) as f:
        src = f.read()
    if "from numba import (" not in src:
        pytest.skip("this numba-cuda's random.py imports differently")
    src = src.replace("from numba import (", "from cujit import (")
    src = src.replace("config.ENABLE_CUDASIM", "False")
    ns = {"__name__": "numba_cuda_random_under_cujit"}
    exec(compile(src, spec.origin, "exec"), ns)
    return ns


def test_numba_cuda_random_runs_under_cujit(assemble):
    import numba.cuda.random as reference
    ns = _numba_cuda_random_under_cujit()
    assert ns["xoroshiro128p_dtype"] == STATE
    mine, theirs = np.zeros(6, STATE), np.zeros(6, STATE)
    ns["init_xoroshiro128p_states_cpu"](mine, 1234, 2)  # compiled by cujit (CPU)
    reference.init_xoroshiro128p_states_cpu(theirs, 1234, 2)
    assert mine.tobytes() == theirs.tobytes()
    got = [ns["xoroshiro128p_uniform_float64"](mine, 3) for _ in range(3)]
    assert got == [reference.xoroshiro128p_uniform_float64(theirs, 3) for _ in range(3)]
    uniform, normal = ns["xoroshiro128p_uniform_float32"], ns["xoroshiro128p_normal_float64"]

    def draw(states, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = uniform(states, i) + normal(states, i)

    ptx, _ = cuda.compile_ptx(draw, (from_dtype(STATE)[:], from_dtype(np.float64)[:]))
    assemble(ptx)


@pytest.mark.gpu
def test_numba_cuda_random_on_gpu():
    ns = _numba_cuda_random_under_cujit()
    states = np.zeros(64, STATE)
    ns["init_xoroshiro128p_states_cpu"](states, 42, 0)
    cpu_states = states.copy()
    uniform = ns["xoroshiro128p_uniform_float64"]

    @cuda.jit
    def draw(st, out):
        i = cuda.grid(1)
        if i < st.shape[0]:
            for j in range(out.shape[1]):
                out[i, j] = uniform(st, i)

    d = cuda.to_device(states)
    out = cuda.device_array((64, 4), np.float64)
    draw[2, 32](d, out)
    want = np.array([[uniform(cpu_states, i) for _ in range(4)] for i in range(64)])
    np.testing.assert_array_equal(out.copy_to_host(), want)
    assert d.copy_to_host().tobytes() == cpu_states.tobytes()


@pytest.mark.gpu
def test_memory_spaces_on_gpu():
    out = np.zeros(32)
    cuda.jit(k_memory_spaces)[1, 32, 0, 32 * STATE.itemsize](out)
    i = np.arange(32)
    np.testing.assert_array_equal(out, TABLE["y"][i % 4] + (31 - i) + (i + 1) + 32)
