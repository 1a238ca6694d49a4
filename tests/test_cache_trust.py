"""The on-disk cache is not trusted: entries load only when this user wrote them (HMAC with a
per-user secret) into a private folder; names never leave the folder; temporaries never follow
a planted symlink; FIFOs, truncated, corrupt or malformed entries are misses, never a hang, a
crash or code run; a key follows the module attributes the code reads."""
import glob
import hashlib
import json
import os
import pickle
import subprocess
import struct
import sys
import textwrap
import warnings

import pytest

import cujit
from cujit import caching
from cujit.errors import NumbaWarning

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg")

MODULE = """
from cujit import njit

@njit(cache=True)
def f(x):
    if x < 0:
        raise ValueError("negative!", 2, 1.5)
    return x * 2.0 + 1.0
"""

RUN = """
import sys
sys.path.insert(0, {pkg!r}); sys.path.insert(0, {here!r})
import mod
print(mod.f(3.0), mod.f._cache.hits)
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh cache home (the secret's folder) for this process and its children."""
    h = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(h))
    monkeypatch.setattr(caching, "_secret", None, raising=False)
    monkeypatch.setattr(caching, "_warned", set(), raising=False)
    return h


def run(here, env=None, timeout=120):
    code = RUN.format(pkg=PKG, here=str(here))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, timeout=timeout)
    assert out.returncode == 0, out.stderr
    value, hits = out.stdout.split()[-2:]
    return float(value), int(hits)


@pytest.fixture
def project(tmp_path, home):
    (tmp_path / "mod.py").write_text(MODULE)
    return tmp_path


def entries(folder):
    return sorted(glob.glob(os.path.join(folder, "__pycache__", "*.cjc")))


def entry_key(data):
    """The key in an entry's header (read without verifying: the test forges entries)."""
    hlen = struct.unpack_from("<I", data, caching._HEAD.size - 4)[0]
    return json.loads(data[caching._HEAD.size:caching._HEAD.size + hlen])["key"]


def fresh(src="def f(x):\n    return x * 2.0 + 1.0\n", qualname=None):
    ns = {}
    exec(src, ns)
    if qualname is not None:
        ns["f"].__qualname__ = qualname
    return cujit.njit(cache=True)(ns["f"])


def test_planted_pickle_never_runs(project):
    run(project)
    marker = project / "pwned"

    class Bomb:
        def __reduce__(self):
            return (open, (str(marker), "w"))
    payload = pickle.dumps(Bomb())
    for path in entries(project):  # the old format at the entry's path: magic, sha256, pickle
        with open(path, "wb") as f:
            f.write(b"CUJITC1\n" + hashlib.sha256(payload).digest() + payload)
    assert run(project) == (7.0, 0)
    assert not marker.exists()


def test_entry_signed_by_another_user_is_recompiled(project):
    run(project)
    secret = (project / "xdg" / "cujit" / "secret").read_bytes()
    for path in entries(project):
        data = open(path, "rb").read()
        key = entry_key(data)
        meta, sections = caching.decode_entry(data, caching.MAGIC, key, secret)
        forged = caching.encode_entry(caching.MAGIC, key, meta, sections, b"x" * 32)
        with open(path, "wb") as f:
            f.write(forged)
    assert run(project) == (7.0, 0)
    assert run(project) == (7.0, 1)  # rewritten with this user's key


@pytest.mark.parametrize("qualname", ["../../escaped/f", "/tmp/cujit-escape/f", "a/b"])
def test_names_stay_inside_the_folder(tmp_path, home, monkeypatch, qualname):
    cache = tmp_path / "one" / "two" / "cache"
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(cache))
    before = set(glob.glob("/tmp/cujit-escape*"))
    assert fresh(qualname=qualname)(2.0) == 5.0
    files = [p for p in tmp_path.rglob("*") if p.is_file() and "xdg" not in p.parts]
    assert files and all(p.parent == cache for p in files), files
    assert set(glob.glob("/tmp/cujit-escape*")) == before


def test_temporary_file_never_follows_a_symlink(tmp_path, home, monkeypatch):
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path / "cache"))
    fresh()(1.0)
    (entry,) = glob.glob(str(tmp_path / "cache" / "*.cjc"))
    os.unlink(entry)
    victim = tmp_path / "victim"
    victim.write_text("precious")
    monkeypatch.setattr("secrets.token_hex", lambda n=None: "feedface")
    for tmp in (f"{entry}.{os.getpid()}.tmp", f"{entry}.{os.getpid()}.feedface.tmp"):
        os.symlink(victim, tmp)
    assert fresh()(1.0) == 3.0
    assert victim.read_text() == "precious"


