"""jit / njit: numba's decorators for the CPU target (nopython mode only)."""
import functools

from . import _core
from .typing import parse_signatures

_OPTIONS = {"cache", "fastmath", "error_model", "boundscheck", "nopython", "nogil",
            "parallel", "forceobj", "looplift", "inline", "opt", "debug", "_nrt"}


# numba's CPUDispatcher; a C type (a Python subclass would lose vectorcall on 3.11)
Dispatcher = _core.Dispatcher


def _check_options(options):
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown jit option(s): {', '.join(sorted(unknown))}")
    if options.get("forceobj") or options.get("nopython") is False:
        raise NotImplementedError("cujit has no object mode: it compiles in nopython mode only")
    if options.get("parallel"):
        raise NotImplementedError("parallel=True is not supported by cujit yet")
    em = options.get("error_model", "python")
    if em not in ("python", "numpy"):
        raise ValueError(f"error_model must be 'python' or 'numpy', not {em!r}")


def _make(func, sigs, options):
    core_options = {k: options[k] for k in ("error_model", "fastmath", "boundscheck", "opt")
                    if k in options}
    disp = Dispatcher(func, core_options)
    functools.update_wrapper(disp, func)
    if options.get("cache"):
        from .caching import Cache
        disp._cache = Cache(func, core_options)  # hits/misses for inspection
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
        return _make(signature_or_function, None, options)
    sigs = parse_signatures(signature_or_function) if signature_or_function is not None else None

    def decorate(func):
        return _make(func, sigs, options)
    return decorate


def njit(*args, **options):
    """jit in nopython mode (the only mode cujit has)."""
    options.setdefault("nopython", True)
    return jit(*args, **options)
