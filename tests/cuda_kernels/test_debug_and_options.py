"""debug=True (exception record, bounds checks, Python error model), lineinfo, options,
inspection and the host-side exception made from a kernel's record."""
import io
import re

import pytest

from cujit import _core, cuda
from cujit.errors import TypingError


def reciprocal(x):
    i = cuda.grid(1)
    if i > x.shape[0]:  # the course's off-by-one
        return
    x[i] = 1 / x[i]


def test_debug_records_exceptions_with_thread_and_block(assemble):
    ptx, _ = cuda.compile_ptx(reciprocal, "void(float64[:])", debug=True)
    assert "cj_exc_info" in ptx
    for reg in ("%tid.x", "%tid.y", "%tid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z"):
        assert reg in ptx
    assemble(ptx)


def test_without_debug_no_checks(assemble):
    ptx, _ = cuda.compile_ptx(reciprocal, "void(float64[:])")
    assert "cj_exc_info" not in ptx
    # numpy's error model: 1 / 0 is inf, no branch to an error path, no bounds check
    assert "setp.eq.f64" not in ptx
    assemble(ptx)


def test_debug_checks_bounds_and_zero_division():
    plain, _ = cuda.compile_ptx(reciprocal, "void(float64[:])")
    debug, _ = cuda.compile_ptx(reciprocal, "void(float64[:])", debug=True)
    # the debug version compares the index with the shape and the divisor with zero
    assert debug.count("setp") > plain.count("setp") + 1


def test_exception_from_record_names_thread_and_block():
    exc = _core.cuda_exception((5, 10, 0, 0, 0, 0, 0))  # CJ_EXC_INDEX
    assert isinstance(exc, IndexError)
    assert str(exc) == "tid=[10, 0, 0] ctaid=[0, 0, 0]: index is out of bounds"
    exc = _core.cuda_exception((3, 0, 0, 256, 0, 0, 3906))  # float division by zero
    assert isinstance(exc, ZeroDivisionError)
    assert str(exc) == "tid=[0, 0, 256] ctaid=[0, 0, 3906]: division by zero"
    assert _core.cuda_exception((0, 0, 0, 0, 0, 0, 0)) is None


def test_exception_record_validation():
    with pytest.raises(ValueError):
        _core.cuda_exception((1, 2))
    with pytest.raises(TypeError):
        _core.cuda_exception(None)
    unknown = _core.cuda_exception((10 ** 6, 0, 0, 0, 0, 0, 0))
    assert isinstance(unknown, SystemError) and "unknown exception" in str(unknown)


def test_user_raise_in_debug_kernel(assemble):
    def k(x):
        i = cuda.grid(1)
        if x[i] < 0:
            raise ValueError("negative input")

    ptx, _ = cuda.compile_ptx(k, "void(float32[:])", debug=True)
    assert "cj_exc_info" in ptx
    assemble(ptx)


def test_lineinfo_emits_line_table(assemble):
    ptx, _ = cuda.compile_ptx(reciprocal, "void(float64[:])", lineinfo=True)
    assert re.search(r'\.file\s+\d+ ".*test_debug_and_options.py"', ptx)
    first = reciprocal.__code__.co_firstlineno
    lines = {int(m.group(1)) for m in re.finditer(r"\.loc\s+\d+\s+(\d+)", ptx)}
    assert first + 4 in lines  # x[i] = 1 / x[i]
    assemble(ptx)


def test_fastmath_changes_division(assemble):
    def k(x, y):
        i = cuda.grid(1)
        x[i] = x[i] / y[i] + 1.0

    exact, _ = cuda.compile_ptx(k, "void(float32[:], float32[:])")
    fast, _ = cuda.compile_ptx(k, "void(float32[:], float32[:])", fastmath=True)
    assert "div.rn.f32" in exact
    assert "div.rn.f32" not in fast and ("div.approx" in fast or "div.full" in fast)


