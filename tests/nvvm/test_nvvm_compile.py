"""The NVVM back end end to end: LLVM 14 text IR -> _core.nvvm_compile_ir -> PTX -> ptxas."""
import re

import pytest

# A kernel as the compiler will produce it: typed pointers, marked as a kernel by
# !nvvm.annotations, reading threadIdx.x, a float add and libdevice calls (float and double).
KERNEL = r"""
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone
declare float @__nv_sinf(float)
declare double @__nv_pow(double, double)

define void @kernel(float* %out, double* %dout, float %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = sext i32 %tid to i64
  %p = getelementptr float, float* %out, i64 %i
  %v = load float, float* %p, align 4
  %sum = fadd float %v, %x
  %s = call float @__nv_sinf(float %sum)
  store float %s, float* %p, align 4
  %dp = getelementptr double, double* %dout, i64 %i
  %d = load double, double* %dp, align 8
  %pw = call double @__nv_pow(double %d, double 2.5)
  store double %pw, double* %dp, align 8
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, double*, float)* @kernel, !"kernel", i32 1}
"""

# What LLVM 14's own passes and IRBuilder put in modules and LLVM 7's reader rejects.
LLVM14_ISMS = r"""
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) nofree nounwind willreturn argmemonly

define internal noundef float @helper(float noundef %x) mustprogress nofree nosync willreturn nounwind readnone {
  %n = fneg float %x
  %f = freeze float %n
  ret float %f
}

define void @kernel(float* noundef nocapture %a, i8* %dst, i8* %src) nofree nosync willreturn {
  %v = load float, float* %a, align 4
  %r = call noundef float @helper(float noundef %v) nofree willreturn
  %vec = insertelement <2 x float> poison, float %r, i32 0
  %e = extractelement <2 x float> %vec, i32 0
  store float %e, float* %a, align 4
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %dst, i8* %src, i64 16, i1 false)
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float*, i8*, i8*)* @kernel, !"kernel", i32 1}
"""

DIVIDE = r"""
define void @kernel(float* %a, float %b) {
  %v = load float, float* %a, align 4
  %d = fdiv float %v, %b
  store float %d, float* %a, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (float*, float)* @kernel, !"kernel", i32 1}
"""

# Line tables as the compiler emits them for lineinfo=True (numba-cuda's emission kind).
WITH_LINES = r"""
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone

define void @kernel(float* %a) !dbg !5 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !8
  %p = getelementptr float, float* %a, i32 %t, !dbg !8
  %v = load float, float* %p, align 4, !dbg !8
  %w = fdiv float 1.0, %v, !dbg !9
  store float %w, float* %p, align 4, !dbg !9
  ret void, !dbg !9
}

!nvvm.annotations = !{!0}
!0 = !{void (float*)* @kernel, !"kernel", i32 1}
!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!4}
!2 = distinct !DICompileUnit(language: DW_LANG_Python, file: !3, producer: "cujit", isOptimized: true, runtimeVersion: 0, emissionKind: KIND, nameTableKind: None, sysroot: "/", sdk: "x")
!3 = !DIFile(filename: "kern.py", directory: "/tmp", source: "x = 1")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "kernel", scope: !3, file: !3, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 11, column: 4, scope: !5)
!9 = !DILocation(line: 12, column: 4, scope: !5)
"""

ATOMICS = r"""
define void @kernel(i32* %a, i64* %b) {
  %old = atomicrmw add i32* %a, i32 1 seq_cst
  %pair = cmpxchg i64* %b, i64 0, i64 7 seq_cst seq_cst
  %m = atomicrmw max i32* %a, i32 %old monotonic
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i32*, i64*)* @kernel, !"kernel", i32 1}
"""


def test_info(core):
    info = core.nvvm_info()
    assert set(info) == {"version", "ir_version", "library", "libdevice"}
    major, minor = info["version"]
    assert isinstance(major, int) and major >= 1 and minor >= 0
    assert len(info["ir_version"]) == 4 and info["ir_version"][0] >= 1
    assert "libnvvm.so" in info["library"]
    assert info["libdevice"].endswith("libdevice.10.bc")


def test_kernel_compiles_for_sm90(core, ptxas_check):
    ptx = core.nvvm_compile_ir(KERNEL, cc=(9, 0))
    assert re.search(r"^\.version \d+\.\d+$", ptx, re.M)
    assert re.search(r"^\.target sm_90$", ptx, re.M)
    assert ".visible .entry kernel(" in ptx
    assert "%tid.x" in ptx
    assert re.search(r"\badd(\.rn)?\.f32\b", ptx)
    assert "__nv_" not in ptx  # libdevice was linked in, not left as calls
    ptxas_check(ptx, "sm_90")


def test_kernel_compiles_for_other_archs(core, ptxas_check):
    ptx = core.nvvm_compile_ir(KERNEL, cc=(7, 5), opt=0)
    assert re.search(r"^\.target sm_75$", ptx, re.M)
    ptxas_check(ptx, "sm_75")


