"""Object mode with loop lifting (numba's `jit(forceobj=True)`, and `jit(nopython=False)` when
nopython typing fails).

The function runs in the interpreter (object mode: any Python, any library). Each outermost
loop of its body is lifted: it becomes a function of the variables it reads that were set
before it (and returns those it sets that are read after it), which is compiled in nopython
mode for the types it is called with. A loop that does not type runs in Python instead,
which is what numba does with a loop it cannot lift. `looplift=False` lifts nothing.

Lifting works on the function's source (inspect.getsource: files and notebook cells) and keeps
its line numbers, so tracebacks, inspect_types and the annotated report point at the real
lines. A function whose source cannot be read, or that has a closure, or is a generator, runs
in object mode without lifting. A loop that contains return, yield, global, nonlocal, del, or
a nested def/class/lambda is not lifted either.
"""
import ast
import inspect
import itertools
import warnings

from . import _source
from ._source import names as _names
from .errors import NumbaWarning, TypingError, UnsupportedError

_counter = itertools.count()

_NOT_LIFTABLE = (ast.Return, ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal, ast.Delete,
                 ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Await,
                 ast.Try, ast.With)


def _reason(exc):
    """The line of a compile error that says what failed (not its header or source)."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return lines[1] if len(lines) > 1 and lines[0].startswith("Failed in") else lines[0]


def _liftable(loop):
    return not any(isinstance(n, _NOT_LIFTABLE) for n in ast.walk(loop))


_UNTYPABLE = ("untypable",)  # the key of arguments cujit cannot type (a dict, a list, ...)


def _arg_types(args):
    from . import typeof
    try:
        return tuple(typeof(a) for a in args)
    except (TypeError, ValueError):
        return None


def _try_nopython(dispatcher, args, refused):
    """(True, result, None) from the nopython `dispatcher`, or (False, key, why) when these
    argument types do not compile (`why` is None when `refused` already holds `key`). The
    arguments are typed in Python only after a failure, or while some types are refused (so
    those are not compiled again); the dispatcher types them itself on the way in."""
    if refused:
        key = _arg_types(args) or _UNTYPABLE
        if key in refused:
            return False, key, None
    try:
        return True, dispatcher(*args), None
    except Exception as exc:  # noqa: BLE001  (re-raised unless the types did not compile)
        key = _arg_types(args)
        if key is None:
            return False, _UNTYPABLE, "an argument cujit cannot type"
        if not isinstance(exc, (TypingError, UnsupportedError)) or key in dispatcher.signatures:
            raise  # the compiled code raised it, or a call error: the program's error
        return False, key, _reason(exc)


class LiftedLoop:
    """One lifted loop: nopython code for the argument types that type, Python for others."""

    def __init__(self, name, jitted, python, lineno, end_lineno):
        self.name, self.lineno, self.end_lineno = name, lineno, end_lineno
        self.dispatcher, self.py_func = jitted, python
        self.fallbacks = set()  # argument types that did not type: they run in Python

    def __call__(self, *args):
        ok, value, why = _try_nopython(self.dispatcher, args, self.fallbacks)
        if ok:
            return value
        if why is not None:
            self._warn(value, why)
        return self.py_func(*args)

    def _warn(self, key, why):
        self.fallbacks.add(key)
        warnings.warn(NumbaWarning(
            f"the loop at line {self.lineno} could not be compiled in nopython mode for "
            f"{'these arguments' if key == _UNTYPABLE else key}: it runs in object mode "
            f"({why})"), stacklevel=3)


def _lift(func, looplift):
    """(the object-mode function, [LiftedLoop]); the function itself when nothing lifts."""
    if not looplift or not inspect.isfunction(func) or func.__closure__ or \
            inspect.isgeneratorfunction(func):
        return func, []
    fdef = _source.parse_function(func)
    if fdef is None:
        return func, []
    params = _names([fdef.args], ast.Store)
    lifted, body = [], []
    for pos, stmt in enumerate(fdef.body):
        if isinstance(stmt, (ast.For, ast.While)) and not stmt.orelse and _liftable(stmt):
            before = params | _names(fdef.body[:pos], ast.Store)
            after = _names(fdef.body[pos + 1:], ast.Load)
            # the loop's inputs: what it reads, and what it may set and the code after reads
            # (the loop may not set it: it keeps its value from before), if set before
            outs = sorted(_names([stmt], ast.Store) & after)
            ins = sorted((_names([stmt], ast.Load) | set(outs)) & before)
            name = f"__cujit_lifted_loop_{next(_counter)}__"
            lifted.append((name, stmt, ins, outs))
            body.append(_call_stmt(name, ins, outs, stmt))
        else:
            body.append(stmt)
    if not lifted:
        return func, []
    fdef.body = body
    loops = []
    from .decorators import njit
    for name, stmt, ins, outs in lifted:
        py = _make_function(name, stmt, ins, outs, func)
        loop = LiftedLoop(name, njit(py), py, stmt.lineno, stmt.end_lineno)
        func.__globals__[name] = loop  # the module's globals: later globals stay visible
        loops.append(loop)
    return _source.recompile(func, fdef), loops


def _call_stmt(name, ins, outs, loc):
    call = ast.Call(func=ast.Name(name, ast.Load()), args=[ast.Name(n, ast.Load()) for n in ins],
                    keywords=[])
    if not outs:
        stmt = ast.Expr(call)
    else:
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in outs], ast.Store())
        stmt = ast.Assign(targets=[target], value=call)
    return _source.located(stmt, loc)


def _make_function(name, loop, ins, outs, func):
    """def name(ins): loop; return (outs) -- with the loop's own line numbers."""
    ret = ast.Return(ast.Tuple([ast.Name(n, ast.Load()) for n in outs], ast.Load())
                     if outs else None)
    fdef = ast.FunctionDef(
        name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in ins],
                                      kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[loop, _source.located(ret, loop)], decorator_list=[], returns=None,
        type_comment=None)
    return _source.compile_def(ast.copy_location(fdef, loop), func)


