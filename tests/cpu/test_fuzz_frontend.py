"""PYTEST_DONT_REWRITE

Frontend fuzzing: hypothesis draws small functions from the generator of tests/fuzz/fuzzgen.py
(int locals a, b; float locals x, y; bool p; arithmetic, bitwise ops, comparisons, and/or/not,
if/elif/else, bounded while, for over range, tuples and swaps, abs/min/max/round/int/float,
math.*, early returns), compiles each and runs it on a few inputs.  Every outcome must be the
CPython result (or the same exception type), or a TypingError/UnsupportedError from the compiler;
never a crash or another exception.  Integer assignments are folded into [-1000, 1000]; results
that differ only in documented ways (int64 wraparound, math domain errors) are not compared.

The default run is quick (200 examples, derandomized); `-m slow` runs thousands.
"""
import math
import os
import sys

import pytest

import _harness as H

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

pytestmark = pytest.mark.skipif(not H.HAVE_COMPILER, reason=H.SKIP_REASON)

# one generator for both fuzzers: tests/fuzz/fuzzgen.py (the seeded run there covers 2,500
# programs with edge values in child processes; this one lets hypothesis shrink a failure)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "fuzz"))
import fuzzgen  # noqa: E402


@st.composite
def programs(draw):
    return fuzzgen.program(fuzzgen.HypothesisSource(draw), n_stmts=draw(st.integers(1, 5)))


ARGS = st.tuples(st.integers(-50, 50), st.integers(-50, 50),
                 st.floats(-50, 50, allow_nan=False), st.floats(-50, 50, allow_nan=False),
                 st.booleans())


def check_program(marked, arg_sets):
    return fuzzgen.check_program(marked, arg_sets, H.njit, H.COMPILE_ERRORS)


def fuzz_settings(**kw):
    return settings(deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much], **kw)


@fuzz_settings(max_examples=200, derandomize=True)
@given(programs(), st.lists(ARGS, min_size=1, max_size=3))
def test_fuzz_quick(src, arg_sets):
    check_program(src, arg_sets)


@pytest.mark.slow
@fuzz_settings(max_examples=750)
@given(programs(), st.lists(ARGS, min_size=1, max_size=3))
def test_fuzz_many(src, arg_sets):
    check_program(src, arg_sets)


def test_generator_produces_valid_python():
    # the grammar itself: CPython compiles and runs what it generates
    @settings(max_examples=50, derandomize=True, deadline=None, database=None)
    @given(programs(), ARGS)
    def run(marked, args):
        jit_src, ref_src = fuzzgen.split(marked)
        compile(jit_src, "<fuzzed>", "exec")
        ns = dict(fuzzgen.REF_GLOBALS)
        exec(compile(ref_src, "<fuzzed-ref>", "exec"), ns)
        try:
            ns["fuzzed"](*args)
        except (ZeroDivisionError, fuzzgen.Documented):
            pass
    run()


def test_known_program_matches():
    src = ("def fuzzed(a, b, x, y, p):\n    for i0 in range(4):\n        a = (a + i0) % 2001 - 1000\n"
           "        if a > b:\n            a, b = b, a\n    x = min(x, y) / 2.0\n"
           "    return (a, b, x, y, p)\n")
    assert check_program(src, [(3, -4, 1.5, 2.5, True), (-50, 50, -1.0, 0.0, False)]) == "ok"
    assert math.isfinite(1.0)
