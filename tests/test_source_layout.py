"""The C core's map holds (docs/architecture.md): each folder includes only the folders below
it, so no two folders include each other; no C file over 800 lines; no function over 80."""
import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "csrc")

# folder -> the folders it may include (besides itself); the order of docs/architecture.md
ALLOWED = {
    "util": set(),
    "abi": {"util"},
    "types": {"abi", "util"},
    "ir": {"types", "abi", "util"},
    "frontend": {"ir", "types", "abi", "util"},
    "typing": {"ir", "types", "abi", "util"},
    "lower": {"typing", "ir", "types", "abi", "util"},
    "target": {"abi", "util"},
    "cuda": {"types", "abi", "util"},
    "jit": {"cuda", "target", "lower", "typing", "frontend", "ir", "types", "abi", "util"},
}
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80


def _sources():
    for folder, _, files in os.walk(ROOT):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.join(folder, name)


def _folder(path):
    rel = os.path.relpath(path, ROOT)
    return rel.split(os.sep)[0] if os.sep in rel else None


def test_every_folder_is_on_the_map():
    folders = {_folder(p) for p in _sources()} - {None}
    assert folders == set(ALLOWED)


def test_includes_follow_the_layers():
    bad = []
    for path in _sources():
        here = _folder(path)
        for inc in re.findall(r'^#include "([a-z_]+)/', open(path).read(), re.M):
            if here is not None and inc != here and inc not in ALLOWED[here]:
                bad.append(f"{os.path.relpath(path, ROOT)} includes {inc}/")
    assert bad == []


def test_the_allowed_includes_have_no_circle():
    def reaches(a, b, seen=()):
        return any(n == b or (n not in seen and reaches(n, b, seen + (n,))) for n in ALLOWED[a])
    assert [f for f in ALLOWED if reaches(f, f)] == []


def test_no_file_over_the_limit():
    long = [(os.path.relpath(p, ROOT), n) for p in _sources()
            if (n := len(open(p).read().splitlines())) > MAX_FILE_LINES]
    assert long == []


def _functions(text):
    """(name, lines) of each function definition, from the line of its opening brace (the
    signature may span lines) to its closing brace at column 0."""
    lines = text.splitlines()
    head = ""  # the top-level declaration read so far
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = re.sub(r"/\*.*?\*/\s*$", "", line).strip()  # a comment after the brace
        if not head and (not line[:1].isalpha() or line.startswith("#")):
            i += 1
            continue
        head += " " + stripped
        if stripped.endswith((";", "}", "};")) or "=" in head.split("(")[0]:
            head = "" if not stripped.endswith("{") else head
            if not head:
                i += 1
                continue
        if stripped.endswith("{"):
            m = re.search(r"\b(\w+)\s*\(", head)
            kind = head.split()[0]
            is_function = (m is not None and "=" not in head and
                           kind not in ("typedef", "struct", "enum", "union"))
            j = i + 1  # a function ends at "}", a type or an initializer at "} name;" too
            while j < len(lines) and not (lines[j] == "}" if is_function
                                          else lines[j].startswith("}")):
                j += 1
            if is_function:
                yield m.group(1), j - i + 1
            head = ""
            i = j
        i += 1


def test_functions_fit_on_a_screen():
    long = [(os.path.relpath(p, ROOT), name, n) for p in _sources() if p.endswith(".c")
            for name, n in _functions(open(p).read()) if n > MAX_FUNCTION_LINES]
    assert long == []


def test_the_checker_sees_long_functions():
    body = "    x();\n" * 90 + "}\n"
    src = ("static const int t[] = {\n    1,\n};\n/* c */\nint f(void) {\n" + body +
           "static PyObject *g(PyObject *self,\n                  PyObject *arg) {\n" + body +
           "typedef struct s {\n    int a;\n} s;\n")
    assert list(_functions(src)) == [("f", 92), ("g", 92)]


@pytest.mark.parametrize("name", ["CJ_MAX_ARGS", "CJ_MAXDIM"])
def test_limits_are_defined_once(name):
    defs = [p for p in _sources() if re.search(rf"^#define {name}\b", open(p).read(), re.M)]
    assert [os.path.relpath(p, ROOT) for p in defs] == ["abi/abi.h"]
