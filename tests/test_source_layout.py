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
    """(name, lines) of each function definition: a line at column 0 that ends a signature with
    '{', to its closing brace at column 0."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^[A-Za-z_][^;=]*?\b(\w+)\(.*\)\s*\{\s*$", line)
        if m and not line.startswith(("typedef", "struct", "enum", "static const", "union")):
            j = i + 1
            while j < len(lines) and lines[j] != "}":
                j += 1
            yield m.group(1), j - i + 1
            i = j
        i += 1


def test_functions_fit_on_a_screen():
    long = [(os.path.relpath(p, ROOT), name, n) for p in _sources() if p.endswith(".c")
            for name, n in _functions(open(p).read()) if n > MAX_FUNCTION_LINES]
    assert long == []


def test_the_checker_sees_long_functions():
    body = "int f(void) {\n" + "    x();\n" * 90 + "}\n"
    assert list(_functions(body)) == [("f", 92)]


@pytest.mark.parametrize("name", ["CJ_MAX_ARGS", "CJ_MAXDIM"])
def test_limits_are_defined_once(name):
    defs = [p for p in _sources() if re.search(rf"^#define {name}\b", open(p).read(), re.M)]
    assert [os.path.relpath(p, ROOT) for p in defs] == ["abi/abi.h"]
