"""jit(cache=True): compiled code persisted on disk, keyed so any change recompiles, and a
corrupt or truncated entry recompiled, never trusted. Each scenario runs in fresh processes."""
import glob
import os
import subprocess
import sys
import textwrap

import pytest

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg")

MODULE = """
import math
import numpy as np
from cujit import njit
SCALE = {scale}

@njit(cache=True)
def inner(x):
    if x < 0:
        raise ValueError("negative!")
    return math.sqrt(x) * SCALE

@njit(cache=True)
def outer(a):
    s = 0.0
    for v in a:
        s += inner(v)
    return s
"""

RUN = """
import sys
sys.path.insert(0, {pkg!r}); sys.path.insert(0, {here!r})
import numpy as np, mod
r = mod.outer(np.arange(4.0))
try:
    mod.outer(np.array([-1.0]))
    raised = None
except ValueError as e:
    raised = str(e)
print(r, raised, mod.outer._cache.hits, mod.inner._cache.hits)
"""


def run(tmp_path, env=None):
    code = RUN.format(pkg=PKG, here=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, check=True)
    value, raised, outer_hits, inner_hits = out.stdout.split()[-4:]
    return float(value), raised, int(outer_hits), int(inner_hits)


@pytest.fixture
def project(tmp_path):
    def write(scale=3):
        (tmp_path / "mod.py").write_text(MODULE.format(scale=scale))
        for stale in tmp_path.glob("__pycache__/mod*.pyc"):
            stale.unlink()
    write()
    return tmp_path, write


def expected(scale):
    return sum(x ** 0.5 for x in range(4)) * scale


def entries(path):
    return sorted(glob.glob(os.path.join(path, "__pycache__", "*.cjc")))


def test_second_process_loads_from_disk(project):
    path, _ = project
    first = run(path)
    assert first[0] == pytest.approx(expected(3)) and first[1] == "negative!"
    assert first[2] == 0 and len(entries(path)) == 2
    second = run(path)
    assert second[:2] == first[:2]
    assert second[2] >= 1 and second[3] >= 0  # outer came from disk


def test_a_changed_global_invalidates_callers_too(project):
    path, write = project
    run(path)
    write(scale=5)
    result = run(path)
    assert result[0] == pytest.approx(expected(5))
    assert result[2] == 0  # recompiled: the callee's global is part of the caller's key


def test_corrupt_and_truncated_entries_are_recompiled(project):
    path, _ = project
    run(path)
    files = entries(path)
    with open(files[0], "r+b") as f:
        f.seek(60)
        f.write(b"\xff" * 16)
    with open(files[1], "r+b") as f:
        f.truncate(40)
    result = run(path)
    assert result[0] == pytest.approx(expected(3)) and result[2] == 0
    again = run(path)  # the entries were rewritten and are good again
    assert again[2] >= 1


def test_cache_dir_is_configurable(project, tmp_path_factory):
    path, _ = project
    elsewhere = tmp_path_factory.mktemp("cachedir")
    run(path, env={"CUJIT_CACHE_DIR": str(elsewhere)})
    assert len(glob.glob(os.path.join(elsewhere, "*.cjc"))) == 2
    assert entries(path) == []


def test_code_holding_process_addresses_is_not_cached(tmp_path):
    (tmp_path / "mod2.py").write_text(textwrap.dedent("""
        import numpy as np
        from cujit import njit
        TABLE = np.arange(5.0)
        @njit(cache=True)
        def lookup(i):
            return TABLE[i]
    """))
    code = (f"import sys; sys.path.insert(0, {PKG!r}); sys.path.insert(0, {str(tmp_path)!r})\n"
            "import mod2; print(mod2.lookup(3))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3.0"
    assert glob.glob(os.path.join(tmp_path, "__pycache__", "*.cjc")) == []


UFUNC_MODULE = """
import math
from cujit import vectorize, guvectorize, float64

@vectorize(["float64(float64)", "float32(float32)"], cache=True)
def soft(x):
    return math.log1p(math.exp(x))

@guvectorize([(float64[:], float64[:])], "(n)->()", cache=True)
def total(a, out):
    s = 0.0
    for v in a:
        s += v
    out[0] = s
"""

UFUNC_RUN = """
import sys
sys.path.insert(0, {pkg!r}); sys.path.insert(0, {here!r})
import numpy as np, mod
print(mod.soft(np.array([0.0, 1.0])).sum(), mod.total(np.ones((2, 3))).sum())
"""


def test_vectorize_and_guvectorize_cache_on_disk(tmp_path):
    (tmp_path / "mod.py").write_text(UFUNC_MODULE)
    code = UFUNC_RUN.format(pkg=PKG, here=str(tmp_path))

    def run_once():
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        return [float(v) for v in out.stdout.split()]
    first = run_once()
    assert first == pytest.approx([math_log1p_exp(0.0) + math_log1p_exp(1.0), 6.0])
    files = entries(tmp_path)
    assert len(files) == 3  # two vectorize loops, one gufunc loop
    stamps = [os.stat(f).st_mtime_ns for f in files]
    assert run_once() == first
    assert entries(tmp_path) == files
    assert [os.stat(f).st_mtime_ns for f in files] == stamps  # loaded, not compiled again


def math_log1p_exp(x):
    import math
    return math.log1p(math.exp(x))
