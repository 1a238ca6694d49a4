"""On-disk caching of compiled CPU code (jit(cache=True)), and the entry files both targets use.

An entry is keyed by the function's bytecode and constants, the values of the globals and
closure variables it reads (module attributes it reads by their values, jitted callees by their
own keys, so a change anywhere invalidates), the argument and return types, the compile options,
and the versions of cujit and Python and the host CPU. Files live in __pycache__ beside the
source file, or in $CUJIT_CACHE_DIR, or in ~/.cache/cujit when neither can be used.

An entry is native code, so it is trusted only when this user wrote it (docs/caching.md):
  magic (4) | version u16 | 0 u16 | HMAC-SHA256 (32) | header length u32 | header | sections
The header is JSON {"key", "meta", "sections": [[name, length], ...]}; the sections follow it
back to back. The HMAC, keyed by a per-user secret, covers every other byte. Names are the key's
hash; files are written with O_EXCL|O_NOFOLLOW and renamed; folders 0700, files 0600; a folder
or file not owned by this user, or writable by others, is not used (one warning per folder).
Anything that does not verify or parse is a miss: the code is compiled again, never trusted."""
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import struct
import sys
import types as pytypes
import warnings

from . import _core, config
from . import types as cjtypes
from .errors import NumbaWarning

MAGIC = b"CJC\x00"
VERSION = 3  # 3: arrays carry a meminfo (compiled code allocates, issue 10)
_HEAD = struct.Struct("<4sHH32sI")  # magic, version, reserved, mac, header length
_MAX_ENTRY = 1 << 30  # larger files are not entries of ours
_SECRET_SIZE = 32
_warned = set()


def _warn_once(folder, why):
    if folder not in _warned:
        _warned.add(folder)
        warnings.warn(f"cujit: not using the cache in {folder}: {why}", NumbaWarning,
                      stacklevel=2)


# ---- the key ----

_missing = object()
_DATA = (type(None), bool, int, float, complex, str, bytes)


def _is_data(value):
    return isinstance(value, _DATA) or (isinstance(value, tuple) and all(map(_is_data, value)))


def _module_key(module, names, seen):
    """A module read by the code: its name and the values of the attributes the code may read
    (`names`: co_names), so editing the module's file invalidates the entry."""
    if id(module) in seen:
        return ("module", module.__name__)
    seen = seen | {id(module)}
    attrs = []
    for n in names:
        v = vars(module).get(n, _missing)
        if v is _missing:
            continue
        if isinstance(v, pytypes.ModuleType):
            attrs.append((n, _module_key(v, names, seen)))
        elif _is_data(v) or hasattr(v, "py_func") or _is_numpy(v):
            attrs.append((n, _value_key(v, seen, names)))
    return ("module", module.__name__, tuple(attrs))


def _is_numpy(value):
    return type(value).__module__ == "numpy" and hasattr(value, "tobytes")


def _value_key(value, seen, names=()):
    if isinstance(value, pytypes.ModuleType):
        return _module_key(value, names, seen)
    py_func = getattr(value, "py_func", None)  # CPU and CUDA dispatchers, device functions
    if isinstance(py_func, pytypes.FunctionType):
        return ("jit", _function_key(py_func, seen))
    if isinstance(value, pytypes.FunctionType):
        return ("function", _function_key(value, seen))
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, tuple)):
        return ("value", repr(value))
    if _is_numpy(value):
        return ("numpy", str(getattr(value, "dtype", "")), getattr(value, "shape", ()),
                hashlib.sha256(value.tobytes()).hexdigest())
    return ("object", type(value).__module__, type(value).__qualname__,
            getattr(value, "__module__", None), getattr(value, "__qualname__", None))


def _const_key(c):
    if isinstance(c, pytypes.CodeType):
        return _code_key(c)
    if isinstance(c, frozenset):  # its repr's order changes with the string hash seed
        return ("frozenset", tuple(sorted(repr(x) for x in c)))
    return repr(c)


def _code_key(code):
    consts = tuple(_const_key(c) for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars,
            code.co_argcount, code.co_kwonlyargcount, code.co_flags)


def _all_names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, pytypes.CodeType):
            names |= _all_names(c)
    return names


