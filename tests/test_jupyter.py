"""What Jupyter users expect (issue 14), in real kernels (nbclient): cache=True entries of
cell-defined functions survive a kernel restart, a re-run cell with a new body recompiles,
errors render as the cell's own traceback, %timeit works."""
import os
import re
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "notebooks"))
import run as nbrun  # noqa: E402

from nbformat.v4 import new_code_cell, new_notebook  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_cells(*sources, allow_errors=False):
    nb = new_notebook(cells=[new_code_cell(s) for s in sources])
    if allow_errors:
        for c in nb.cells:
            c.metadata["tags"] = ["raises-exception"]
    nbrun.execute_notebook(nb, gpu=False)
    return [c.outputs for c in nb.cells]


def text_of(outputs):
    return "".join(o.get("text", "") for o in outputs if o.output_type == "stream")


CACHED = """
import cujit
@cujit.njit(cache=True)
def f(x):
    return x * 7 + 1
print(f(6), f._cache.hits, f._cache.misses)
"""


def test_cache_hits_after_a_kernel_restart(tmp_path, monkeypatch):
    # ipykernel names cells /tmp/ipykernel_<pid>/<hash>.py: a new folder per kernel, so the
    # cache folder must not come from it (numba hits here too)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CUJIT_CACHE_DIR", raising=False)
    first = text_of(run_cells(CACHED)[0]).split()
    second = text_of(run_cells(CACHED)[0]).split()
    assert first == ["43", "0", "1"] and second == ["43", "1", "0"], (first, second)
    assert os.listdir(tmp_path / "cujit" / "ipython")  # one folder for notebook cells


def test_a_rerun_cell_with_a_new_body_recompiles():
    outs = run_cells("import cujit\n@cujit.njit\ndef g(x):\n    return x + 1\nprint(g(1))",
                     "@cujit.njit\ndef g(x):\n    return x * 10\nprint(g(1))")
    assert [text_of(o).strip() for o in outs] == ["2", "10"]


def test_errors_render_as_the_cells_traceback():
    outs = run_cells("import cujit\n@cujit.njit\ndef h(a):\n    return a + (1, 2)\nh(1)",
                     allow_errors=True)
    err = [o for o in outs[0] if o.output_type == "error"][0]
    assert err.ename == "TypingError"
    shown = ANSI.sub("", "\n".join(err.traceback))
    assert "return a + (1, 2)" in shown and "\n    ^" in shown and "in h:" in shown
    # no frames of cujit's own Python (the dispatcher is C): only the cell
    assert "site-packages" not in shown and "cujit/" not in shown.replace("cujit nopython", "")


def test_timeit_on_a_jitted_function():
    outs = run_cells("import cujit\n@cujit.njit\ndef k(x):\n    return x * x\n"
                     "%timeit -n 1000 -r 3 k(3.0)")
    assert "per loop" in text_of(outs[0])
