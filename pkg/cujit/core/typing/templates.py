"""cujit.core.typing.templates (numba.core.typing.templates): the typing templates of the
low-level extension API. AttributeTemplate with infer_getattr (cujit.core.lowlevel), and the
function templates: ``infer_global(func)`` registers an AbstractTemplate (``generic(self,
args, kws)`` returns a signature or None) or a ConcreteTemplate (``cases``, a list of
signatures, chosen as numba does: the fewest and mildest conversions) typing the calls of a
global function, lowered by its ``lower_builtin``."""
from ... import _core
from ...errors import TypingError
from .. import types
from ..lowlevel import AttributeTemplate, _find_lowering, _LowLevelTemplate, infer_getattr
from ..templates import OverloadTemplate, _source, register_function  # noqa: F401

__all__ = ["AttributeTemplate", "AbstractTemplate", "ConcreteTemplate", "FunctionTemplate",
           "Signature", "signature", "infer", "infer_getattr", "infer_global"]

Signature = _core.Signature


def signature(return_type, *args, **kws):
    """numba's signature(return_type, *args): the Signature of a call."""
    if kws.pop("recvr", None) is not None:
        raise NotImplementedError("cujit: signature(recvr=...) (bound methods' receivers) "
                                  "is not supported")
    if kws:
        raise TypeError("signature() got unexpected keyword argument(s): %s" % ", ".join(kws))
    return _core.make_signature(return_type, tuple(args))


class FunctionTemplate:
    """numba's FunctionTemplate: `key` the function typed; `context` the typing context
    (None in cujit: its typing is C)."""
    key = None
    unsafe_casting = True
    exact_match_required = False

    def __init__(self, context=None):
        self.context = context


class AbstractTemplate(FunctionTemplate):
    """generic(self, args, kws) returns the call's Signature, or None for other types."""

    def apply(self, args, kws):
        sig = self.generic(args, kws)
        if sig is not None and not isinstance(sig, Signature):
            raise AssertionError("generic() must return a Signature or None. %s returned %r"
                                 % (self.generic, sig))
        return sig


class ConcreteTemplate(FunctionTemplate):
    """`cases`: the Signatures a call may take; the one needing the fewest and mildest
    conversions of the arguments is chosen (numba's resolve_overload)."""
    cases = ()

    def apply(self, args, kws):
        if kws:
            return None
        return _select_case(self, list(self.cases), args)


# numba's conversion kinds, mildest first (numba.core.typeconv.Conversion), and its casting
# rules between numbers (numba.core.typeconv.rules): (from, to, kind, kind back)
_EXACT, _PROMOTE, _SAFE, _UNSAFE = range(4)
_RULES = [("bool", "int8", _SAFE, _UNSAFE), ("bool", "uint8", _SAFE, _UNSAFE),
          ("int8", "int16", _PROMOTE, _UNSAFE), ("uint8", "uint16", _PROMOTE, _UNSAFE),
          ("int16", "int32", _PROMOTE, _UNSAFE), ("uint16", "uint32", _PROMOTE, _UNSAFE),
          ("int32", "int64", _PROMOTE, _UNSAFE), ("uint32", "uint64", _PROMOTE, _UNSAFE),
          ("uint8", "int16", _SAFE, _UNSAFE), ("uint16", "int32", _SAFE, _UNSAFE),
          ("uint32", "int64", _SAFE, _UNSAFE), ("int8", "float16", _SAFE, _UNSAFE),
          ("int16", "float32", _SAFE, _UNSAFE), ("int32", "float64", _SAFE, _UNSAFE),
          ("int16", "float16", _UNSAFE, _UNSAFE), ("int32", "float32", _UNSAFE, _UNSAFE),
          ("int64", "float64", _SAFE, _UNSAFE), ("uint64", "float64", _SAFE, _UNSAFE),
          ("float16", "float32", _PROMOTE, _UNSAFE), ("float32", "float64", _PROMOTE, _UNSAFE),
          ("float32", "complex64", _SAFE, None), ("float64", "complex128", _SAFE, None),
          ("complex64", "complex128", _PROMOTE, _UNSAFE)]
_CONVERSIONS = {}  # (from name, to name) -> the mildest kind of any chain of the rules


