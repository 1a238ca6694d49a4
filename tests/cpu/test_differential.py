"""Differential suite: every corpus function under the compiler vs CPython on random inputs.

Checks values (floats with tolerance, NaN == NaN, mutated array arguments too), that exceptions
match in type (and message for constant messages), that the Python type of each result matches what
numba returns (recorded in corpus/expected_types.py by validate_corpus_with_numba.py), that the
compiled return type matches numba's, and eager signatures.

CUJIT_TEST_N (default 20) sets the number of inputs per function, CUJIT_TEST_ORACLE=numba runs the
suite against numba itself.
"""
import warnings

import pytest

import _harness as H
import corpus
from corpus.expected_types import EXPECTED

pytestmark = pytest.mark.skipif(not H.HAVE_COMPILER, reason=H.SKIP_REASON)

ALL = corpus.load()
CASES = [c for c in ALL if c.scope == "issue"]
BEYOND = [c for c in ALL if c.scope != "issue"]
EAGER = [c for c in CASES if c.sig]


def test_corpus_size():
    assert len(CASES) >= 330
    assert len({c.name for c in CASES}) == len(CASES)
    missing = [c.name for c in ALL if c.name not in EXPECTED]
    assert not missing, f"rerun validate_corpus_with_numba.py: no numba record for {missing}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_values_and_types(case):
    disp = H.jitted(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        failures, seen = H.run_case(case, disp)
    assert not failures, "\n".join(failures[:5])
    pytype, rettype = EXPECTED[case.name]
    if pytype is not None:
        assert seen == {pytype}, f"result type {sorted(seen)}, numba gives {pytype}"
    if rettype is not None:
        assert H.return_type_str(disp) == H.unliteral(rettype)


@pytest.mark.parametrize("case", BEYOND, ids=[c.name for c in BEYOND])
def test_beyond_issue_scope(case):
    """numba compiles these; issue 2 does not list their feature: right, or a clean refusal."""
    try:
        disp = H.jitted(case)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            failures, _ = H.run_case(case, disp)
    except H.COMPILE_ERRORS as exc:
        if H.is_numba():
            raise
        pytest.skip(f"refused cleanly: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    assert not failures, "\n".join(failures[:5])


@pytest.mark.parametrize("case", EAGER, ids=[c.name for c in EAGER])
def test_eager_signature(case):
    disp = H.jitted(case, case.sig)
    sigs = disp.nopython_signatures
    assert len(sigs) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        failures, _ = H.run_case(case, disp, n=5)
    assert not failures, "\n".join(failures[:5])
    assert len(disp.nopython_signatures) == 1, "an eager dispatcher compiled another version"
