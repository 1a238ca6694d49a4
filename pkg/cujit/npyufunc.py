"""vectorize / guvectorize (CPU target): real NumPy ufuncs and gufuncs from compiled loops.

With signatures, vectorize returns a numpy.ufunc whose loops are in signature order (NumPy
picks the first loop the inputs cast to safely). Without signatures it returns a DUFunc that
compiles a loop for each new combination of input types and then behaves as a ufunc."""
import re

import numpy as np

from . import _core, withcontexts
from .decorators import _check_options, core_options
from .typing import parse_signature, parse_signatures


def _identity(identity):
    if identity is None:
        return _core.UFUNC_IDENTITY_NONE, None
    if identity == "reorderable":
        return _core.UFUNC_IDENTITY_REORDERABLE, None
    if type(identity) is int and identity in (0, 1):
        return (_core.UFUNC_IDENTITY_ZERO if identity == 0 else _core.UFUNC_IDENTITY_ONE), None
    return _core.UFUNC_IDENTITY_VALUE, identity


def _check_target(target, what):
    if target in ("cpu", "parallel", "cuda", None):
        return
    raise NotImplementedError(f"{what}(target={target!r}) is not supported: cujit has the "
                              "'cpu', 'parallel' and 'cuda' targets")


def _check_cuda_options(options, cache, what):
    if options:
        raise TypeError(f"{what}(target='cuda') got unexpected option(s): "
                        f"{', '.join(sorted(options))}")
    if cache:
        raise NotImplementedError(f"{what}(target='cuda', cache=True) is not implemented by "
                                  "cujit yet")


def _check_cpu_options(options, cache, what):
    """The CPU target takes jit's options (checked as jit checks them)."""
    _check_options(dict(options, cache=cache), what)


def _dispatcher(func, cache, options=None):
    """The scalar (or core) function's dispatcher: NumPy's error model, as NumPy's ufuncs;
    with cache=True its compiled code is kept on disk like jit(cache=True)'s."""
    options = core_options(options or {}, error_model="numpy")
    disp = _core.Dispatcher(withcontexts.rewrite(func), options)  # refused at the loop
    if cache:
        from .caching import Cache
        disp._cache = Cache(func, options)
        disp._set_cache(disp._cache)
    return disp


def _make(disp, sigs, nin, nout, identity, layout=None, core_dims=None, parallel=False):
    """The ufunc of `sigs`; parallel: its loops split their elements over the thread pool
    (target='parallel', csrc/jit/ufunc_parallel.c)."""
    func = disp.py_func
    for sig in sigs:
        disp.compile(sig)
    kind, value = _identity(identity)
    return _core.make_ufunc(disp, nin, nout, func.__name__, func.__doc__ or "", kind, value,
                            layout, core_dims, parallel)


def _ufunc_signatures(sigs):
    parsed = parse_signatures(sigs)
    for sig in parsed:
        if sig.return_type is None:
            raise TypeError(f"vectorize signatures need a return type: {sig!r}")
        check_scalar_signature(sig)
    return parsed


def check_scalar_signature(sig):
    """A ufunc's arguments and result are scalars (numba: a NumPy dtype)."""
    for t in (*sig.args, sig.return_type):
        if getattr(t, "ndim", None) is not None:
            raise TypeError(f"vectorize signature {sig!r}: a ufunc's arguments and result are "
                            f"scalars, not {t}; use guvectorize for arrays")


def check_gufunc_signature(sig, layout, core):
    """numba's rule: an argument with k core dimensions in the layout is an array of k
    dimensions, or, when k is 0, a scalar or a 1-d array."""
    for i, (t, dims) in enumerate(zip(sig.args, core)):
        ndim = getattr(t, "ndim", None)
        if ndim is None and dims:
            raise TypeError(f"signature {sig!r} does not fit the layout {layout!r}: scalar type "
                            f"{t} given for non scalar argument #{i + 1}")
        if ndim is not None and ndim != len(dims) and not (ndim == 1 and not dims):
            raise TypeError(f"signature {sig!r} does not fit the layout {layout!r}: type and "
                            f"shape signature mismatch for arg #{i + 1} ({t} for "
                            f"{len(dims)} core dimension(s))")


