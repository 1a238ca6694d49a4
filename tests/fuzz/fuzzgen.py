"""PYTEST_DONT_REWRITE

The one program generator of the fuzzers (tests/fuzz/test_fuzz.py draws from a seeded
random.Random, tests/cpu/test_fuzz_frontend.py from hypothesis), the CPython reference and the
comparison.

A program is `def fuzzed(a, b, x, y, p)` (a, b int; x, y float; p bool) over arithmetic,
comparisons (numbers and int tuples), bitwise ops, if/elif/else, bounded while and for-over-range loops, tuples, swaps,
abs/min/max/round/int/float, math.*, nested expressions and early returns.  Loops are bounded,
so a hang is a bug.

The generator writes every operation whose CPython result may differ from cujit's only in the
documented ways (docs/differences.md, "Differences from CPython") through a `@name(` marker:
the compiled source drops the marker (`@W(e)` -> `(e)`, `@math.sin(` -> `math.sin(`), the
reference source calls a checker (`_r_W`, `_r_math.sin`) that raises Documented exactly when
CPython's value is one cujit documents as different:
  - an int result outside int64 (cujit wraps; Python's ints grow),
  - a math-domain / range error (ValueError / OverflowError; cujit gives nan / inf) of
    math.*, float `**`, int(), round(),
  - a mixed int/float comparison whose int is not exactly a float64 (cujit compares in float64),
  - `0.0 ** negative` (inf in cujit, ZeroDivisionError in CPython),
  - round(x, ndigits) where numba's algorithm (half to even on x * 10**ndigits) differs.
A case whose reference raises Documented is still run compiled (a crash or hang counts), only
its value is not compared.
"""
import math
import random
import warnings

INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1
INT_VARS = ["a", "b"]
FLOAT_VARS = ["x", "y"]
PARAMS = "a, b, x, y, p"
MATH1 = ["sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "asin",
         "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "erf",
         "erfc", "degrees", "radians"]
MATH1_INT = ["floor", "ceil", "trunc"]     # float -> int in Python and numba
MATH1_BOOL = ["isnan", "isinf", "isfinite"]
MATH2 = ["atan2", "hypot", "copysign", "pow"]


class Documented(Exception):
    """CPython's outcome differs from cujit's in a documented way: not compared."""


# ---------------------------------------------------------------- the sources of choices

