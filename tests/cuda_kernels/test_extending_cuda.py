"""cujit.extending in CUDA code: the overloads, register_jitable helpers, methods and
attributes of extending_catalogue.py called from a kernel and from a device function (the
implementations become device functions), their PTX through ptxas, target='cuda' overloads
chosen over generic ones, a clear error for an implementation CUDA cannot compile; on the GPU,
the kernels run and are compared with NumPy."""
import math
import re

import numpy as np
import pytest

from cujit import cuda, float64, int64, njit
from cujit.errors import UnsupportedError

from extending_catalogue import (clamp, floor_divmod, hyp, kind_of, norm2, offset, poly,
                                 safe_div, scaled, sq, twice_clamped, where_am_i)


@cuda.jit(device=True)
def dev_mix(x, a):
    """Extensions inside a device function."""
    q, r = floor_divmod(int64(x * 10.0), 3)
    return (clamp(x, 0.0, 2.0) + scaled(x) + scaled(x, factor=3.0) + kind_of(x) + norm2(x)
            + offset(x) + offset(x, 1.0) + twice_clamped(x) + hyp(x, 1.0) + poly(x, c1=2.0)
            + sq(x) + q + r + a.first + x.clip01())


def extensions_kernel(out, a, where):
    i = cuda.grid(1)
    if i < out.shape[0]:
        x = a[i]
        out[i] = (dev_mix(x, a) + norm2(a) + safe_div(x, 0.5) + a.sum_of_squares()
                  + a.scaled_sum(scale=2.0) + a.nbytes2 + (x + 1j).abs2 + (i, 2, 3).total
                  + abs((i, -2)) + np.sum((i, 1)))
        where[i] = where_am_i() + i.is_even()


SIG = (float64[::1], float64[::1], int64[::1])


def expected_dev(x, a):
    """What dev_mix computes, in Python."""
    q, r = divmod(int(x * 10.0), 3)
    return (clamp(x, 0.0, 2.0) + 2 * x + 3.0 * x + 2 + abs(x) + x + x + 1.0 + twice_clamped(x)
            + math.hypot(x, 1.0) + poly(x, c1=2.0) + x * x + q + r + a[0]
            + min(max(x, 0.0), 1.0))


def expected(a, target=2):
    """What extensions_kernel computes, in NumPy/Python (`target`: where_am_i's answer)."""
    out = np.empty_like(a)
    where = np.empty(a.shape[0], np.int64)
    for i, x in enumerate(a):
        out[i] = (expected_dev(x, a) + norm2(a) + x / 0.5 + np.sum(a * a) + 2.0 * a.sum()
                  + a.nbytes + abs(x + 1j) ** 2 + (i + 5) + (i + 2) + (i + 1))
        where[i] = target + (i % 2 == 0)
    return out, where


A = np.array([0.25, 1.5, -0.75, 3.0, 0.0, 2.25, -1.0])


def test_expectations_hold_on_the_cpu():
    """The GPU tests' expected values, against the same code compiled for the CPU."""
    dev = njit(dev_mix.py_func)

    @njit
    def body(out, a, where):
        for i in range(out.shape[0]):
            x = a[i]
            out[i] = (dev(x, a) + norm2(a) + safe_div(x, 0.5) + a.sum_of_squares()
                      + a.scaled_sum(scale=2.0) + a.nbytes2 + (x + 1j).abs2 + (i, 2, 3).total
                      + abs((i, -2)) + np.sum((i, 1)))
            where[i] = where_am_i() + i.is_even()
    out, where = np.zeros_like(A), np.zeros(A.shape[0], np.int64)
    body(out, A, where)
    want, want_where = expected(A, target=1)  # the CPU's overload of where_am_i
    np.testing.assert_allclose(out, want, rtol=1e-12)
    np.testing.assert_array_equal(where, want_where)


def test_extensions_in_kernel_and_device_function_assemble(assemble):
    ptx, _ = cuda.compile_ptx(extensions_kernel, SIG)
    assert ".visible .entry" in ptx
    assemble(ptx)


def test_extension_device_function_alone_assembles(assemble):
    ptx, _ = cuda.compile_ptx(dev_mix.py_func if hasattr(dev_mix, "py_func") else dev_mix,
                              (float64, float64[::1]), device=True)
    assert ".func" in ptx
    assemble(ptx)


def test_cuda_target_overload_is_chosen_in_kernels(assemble):
    def k(out):
        out[0] = where_am_i()
    ptx, _ = cuda.compile_ptx(k, (int64[::1],))
    assert re.search(r"mov\.u64\s+%rd\d+, 2;", ptx)  # target='cuda' (the CPU's gives 1)
    assemble(ptx)


def test_implementation_cuda_cannot_compile_names_the_extension():
    def k(out, a, idx):
        out[0] = a.take(idx)[0]  # np.empty in the implementation: not in CUDA code
    with pytest.raises(UnsupportedError) as info:
        cuda.compile_ptx(k, (float64[::1], float64[::1], int64[::1]))
    msg = str(info.value)
    assert "@overload_method array_take" in msg and "np.empty() is not supported" in msg
    assert "out[0] = a.take(idx)[0]" in msg


@pytest.mark.gpu
def test_extensions_kernel_on_the_gpu():
    a = A
    kernel = cuda.jit(extensions_kernel)
    out = np.zeros_like(a)
    where = np.zeros(a.shape[0], np.int64)
    kernel[1, 32](out, a, where)
    want, want_where = expected(a)
    np.testing.assert_allclose(out, want, rtol=1e-12)
    np.testing.assert_array_equal(where, want_where)


@pytest.mark.gpu
def test_device_function_with_extensions_on_the_gpu():
    @cuda.jit
    def k(out, a):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = dev_mix(a[i], a)
    a = np.array([0.5, 2.5, -1.5])
    out = np.zeros_like(a)
    k[1, 8](out, a)
    for i, x in enumerate(a):
        assert math.isclose(out[i], expected_dev(x, a), rel_tol=1e-12)
