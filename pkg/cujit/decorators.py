"""jit / njit: numba's decorators for the CPU target (nopython mode; object mode and objmode blocks
through object_mode.py and withcontexts.py)."""
import functools

from . import _core, config, withcontexts
from .typing import parse_signatures

_OPTIONS = {"cache", "fastmath", "error_model", "boundscheck", "nopython", "nogil",
            "parallel", "forceobj", "looplift", "inline", "opt", "debug", "_nrt"}


# numba's CPUDispatcher; a C type (a Python subclass would lose vectorcall on 3.11)
Dispatcher = _core.Dispatcher


# options whose value is a flag; None is numba's "not given" (boundscheck=None)
_FLAG_OPTIONS = {"cache", "nopython", "nogil", "parallel", "forceobj", "looplift", "debug",
                 "_nrt", "boundscheck", "lineinfo", "device", "forceinline", "lto"}
_FASTMATH_FLAGS = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"}


def check_option_values(options, what):
    """The one check of option values for jit, njit, vectorize, guvectorize and cuda.jit: a
    TypeError for a value of the wrong type, a ValueError for one out of range."""
    for name, v in options.items():
        if name in _FLAG_OPTIONS:
            if not (v is None or isinstance(v, bool) or (type(v) is int and v in (0, 1))):
                raise TypeError(f"{what} option {name} must be a bool, not {v!r}")
        elif name == "opt":
            if not isinstance(v, int):
                raise TypeError(f"{what} option opt must be a bool or an int, not {v!r}")
            if not isinstance(v, bool) and not 0 <= v <= 3:
                raise ValueError(f"{what} option opt must be in 0..3, not {v!r}")
        elif name == "fastmath":
            if isinstance(v, bool):
                continue
            if not isinstance(v, (set, frozenset, dict)):
                raise TypeError(f"{what} option fastmath must be a bool or a set of flags, "
                                f"not {v!r}")
            bad = set(v) - _FASTMATH_FLAGS
            if bad:
                raise ValueError(f"{what} option fastmath: unknown flag(s) {sorted(map(str, bad))}"
                                 f"; the flags are {sorted(_FASTMATH_FLAGS)}")
        elif name == "error_model":
            if not isinstance(v, str):
                raise TypeError(f"{what} option error_model must be a str, not {v!r}")
            if v not in ("python", "numpy"):
                raise ValueError(f"error_model must be 'python' or 'numpy', not {v!r}")
        elif name == "inline":
            if not (isinstance(v, bool) or v in ("always", "never") or callable(v)):
                raise ValueError(f"{what} option inline must be 'always', 'never' or a "
                                 f"callable, not {v!r}")


def core_opt_level(opt):
    """opt as an LLVM level: True is 3, False 0 (numba-cuda's bool), an int is itself."""
    return 3 if opt is True else 0 if opt is False else int(opt)


def _check_options(options, what="jit"):
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown {what} option(s): {', '.join(sorted(unknown))}")
    check_option_values(options, what)


def default_opt_level():
    """The CPU targets' LLVM level when `opt` is not given: $CUJIT_OPT (or numba's NUMBA_OPT),
    else 3. Read at each decoration, so a test can change it."""
    env = config.env("OPT", "").strip()
    if not env:
        return 3
    if env not in ("0", "1", "2", "3"):
        raise ValueError(f"{config.env_name('OPT')} must be 0, 1, 2 or 3, not {env!r}")
    return int(env)


def core_options(options, **fixed):
    """The options the C Dispatcher reads (csrc/jit/dispatcher.c), from checked ones."""
    core = {k: options[k] for k in ("error_model", "fastmath", "boundscheck", "opt")
            if k in options}
    if options.get("parallel"):  # prange loops on the thread pool (csrc/lower/lower_prange.c)
        core["parallel"] = True
    core["opt"] = core_opt_level(core["opt"]) if "opt" in core else default_opt_level()
    core.update(fixed)
    return core


def _make(func, sigs, options):
    core_options_ = core_options(options)
    disp = Dispatcher(withcontexts.rewrite(func), core_options_)  # objmode blocks: calls
    functools.update_wrapper(disp, func)
    if options.get("cache"):
        from .caching import Cache
        disp._cache = Cache(func, core_options_)  # hits/misses for inspection
        disp._set_cache(disp._cache)
    if sigs:
        for sig in sigs:
            disp.compile(sig)
        disp._lock()
    return disp


def jit(signature_or_function=None, locals=None, **options):
    """Compile a function for the CPU (nopython mode), as numba.jit.

    @jit, @jit(), @jit("float64(float64, float64)"), @jit([sig1, sig2], fastmath=True)."""
    if locals:
        raise NotImplementedError("locals= type annotations are not supported by cujit yet")
    _check_options(options)
    if callable(signature_or_function) and not isinstance(signature_or_function, _core.Type):
        return _make_for_mode(signature_or_function, None, options)
    sigs = parse_signatures(signature_or_function) if signature_or_function is not None else None

    def decorate(func):
        return _make_for_mode(func, sigs, options)
    return decorate


def _make_for_mode(func, sigs, options):
    """nopython (the default, as numba 0.59+), object mode with loop lifting (forceobj=True),
    or nopython falling back to it (nopython=False)."""
    forceobj, nopython = options.get("forceobj"), options.get("nopython")
    if not forceobj and nopython is not False:
        return _make(func, sigs, options)
    if sigs:
        raise NotImplementedError("signatures with object mode (forceobj=True or "
                                  "nopython=False) are not supported by cujit")
    from .object_mode import FallbackDispatcher, ObjModeDispatcher
    looplift = options.get("looplift", True)
    if forceobj:
        return ObjModeDispatcher(func, looplift)
    nopython_options = {k: v for k, v in options.items() if k not in ("nopython", "looplift")}
    return FallbackDispatcher(_make(func, None, nopython_options), func, looplift)


def njit(*args, **options):
    """jit in nopython mode."""
    options.setdefault("nopython", True)
    return jit(*args, **options)
