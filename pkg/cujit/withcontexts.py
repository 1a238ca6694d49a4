"""`with objmode(...)` blocks inside nopython functions (numba.objmode).

A block runs in the interpreter. Its body becomes a Python function of the variables it uses,
and the `with` statement becomes a call to an ObjModeBlock, which the compiler types as the
declared outputs (csrc/typing/objmode_typing.c) and compiled code calls through the runtime
(csrc/jit/objmode.c: inputs boxed, the function called under the GIL, outputs unboxed and
checked as arguments are). The rewrite works on the function's source (_source.py) and keeps
its line numbers. Outside compiled code (the interpreter, jit(forceobj=True), the CUDA
simulator) `objmode(...)` is a context manager that does nothing, as numba's.

numba's rules: keyword arguments only, one per output: each variable the block sets that the
code after it may read, typed by a string ("float64[:]") or by a global or nonlocal variable
(or attribute) holding a cujit type, read at compile time. The block cannot return, break,
continue or yield out of itself. Errors come at compile time as TypingErrors at the block."""
import ast
import dis
import itertools

from . import _core, _source
from .errors import TypingError

_BEFORE_WITH = dis.opmap.get("BEFORE_WITH")
_counter = itertools.count()


class _ObjModeContextType:
    """Use `with objmode(out='float64[:]'):` in a nopython function to run the block in the
    interpreter; each keyword names a variable the block sets and the code after it uses,
    with its type (a string, or a global holding a cujit type). Outside compiled code it
    does nothing."""

    def __call__(self, *args, **kwargs):
        return self

    def __enter__(self):
        return None

    def __exit__(self, *exc_info):
        return False

    def __repr__(self):
        return "cujit.objmode"


objmode = _ObjModeContextType()
objmode_context = objmode  # numba.core.withcontexts.objmode_context


class ObjModeBlock:
    """One `with objmode(...)` block of a nopython function, called where the block was:
    py_func(*inputs) runs the block's body and returns its outputs (none: None, one: the value,
    more: a tuple)."""

    _cujit_objmode_block_ = True  # what the compiler looks for

    def __init__(self, py_func, inputs, outputs, annotations, scope, lines, error=None):
        self.py_func, (self.lineno, self.end_lineno) = py_func, lines
        self.inputs, self.outputs = tuple(inputs), tuple(outputs)
        self._annotations, self._scope, self._error = annotations, scope, error
        self._type = None

    def __call__(self, *args):  # the rewritten function run by the interpreter
        if self._error is not None:
            raise TypingError(self._error)
        return self.py_func(*args)

    def _cujit_type_(self):
        """The type compiled code gets from the block: none, the output's, or a tuple."""
        if self._error is not None:
            raise TypingError(self._error)
        if self._type is None:
            found = [self._declared(name) for name in self.outputs]
            self._type = (_core.type_by_name("none") if not found else found[0]
                          if len(found) == 1 else _core.tuple_type(tuple(found)))
        return self._type

    def _declared(self, name):
        node = self._annotations[name]

        def fail(why):
            raise TypingError(f"Error handling objmode argument {name!r}. {why}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            from .typing import parse_type
            try:
                return parse_type(node.value)
            except TypeError as exc:
                fail(str(exc))
        value = _resolve(self._scope, node)
        if value is _UNRESOLVED:
            fail(f"{ast.unparse(node)!r} cannot be resolved at compile-time." if
                 isinstance(node, (ast.Name, ast.Attribute)) else
                 "The value must be a compile-time constant either as a non-local variable "
                 "or a getattr expression that refers to a cujit type.")
        if not isinstance(value, _core.Type):
            fail(f"{ast.unparse(node)} is {value!r}, not a cujit type.")
        return value

    def __repr__(self):
        return f"<objmode block at line {self.lineno}: {self.inputs} -> {self.outputs}>"


_UNRESOLVED = object()


def _resolve(func, node):
    """The value a Name/Attribute chain has in `func`'s closure or globals, now."""
    if isinstance(node, ast.Attribute):
        base = _resolve(func, node.value)
        return _UNRESOLVED if base is _UNRESOLVED else getattr(base, node.attr, _UNRESOLVED)
    if not isinstance(node, ast.Name):
        return _UNRESOLVED
    code = func.__code__
    if node.id in code.co_freevars:
        try:
            return func.__closure__[code.co_freevars.index(node.id)].cell_contents
        except ValueError:  # an empty cell
            return _UNRESOLVED
    if node.id in func.__globals__:
        return func.__globals__[node.id]
    builtins = func.__globals__.get("__builtins__", {})
    builtins = builtins if isinstance(builtins, dict) else vars(builtins)
    return builtins.get(node.id, _UNRESOLVED)


def _is_objmode(func, item):
    call = item.context_expr
    target = call.func if isinstance(call, ast.Call) else call
    return _resolve(func, target) is objmode


def _leaves(stmts, in_loop=False):
    """Whether the statements can jump out of their block (return, yield, or a break or
    continue of a loop around it)."""
    for stmt in stmts:
        for n in [stmt] if isinstance(stmt, _source._SCOPES) else ast.walk(stmt):
            if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await)):
                return True
        if isinstance(stmt, (ast.Break, ast.Continue)) and not in_loop:
            return True
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            if _leaves(stmt.body, True) or _leaves(stmt.orelse, in_loop):
                return True
        elif not isinstance(stmt, _source._SCOPES):
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(stmt, field, None) or ():
                    body = child.body if isinstance(child, (ast.ExceptHandler,
                                                            ast.match_case)) else [child]
                    if _leaves(body, in_loop):
                        return True
    return False


