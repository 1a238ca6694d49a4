"""Shared machinery of the CPU suites: the compiler under test, the corpus runner, comparisons.

CUJIT_TEST_ORACLE=numba swaps cujit for numba (njit, jit, TypingError, UnsupportedError), so the
suites can be proved against numba itself.  Test modules import everything from here.
"""
import cmath
import math
import os
import re
import types as pytypes

import numpy as np

ORACLE = os.environ.get("CUJIT_TEST_ORACLE", "cujit").strip().lower() or "cujit"
if ORACLE not in ("cujit", "numba"):
    raise RuntimeError(f"CUJIT_TEST_ORACLE must be 'cujit' or 'numba', not {ORACLE!r}")

N_INPUTS = int(os.environ.get("CUJIT_TEST_N", "20"))
SEED = int(os.environ.get("CUJIT_TEST_SEED", "20261122"))

if ORACLE == "numba":
    import numba as backend
    from numba.core.errors import NumbaError as BaseError
    from numba.core.errors import TypingError, UnsupportedError
    njit = backend.njit
    jit = backend.jit
else:
    try:
        import cujit as backend
    except ImportError:  # not built: every module skips
        backend = None
    njit = getattr(backend, "njit", None)
    jit = getattr(backend, "jit", None)
    _err = getattr(backend, "errors", None)
    TypingError = getattr(_err, "TypingError", None)
    UnsupportedError = getattr(_err, "UnsupportedError", None)
    BaseError = getattr(_err, "CujitError", None) or getattr(_err, "NumbaError", None)

HAVE_COMPILER = njit is not None
SKIP_REASON = "cujit.njit is not built yet (the compiler core, issue 2)"
# compile-time errors the fuzzers accept as a legitimate outcome
COMPILE_ERRORS = tuple(e for e in (TypingError, UnsupportedError) if e is not None)


def is_numba():
    return ORACLE == "numba"


# ---------------------------------------------------------------- jitting corpus functions

_worlds = {}


def _rebind(func, g):
    new = pytypes.FunctionType(func.__code__, g, func.__name__, func.__defaults__,
                               func.__closure__)
    new.__kwdefaults__ = func.__kwdefaults__
    new.__qualname__ = func.__qualname__
    new.__module__ = func.__module__
    return new


def jit_world(module_name):
    """A copy of a corpus module's globals where its helpers and cases are jitted (lazily compiled
    dispatchers), so jitted cases call jitted helpers, recursion included."""
    if module_name in _worlds:
        return _worlds[module_name]
    import corpus
    mod = __import__(f"corpus.{module_name}", fromlist=["_"])
    g = dict(vars(mod))
    funcs = dict(corpus.HELPERS.get(module_name, {}))
    for c in corpus.REGISTRY:
        if c.module == module_name and c.global_name:
            funcs[c.global_name] = c.func
    for gname, f in funcs.items():
        g[gname] = njit(_rebind(f, g))
    _worlds[module_name] = g
    return g


def jitted(case, sig=None):
    """The jitted dispatcher of a corpus case (a fresh one when sig is given)."""
    g = jit_world(case.module)
    if sig is None and case.global_name:
        return g[case.global_name]
    plain = _rebind(case.func, g)
    return njit(sig)(plain) if sig is not None else njit(plain)


# ---------------------------------------------------------------- inputs and outcomes

def normalize(v):
    """NumPy int64/float64/bool/complex128 scalars -> Python scalars (same numba type, Python
    semantics in CPython); tuples recursively; arrays and other NumPy scalars unchanged."""
    if isinstance(v, tuple):
        return tuple(normalize(x) for x in v)
    if isinstance(v, (np.int64, np.float64, np.complex128, np.bool_)):
        return v.item()
    return v


def inputs(case, k):
    """The k-th argument tuple of a case; calling twice gives equal, independent objects."""
    rng = np.random.default_rng([SEED, k, _stable_hash(case.name)])
    args = case.gen(rng)
    if not isinstance(args, tuple):
        args = (args,)
    return normalize(args)


def _stable_hash(s):
    h = 0
    for ch in s.encode():
        h = (h * 131 + ch) % 1_000_000_007
    return h


class Raised:
    def __init__(self, exc):
        self.type = type(exc)
        self.msg = str(exc)

    def __repr__(self):
        return f"raised {self.type.__name__}({self.msg!r})"


def outcome(func, args):
    """(result or Raised, args after the call)."""
    try:
        return func(*args), args
    except Exception as exc:  # noqa: BLE001  (the exception is the outcome)
        if BaseError is not None and isinstance(exc, BaseError):
            raise  # a compile error is a test failure, not an outcome
        return Raised(exc), args


def describe(v):
    """The Python-level type of a result: 'int', 'float', 'np.float32', 'ndarray[float64,2]',
    '(int,float)' ..."""
    if isinstance(v, tuple):
        return "(" + ",".join(describe(x) for x in v) + ")"
    if isinstance(v, np.ndarray):
        return f"ndarray[{v.dtype},{v.ndim}]"
    if isinstance(v, np.generic):
        return f"np.{type(v).__name__}"
    return type(v).__name__