def _prime(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(cache))
    fresh()(1.0)
    d = fresh()
    d(1.0)
    assert d._cache.hits == 1
    return cache


def _load_twice():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        hits = []
        for _ in range(2):
            d = fresh()
            assert d(1.0) == 3.0
            hits.append(d._cache.hits)
    return hits, [x for x in w if issubclass(x.category, NumbaWarning)]


def test_group_writable_folder_is_ignored_with_one_warning(tmp_path, home, monkeypatch):
    cache = _prime(tmp_path, monkeypatch)
    os.chmod(cache, 0o777)
    hits, warned = _load_twice()
    assert hits == [0, 0] and len(warned) == 1
    assert "writable by group or others" in str(warned[0].message)


def test_group_writable_entry_is_ignored_with_one_warning(tmp_path, home, monkeypatch):
    cache = _prime(tmp_path, monkeypatch)
    for p in cache.glob("*.cjc"):
        os.chmod(p, 0o666)
    hits, warned = _load_twice()
    assert hits == [0, 1] and len(warned) == 1  # replaced by a private entry of ours
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in cache.glob("*.cjc"))


@pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")
def test_foreign_owned_entry_is_ignored_with_one_warning(tmp_path, home, monkeypatch):
    cache = _prime(tmp_path, monkeypatch)
    for p in cache.glob("*.cjc"):
        os.chown(p, 12345, 12345)
    hits, warned = _load_twice()
    assert hits == [0, 1] and len(warned) == 1  # replaced by an entry of ours
    assert all(p.stat().st_uid == os.geteuid() for p in cache.glob("*.cjc"))
    assert "owned by another user" in str(warned[0].message)


def test_a_fifo_in_place_of_an_entry_does_not_hang(project):
    run(project)
    for path in entries(project):
        os.unlink(path)
        os.mkfifo(path, 0o600)
    assert run(project, timeout=60) == (7.0, 0)


def test_truncated_and_corrupt_entries_are_misses(tmp_path, home, monkeypatch):
    cache = _prime(tmp_path, monkeypatch)
    (entry,) = cache.glob("*.cjc")
    good = entry.read_bytes()
    cuts = sorted({0, 1, 4, 8, 40, 44, caching._HEAD.size + 3, len(good) // 2, len(good) - 1})
    for data in [good[:n] for n in cuts] + [good + b"x"]:
        entry.write_bytes(data)
        d = fresh()
        assert d(1.0) == 3.0 and d._cache.hits == 0
    d = fresh()
    assert d(1.0) == 3.0 and d._cache.hits == 1  # rewritten


def test_decode_rejects_every_mutation():
    secret = b"s" * 32
    good = caching.encode_entry(b"TEST", "k", {"a": [1, "x"]}, {"one": b"abc", "two": b""},
                                secret)
    assert caching.decode_entry(good, b"TEST", "k", secret) == (
        {"a": [1, "x"]}, {"one": b"abc", "two": b""})
    assert caching.decode_entry(good, b"TEST", "other", secret) is None
    assert caching.decode_entry(good, b"TEST", "k", b"t" * 32) is None
    for i in range(len(good)):
        bad = bytearray(good)
        bad[i] ^= 0x41
        assert caching.decode_entry(bytes(bad), b"TEST", "k", secret) is None
        assert caching.decode_entry(good[:i], b"TEST", "k", secret) is None


def test_well_signed_entry_with_bad_sections_is_a_miss(tmp_path, home, monkeypatch):
    cache = _prime(tmp_path, monkeypatch)
    (entry,) = cache.glob("*.cjc")
    data = entry.read_bytes()
    key = entry_key(data)
    meta, sections = caching.decode_entry(data, caching.MAGIC, key, caching.secret())
    for bad_meta, bad_sections in [({}, sections), (meta, {}),
                                   ({**meta, "exceptions": [[1, "no.such", "E", 1, []]]},
                                    sections),
                                   ({**meta, "ret": ["array"]}, sections),
                                   (meta, {**sections, "annotation": b"\xff"})]:
        entry.write_bytes(caching.encode_entry(caching.MAGIC, key, bad_meta, bad_sections,
                                               caching.secret()))
        d = fresh()
        assert d(1.0) == 3.0 and d._cache.hits == 0


BITCODE_RUN = """
import sys
sys.path.insert(0, {pkg!r}); sys.path.insert(0, {here!r})
import mod
print(mod.f(3.0), mod.f._cache.hits)
try:
    mod.f(-1.0)
except ValueError as e:
    print("raised", e.args)
"""


@pytest.mark.parametrize("section", ["module", "bitcode"])
def test_malformed_bitcode_with_a_valid_hmac_is_recompiled(project, section):
    run(project)
    secret = (project / "xdg" / "cujit" / "secret").read_bytes()
    (path,) = entries(project)
    data = open(path, "rb").read()
    key = entry_key(data)
    meta, sections = caching.decode_entry(data, caching.MAGIC, key, secret)
    sections[section] = b"BC\xc0\xde" + b"\x35\x14\x00\x00\x05\x00\x00\x00" + b"\xab" * 64
    with open(path, "wb") as f:
        f.write(caching.encode_entry(caching.MAGIC, key, meta, sections, secret))
    code = BITCODE_RUN.format(pkg=PKG, here=str(project))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:2] == ["7.0", "0"]
    assert "raised ('negative!', 2, 1.5)" in out.stdout


def test_cached_exceptions_keep_their_arguments(project):
    code = BITCODE_RUN.format(pkg=PKG, here=str(project))
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, timeout=120).stdout for _ in range(2)]
    assert outs[0].split()[:2] == ["7.0", "0"] and outs[1].split()[:2] == ["7.0", "1"]
    assert "raised ('negative!', 2, 1.5)" in outs[1]


