"""On-disk caching of compiled CPU code (jit(cache=True)).

An entry is keyed by the function's bytecode and constants, the values of the globals and
closure variables it reads (jitted callees by their own keys, so a change anywhere invalidates),
the argument and return types, the compile options, and the versions of cujit and Python and the
host CPU. Files live in __pycache__ beside the source file, or in $CUJIT_CACHE_DIR, or in
~/.cache/cujit when neither can be written. Each file carries a SHA-256 of its payload: a corrupt
or truncated entry is ignored and the function compiled again, never trusted."""
import hashlib
import os
import pickle
import sys
import types as pytypes

from . import _core
from . import types as cjtypes

MAGIC = b"CUJITC1\n"


def _value_key(value, seen):
    if isinstance(value, pytypes.ModuleType):
        return ("module", value.__name__)
    py_func = getattr(value, "py_func", None)  # CPU and CUDA dispatchers, device functions
    if isinstance(py_func, pytypes.FunctionType):
        return ("jit", _function_key(py_func, seen))
    if isinstance(value, pytypes.FunctionType):
        return ("function", _function_key(value, seen))
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, tuple)):
        return ("value", repr(value))
    if type(value).__module__ == "numpy" and hasattr(value, "tobytes"):
        return ("numpy", str(getattr(value, "dtype", "")), getattr(value, "shape", ()),
                hashlib.sha256(value.tobytes()).hexdigest())
    return ("object", type(value).__module__, type(value).__qualname__,
            getattr(value, "__module__", None), getattr(value, "__qualname__", None))


def _code_key(code):
    consts = tuple(_code_key(c) if isinstance(c, pytypes.CodeType) else repr(c)
                   for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars,
            code.co_argcount, code.co_kwonlyargcount, code.co_flags)


def function_key(func):
    """What a function's compiled code depends on, as a SHA-256 hex digest: its code, the
    values of the globals and closure variables it reads, and its jitted callees' keys."""
    return hashlib.sha256(pickle.dumps(_function_key(func, frozenset()), protocol=4)).hexdigest()


def read_blob(path, magic):
    """The payload of a cache file, or None when it is missing, foreign or corrupt."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(magic) + 32
    if len(data) < head or not data.startswith(magic):
        return None
    payload = data[head:]
    if hashlib.sha256(payload).digest() != data[len(magic):head]:
        return None
    return payload


def write_blob(path, magic, payload):
    """Writes a cache file atomically (a reader never sees half of it); unwritable is fine."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(magic + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache costs a recompile, not an error


def _function_key(func, seen):
    if id(func) in seen:
        return ("recursive", func.__qualname__)
    seen = seen | {id(func)}
    code = func.__code__
    globals_ = func.__globals__
    names = tuple((n, _value_key(globals_[n], seen)) for n in code.co_names if n in globals_)
    cells = tuple(_value_key(c.cell_contents, seen) for c in (func.__closure__ or ()))
    return (func.__module__, func.__qualname__, _code_key(code), names, cells,
            repr(func.__defaults__), repr(func.__kwdefaults__))


def _describe_type(t):
    """A picklable description of a cujit type."""
    name = str(t)
    if name.startswith(("array(", "readonly array(")):
        return ("array", _describe_type(t.dtype), t.ndim, t.layout, not t.mutable)
    if name.startswith(("UniTuple(", "Tuple(")):
        return ("tuple", tuple(_describe_type(x) for x in t.types))
    return ("scalar", name)


def _rebuild_type(desc):
    kind = desc[0]
    if kind == "array":
        return cjtypes.Array(_rebuild_type(desc[1]), desc[2], desc[3], desc[4])
    if kind == "tuple":
        return cjtypes.Tuple([_rebuild_type(x) for x in desc[1]])
    return _core.type_by_name(desc[1])


def _writable(path):
    try:
        os.makedirs(path, exist_ok=True)
        return os.access(path, os.W_OK)
    except OSError:
        return False


def cache_dir(func):
    explicit = os.environ.get("CUJIT_CACHE_DIR")
    if explicit:
        return explicit
    source = func.__code__.co_filename
    if os.path.isfile(source):
        local = os.path.join(os.path.dirname(os.path.abspath(source)), "__pycache__")
        if _writable(local):
            return local
    home = os.path.join(os.path.expanduser("~"), ".cache", "cujit",
                        hashlib.sha256(source.encode()).hexdigest()[:16])
    return home


class Cache:
    """The on-disk cache of one jitted function."""

    def __init__(self, func, options):
        from . import __version__
        self._func = func
        self.hits = 0
        self.misses = 0
        self._context = (__version__, sys.version, _core.host_cpu(),
                         tuple(sorted(options.items())))

    def _path(self, argtypes, declared):
        key = pickle.dumps((function_key(self._func), tuple(str(t) for t in argtypes),
                            str(declared), self._context), protocol=4)
        digest = hashlib.sha256(key).hexdigest()
        name = self._func.__qualname__.replace("<", "_").replace(">", "_")
        return os.path.join(cache_dir(self._func), f"{name}-{digest[:40]}.cjc"), digest

    def load(self, argtypes, declared):
        """The cached entry for these types, or None (missing, stale, corrupt)."""
        entry = self._read(argtypes, declared)
        if entry is None:
            self.misses += 1
        else:
            self.hits += 1
        return entry

    def _read(self, argtypes, declared):
        path, digest = self._path(argtypes, declared)
        payload = read_blob(path, MAGIC)
        if payload is None:
            return None
        try:
            entry = pickle.loads(payload)
            if entry.get("key") != digest:
                return None
            entry["ret"] = _rebuild_type(entry.pop("ret_desc"))
        except Exception:
            return None
        return entry

    def save(self, argtypes, declared, entry):
        """Writes the entry atomically (a reader never sees half a file)."""
        path, digest = self._path(argtypes, declared)
        entry = dict(entry)
        entry["ret_desc"] = _describe_type(entry.pop("ret"))
        entry["key"] = digest
        write_blob(path, MAGIC, pickle.dumps(entry, protocol=4))
