"""The roots of cujit's type hierarchy, as numba.core.types.abstract.

Every type is an instance of a class here or in the sibling modules. A type cujit's compiler
knows (numbers, arrays, tuples, none, ...) is backed by an interned C type: its class derives
from ``_core.Type``, whose C slot points at that type, so the compiler maps the object to its C
type and back without a lookup (see csrc/types/pyclass.c). Such objects are made once by the C
core and are unique: ``types.Array(float32, 2, 'C') is float32[:, ::1]``. A type the compiler
does not know (Optional, CPointer, a user's subclass of ``Type``) is a plain Python object,
interned by its class and key as numba does; compiling with it raises UnsupportedError.
"""
import weakref
from abc import ABCMeta, abstractmethod
from functools import cached_property

from ... import _core

# Python-only types, interned by equality (numba's _typecache): weak, so they can go away.
_typecache = {}


def _on_type_disposal(wr, _pop=_typecache.pop):
    _pop(wr, None)


def _abstract_check(cls):
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    if missing:
        s = "s" if len(missing) > 1 else ""
        raise TypeError(f"Can't instantiate abstract class {cls.__name__} with abstract "
                        f"method{s} {', '.join(missing)}")


class _TypeMetaclass(ABCMeta):
    """Makes each type once. A class of the compiler's own (with ``_core_make`` in its body)
    first asks the C core for the interned type; otherwise, or when the core has no such type,
    the instance is built in Python and interned by equality, as numba's metaclass does."""

    def __init__(cls, name, bases, orig_vars):
        super().__init__(name, bases, orig_vars)
        cls._is_internal = cls.__module__.split(".")[0] == "cujit"

    def _intern(cls, inst):
        if inst._compilable:
            return inst  # the C core interns these
        wr = weakref.ref(inst, _on_type_disposal)
        orig = _typecache.get(wr)
        orig = orig and orig()
        if orig is not None:
            return orig
        _typecache[wr] = wr
        return inst

    def __call__(cls, *args, **kwargs):
        make = cls.__dict__.get("_core_make")  # the class's own: a user's subclass has none
        if make is not None:
            inst = make(cls, *args, **kwargs)
            if inst is not None:
                return inst
        _abstract_check(cls)
        inst = type.__call__(cls, *args, **kwargs)
        return type(inst)._intern(inst)


def _type_reconstructor(reconstructor, reconstructor_args, state):
    obj = reconstructor(*reconstructor_args)
    if state:
        obj.__dict__.update(state)
    return type(obj)._intern(obj)


def _core_reconstructor(cls, args):
    return cls(*args)


def _array_spec(spec):
    """(ndim, layout) of an array spec: ``[:]``, ``[::1]``, ``[:, ::1]`` (C), ``[::1, :]`` (F).
    cujit is stricter than numba: one ``::1`` at most, on the first or last dimension."""
    parts = spec if isinstance(spec, tuple) else (spec,)
    if not 1 <= len(parts) <= 32:
        raise TypeError("array type needs 1 to 32 slices")
    contiguous = []
    for i, s in enumerate(parts):
        if not (isinstance(s, slice) and s.start is None and s.stop is None and
                (s.step is None or (type(s.step) is int and s.step == 1))):
            raise TypeError("array type spec takes only ':' and '::1' (as in float32[:, ::1])")
        if s.step == 1:
            contiguous.append(i)
    if len(contiguous) > 1:
        raise TypeError("only one '::1' is allowed in an array type")
    if not contiguous:
        return len(parts), "A"
    if contiguous[0] == len(parts) - 1:
        return len(parts), "C"
    if contiguous[0] == 0:
        return len(parts), "F"
    raise TypeError("'::1' must be on the first or last dimension")


class Type(_core.Type, metaclass=_TypeMetaclass):
    """The base class of all cujit types (numba's ``types.Type``). Equality and hashing go by
    the class and ``key`` (the name unless a subclass says otherwise)."""

    mutable = False
    reflected = False

    def __init__(self, name):
        self.name = name

    def _init_from_core(self, *args):
        # the C core made this object for its type: the class's own __init__ fills it in, and
        # the arguments rebuild it through the public constructor when unpickled
        self._core_args = args
        self.__init__(*args)

    @property
    def key(self):
        """What equality and hashing compare (the name by default)."""
        return self.name

    @property
    def mangling_args(self):
        return self.name, ()

    def __repr__(self):
        return self.name

    def __str__(self):
        return self.name

    def __hash__(self):
        return hash(self.key)

    def __eq__(self, other):
        return self is other or (self.__class__ is other.__class__ and self.key == other.key)

    def __ne__(self, other):
        return not (self == other)

    def __reduce__(self):
        if self._compilable:
            return (_core_reconstructor, (type(self), self._core_args))
        return (_type_reconstructor, (_core.Type.__new__, (type(self),), self.__dict__))

    def unify(self, typingctx, other):
        """The type this and *other* unify to, or None (numba's hook)."""
        return None

    def can_convert_to(self, typingctx, other):
        """'exact', 'promote', 'safe' or 'unsafe' to *other*, or None (numba's hook)."""
        return None

    def can_convert_from(self, typingctx, other):
        """As can_convert_to, the other way round (numba's hook)."""
        return None

    def is_precise(self):
        """Whether the type can be the result of a successful type inference."""
        return True

    def augment(self, other):
        """This type augmented with *other*, or None."""
        return None

    def __call__(self, *args):
        """``float64(float64, int32)`` makes a signature; ``float32(3)`` casts a value."""
        if len(args) == 1 and not isinstance(args[0], Type):
            return self.cast_python_value(args[0])
        if not all(isinstance(a, Type) for a in args):
            raise TypeError(f"{self}(...) takes types to make a signature, or one value to cast")
        return _core.make_signature(self, args)

    def __getitem__(self, spec, /):
        """``float32[:, ::1]``: the array type of this dtype."""
        from .npytypes import Array
        ndim, layout = _array_spec(spec)
        return Array(dtype=self, ndim=ndim, layout=layout)

    def cast_python_value(self, value, /):
        raise NotImplementedError(f"cannot cast a value to {self}")

    @property
    def is_internal(self):
        """True for cujit's own types, False for a user's."""
        return self._is_internal

    def dump(self, tab=""):
        print(f"{tab}DUMP {type(self).__name__}[name={self.name}]")


