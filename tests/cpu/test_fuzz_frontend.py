"""PYTEST_DONT_REWRITE

Frontend fuzzing: hypothesis generates small functions (int locals a, b; float locals x, y;
arithmetic, comparisons, and/or/not, if/elif/else, bounded while, for over range, tuples and swaps,
abs/min/max, early returns), compiles each and runs it on a few inputs.  Every outcome must be the
CPython result (or the same exception type), or a TypingError/UnsupportedError from the compiler;
never a crash or another exception.  Integer assignments are folded into [-1000, 1000] and products
only take small constants, so int64 arithmetic equals Python's and values can be compared.

The default run is quick (200 examples, derandomized); `-m slow` runs thousands.
"""
import math
import warnings

import pytest

import _harness as H

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

pytestmark = pytest.mark.skipif(not H.HAVE_COMPILER, reason=H.SKIP_REASON)

INT_VARS = ["a", "b"]
FLOAT_VARS = ["x", "y"]


class Gen:
    """Draws one program's source; `loop_vars` are the int loop variables in scope."""

    def __init__(self, draw, ret="(a, b, x, y)"):
        self.draw = draw
        self.ret = ret
        self.counter = 0
        self.loop_vars = []

    def choice(self, seq):
        return self.draw(st.sampled_from(seq))

    def int_(self, lo, hi):
        return self.draw(st.integers(lo, hi))

    def iexpr(self, depth):
        if depth <= 0 or self.int_(0, 3) == 0:
            leaves = INT_VARS + self.loop_vars + ["const"]
            v = self.choice(leaves)
            return str(self.int_(-9, 9)) if v == "const" else v
        k = self.choice(["add", "sub", "mulc", "floordivc", "modc", "neg", "abs", "min", "max",
                         "ternary", "bitand", "shift"])
        e = lambda: self.iexpr(depth - 1)  # noqa: E731
        nz = lambda: self.choice([-3, -2, -1, 1, 2, 3, 7])  # noqa: E731
        if k == "add":
            return f"({e()} + {e()})"
        if k == "sub":
            return f"({e()} - {e()})"
        if k == "mulc":
            return f"({e()} * {self.int_(-3, 3)})"
        if k == "floordivc":
            return f"({e()} // {nz()})"
        if k == "modc":
            return f"({e()} % {nz()})"
        if k == "neg":
            return f"(-{e()})"
        if k == "abs":
            return f"abs({e()})"
        if k in ("min", "max"):
            n = self.int_(2, 3)
            return f"{k}({', '.join(e() for _ in range(n))})"
        if k == "ternary":
            return f"({e()} if {self.bexpr(depth - 1)} else {e()})"
        if k == "bitand":
            return f"({e()} {self.choice(['&', '|', '^'])} {e()})"
        return f"({e()} >> {self.int_(0, 3)})"

    def fexpr(self, depth):
        if depth <= 0 or self.int_(0, 3) == 0:
            v = self.choice(FLOAT_VARS + ["const", "int"])
            if v == "const":
                return repr(self.choice([0.5, -1.25, 2.0, 3.5, 0.1]))
            if v == "int":
                return f"float({self.iexpr(0)})"
            return v
        k = self.choice(["add", "sub", "mul", "div", "divc", "neg", "abs", "min", "max", "mix",
                         "ternary", "floordivc", "modc"])
        e = lambda: self.fexpr(depth - 1)  # noqa: E731
        if k == "add":
            return f"({e()} + {e()})"
        if k == "sub":
            return f"({e()} - {e()})"
        if k == "mul":
            return f"({e()} * {e()})"
        if k == "div":
            return f"({e()} / {e()})"  # may divide by zero: both sides raise ZeroDivisionError
        if k == "divc":
            return f"({e()} / {self.choice([2.0, -4.0, 0.5, 3])})"
        if k == "floordivc":
            return f"({e()} // {self.choice([2.0, -1.5, 3])})"
        if k == "modc":
            return f"({e()} % {self.choice([2.0, -1.5, 3])})"
        if k == "neg":
            return f"(-{e()})"
        if k == "abs":
            return f"abs({e()})"
        if k in ("min", "max"):
            return f"{k}({e()}, {e()})"
        if k == "mix":
            return f"({e()} {self.choice(['+', '-', '*'])} {self.iexpr(depth - 1)})"
        return f"({e()} if {self.bexpr(depth - 1)} else {e()})"

    def bexpr(self, depth):
        k = self.choice(["icmp", "fcmp", "chain", "and", "or", "not", "mixcmp"])
        op = lambda: self.choice(["<", "<=", "==", "!=", ">", ">="])  # noqa: E731
        if depth <= 0 and k in ("and", "or", "not"):
            k = "icmp"
        if k == "icmp":
            return f"({self.iexpr(depth - 1)} {op()} {self.iexpr(depth - 1)})"
        if k == "fcmp":
            return f"({self.fexpr(depth - 1)} {op()} {self.fexpr(depth - 1)})"
        if k == "mixcmp":
            return f"({self.iexpr(depth - 1)} {op()} {self.fexpr(depth - 1)})"
        if k == "chain":
            return f"({self.iexpr(0)} {op()} {self.iexpr(0)} {op()} {self.iexpr(0)})"
        if k == "not":
            return f"(not {self.bexpr(depth - 1)})"
        return f"({self.bexpr(depth - 1)} {k} {self.bexpr(depth - 1)})"

    def block(self, indent, depth, n=None):
        n = n if n is not None else self.int_(1, 3)
        return [line for _ in range(n) for line in self.stmt(indent, depth)]

    def stmt(self, indent, depth):
        pad = "    " * indent
        kinds = ["iassign", "fassign", "aug", "swap", "tuple"]
        if depth > 0:
            kinds += ["if", "ifelse", "elif", "for", "while", "early"]
        k = self.choice(kinds)
        if k == "iassign":
            return [f"{pad}{self.choice(INT_VARS)} = ({self.iexpr(2)}) % 2001 - 1000"]
        if k == "fassign":
            return [f"{pad}{self.choice(FLOAT_VARS)} = {self.fexpr(2)}"]
        if k == "aug":
            if self.int_(0, 1):
                v = self.choice(INT_VARS)
                return [f"{pad}{v} += {self.iexpr(1)}", f"{pad}{v} = {v} % 2001 - 1000"]
            return [f"{pad}{self.choice(FLOAT_VARS)} {self.choice(['+=', '-=', '*='])} "
                    f"{self.fexpr(1)}"]
        if k == "swap":
            return [f"{pad}a, b = b, a"] if self.int_(0, 1) else [f"{pad}x, y = y, x"]
        if k == "tuple":
            t = f"t{self.counter}"
            self.counter += 1
            return [f"{pad}{t} = ({self.iexpr(1)}, {self.fexpr(1)})",
                    f"{pad}{self.choice(INT_VARS)} = {t}[0] % 2001 - 1000",
                    f"{pad}{self.choice(FLOAT_VARS)} = {t}[1]"]
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
        # early return, same tuple type as the final return
        return [f"{pad}if {self.bexpr(1)}:", f"{pad}    return {self.ret}"]