def _conversions():
    if not _CONVERSIONS:
        edges = {}
        for a, b, fwd, back in _RULES:
            edges.setdefault(a, {})[b] = fwd
            if back is not None:
                edges.setdefault(b, {})[a] = back
        for start in edges:  # a chain is as bad as its worst step; keep the mildest chain
            best, todo = {start: _EXACT}, [start]
            while todo:
                a = todo.pop()
                for b, kind in edges.get(a, {}).items():
                    k = max(best[a], kind)
                    if k < best.get(b, _UNSAFE + 1):
                        best[b] = k
                        todo.append(b)
            for b, k in best.items():
                _CONVERSIONS[(start, b)] = k
    return _CONVERSIONS


def _conversion(actual, formal):
    """How `actual` converts to `formal`: one of the kinds above, or None (it does not)."""
    if actual == formal:
        return _EXACT
    return _conversions().get((str(actual), str(formal)))


def _select_case(template, cases, args):
    """numba's resolve_overload: the case of the fewest unsafe, then safe, then promoting
    conversions; among equals the first (an error when exact_match_required)."""
    best, best_rank = [], None
    for case in cases:
        if not isinstance(case, Signature):
            raise TypeError("%s.cases holds %r, not a Signature"
                            % (type(template).__qualname__, case))
        if len(case.args) != len(args):
            continue
        kinds = [_conversion(a, f) for a, f in zip(args, case.args)]
        if None in kinds or (_UNSAFE in kinds and not template.unsafe_casting):
            continue
        rank = tuple(kinds.count(k) for k in (_UNSAFE, _SAFE, _PROMOTE))
        if best_rank is None or rank < best_rank:
            best, best_rank = [case], rank
        elif rank == best_rank:
            best.append(case)
    if len(best) > 1 and template.exact_match_required:
        raise TypingError("Ambiguous overloading for %s %s:\n%s"
                          % (type(template).key, tuple(args), "\n".join(map(str, best))))
    return best[0] if best else None


def _template_label(cls):
    """'@infer_global Name (File f.py, line N)' of a template class."""
    return "@infer_global %s (File %s, line %s)" % ((cls.__qualname__,) + _source(cls))


def _register_template(val, template_cls, target="generic", shown=None):
    """The typing of calls of `val` by a function template class (numba's Function type)."""
    if not (isinstance(template_cls, type) and issubclass(template_cls, FunctionTemplate)):
        raise TypeError("infer_global takes an AbstractTemplate or ConcreteTemplate subclass, "
                        "not %r" % (template_cls,))
    inst = template_cls(None)
    shown = shown or template_cls  # the user's class (infer_global subclasses it)
    label = _template_label(shown)

    def resolve(*args):
        sig = inst.apply(tuple(args), {})
        if sig is None:
            return None
        if sig.return_type is None:
            raise TypingError("%s: the signature %s has no return type" % (label, sig))
        lower = _find_lowering(val, tuple(sig.args))
        if lower is None:
            raise TypingError("%s: no lower_builtin(%s, %s) lowers this call"
                              % (label, getattr(val, "__name__", val),
                                 ", ".join(map(str, sig.args))))
        return sig.return_type, tuple(sig.args), lower
    register_function(val, _LowLevelTemplate("function", label, resolve,
                                             typing_func=shown, target=target))


def infer_global(val, typ=None, typing_key=None, target="generic"):
    """numba's infer_global: ``@infer_global(func)`` over an AbstractTemplate or
    ConcreteTemplate subclass types the calls of `func` in compiled code;
    ``infer_global(func, types.Function(Template))`` does the same."""
    if typ is not None:
        template_cls = getattr(typ, "typing_key", None)
        if not isinstance(typ, types.Function) or not isinstance(template_cls, type):
            raise NotImplementedError("cujit: infer_global(value, typ) takes typ = "
                                      "types.Function(template class); other global values' "
                                      "types are cujit's own (%r)" % (typ,))
        _register_template(val, template_cls, target)
        return None
    if not callable(val):
        raise TypeError("cannot infer type for global value %r" % (val,))

    def decorate(cls):
        class Template(cls):
            key = val if typing_key is None else typing_key
        Template.__name__ = Template.__qualname__ = cls.__qualname__
        _register_template(val, Template, target, shown=cls)
        return cls
    return decorate


def infer(template):
    """numba's infer: registers a template class by its `key`: an AttributeTemplate (as
    infer_getattr) or a function template typing calls of the function `key`."""
    if isinstance(template, type) and issubclass(template, FunctionTemplate):
        if template.key is None or not callable(template.key):
            raise TypeError("%s: a function template needs a `key`, the function it types"
                            % template.__qualname__)
        _register_template(template.key, template)
        return template
    return infer_getattr(template)
