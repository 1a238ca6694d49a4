"""cujit.cuda.random: numba-cuda's xoroshiro128+ generators for kernels (numba.cuda.random).

States live in a device array of ``xoroshiro128p_dtype`` (two uint64 fields, s0 and s1), one per
thread; ``create_xoroshiro128p_states(n, seed)`` makes them on the host exactly as numba-cuda
does (SplitMix64 of the seed, then each state 2**64 steps after the one before: C,
csrc/cuda/xoroshiro.c), so a seed gives numba-cuda's streams bit for bit. In a kernel,
``xoroshiro128p_uniform_float32(states, i)`` and the others draw from ``states[i]`` and advance
it; they are compiled functions callable from kernels and device functions (and on the CPU)."""
import math

import numpy as np

from .. import _core
from ..decorators import njit
from ..types import float32, float64, int64, uint32, uint64

__all__ = [
    "xoroshiro128p_dtype", "xoroshiro128p_type", "create_xoroshiro128p_states",
    "init_xoroshiro128p_states", "init_xoroshiro128p_state", "xoroshiro128p_next",
    "xoroshiro128p_jump", "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64",
]

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
xoroshiro128p_type = _core.typeof(np.zeros(1, xoroshiro128p_dtype)[0])

_TWO_PI_32 = np.float32(2 * math.pi)
_TWO_PI_64 = np.float64(2 * math.pi)
_JUMP = (np.uint64(0xbeac0467eba5facb), np.uint64(0xd86b048b86aa9922))
_SPLITMIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9),
             np.uint64(0x94D049BB133111EB))


@njit
def init_xoroshiro128p_state(states, index, seed):
    """states[index] from a 64-bit seed through SplitMix64 (s0 = s1)."""
    z = uint64(seed) + _SPLITMIX[0]
    z = (z ^ (z >> uint32(30))) * _SPLITMIX[1]
    z = (z ^ (z >> uint32(27))) * _SPLITMIX[2]
    z = z ^ (z >> uint32(31))
    i = int64(index)
    states[i]["s0"] = z
    states[i]["s1"] = z


@njit
def _rotl(x, k):
    return (x << k) | (x >> uint32(64 - k))


@njit
def xoroshiro128p_next(states, index):
    """The next uint64 of states[index], which advances."""
    i = int64(index)
    s0 = states[i]["s0"]
    s1 = states[i]["s1"]
    result = s0 + s1
    s1 = s1 ^ s0
    states[i]["s0"] = _rotl(s0, uint32(55)) ^ s1 ^ (s1 << uint32(14))
    states[i]["s1"] = _rotl(s1, uint32(36))
    return result


@njit
def xoroshiro128p_jump(states, index):
    """Advances states[index] by 2**64 steps."""
    i = int64(index)
    s0 = uint64(0)
    s1 = uint64(0)
    for word in range(2):
        bits = _JUMP[word]
        for b in range(64):
            if bits & (uint64(1) << uint32(b)):
                s0 ^= states[i]["s0"]
                s1 ^= states[i]["s1"]
            xoroshiro128p_next(states, i)
    states[i]["s0"] = s0
    states[i]["s1"] = s1


@njit
def _unit_float64(x):
    # the top 53 bits over 2**53: [0, 1)
    return (x >> uint32(11)) * (float64(1) / (uint64(1) << uint32(53)))


@njit
def xoroshiro128p_uniform_float32(states, index):
    """A float32 in [0, 1) from states[index], which advances."""
    return float32(_unit_float64(xoroshiro128p_next(states, index)))


@njit
def xoroshiro128p_uniform_float64(states, index):
    """A float64 in [0, 1) from states[index], which advances."""
    return _unit_float64(xoroshiro128p_next(states, index))


@njit
def xoroshiro128p_normal_float32(states, index):
    """A standard normal float32 (Box-Muller over two float32 draws)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float32(2.0) * math.log(u1)) * math.cos(_TWO_PI_32 * u2)


@njit
def xoroshiro128p_normal_float64(states, index):
    """A standard normal float64; from two float32 draws, as numba-cuda's (bit for bit)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float64(2.0) * math.log(u1)) * math.cos(_TWO_PI_64 * u2)


def _check_states(states):
    if getattr(states, "dtype", None) != xoroshiro128p_dtype or len(states.shape) != 1:
        raise TypeError(f"states must be a 1-D array of xoroshiro128p_dtype, not "
                        f"{getattr(states, 'dtype', type(states).__name__)!r}")


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Fills the device array `states` (n states) for seed: each state 2**64 steps after the
    one before, the first subsequence_start * 2**64 steps into the seed's stream."""
    _check_states(states)
    host = np.empty(states.shape, dtype=xoroshiro128p_dtype)
    _core.xoroshiro128p_init(host, _as_int(seed, "seed"),
                             _as_int(subsequence_start, "subsequence_start"))
    states.copy_to_device(host, stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of n states for seed (see init_xoroshiro128p_states)."""
    from . import device_array
    n = _as_int(n, "n")
    if n < 0:
        raise ValueError(f"n must not be negative, got {n}")
    states = device_array(n, dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


def _as_int(v, what):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{what} must be an int, not {type(v).__name__}")
    return int(v)
