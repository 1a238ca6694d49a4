"""Differential fuzzing against CPython (issue 15): random small numeric functions from the
generator in fuzzgen.py, each compiled and run on four argument tuples (small, wide and edge
values: 0, -1, int64 ends, nan, inf, -0.0), in child processes (runner.py) so a crash or a hang
is caught and named.  Zero crashes, hangs and divergences outside the documented differences
(docs/differences.md, "Differences from CPython") are allowed.

The seed is fixed (CUJIT_FUZZ_SEED overrides it) and printed on failure; rerun one case with
`python3 tests/fuzz/runner.py tests/fuzz SEED I I+1` or look at it with `runner.source_of(SEED, I)`.
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import runner  # noqa: E402

SEED = int(os.environ.get("CUJIT_FUZZ_SEED", "20261123"))
# the slow runs' size (CI runs 1x: 2,500 and 750 programs; CUJIT_FUZZ_SCALE=4 is the old 10,000)
SCALE = float(os.environ.get("CUJIT_FUZZ_SCALE", "1"))

try:
    import cujit
    HAVE = getattr(cujit, "njit", None) is not None
except ImportError:
    HAVE = False
pytestmark = pytest.mark.skipif(not HAVE, reason="cujit.njit is not built")


# the UB check (issue 15): every compiled function's LLVM IR is audited for poison sources
# (csrc/lower/ub_audit.c), and the code runs at the optimisation level that exploits poison
# most (3) or not at all (0); either way its results must be CPython's
UB_OPT3 = {"CUJIT_UB_CHECK": "1", "CUJIT_OPT": "3"}
UB_OPT0 = {"CUJIT_UB_CHECK": "1", "CUJIT_OPT": "0"}


def _check(n, seed, env=None):
    counts, problems = runner.run(seed, n, env_extra=env)
    shown = "\n\n".join(p[:3000] for p in problems[:10])
    assert not problems, (f"fuzz seed {seed} (CUJIT_FUZZ_SEED={seed} reruns it): {counts}\n\n"
                          f"{shown}")
    assert counts["ok"] + counts["cerr"] == n
    # the generator stays inside the subset: clean refusals are allowed but must stay rare
    assert counts["cerr"] <= n // 100, counts


def test_fuzz_quick():
    _check(300, SEED, UB_OPT3)


def test_fuzz_quick_unoptimised():
    _check(300, SEED + 2, UB_OPT0)


@pytest.mark.slow
def test_fuzz_many():
    _check(int(2_500 * SCALE), SEED + 1, UB_OPT3)


@pytest.mark.slow
def test_fuzz_many_unoptimised():
    _check(int(750 * SCALE), SEED + 3, UB_OPT0)


def test_runner_names_a_crash_and_a_hang(tmp_path, monkeypatch):
    # the runner's own contract: a worker that dies or stalls pins the case it had started
    fake = tmp_path / "fuzzgen.py"
    fake.write_text(
        "import os, sys, time\n"
        "def case(seed, i):\n    return i, []\n"
        "def split(m):\n    return (str(m), '')\n"
        "def check_program(m, args, njit, errs):\n"
        "    if m == 2:\n        os.abort()\n"
        "    if m == 5:\n        time.sleep(60)\n"
        "    return 'ok'\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    counts, problems = runner.run(0, 8, jobs=1, hang_s=3.0, chunk=8, worker_path=str(tmp_path))
    assert counts == {"ok": 6, "cerr": 0, "fail": 0, "crash": 1, "hang": 1}, (counts, problems)
    assert problems[0].startswith("case 2:") and problems[1].startswith("case 5:")


def test_reference_skips_only_documented_differences():
    import fuzzgen
    ns = dict(fuzzgen.REF_GLOBALS)
    with pytest.raises(fuzzgen.Documented):
        ns["_r_W"](2 ** 63)
    assert ns["_r_W"](2 ** 63 - 1) == 2 ** 63 - 1
    with pytest.raises(fuzzgen.Documented):
        ns["_r_math"].sqrt(-1.0)
    with pytest.raises(fuzzgen.Documented):
        ns["_r_int"](float("nan"))
    with pytest.raises(fuzzgen.Documented):
        ns["_r_round"](0.05, 1)
    assert ns["_r_round"](0.25, 1) == 0.2
    with pytest.raises(fuzzgen.Documented):
        ns["_r_F"](2 ** 53 + 1)
    with pytest.raises(ZeroDivisionError):  # not documented: compared
        ns["_r_W"](1 // 0)
    jit, ref = fuzzgen.split("def f(a):\n    return @W(a + @int(@math.floor(1.5)))\n")
    assert jit == "def f(a):\n    return (a + int(math.floor(1.5)))\n"
    assert ref == "def f(a):\n    return _r_W(a + _r_int(_r_math.floor(1.5)))\n"


def test_runner_reports_a_worker_that_cannot_start(tmp_path):
    (tmp_path / "fuzzgen.py").write_text("raise ImportError('broken build')\n")
    counts, problems = runner.run(0, 4, jobs=1, chunk=4, worker_path=str(tmp_path))
    assert counts["crash"] == 1 and counts["ok"] == 0, counts
    assert problems[0].startswith("case 0..3 (worker exit status 1)") and "broken build" in \
        problems[0]