def _function_key(func, seen):
    if id(func) in seen:
        return ("recursive", func.__qualname__)
    seen = seen | {id(func)}
    code = func.__code__
    globals_ = func.__globals__
    names = sorted(_all_names(code))
    reads = tuple((n, _value_key(globals_[n], seen, names)) for n in code.co_names
                  if n in globals_)
    cells = tuple(_value_key(c.cell_contents, seen, names) for c in (func.__closure__ or ()))
    return (func.__module__, func.__qualname__, _code_key(code), reads, cells,
            repr(func.__defaults__), repr(func.__kwdefaults__),
            _extensions_key(names, [globals_[n] for n in names if n in globals_], seen))


def _extensions_key(names, values, seen):
    """The overloads (cujit.extending) the code may use: the functions it reads that have
    overloads, and the methods/attributes of the names it reads, by their typing functions'
    keys (which hold their implementations' code), so editing an overload recompiles."""
    templates = sys.modules.get("cujit.core.templates")
    if templates is None:
        return ()
    used = [t for v in values for t in templates.function_templates(v)]
    used += [t for n in names for t in templates.MEMBERS.get(n, ())]
    return tuple((t.kind, _function_key(t.shown or t.typing_func, seen)) for t in used)


def function_key(func):
    """What a function's compiled code depends on, as a SHA-256 hex digest: its code, the
    values of the globals, closure variables and module attributes it reads, and its jitted
    callees' keys."""
    return hashlib.sha256(repr(_function_key(func, frozenset())).encode()).hexdigest()


# ---- where entries live, and whether they can be trusted ----

def cache_home():
    """$XDG_CACHE_HOME/cujit, else ~/.cache/cujit: the secret and the fallback folders."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cujit")


def _untrusted(st, kind, private=False):
    """Why a folder or file with this stat cannot be trusted, or None. `private`: nor
    readable by anyone else."""
    if st.st_uid != os.geteuid():
        return f"the {kind} is owned by another user"
    if st.st_mode & (0o077 if private else stat.S_IWGRP | stat.S_IWOTH):
        return f"the {kind} is {'not mode 0600' if private else 'writable by group or others'}"
    return None


def trusted_dir(folder, warn=True):
    """Creates `folder` (0700) when missing; whether entries in it may be read and written:
    a real folder owned by this user that no one else can write (warns once otherwise)."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
    except OSError:
        return False  # unwritable or unreachable: no cache, quietly
    why = "not a folder" if not stat.S_ISDIR(st.st_mode) else _untrusted(st, "folder")
    if why is not None and warn:
        _warn_once(folder, why)
    return why is None


