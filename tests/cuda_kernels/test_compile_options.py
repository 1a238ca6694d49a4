"""cuda.jit's compile options as numba-cuda documents them, checked in the PTX (and by ptxas
-arch=sm_90): launch_bounds, inline/forceinline, fastmath (bool and flag sets), opt, debug and
lineinfo; link=[...] and declare_device (PTX, NVRTC, errors; the link itself on the fake
driver); specialize/specialized/extensions. GPU-marked tests run the same on a device."""
import math
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
import pytest

from cujit import _core, cuda, float32
from cujit.cuda.linking import LinkerError, NvrtcError
from cujit.errors import TypingError, UnsupportedError

HERE = os.path.dirname(os.path.abspath(__file__))
SIG = "void(float32[:])"
PTXAS = shutil.which("ptxas") or next(
    (p for p in ("/usr/local/cuda/bin/ptxas",) if os.path.exists(p)), None)


def arith(x):
    x[0] = x[1] / x[2]
    x[3] = math.sqrt(x[4])
    x[5] = x[6] * x[7] + x[8]


@cuda.jit(device=True, inline="never")
def never(a):
    return a * 2.0 + 1.0


@cuda.jit(device=True, inline="always")
def always(a):
    return a * 3.0 + 1.0


@cuda.jit(device=True, forceinline=True)
def forced(a):
    return a * 5.0 + 1.0


@cuda.jit(device=True, inline=True)  # numba-cuda's older spelling of 'always'
def older(a):
    return a * 6.0 + 1.0


@cuda.jit(device=True)
def default(a):
    return a * 4.0 + 1.0


def calls(ptx):
    return re.findall(r"call(?:\.uni)?\s.*?(\w+),\s*\(", ptx.replace("\n", " "))


def ptx_of(fn, sig=SIG, **options):
    return cuda.compile_ptx(fn, sig, **options)[0]


# ---- launch_bounds ----

def test_launch_bounds_reach_the_ptx(assemble):
    k = cuda.jit(SIG, launch_bounds=(128, 2, 4))(arith)
    ptx = k.inspect_asm(k.signatures[0])
    assert ".maxntid 128, 1, 1" in ptx
    assert ".minnctapersm 2" in ptx
    assert ".maxclusterrank 4" in ptx
    assert "maxntidx" in k.inspect_llvm(k.signatures[0])
    assemble(ptx)
    one = cuda.jit(SIG, launch_bounds=256)(arith).inspect_asm()
    [text] = one.values()
    assert ".maxntid 256, 1, 1" in text and ".minnctapersm" not in text
    assert ".maxntid" not in ptx_of(arith)
    sm80 = cuda.jit(launch_bounds=(128, 2))(arith).compile(SIG, cc=(8, 0)).ptx
    assert ".maxntid 128, 1, 1" in sm80 and ".minnctapersm 2" in sm80


def test_launch_bounds_errors():
    with pytest.raises(ValueError, match=r"Got 4 launch bounds: \(1, 2, 3, 4\). A maximum of "
                                         r"three are supported"):
        cuda.jit(launch_bounds=(1, 2, 3, 4))(arith)
    for bad in (0, -1, (128, 0), (1.5,)):
        with pytest.raises(ValueError, match="launch_bounds"):
            cuda.jit(launch_bounds=bad)(arith)
    for bad in ("128", [128], True):
        with pytest.raises(TypeError, match="launch_bounds"):
            cuda.jit(launch_bounds=bad)(arith)
    with pytest.raises(ValueError, match="launch bounds"):  # the C check of the raw option
        _core.cuda_compile(arith, (float32[:],), False, {"launch_bounds": (1, 2, 3, 4)})
    with pytest.raises(TypeError, match="launch_bounds"):
        _core.cuda_compile(arith, (float32[:],), False, {"launch_bounds": "x"})
    with pytest.raises(ValueError, match="blocks per cluster needs compute capability 9.0 or "
                                         "higher, not 8.0"):
        cuda.jit(launch_bounds=(128, 2, 4))(arith).compile(SIG, cc=(8, 0))