def test_dispatcher_inspection_and_options(assemble):
    d = cuda.jit("void(float32[:], float32)", fastmath=True, max_registers=32, opt=True)(
        lambda a, v: None)
    sig = d.signatures[0]
    assert isinstance(d.inspect_llvm(sig), str)
    assert "nvvm.annotations" in d.inspect_llvm(sig)
    assert ".maxnreg 32" in d.inspect_asm(sig)
    assert list(d.inspect_asm()) == [sig]
    buf = io.StringIO()
    d.inspect_types(file=buf)
    assert "float32" in buf.getvalue()


def test_kernel_must_not_return_a_value(nvvm):
    def k(x):
        return x[0]

    with pytest.raises(TypingError, match="must not return"):
        cuda.compile_ptx(k, "void(float32[:])")
    with pytest.raises(TypeError, match="void"):
        cuda.jit("float32(float32[:])")(k)


def test_bad_options():
    with pytest.raises(TypeError, match="unknown"):
        cuda.jit(nonsense=True)
    with pytest.raises(ValueError, match="max_registers"):
        cuda.jit(max_registers=1000)
    with pytest.raises(ValueError, match="lto must be between 0 and 1"):
        _core.cuda_compile(reciprocal, (), False, {"lto": 2})
    with pytest.raises(ValueError):
        _core.cuda_compile(reciprocal, (), False, {"cc": "sm_90"})
    with pytest.raises(TypeError):
        _core.cuda_compile(reciprocal, (1,), False, {})
    with pytest.raises(TypeError):
        _core.cuda_compile(len, (), False, {})


def test_compile_ptx_cc_and_current_device(nvvm):
    ptx, _ = cuda.compile_ptx(reciprocal, "void(float64[:])", cc=(8, 0))
    assert ".target sm_80" in ptx
    ptx, _ = cuda.compile_ptx_for_current_device(reciprocal, "void(float64[:])")
    assert ".target sm_" in ptx


def test_inspect_sass(nvvm):
    import shutil
    if shutil.which("nvdisasm") is None and shutil.which("/usr/local/cuda/bin/nvdisasm") is None:
        pytest.skip("nvdisasm not installed")
    d = cuda.jit("void(float64[:])")(reciprocal)
    sass = d.inspect_sass(d.signatures[0])
    assert "MUFU" in sass or "DFMA" in sass or "EXIT" in sass


def test_launch_configuration_validation(nvvm):
    d = cuda.jit("void(float64[:])")(reciprocal)
    cfg = d[4, 128]
    assert cfg.griddim == (4, 1, 1) and cfg.blockdim == (128, 1, 1)
    assert d[(2, 3), (8, 8, 2)].blockdim == (8, 8, 2)
    for bad in [(0, 32), (1, -1), (1, 2048), (1, (32, 33)), (1, (1, 2, 3, 4)), (1.5, 32),
                (1, 32, 0, -1), ("a", 1)]:
        with pytest.raises(ValueError):
            d[bad]
    with pytest.raises(ValueError):
        d[1]
    with pytest.raises(ValueError):
        d(1)


def test_host_use_of_intrinsics_raises():
    with pytest.raises(RuntimeError):
        cuda.grid(1)
    with pytest.raises(RuntimeError):
        cuda.threadIdx.x


def test_device_function_cannot_launch(nvvm):
    f = cuda.jit(device=True)(lambda x: x + 1)
    with pytest.raises(TypeError):
        f[1, 1]
    with pytest.raises(RuntimeError):
        f(1)


def test_a_kernel_returning_a_value_is_named(nvvm):
    def returns_one(x):
        return 1

    with pytest.raises(TypingError, match=r"kernel test_a_kernel_returning_a_value_is_named"
                                          r"\.<locals>\.returns_one must not return a value "
                                          r"\(it returns int64\)"):
        _core.cuda_compile(returns_one, (_core.type_by_name("int32"),), False, {})
