"""cuda.libdevice: every function numba-cuda's numba.cuda.libdevice has compiles in kernels and
device functions, with numba-cuda's signatures (out-pointer functions return tuples), and its
PTX passes ptxas -arch=sm_90. The functions are batched, many to one module, to keep it fast."""
import importlib.util
import math
import os

import numpy as np
import pytest

from cujit import cuda
from cujit.cuda import libdevice
from cujit.cuda._libdevice_table import FUNCTIONS
from cujit.errors import TypingError, UnsupportedError

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
NAMES = sorted(FUNCTIONS)
BATCH = 80
BATCHES = [NAMES[i:i + BATCH] for i in range(0, len(NAMES), BATCH)]
# a parameter of each type: the kernel's argument arrays / the device function's arguments
PARAM = {"f": "xf", "d": "xd", "i": "xi", "l": "xl", "h": "xh"}
PARAMS = "xf, xd, xi, xl, xh"
SIG_ARGS = "float32, float64, int32, int64, int16"


def _numba_functions():
    try:
        from numba.cuda import libdevicefuncs
    except Exception:  # numba-cuda absent (or not importable) here
        return None
    return libdevicefuncs


def _call(name, scalar):
    sig = FUNCTIONS[name][0]
    args = ", ".join((PARAM[c] if scalar else f"{PARAM[c]}[0]") for c in sig[1:] if c.islower())
    return f"libdevice.{name}({args})"


def _nresults(name):
    sig = FUNCTIONS[name][0]
    return (sig[0] != "v") + sum(c.isupper() for c in sig[1:])


def _compile(src, fname, sig, device):
    ns = {"libdevice": libdevice, "cuda": cuda}
    exec(compile(src, f"<libdevice batch {fname}>", "exec"), ns)
    return cuda.compile_ptx(ns[fname], sig, device=device)


def _kernel_source(names):
    lines = [f"def k(out, {PARAMS}):"]
    slot = 0
    for n in names:
        if _nresults(n) == 1:
            lines.append(f"    out[{slot}] = {_call(n, False)}")
            slot += 1
        else:
            lines.append(f"    r = {_call(n, False)}")
            for j in range(_nresults(n)):
                lines.append(f"    out[{slot}] = r[{j}]")
                slot += 1
    return "\n".join(lines) + "\n"


def test_every_numba_function_is_there():
    libdevicefuncs = _numba_functions()
    if libdevicefuncs is None:
        pytest.skip("numba-cuda not installed")
    want = {name[5:] for name in libdevicefuncs.functions}
    assert want == set(FUNCTIONS) == set(libdevice.__all__)
    for name in want:
        assert callable(getattr(libdevice, name))


def test_table_is_current():
    if _numba_functions() is None:
        pytest.skip("numba-cuda not installed")
    path = os.path.join(ROOT, "dev", "gen_libdevice_table.py")
    spec = importlib.util.spec_from_file_location("gen_libdevice_table", path)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with open(gen.TABLE) as f:
        assert f.read() == gen.render(), "run python3 dev/gen_libdevice_table.py"


def test_table_matches_the_libdevice_bitcode(nvvm):
    """Each __nv_ function is defined in the libdevice NVVM links, with the table's LLVM types
    (pointers where the table has out-parameters)."""
    import re
    import shutil
    import subprocess
    from cujit import _core
    dis = shutil.which("llvm-dis-14") or shutil.which("llvm-dis")
    bc = _core.nvvm_info()["libdevice"]
    if dis is None or bc is None:
        pytest.skip("llvm-dis or libdevice not found")
    text = subprocess.run([dis, bc, "-o", "-"], capture_output=True, text=True, check=True).stdout
    defined = {m.group(2): (m.group(1), [p.split()[0] for p in m.group(3).split(",") if p.strip()])
               for m in re.finditer(r"^define[^@]*? (\S+) @(__nv_\w+)\(([^)]*)\)", text, re.M)}
    llvm = {"f": "float", "d": "double", "i": "i32", "l": "i64", "h": "i16", "v": "void"}
    for name, (sig, _) in FUNCTIONS.items():
        want = (llvm[sig[0]], [llvm[c.lower()] + ("*" if c.isupper() else "") for c in sig[1:]])
        assert defined.get(f"__nv_{name}") == want, name


