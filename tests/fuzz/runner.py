"""PYTEST_DONT_REWRITE

Runs fuzz cases in child processes, so a crash (a signal) or a hang (a compiled infinite loop
cannot be interrupted in-process) is caught and pinned to one case.

`python3 runner.py DIR SEED START STOP` is a worker (DIR holds fuzzgen.py): before each case it prints `start I`, after it
`ok I` / `cerr I` (clean compile error) / `fail I <json message>`, flushing each line.  The
parent reads the lines; when a worker dies or prints nothing for `hang_s`, the case it last
started is the culprit (no bisecting needed: the progress lines name it), and a new worker goes
on from the next case.
"""
import json
import os
import selectors
import subprocess
import tempfile
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def worker(seed, start, stop):
    import fuzzgen
    try:
        import cujit
        njit, errs = cujit.njit, (cujit.errors.TypingError, cujit.errors.UnsupportedError)
    except ImportError:  # the runner's own test uses a fake generator
        njit, errs = None, ()
    out = sys.stdout
    for i in range(start, stop):
        out.write(f"start {i}\n")
        out.flush()
        marked, arg_sets = fuzzgen.case(seed, i)
        try:
            status = fuzzgen.check_program(marked, arg_sets, njit, errs)
            out.write(f"{'ok' if status == 'ok' else 'cerr'} {i}\n")
        except BaseException as exc:  # noqa: BLE001  (AssertionError or an unexpected one)
            msg = exc.args[0] if isinstance(exc, AssertionError) and exc.args else \
                f"{type(exc).__name__}: {exc}\n{fuzzgen.split(marked)[0]}"
            out.write(f"fail {i} {json.dumps(msg)}\n")
        out.flush()


class _Worker:
    def __init__(self, seed, start, stop, env, worker_path):
        self.stop = stop
        self.current = None
        self.next = start
        self.buf = b""
        self.last = time.monotonic()
        self.err = tempfile.TemporaryFile()  # a pipe could fill and stall the worker
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), worker_path, str(seed), str(start),
             str(stop)],
            stdout=subprocess.PIPE, stderr=self.err, env=env)
        os.set_blocking(self.proc.stdout.fileno(), False)


def run(seed, n, jobs=2, hang_s=20.0, chunk=250, worker_path=HERE, env_extra=None):
    """Runs cases 0..n-1 of `seed` (the workers' environment plus `env_extra`); returns a dict
    of counts and a list of problems (each 'case I: ...')."""
    env = dict(os.environ, **(env_extra or {}))
    pkg = os.path.join(os.path.dirname(os.path.dirname(HERE)), "pkg")
    env["PYTHONPATH"] = pkg + os.pathsep + env.get("PYTHONPATH", "")
    todo = [(s, min(s + chunk, n)) for s in range(0, n, chunk)]
    counts = {"ok": 0, "cerr": 0, "fail": 0, "crash": 0, "hang": 0}
    problems = []
    sel = selectors.DefaultSelector()
    live = []

    def spawn(start, stop):
        w = _Worker(seed, start, stop, env, worker_path)
        sel.register(w.proc.stdout, selectors.EVENT_READ, w)
        live.append(w)

    def retire(w, kind, why):
        sel.unregister(w.proc.stdout)
        live.remove(w)
        if w.proc.poll() is None:
            w.proc.kill()
        w.proc.wait()
        w.err.seek(0)
        err = w.err.read().decode(errors="replace")[-2000:]
        w.err.close()
        w.proc.stdout.close()
        if w.current is not None:
            counts[kind] += 1
            problems.append(f"case {w.current}: {why}\n{err}")
            if isinstance(w.current, int) and w.current + 1 < w.stop:
                todo.insert(0, (w.current + 1, w.stop))

    while todo or live:
        while todo and len(live) < jobs:
            spawn(*todo.pop(0))
        for key, _ in sel.select(timeout=1.0):
            w = key.data
            data = w.proc.stdout.read()
            if data is None:  # nothing to read after all
                continue
            if not data:  # EOF: finished or died
                rc = w.proc.wait()
                if rc != 0 and w.current is None:  # outside a case: import failed, say
                    w.current = f"{w.next}..{w.stop - 1} (worker exit status {rc})"
                    w.stop = -1
                retire(w, "crash", f"worker died (exit status {rc})")
                continue
            w.last = time.monotonic()
            w.buf += data
            *lines, w.buf = w.buf.split(b"\n")
            for line in lines:
                kind, idx, *rest = line.decode().split(" ", 2)
                if kind == "start":
                    w.current = int(idx)
                    continue
                w.current = None
                w.next = int(idx) + 1
                counts[kind] += 1
                if kind == "fail":
                    problems.append(f"case {idx}: {json.loads(rest[0])}")
        now = time.monotonic()
        for w in list(live):
            if now - w.last > hang_s:
                retire(w, "hang", f"no progress for {hang_s} s (hang)")
    return counts, problems


def source_of(seed, index):
    sys.path.insert(0, HERE)
    import fuzzgen
    marked, args = fuzzgen.case(seed, index)
    return fuzzgen.split(marked)[0], args


if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])  # where fuzzgen.py is
    worker(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
