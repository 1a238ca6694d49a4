"""cujit.cuda.random (numba-cuda's xoroshiro128+): the host states bit for bit against
numba-cuda's own CPU initialiser, the device functions on the CPU against a NumPy model of the
algorithm, their PTX through ptxas, and on the GPU every draw against numba-cuda's kernels for
the same seed (bit for bit)."""
import numpy as np
import pytest

import cujit
from cujit import cuda
from cujit.cuda import random as R

SEEDS = [(1, 0, 0), (8, 42, 0), (300, 12345, 2), (5, -1, 1), (3, 2**63 - 1, 0), (0, 7, 0)]


def states_on_host(n, seed, sub=0):
    host = np.empty(n, R.xoroshiro128p_dtype)
    cujit._core.xoroshiro128p_init(host, seed, sub)
    return host


@pytest.mark.parametrize("n, seed, sub", SEEDS)
def test_initial_states_are_numba_cudas(n, seed, sub):
    numba_random = pytest.importorskip("numba.cuda.random")
    want = np.empty(n, numba_random.xoroshiro128p_dtype)
    numba_random.init_xoroshiro128p_states_cpu(want, seed, sub)
    assert states_on_host(n, seed, sub).tobytes() == want.tobytes()


M64 = (1 << 64) - 1


def model_next(s0, s1):
    """xoroshiro128+ in Python integers: (result, s0', s1')."""
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64  # noqa: E731
    result = (s0 + s1) & M64
    s1 ^= s0
    return result, rotl(s0, 55) ^ s1 ^ ((s1 << 14) & M64), rotl(s1, 36)


@cujit.njit
def draw_all(states, out_u64, out_f32, out_f64, out_n32, out_n64):
    for i in range(states.shape[0]):
        out_u64[i] = R.xoroshiro128p_next(states, i)
        out_f32[i] = R.xoroshiro128p_uniform_float32(states, i)
        out_f64[i] = R.xoroshiro128p_uniform_float64(states, i)
        out_n32[i] = R.xoroshiro128p_normal_float32(states, i)
        out_n64[i] = R.xoroshiro128p_normal_float64(states, i)


def test_device_functions_follow_the_algorithm_on_the_cpu():
    states = states_on_host(16, 2024)
    model = [(int(s["s0"]), int(s["s1"])) for s in states]
    outs = [np.empty(16, t) for t in ("u8", "f4", "f8", "f4", "f8")]
    draw_all(states, *outs)
    for i, (s0, s1) in enumerate(model):
        r, s0, s1 = model_next(s0, s1)
        assert outs[0][i] == r
        r, s0, s1 = model_next(s0, s1)
        assert outs[1][i] == np.float32((r >> 11) * 2.0 ** -53)
        r, s0, s1 = model_next(s0, s1)
        assert outs[2][i] == (r >> 11) * 2.0 ** -53
        s0, s1 = model_next(*model_next(s0, s1)[1:])[1:]  # a normal draw takes two
        s0, s1 = model_next(*model_next(s0, s1)[1:])[1:]
        assert (int(states[i]["s0"]), int(states[i]["s1"])) == (s0, s1)
    assert np.all(np.isfinite(outs[3])) and np.all(np.isfinite(outs[4]))


def test_jump_is_the_spacing_of_the_states():
    states = states_on_host(3, 99)
    first = states[:1].copy()
    cujit.njit(lambda s: R.xoroshiro128p_jump(s, 0))(first)
    assert first.tobytes() == states[1:2].tobytes()


def test_argument_errors():
    with pytest.raises(TypeError, match="seed must be an int"):
        cujit._core.xoroshiro128p_init(states_on_host(1, 0), 1.5, 0)
    with pytest.raises(ValueError, match="subsequence_start must not be negative"):
        cujit._core.xoroshiro128p_init(states_on_host(1, 0), 1, -1)
    with pytest.raises(ValueError, match="16 bytes each"):
        cujit._core.xoroshiro128p_init(np.empty(3), 1, 0)
    with pytest.raises(TypeError, match="xoroshiro128p_dtype"):
        R.init_xoroshiro128p_states(np.empty(3), 1)


KERNEL = """
def k(states, u64, f32, f64, n32, n64):
    i = cuda.grid(1)
    if i < states.shape[0]:
        for j in range(4):
            u64[i, j] = xoroshiro128p_next(states, i)
            f32[i, j] = xoroshiro128p_uniform_float32(states, i)
            f64[i, j] = xoroshiro128p_uniform_float64(states, i)
            n32[i, j] = xoroshiro128p_normal_float32(states, i)
            n64[i, j] = xoroshiro128p_normal_float64(states, i)
"""
OUT_DTYPES = ("u8", "f4", "f8", "f4", "f8")


def kernel_source(cuda_module, random_module):
    """The same kernel over either library (its own cuda and random functions)."""
    ns = {"cuda": cuda_module}
    ns.update({k: v for k, v in vars(random_module).items() if k.startswith("xoroshiro128p_")})
    exec(KERNEL, ns)
    return ns["k"]


def test_kernel_ptx_assembles(assemble):
    rec = cujit.typeof(np.zeros(1, R.xoroshiro128p_dtype))
    sig = (rec,) + tuple(cujit.typeof(np.zeros((1, 4), t)) for t in OUT_DTYPES)
    ptx, _ = cuda.compile_ptx(kernel_source(cuda, R), sig)
    assemble(ptx)


@pytest.mark.gpu
def test_streams_are_numba_cudas_bit_for_bit():
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack  # numba-cuda 0.30 with NumPy 2.5
    numba_cuda = pytest.importorskip("numba.cuda")
    import numba.cuda.random as NR
    n = 2000
    for seed in (0, 1, 12345):
        ours = R.create_xoroshiro128p_states(n, seed)
        theirs = NR.create_xoroshiro128p_states(n, seed)
        assert ours.copy_to_host().tobytes() == theirs.copy_to_host().tobytes()
        outs = [[np.zeros((n, 4), t) for t in OUT_DTYPES] for _ in range(2)]
        kc = cuda.jit(kernel_source(cuda, R))
        kn = numba_cuda.jit(kernel_source(numba_cuda, NR))
        d_ours = [cuda.to_device(o) for o in outs[0]]
        kc[(n + 127) // 128, 128](ours, *d_ours)
        d_theirs = [numba_cuda.to_device(o) for o in outs[1]]
        kn[(n + 127) // 128, 128](theirs, *d_theirs)
        for a, b in zip(d_ours, d_theirs):
            assert a.copy_to_host().tobytes() == b.copy_to_host().tobytes()
        assert ours.copy_to_host().tobytes() == theirs.copy_to_host().tobytes()
