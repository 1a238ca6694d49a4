"""The notebooks (issue 14): each runs top to bottom in a fresh Jupyter kernel, its `gpu` cells
only where there is a GPU (notebooks/run.py), and the committed copies carry their outputs."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "notebooks"))
import run as nbrun  # noqa: E402

import nbformat  # noqa: E402

NOTEBOOKS = nbrun.notebooks()


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3


# a Jupyter kernel per notebook: run by dev/test.sh (and on the GPU by dev/gpu_suite.sh's
# notebooks/run.py), not again under the sanitizers
@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # cache=True cells write here
    nb = nbrun.execute(path, nbrun.have_gpu())
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.output_type == "error" and "raises-exception" not in nbrun._tags(c)]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_committed_notebook_shows_its_output(path):
    # what a reader opens shows real output: every CPU cell was run, in order, without errors
    nb = nbformat.read(path, as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code" and "gpu" not in nbrun._tags(c)]
    counts = [c.execution_count for c in cells]
    assert None not in counts and counts == sorted(counts), counts
    for c in cells:
        bad = [o for o in c.outputs if o.output_type == "error"]
        assert not bad or "raises-exception" in nbrun._tags(c), c.source[:80]
