"""The overload templates behind cujit.extending (numba.core.typing.templates' overload part):
which implementation an overloaded function, method or attribute takes for some argument
types, and numba's error text when none does.

The C core asks ``resolve`` (csrc/typing/extensions.c) when it types a call of a callee in
``FUNCTIONS`` (keyed by identity), or reads an attribute whose name is in ``MEMBERS`` that it
does not know itself. A template's typing function gets cujit.types objects and returns an
implementation (a Python function) or None; the implementation is wrapped once in an njit
dispatcher, and the core compiles it for the call like any other jitted callee (on the CPU,
or as a device function in CUDA kernels).
"""
import inspect
import os
import types as _pytypes

from .. import _core
from ..errors import CujitError, TypingError, UnsupportedError

FUNCTIONS = {}  # id(func) -> func: callees with overloads (read by the C core)
MEMBERS = {}    # name -> [template]: overloaded methods and attributes (read by the C core);
#                 "*": AttributeTemplate.generic_resolve's, for any attribute of an extension
_FUNCTION_TEMPLATES = {}  # id(func) -> [template]

# numba's target names; 'generic' serves both of cujit's targets
TARGETS = {"generic": "generic", "cpu": "cpu", "cuda": "cuda", "gpu": "cuda"}
_NO_MATCH = "No match."


def _source(func):
    code = getattr(func, "__code__", None)
    if code is None and isinstance(func, type):  # a typing template class (infer_global)
        try:
            return (os.path.basename(inspect.getsourcefile(func)),
                    inspect.getsourcelines(func)[1])
        except (OSError, TypeError):
            pass
    if code is None:
        return "unknown", "unknown"
    return os.path.basename(code.co_filename), code.co_firstlineno


def _argstr(args, kwnames):
    npos = len(args) - len(kwnames)
    parts = [str(a) for a in args[:npos]]
    parts += ["%s=%s" % (k, v) for k, v in zip(kwnames, args[npos:])]
    return ", ".join(parts)


def _pysig_parts(sig):
    """numba's split of a signature: parameters without defaults, with defaults, *args."""
    args, kws, star = [], [], None
    for p in sig.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            raise TypingError("The use of VAR_KEYWORD (e.g. **kwargs) is unsupported. "
                              "(offending argument name is '%s')" % p)
        if p.default is p.empty:
            args.append(p)
            if p.kind == p.VAR_POSITIONAL:
                star = p
        else:
            kws.append(p)
    return args, kws, star


def validate_signatures(typing_func, impl):
    """numba's strict check: the implementation takes the typing function's parameters (the
    same names, keyword defaults and *args); TypingError naming the difference."""
    ty_sig, im_sig = inspect.signature(typing_func), inspect.signature(impl)
    ty_args, ty_kws, ty_star = _pysig_parts(ty_sig)
    im_args, im_kws, im_star = _pysig_parts(im_sig)
    sig_str = "Typing signature:         %s\nImplementation signature: %s" % (ty_sig, im_sig)
    prefix = "Typing and implementation arguments differ in "
    a, b = ty_args, im_args
    if ty_star and not im_star:
        raise TypingError("VAR_POSITIONAL (e.g. *args) argument kind (offending argument name "
                          "is '%s') found in the typing function signature, but is not in the "
                          "implementing function signature.\n%s" % (ty_star, sig_str))
    if im_star and not ty_star:
        b = im_args[:im_args.index(im_star)]
        names = [p.name for p in ty_args]
        a = ty_args[:names.index(b[-1].name) + 1] if b and b[-1].name in names else ty_args
    if [p.name for p in a] != [p.name for p in b]:
        raise TypingError(prefix + "argument names.\n%s\nDifference: %s"
                          % (sig_str, set(p.name for p in a) ^ set(p.name for p in b)))
    if [p.name for p in ty_kws] != [p.name for p in im_kws]:
        raise TypingError(prefix + "keyword argument names.\n%s\nDifference: %s"
                          % (sig_str, set(p.name for p in ty_kws) ^ set(p.name for p in im_kws)))
    if [p.default for p in ty_kws] != [p.default for p in im_kws]:
        raise TypingError(prefix + "keyword argument default values.\n%s" % sig_str)


