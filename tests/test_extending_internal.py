"""context.compile_internal of the low-level extension API for non-scalar types: arrays and
tuples as arguments, an extension struct (numba's Interval) passed in and made by the
compiled implementation, its exceptions propagating; array results held until the caller
returns (allocation counters back where they were).
Differential against plain Python. (CUDA code: tests/cuda_kernels/test_extending_lowlevel_cuda.py.)"""
import gc

import numpy as np
import pytest

from cujit import njit, types
from cujit.core.runtime import rtsys
from cujit.errors import LoweringError
from cujit.extending import intrinsic

from interval_extension import Interval, interval_type


def weighted(a, w):
    if a.shape[0] == 0:
        raise ValueError("empty array")
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * w[0] + w[1]
    return s


@intrinsic
def weighted_sum(typingctx, a, w):  # an array and a tuple in, a float out
    sig = types.float64(a, w)

    def codegen(context, builder, sig, args):
        return context.compile_internal(builder, weighted, sig, args)
    return sig, codegen


def widen(iv, d):
    return Interval(iv.lo - d, iv.hi + d)


@intrinsic
def widened(typingctx, iv, d):  # an extension struct in, one made by the implementation out
    sig = interval_type(interval_type, types.float64)

    def codegen(context, builder, sig, args):
        return context.compile_internal(builder, widen, sig, args)
    return sig, codegen


def minmax(a):
    return a.min(), a.max()


@intrinsic
def extremes(typingctx, a):  # a tuple result
    sig = types.UniTuple(a.dtype, 2)(a)

    def codegen(context, builder, sig, args):
        return context.compile_internal(builder, minmax, sig, args)
    return sig, codegen


@njit
def use_all(a, w, lo, hi):
    iv = widened(Interval(lo, hi), 0.5)
    return weighted_sum(a, w), iv.lo, iv.hi, iv.width, extremes(a)


@pytest.mark.parametrize("a,w,lo,hi", [(np.arange(5.0), (2.0, 1.0), 1.0, 3.0),
                                       (np.array([-1.5, 7.0, 0.25]), (0.5, -2.0), -4.0, 4.0)])
def test_compile_internal_of_arrays_tuples_and_structs(a, w, lo, hi):
    iv = widen(Interval(lo, hi), 0.5)
    want = (weighted(a, w), iv.lo, iv.hi, iv.width, minmax(a))
    assert use_all(a, w, lo, hi) == want


def test_compile_internal_exceptions_propagate():
    with pytest.raises(ValueError, match="empty array"):
        use_all(np.zeros(0), (1.0, 1.0), 0.0, 1.0)


@intrinsic
def shifted(typingctx, a):  # an array result: held by the caller until it returns
    def codegen(context, builder, sig, args):
        return context.compile_internal(builder, lambda a: a + 1.0, sig, args)
    return a(a), codegen


@intrinsic
def ones_total(typingctx, n):  # an array made and used inside the lowering only
    def codegen(context, builder, sig, args):
        arr = types.float64[::1]
        ones = context.compile_internal(builder, lambda n: np.ones(n), arr(types.int64), args)
        return context.compile_internal(builder, lambda a: a.sum() * 2.0,
                                        types.float64(arr), [ones])
    return types.float64(types.int64), codegen


@njit
def use_arrays(a, n):
    b = a
    for i in range(n):
        b = shifted(b)  # each call's array replaced by the next one
    return b, ones_total(n)


def live():
    gc.collect()
    stats = rtsys.get_allocation_stats()
    return stats.alloc - stats.free


def test_compile_internal_array_results_are_released():
    a = np.arange(3.0)
    use_arrays(a, 2)
    before = live()
    b, t = use_arrays(a, 3)
    assert b.tolist() == (a + 3.0).tolist() and t == 6.0 and a.tolist() == [0.0, 1.0, 2.0]
    assert live() == before + 1  # b, returned
    del b
    assert live() == before
    assert njit(lambda n: ones_total(n))(4) == 8.0 and live() == before


def test_compile_internal_arguments_are_checked():
    @intrinsic
    def mismatched(typingctx, x):
        def codegen(context, builder, sig, args):
            return context.compile_internal(builder, lambda a: a, types.float64(types.int64),
                                            args)  # a double where the signature says int64
        return types.float64(types.float64), codegen

    with pytest.raises(LoweringError, match="argument 0 is not of its signature's type int64"):
        njit(lambda x: mismatched(x))(1.0)
