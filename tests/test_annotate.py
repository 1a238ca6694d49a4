"""The annotated source report (issue 14): cujit.annotate, inspect_types(pretty=True) and
`python -m cujit --annotate-html`. Every line with IR compiled in nopython mode (green)."""
import os
import re
import subprocess
import sys

import pytest

import cujit
from cujit import annotation as ann
from cujit import cuda

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@cujit.njit
def accumulate(a, n):
    s = 0.0
    for i in range(n):
        s += a * i  # < & > in a comment are escaped
    return s


def test_parse_gives_each_line_its_source_and_types():
    accumulate(1.5, 3)
    text = ann._versions(accumulate, accumulate.signatures[0])[0]
    title, file, rows = ann.parse(text)
    assert title == "accumulate (float64, int64)" and file == __file__
    by_line = {n: (src, ir) for n, src, ir in rows}
    first = accumulate.py_func.__code__.co_firstlineno
    src, ir = by_line[first + 4]
    assert src.strip().startswith("s += a * i") and any(":: float64" in x for x in ir)
    assert by_line[first + 1][0].strip() == "def accumulate(a, n):" and not by_line[first + 1][1]
    assert "return s" in by_line[first + 5][0]


def test_html_colours_compiled_lines_and_escapes_source():
    accumulate(1.5, 3)
    accumulate(2, 3)
    report = cujit.annotate(accumulate)
    assert len(report.texts) == 2
    page = report.html()
    assert page.count("<h3>") == 2 and "accumulate (int64, int64)" in page
    rows = re.findall(r"<tr( class=\"nopython\"[^>]*)?><td class=\"lineno\">(\d+)</td>", page)
    coloured = {int(n) for cls, n in rows if cls}
    plain = {int(n) for cls, n in rows if not cls}
    first = accumulate.py_func.__code__.co_firstlineno
    assert {first + 2, first + 3, first + 4, first + 5} <= coloured
    assert first + 1 in plain  # the def line has no IR of its own
    assert "&lt; &amp; &gt; in a comment" in page and "< & > in a comment" not in page
    assert "&lt;class &#x27;range&#x27;&gt;" in page  # the IR text is escaped too
    assert str(report).count("accumulate (") == 2


def test_inspect_types_pretty_returns_the_report():
    accumulate(1.5, 3)
    r = accumulate.inspect_types(pretty=True)
    assert isinstance(r, ann.Annotation) and "cujit-annotation" in r._repr_html_()
    one = accumulate.inspect_types(signature=accumulate.signatures[0], pretty=True)
    assert len(one.texts) == 1


def test_cuda_kernel_report():
    def k(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * 2
    kern = cuda.jit("void(float32[:])")(k)
    r = kern.inspect_types(pretty=True)
    assert len(r.texts) == 1 and "array(float32, 1d, A)" in r.html()


def test_annotate_refuses_plain_functions():
    with pytest.raises(TypeError, match="jitted functions"):
        cujit.annotate(len)
    assert "call the function first" in cujit.annotate(cujit.njit(lambda x: x))._repr_html_()


def test_command_line_report(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text("import sys, cujit\n\n@cujit.njit\ndef twice(x):\n    return x * 2\n\n"
                      "print(twice(int(sys.argv[1])))\n")
    out = tmp_path / "report.html"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pkg"))
    r = subprocess.run([sys.executable, "-m", "cujit", "--annotate-html", str(out), str(script),
                        "21"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "42" and "annotated 1 compiled version" in r.stderr
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "twice (int64,)" in page
    assert re.search(r'<tr class="nopython"[^>]*><td class="lineno">5</td>', page)


def test_command_line_usage_errors():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pkg"))
    r = subprocess.run([sys.executable, "-m", "cujit"], env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "--annotate-html" in r.stderr
    r = subprocess.run([sys.executable, "-m", "cujit", "--sysinfo"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "CUDA GPU available" in r.stdout


def _objmode_fn(data, n):
    tag = str(len(data))          # object mode
    total = 0.0
    for i in range(n):            # lifted
        total += data[i % data.size]
    return tag, total             # object mode


def test_object_mode_report_colours_lifted_loops_green_and_the_rest_red(tmp_path):
    import numpy as np
    disp = cujit.jit(forceobj=True)(_objmode_fn)
    disp(np.arange(4.0), 10)
    page = cujit.annotate(disp).html()
    first = _objmode_fn.__code__.co_firstlineno
    rows = dict((int(n), cls) for cls, n in re.findall(
        r'<tr class="(\w+)"[^>]*><td class="lineno">(\d+)</td>', page))
    assert rows[first + 1] == "objmode" and rows[first + 5] == "objmode"
    assert rows[first + 3] == "nopython" and rows[first + 4] == "nopython"
    assert "object mode, 1 lifted loop(s)" in page and ":: float64" in page
    assert disp.inspect_types(pretty=True).html() == page
    # the command line report: the function once, its lifted loop not again on its own
    script = tmp_path / "om.py"
    script.write_text("import numpy as np, cujit\n\n@cujit.jit(forceobj=True)\n"
                      "def g(a):\n    s = 0.0\n    for v in a:\n        s += v\n"
                      "    return str(s)\n\nprint(g(np.ones(3)))\n")
    out = tmp_path / "om.html"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "pkg"))
    r = subprocess.run([sys.executable, "-m", "cujit", "--annotate-html", str(out), str(script)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "3.0", r.stderr
    page = out.read_text()
    assert page.count("<h3>") == 1 and "g: object mode, 1 lifted loop(s)" in page
    assert re.search(r'<tr class="objmode"[^>]*><td class="lineno">8</td>', page)
    assert re.search(r'<tr class="nopython"[^>]*><td class="lineno">7</td>', page)