class OverloadTemplate:
    """One @overload / @overload_method / @overload_attribute: its typing function, options
    and the implementations it chose, per argument types."""

    def __init__(self, kind, key, typing_func, jit_options, strict, inline, prefer_literal,
                 target, typ=None, shown=None):
        self.kind = kind            # "function", "method" or "attribute"
        self.key = key              # the function, or the method/attribute name
        self.typ = typ              # methods/attributes: a types.Type class or instance
        self.typing_func = typing_func
        self.shown = shown  # register_jitable: the function messages name
        self.jit_options = dict(jit_options)
        self.strict = strict
        self.inline = inline
        self.prefer_literal = prefer_literal
        self.target = target
        self._chosen = {}     # (args, kwnames) -> ("ok", (dispatcher, label)) / ("fail", why)
        self._dispatchers = {}  # id(impl) -> (impl, dispatcher)

    @property
    def label(self):
        """How messages name this extension: its decorator, function and place."""
        func = self.shown or self.typing_func
        name = getattr(func, "__qualname__", repr(func))
        file, line = _source(func)
        what = "@register_jitable" if self.shown else {
            "function": "@overload", "method": "@overload_method",
            "attribute": "@overload_attribute"}[self.kind]
        return "%s %s (File %s, line %s)" % (what, name, file, line)

    def applies_to(self, receiver):
        """Methods and attributes: whether the receiver's type is this template's."""
        if isinstance(self.typ, type):
            return isinstance(receiver, self.typ)
        return receiver == self.typ

    def _dispatcher(self, impl):
        entry = self._dispatchers.get(id(impl))
        if entry is None:
            from ..decorators import njit
            entry = (impl, njit(**self.jit_options)(impl))
            self._dispatchers[id(impl)] = entry
        return entry[1]

    def choose(self, args, kwnames):
        """("ok", (dispatcher, label)) or ("fail", reason): the implementation for these types
        (typing function run once per types). Errors other than cujit's propagate."""
        cache_key = (args, kwnames)
        found = self._chosen.get(cache_key)
        if found is None:
            found = self._choose(args, kwnames)
            self._chosen[cache_key] = found
        return found

    def _choose(self, args, kwnames):
        npos = len(args) - len(kwnames)
        kws = dict(zip(kwnames, args[npos:]))
        try:
            inspect.signature(self.typing_func).bind(*args[:npos], **kws)
        except TypeError as e:
            return "fail", TypingError(str(e))
        except ValueError:
            pass  # a builtin without a signature: call it and see
        try:
            impl = self.typing_func(*args[:npos], **kws)
        except CujitError as e:
            return "fail", e  # numba collects its own errors and tries the next template
        except Exception as e:
            raise TypingError("%s raised %s: %s" % (self.label, type(e).__name__, e)) from e
        if impl is None:
            return "fail", _NO_MATCH
        if isinstance(impl, tuple):
            raise TypingError("%s returned (signature, implementation): explicit signatures "
                              "from overloads are not in cujit yet" % self.label)
        if not isinstance(impl, _pytypes.FunctionType):
            raise TypingError("%s: Implementation function returned by `@overload` has an "
                              "unexpected type.  Got %r" % (self.label, impl))
        try:
            if self.strict:
                validate_signatures(self.typing_func, impl)
            return "ok", (self._dispatcher(impl), self.label)
        except CujitError as e:  # numba's InternalError: this overload's rejection
            return "fail", e


def _ordered(templates, target):
    """The templates usable on `target`, the target's own first (numba: by specificity)."""
    own = [t for t in templates if t.target == target]
    return own + [t for t in templates if t.target == "generic"]


