"""The attribute allowlist: every kind kept reaches libnvvm and compiles; the rest are stripped
(NVVM's LLVM 7 reader rejects kinds it does not know, such as noundef)."""
import re

import pytest

KERNEL = """
define internal {ret_attrs} i32* @device(i32* {param_attrs} %p, i32 %n) {fn_attrs} {{
  %q = getelementptr i32, i32* %p, i32 %n
  ret i32* %q
}}

define void @kernel(i32* %a) {{
  %q = call i32* @device(i32* %a, i32 1)
  store i32 7, i32* %q, align 4
  ret void
}}
!nvvm.annotations = !{{!0}}
!0 = !{{void (i32*)* @kernel, !"kernel", i32 1}}
"""

# where each allowed kind is valid, and how it is spelled there
PLACES = {
    "alwaysinline": ("fn", "alwaysinline"), "noinline": ("fn", "noinline"),
    "inlinehint": ("fn", "inlinehint"), "nounwind": ("fn", "nounwind"),
    "readnone": ("fn", "readnone"), "readonly": ("fn", "readonly"),
    "writeonly": ("fn", "writeonly"), "argmemonly": ("fn", "argmemonly"),
    "inaccessiblememonly": ("fn", "inaccessiblememonly"),
    "inaccessiblemem_or_argmemonly": ("fn", "inaccessiblemem_or_argmemonly"),
    "norecurse": ("fn", "norecurse"), "speculatable": ("fn", "speculatable"),
    "convergent": ("fn", "convergent"), "cold": ("fn", "cold"), "noreturn": None,
    "minsize": ("fn", "minsize"), "optsize": ("fn", "optsize"),
    "optnone": ("fn", "optnone noinline"), "noduplicate": ("fn", "noduplicate"),
    "noalias": ("param", "noalias"), "nocapture": ("param", "nocapture"),
    "nonnull": ("param", "nonnull"), "zeroext": None, "signext": None, "inreg": ("param", "inreg"),
    "returned": ("param", "returned"), "align": ("param", "align 16"),
    "dereferenceable": ("param", "dereferenceable(8)"),
    "dereferenceable_or_null": ("ret", "dereferenceable_or_null(4)"),
}

NORETURN = """
define internal void @device() noreturn {
  call void @llvm.trap()
  unreachable
}
declare void @llvm.trap()
define internal signext i8 @ext(i8 zeroext %x) {
  ret i8 %x
}
define void @kernel(i8* %a) {
  %v = load i8, i8* %a
  %w = call signext i8 @ext(i8 zeroext %v)
  store i8 %w, i8* %a
  %c = icmp eq i8 %w, 0
  br i1 %c, label %die, label %done
die:
  call void @device()
  unreachable
done:
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (i8*)* @kernel, !"kernel", i32 1}
"""


def test_allowlist_is_covered():
    from cujit import _core
    assert set(_core.nvvm_allowed_attributes()) == set(PLACES)


@pytest.mark.parametrize("kind", sorted(k for k, v in PLACES.items() if v))
def test_allowed_kind_reaches_nvvm_and_compiles(core, ptxas_check, kind):
    where, spelling = PLACES[kind]
    ir = KERNEL.format(ret_attrs=spelling if where == "ret" else "",
                       param_attrs=spelling if where == "param" else "",
                       fn_attrs=spelling if where == "fn" else "")
    text = core.nvvm_prepare_ir(ir)
    device = [line for line in text.splitlines()
              if "@device(" in line and line.startswith("define")][0]
    groups = dict(re.findall(r"^attributes (#\d+) = \{ (.*) \}$", text, re.M))
    spelled = device + " " + " ".join(groups.get(g, "") for g in re.findall(r"#\d+", device))
    assert re.search(rf"\b{spelling.split()[0].split('(')[0]}\b", spelled), (kind, device)
    ptxas_check(core.nvvm_compile_ir(ir), "sm_90")


def test_noreturn_zeroext_signext(core, ptxas_check):
    text = core.nvvm_prepare_ir(NORETURN)
    assert "noreturn" in text and "zeroext" in text and "signext" in text
    ptxas_check(core.nvvm_compile_ir(NORETURN), "sm_90")


@pytest.mark.parametrize("spelling", [
    "noundef", "nofree", "nosync", "willreturn", "mustprogress", "hot", "noprofile", "nomerge",
    "null_pointer_is_valid", "byval(i32)", "allocsize(0)",
])
def test_other_kinds_are_stripped(core, ptxas_check, spelling):
    fn_kinds = {"nofree", "nosync", "willreturn", "mustprogress", "hot", "noprofile",
                "nomerge", "null_pointer_is_valid", "allocsize(0)"}
    where = "fn" if spelling in fn_kinds else "param"
    if spelling == "allocsize(0)":
        ir = KERNEL.replace("i32 %n) {fn_attrs}", "i32 %n) allocsize(1)")
        ir = ir.format(ret_attrs="", param_attrs="")
    else:
        ir = KERNEL.format(ret_attrs="", param_attrs=spelling if where == "param" else "",
                           fn_attrs=spelling if where == "fn" else "")
    text = core.nvvm_prepare_ir(ir)
    name = spelling.split("(")[0]
    assert not re.search(rf"\b{name}\b", text)
    ptxas_check(core.nvvm_compile_ir(ir), "sm_90")
