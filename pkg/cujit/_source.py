"""A jitted function's source as an AST, and functions compiled back from rewritten ASTs: the
one place the source rewrites (loop lifting, object_mode.py; objmode blocks, withcontexts.py)
read and compile code. The source comes from inspect (files and notebook cells); the AST keeps
the file's line numbers, so tracebacks, inspect_types and the annotated report point at the
real lines."""
import ast
import inspect
import textwrap
import types

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def parse_function(func):
    """The FunctionDef of `func` (decorators dropped, the file's line numbers), or None when
    its source cannot be read or is not a plain `def`."""
    try:
        lines, first = inspect.getsourcelines(func)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return None
    fdef = tree.body[0] if tree.body else None
    if not isinstance(fdef, ast.FunctionDef) or fdef.name != func.__name__:
        return None
    fdef.decorator_list = []
    ast.increment_lineno(tree, first - 1)
    return fdef


def names(nodes, ctx, skip=()):
    """The names `nodes` read (ctx ast.Load) or bind (ast.Store; parameters and imports too);
    `x += 1` does both. Nodes in `skip` are not looked into."""
    out, stack = set(), list(nodes)
    while stack:
        n = stack.pop()
        if any(n is s for s in skip):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ctx):
            out.add(n.id)
        elif ctx is ast.Store and isinstance(n, ast.arg):
            out.add(n.arg)
        elif ctx is ast.Store and isinstance(n, ast.alias):
            out.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _code_named(code, name):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name:
                return const
            found = _code_named(const, name)
            if found is not None:
                return found
    return None


def compile_def(fdef, func, defaults=None):
    """A function from `fdef` (an ast.FunctionDef) that lives where `func` does: its globals
    (the module's own dict, so later globals are seen), and its closure cells for the free
    variables it shares with `func`."""
    freevars = func.__code__.co_freevars
    body = [fdef]
    if freevars:  # compiled inside a scope that binds them, so they stay free variables
        scope = ast.FunctionDef(
            name="__cujit_scope__", args=ast.arguments(
                posonlyargs=[], args=[ast.arg(n) for n in freevars], kwonlyargs=[],
                kw_defaults=[], defaults=[]),
            body=[fdef], decorator_list=[], returns=None, type_comment=None)
        body = [ast.copy_location(scope, fdef)]
    module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    code = _code_named(compile(module, func.__code__.co_filename, "exec"), fdef.name)
    cells = dict(zip(freevars, func.__closure__ or ()))
    closure = tuple(cells[n] for n in code.co_freevars) if code.co_freevars else None
    new = types.FunctionType(code, func.__globals__, fdef.name, defaults, closure)
    return new


def recompile(func, fdef):
    """`func` compiled again from its rewritten FunctionDef: same names, defaults, globals
    and closure."""
    new = compile_def(fdef, func, func.__defaults__)
    new.__kwdefaults__ = dict(func.__kwdefaults__) if func.__kwdefaults__ else None
    new.__qualname__, new.__doc__, new.__module__ = func.__qualname__, func.__doc__, func.__module__
    new.__annotations__ = dict(func.__annotations__)
    return new


def statements(fdef, stop=lambda stmt: False):
    """Every statement of the function's body, nested ones too (not those of inner functions
    or classes, nor inside a statement for which stop(stmt) is true), outermost first."""
    stack = list(reversed(fdef.body))
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, _SCOPES) or stop(stmt):
            continue
        inner = []
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(stmt, field, None) or ():
                inner.extend(child.body if isinstance(child, (ast.ExceptHandler,
                                                               ast.match_case)) else [child])
        stack.extend(reversed(inner))


def path_to(fdef, target):
    """[(node, statement list, index)] from the function down to `target`, or None."""
    def search(node):
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for i, stmt in enumerate(stmts):
                if stmt is target:
                    return [(node, stmts, i)]
                if not isinstance(stmt, _SCOPES):
                    sub = search(stmt)
                    if sub is not None:
                        return [(node, stmts, i)] + sub
        return None
    return search(fdef)


def located(node, where):
    """`node` and everything under it placed at `where`'s lines."""
    for n in ast.walk(node):
        ast.copy_location(n, where)
    return node