def _read_first(stmts):
    """The names the statements may read before setting them (a branch never counts as
    setting a name)."""
    exposed, set_before = set(), set()
    for stmt in stmts:
        exposed |= _source.names([stmt], ast.Load) - set_before
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
            set_before |= _source.names([stmt], ast.Store)
    return exposed


def _read_after(fdef, block):
    """The names code that may run after `block` reads: what follows it in each enclosing
    statement list, a whole enclosing loop (its next iteration), an enclosing finally."""
    out = set()
    for node, stmts, i in reversed(_source.path_to(fdef, block)):
        out |= _source.names(stmts[i + 1:], ast.Load)
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            out |= _source.names([node], ast.Load)
        if isinstance(node, ast.Try):
            out |= _source.names(node.finalbody, ast.Load)
    return out


def _check(block, call, outputs_set):
    """numba's error for a malformed block, or None."""
    if len(block.items) != 1 or block.items[0].optional_vars is not None:
        return ("with objmode(): use it alone and without 'as': "
                "with objmode(x='float64'): ...")
    if call is None or call.args:
        return "objectmode context doesn't take any positional arguments"
    if any(kw.arg is None for kw in call.keywords):
        return "with objmode(): declare each output by name: objmode(x='float64')"
    if _leaves(block.body):
        return ("with objmode(): the block cannot return, yield, break or continue out of "
                "itself")
    declared = [kw.arg for kw in call.keywords]
    extra = set(declared) - outputs_set
    if extra:
        return (f"Invalid type annotation on non-outgoing variables: {extra}."
                "Suggestion: remove annotation of the listed variables")
    missing = sorted(outputs_set - set(declared))
    if missing:
        return (f"Missing type annotation on outgoing variable(s): {missing}\n\n"
                f"Example code: with objmode({missing[0]}='<add_type_as_string_here>')\n")
    return None


def _lift_block(func, fdef, block, params):
    """(ObjModeBlock, its global name, the statement that calls it)."""
    call = block.items[0].context_expr
    call = call if isinstance(call, ast.Call) else None
    outputs_set = _source.names(block.body, ast.Store) & _read_after(fdef, block)
    error = _check(block, call, outputs_set)
    name = f"__cujit_objmode_{next(_counter)}__"
    if error is not None:  # the call sets what the code after it reads: the error comes first
        obj = ObjModeBlock(None, (), (), {}, func, (block.lineno, block.end_lineno), error)
        return obj, name, _assign(sorted(outputs_set), _call(name, ()), block)
    outputs = [kw.arg for kw in call.keywords]
    outside = params | _source.names(fdef.body, ast.Store, skip=block.body)
    inputs = sorted(_read_first(block.body) & outside)
    result = (ast.Tuple([ast.Name(n, ast.Load()) for n in outputs], ast.Load())
              if len(outputs) > 1 else ast.Name(outputs[0], ast.Load()) if outputs else None)
    body = block.body + [_source.located(ast.Return(result), block.body[-1])]
    fn = ast.FunctionDef(name=name, args=ast.arguments(
        posonlyargs=[], args=[ast.arg(n) for n in inputs], kwonlyargs=[], kw_defaults=[],
        defaults=[]), body=body, decorator_list=[], returns=None, type_comment=None)
    py_func = _source.compile_def(ast.copy_location(fn, block), func)
    py_func.__qualname__ = f"{func.__qualname__}.<objmode block at line {block.lineno}>"
    annotations = {kw.arg: kw.value for kw in call.keywords}
    obj = ObjModeBlock(py_func, inputs, outputs, annotations, func,
                       (block.lineno, block.end_lineno))
    return obj, name, _assign(outputs, _call(name, inputs), block)


def _assign(outputs, value, where):
    """`value` as a statement at `where`, assigned to the outputs (a tuple of them)."""
    if not outputs:
        stmt = ast.Expr(value)
    else:
        target = (ast.Tuple([ast.Name(n, ast.Store()) for n in outputs], ast.Store())
                  if len(outputs) > 1 else ast.Name(outputs[0], ast.Store()))
        stmt = ast.Assign(targets=[target], value=value)
    return _source.located(stmt, where)


def _call(name, inputs):
    return ast.Call(func=ast.Name(name, ast.Load()),
                    args=[ast.Name(n, ast.Load()) for n in inputs], keywords=[])


def rewrite(func):
    """What the nopython compiler compiles for `func`: `func` itself, or a copy in which each
    `with objmode(...)` block is a call to its ObjModeBlock (kept in func's globals under a
    name of its own)."""
    code = getattr(func, "__code__", None)
    if _BEFORE_WITH is None or code is None or _BEFORE_WITH not in code.co_code[::2]:
        return func
    fdef = _source.parse_function(func)
    if fdef is None:
        return func

    def is_block(stmt):
        return isinstance(stmt, ast.With) and any(_is_objmode(func, i) for i in stmt.items)
    blocks = [s for s in _source.statements(fdef, stop=is_block) if is_block(s)]
    if not blocks:
        return func
    params = _source.names([fdef.args], ast.Store)
    lifted = [_lift_block(func, fdef, block, params) for block in blocks]
    for block, (obj, name, stmt) in zip(blocks, lifted):
        _node, stmts, i = _source.path_to(fdef, block)[-1]
        stmts[i] = stmt
        func.__globals__[name] = obj
    return _source.recompile(func, fdef)
