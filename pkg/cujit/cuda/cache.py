"""cache=True: compiled kernels persisted on disk, per compute capability.

An entry is keyed by the function's bytecode, constants, names and closure values' reprs, the
argument types, the compile options, the compute capability and cujit's version; any change
gives a new key. Files are "CJK1" + sha256(payload) + payload (JSON): a truncated or corrupt
entry fails the checksum and is recompiled (and rewritten), never trusted. The directory is
$CUJIT_CACHE_DIR, else __pycache__/cujit next to the source file (else ~/.cache/cujit).
Debug kernels are not cached (their exception ids are per process), nor device functions.
"""
import hashlib
import json
import os
import tempfile

MAGIC = b"CJK1"


def _code_fingerprint(code, h):
    h.update(code.co_code)
    h.update(repr(code.co_names).encode())
    h.update(repr(code.co_varnames).encode())
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            _code_fingerprint(c, h)
        else:
            h.update(repr(c).encode())


def key(py_func, argtypes, options, version):
    h = hashlib.sha256()
    _code_fingerprint(py_func.__code__, h)
    for cell in py_func.__closure__ or ():
        try:
            h.update(repr(cell.cell_contents).encode())
        except ValueError:
            h.update(b"<empty cell>")
    h.update(repr([t.name for t in argtypes]).encode())
    h.update(repr(sorted(options.items())).encode())
    h.update(version.encode())
    return h.hexdigest()


def directory(py_func):
    env = os.environ.get("CUJIT_CACHE_DIR")
    if env:
        return env
    src = getattr(py_func.__code__, "co_filename", "")
    if src and os.path.isfile(src):
        d = os.path.join(os.path.dirname(os.path.abspath(src)), "__pycache__", "cujit")
        try:
            os.makedirs(d, exist_ok=True)
            if os.access(d, os.W_OK):
                return d
        except OSError:
            pass
    return os.path.join(os.path.expanduser("~"), ".cache", "cujit")


def _path(py_func, k):
    name = getattr(py_func, "__qualname__", "kernel").replace("<", "_").replace(">", "_")
    return os.path.join(directory(py_func), f"{name}-{k[:32]}.cjk")


def load(py_func, k):
    """The cached entry (a dict), or None when absent, stale or corrupt."""
    try:
        with open(_path(py_func, k), "rb") as f:
            blob = f.read()
    except OSError:
        return None
    if len(blob) < 36 or blob[:4] != MAGIC:
        return None
    digest, payload = blob[4:36], blob[36:]
    if hashlib.sha256(payload).digest() != digest:
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
    payload = json.dumps(entry).encode()
    path = _path(py_func, k)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, path)  # atomic: readers never see a half-written entry
    except OSError:
        pass  # an unwritable cache only costs a recompile
    return path
