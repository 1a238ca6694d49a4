"""Strings in compiled CPU code (numba's unicode_type): differential against CPython over small
functions and random strings mixing ASCII, Latin-1 (é ü), the BMP (中文) and code points beyond
it (emoji), so every PEP 393 kind and every mix of kinds is exercised. Each function compiles
once (module-level dispatchers); every test checks that compiled code freed what it made."""
import random

import pytest

import cujit
from cujit import cuda, njit, types
from cujit.errors import TypingError, UnsupportedError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

ALPHABET = "ab c-AZ9é ü中文😀\t"


def _strings(n, seed):
    rng = random.Random(seed)
    fixed = ["", "a", "é", "中", "😀", "abc", "  ab cd  ", "a-b--c-", "ÉCOLE été", "x😀y中é"]
    return fixed + ["".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 9)))
                    for _ in range(n)]


STRINGS = _strings(30, 7)
PAIRS = [(a, b) for a in STRINGS[:14] for b in STRINGS[:14]]


def _same(expected, got):
    assert got == expected
    assert type(got) is type(expected)
    if isinstance(expected, (tuple, list)):
        for e, g in zip(expected, got):
            _same(e, g)


@njit
def basics(s):
    return len(s), s[::-1], s[1:], s[:-1], s[::2], s[1:5:2], s[-3::-2], s * 2, 3 * s, s * -1


@njit
def pair_ops(a, b):
    return (a + b, a == b, a != b, a < b, a <= b, a > b, a >= b, a in b, b not in a,
            a.startswith(b), a.endswith(b), a.find(b), a.rfind(b), a.count(b) if b else -1)


@njit
def methods(s):
    return (s.split(), s.split("-"), s.split(" ", 1), s.strip(), s.lstrip(), s.rstrip(),
            s.strip("a-"), s.lower(), s.upper(), s.replace("a", "é"), s.replace("", "."),
            s.isdigit(), s.isalpha(), s.isspace(), s.isupper(), s.islower(),
            "-".join(s.split()), s.find("a", 1), s.find("a", 1, 3), s.replace("a", "XY", 1))


@njit
def chars(s):
    out = ""
    codes = 0
    for c in s:
        out = c + out
        codes += ord(c)
    return out, codes, hash(s), bool(s), not s


@njit
def index(s, i):
    return s[i]


@njit
def numbers(n, x):
    return str(n), str(x), f"{n}:{x}|{str(n)}", chr(n % 0x10FFFF)


@njit
def literals(flag):
    s = "abc"
    if flag:
        s = "é" + s
    words = ["x", "yz"]
    words.append(s)
    return s, words, "-".join(words), len(words)


@njit
def join2(a, b):
    return a + "|" + b


@njit
def flow(s):
    words = s.split(" ")
    first = ""
    for c in s:  # leaving the loop early: the iterator's last character is still freed
        if c in ("é", "中") or c in words:
            first = c
            break
    spread = ""
    for i, c in enumerate(s):
        spread += c * (i % 3)
    pairs = 0
    for a in s:
        for b in s:
            pairs += a == b
    return (first, spread, pairs, join2(s, "z"), join2("q", s), s in words, s not in ("a", "b"),
            words[0] + words[-1], s.replace("a", "", 2))


@njit
def iterables(s):
    zipped = ""
    for a, b in zip(s, s[::-1]):
        zipped += a + b
    return list(s), zipped, [c.upper() for c in s]


@njit
def sorts(joined):
    w = joined.split("|")  # lists of str are made inside: a Python list of str is not taken yet
    w.sort()
    return w, sorted(w, reverse=True), sorted(joined)


@njit(types.unicode_type(types.unicode_type, types.int64))
def declared(s, n):
    return s * n


@njit
def fstring(name, n):
    return f"hello {name}, {n} items, {n * 0.5} half"


@pytest.mark.parametrize("s", STRINGS)
def test_basics(s):
    _same(basics.py_func(s), basics(s))


def test_pairs():
    for a, b in PAIRS:
        _same(pair_ops.py_func(a, b), pair_ops(a, b))


@pytest.mark.parametrize("s", STRINGS)
def test_methods(s):
    _same(methods.py_func(s), methods(s))


