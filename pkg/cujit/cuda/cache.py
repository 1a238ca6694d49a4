"""cache=True: compiled kernels persisted on disk, per compute capability.

An entry is keyed by caching.function_key (the bytecode, the globals and closure values the
function reads, its jitted callees), the argument types, the compile options (with the compute
capability) and cujit's version; any change gives a new key. Files are "CJK1" + sha256(payload) + payload (JSON): a truncated or corrupt
entry fails the checksum and is recompiled (and rewritten), never trusted. The directory is
caching.cache_dir's: $CUJIT_CACHE_DIR, else __pycache__ beside the source (else ~/.cache/cujit).
Debug kernels are not cached (their exception ids are per process), nor device functions.
"""
import hashlib
import json
import os

from .. import caching

MAGIC = b"CJK1"


def key(py_func, argtypes, options, version):
    """The entry key: the function's own key (code, the globals and closure values it reads,
    its jitted callees), the argument types, the options and cujit's version."""
    h = hashlib.sha256()
    h.update(caching.function_key(py_func).encode())
    h.update(repr([t.name for t in argtypes]).encode())
    h.update(repr(sorted(options.items())).encode())
    h.update(version.encode())
    return h.hexdigest()


def _path(py_func, k):
    name = getattr(py_func, "__qualname__", "kernel").replace("<", "_").replace(">", "_")
    return os.path.join(caching.cache_dir(py_func), f"{name}-{k[:32]}.cjk")


def load(py_func, k):
    """The cached entry (a dict), or None when absent, stale or corrupt."""
    payload = caching.read_blob(_path(py_func, k), MAGIC)
    if payload is None:
        return None
    try:
        entry = json.loads(payload.decode())
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != k:
        return None
    needed = {"ptx": str, "llvm": str, "annotation": str, "entry": str, "params": list}
    if any(not isinstance(entry.get(n), t) for n, t in needed.items()):
        return None
    return entry


def store(py_func, k, result):
    entry = {"key": k, "ptx": result["ptx"], "llvm": result["llvm"],
             "annotation": result["annotation"], "entry": result["entry"],
             "params": list(result["params"])}
    path = _path(py_func, k)
    caching.write_blob(path, MAGIC, json.dumps(entry).encode())
    return path


class KernelCache:
    """One kernel's entries, as the C launcher (csrc/jit/kernel.c) asks for them on a miss:
    load(argtypes, cc) -> entry or None, store(argtypes, cc, result)."""

    def __init__(self, py_func, targetoptions, core_options):
        self.py_func = py_func
        self._targetoptions = dict(targetoptions)
        self._core_options = core_options  # compiler._core_options: options with cc

    def _key(self, argtypes, cc):
        from .. import __version__
        return key(self.py_func, argtypes, self._core_options(self._targetoptions, cc),
                   __version__)

    def load(self, argtypes, cc):
        return load(self.py_func, self._key(argtypes, cc))

    def store(self, argtypes, cc, result):
        return store(self.py_func, self._key(argtypes, cc), result)
