"""The differential corpus: small numba-compatible Python functions with their input generators.

Each module registers its functions with ``@case(gen=...)``; ``load()`` imports every module and
returns the registry.  A generator takes a ``numpy.random.Generator`` and returns the argument
tuple.  Generators keep integers small enough that int64 arithmetic equals Python's.

``scope="beyond"`` marks functions numba compiles that use a feature issue 2 does not list (inner
function definitions, mutual recursion, tuple ordering and slicing): test_differential requires
those to be right or cleanly refused (TypingError/UnsupportedError), never wrong.

``@helper`` marks functions that corpus cases call: when a case is jitted, the helpers of its module
are jitted too (see ``_harness.jit_world``), so a case calls the jitted helper, as in numba.
"""
import importlib
from dataclasses import dataclass, field

MODULES = ["arith_int", "arith_float", "complex_ops", "control_flow", "loops", "tuples", "calls",
           "closures_globals", "builtins", "math_funcs", "numpy_scalars", "arrays", "exceptions"]

REGISTRY = []   # list of Case, in registration order
HELPERS = {}    # module name -> {global name: plain function}


@dataclass
class Case:
    func: object
    gen: object
    name: str          # "module.function", unique
    module: str
    global_name: str   # the name under which the function is reachable in its module, or None
    sig: str = None    # an eager signature to compile once with (test_differential)
    rtol: float = None
    atol: float = None
    msg: bool = False  # compare exception messages too (constant messages)
    n: int = None      # number of random inputs (default: the harness's N)
    note: str = ""
    scope: str = "issue"  # "beyond": numba supports it, issue 2 does not list it
    extra: dict = field(default_factory=dict)


def case(gen, *, sig=None, rtol=None, atol=None, msg=False, n=None, name=None, note="",
         scope="issue"):
    """Registers a corpus function with its input generator."""
    def register(func):
        module = func.__module__.rsplit(".", 1)[-1]
        fname = name or func.__name__
        full = f"{module}.{fname}"
        if any(c.name == full for c in REGISTRY):
            raise ValueError(f"duplicate corpus case {full}")
        global_name = func.__name__ if func.__qualname__ == func.__name__ else None
        REGISTRY.append(Case(func, gen, full, module, global_name, sig, rtol, atol, msg, n, note,
                             scope))
        return func
    return register


def helper(func):
    """Marks a module-level function that corpus functions call (jitted alongside them)."""
    module = func.__module__.rsplit(".", 1)[-1]
    HELPERS.setdefault(module, {})[func.__name__] = func
    return func


def load():
    for m in MODULES:
        importlib.import_module(f"{__name__}.{m}")
    return REGISTRY


# ---- small generator helpers (all return Python scalars, not NumPy ones) ----

def I(rng, lo=-100, hi=100):
    """A Python int in [lo, hi)."""
    return int(rng.integers(lo, hi))


def NZ(rng, lo=-100, hi=100):
    """A nonzero Python int in [lo, hi)."""
    while True:
        v = int(rng.integers(lo, hi))
        if v:
            return v


def F(rng, lo=-100.0, hi=100.0):
    """A Python float in [lo, hi)."""
    return float(rng.uniform(lo, hi))


def FNZ(rng, lo=-100.0, hi=100.0):
    while True:
        v = float(rng.uniform(lo, hi))
        if abs(v) > 1e-3:
            return v


def C(rng, lo=-10.0, hi=10.0):
    """A Python complex with parts in [lo, hi)."""
    return complex(float(rng.uniform(lo, hi)), float(rng.uniform(lo, hi)))


def B(rng):
    return bool(rng.integers(0, 2))