def _no_implementation(what, name, templates, args, kwnames):
    """numba's "No implementation of function ..." from the templates' recorded failures."""
    argstr = _argstr(args, kwnames)
    lines = ["No implementation of function %s found for signature:\n \n >>> %s(%s)\n \n"
             "There are %d candidate implementations:" % (what, name, argstr, len(templates))]
    nomatch = [t for t in templates
               if t._chosen.get((args, kwnames), ("fail", _NO_MATCH))[1] == _NO_MATCH]
    if nomatch:
        if len(nomatch) == 1:
            file, line = _source(nomatch[0].typing_func)
        else:
            file, line = "<numerous>", "N/A"
        lines.append("  - Of which %d did not match due to:\n  Overload of function '%s': "
                     "File: %s: Line %s.\n    With argument(s): '(%s)':\n   No match."
                     % (len(nomatch), name, file, line, argstr))
    for t in templates:
        why = t._chosen.get((args, kwnames), ("fail", _NO_MATCH))[1]
        if why == _NO_MATCH:
            continue
        file, line = _source(t.typing_func)
        lines.append("  - Of which 1 did not match due to:\n  Overload in function '%s': "
                     "File: %s: Line %s.\n    With argument(s): '(%s)':\n   Rejected as the "
                     "implementation raised a specific error:\n     %s: %s"
                     % (getattr(t.typing_func, "__qualname__", "?"), file, line, argstr,
                        type(why).__name__, why))
    return "\n".join(lines)


def _first(templates, args, kwnames):
    for t in templates:
        status, result = t.choose(args, kwnames)
        if status == "ok":
            return result
    return None


def resolve(kind, key, target, args, kwnames):
    """The C core's question (csrc/typing/extensions.c). kind:
    "call"     key a function: (dispatcher, label) of the first overload that takes the
               types, or None;
    "getattr"  key a name, args (receiver,): "method" when a method of that name applies to
               the receiver, (dispatcher, label) for an attribute's implementation, or None;
    "method"   key a name, args (receiver, ...): as "call";
    "setattr"  key a name, args (receiver, value): the low-level API's lower_setattr choice
               (lowlevel.resolve_setattr), or None;
    "explain" / "explain_method": numba's "No implementation" text for a call none took."""
    if kind in ("call", "explain"):
        templates = _ordered(_FUNCTION_TEMPLATES.get(id(key), ()), target)
        if key is literally:
            raise UnsupportedError(_LITERALLY)
        if kind == "call":
            return _first(templates, args, kwnames)
        name = getattr(key, "__name__", repr(key))
        return _no_implementation("Function(%r)" % (key,), name, templates, args, kwnames)
    receiver = args[0]
    if kind == "setattr":  # obj.key = v of an extension type: the low-level API's
        from .lowlevel import resolve_setattr
        return resolve_setattr(receiver, key, args[1], target)
    candidates = [t for t in _ordered(MEMBERS.get(key, ()), target) if t.applies_to(receiver)]
    if kind == "getattr":
        candidates += [g.for_name(key) for g in _ordered(MEMBERS.get("*", ()), target)
                       if g.applies_to(receiver)]  # AttributeTemplate.generic_resolve
        for t in candidates:
            if t.kind == "method":
                return "method"
            chosen = _first([t], args, kwnames)
            if chosen is not None:
                return chosen
        return None
    methods = [t for t in candidates if t.kind == "method"]
    if kind == "method":
        return _first(methods, args, kwnames)
    return _no_implementation("BoundFunction(%s.%s)" % (receiver, key), key, methods, args,
                              kwnames)


def function_templates(func):
    """The overloads of `func` (for the on-disk cache's keys), in the order they were made."""
    try:
        return _FUNCTION_TEMPLATES.get(id(func), ()) if FUNCTIONS.get(id(func)) is func else ()
    except TypeError:
        return ()


def register_function(func, template):
    FUNCTIONS[id(func)] = func
    _FUNCTION_TEMPLATES.setdefault(id(func), []).append(template)


def register_member(name, template):
    MEMBERS.setdefault(name, []).append(template)


_LITERALLY = ("cujit.extending.literally: literal argument types (numba's Literal[int](3) "
              "and the recompilation literally asks for) are not in cujit yet; constants "
              "are typed by their type (int64, float64, ...)")


def literally(obj):
    """numba.literally: outside compiled code it returns its argument. cujit has no literal
    argument types yet: using it in compiled code raises UnsupportedError saying so."""
    return obj


FUNCTIONS[id(literally)] = literally
_core.set_extension_registry(FUNCTIONS, MEMBERS, resolve)