# ---- inline / forceinline ----

def k_never(x):
    x[0] = never(x[0])


def k_always(x):
    x[0] = always(x[0])


def k_forced(x):
    x[0] = forced(x[0])


def k_older(x):
    x[0] = older(x[0])


def k_default(x):
    x[0] = default(x[0])


def test_inline_never_keeps_the_call(assemble):
    ptx = ptx_of(k_never)
    assert len(calls(ptx)) == 1, ptx
    assemble(ptx)


@pytest.mark.parametrize("kernel", [k_always, k_forced, k_older])
def test_inline_always_even_without_optimisation(kernel, assemble):
    ptx = ptx_of(kernel, opt=False)
    assert calls(ptx) == [], ptx
    assemble(ptx)


def test_inline_default_leaves_it_to_the_optimiser():
    assert calls(ptx_of(k_default)) == []
    assert len(calls(ptx_of(k_default, opt=False))) == 1


def test_inline_bad_value():
    with pytest.raises(ValueError, match="inline"):
        cuda.jit(device=True, inline="sometimes")(arith)


# ---- fastmath ----

def test_without_fastmath_ieee_division_and_sqrt(assemble):
    ptx = ptx_of(arith)
    assert "div.rn.f32" in ptx and "sqrt.rn.f32" in ptx
    assert ".ftz" not in ptx
    assert "fma.rn.f32" in ptx  # NVVM contracts by default (-fma=1), as numba-cuda
    assemble(ptx)


@pytest.mark.parametrize("fastmath", [True, {"fast"}, {"arcp"}, {"nnan", "ninf"}])
def test_fastmath_approximate_ftz(fastmath, assemble):
    ptx = ptx_of(arith, fastmath=fastmath)
    assert "div.full.ftz.f32" in ptx, ptx  # numba-cuda's fast division
    assert "sqrt.approx.ftz.f32" in ptx
    assert "fma.rn.ftz.f32" in ptx
    assert "div.rn.f32" not in ptx and "sqrt.rn.f32" not in ptx
    assemble(ptx)


def test_fastmath_flag_set_reaches_llvm():
    def llvm(fm):
        k = cuda.jit(SIG, fastmath=fm)(arith)
        return k.inspect_llvm(k.signatures[0])

    only_nnan = llvm({"nnan"})
    assert '"no-nans-fp-math"="true"' in only_nnan
    assert "unsafe-fp-math" not in only_nnan and "no-infs-fp-math" not in only_nnan
    every = llvm(True)
    for attr in ("unsafe-fp-math", "no-nans-fp-math", "no-infs-fp-math",
                 "no-signed-zeros-fp-math"):
        assert f'"{attr}"="true"' in every
    assert '"unsafe-fp-math"="true"' in llvm({"reassoc", "arcp", "contract"})
    assert "fp-math" not in llvm(set())  # an empty set is fastmath off
    assert "div.rn.f32" in ptx_of(arith, fastmath=set())


def test_fastmath_unknown_flag():
    with pytest.raises(ValueError, match="unknown flag"):
        cuda.jit(fastmath={"nnan", "bogus"})(arith)
    with pytest.raises(TypeError, match="fastmath"):
        cuda.jit(fastmath="fast")(arith)


# ---- opt, debug, lineinfo ----

def test_opt_zero_is_unoptimised(assemble):
    fast, slow = ptx_of(k_default), ptx_of(k_default, opt=0)
    assert len(slow.splitlines()) > len(fast.splitlines())
    assemble(slow)


def locs(ptx):
    files = dict(re.findall(r'\.file\s+(\d+)\s+"([^"]+)"', ptx))
    return {(os.path.basename(files[f]), int(line))
            for f, line in re.findall(r"\.loc\s+(\d+)\s+(\d+)", ptx) if f in files}


