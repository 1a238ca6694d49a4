"""Chains of element-wise operators on arrays fuse into one loop (issue 10; lower_array_fuse.c):
the results equal NumPy's for random chains over mixed dtypes, broadcasting shapes, scalars,
comparisons and non-contiguous operands; a fused chain makes one array (the allocation counter
proves the temporaries are gone); and nothing fuses across what could change an operand (a
call that writes it, `x := ...`) or into an in-place operator."""
import warnings

import numpy as np
import pytest

from jitcache import jitted
from cujit import _core, njit

numba = pytest.importorskip("numba")

pytestmark = pytest.mark.usefixtures("nrt_balanced")


def allocations(f, *args):
    before = _core.nrt_stats()[0]
    r = f(*args)
    return r, _core.nrt_stats()[0] - before


def five(a, b, c, d, e):
    return a * b + c * d - e


def mixed(i, f, u8):
    return (i * 3) // 2 + f / (u8 + 1) - (-i)


def masks(a, b):
    return ((a > 0.5) & (b < 0.25)) | ~(a == b)


def scalars(a, x, n):
    return (a * x + n) * (a - x) / 2.0


def broadcasts(col, row, m):
    return (col + row) * m - row


def unary_chain(a):
    return -(-(-a)) + np.abs(a) * 2


CASES = [
    (five, lambda r: [r.random(37) for _ in range(5)], 1),
    (five, lambda r: [r.random((5, 7))[::2, 1::3] for _ in range(5)], 1),
    (mixed, lambda r: [r.integers(-9, 9, 11), r.random(11), r.integers(0, 250, 11).astype(
        np.uint8)], 1),
    (masks, lambda r: [r.random((4, 6)), r.random((4, 6)).T.copy().T], 1),
    (scalars, lambda r: [r.random(10).astype(np.float32), 1.5, 3], 1),
    (broadcasts, lambda r: [r.random((6, 1)), r.random(5), r.random((3, 6, 5))], 1),
    (unary_chain, lambda r: [r.integers(-5, 5, (3, 4)).astype(np.int16)], 1),
]


@pytest.mark.parametrize("f, make, arrays_made", CASES,
                         ids=[c[0].__name__ + str(i) for i, c in enumerate(CASES)])
def test_fused_chains_match_numpy_and_make_one_array(f, make, arrays_made):
    rng = np.random.default_rng(7)
    args = make(rng)
    got, made = allocations(njit(f), *args)
    with np.errstate(all="ignore"):
        want = f(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numba_type = numba.njit(f)(*args).dtype
    assert got.dtype == numba_type
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got.shape == want.shape
    assert made == arrays_made  # the temporaries were never made


def test_fused_chain_broadcast_error_is_numpys():
    with pytest.raises(ValueError, match="broadcast"):
        jitted(five)(np.ones(3), np.ones(3), np.ones(4), np.ones(4), np.ones(3))


@njit
def write_first(a):
    a[0] = 100.0
    return 1.0


def call_between(a):
    return a * 2 + write_first(a)


def test_no_fusion_across_a_call_that_writes_an_operand():
    a = np.arange(4.0)
    got = jitted(call_between)(a)
    np.testing.assert_array_equal(got, [1.0, 3.0, 5.0, 7.0])  # a*2 taken before the call
    assert a[0] == 100.0


def walrus(a, b):
    return a * 2 + (a := b)


def test_no_fusion_across_a_walrus_that_rebinds_an_operand():
    a, b = np.arange(4.0), np.full(4, 10.0)
    np.testing.assert_array_equal(jitted(walrus)(a, b), walrus(a, b))


def inplace_reversed(a):
    a += a[::-1] * 2
    return a


def test_inplace_operator_reads_its_operand_whole():
    a = np.arange(6.0)
    np.testing.assert_array_equal(jitted(inplace_reversed)(a.copy()), inplace_reversed(a.copy()))


def reused(a, b):
    t = a * b
    return t + t * 2, t


def test_named_intermediates_are_arrays_of_their_own():
    a, b = np.arange(5.0), np.arange(5.0) + 1
    got, t = jitted(reused)(a, b)
    np.testing.assert_array_equal(got, (a * b) * 3)
    np.testing.assert_array_equal(t, a * b)


def zero_d(a, b):
    return a * b + a


def test_zero_d_chains_give_numbers():
    got = jitted(zero_d)(np.array(2.0), np.array(3.0))
    assert got == 8.0 and isinstance(got, float)


def long_chain(a):
    return (((((((((((((((((a + 1) * a) - a) + a) * 2) + a) - a) * a) + a) + a) - a) + a)
                      * a) + a) + a) + a) + a)


def test_chains_longer_than_one_loop_takes_still_compute():
    a = np.linspace(0.0, 1.0, 9)
    np.testing.assert_allclose(jitted(long_chain)(a), long_chain(a))