@pytest.mark.parametrize("batch", range(len(BATCHES)))
def test_result_types_match_numba(batch, nvvm):
    libdevicefuncs = _numba_functions()
    if libdevicefuncs is None:
        pytest.skip("numba-cuda not installed")
    names = BATCHES[batch]
    # tuples of 20 in a tuple: CPython builds longer tuple displays through a list
    groups = [names[i:i + 20] for i in range(0, len(names), 20)]
    body = ", ".join(f"({', '.join(_call(n, True) for n in g)},)" for g in groups)
    src = f"def d({PARAMS}):\n    return ({body},)\n"
    _, resty = _compile(src, "d", f"({SIG_ARGS})", device=True)
    got = [str(t) for group in resty.types for t in group.types]
    want = [str(libdevicefuncs.create_signature(*libdevicefuncs.functions[f"__nv_{n}"])
                .return_type) for n in names]
    assert dict(zip(names, got)) == dict(zip(names, want))


@pytest.mark.parametrize("batch", range(len(BATCHES)))
def test_every_function_in_a_kernel_passes_ptxas(batch, assemble):
    names = BATCHES[batch]
    ptx, resty = _compile(_kernel_source(names), "k",
                          "void(float64[:], float32[:], float64[:], int32[:], int64[:], int16[:])",
                          device=False)
    assert str(resty) == "none"
    assemble(ptx)


def _ptx(src, sig):
    return _compile(src, "k", sig, device=False)[0]


def test_instructions_reach_the_ptx(nvvm):
    src = ("def k(out, f, i):\n"
           "    out[0] = libdevice.fast_expf(f[0])\n"
           "    s, c = libdevice.fast_sincosf(f[0])\n"
           "    out[1] = s + c\n"
           "    out[2] = libdevice.popc(i[0])\n"
           "    out[3] = libdevice.llrint(out[4])\n"
           "    out[5] = libdevice.fma(out[6], out[7], out[8])\n")
    ptx = _ptx(src, "void(float64[:], float32[:], int32[:])")
    for insn in ("ex2.approx", "sin.approx.f32", "cos.approx.f32", "popc.b32", "cvt.rni.s64.f64",
                 "fma.rn.f64"):
        assert insn in ptx, insn


@pytest.mark.parametrize("expr, want", [
    ("libdevice.sinf(f64)", "float32"),     # float64 -> float32: numba's unsafe conversion
    ("libdevice.sin(i32)", "float64"),
    ("libdevice.popc(True)", "int32"),
    ("libdevice.llrint(f32)", "int64"),
    ("libdevice.frexpf(f32)", "Tuple(float32, int32)"),
    ("libdevice.modf(f64)", "UniTuple(float64 x 2)"),
    ("libdevice.remquo(f64, 2.0)", "Tuple(float64, int32)"),
    ("libdevice.sincospif(f32)", "UniTuple(float32 x 2)"),
    ("libdevice.float2half_rn(f32)", "int16"),
    ("libdevice.sincos(f64)[1] + libdevice.frexp(f64)[1]", "float64"),
])
def test_conversions_and_results(expr, want):
    from cujit.cuda.libdevice import sinf  # noqa: F401  (the import form works too)
    src = f"def d(f32, f64, i32):\n    return {expr}\n"
    _, resty = _compile(src, "d", "(float32, float64, int32)", device=True)
    assert str(resty) == want


def test_imported_function_by_name(nvvm):
    from cujit.cuda.libdevice import sincosf

    def d(x):
        return sincosf(x)
    _, resty = cuda.compile_ptx(d, "(float32,)", device=True)
    assert str(resty) == "UniTuple(float32 x 2)"


@pytest.mark.parametrize("expr, match", [
    ("libdevice.sinf(c)", r"No implementation of function libdevice.sinf found for signature"
                          r":\n \n >>> sinf\(complex128\)"),
    ("libdevice.sinf()", r">>> sinf\(\)"),
    ("libdevice.sinf(x, x)", r">>> sinf\(float32, float32\)"),
    ("libdevice.sincos(x, x)", r">>> sincos\(float32, float32\)"),
    ("libdevice.fmaf(x, x, a)", r">>> fmaf\(float32, float32, array"),
    ("libdevice.sinf(x=x)", r"libdevice.sinf\(\) takes no keyword arguments"),
])
def test_bad_arguments_are_typing_errors(expr, match):
    src = f"def d(x, c, a):\n    return {expr}\n"
    with pytest.raises(TypingError, match=match):
        _compile(src, "d", "(float32, complex128, float32[:])", device=True)