def _read_private(path, size=None, private=False):
    """(bytes, None) of a regular file owned by this user and writable by no one else;
    (None, why) when it exists but is untrusted; (None, None) when missing, unreadable or
    larger than `size`. Never blocks (a FIFO) or follows a symlink."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None, None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "an entry is not a regular file"
        why = _untrusted(st, "secret" if private else "entry", private)
        if why is not None:
            return None, why
        if st.st_size > (size or _MAX_ENTRY):
            return None, None
        chunks, left = [], st.st_size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), None
    except OSError:
        return None, None
    finally:
        os.close(fd)


def _write_private(path, data):
    """Writes a 0600 file atomically: a fresh temporary name opened O_CREAT|O_EXCL|O_NOFOLLOW
    (a planted file or symlink is never followed or truncated), then renamed over `path`."""
    tmp = f"{path}.{os.getpid()}.{secrets.token_hex(8)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_secret = None


def secret():
    """This user's cache key (32 random bytes in cache_home()/secret, made 0600 on first use),
    or None (no caching; warned once) when it cannot be made or is not private."""
    global _secret
    if _secret is not None:
        return _secret or None
    home = cache_home()
    path = os.path.join(home, "secret")
    key, why = None, None
    if trusted_dir(home, warn=False):
        key, why = _read_private(path, _SECRET_SIZE, private=True)
        if key is None and why is None:
            try:  # written whole, then linked: a reader never sees a partial secret
                tmp = f"{path}.{os.getpid()}.{secrets.token_hex(8)}.tmp"
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(secrets.token_bytes(_SECRET_SIZE))
                try:
                    os.link(tmp, path)
                except FileExistsError:
                    pass  # another process made it first: use theirs
                finally:
                    os.unlink(tmp)
            except OSError:
                pass
            key, why = _read_private(path, _SECRET_SIZE, private=True)
        if key is not None and len(key) != _SECRET_SIZE:
            key, why = None, "the secret is not 32 bytes"
    else:
        why = "the folder is missing, not private or not owned by this user"
    if key is None:
        _warn_once(home, why or "no secret")
    _secret = key or b""
    return key


# ---- the entry format ----

def encode_entry(magic, key, meta, sections, secret_):
    """The bytes of an entry (the format in this module's docstring)."""
    header = json.dumps({"key": key, "meta": meta,
                         "sections": [[n, len(b)] for n, b in sections.items()]},
                        sort_keys=True, allow_nan=False).encode()
    body = struct.pack("<I", len(header)) + header + b"".join(sections.values())
    mac = hmac.new(secret_, magic + struct.pack("<HH", VERSION, 0) + body, "sha256").digest()
    return _HEAD.pack(magic, VERSION, 0, mac, len(header)) + header + b"".join(sections.values())


def decode_entry(data, magic, key, secret_):
    """(meta, {name: bytes}) of an entry written by this user for `key`, or None; every
    length is checked and nothing is interpreted before the HMAC verifies."""
    if len(data) < _HEAD.size:
        return None
    got_magic, version, reserved, mac, hlen = _HEAD.unpack_from(data)
    if got_magic != magic or version != VERSION or reserved != 0:
        return None
    signed = magic + struct.pack("<HH", VERSION, 0) + data[_HEAD.size - 4:]
    if not hmac.compare_digest(mac, hmac.new(secret_, signed, "sha256").digest()):
        return None
    if hlen > len(data) - _HEAD.size:
        return None
    try:
        header = json.loads(data[_HEAD.size:_HEAD.size + hlen].decode())
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(header, dict) or header.get("key") != key:
        return None
    table = header.get("sections")
    if not isinstance(table, list):
        return None
    out, pos = {}, _HEAD.size + hlen
    for item in table:
        if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str) or
                type(item[1]) is not int or item[1] < 0 or item[0] in out or
                pos + item[1] > len(data)):
            return None
        out[item[0]] = data[pos:pos + item[1]]
        pos += item[1]
    if pos != len(data):
        return None
    return header.get("meta"), out


def read_entry(path, magic, key):
    """(meta, sections) of the entry at `path`, or None: missing, untrusted (warned once),
    foreign, stale, truncated or corrupt."""
    folder = os.path.dirname(path)
    secret_ = secret()
    if secret_ is None or not trusted_dir(folder):
        return None
    data, why = _read_private(path)
    if why is not None:
        _warn_once(folder, why)
    return None if data is None else decode_entry(data, magic, key, secret_)


def write_entry(path, magic, key, meta, sections):
    """Writes an entry atomically (a reader never sees half of it); unwritable is fine."""
    folder = os.path.dirname(path)
    secret_ = secret()
    if secret_ is None or not trusted_dir(folder):
        return
    try:
        _write_private(path, encode_entry(magic, key, meta, sections, secret_))
    except OSError:
        pass  # an unwritable cache costs a recompile, not an error


def entry_name(key, suffix):
    """An entry's file name: the key's hash only, whatever the function is called."""
    return hashlib.sha256(key.encode()).hexdigest()[:40] + suffix


def _notebook_cell(source):
    """Whether `source` names a Jupyter/IPython cell: ipykernel's `<tmp>/ipykernel_<pid>/<hash>.py`
    (a new folder per kernel process) or IPython's `<ipython-input-N-...>`."""
    folder, name = os.path.split(source)
    return (re.fullmatch(r"ipykernel_\d+", os.path.basename(folder)) is not None
            and re.fullmatch(r"\d+\.py", name) is not None) or source.startswith("<ipython-input-")