class RandomSource:
    def __init__(self, rng):
        self.rng = rng

    def choice(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def int_(self, lo, hi):
        return self.rng.randint(lo, hi)


class HypothesisSource:
    def __init__(self, draw):
        from hypothesis import strategies as st
        self.draw = draw
        self.st = st

    def choice(self, seq):
        return self.draw(self.st.sampled_from(seq))

    def int_(self, lo, hi):
        return self.draw(self.st.integers(lo, hi))


# ---------------------------------------------------------------- the grammar

class Gen:
    """Draws one program's source; `loop_vars` are the int loop variables in scope."""

    def __init__(self, src, ret="(a, b, x, y, p)"):
        self.src = src
        self.ret = ret
        self.counter = 0
        self.loop_vars = []

    def choice(self, seq):
        return self.src.choice(seq)

    def int_(self, lo, hi):
        return self.src.int_(lo, hi)

    def iexpr(self, depth):
        if depth <= 0 or self.int_(0, 3) == 0:
            v = self.choice(INT_VARS + self.loop_vars + ["const", "const", "bool"])
            if v == "bool":
                return self.choice(["int(p)", "(p + 0)"])
            return str(self.int_(-9, 9)) if v == "const" else v
        k = self.choice(["add", "sub", "mul", "mulc", "floordiv", "floordivc", "mod", "modc",
                         "neg", "abs", "min", "max", "ternary", "bitop", "shift", "invert",
                         "pow", "int", "round", "mathint", "bool", "shiftv", "powv", "divmod",
                         "pbool"])
        e = lambda: self.iexpr(depth - 1)  # noqa: E731
        nz = lambda: self.choice([-3, -2, -1, 1, 2, 3, 7])  # noqa: E731
        if k in ("add", "sub", "mul"):
            return f"@W({e()} {dict(add='+', sub='-', mul='*')[k]} {e()})"
        if k == "mulc":
            return f"@W({e()} * {self.int_(-3, 3)})"
        if k == "floordiv":  # may divide by zero: both sides raise ZeroDivisionError
            return f"@W({e()} // {e()})"
        if k == "floordivc":
            return f"@W({e()} // {nz()})"
        if k == "mod":
            return f"({e()} % {e()})"
        if k == "modc":
            return f"({e()} % {nz()})"
        if k == "neg":
            return f"@W(-{e()})"
        if k == "abs":
            return f"@W(abs({e()}))"
        if k in ("min", "max"):
            return f"{k}({', '.join(e() for _ in range(self.int_(2, 3)))})"
        if k == "ternary":
            return f"({e()} if {self.bexpr(depth - 1)} else {e()})"
        if k == "bitop":
            return f"({e()} {self.choice(['&', '|', '^'])} {e()})"
        if k == "shift":
            if self.int_(0, 1):
                return f"@W({e()} << {self.int_(0, 8)})"
            return f"({e()} >> {self.int_(0, 8)})"
        if k == "shiftv":  # counts kept >= 0: a negative one is ValueError in CPython only
            if self.int_(0, 1):
                return f"@W({e()} << ({e()} % 70))"
            return f"({e()} >> ({e()} % 70))"
        if k == "invert":
            return f"(~{e()})"
        if k == "powv":
            return f"@W({e()} ** ({e()} % 4))"
        if k == "divmod":
            return f"@W(divmod({e()}, {e()})[{self.int_(0, 1)}])"
        if k == "pbool":
            return self.choice(["@W(-p)", "(~p)", f"@W(p * {e()})", "(p + p)", "abs(p)"])
        if k == "pow":
            return f"@W({e()} ** {self.int_(0, 3)})"
        if k == "int":
            return f"@int({self.fexpr(depth - 1)})"
        if k == "round":
            return f"@round({self.fexpr(depth - 1)})"
        if k == "mathint":
            return f"@math.{self.choice(MATH1_INT)}({self.fexpr(depth - 1)})"
        return f"@W({self.bexpr(depth - 1)} + {e()})"

    def fexpr(self, depth):
        if depth <= 0 or self.int_(0, 3) == 0:
            v = self.choice(FLOAT_VARS + ["const", "int"])
            if v == "const":
                return repr(self.choice([0.5, -1.25, 2.0, 3.5, 0.1, 0.0, -0.0, 1e300]))
            if v == "int":
                return f"float({self.iexpr(0)})"
            return v
        k = self.choice(["add", "sub", "mul", "div", "divc", "neg", "abs", "min", "max", "mix",
                         "ternary", "floordiv", "floordivc", "mod", "modc", "math1", "math2",
                         "pow", "round", "float", "idiv", "powi", "divmod"])
        e = lambda: self.fexpr(depth - 1)  # noqa: E731
        if k in ("add", "sub", "mul"):
            return f"({e()} {dict(add='+', sub='-', mul='*')[k]} {e()})"
        if k == "div":
            return f"({e()} / {e()})"  # may divide by zero: both sides raise ZeroDivisionError
        if k == "divc":
            return f"({e()} / {self.choice([2.0, -4.0, 0.5, 3])})"
        if k == "floordiv":
            return f"({e()} // {e()})"
        if k == "floordivc":
            return f"({e()} // {self.choice([2.0, -1.5, 3])})"
        if k == "mod":
            return f"({e()} % {e()})"
        if k == "modc":
            return f"({e()} % {self.choice([2.0, -1.5, 3])})"
        if k == "neg":
            return f"(-{e()})"
        if k == "abs":
            return f"abs({e()})"
        if k in ("min", "max"):
            return f"{k}({e()}, {e()})"
        if k == "mix":
            op = self.choice(['+', '-', '*', '/', '//', '%'])
            if self.int_(0, 1):
                return f"({e()} {op} {self.iexpr(depth - 1)})"
            return f"({self.iexpr(depth - 1)} {op} {e()})"
        if k == "idiv":  # int / int: both converted to float64 first (within the tolerance)
            return f"({self.iexpr(depth - 1)} / {self.iexpr(depth - 1)})"
        if k == "powi":
            return f"@pow({e()}, {self.iexpr(depth - 1)})"
        if k == "divmod":
            return f"divmod({e()}, {e()})[{self.int_(0, 1)}]"
        if k == "math1":
            return f"@math.{self.choice(MATH1)}({e()})"
        if k == "math2":
            return f"@math.{self.choice(MATH2)}({e()}, {e()})"
        if k == "pow":
            return f"@pow({e()}, {self.choice(['2.0', '3.0', '0.5', '-1.0', str(self.int_(0, 3))])})"
        if k == "round":
            return f"@round({e()}, {self.int_(0, 2)})"
        if k == "float":
            return f"float({self.iexpr(depth - 1)})"
        return f"({e()} if {self.bexpr(depth - 1)} else {e()})"

    def bexpr(self, depth):
        k = self.choice(["icmp", "fcmp", "chain", "and", "or", "not", "mixcmp", "p", "mathb",
                         "bitb", "tcmp"])
        op = lambda: self.choice(["<", "<=", "==", "!=", ">", ">="])  # noqa: E731
        if depth <= 0 and k in ("and", "or", "not", "bitb"):
            k = "icmp"
        if k == "icmp":
            return f"({self.iexpr(depth - 1)} {op()} {self.iexpr(depth - 1)})"
        if k == "fcmp":
            return f"({self.fexpr(depth - 1)} {op()} {self.fexpr(depth - 1)})"
        if k == "mixcmp":
            return f"(@F({self.iexpr(depth - 1)}) {op()} {self.fexpr(depth - 1)})"
        if k == "tcmp":  # int items: CPython's identity shortcut (NaN) never matters
            items = lambda: ", ".join(self.iexpr(0) for _ in range(self.int_(1, 3))) + ","  # noqa: E731
            return f"(({items()}) {op()} ({items()}))"
        if k == "chain":
            return f"({self.iexpr(0)} {op()} {self.iexpr(0)} {op()} {self.iexpr(0)})"
        if k == "not":
            return f"(not {self.bexpr(depth - 1)})"
        if k == "p":
            return "p"
        if k == "mathb":
            return f"math.{self.choice(MATH1_BOOL)}({self.fexpr(depth - 1)})"
        if k == "bitb":
            return f"({self.bexpr(depth - 1)} {self.choice(['&', '|', '^'])} " \
                   f"{self.bexpr(depth - 1)})"
        return f"({self.bexpr(depth - 1)} {k} {self.bexpr(depth - 1)})"

    def block(self, indent, depth, n=None):
        n = n if n is not None else self.int_(1, 3)
        return [line for _ in range(n) for line in self.stmt(indent, depth)]

    def stmt(self, indent, depth):
        pad = "    " * indent
        kinds = ["iassign", "fassign", "bassign", "aug", "swap", "tuple"]
        if depth > 0:
            kinds += ["if", "ifelse", "elif", "for", "while", "early"]
        k = self.choice(kinds)
        if k == "iassign":  # folded into [-1000, 1000] so loops do not grow values
            return [f"{pad}{self.choice(INT_VARS)} = ({self.iexpr(2)}) % 2001 - 1000"]
        if k == "fassign":
            return [f"{pad}{self.choice(FLOAT_VARS)} = {self.fexpr(2)}"]
        if k == "bassign":
            return [f"{pad}p = {self.bexpr(2)}"]
        if k == "aug":
            if self.int_(0, 1):
                v = self.choice(INT_VARS)
                return [f"{pad}{v} = @W({v} + {self.iexpr(1)})", f"{pad}{v} = {v} % 2001 - 1000"]
            return [f"{pad}{self.choice(FLOAT_VARS)} {self.choice(['+=', '-=', '*='])} "
                    f"{self.fexpr(1)}"]
        if k == "swap":
            return [f"{pad}a, b = b, a"] if self.int_(0, 1) else [f"{pad}x, y = y, x"]
        if k == "tuple":
            t = f"t{self.counter}"
            self.counter += 1
            return [f"{pad}{t} = ({self.iexpr(1)}, {self.fexpr(1)}, {self.bexpr(0)})",
                    f"{pad}{self.choice(INT_VARS)} = {t}[0] % 2001 - 1000",
                    f"{pad}{self.choice(FLOAT_VARS)} = {t}[1]",
                    f"{pad}p = {t}[2]"]
        if k == "if":
            return [f"{pad}if {self.bexpr(2)}:"] + self.block(indent + 1, depth - 1)
        if k == "ifelse":
            return ([f"{pad}if {self.bexpr(2)}:"] + self.block(indent + 1, depth - 1) +
                    [f"{pad}else:"] + self.block(indent + 1, depth - 1))
        if k == "elif":
            return ([f"{pad}if {self.bexpr(1)}:"] + self.block(indent + 1, depth - 1) +
                    [f"{pad}elif {self.bexpr(1)}:"] + self.block(indent + 1, depth - 1) +
                    [f"{pad}else:"] + self.block(indent + 1, depth - 1))
        if k == "for":
            i = f"i{self.counter}"
            self.counter += 1
            rng = self.choice([f"range({self.int_(0, 5)})", f"range({self.iexpr(0)} % 5)",
                               f"range({self.int_(-2, 2)}, {self.int_(0, 5)})",
                               f"range({self.int_(5, 8)}, 0, -{self.int_(1, 3)})"])
            self.loop_vars.append(i)
            body = self.block(indent + 1, depth - 1)
            if self.int_(0, 3) == 0:
                body.append(f"{pad}    if {self.bexpr(1)}:")
                body.append(f"{pad}        {self.choice(['break', 'continue'])}")
            self.loop_vars.pop()
            return [f"{pad}for {i} in {rng}:"] + body
        if k == "while":
            w = f"w{self.counter}"
            self.counter += 1
            return ([f"{pad}{w} = 0", f"{pad}while {self.bexpr(1)} and {w} < 5:",
                     f"{pad}    {w} += 1"] + self.block(indent + 1, depth - 1))
        # early return, same type as the final return
        return [f"{pad}if {self.bexpr(1)}:", f"{pad}    return {self.ret}"]


RETURNS = ["(a, b, x, y, p)", "@W(a + b)", "x * 0.5 + a", "p", "(a, x)"]


def program(src, n_stmts=None):
    """The marked source of one program drawn from `src` (a RandomSource / HypothesisSource)."""
    ret = src.choice(RETURNS)
    g = Gen(src, ret)
    n = n_stmts if n_stmts is not None else src.int_(1, 5)
    body = g.block(1, src.choice([2, 2, 2, 3]), n=n)
    return f"def fuzzed({PARAMS}):\n" + "\n".join(body + [f"    return {ret}"]) + "\n"


def split(marked):
    """(compiled source, reference source) of a marked program."""
    jit = marked.replace("@W(", "(").replace("@F(", "(").replace("@", "")
    return jit, marked.replace("@", "_r_")


# ---------------------------------------------------------------- the reference's checkers

def _int64(v):
    if isinstance(v, int) and not INT64_MIN <= v <= INT64_MAX:
        raise Documented("int64 wraparound")
    return v


def _r_F(v):
    # mixed comparisons: cujit (numba) converts the int to float64 first
    if float(v) != v:
        raise Documented("int compared as float64")
    return v


def _domain(f, *args):
    try:
        r = f(*args)
    except (ValueError, OverflowError) as exc:
        raise Documented(f"math domain/range: {exc}") from None
    except ZeroDivisionError:  # 0.0 ** negative is inf in cujit
        raise Documented("0.0 ** negative") from None
    if isinstance(r, complex):
        raise Documented("negative ** fraction is nan")
    return _int64(r)


def _r_round(x, *nd):
    r = _domain(round, x, *nd)
    if nd and isinstance(x, float) and math.isfinite(x * 10.0 ** nd[0]):
        # cujit (numba) rounds x * 10**n half to even and divides back: round(0.05, 1) is 0.0
        scaled = 10.0 ** nd[0]
        if float(round(x * scaled)) / scaled != r:
            raise Documented("round(x, ndigits): numba's algorithm")
    return r


def _r_pow(a, b):
    if isinstance(b, int) and not isinstance(b, bool) and b == INT64_MIN:
        raise Documented("x ** -2**63: numba's OverflowError (-n overflows)")
    if isinstance(a, float) and isinstance(b, int) and abs(b) <= 0x10000:
        # numba's float ** int: multiplications (a few ulps from C's pow, which `% 3` of a
        # large power would show), 1.0 / r for a negative b (ZeroDivisionError for r == 0)
        k, r = abs(b), 1.0
        while k:
            if k & 1:
                r *= a
            k >>= 1
            a *= a
        return 1.0 / r if b < 0 else r
    return _domain(lambda u, v: u ** v, a, b)


class _RMath:
    def __getattr__(self, name):
        f = getattr(math, name)
        return lambda *args: _domain(f, *args)


REF_GLOBALS = {
    "math": math, "_r_math": _RMath(), "_r_W": _int64, "_r_F": _r_F,
    "_r_int": lambda v: _domain(int, v),
    "_r_round": _r_round,
    "_r_pow": lambda a, b: _r_pow(a, b),
}


# ---------------------------------------------------------------- arguments

EDGE_INTS = [0, -1, 1, INT64_MIN, INT64_MAX, 2 ** 53 + 1, -7]
EDGE_FLOATS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -1.5, 5e-324]