def test_not_in_cpu_code():
    import cujit

    @cujit.njit
    def f(x):
        return libdevice.sinf(x)
    with pytest.raises(UnsupportedError, match="libdevice.sinf.. can only be used in CUDA"):
        f(1.0)


def test_host_call_raises_and_repr():
    with pytest.raises(RuntimeError, match="inside a kernel"):
        libdevice.sinf(1.0)
    assert repr(libdevice.frexpf) == ("<cujit.cuda.libdevice function frexpf: "
                                      "Tuple(float32, int32)(float32)>")
    assert libdevice.frexpf.signature == "Tuple(float32, int32)(float32)"
    assert libdevice.float2half_rn.signature == "int16(float32)"
    assert "__nv_sincos" in libdevice.sincos.__doc__
    assert "UniTuple(float64 x 2)" in libdevice.sincos.__doc__


def test_registration_rejects_bad_signatures():
    from cujit import _core
    for sig in ("", "x", "fq", "F", "fv", "f" * 9):
        with pytest.raises(ValueError, match="invalid libdevice function"):
            _core.cuda_register_libdevice(object(), "sinf", sig)
    with pytest.raises(ValueError):
        _core.cuda_register_libdevice(object(), "n" * 60, "ff")
    with pytest.raises(TypeError):
        _core.cuda_register_libdevice(object(), 1, "ff")


# ---- on a GPU: values against NumPy / math ----

def _launch(kernel, n, *arrays):
    d = [cuda.to_device(a) for a in arrays]
    kernel[1, n](*d)
    return [x.copy_to_host() for x in d]


@pytest.mark.gpu
def test_gpu_float_functions():
    @cuda.jit
    def k(x, out_sin, out_s, out_c, out_m, out_e, out_exp, out_fma):
        i = cuda.grid(1)
        if i < x.size:
            out_sin[i] = libdevice.sinf(x[i])
            out_s[i], out_c[i] = libdevice.sincos(np.float64(x[i]))
            out_m[i], out_e[i] = libdevice.frexp(np.float64(x[i]))
            out_exp[i] = libdevice.fast_expf(x[i])
            out_fma[i] = libdevice.fma(np.float64(x[i]), 3.0, 0.5)

    x = np.linspace(-4, 4, 64).astype(np.float32)
    outs = [np.zeros(64, np.float32), np.zeros(64), np.zeros(64), np.zeros(64),
            np.zeros(64, np.int32), np.zeros(64, np.float32), np.zeros(64)]
    _, sn, s, c, m, e, ex, fm = _launch(k, 64, x, *outs)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(sn, np.sin(x), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(s, np.sin(x64), rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(c, np.cos(x64), rtol=1e-15, atol=1e-15)
    wm, we = np.frexp(x64)
    np.testing.assert_array_equal(m, wm)
    np.testing.assert_array_equal(e, we)
    np.testing.assert_allclose(ex, np.exp(x), rtol=2e-6)  # the fast (approximate) exp
    np.testing.assert_array_equal(fm, x64 * 3.0 + 0.5)


@pytest.mark.gpu
def test_gpu_integer_functions():
    @cuda.jit
    def k(v, r, out_popc, out_llrint):
        i = cuda.grid(1)
        if i < v.size:
            out_popc[i] = libdevice.popc(v[i])
            out_llrint[i] = libdevice.llrint(r[i])

    v = np.array([0, 1, 3, 255, -1, 0x12345678, -2 ** 31, 7], np.int32)
    r = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1e10, 3.7, -3.7])
    _, _, popc, rint = _launch(k, 8, v, r, np.zeros(8, np.int32), np.zeros(8, np.int64))
    np.testing.assert_array_equal(popc, [bin(x & 0xFFFFFFFF).count("1") for x in v.tolist()])
    np.testing.assert_array_equal(rint, np.rint(r).astype(np.int64))  # ties to even
    assert math.isclose(rint[5], 1e10)


def test_through_cuda_attribute_and_device_functions(nvvm):
    @cuda.jit(device=True)
    def polar(x):
        s, c = cuda.libdevice.sincospi(x)  # cujit.cuda.libdevice, imported on first use
        return s * s + c * c

    def k(out):
        i = cuda.grid(1)
        out[i] = polar(np.float64(i)) + cuda.libdevice.frexpf(np.float32(i))[1]
    ptx, resty = cuda.compile_ptx(k, "void(float64[:])")
    assert str(resty) == "none" and ".entry" in ptx