@st.composite
def programs(draw):
    ret = draw(st.sampled_from(["(a, b, x, y)", "a + b", "x * 0.5 + a"]))
    g = Gen(draw, ret)
    body = g.block(1, 2, n=draw(st.integers(1, 5)))
    return "def fuzzed(a, b, x, y):\n" + "\n".join(body + [f"    return {ret}"]) + "\n"


ARGS = st.tuples(st.integers(-50, 50), st.integers(-50, 50),
                 st.floats(-50, 50, allow_nan=False), st.floats(-50, 50, allow_nan=False))


def check_program(src, arg_sets):
    ns = {}
    exec(compile(src, "<fuzzed>", "exec"), ns)
    pyfunc = ns["fuzzed"]
    disp = H.njit(pyfunc)
    for args in arg_sets:
        try:
            expected = pyfunc(*args)
            py_exc = None
        except Exception as exc:  # noqa: BLE001
            py_exc = exc
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = disp(*args)
            jit_exc = None
        except H.COMPILE_ERRORS:
            return "compile error"  # a clean refusal is an allowed outcome
        except Exception as exc:  # noqa: BLE001
            jit_exc = exc
        if py_exc is not None or jit_exc is not None:
            assert py_exc is not None and jit_exc is not None and \
                isinstance(jit_exc, type(py_exc)), \
                f"CPython: {py_exc!r}, compiled: {jit_exc!r} for {args}\n{src}"
            continue
        m = H.same_value(expected, got, rtol=1e-9, atol=1e-9)
        assert m is None, f"{m} for {args}\n{src}"
    return "ok"


def fuzz_settings(**kw):
    return settings(deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much], **kw)


@fuzz_settings(max_examples=200, derandomize=True)
@given(programs(), st.lists(ARGS, min_size=1, max_size=3))
def test_fuzz_quick(src, arg_sets):
    check_program(src, arg_sets)


@pytest.mark.slow
@fuzz_settings(max_examples=3000)
@given(programs(), st.lists(ARGS, min_size=1, max_size=3))
def test_fuzz_many(src, arg_sets):
    check_program(src, arg_sets)


def test_generator_produces_valid_python():
    # the grammar itself: CPython compiles and runs what it generates
    @settings(max_examples=50, derandomize=True, deadline=None, database=None)
    @given(programs(), ARGS)
    def run(src, args):
        ns = {}
        exec(compile(src, "<fuzzed>", "exec"), ns)
        try:
            ns["fuzzed"](*args)
        except ZeroDivisionError:
            pass
    run()


def test_known_program_matches():
    src = ("def fuzzed(a, b, x, y):\n    for i0 in range(4):\n        a = (a + i0) % 2001 - 1000\n"
           "        if a > b:\n            a, b = b, a\n    x = min(x, y) / 2.0\n"
           "    return (a, b, x, y)\n")
    assert check_program(src, [(3, -4, 1.5, 2.5), (-50, 50, -1.0, 0.0)]) == "ok"
    assert math.isfinite(1.0)