def test_debug_opt0_and_lineinfo_give_python_lines(assemble):
    line = arith.__code__.co_firstlineno
    name = os.path.basename(__file__)
    debug = ptx_of(arith, debug=True, opt=False)
    assert {(name, line + 1), (name, line + 3)} <= locs(debug)
    assert "cj_exc_info" in debug
    info = ptx_of(arith, lineinfo=True)
    assert (name, line + 2) in locs(info)
    assert "cj_exc_info" not in info
    assert ".loc" not in ptx_of(arith)
    assemble(debug)
    assemble(info)


# ---- declare_device and link ----

mul_add = cuda.declare_device("mul_add", "float32(float32, float32)")


def k_extern(x):
    x[0] = mul_add(x[1], 3)  # an int literal converted to the declared float32


def test_declare_device_call_in_ptx():
    ptx = ptx_of(k_extern)
    assert re.search(r"\.extern \.func .*mul_add", ptx.replace("\n", " ")), ptx
    assert calls(ptx) == ["mul_add"]
    assert "cvt.rn.f32" in ptx or "3.0" in ptx or "0f40400000" in ptx
    if PTXAS is not None:  # relocatable: the definition comes from link=[...]
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "k.ptx")
            with open(src, "w") as f:
                f.write(ptx)
            r = subprocess.run([PTXAS, "-arch=sm_90", "-c", "-o", os.path.join(tmp, "k.o"),
                                src], capture_output=True, text=True)
            assert r.returncode == 0, r.stderr


def test_declare_device_errors():
    with pytest.raises(TypeError, match="Return type must be provided"):
        cuda.declare_device("f", "(float32,)")
    with pytest.raises(ValueError, match="C identifier"):
        cuda.declare_device("not a name", "float32(float32)")
    with pytest.raises(RuntimeError, match="only be called from kernels"):
        mul_add(1.0, 2.0)
    with pytest.raises(LinkerError, match="nowhere.cu not found"):
        cuda.declare_device("g", "float32(float32)", link=["/nowhere.cu"])
    with pytest.raises(RuntimeError, match="Don't know how to link file with extension .h"):
        cuda.declare_device("g", "float32(float32)", link=["g.h"])

    def two(x):
        x[0] = mul_add(x[1])

    with pytest.raises(TypingError, match=r"missing argument 'a1' in call to mul_add\(\)"):
        ptx_of(two)

    def three(x):
        x[0] = mul_add(x[1], x[2], x[3])

    with pytest.raises(TypingError, match="mul_add"):
        ptx_of(three)

    def complex_arg(x):
        x[0] = mul_add(1j, x[1])

    with pytest.raises(TypingError, match=r"mul_add\(\): argument 1 of type complex128 "
                                          r"cannot be passed as float32"):
        ptx_of(complex_arg)
    arr = cuda.declare_device("arr", "float32(float32[:])")

    def k(x):
        x[0] = arr(x)

    with pytest.raises(UnsupportedError, match="parameters of type"):
        ptx_of(k)


CU_SOURCE = b'extern "C" __device__ int mul_add(float *r, float a, float b) ' \
            b'{ *r = a * b + 1; return 0; }\n'


def test_nvrtc_compiles_cu_for_the_cc():
    try:
        ptx = _core.nvrtc_compile(CU_SOURCE, "mul_add.cu", (8, 0))
    except RuntimeError as exc:
        pytest.skip(str(exc))
    assert ".target sm_80" in ptx and ".visible .func" in ptx and "mul_add" in ptx
    with pytest.raises(NvrtcError, match="NVRTC Compilation failure whilst compiling bad.cu"):
        _core.nvrtc_compile(b"int x = ;", "bad.cu")
    with pytest.raises(ValueError, match="compute capability"):
        _core.nvrtc_compile(CU_SOURCE, "x.cu", (1, 0))
    with pytest.raises(ValueError, match="NUL"):
        _core.nvrtc_compile(b"int\0", "x.cu")


