"""The annotated source report (numba's `--annotate-html` and `inspect_types(pretty=True)`).

Each compiled version of a function shows its source line by line with the typed IR of each
line. Lines that compiled in nopython mode are green (every line that has IR), the body of a
`with objmode()` block red (it runs in Python). An object-mode function (jit(forceobj=True))
shows its whole source: its lifted loops green, with the types of their compiled versions, and
every other line red. The typed text
comes from the compiler's own annotation (csrc/ir: `# --- LINE n ---`, the IR lines, then the
source line), the same text `inspect_types()` prints.

    cujit.annotate(f, g)                    # in Jupyter: renders inline
    cujit.annotate(f).save("report.html")
    f.inspect_types(pretty=True)            # the same object
    python -m cujit --annotate-html out.html script.py [args]
"""
import html
import re

_LINE = re.compile(r"# --- LINE (\d+) --- ?$")
_IR = "    #   "
_RULE = "=" * 80

_CSS = """
<style>
.cujit-annotation { border-collapse: collapse; font-family: monospace; font-size: 12px; }
.cujit-annotation td { padding: 0 6px; vertical-align: top; }
.cujit-annotation .lineno { color: #777; text-align: right; }
.cujit-annotation tr.nopython td.src { background: #d8f5d8; }
.cujit-annotation tr.objmode td.src { background: #f8d7d7; }
.cujit-annotation summary { cursor: pointer; white-space: pre; }
.cujit-annotation pre { margin: 2px 0 6px 12px; color: #333; }
.cujit-annotation td.src > code { white-space: pre; }
</style>
"""


def parse(text):
    """One version's annotation text -> (title, file, [(lineno, source, [ir lines])])."""
    lines = text.splitlines()
    title = lines[0].strip() if lines else ""
    file = ""
    rows, current = [], None
    for line in lines[1:]:
        m = _LINE.match(line)
        if m:
            current = [int(m.group(1)), None, []]
            rows.append(current)
        elif line.startswith("# File: ") and current is None:
            file = line[len("# File: "):]
        elif current is not None and current[1] is None:
            if line.startswith(_IR):
                current[2].append(line[len(_IR):])
            else:
                current[1] = line  # the source line ends the block
    return title, file, [(n, src or "", ir) for n, src, ir in rows]


def _versions(dispatcher, signature=None):
    """The annotation texts of a dispatcher's versions (CPU or CUDA)."""
    import io
    buf = io.StringIO()
    dispatcher.inspect_types(signature, file=buf)
    return [t.strip("\n") for t in buf.getvalue().split(_RULE) if t.strip()]


def _table(text, in_python=frozenset()):
    """One version's table; lines (file, n) in `in_python` without IR run in Python."""
    title, file, rows = parse(text)
    out = [f"<h3>{html.escape(title)}</h3>",
           f"<p>File: <code>{html.escape(file)}</code></p>",
           '<table class="cujit-annotation">']
    for lineno, src, ir in rows:
        code = f"<code>{html.escape(src)}</code>"
        if ir:
            body = html.escape("\n".join(ir))
            cell = f"<details><summary>{code}</summary><pre>{body}</pre></details>"
            cls = ' class="nopython" title="compiled in nopython mode"'
        elif (file, lineno) in in_python:
            cell, cls = code, ' class="objmode" title="objmode block: runs in Python"'
        else:
            cell, cls = code, ""
        out.append(f'<tr{cls}><td class="lineno">{lineno}</td><td class="src">{cell}</td></tr>')
    out.append("</table>")
    return "\n".join(out)