class Dummy(Type):
    """Types without a meaningful representation (None, functions, modules)."""


class Hashable(Type):
    """Hashable types."""


class Number(Hashable):
    """Number types."""

    def unify(self, typingctx, other):
        """NumPy's promotion of two numbers."""
        from ...np import numpy_support
        import numpy as np
        if isinstance(other, Number):
            a = numpy_support.as_dtype(self)
            b = numpy_support.as_dtype(other)
            return numpy_support.from_dtype(np.promote_types(a, b))


class Callable(Type):
    """Callable types."""

    @abstractmethod
    def get_call_type(self, context, args, kws):
        """The signature for the given arguments, or None."""

    @abstractmethod
    def get_call_signatures(self):
        """(list of signatures, parameterized)."""

    @abstractmethod
    def get_impl_key(self, sig):
        """The implementation key for a signature."""


class DTypeSpec(Type):
    """Types usable as ``dtype`` arguments of NumPy functions."""

    @property
    @abstractmethod
    def dtype(self):
        """The dtype this spec denotes."""


class IterableType(Type):
    """Iterable types."""

    @property
    @abstractmethod
    def iterator_type(self):
        """The iterator type iter() gives."""


class Sized(Type):
    """Types that support len()."""


class ConstSized(Sized):
    """Types of a size known at compile time."""

    @abstractmethod
    def __len__(self):
        pass


class IteratorType(IterableType):
    """Iterator types (``yield_type``: what each step gives)."""

    def __init__(self, name, **kwargs):
        super().__init__(name, **kwargs)

    @property
    @abstractmethod
    def yield_type(self):
        """The type of the values the iterator yields."""

    @property
    def iterator_type(self):
        return self


class Container(Sized, IterableType):
    """Container types."""


class Sequence(Container):
    """1-d sequence types (with a ``dtype``)."""


class MutableSequence(Sequence):
    """Mutable 1-d sequence types."""

    mutable = True


class ArrayCompatible(Type):
    """Types NumPy functions take as arrays (``as_array``: the equivalent array type)."""

    array_priority = 0.0

    @property
    @abstractmethod
    def as_array(self):
        """The equivalent array type."""

    @cached_property
    def ndim(self):
        return self.as_array.ndim

    @cached_property
    def layout(self):
        return self.as_array.layout

    @cached_property
    def dtype(self):
        return self.as_array.dtype


def _hashable_key(value):
    try:
        hash(value)
    except TypeError:
        return id(value)
    return value


class Literal(Type):
    """Types holding the Python value they stand for; made by ``types.literal(value)``."""

    ctor_map = {}
    _literal_type_cache = None

    def __init__(self, value):
        if type(self) is Literal:
            raise TypeError("Cannot be constructed directly. "
                            "Use `cujit.types.literal(value)` instead")
        self._literal_init(value)
        super().__init__(f"Literal[{type(value).__name__}]({value})")

    def _literal_init(self, value):
        self._literal_value = value
        self._key = _hashable_key(value)

    @property
    def literal_value(self):
        return self._literal_value

    @property
    def literal_type(self):
        """The non-literal type of the value (cujit.typeof of it)."""
        if self._literal_type_cache is None:
            try:
                self._literal_type_cache = _core.typeof(self.literal_value)
            except OverflowError:
                raise TypeError("Cannot create literal type. Int value is too large: "
                                f"{self.literal_value}") from None
            except TypeError:
                raise AttributeError(f"{self!r} has no attribute 'literal_type'") from None
        return self._literal_type_cache


class TypeRef(Dummy):
    """A type passed as a value."""

    def __init__(self, instance_type):
        self.instance_type = instance_type
        super().__init__(f"typeref[{self.instance_type}]")

    @property
    def key(self):
        return self.instance_type


class InitialValue(object):
    """numba's mixin of the types that may carry an initial value (``.initial_value``: a
    list's or dict's literal contents; cujit's are always None)."""

    def __init__(self, initial_value):
        self._initial_value = initial_value

    @property
    def initial_value(self):
        return self._initial_value