def random_args(rng, k):
    """The k-th argument tuple: small values first, then wide ones, then edge values."""
    if k % 3 == 0:
        return (rng.randint(-50, 50), rng.randint(-50, 50), rng.uniform(-50, 50),
                rng.uniform(-50, 50), rng.random() < 0.5)
    if k % 3 == 1:
        return (rng.randint(-10 ** 6, 10 ** 6), rng.choice(EDGE_INTS + [rng.randint(-9, 9)]),
                rng.uniform(-1e6, 1e6), rng.choice(EDGE_FLOATS), rng.random() < 0.5)
    return (rng.choice(EDGE_INTS), rng.choice(EDGE_INTS), rng.choice(EDGE_FLOATS),
            rng.choice(EDGE_FLOATS), rng.random() < 0.5)


# ---------------------------------------------------------------- running and comparing

def _same(e, g):
    """None when equal (bools as ints, NaN == NaN, floats within 1e-9), else a message."""
    if isinstance(e, tuple) or isinstance(g, tuple):
        if not (isinstance(e, tuple) and isinstance(g, tuple)) or len(e) != len(g):
            return f"expected {e!r}, got {g!r}"
        for a, b in zip(e, g):
            if _same(a, b):
                return f"expected {e!r}, got {g!r}"
        return None
    if isinstance(e, float) or isinstance(g, float):
        e, g = float(e), float(g)
        if math.isnan(e) and math.isnan(g):
            return None
        if e == g or (math.isfinite(e) and math.isfinite(g) and
                      abs(e - g) <= 1e-9 + 1e-9 * max(abs(e), abs(g))):
            return None
        return f"expected {e!r}, got {g!r}"
    return None if e == g else f"expected {e!r}, got {g!r}"


