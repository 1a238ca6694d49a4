"""The low-level extension API in CUDA code: numba's Interval (interval_extension.py) made
inside a kernel and inside a device function, `width` typed and lowered by the CUDA
registries (cujit.cuda.cudadecl.registry.register_attr, cujit.cuda.cudaimpl.lower_attr),
an intrinsic, context.compile_internal (an array and an Interval in, a tuple out: a device
function); PTX through ptxas; an Interval argument refused as numba does; on the GPU, the
kernels run and compared with Python."""
import re

import numpy as np
import pytest

from cujit import cuda, float64, types
from cujit.errors import UnsupportedError
from cujit.extending import intrinsic, overload_attribute
from cujit.llvm import ir

from interval_extension import Interval, IntervalType, interval_type


@intrinsic
def twice(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.fmul(args[0], ir.Constant(ir.DoubleType(), 2.0))
    return types.float64(types.float64), codegen


@overload_attribute(IntervalType, "mid")  # the high-level API on the new type, in CUDA code
def interval_mid(iv):
    return lambda iv: (iv.lo + iv.hi) / 2


@cuda.jit(device=True)
def dev_width(lo, hi):
    return Interval(lo, hi).width


@cuda.jit(device=True)
def dev_mid(iv):  # an Interval argument of a device function
    return iv.mid


def interval_kernel(x1, x2, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        region = Interval(x1[i], x2[i])
        out[i] = (region.width + twice(region.lo) + dev_width(region.hi, x2[i] + 1.0)
                  + dev_mid(region))


SIG = (float64[::1], float64[::1], float64[::1])


def expected(x1, x2):
    return np.array([Interval(a, b).width + 2 * a + Interval(b, b + 1.0).width + (a + b) / 2
                     for a, b in zip(x1, x2)])


def test_expectation_holds_on_the_cpu():
    from cujit import njit
    x1, x2 = np.array([0.0, 1.5]), np.array([1.0, 4.0])
    mid = njit(lambda a, b: Interval(a, b).mid)
    assert [mid(a, b) for a, b in zip(x1, x2)] == [(a + b) / 2 for a, b in zip(x1, x2)]
    assert expected(x1, x2)[1] == 2.5 + 3.0 + 1.0 + 2.75


def test_interval_kernel_assembles(assemble):
    ptx, ret = cuda.compile_ptx(interval_kernel, SIG)
    assert str(ret) == "none" and ".visible .entry" in ptx
    assert re.search(r"sub\.(rn\.)?f64", ptx)  # the CUDA lowering's fsub of width
    assemble(ptx)


def test_interval_argument_to_a_kernel_is_refused():
    def k(iv, out):
        out[0] = iv.lo
    with pytest.raises(UnsupportedError, match="extension types cannot be passed to CUDA "
                                               "kernels"):
        cuda.compile_ptx(k, (interval_type, float64[::1]))


@pytest.mark.gpu
def test_interval_kernel_on_the_gpu():
    x1 = np.array([0.0, 1.5, -2.0, 4.0])
    x2 = np.array([1.0, 4.0, 3.0, 4.5])
    out = np.zeros_like(x1)
    cuda.jit(interval_kernel)[1, 32](x1, x2, out)
    np.testing.assert_allclose(out, expected(x1, x2), rtol=1e-15)


# ---- context.compile_internal in CUDA code: a device function of the implementation ----

def _row_stats(a, lo):
    s = 0.0
    for v in a:
        if v > lo.hi:
            s += v
    return s, Interval(lo.lo, s)


@intrinsic
def row_stats(typingctx, a, iv):  # an array and an extension struct in, a tuple out
    sig = types.Tuple((types.float64, interval_type))(a, iv)

    def codegen(context, builder, sig, args):
        return context.compile_internal(builder, _row_stats, sig, args)
    return sig, codegen


def internal_kernel(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        s, iv = row_stats(a, Interval(0.0, a[i]))
        out[i] = s + iv.width


def expected_internal(a):  # the same Python run by the interpreter, on Interval objects
    return np.array([s + iv.width for s, iv in (_row_stats(a, Interval(0.0, x)) for x in a)])


def test_compile_internal_kernel_assembles(assemble):
    ptx, _ = cuda.compile_ptx(internal_kernel, (float64[::1], float64[::1]))
    assert ".visible .entry" in ptx and re.search(r"setp\.gt\.f64", ptx)  # v > lo.hi, inlined
    assemble(ptx)


def test_compile_internal_tuple_of_an_extension_on_the_cpu_is_refused():
    # a CPU overload returning a tuple holding an extension value has no wrapper yet
    from cujit import njit
    from cujit.errors import LoweringError

    @njit
    def cpu_internal(a):
        return row_stats(a, Interval(0.0, 1.0))[0]
    with pytest.raises(LoweringError, match="extension types inside tuples or lists cannot be "
                                            "passed to or returned from a jitted function"):
        cpu_internal(np.ones(2))
    assert expected_internal(np.array([1.0, 3.0, 2.0])).tolist() == [10.0, 0.0, 6.0]


@pytest.mark.gpu
def test_compile_internal_kernel_on_the_gpu():
    a = np.array([1.0, 3.0, 2.0, -4.0, 2.5])
    out = np.zeros_like(a)
    cuda.jit(internal_kernel)[1, 32](a, out)
    np.testing.assert_allclose(out, expected_internal(a), rtol=1e-15)


# ---- an extension value holding an array (a StructModel member), made in a kernel ----

def _holder_kernel():
    from test_extending_arrays import Holder

    def k(a, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            h = Holder(a, 2.0)
            out[i] = h.data[i] * h.scale + h.data.shape[0]
    return k


def test_holder_kernel_assembles(assemble):
    ptx, _ = cuda.compile_ptx(_holder_kernel(), (float64[::1], float64[::1]))
    assemble(ptx)


@pytest.mark.gpu
def test_holder_kernel_on_the_gpu():
    a = np.array([1.0, -2.0, 0.5])
    out = np.zeros_like(a)
    cuda.jit(_holder_kernel())[1, 32](a, out)
    assert out.tolist() == [2.0 * x + 3 for x in a]


# ---- a function template for CUDA code only (cudadecl.registry.register_global) ----

def cube(x):
    return x * x * x


def _register_cube():
    from cujit.core.typing.templates import ConcreteTemplate, signature
    from cujit.cuda.cudadecl import registry as cuda_registry
    from cujit.cuda.cudaimpl import lower as cuda_lower

    @cuda_registry.register_global(cube)
    class CubeTyping(ConcreteTemplate):
        cases = [signature(types.float64, types.float64)]

    @cuda_lower(cube, types.float64)
    def lower_cube(context, builder, sig, args):
        return builder.fmul(builder.fmul(args[0], args[0]), args[0])


_register_cube()


def cube_kernel(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = cube(a[i]) + cube(2)  # an int64 converted to the case's float64


def test_cuda_only_function_template(assemble):
    from cujit import njit
    from cujit.errors import TypingError
    ptx, _ = cuda.compile_ptx(cube_kernel, (float64[::1], float64[::1]))
    assert re.search(r"mul(\.rn)?\.f64", ptx)
    assemble(ptx)
    with pytest.raises(TypingError):  # not typed in CPU code
        njit(lambda x: cube(x))(2.0)


@pytest.mark.gpu
def test_cuda_only_function_template_on_the_gpu():
    a = np.array([1.0, -2.0, 0.5])
    out = np.zeros_like(a)
    cuda.jit(cube_kernel)[1, 32](a, out)
    assert out.tolist() == [x ** 3 + 8.0 for x in a]


def _templates_kernel():
    from test_extending_setattr import hypot2, twice  # infer_global templates, any target

    def k(a, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = hypot2(a[i], 2.0) + twice(a[i]) + twice(i)
    return k


def test_infer_global_templates_in_a_kernel(assemble):
    ptx, _ = cuda.compile_ptx(_templates_kernel(), (float64[::1], float64[::1]))
    assemble(ptx)


@pytest.mark.gpu
def test_infer_global_templates_on_the_gpu():
    a = np.array([1.0, -2.0, 0.5])
    out = np.zeros_like(a)
    cuda.jit(_templates_kernel())[1, 32](a, out)
    assert out.tolist() == [x * x + 4.0 + 2 * x + 2 * i for i, x in enumerate(a)]


# ---- obj.attr = v (lower_setattr, lower_setattr_generic) in CUDA code ----

def _device_move():
    from test_extending_setattr import move_at
    return cuda.jit(device=True)(move_at)


dev_move_at = _device_move()


def setattr_kernel(addr, v):
    if cuda.grid(1) == 0:
        dev_move_at(addr, v)


def test_setattr_in_a_kernel_assembles(assemble):
    ptx, _ = cuda.compile_ptx(setattr_kernel, (types.int64, float64))
    assert len(re.findall(r"st(\.global)?\.f64", ptx)) >= 3  # x, y, z stored through the pointer
    assemble(ptx)


@pytest.mark.gpu
def test_setattr_in_a_kernel_on_the_gpu():
    d = cuda.to_device(np.zeros(3))
    cuda.jit(setattr_kernel)[1, 32](d.__cuda_array_interface__["data"][0], 1.5)
    assert d.copy_to_host().tolist() == [1.5, 3.0, 2.0]