def _objmode_table(disp):
    """An object-mode function (jit(forceobj=True)): its whole source, lines of lifted loops
    green with the types of their compiled versions, the others red (they run in Python)."""
    import inspect
    try:
        lines, first = inspect.getsourcelines(disp.py_func)
    except (OSError, TypeError):
        return f"<h3>{html.escape(disp.__qualname__)}: object mode (no source)</h3>"
    types_by_line = {}
    for loop in disp.lifted:
        for text in _versions(loop.dispatcher):
            for n, _src, ir in parse(text)[2]:
                types_by_line.setdefault(n, []).extend(ir)
    out = [f"<h3>{html.escape(disp.__qualname__)}: object mode, "
           f"{len(disp.lifted)} lifted loop(s)</h3>", '<table class="cujit-annotation">']
    for i, src in enumerate(lines):
        n = first + i
        loop = next((lp for lp in disp.lifted if lp.lineno <= n <= lp.end_lineno), None)
        code = f"<code>{html.escape(src.rstrip())}</code>"
        if loop is not None:
            ir = types_by_line.get(n)
            cell = (f"<details><summary>{code}</summary><pre>{html.escape(chr(10).join(ir))}"
                    f"</pre></details>" if ir else code)
            cls = f' class="nopython" title="lifted loop {loop.name}: nopython mode"'
        else:
            cell, cls = code, ' class="objmode" title="object mode: runs in Python"'
        out.append(f'<tr{cls}><td class="lineno">{n}</td><td class="src">{cell}</td></tr>')
    out.append("</table>")
    return "\n".join(out)


class Annotation:
    """The report of some dispatchers' compiled versions: HTML in Jupyter (`_repr_html_`), the
    inspect_types text as str(), `save(path)` for a page. Object-mode functions add a table of
    their whole source (`objmode_tables`)."""

    def __init__(self, texts, objmode_tables=(), in_python=()):
        self.texts = list(texts)
        self.objmode_tables = list(objmode_tables)
        self.in_python = frozenset(in_python)  # (file, line) of objmode blocks' bodies

    def __str__(self):
        return ("\n" + _RULE + "\n").join(self.texts)

    def _repr_html_(self):
        legend = ("<p>cujit annotation: each line's types (click a line); green lines compiled "
                  "in nopython mode, red lines run in object mode (Python).</p>")
        if not self.texts and not self.objmode_tables:
            return _CSS + legend + "<p>No compiled versions yet: call the function first.</p>"
        return _CSS + legend + "\n".join(self.objmode_tables +
                                          [_table(t, self.in_python) for t in self.texts])

    def html(self):
        return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>cujit annotation"
                "</title></head><body>\n" + self._repr_html_() + "\n</body></html>\n")

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html())
        return path


def annotate(*dispatchers, signature=None):
    """The report of the compiled versions of `dispatchers` (jit/njit or cuda.jit)."""
    from .object_mode import ObjModeDispatcher
    texts, tables, in_python = [], [], set()
    for d in dispatchers:
        if isinstance(d, ObjModeDispatcher):
            tables.append(_objmode_table(d))
            continue
        if not hasattr(d, "inspect_types"):
            raise TypeError(f"annotate() takes jitted functions, not {type(d).__name__}")
        texts.extend(_versions(d, signature))
        in_python |= _block_lines(d)
    return Annotation(texts, tables, in_python)


def _block_lines(dispatcher):
    """(file, line) of the bodies of the function's `with objmode()` blocks."""
    from .withcontexts import ObjModeBlock
    func = getattr(dispatcher, "py_func", None)
    code = getattr(func, "__code__", None)
    if code is None:
        return set()
    blocks = [func.__globals__.get(n) for n in code.co_names]
    return {(code.co_filename, n) for b in blocks if isinstance(b, ObjModeBlock)
            for n in range(b.lineno + 1, b.end_lineno + 1)}


def all_dispatchers():
    """Every live jit/njit, object-mode and cuda.jit dispatcher (for the command line report);
    a lifted loop's own dispatcher shows inside its function's table, not again."""
    import gc
    from .decorators import Dispatcher
    from .cuda.compiler import CUDADispatcher
    from .object_mode import ObjModeDispatcher
    found = [o for o in gc.get_objects()
             if isinstance(o, (Dispatcher, CUDADispatcher, ObjModeDispatcher))]
    inner = {id(loop.dispatcher) for o in found if isinstance(o, ObjModeDispatcher)
             for loop in o.lifted}
    return [o for o in found if id(o) not in inner]