def folds_to_big_int(code):
    """Whether CPython's compiler folded a constant expression (`-6 << 66`, `3 ** 50`) into an
    int outside int64.  Compiling such a function (where the constant is reachable) is numba's
    TypingError('Int value is too large: ...'), so that is the expected outcome, not a refusal."""
    for c in code.co_consts:
        if isinstance(c, int) and not INT64_MIN <= c <= INT64_MAX:
            return True
        if hasattr(c, "co_consts") and folds_to_big_int(c):
            return True
    return False


def check_program(marked, arg_sets, njit, compile_errors):
    """'ok', 'compile error' (a clean TypingError/UnsupportedError), or raises AssertionError
    naming the divergence."""
    jit_src, ref_src = split(marked)
    big_int = folds_to_big_int(compile(jit_src, "<fuzzed>", "exec"))
    ns = dict(REF_GLOBALS)
    exec(compile(ref_src, "<fuzzed-ref>", "exec"), ns)
    ref = ns["fuzzed"]
    jns = {"math": math}
    exec(compile(jit_src, "<fuzzed>", "exec"), jns)
    disp = njit(jns["fuzzed"])
    for args in arg_sets:
        try:
            expected, py_exc = ref(*args), None
        except Exception as exc:  # noqa: BLE001  (the exception is the outcome)
            expected, py_exc = None, exc
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got, jit_exc = disp(*args), None
        except compile_errors as exc:
            if big_int and "Int value is too large" in str(exc):
                return "ok"  # numba's error for the folded constant
            return "compile error"  # a clean refusal is an allowed outcome
        except Exception as exc:  # noqa: BLE001
            got, jit_exc = None, exc
        if isinstance(py_exc, Documented):
            continue
        if py_exc is not None or jit_exc is not None:
            assert py_exc is not None and jit_exc is not None and \
                isinstance(jit_exc, type(py_exc)), \
                f"CPython: {py_exc!r}, compiled: {jit_exc!r} for {args}\n{jit_src}"
            continue
        m = _same(expected, got)
        assert m is None, f"{m} for {args}\n{jit_src}"
    return "ok"


def case(seed, index):
    """The marked program and argument sets of case `index` of run `seed`."""
    rng = random.Random(f"{seed}:{index}")
    marked = program(RandomSource(rng))
    return marked, [random_args(rng, k) for k in range(4)]