def test_link_file_errors(tmp_path):
    with pytest.raises(RuntimeError, match=r"Don't know how to link file with extension \.cuh"):
        cuda.jit(link=["header.cuh"])(arith)
    with pytest.raises(RuntimeError, match="Don't know how to link file with no extension"):
        cuda.jit(link=["header"])(arith)
    with pytest.raises(LinkerError, match="missing.ptx not found"):
        cuda.jit(link=[str(tmp_path / "missing.ptx")])(arith)
    with pytest.raises(ValueError, match="link keyword invalid for device function"):
        cuda.jit(device=True, link=["x.ptx"])(arith)
    with pytest.raises(TypeError, match="list of file paths"):
        cuda.jit(link="x.ptx")(arith)
    for ext in ("cubin", "fatbin", "o", "a"):
        with pytest.raises(LinkerError, match=f"x.{ext} not found"):
            cuda.jit(link=[f"x.{ext}"])(arith)
    with pytest.raises(LinkerError, match=r"cannot link x\.ltoir: LTO-IR files need the kernel "
                                          r"compiled with lto=True"):
        cuda.jit(link=["x.ltoir"])(arith)
    with pytest.raises(LinkerError, match="x.ltoir not found"):
        cuda.jit(link=["x.ltoir"], lto=True)(arith)
    with pytest.raises(NotImplementedError, match=r"output='cubin'"):
        cuda.compile(arith, SIG, output="cubin")


def cubin_of(ptx, tmp_path):
    src, out = tmp_path / "m.ptx", tmp_path / "m.cubin"
    src.write_text(ptx)
    subprocess.run([PTXAS, "-arch=sm_90", "-c", "-o", str(out), str(src)], check=True)
    return out.read_bytes()


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found")
def test_nvjitlink_links_a_cubin(tmp_path):
    try:
        lib = cubin_of(_core.nvrtc_compile(CU_SOURCE, "mul_add.cu", (9, 0)), tmp_path)
    except RuntimeError as exc:
        pytest.skip(str(exc))
    kernel = ptx_of(k_extern).encode()
    try:
        cubin = _core.nvjitlink((("ptx", "k", kernel), ("cubin", "m.cubin", lib)), (9, 0))
    except RuntimeError as exc:
        pytest.skip(str(exc))
    assert cubin[:4] == b"\x7fELF" and b"k_extern" in cubin and b"mul_add" in cubin
    with pytest.raises(LinkerError, match="Undefined reference to 'mul_add'"):
        _core.nvjitlink((("ptx", "k", kernel),), (9, 0))
    with pytest.raises(LinkerError, match="adding bad.cubin failed"):
        _core.nvjitlink((("ptx", "k", kernel), ("cubin", "bad.cubin", b"garbage")), (9, 0))
    with pytest.raises(ValueError, match="cannot link .cu files"):
        _core.nvjitlink((("cu", "k.cu", b"x"),), (9, 0))
    with pytest.raises(TypeError):
        _core.nvjitlink((("ptx", "k"),), (9, 0))


def nvjitlink_or_skip(inputs):
    try:
        return _core.nvjitlink(inputs, (9, 0))
    except RuntimeError as exc:
        if "nvJitLink" in str(exc) and "not found" in str(exc):
            pytest.skip(str(exc))
        raise


def lto_kernel(x):
    x[0] = x[1] * 2.0 + 1.0