class DUFunc:
    """A ufunc that compiles a loop for each new combination of input types (numba's DUFunc)."""

    def __init__(self, func, identity=None, cache=False, options=None):
        self.py_func = func
        self.identity = identity
        self._disp = _dispatcher(func, cache, options)
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self._sigs = []
        self._keys = set()
        self.ufunc = None
        code = func.__code__
        if code.co_flags & 0x0C:
            raise TypeError("vectorize does not take *args or **kwargs functions")
        self.nin = code.co_argcount
        self.nout = 1
        self.nargs = self.nin + 1

    def _compile_for(self, args):
        from .types import typeof
        kinds = []
        for a in args:
            t = typeof(np.asarray(a).dtype.type(0)) if isinstance(a, np.ndarray) else typeof(a)
            if isinstance(a, np.ndarray) and a.dtype == np.bool_:
                t = typeof(True)
            kinds.append(t)
        key = tuple(kinds)
        if key in self._keys:
            return
        sig = self._disp.compile(_core.make_signature(None, key))
        self._sigs.append(sig)
        self._keys.add(key)
        self.ufunc = _make(self._disp, self._sigs, self.nin, 1, self.identity)

    def add(self, sig):
        """Compiles a loop for `sig` now (numba's DUFunc.add)."""
        sig = parse_signature(sig)
        self._sigs.append(sig)
        self._keys.add(tuple(sig.args))
        self.ufunc = _make(self._disp, self._sigs, self.nin, 1, self.identity)

    def __call__(self, *args, **kwargs):
        if len(args) < self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} inputs, got {len(args)}")
        self._compile_for(args[:self.nin])
        return self.ufunc(*args, **kwargs)

    def _method(self, name, arrays):
        self._compile_for([np.asarray(arrays[0])] * self.nin)  # reductions run the (T, T) loop
        return getattr(self.ufunc, name)

    def reduce(self, array, *args, **kwargs):
        return self._method("reduce", [array])(array, *args, **kwargs)

    def accumulate(self, array, *args, **kwargs):
        return self._method("accumulate", [array])(array, *args, **kwargs)

    def reduceat(self, array, *args, **kwargs):
        return self._method("reduceat", [array])(array, *args, **kwargs)

    def outer(self, a, b, **kwargs):
        self._compile_for([a, b])
        return self.ufunc.outer(a, b, **kwargs)

    @property
    def types(self):
        return [] if self.ufunc is None else self.ufunc.types

    @property
    def ntypes(self):
        return len(self.types)


def vectorize(ftylist_or_function=(), identity=None, cache=False, target="cpu", **options):
    """numba.vectorize: a scalar function becomes a NumPy ufunc."""
    _check_target(target, "vectorize")
    if target == "cuda":
        _check_cuda_options(options, cache, "vectorize")
        from .cuda import ufunc as cuda_ufunc
        if callable(ftylist_or_function) and not isinstance(ftylist_or_function,
                                                            (str, _core.Type)):
            return cuda_ufunc.vectorize((), ftylist_or_function)
        return lambda func: cuda_ufunc.vectorize(ftylist_or_function, func)
    _check_cpu_options(options, cache, "vectorize")
    parallel = target == "parallel"
    lazy = callable(ftylist_or_function) and not isinstance(ftylist_or_function, (str, _core.Type))
    if parallel and (lazy or not ftylist_or_function):
        raise TypeError("vectorize(target='parallel') needs signatures: the parallel target "
                        "compiles eagerly, as numba's")
    if lazy:
        return DUFunc(ftylist_or_function, identity, cache, options)
    sigs = ftylist_or_function

    def decorate(func):
        if not sigs:
            return DUFunc(func, identity, cache, options)
        parsed = _ufunc_signatures(sigs)
        nin = len(parsed[0].args)
        return _make(_dispatcher(func, cache, options), parsed, nin, 1, identity,
                     parallel=parallel)
    return decorate


_GROUP = re.compile(r"\(([^()]*)\)")


def _parse_layout(layout):
    """'(m,n),(n)->(m)' -> (nin, nout, core dim indices per argument)."""
    if not isinstance(layout, str) or "->" not in layout:
        raise ValueError(f"invalid gufunc layout {layout!r}: expected '(n),()->(n)'")
    ins, outs = layout.replace(" ", "").split("->")
    groups_in, groups_out = _GROUP.findall(ins), _GROUP.findall(outs)
    if (not groups_in or not groups_out or "".join(f"({g})" for g in groups_in).replace(",", "")
            != ins.replace(",", "").replace(")(", ")(")):
        if ",".join(f"({g})" for g in groups_in) != ins or ",".join(f"({g})" for g in groups_out) != outs:
            raise ValueError(f"invalid gufunc layout {layout!r}")
    index = {}
    core = []
    for group in groups_in + groups_out:
        dims = [d for d in group.split(",") if d]
        for d in dims:
            if not d.isidentifier():
                raise ValueError(f"invalid dimension name {d!r} in gufunc layout {layout!r}")
            index.setdefault(d, len(index))
        core.append(tuple(index[d] for d in dims))
    return len(groups_in), len(groups_out), tuple(core)


def guvectorize(ftylist, signature, identity=None, cache=False, target="cpu", **options):
    """numba.guvectorize: a function over core dimensions becomes a generalized NumPy ufunc."""
    _check_target(target, "guvectorize")
    nin, nout, core = _parse_layout(signature)
    if target == "cuda":
        _check_cuda_options(options, cache, "guvectorize")
        from .cuda import ufunc as cuda_ufunc
        return lambda func: cuda_ufunc.guvectorize(ftylist, signature, nin, nout, core, func)
    _check_cpu_options(options, cache, "guvectorize")

    parsed = parse_signatures(ftylist)

    def decorate(func):
        sigs = []
        for sig in parsed:
            if len(sig.args) != nin + nout:
                raise TypeError(f"signature {sig!r} has {len(sig.args)} arguments; the layout "
                                f"{signature!r} has {nin + nout}")
            if sig.return_type is not None and str(sig.return_type) not in ("none", "void"):
                raise TypeError(f"guvectorize functions return nothing: {sig!r}")
            check_gufunc_signature(sig, signature, core)
            sigs.append(_core.make_signature(None, tuple(sig.args)))
        return _make(_dispatcher(func, cache, options), sigs, nin, nout, identity,
                     signature.replace(" ", ""), core, parallel=target == "parallel")
    return decorate
