"""context.compile_internal of the low-level extension API for non-scalar types: arrays and
tuples as arguments, an extension struct (numba's Interval) passed in and made by the
compiled implementation, its exceptions propagating; a result holding an array refused.
Differential against plain Python. (CUDA code: tests/cuda_kernels/test_extending_lowlevel_cuda.py.)"""
import numpy as np
import pytest

from cujit import njit, types
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


def test_compile_internal_result_holding_an_array_is_refused():
    @intrinsic
    def shifted(typingctx, a):
        def codegen(context, builder, sig, args):
            return context.compile_internal(builder, lambda a: a + 1.0, sig, args)
        return a(a), codegen

    with pytest.raises(LoweringError) as info:
        njit(lambda a: shifted(a))(np.zeros(2))
    msg = str(info.value)
    assert "@intrinsic" in msg and "shifted" in msg
    assert "compile_internal: a result of type array(float64, 1d, C) is not supported" in msg
    assert isinstance(info.value.__cause__, NotImplementedError)


def test_compile_internal_arguments_are_checked():
    @intrinsic
    def mismatched(typingctx, x):
        def codegen(context, builder, sig, args):
            return context.compile_internal(builder, lambda a: a, types.float64(types.int64),
                                            args)  # a double where the signature says int64
        return types.float64(types.float64), codegen

    with pytest.raises(LoweringError, match="argument 0 is not of its signature's type int64"):
        njit(lambda x: mismatched(x))(1.0)