def test_lto_ir_keeps_the_kernel_through_nvjitlink():
    # NVVM's LTO-IR of a lone kernel used to come out of nvJitLink's LTO with no code: kernels
    # are listed in @llvm.used (csrc/target/nvvm_lto.c)
    ltoir, restype = cuda.compile(lto_kernel, SIG, output="ltoir")
    assert isinstance(ltoir, bytes) and len(ltoir) > 100 and str(restype) == "none"
    cubin = nvjitlink_or_skip((("ltoir", "lto_kernel", ltoir),))
    assert cubin[:4] == b"\x7fELF" and b"lto_kernel" in cubin
    ptx = cuda.compile(lto_kernel, SIG)[0]  # the PTX path is unchanged: no llvm.used there
    assert ".entry lto_kernel" in ptx


def test_lto_kernel_links_a_cu_compiled_to_lto_ir():
    try:
        lib = _core.nvrtc_compile(CU_SOURCE, "mul_add.cu", (9, 0), True)
    except RuntimeError as exc:
        pytest.skip(str(exc))
    assert isinstance(lib, bytes)
    kernel, _ = cuda.compile(k_extern, SIG, output="ltoir")
    cubin = nvjitlink_or_skip((("ltoir", "k", kernel), ("ltoir", "mul_add.cu", lib)))
    # link-time optimisation inlines mul_add into the kernel: no call, no function of its own
    assert b"k_extern" in cubin and b"mul_add" not in cubin
    with pytest.raises(LinkerError, match="mul_add"):
        _core.nvjitlink((("ltoir", "k", kernel),), (9, 0))


@pytest.mark.skipif(PTXAS is None, reason="ptxas not found")
def test_link_and_launch_paths_on_fake_driver(run_checks_on_fake_driver, nvvm):
    run_checks_on_fake_driver(os.path.join(HERE, "compile_options_checks.py"),
                              env={"PTXAS": PTXAS})


# ---- specialize, specialized, extensions ----

def test_specialize_and_specialized():
    k = cuda.jit(arith)
    assert not k.specialized and k.extensions == []
    s = k.specialize(np.zeros(9, np.float32))
    assert s.specialized and s is not k
    assert [str(t) for t in s.signatures[0]] == ["array(float32, 1d, C)"]
    assert s is k.specialize(np.ones(3, np.float32))
    assert k.specialize(np.zeros(9, np.float64)) is not s
    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        s.specialize(np.zeros(9, np.float32))
    assert cuda.jit(SIG)(arith).specialized
    assert not cuda.jit([SIG])(arith).specialized
    with pytest.raises(TypeError, match="prepare_args"):
        cuda.jit(extensions=[object()])(arith)
    with pytest.raises(TypeError, match="extensions must be a list"):
        cuda.jit(extensions=object())(arith)


# ---- on a GPU ----

@pytest.mark.gpu
def test_gpu_link_cu_and_declare_device(tmp_path):
    src = tmp_path / "mul_add.cu"
    src.write_bytes(CU_SOURCE)
    k = cuda.jit(link=[str(src)])(k_extern)
    x = np.array([0, 2.5], dtype=np.float32)
    k[1, 1](x)
    assert x[0] == 2.5 * 3 + 1


@pytest.mark.gpu
def test_gpu_declare_device_with_its_own_link(tmp_path):
    src = tmp_path / "mul_add2.cu"
    src.write_bytes(CU_SOURCE.replace(b"mul_add", b"mul_add2"))
    f = cuda.declare_device("mul_add2", "float32(float32, float32)", link=[str(src)])

    @cuda.jit
    def k(x):
        x[0] = f(x[1], x[2])

    x = np.array([0, 2, 5], dtype=np.float32)
    k[1, 1](x)
    assert x[0] == 11.0