def _float_tol(a, b, rtol, atol):
    a = complex(a)
    b = complex(b)
    for x, y in ((a.real, b.real), (a.imag, b.imag)):
        if math.isnan(x) and math.isnan(y):
            continue
        if math.isinf(x) or math.isinf(y):
            if x != y:
                return False
            continue
        if not abs(x - y) <= atol + rtol * max(abs(x), abs(y)):
            return False
    return True


def _default_rtol(v):
    if isinstance(v, (np.float32, np.complex64)):
        return 1e-5
    if isinstance(v, np.ndarray) and v.dtype in (np.float32, np.complex64):
        return 1e-5
    return 1e-12


def same_value(expected, got, rtol=None, atol=None, path="result"):
    """None when equal (NaN == NaN, floats within tolerance), else a message."""
    if isinstance(expected, tuple) or isinstance(got, tuple):
        if not (isinstance(expected, tuple) and isinstance(got, tuple)) or len(expected) != len(got):
            return f"{path}: expected {expected!r}, got {got!r}"
        for i, (e, g) in enumerate(zip(expected, got)):
            m = same_value(e, g, rtol, atol, f"{path}[{i}]")
            if m:
                return m
        return None
    if isinstance(expected, np.ndarray) or isinstance(got, np.ndarray):
        e = np.asarray(expected)
        g = np.asarray(got)
        if e.shape != g.shape:
            return f"{path}: shape {g.shape}, expected {e.shape}"
        r = _default_rtol(got) if rtol is None else rtol
        if e.dtype.kind in "fc" or g.dtype.kind in "fc":
            ok = np.allclose(g, e, rtol=r, atol=atol or 0.0, equal_nan=True) if e.size else True
        else:
            ok = np.array_equal(g, e)
        return None if ok else f"{path}: expected\n{e!r}\ngot\n{g!r}"
    integral = (bool, int, np.integer, np.bool_)
    numeric = integral + (float, complex, np.floating, np.complexfloating)
    if isinstance(expected, numeric) and isinstance(got, numeric):
        if isinstance(expected, integral) and isinstance(got, integral):
            return None if int(expected) == int(got) else \
                f"{path}: expected {expected!r}, got {got!r}"
        r = _default_rtol(got) if rtol is None else rtol
        if isinstance(expected, (np.float32, np.complex64)):
            r = max(r, 1e-5)
        return None if _float_tol(expected, got, r, atol or 0.0) else \
            f"{path}: expected {expected!r}, got {got!r}"
    return None if expected == got else f"{path}: expected {expected!r}, got {got!r}"


def compare_outcomes(case, args, py, pyargs, jt, jtargs):
    """None when the jitted outcome matches CPython's, else a message."""
    where = f"{case.name}{args!r}"
    if isinstance(py, Raised) or isinstance(jt, Raised):
        if not (isinstance(py, Raised) and isinstance(jt, Raised)):
            return f"{where}: CPython gave {py!r}, jitted gave {jt!r}"
        if not issubclass(jt.type, py.type):
            return f"{where}: CPython raised {py.type.__name__}, jitted raised {jt!r}"
        if case.msg and jt.msg != py.msg:
            return f"{where}: message {jt.msg!r}, expected {py.msg!r}"
        return None
    m = same_value(py, jt, case.rtol, case.atol)
    if m:
        return f"{where}: {m}"
    for i, (a, b) in enumerate(zip(pyargs, jtargs)):
        if isinstance(a, np.ndarray):
            m = same_value(a, b, case.rtol, case.atol, f"argument {i} after the call")
            if m:
                return f"{where}: {m}"
    return None


def run_case(case, func, n=None, check_types=None):
    """Runs a case on its random inputs under CPython and `func`; returns a list of failures and
    the set of result descriptors seen (for the type check)."""
    failures = []
    seen = set()
    n = n if n is not None else (case.n or N_INPUTS)
    for k in range(n):
        py, pyargs = outcome(case.func, inputs(case, k))
        jt, jtargs = outcome(func, inputs(case, k))
        m = compare_outcomes(case, inputs(case, k), py, pyargs, jt, jtargs)
        if m:
            failures.append(m)
        if not isinstance(jt, Raised):
            seen.add(describe(jt))
    return failures, seen


def unliteral(text):
    """numba keeps literal types in some return types (`return 1` is Literal[int](1)); the suites
    compare them as the plain type (int64 / bool), which is what the issue asks of literals."""
    text = re.sub(r"Literal\[int\]\([^)]*\)", "int64", text)
    return re.sub(r"Literal\[bool\]\((True|False)\)", "bool", text)


def return_type_str(dispatcher):
    """The numba-style return type of the last compiled signature, as a string (literal types
    as their plain types)."""
    sigs = getattr(dispatcher, "nopython_signatures", None)
    if not sigs:
        return None
    return unliteral(str(sigs[-1].return_type))


__all__ = ["ORACLE", "N_INPUTS", "SEED", "njit", "jit", "TypingError", "UnsupportedError",
           "BaseError", "HAVE_COMPILER", "SKIP_REASON", "COMPILE_ERRORS", "is_numba",
           "jit_world", "jitted", "inputs", "outcome", "describe", "same_value",
           "compare_outcomes", "run_case", "return_type_str", "Raised", "cmath"]