def test_a_non_private_secret_disables_the_cache_with_one_warning(tmp_path, home,
                                                                   monkeypatch):
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path / "cache"))
    (home / "cujit").mkdir(parents=True, mode=0o700)
    (home / "cujit" / "secret").write_bytes(b"k" * 32)
    os.chmod(home / "cujit" / "secret", 0o644)
    hits, warned = _load_twice()
    assert hits == [0, 0] and len(warned) == 1 and "secret" in str(warned[0].message)
    assert list((tmp_path / "cache").glob("*.cjc")) == []


def test_the_secret_is_private(tmp_path, home, monkeypatch):
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path / "cache"))
    fresh()(1.0)
    st = os.stat(home / "cujit" / "secret")
    assert st.st_mode & 0o777 == 0o600 and st.st_size == 32
    assert os.stat(home / "cujit").st_mode & 0o777 == 0o700
    assert os.stat(tmp_path / "cache").st_mode & 0o777 == 0o700
    for p in (tmp_path / "cache").iterdir():
        assert p.stat().st_mode & 0o777 == 0o600


def test_a_module_attribute_read_is_part_of_the_key(tmp_path, home):
    (tmp_path / "cfg.py").write_text("SCALE = 2\n")
    (tmp_path / "mod.py").write_text(textwrap.dedent("""
        import cfg
        from cujit import njit
        @njit(cache=True)
        def f(x):
            return cfg.SCALE * x
    """))
    assert run(tmp_path)[0] == 6.0
    (tmp_path / "cfg.py").write_text("SCALE = 5\n")
    for stale in tmp_path.glob("__pycache__/cfg*.pyc"):
        stale.unlink()
    assert run(tmp_path) == (15.0, 0)


FAKE_CACHE = """
import sys
sys.path.insert(0, {pkg!r})
import cujit
from cujit import float64

class Fake:
    def __init__(self, entry):
        self.entry, self.hits, self.misses = entry, 0, 0
    def load(self, argtypes, declared):
        self.hits += 1
        return dict(self.entry)
    def rejected(self):
        self.hits -= 1
    def save(self, argtypes, declared, entry):
        pass

good = {{"symbol": "s", "wrapper": "w", "exceptions": [], "ret": float64,
        "annotation": "", "llvm_ir": ""}}
for entry in [good, {{**good, "module": None}}, {{**good, "module": b"", "bitcode": 1}},
              {{**good, "exceptions": [(1, None, 3)]}}, {{**good, "exceptions": None}},
              {{**good, "exceptions": [("x", ValueError)]}},
              {{**good, "exceptions": [(0, ValueError)]}},
              {{**good, "exceptions": [(2 ** 40, ValueError)]}}]:
    d = cujit.njit(lambda x: x + 1.0)
    fake = Fake(entry)
    d._set_cache(fake)
    assert d(1.0) == 2.0 and fake.hits == 0
print("ok")
"""


def test_entries_missing_fields_are_misses_in_the_c_half():
    out = subprocess.run([sys.executable, "-c", FAKE_CACHE.format(pkg=PKG)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_key_does_not_depend_on_the_hash_seed():
    code = (f"import sys; sys.path.insert(0, {PKG!r})\n"
            "from cujit import caching\n"
            "def f(x):\n    return x in {'alpha', 'beta', 'gamma', 'delta', 'epsilon'}\n"
            "print(caching.function_key(f))")
    keys = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}
                           ).stdout for seed in range(4)}
    assert len(keys) == 1