@pytest.mark.gpu
def test_gpu_lto_kernels(tmp_path):
    x = np.array([0, 2.5], dtype=np.float32)
    cuda.jit(lto=True)(lto_kernel)[1, 1](x)
    assert x[0] == 6.0
    src = tmp_path / "mul_add.cu"
    src.write_bytes(CU_SOURCE)
    cuda.jit(lto=True, link=[str(src)])(k_extern)[1, 1](x)  # the .cu compiled to LTO-IR
    assert x[0] == 2.5 * 3 + 1
    lib = tmp_path / "mul_add.ltoir"
    cc = cuda.get_current_device().compute_capability
    lib.write_bytes(_core.nvrtc_compile(CU_SOURCE, "mul_add.cu", cc, True))
    x[1] = 4.0
    cuda.jit(lto=True, link=[str(lib)])(k_extern)[1, 1](x)
    assert x[0] == 13.0


@pytest.mark.gpu
def test_gpu_link_ptx(tmp_path):
    src = tmp_path / "mul_add.ptx"
    cc = cuda.get_current_device().compute_capability
    src.write_text(_core.nvrtc_compile(CU_SOURCE, "mul_add.cu", cc))
    k = cuda.jit(SIG, link=[str(src)])(k_extern)
    x = np.array([0, 4.0], dtype=np.float32)
    k[1, 1](x)
    assert x[0] == 13.0


@pytest.mark.gpu
@pytest.mark.skipif(PTXAS is None, reason="ptxas not found")
def test_gpu_link_cubin_through_nvjitlink(tmp_path):
    cc = cuda.get_current_device().compute_capability
    arch = f"sm_{cc[0]}{cc[1]}"
    src, lib = tmp_path / "m.ptx", tmp_path / "m.cubin"
    src.write_text(_core.nvrtc_compile(CU_SOURCE, "mul_add.cu", cc))
    subprocess.run([PTXAS, f"-arch={arch}", "-c", "-o", str(lib), str(src)], check=True)
    k = cuda.jit(link=[str(lib)])(k_extern)
    x = np.array([0, 2.0], dtype=np.float32)
    k[1, 1](x)
    assert x[0] == 7.0


@pytest.mark.gpu
def test_gpu_unlinked_extern_fails_to_load():
    k = cuda.jit(k_extern)  # mul_add declared, nothing linked: the driver cannot load it
    with pytest.raises(cuda.CudaAPIError):
        k[1, 1](np.zeros(2, np.float32))


@pytest.mark.gpu
def test_gpu_launch_bounds():
    @cuda.jit(launch_bounds=(64, 1))
    def k(x):
        x[cuda.grid(1)] = cuda.threadIdx.x

    x = np.zeros(128, np.float32)
    k[2, 64](x)
    assert np.array_equal(x, np.tile(np.arange(64, dtype=np.float32), 2))
    assert list(k.get_max_threads_per_block().values()) == [64]
    with pytest.raises(ValueError, match=r"more threads than kernel .* \(64\)"):
        k[1, 65](x)


@pytest.mark.gpu
def test_gpu_fastmath_and_inline_results():
    x = np.array([0, 1, 3, 0, 2, 0, 2, 3, 1], dtype=np.float32)
    expect = x.copy()
    cuda.jit(arith)[1, 1](expect)
    for fm in (True, {"arcp"}):
        got = x.copy()
        cuda.jit(arith, fastmath=fm)[1, 1](got)
        np.testing.assert_allclose(got, expect, rtol=1e-6)
    for kernel, f in ((k_never, 2), (k_always, 3), (k_default, 4)):
        y = np.array([2.0], dtype=np.float32)
        cuda.jit(kernel)[1, 1](y)
        assert y[0] == 2.0 * f + 1


@pytest.mark.gpu
def test_gpu_specialize_and_extensions():
    class Plus:
        def __init__(self):
            self.after = []

        def prepare_args(self, ty, val, stream, retr):
            retr.append(lambda: self.after.append(ty))
            return ty, val

    ext = Plus()

    @cuda.jit(extensions=[ext])
    def k(x):
        x[0] += 1

    s = k.specialize(np.zeros(1, np.float32))
    x = np.zeros(1, np.float32)
    s[1, 1](x)
    k[1, 1](x)
    assert x[0] == 2
    assert len(ext.after) == 2
