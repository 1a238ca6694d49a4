"""Every llvm.* intrinsic family the back end lets through to NVVM's LLVM 7 reader compiles,
and one it does not know is refused with a clear error (rather than becoming a call to an
undefined function, or crashing libnvvm as llvm.exp does)."""
import re

import pytest

# (declaration, call) for one member of each allowed family; %f is a float, %d a double,
# %i an i32, %p an i8*.
ALLOWED = [
    ("declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()", "call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()"),
    ("declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)", "call void @llvm.memcpy.p0i8.p0i8.i64(i8* %p, i8* %p, i64 8, i1 false)"),
    ("declare void @llvm.memmove.p0i8.p0i8.i64(i8*, i8*, i64, i1)", "call void @llvm.memmove.p0i8.p0i8.i64(i8* %p, i8* %p, i64 8, i1 false)"),
    ("declare void @llvm.memset.p0i8.i64(i8*, i8, i64, i1)", "call void @llvm.memset.p0i8.i64(i8* %p, i8 0, i64 8, i1 false)"),
    ("declare double @llvm.sqrt.f64(double)", "call double @llvm.sqrt.f64(double %d)"),
    ("declare float @llvm.fabs.f32(float)", "call float @llvm.fabs.f32(float %f)"),
    ("declare double @llvm.floor.f64(double)", "call double @llvm.floor.f64(double %d)"),
    ("declare float @llvm.ceil.f32(float)", "call float @llvm.ceil.f32(float %f)"),
    ("declare double @llvm.trunc.f64(double)", "call double @llvm.trunc.f64(double %d)"),
    ("declare float @llvm.rint.f32(float)", "call float @llvm.rint.f32(float %f)"),
    ("declare double @llvm.nearbyint.f64(double)", "call double @llvm.nearbyint.f64(double %d)"),
    ("declare double @llvm.round.f64(double)", "call double @llvm.round.f64(double %d)"),
    ("declare double @llvm.copysign.f64(double, double)", "call double @llvm.copysign.f64(double %d, double %d)"),
    ("declare float @llvm.minnum.f32(float, float)", "call float @llvm.minnum.f32(float %f, float %f)"),
    ("declare double @llvm.maxnum.f64(double, double)", "call double @llvm.maxnum.f64(double %d, double %d)"),
    ("declare float @llvm.fma.f32(float, float, float)", "call float @llvm.fma.f32(float %f, float %f, float %f)"),
    ("declare double @llvm.fmuladd.f64(double, double, double)", "call double @llvm.fmuladd.f64(double %d, double %d, double %d)"),
    ("declare i32 @llvm.ctpop.i32(i32)", "call i32 @llvm.ctpop.i32(i32 %i)"),
    ("declare i32 @llvm.ctlz.i32(i32, i1)", "call i32 @llvm.ctlz.i32(i32 %i, i1 false)"),
    ("declare i64 @llvm.cttz.i64(i64, i1)", "call i64 @llvm.cttz.i64(i64 %l, i1 true)"),
    ("declare i32 @llvm.bswap.i32(i32)", "call i32 @llvm.bswap.i32(i32 %i)"),
    ("declare i32 @llvm.bitreverse.i32(i32)", "call i32 @llvm.bitreverse.i32(i32 %i)"),
    ("declare i32 @llvm.fshl.i32(i32, i32, i32)", "call i32 @llvm.fshl.i32(i32 %i, i32 %i, i32 3)"),
    ("declare i64 @llvm.fshr.i64(i64, i64, i64)", "call i64 @llvm.fshr.i64(i64 %l, i64 %l, i64 3)"),
    ("declare {i64, i1} @llvm.sadd.with.overflow.i64(i64, i64)", "call {i64, i1} @llvm.sadd.with.overflow.i64(i64 %l, i64 %l)"),
    ("declare {i32, i1} @llvm.uadd.with.overflow.i32(i32, i32)", "call {i32, i1} @llvm.uadd.with.overflow.i32(i32 %i, i32 %i)"),
    ("declare {i64, i1} @llvm.ssub.with.overflow.i64(i64, i64)", "call {i64, i1} @llvm.ssub.with.overflow.i64(i64 %l, i64 %l)"),
    ("declare {i64, i1} @llvm.usub.with.overflow.i64(i64, i64)", "call {i64, i1} @llvm.usub.with.overflow.i64(i64 %l, i64 %l)"),
    ("declare {i64, i1} @llvm.smul.with.overflow.i64(i64, i64)", "call {i64, i1} @llvm.smul.with.overflow.i64(i64 %l, i64 %l)"),
    ("declare {i64, i1} @llvm.umul.with.overflow.i64(i64, i64)", "call {i64, i1} @llvm.umul.with.overflow.i64(i64 %l, i64 %l)"),
    ("declare void @llvm.lifetime.start.p0i8(i64, i8*)", "call void @llvm.lifetime.start.p0i8(i64 8, i8* %p)"),
    ("declare void @llvm.lifetime.end.p0i8(i64, i8*)", "call void @llvm.lifetime.end.p0i8(i64 8, i8* %p)"),
    ("declare void @llvm.assume(i1)", "call void @llvm.assume(i1 true)"),
    ("declare i64 @llvm.expect.i64(i64, i64)", "call i64 @llvm.expect.i64(i64 %l, i64 0)"),
    ("declare void @llvm.trap()", "call void @llvm.trap()"),
    ("declare void @llvm.donothing()", "call void @llvm.donothing()"),
]

