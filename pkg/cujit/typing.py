"""Signatures in numba's spellings: "float64(float64, float64)", float64(float64, int32),
"(int64[:], float32)", lists of them, and tuples of types (argument types only)."""
from . import _core, types
from .errors import UnsupportedError

# numba evaluates signature strings among numba.core.types' names: its classes and instances
_NAMESPACE = {name: value for name, value in vars(types).items() if not name.startswith("_")}
_NAMESPACE["__builtins__"] = {}


def _evaluate(text, what):
    try:
        return eval(text, dict(_NAMESPACE))  # names are cujit types only; no builtins
    except UnsupportedError:
        raise  # a type the compiler does not know yet: its own words
    except Exception as exc:
        raise TypeError(f"invalid {what} {text!r}: {exc}") from None


def parse_type(text):
    """The cujit type a string spells: "float64", "float64[:, ::1]", "UniTuple(int64, 2)"."""
    value = _evaluate(text, "type")
    if not isinstance(value, _core.Type):
        raise TypeError(f"invalid type {text!r}: it is a {type(value).__name__}, not a type")
    return value


def parse_signature(sig):
    """A cujit Signature from any of numba's spellings (its return type may be None)."""
    if isinstance(sig, _core.Signature):
        return sig
    if isinstance(sig, str):
        value = _evaluate(sig, "signature")
        if isinstance(value, _core.Type):
            value = (value,)
        return parse_signature(value)
    if isinstance(sig, _core.Type):
        return _core.make_signature(None, (sig,))
    if isinstance(sig, tuple):
        if not all(isinstance(t, _core.Type) for t in sig):
            raise TypeError(f"invalid signature {sig!r}: items must be cujit types")
        return _core.make_signature(None, sig)
    raise TypeError(f"invalid signature {sig!r} (type {type(sig).__name__})")


def parse_signatures(sigs):
    """A list of Signatures from one signature or a list of them."""
    if isinstance(sigs, list):
        return [parse_signature(s) for s in sigs]
    return [parse_signature(sigs)]
