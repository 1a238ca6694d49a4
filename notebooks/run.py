"""Runs the notebooks top to bottom (issue 14): the tests, CI and the GPU machine call this.

    python3 notebooks/run.py [--write] [--plain] [NAME.ipynb ...]

Cells tagged `gpu` run only where cujit finds a CUDA GPU; elsewhere they are left as they are
(their stored outputs too). A cell tagged `raises-exception` may raise (it shows an error on
purpose); any other error fails the run. `--write` stores the new outputs in the notebooks.
`--plain` runs the code cells with exec() in one namespace, without Jupyter (IPython magics such
as %timeit are skipped): for machines without nbclient and ipykernel.
"""
import argparse
import copy
import glob
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GPU_TAG, RAISES_TAG = "gpu", "raises-exception"
CELL_TIMEOUT_S = 600


def notebooks(names=()):
    paths = [os.path.join(HERE, n) for n in names] or sorted(glob.glob(os.path.join(HERE, "*.ipynb")))
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        raise FileNotFoundError(f"no such notebook: {', '.join(missing)}")
    return paths


def have_gpu():
    sys.path.insert(0, os.path.join(ROOT, "pkg"))
    try:
        from cujit import cuda
        return cuda.is_available()
    finally:
        sys.path.pop(0)


def _tags(cell):
    return set(cell.get("metadata", {}).get("tags", []))


def kernel_env():
    """The kernel's environment: cujit from this checkout, figures without a display."""
    env = dict(os.environ, MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(ROOT, "pkg"),
                                                     env.get("PYTHONPATH")) if p)
    return env


def execute_notebook(nb, gpu):
    """Runs the notebook object `nb` in a fresh kernel (cwd: this folder) and stores the outputs
    in its code cells; `gpu`-tagged cells are left alone when `gpu` is false. Raises nbclient's
    CellExecutionError naming the cell on the first unexpected error."""
    from nbclient import NotebookClient
    run = copy.deepcopy(nb)
    for cell in run.cells:  # skipped cells become raw: nbclient runs code cells only
        if cell.cell_type == "code" and GPU_TAG in _tags(cell) and not gpu:
            cell.cell_type = "raw"
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
    client = NotebookClient(run, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                            resources={"metadata": {"path": HERE}})
    old_env = dict(os.environ)
    os.environ.update(kernel_env())  # the kernel process inherits it
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old_env)
    for mine, done in zip(nb.cells, run.cells):
        if mine.cell_type == "code" and done.cell_type == "code":
            mine.outputs, mine.execution_count = done.outputs, done.execution_count
    return nb


def execute(path, gpu, write=False):
    """Runs one notebook file (execute_notebook); `write` stores the outputs in the file."""
    import nbformat
    nb = execute_notebook(nbformat.read(path, as_version=4), gpu)
    if write:
        nbformat.write(nb, path)
    return nb


def execute_plain(path, gpu):
    """The code cells in order, with exec() in one namespace (magic lines skipped)."""
    import json
    with open(path) as f:
        nb = json.load(f)
    namespace = {"__name__": "__main__"}
    old_cwd = os.getcwd()
    os.chdir(HERE)
    sys.path.insert(0, os.path.join(ROOT, "pkg"))
    os.environ.setdefault("MPLBACKEND", "Agg")
    try:
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code" or (GPU_TAG in _tags(cell) and not gpu):
                continue
            src = "".join(cell["source"])
            code = "\n".join(line for line in src.splitlines()
                             if not line.lstrip().startswith(("%", "!")))
            try:
                exec(compile(code, f"<{os.path.basename(path)} cell {i}>", "exec"), namespace)
            except Exception:  # noqa: BLE001  (the cell's own error is the report)
                if RAISES_TAG not in _tags(cell):
                    raise
    finally:
        sys.path.pop(0)
        os.chdir(old_cwd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--plain", action="store_true")
    args = ap.parse_args()
    gpu, failed = have_gpu(), 0
    for path in notebooks(args.names):
        name = os.path.basename(path)
        try:
            if args.plain:
                execute_plain(path, gpu)
            else:
                execute(path, gpu, args.write)
            print(f"ok   {name} ({'with' if gpu else 'without'} the GPU cells)")
        except Exception:  # noqa: BLE001  (reported, then the next notebook)
            failed += 1
            print(f"FAIL {name}\n{traceback.format_exc()[-4000:]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
