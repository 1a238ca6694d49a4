"""cache=True: compiled kernels persisted on disk, per compute capability.

An entry is keyed by caching.function_key (the bytecode, the globals, closure values and module
attributes the function reads, its jitted callees), the argument types, the compile options
(with the compute capability) and cujit's version; any change gives a new key. Files are
caching's entries (magic "CJK\\0"; HMAC-signed with the user's secret; the PTX, LLVM IR and
annotation as sections, the entry name and parameters in the header), named by the key's hash
only: a foreign, truncated or corrupt entry is recompiled (and rewritten), never trusted. The
directory is caching.cache_dir's: $CUJIT_CACHE_DIR, else __pycache__ beside the source (else
~/.cache/cujit). Debug kernels are not cached (their exception ids are per process), nor device
functions.
"""
import hashlib
import os

from .. import caching

MAGIC = b"CJK\x00"
_TEXTS = ("ptx", "llvm", "annotation")


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
    return os.path.join(caching.cache_dir(py_func), caching.entry_name(k, ".cjk"))


def load(py_func, k):
    """The cached entry (a dict), or None when absent, stale, corrupt or untrusted."""
    found = caching.read_entry(_path(py_func, k), MAGIC, k)
    if found is None:
        return None
    meta, sections = found
    try:
        entry = {n: sections[n].decode() for n in _TEXTS}
    except (KeyError, UnicodeDecodeError):
        return None
    if (not isinstance(meta, dict) or not isinstance(meta.get("entry"), str) or
            not isinstance(meta.get("params"), list)):
        return None
    entry.update(key=k, entry=meta["entry"], params=meta["params"])
    return entry


def store(py_func, k, result):
    path = _path(py_func, k)
    meta = {"entry": result["entry"], "params": list(result["params"])}
    caching.write_entry(path, MAGIC, k, meta, {n: result[n].encode() for n in _TEXTS})
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
