"""The undefined-behaviour check (issue 15): csrc/lower/ub_audit.c refuses lowered LLVM IR with a
poison source that carries no proof, and the differential corpus runs under it at LLVM levels 0
and 3 (the fuzzer does too: tests/fuzz/test_fuzz.py). A divergence from CPython there is a bug."""
import os
import re
import subprocess
import sys

import pytest

import cujit
from cujit import _core

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _fn(body, params="i64 %x, i64 %y, double %f"):
    return (f"define i64 @f({params}) {{\nentry:\n{body}\n}}\n"
            "declare i64 @llvm.ctlz.i64(i64, i1)\ndeclare i64 @llvm.abs.i64(i64, i1)\n"
            '!0 = !{!"why it is safe"}\n')


REFUSED = [
    ("%r = add nsw i64 %x, %y\n  ret i64 %r", "no-wrap"),
    ("%r = mul nuw i64 %x, %y\n  ret i64 %r", "no-wrap"),
    ("%r = shl nsw i64 %x, 3\n  ret i64 %r", "no-wrap"),
    ("%r = sdiv exact i64 %x, 4\n  ret i64 %r", "exact"),
    ("%r = lshr exact i64 %x, 1\n  ret i64 %r", "exact"),
    ("%r = fptosi double %f to i64\n  ret i64 %r", "float to int"),
    ("%r = fptoui double %f to i64\n  ret i64 %r", "float to int"),
    ("%r = shl i64 %x, %y\n  ret i64 %r", "shift by a variable"),
    ("%r = ashr i64 %x, 64\n  ret i64 %r", "shift by a variable"),
    ("%r = sdiv i64 %x, %y\n  ret i64 %r", "division by a variable"),
    ("%r = srem i64 %x, -1\n  ret i64 %r", "division by a variable"),
    ("%r = udiv i64 %x, 0\n  ret i64 %r", "division by a variable"),
    ("%a = alloca [4 x i64]\n  %p = getelementptr inbounds [4 x i64], [4 x i64]* %a, i64 0, "
     "i64 %x\n  %r = load i64, i64* %p\n  ret i64 %r", "inbounds"),
    ("%r = call i64 @llvm.ctlz.i64(i64 %x, i1 true)\n  ret i64 %r", "poison flag"),
    ("%r = call i64 @llvm.abs.i64(i64 %x, i1 true)\n  ret i64 %r", "poison flag"),
    ("%r = add i64 %x, undef\n  ret i64 %r", "undef"),
]

ACCEPTED = [
    "%r = add i64 %x, %y\n  ret i64 %r",
    "%r = shl i64 %x, 63\n  ret i64 %r",
    "%r = sdiv i64 %x, 7\n  ret i64 %r",
    "%r = udiv i64 %x, -1\n  ret i64 %r",
    "%r = call i64 @llvm.ctlz.i64(i64 %x, i1 false)\n  ret i64 %r",
    "%a = alloca [4 x i64]\n  %p = getelementptr inbounds [4 x i64], [4 x i64]* %a, i64 0, i64 2"
    "\n  %r = load i64, i64* %p\n  ret i64 %r",
    "%s = insertvalue {i64, i64} undef, i64 %x, 0\n  %r = extractvalue {i64, i64} %s, 0\n"
    "  ret i64 %r",
    # a proof, written where the lowering emits the instruction (cj_ub_proof)
    "%r = add nsw i64 %x, %y, !cujit.proof !0\n  ret i64 %r",
    "%r = fptosi double %f to i64, !cujit.proof !0\n  ret i64 %r",
    "%r = sdiv i64 %x, %y, !cujit.proof !0\n  ret i64 %r",
]


@pytest.mark.parametrize("body, why", REFUSED, ids=[w + str(i) for i, (_, w) in enumerate(REFUSED)])
def test_audit_refuses_poison_without_proof(body, why):
    with pytest.raises(cujit.errors.LoweringError, match=why) as info:
        _core.ub_audit_ir(_fn(body))
    assert "UB audit" in str(info.value) and re.search(r"%[rp] = ", str(info.value))  # names it


@pytest.mark.parametrize("body", ACCEPTED)
def test_audit_accepts_safe_or_proven(body):
    assert _core.ub_audit_ir(_fn(body)) is None


def test_audit_input_errors():
    with pytest.raises(ValueError, match="invalid LLVM IR"):
        _core.ub_audit_ir("define nonsense")
    with pytest.raises(TypeError):
        _core.ub_audit_ir(b"define void @f() { ret void }")


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pkg"), **extra)
    return env


def test_compiled_code_passes_the_audit(monkeypatch):
    # every lowering path in one function, compiled with the audit on: proofs are in place
    src = ("import math, cujit\n"
           "@cujit.njit\n"
           "def f(a, b, x):\n"
           "    t = (a, b, 3)\n"
           "    s = a // b + a % b + (a << b) + (a >> b) + a ** b + t[b % 3] + divmod(a, b)[1]\n"
           "    for v in t:\n"
           "        s += v\n"
           "    for i in range(a, 40, 7):\n"
           "        s += i\n"
           "    return s + int(x) + math.floor(x) + round(x) + math.frexp(x)[1] + round(a, -1)\n"
           "print(f(17, 3, 2.5))\n")
    out = subprocess.run([sys.executable, "-c", src], env=_env(CUJIT_UB_CHECK="1"),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    a, b, x = 17, 3, 2.5
    import math
    t = (a, b, 3)
    s = a // b + a % b + (a << b) + (a >> b) + a ** b + t[b % 3] + divmod(a, b)[1] + sum(t)
    s += sum(range(a, 40, 7))
    want = s + int(x) + math.floor(x) + round(x) + math.frexp(x)[1] + round(a, -1)
    assert int(out.stdout) == want


@pytest.mark.parametrize("level", ["0", "3"])
def test_differential_corpus_under_the_ub_check(level):
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
         os.path.join(ROOT, "tests", "cpu", "test_differential.py")],
        env=_env(CUJIT_UB_CHECK="1", CUJIT_OPT=level), capture_output=True, text=True,
        timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert " passed" in out.stdout and "failed" not in out.stdout


def test_cujit_opt_sets_the_default_level(monkeypatch):
    from cujit.decorators import core_options
    monkeypatch.setenv("CUJIT_OPT", "0")
    assert core_options({})["opt"] == 0
    assert core_options({"opt": 2})["opt"] == 2  # the option wins
    monkeypatch.setenv("CUJIT_OPT", "fast")
    with pytest.raises(ValueError, match="CUJIT_OPT must be"):
        cujit.njit(lambda: 1)
    monkeypatch.delenv("CUJIT_OPT")
    assert core_options({})["opt"] == 3


def test_numba_opt_is_honoured_when_cujit_opt_is_not_set(monkeypatch):
    from cujit.decorators import core_options
    monkeypatch.delenv("CUJIT_OPT", raising=False)
    monkeypatch.setenv("NUMBA_OPT", "1")
    assert core_options({})["opt"] == 1
    monkeypatch.setenv("CUJIT_OPT", "2")  # cujit's name wins
    assert core_options({})["opt"] == 2
    monkeypatch.setenv("CUJIT_OPT", "")
    monkeypatch.setenv("NUMBA_OPT", "9")
    with pytest.raises(ValueError, match="NUMBA_OPT must be"):
        core_options({})