class ObjModeDispatcher:
    """What jit(forceobj=True) returns: calls run the object-mode function, whose lifted loops
    compile for the types they see."""

    def __init__(self, func, looplift=True, fallback_reason=None):
        self.py_func = func
        self.__name__, self.__qualname__ = func.__name__, func.__qualname__
        self.__doc__, self.__module__ = func.__doc__, func.__module__
        self.__wrapped__ = func
        self._fn, self.lifted = _lift(func, looplift)
        self.fallback_reason = fallback_reason

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    @property
    def signatures(self):
        return [s for loop in self.lifted for s in loop.dispatcher.signatures]

    @property
    def overloads(self):
        """Per lifted loop, the nopython versions it compiled (numba keeps them under the
        object-mode overload's `lifted`)."""
        return {loop.name: loop.dispatcher.overloads for loop in self.lifted}

    def inspect_types(self, signature=None, file=None, pretty=False):
        if pretty:
            from .annotation import annotate
            return annotate(self)
        import sys
        out = file if file is not None else sys.stdout
        print(f"{self.__qualname__}: object mode, {len(self.lifted)} lifted loop(s)", file=out)
        for loop in self.lifted:
            print(f"-- {loop.name} (line {loop.lineno}) --", file=out)
            loop.dispatcher.inspect_types(file=out)

    def __repr__(self):
        return f"ObjModeDispatcher({self.py_func!r}, lifted loops: {len(self.lifted)})"


class FallbackDispatcher:
    """jit(nopython=False): nopython when the function types, else (with numba's warning)
    object mode with loop lifting, decided per call's argument types."""

    def __init__(self, nopython, func, looplift=True):
        self._nopython, self.py_func = nopython, func
        self.__name__, self.__qualname__ = func.__name__, func.__qualname__
        self.__doc__, self.__module__, self.__wrapped__ = func.__doc__, func.__module__, func
        self._looplift, self._objmode, self._fell_back = looplift, None, set()

    def __call__(self, *args):
        ok, value, why = _try_nopython(self._nopython, args, self._fell_back)
        if ok:
            return value
        self._fell_back.add(value)
        if why is not None and value != _UNTYPABLE:
            warnings.warn(NumbaWarning(
                f"Compilation is falling back to object mode WITH looplifting enabled "
                f"because Function \"{self.__name__}\" failed type inference: {why}"))
        if self._objmode is None:
            self._objmode = ObjModeDispatcher(self.py_func, self._looplift)
        return self._objmode(*args)

    @property
    def signatures(self):
        return self._nopython.signatures

    @property
    def overloads(self):
        return self._nopython.overloads

    def inspect_types(self, *args, **kwargs):
        return self._nopython.inspect_types(*args, **kwargs)