def cache_dir(func):
    """$CUJIT_CACHE_DIR (or numba's $NUMBA_CACHE_DIR), else __pycache__ beside the source when this user owns it privately,
    else a folder of cache_home() per source file. Notebook cells share one folder, so an
    entry outlives the kernel that wrote it (the key holds no file name: the cell's code is
    the key)."""
    explicit = config.env("CACHE_DIR")
    if explicit:
        return os.path.abspath(explicit)
    source = func.__code__.co_filename
    if _notebook_cell(source):
        return os.path.join(cache_home(), "ipython")
    if os.path.isfile(source):
        local = os.path.join(os.path.dirname(os.path.abspath(source)), "__pycache__")
        if trusted_dir(local, warn=False) and os.access(local, os.W_OK):
            return local
    return os.path.join(cache_home(), hashlib.sha256(source.encode()).hexdigest()[:16])


# ---- what a CPU entry holds ----

def _describe_dtype(dt):
    """A JSON description of a NumPy dtype: a structured one field by field, with its offsets,
    itemsize and align flag (what a record type's layout is made of)."""
    if dt.subdtype is not None:
        return {"base": _describe_dtype(dt.subdtype[0]), "shape": list(dt.subdtype[1])}
    if dt.names is None:
        return dt.str
    return {"names": list(dt.names), "formats": [_describe_dtype(dt.fields[n][0])
                                                  for n in dt.names],
            "offsets": [dt.fields[n][1] for n in dt.names], "itemsize": dt.itemsize,
            "aligned": dt.isalignedstruct}


def _rebuild_dtype(desc):
    import numpy as np
    if isinstance(desc, str):
        return np.dtype(desc)
    if "base" in desc:
        return np.dtype((_rebuild_dtype(desc["base"]), tuple(desc["shape"])))
    return np.dtype({"names": desc["names"], "formats": [_rebuild_dtype(f) for f in
                                                         desc["formats"]],
                     "offsets": desc["offsets"], "itemsize": desc["itemsize"]},
                    align=desc["aligned"])


def _describe_type(t):
    """A JSON description of a cujit type."""
    name = str(t)
    if name.startswith("Record("):
        return ["record", _describe_dtype(t.dtype)]
    if name.split("(")[0].endswith("array"):  # [unaligned ][readonly ]array(...)
        return ["array", _describe_type(t.dtype), t.ndim, t.layout, not t.mutable]
    if name.startswith(("UniTuple(", "Tuple(")):
        return ["tuple", [_describe_type(x) for x in t.types]]
    if isinstance(t, cjtypes.Optional):
        return ["optional", _describe_type(t.type)]
    return ["scalar", name]


def _rebuild_type(desc):
    kind = desc[0]
    if kind == "array":
        return cjtypes.Array(_rebuild_type(desc[1]), desc[2], desc[3], desc[4])
    if kind == "tuple":
        return cjtypes.Tuple([_rebuild_type(x) for x in desc[1]])
    if kind == "record":
        return _core.from_dtype(_rebuild_dtype(desc[1]))
    if kind == "optional":
        return cjtypes.Optional(_rebuild_type(desc[1]))
    return _core.type_by_name(desc[1])


def _encode_value(v):
    """An exception argument as tagged JSON, exactly (types included); ValueError if not data."""
    if v is None or isinstance(v, bool):
        return ["n"] if v is None else ["b", v]
    if isinstance(v, int):
        return ["i", str(v)]
    if isinstance(v, float):
        return ["f", v.hex()]
    if isinstance(v, complex):
        return ["c", v.real.hex(), v.imag.hex()]
    if isinstance(v, str):
        return ["s", v]
    if isinstance(v, bytes):
        return ["y", v.hex()]
    if isinstance(v, tuple):
        return ["t", [_encode_value(x) for x in v]]
    raise ValueError(f"cannot cache an exception argument of type {type(v).__name__}")


def _decode_value(e):
    tag = e[0]
    if tag == "t":
        return tuple(_decode_value(x) for x in e[1])
    decode = {"n": lambda: None, "b": lambda: bool(e[1]), "i": lambda: int(e[1]),
              "f": lambda: float.fromhex(e[1]), "s": lambda: str(e[1]),
              "c": lambda: complex(float.fromhex(e[1]), float.fromhex(e[2])),
              "y": lambda: bytes.fromhex(e[1])}[tag]
    return decode()


def _encode_exception(exc_id, exc):
    cls = exc if isinstance(exc, type) else type(exc)
    args = [] if isinstance(exc, type) else [_encode_value(a) for a in exc.args]
    return [exc_id, cls.__module__, cls.__qualname__, isinstance(exc, type), args]