TEMPLATE = """
{decl}
define void @kernel(float* %fp, double* %dp, i32* %ip, i64* %lp) {{
  %f = load float, float* %fp, align 4
  %d = load double, double* %dp, align 8
  %i = load i32, i32* %ip, align 4
  %l = load i64, i64* %lp, align 8
  %p = bitcast i64* %lp to i8*
  %r = {call}
  ret void
}}
!nvvm.annotations = !{{!0}}
!0 = !{{void (float*, double*, i32*, i64*)* @kernel, !"kernel", i32 1}}
"""


@pytest.mark.parametrize("decl,call", ALLOWED, ids=[re.search(r"@([\w.]+)", d).group(1) for d, _ in ALLOWED])
def test_allowed_intrinsic_compiles(core, ptxas_check, decl, call):
    if call.startswith("call void"):
        body = TEMPLATE.replace("%r = {call}", "{call}")
    else:
        body = TEMPLATE
    ptx = core.nvvm_compile_ir(body.format(decl=decl, call=call))
    name = re.search(r"@([\w.]+)", decl).group(1)
    assert name not in ptx  # lowered, not left as a call
    ptxas_check(ptx, "sm_90")


@pytest.mark.parametrize("decl,call", [
    ("declare i32 @llvm.smax.i32(i32, i32)", "call i32 @llvm.smax.i32(i32 %i, i32 3)"),
    ("declare i32 @llvm.abs.i32(i32, i1)", "call i32 @llvm.abs.i32(i32 %i, i1 false)"),
    ("declare i32 @llvm.uadd.sat.i32(i32, i32)", "call i32 @llvm.uadd.sat.i32(i32 %i, i32 %i)"),
    ("declare double @llvm.powi.f64.i32(double, i32)", "call double @llvm.powi.f64.i32(double %d, i32 %i)"),
    ("declare float @llvm.exp.f32(float)", "call float @llvm.exp.f32(float %f)"),
    ("declare double @llvm.sin.f64(double)", "call double @llvm.sin.f64(double %d)"),
    ("declare float @llvm.roundeven.f32(float)", "call float @llvm.roundeven.f32(float %f)"),
])
def test_unknown_intrinsic_is_refused(core, decl, call):
    from cujit.errors import UnsupportedError
    name = re.search(r"@([\w.]+)", decl).group(1)
    with pytest.raises(UnsupportedError, match=re.escape(name)):
        core.nvvm_compile_ir(TEMPLATE.format(decl=decl, call=call))


def test_modern_dialect_takes_new_intrinsics(core, ptxas_check):
    ir = TEMPLATE.format(decl="declare i32 @llvm.smax.i32(i32, i32)",
                         call="call i32 @llvm.smax.i32(i32 %i, i32 3)")
    ptxas_check(core.nvvm_compile_ir(ir, cc=(10, 0)), "sm_100")
