"""The examples of docs/python_features.md, run: the page's claims stay true of the code.

Three markers, each an HTML comment on the line before a ```python block:
- `<!-- check: f(3); f(-1) -->`: the block is run twice, by CPython and with every function it
  defines compiled by cujit.njit; each call (separated by ';') must give exactly the same result
  (tests/exactness.py: values and types), or raise the same exception class, and print the same.
- `<!-- refused: f(3) -> TypingError: Unknown attribute -->`: what cujit does not compile yet;
  the call, compiled, must raise that class (cujit.errors or a builtin) with that text in its
  message. When a gap closes, the test fails until the page says what works.
- `<!-- known-wrong: f(2) -->`: a wrong result the page owns up to (no error, a value unlike
  CPython's and numba's); the call must still differ from CPython until it is fixed.
The blocks are registered with linecache so that `with objmode(...)` finds their source."""
import builtins
import contextlib
import io
import linecache
import os
import re
import types

import pytest

import cujit.errors
from cujit import njit

from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

PAGE = os.path.join(os.path.dirname(__file__), "..", "docs", "python_features.md")
MARKER = re.compile(r"^<!-- (check|refused|known-wrong): (.*) -->$")
REFUSAL = re.compile(r"^(.*) -> (\w+): (.*)$")


def _examples():
    """(line number, kind, marker text, code) of each marked block of the page."""
    with open(PAGE, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    found = []
    for i, line in enumerate(lines):
        m = MARKER.match(line.strip())
        if not m:
            continue
        assert lines[i + 1].strip() == "```python", f"line {i + 1}: no ```python after the marker"
        end = lines.index("```", i + 2)
        found.append((i + 1, m.group(1), m.group(2), "\n".join(lines[i + 2:end]) + "\n"))
    return found


EXAMPLES = _examples()


def _load(code, lineno, jit):
    """Runs the block in a fresh namespace; with jit, its functions are replaced by njit ones
    (their globals are that namespace, so a jitted function calls the jitted others)."""
    filename = f"<python_features.md:{lineno}:{'jit' if jit else 'py'}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    ns = {"__name__": "python_features_doc"}
    try:
        exec(compile(code, filename, "exec"), ns)
    except ModuleNotFoundError as e:  # cffi is optional
        pytest.skip(f"the example needs {e.name}")
    if jit:
        for name, value in list(ns.items()):
            if isinstance(value, types.FunctionType) and value.__code__.co_filename == filename:
                ns[name] = njit(value)
    return ns


def _outcome(call, ns):
    """(result or None, exception class or None, printed text) of evaluating call in ns."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            return eval(call, ns), None, out.getvalue()
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            return None, type(e), out.getvalue()


def _same_class(a, b):
    """The block's own exception classes exist once per namespace: those compare by name."""
    if a is b:
        return True
    return (a is not None and b is not None and a.__module__ == b.__module__ ==
            "python_features_doc" and a.__qualname__ == b.__qualname__)


def _error_class(name):
    cls = getattr(cujit.errors, name, None) or getattr(builtins, name, None)
    assert isinstance(cls, type) and issubclass(cls, BaseException), name
    return cls


def test_every_example_is_marked():
    """No unverified example: each ```python block of the page follows a marker."""
    with open(PAGE, encoding="utf-8") as fh:
        blocks = fh.read().count("```python")
    assert blocks == len(EXAMPLES), (blocks, len(EXAMPLES))


def test_page_has_examples():
    kinds = [kind for _, kind, _, _ in EXAMPLES]
    assert kinds.count("check") >= 50 and kinds.count("refused") >= 20, kinds  # gaps close


@pytest.mark.parametrize("lineno,calls,code",
                         [(n, t, c) for n, k, t, c in EXAMPLES if k == "check"],
                         ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_example_matches_python(lineno, calls, code):
    plain, jitted = _load(code, lineno, False), _load(code, lineno, True)
    for call in calls.split(";"):
        want, want_exc, want_out = _outcome(call.strip(), plain)
        got, got_exc, got_out = _outcome(call.strip(), jitted)
        assert _same_class(got_exc, want_exc), (call, got_exc, want_exc)
        assert got_out == want_out, (call, got_out, want_out)
        if want_exc is None:
            exact(got, want)


@pytest.mark.parametrize("lineno,call,code",
                         [(n, t, c) for n, k, t, c in EXAMPLES if k == "known-wrong"],
                         ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_known_wrong_example_still_differs(lineno, call, code):
    want, want_exc, _ = _outcome(call, _load(code, lineno, False))
    got, got_exc, _ = _outcome(call, _load(code, lineno, True))
    assert want_exc is None and got_exc is None, (want_exc, got_exc)
    with pytest.raises(AssertionError):
        exact(got, want)


@pytest.mark.parametrize("lineno,refusal,code",
                         [(n, t, c) for n, k, t, c in EXAMPLES if k == "refused"],
                         ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_refused_example_says_why(lineno, refusal, code):
    m = REFUSAL.match(refusal)
    assert m, f"line {lineno}: refused marker is `call -> ErrorClass: text`"
    call, cls, text = m.group(1).strip(), _error_class(m.group(2)), m.group(3).strip()
    plain = _load(code, lineno, False)
    _, py_exc, _ = _outcome(call, plain)
    assert py_exc is None, f"line {lineno}: CPython itself fails the example ({py_exc})"
    with pytest.raises(cls) as info:
        jitted = _load(code, lineno, True)
        eval(call, jitted)
    assert text in str(info.value), (text, str(info.value))