@pytest.mark.parametrize("s", STRINGS)
def test_control_flow_calls_and_sequences(s):
    _same(flow.py_func(s), flow(s))


@pytest.mark.parametrize("s", STRINGS[:12])
def test_list_zip_comprehension_and_signatures(s):
    _same(iterables.py_func(s), iterables(s))
    _same(s * 2, declared(s, 2))


def test_sorting_lists_of_strings():
    for k in range(0, 40, 7):
        joined = "|".join(STRINGS[k:k + 9])
        _same(sorts.py_func(joined), sorts(joined))


@pytest.mark.parametrize("s", STRINGS)
def test_chars_and_hash(s):
    _same(chars.py_func(s), chars(s))
    assert chars(s)[2] == hash(s)  # CPython's hash of the same str in this process


def test_index_and_errors():
    for s in ("abc", "é中😀"):
        for i in range(-len(s), len(s)):
            _same(s[i], index(s, i))
        for i in (len(s), -len(s) - 1):
            with pytest.raises(IndexError, match="string index out of range"):
                index(s, i)
    with pytest.raises(ValueError, match="empty separator"):
        njit(lambda s: s.split(""))("a")


def test_numbers():
    for n, x in [(0, 0.0), (-42, 0.1), (7, 1e16), (123, -2.5e-7), (10**18, 1e300 * 10),
                 (5, float("nan")), (99, 123456789.125), (3, 1 / 3)]:
        _same(numbers.py_func(n, x), numbers(n, x))


def test_literals_unify_to_unicode():
    for flag in (False, True):
        _same(literals.py_func(flag), literals(flag))
    assert literals.nopython_signatures[0].return_type == types.Tuple(
        (types.unicode_type, types.List(types.unicode_type), types.unicode_type, types.int64))
    assert cujit.typeof("abc") == types.unicode_type


def test_fstring():
    _same(fstring.py_func("é", 4), fstring("é", 4))


def test_results_are_canonical_str():
    # 'é' + 'a' is a one-byte string, as CPython makes it: equal, same hash, interned alike
    r = pair_ops("é", "a")[0]
    assert r == "éa" and hash(r) == hash("éa") and type(r) is str
    r = basics("a😀b")[2]  # slicing the emoji off the middle keeps a 4-byte kind
    assert r == "😀b"


@pytest.mark.parametrize("src,exc,words", [
    ("def f(s):\n    return s + 1\n", TypingError, ">>> +(unicode_type, int64)"),
    ("def f(s):\n    return s.isidentifierz()\n", TypingError, "Unknown attribute 'isidentifierz'"),
    ("def f(s):\n    return s.find(1)\n", TypingError, "<method 'find' of 'str' objects>"),
    ("def f(s):\n    return f'{s:>5}'\n", UnsupportedError, "format specs"),
    ("def f(s):\n    return s - s\n", TypingError, "unicode_type, unicode_type"),
])
def test_unsupported_errors(src, exc, words):
    ns = {}
    exec(src, ns)
    with pytest.raises(exc, match=None) as info:
        njit(ns["f"])("ab")
    assert words in str(info.value)


def test_strings_refused_in_cuda_code():
    def k(s):
        return len(s + "x")

    with pytest.raises(UnsupportedError, match="strings are not supported in CUDA code"):
        cuda.compile_ptx(k, (types.unicode_type,), device=True)


def test_cached_code_keeps_its_literals(tmp_path):
    """A literal is a global in the compiled object: a cached function loaded in a new process
    reads it where the loader put it, and hashes with that process's key."""
    import os
    import subprocess
    import sys
    (tmp_path / "strmod.py").write_text(
        "from cujit import njit\n"
        "@njit(cache=True)\n"
        "def f(s):\n"
        "    t = 'é-' + s\n"
        "    return t, t.split('-')[1], hash(t) == hash('é-' + s)\n")
    pkg = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg")
    code = (f"import sys; sys.path[:0] = [{pkg!r}, {str(tmp_path)!r}]\n"
            "import strmod\nprint(repr(strmod.f('ab')), strmod.f._cache.hits)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split("\n")[0] for _ in range(2)]
    assert runs[0] == "('é-ab', 'ab', True) 0"
    assert runs[1] == "('é-ab', 'ab', True) 1"
