"""Miscellaneous types, as numba.core.types.misc: NoneType, Optional, Omitted, CPointer,
RawPointer (voidptr), Module, StringLiteral, UnicodeType (unicode_type), SliceType, and
literal()/unliteral()."""
from ... import _core
from .abstract import Dummy, Hashable, IterableType, Literal, Type, _hashable_key
from .common import Opaque, SimpleIteratorType


class UnicodeType(IterableType, Hashable):
    """numba's ``unicode_type``: a str in compiled CPU code (csrc/abi/unicode.c)."""

    def _core_make(cls, name):
        return _core.type_by_name("unicode_type") if name == "unicode_type" else None

    def __init__(self, name):
        super().__init__(name)

    @property
    def iterator_type(self):
        return UnicodeIteratorType(self)


class UnicodeIteratorType(SimpleIteratorType):
    """``iter(unicode_type)``: its characters, each a unicode_type."""

    def __init__(self, dtype):
        name = "iter_unicode"
        self.data = dtype
        super().__init__(name, dtype)


class PyObject(Dummy):
    """A generic CPython object (numba's pyobject; cujit compiles in nopython mode only)."""


class RawPointer(Opaque):
    """A raw pointer without any specific meaning (``types.voidptr``): an ``i8*`` in compiled
    code, passed to foreign functions (``cuda.declare_device``)."""

    def _core_make(cls, name):
        return _core.cpointer_type(None) if name == "void*" else None


class StringLiteral(Literal, Dummy):
    """``literal('abc')``: a compile-time string (attribute names, dtype strings)."""

    def _core_make(cls, value):
        return _core.object_type("object", value) if type(value) is str else None


Literal.ctor_map[str] = StringLiteral


def unliteral(lit_type):
    """The non-literal type of a literal type (the type itself otherwise)."""
    if hasattr(type(lit_type), "__unliteral__"):
        return lit_type.__unliteral__()
    return getattr(lit_type, "literal_type", lit_type)


def literal(value):
    """The literal type of a value: ``literal(3)`` is Literal[int](3)."""
    ty = type(value)
    if isinstance(value, Literal):
        raise TypeError(f"the function does not accept a Literal type; got {value} ({ty})")
    try:
        ctor = Literal.ctor_map[ty]
    except KeyError:
        from ...errors import TypingError
        raise TypingError(f"{ty} cannot be used as a literal") from None
    return ctor(value)


def maybe_literal(value):
    """The literal type of a value, or None when it has none."""
    try:
        return literal(value)
    except Exception:
        return None


class Omitted(Opaque):
    """An argument left to its default value."""

    def _core_make(cls, value):
        return _core.object_type("omitted", value)

    def __init__(self, value):
        self._value = value
        self._value_key = _hashable_key(value)
        super().__init__("omitted(default=%r)" % (value,))

    @property
    def key(self):
        return type(self._value), self._value_key

    @property
    def value(self):
        return self._value


class VarArg(Type):
    """The type of *args of one type."""

    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__("*%s" % dtype)

    @property
    def key(self):
        return self.dtype


class Module(Dummy):
    """A Python module used in compiled code (``math``, ``numpy``)."""

    def _core_make(cls, pymod):
        return _core.object_type("object", pymod)

    def __init__(self, pymod):
        self.pymod = pymod
        super().__init__("Module(%s)" % pymod)

    @property
    def key(self):
        return self.pymod


class CPointer(Type):
    """A pointer to values of *dtype* (``float32*``): what ``ffi.from_buffer(array)`` gives,
    indexed with ``p[i]`` and passed to foreign functions (``cuda.declare_device``). The
    compiler knows pointers to numbers and booleans in the default address space; others are
    Python-only (a signature with one raises UnsupportedError)."""

    mutable = True

    def _core_make(cls, dtype, addrspace=None):
        if addrspace is not None or not isinstance(dtype, _core.Type):
            return None
        return _core.cpointer_type(dtype)

    def __init__(self, dtype, addrspace=None):
        self.dtype = dtype
        self.addrspace = addrspace
        name = "%s_%s*" % (dtype, addrspace) if addrspace is not None else "%s*" % dtype
        super().__init__(name)

    @property
    def key(self):
        return self.dtype, self.addrspace


class Optional(Type):
    """A value of *typ* or None (numba's ``types.Optional``, named ``OptionalType(typ)``);
    the compiler's own for the value types it knows (csrc/types/optional.c)."""

    def _core_make(cls, typ):
        return _core.optional_type(typ) if isinstance(typ, Type) else None

    def __init__(self, typ):
        if isinstance(typ, (Optional, NoneType)):
            raise TypeError(f"Optional of {typ} is not a type")
        typ = unliteral(typ)
        self.type = typ
        super().__init__("OptionalType(%s)" % self.type)

    @property
    def key(self):
        return self.type


class NoneType(Opaque):
    """The type of None (``types.none``); cujit's ``types.void`` (nothing returned) is a
    NoneType of its own, named ``void``."""

    def _core_make(cls, name):
        from .scalars import _core_scalar
        return _core_scalar(cls, name)

    def unify(self, typingctx, other):
        if isinstance(other, (Optional, NoneType)):
            return other
        return Optional(other)


class EllipsisType(Opaque):
    """The type of the Ellipsis."""


class SliceType(Type):
    """``slice2_type`` (slice<a:b>) and ``slice3_type`` (slice<a:b:c>)."""

    def _core_make(cls, name, members):
        t = _core.slice_type(members) if members in (2, 3) else None
        return t if t is not None and t.name == name else None

    def __init__(self, name, members):
        if members not in (2, 3):
            raise ValueError("a slice type has 2 or 3 members")
        self.members = members
        self.has_step = members >= 3
        super().__init__(name)

    @property
    def key(self):
        return self.members