def _decode_exception(record):
    """(id, class or instance); the class must already be loaded (nothing is imported)."""
    exc_id, module, qualname, is_class, args = record
    if type(exc_id) is not int or not 0 < exc_id < 2 ** 31:
        raise ValueError("bad exception id")
    cls = sys.modules[module]
    for part in qualname.split("."):
        cls = getattr(cls, part)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        raise ValueError("not an exception class")
    return (exc_id, cls if is_class else cls(*[_decode_value(a) for a in args]))


_TEXTS = ("annotation", "llvm_ir")
_BYTES = ("module", "bitcode")


def _extension_labels(kept):
    """What of the objects compiled code keeps (nested: its callees') is the low-level
    extension API's: a lowering's label, or an extension type taken or returned."""
    for k in kept:
        if isinstance(k, list):
            yield from _extension_labels(k)
        elif isinstance(k, tuple) and len(k) == 5 and k[0] == "lowlevel":
            yield k[4]
        elif isinstance(k, _core.Type):
            yield "type %s" % (k,)


def _refuse_uncacheable(func, kept):
    """Code that points at this process's objects is compiled again in each process; for the
    low-level extension API's (a lowering's IR is made by Python code at each compile, an
    extension type's data model and boxing are Python) numba's warning says so, once per
    function."""
    labels = sorted(set(_extension_labels(kept)))
    if labels and func not in _refused:
        _refused.add(func)
        warnings.warn('Cannot cache compiled function "%s" as it uses the low-level extension '
                      '%s: it is compiled again in each process'
                      % (func.__qualname__, ", ".join(labels)), NumbaWarning, stacklevel=3)


_refused = set()


class Cache:
    """The on-disk cache of one jitted function (csrc/jit/dispatcher.c calls load and save)."""

    def __init__(self, func, options):
        from . import __version__
        self._func = func
        self.hits = 0
        self.misses = 0
        self._context = (__version__, sys.version, _core.host_cpu(),
                         tuple(sorted(options.items())))

    def _path(self, argtypes, declared):
        key = repr((function_key(self._func), tuple(str(t) for t in argtypes), str(declared),
                    self._context))
        digest = hashlib.sha256(key.encode()).hexdigest()
        return os.path.join(cache_dir(self._func), entry_name(digest, ".cjc")), digest

    def load(self, argtypes, declared):
        """The cached entry for these types, or None (missing, stale, corrupt, untrusted)."""
        entry = self._read(argtypes, declared)
        if entry is None:
            self.misses += 1
        else:
            self.hits += 1
        return entry

    def rejected(self):
        """The entry load returned could not be used (its code did not load): a miss."""
        self.hits -= 1
        self.misses += 1

    def _read(self, argtypes, declared):
        path, digest = self._path(argtypes, declared)
        found = read_entry(path, MAGIC, digest)
        if found is None:
            return None
        meta, sections = found
        try:
            entry = {n: sections[n] for n in _BYTES}
            entry.update((n, sections[n].decode()) for n in _TEXTS)
            entry["symbol"] = str(meta["symbol"])
            entry["wrapper"] = str(meta["wrapper"])
            entry["exceptions"] = [_decode_exception(r) for r in meta["exceptions"]]
            entry["ret"] = _rebuild_type(meta["ret"])
        except Exception:  # an entry this version cannot use is a miss
            return None
        return entry

    def save(self, argtypes, declared, entry):
        """Writes the entry atomically (a reader never sees half a file)."""
        if "uncacheable" in entry:
            return _refuse_uncacheable(self._func, entry["uncacheable"])
        path, digest = self._path(argtypes, declared)
        try:
            meta = {"symbol": entry["symbol"], "wrapper": entry["wrapper"],
                    "ret": _describe_type(entry["ret"]),
                    "exceptions": [_encode_exception(i, e) for i, e in entry["exceptions"]]}
        except ValueError:
            return  # an exception whose arguments are not plain data: not cached
        sections = {n: entry[n] for n in _BYTES}
        sections.update((n, entry[n].encode()) for n in _TEXTS)
        write_entry(path, MAGIC, digest, meta, sections)