def test_cc10_uses_bitcode(core, ptxas_check):
    payload = core.nvvm_prepare_ir(KERNEL, cc=(10, 0))
    assert isinstance(payload, bytes) and payload[:2] == b"BC"
    ptx = core.nvvm_compile_ir(KERNEL, cc=(10, 0))
    assert re.search(r"^\.target sm_100$", ptx, re.M)
    ptxas_check(ptx, "sm_100")


def test_llvm14_attributes_and_instructions_are_legalized(core, ptxas_check):
    text = core.nvvm_prepare_ir(LLVM14_ISMS)
    for word in ("noundef", "nofree", "nosync", "willreturn", "mustprogress", "immarg",
                 "fneg", "freeze", "poison"):
        assert not re.search(rf"\b{word}\b", text), word
    for word in ("nocapture", "noalias", "writeonly", "argmemonly", "nounwind", "readnone"):
        assert re.search(rf"\b{word}\b", text), word  # allowed kinds stay
    assert "fsub float -0.000000e+00" in text
    ptxas_check(core.nvvm_compile_ir(LLVM14_ISMS), "sm_90")


def test_attribute_stripping_also_on_bitcode(core, ptxas_check):
    ptxas_check(core.nvvm_compile_ir(LLVM14_ISMS, cc=(10, 0)), "sm_100")


def test_fastmath_changes_the_ptx(core):
    precise = core.nvvm_compile_ir(DIVIDE)
    fast = core.nvvm_compile_ir(DIVIDE, fastmath=True)
    assert "div.rn.f32" in precise and ".ftz" not in precise
    assert re.search(r"div\.(approx|full)\.ftz\.f32", fast)


def test_lineinfo_emits_loc(core, ptxas_check):
    ir = WITH_LINES.replace("KIND", "DebugDirectivesOnly")
    text = core.nvvm_prepare_ir(ir)
    assert "spFlags" not in text and "isDefinition: true" in text
    assert "nameTableKind" not in text and "sysroot" not in text and "sdk:" not in text
    assert "source:" not in text
    ptx = core.nvvm_compile_ir(ir, lineinfo=True)
    assert re.search(r'^\s*\.file\s+1\s+"/tmp/kern.py"', ptx, re.M)
    assert re.search(r"^\s*\.loc\s+1\s+11\s+4", ptx, re.M)
    assert re.search(r"^\s*\.loc\s+1\s+12\s+4", ptx, re.M)
    ptxas_check(ptx, "sm_90")
    assert ".loc" not in core.nvvm_compile_ir(DIVIDE, lineinfo=True)  # no debug metadata


def test_debug_emits_dwarf(core, ptxas_check):
    ptx = core.nvvm_compile_ir(WITH_LINES.replace("KIND", "FullDebug"), debug=True, opt=0)
    assert ".section .debug_info" in ptx or ".section\t.debug_info" in ptx
    assert re.search(r"^\s*\.loc\s+1\s+12\s+4", ptx, re.M)
    ptxas_check(ptx, "sm_90")


def test_atomics(core, ptxas_check):
    text = core.nvvm_prepare_ir(ATOMICS)
    assert ", align" not in text.split("atomicrmw add")[1].splitlines()[0]
    ptx = core.nvvm_compile_ir(ATOMICS)
    assert re.search(r"atom\.global\.add\.u32|red\.global\.add\.u32", ptx)
    assert "atom.global.cas.b64" in ptx
    assert "atom.global.max.s32" in ptx or "red.global.max.s32" in ptx
    ptxas_check(ptx, "sm_90")


def test_same_module_twice_leaves_it_untouched(core):
    before, first, second, after = core.nvvm_check_clone(LLVM14_ISMS)
    assert before == after  # the caller's module still has its fneg, attributes, poison
    assert "fneg" in after and "willreturn" in after
    assert first == second and ".entry kernel" in first


def test_bad_ir_text(core):
    with pytest.raises(ValueError, match="invalid LLVM IR"):
        core.nvvm_compile_ir("define void @f( {")
    with pytest.raises(ValueError, match="invalid LLVM IR"):
        core.nvvm_compile_ir("this is not IR\0 at all")
    with pytest.raises(TypeError):
        core.nvvm_compile_ir(b"define void @f() { ret void }")


def test_module_failing_the_verifier(core):
    from cujit.errors import LoweringError
    bad = """
define void @f() {
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret void
}
"""
    with pytest.raises(LoweringError, match="does not dominate"):
        core.nvvm_compile_ir(bad)


def test_nvvm_rejection_carries_the_log(core):
    from cujit.errors import NvvmError
    # a module that says it is NVVM IR 1.0: libnvvm refuses it and says why in its log
    ir = DIVIDE + "!nvvmir.version = !{!9}\n!9 = !{i32 1, i32 0}\n"
    with pytest.raises(NvvmError, match="NVVM_ERROR_IR_VERSION_MISMATCH") as e:
        core.nvvm_compile_ir(ir)
    assert "incompatible" in str(e.value)  # the program log


@pytest.mark.parametrize("cc", [(4, 0), (3, 5), (5,), (9, 0, 0), "9.0", [9, 0], (9, 10),
                                (-1, 0), (9, -1), (2 ** 70, 0), (9.0, 0), None, (16, 0)])
def test_cc_validation(core, cc):
    with pytest.raises(ValueError, match="cc|compute capability"):
        core.nvvm_compile_ir(KERNEL, cc=cc)


@pytest.mark.parametrize("opt", [-1, 4])
def test_opt_validation(core, opt):
    with pytest.raises(ValueError, match="opt"):
        core.nvvm_compile_ir(KERNEL, opt=opt)


def test_arch_unsupported_by_this_libnvvm(core):
    from cujit.errors import NvvmError
    if core.nvvm_info()["version"] < (2, 0):
        pytest.skip("an older libnvvm may still support compute_50")
    with pytest.raises(NvvmError, match="compute_50"):
        core.nvvm_compile_ir(KERNEL, cc=(5, 0))


@pytest.mark.parametrize("opt", [0, 1, 2, 3])
def test_opt_levels(core, opt, ptxas_check):
    ptxas_check(core.nvvm_compile_ir(KERNEL, opt=opt), "sm_90")


POISON_IN_CONSTANTS = r"""
@g = global <2 x float> <float poison, float 1.0>
@s = constant [7 x i8] c"poison\00"
define void @kernel(<2 x float>* %a, i32* %poison) {
  %v = load <2 x float>, <2 x float>* %a
  %w = fadd <2 x float> %v, <float poison, float 2.0>
  %x = insertelement <2 x float> %w, float poison, i32 1
  store <2 x float> %x, <2 x float>* %a
  store i32 1, i32* %poison
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (<2 x float>*, i32*)* @kernel, !"kernel", i32 1}
"""


def test_poison_inside_constants(core, ptxas_check):
    text = core.nvvm_prepare_ir(POISON_IN_CONSTANTS)
    assert "<float undef, float 1.000000e+00>" in text
    assert "<float undef, float 2.000000e+00>" in text
    assert 'c"poison\\00"' in text and "i32* %poison" in text  # names and strings untouched
    ptxas_check(core.nvvm_compile_ir(POISON_IN_CONSTANTS), "sm_90")


# debug=True as the compiler will emit it: variables described with dbg.declare / dbg.value
DEBUG_VARIABLES = r"""
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.declare(metadata, metadata, metadata)
define void @kernel(float* %a) !dbg !5 {
  %slot = alloca float, align 4
  call void @llvm.dbg.declare(metadata float* %slot, metadata !11, metadata !DIExpression()), !dbg !8
  %v = load float, float* %a, align 4, !dbg !8
  call void @llvm.dbg.value(metadata float %v, metadata !10, metadata !DIExpression()), !dbg !8
  %w = fdiv float 1.0, %v, !dbg !9
  store float %w, float* %slot, align 4, !dbg !9
  store float %w, float* %a, align 4, !dbg !9
  ret void, !dbg !9
}
!nvvm.annotations = !{!0}
!0 = !{void (float*)* @kernel, !"kernel", i32 1}
!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!4}
!2 = distinct !DICompileUnit(language: DW_LANG_Python, file: !3, producer: "cujit", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!3 = !DIFile(filename: "kern.py", directory: "/tmp")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "kernel", linkageName: "kernel", scope: !3, file: !3, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !7)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 11, column: 4, scope: !5)
!9 = !DILocation(line: 12, column: 4, scope: !5)
!10 = !DILocalVariable(name: "v", scope: !5, file: !3, line: 11, type: !12)
!11 = !DILocalVariable(name: "w", arg: 1, scope: !5, file: !3, line: 10, type: !12)
!12 = !DIBasicType(name: "float32", size: 32, encoding: DW_ATE_float)
"""


def test_debug_with_variables(core, ptxas_check):
    text = core.nvvm_prepare_ir(DEBUG_VARIABLES)
    assert "isLocal: false, isDefinition: true, isOptimized: false" in text
    ptx = core.nvvm_compile_ir(DEBUG_VARIABLES, debug=True, opt=0)
    assert ".debug_info" in ptx and re.search(r"^\s*\.loc\s+1\s+11\s+4", ptx, re.M)
    ptxas_check(ptx, "sm_90")


def test_max_registers_through_annotation(core, ptxas_check):
    """max_registers reaches the PTX as .maxnreg through a "maxnreg" kernel annotation."""
    ir = DIVIDE.replace("!nvvm.annotations = !{!0}", "!nvvm.annotations = !{!0, !1}")
    ir += '!1 = !{void (float*, float)* @kernel, !"maxnreg", i32 32}\n'
    ptx = core.nvvm_compile_ir(ir)
    assert re.search(r"^\.maxnreg 32$", ptx, re.M)
    ptxas_check(ptx, "sm_90")
