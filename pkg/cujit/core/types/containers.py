"""Tuple and list types, as numba.core.types.containers: UniTuple, Tuple, NamedUniTuple,
NamedTuple, List, ListType. Anonymous tuples of types the compiler knows are made by the C core
(``UniTuple(int64, 3)``, ``Tuple((int64, float32))``), and so are the lists compiled code
makes or takes (``list(int64)<iv=None>``); named tuples, and lists made from Python, are
Python-only for now."""
from collections.abc import Iterable

from ... import _core
from .abstract import (ConstSized, Container, Hashable, IterableType, MutableSequence, Sequence,
                       Type)
from .common import SimpleIteratorType
from .misc import unliteral


def is_homogeneous(*tys):
    """Whether all the types are the same."""
    if tys:
        first, tys = tys[0], tys[1:]
        return not any(t != first for t in tys)
    return True


class BaseContainerIterator(SimpleIteratorType):
    """The iterator of a container type."""

    def __init__(self, container):
        self.container = container
        super().__init__("iter(%s)" % container, container.dtype)

    @property
    def key(self):
        return self.container


class BaseTuple(ConstSized, Hashable):
    """Tuple types of a known size."""

    @classmethod
    def from_types(cls, tys, pyclass=None):
        """The right tuple type for the item types (a named tuple when *pyclass* is one)."""
        tys = tuple(tys)
        if pyclass is not None and pyclass is not tuple:
            if not (isinstance(pyclass, type) and issubclass(pyclass, tuple)):
                raise TypeError(f"{pyclass!r} is not a tuple class")
            if hasattr(pyclass, "_asdict"):
                tys = tuple(map(unliteral, tys))
                if tys and is_homogeneous(*tys):
                    return NamedUniTuple(tys[0], len(tys), pyclass)
                return NamedTuple(tys, pyclass)
        if tys and is_homogeneous(*tys):
            return UniTuple(tys[0], len(tys))
        return Tuple(tys)


class BaseAnonymousTuple(BaseTuple):
    """Tuples that are not named tuples."""

    def __unliteral__(self):
        return type(self).from_types([unliteral(t) for t in self])


class _HomogeneousTuple(Sequence, BaseTuple):

    @property
    def iterator_type(self):
        return UniTupleIter(self)

    def __getitem__(self, i):
        return self.dtype

    def __iter__(self):
        return iter([self.dtype] * self.count)

    def __len__(self):
        return self.count

    @property
    def types(self):
        return (self.dtype,) * self.count


class UniTuple(BaseAnonymousTuple, _HomogeneousTuple, Sequence):
    """A tuple of *count* items of one type: ``UniTuple(int64, 3)`` is UniTuple(int64 x 3)."""

    def _core_make(cls, dtype, count):
        if type(count) is not int or not 0 < count <= 256 or not isinstance(dtype, Type):
            return None
        return _core.tuple_type((dtype,) * count)

    def __init__(self, dtype, count):
        self.dtype = dtype
        self.count = count
        super().__init__("%s(%s x %d)" % (self.__class__.__name__, dtype, count))

    @property
    def mangling_args(self):
        return self.__class__.__name__, (self.dtype, self.count)

    @property
    def key(self):
        return self.dtype, self.count

    def __unliteral__(self):
        return type(self)(dtype=unliteral(self.dtype), count=self.count)

    def __repr__(self):
        return f"UniTuple({self.dtype!r}, {self.count})"


class UniTupleIter(BaseContainerIterator):
    """The iterator of a tuple (cujit iterates heterogeneous tuples too, unrolled)."""

    container_class = _HomogeneousTuple


class _HeterogeneousTuple(BaseTuple):

    def __getitem__(self, i):
        return self.types[i]

    def __len__(self):
        return len(self.types)

    def __iter__(self):
        return iter(self.types)

    @staticmethod
    def is_types_iterable(types):
        if not isinstance(types, Iterable):
            from ...errors import TypingError
            raise TypingError("Argument 'types' is not iterable")


class UnionType(Type):
    """The union of types (a heterogeneous tuple's ``dtype``)."""

    def __init__(self, types):
        self.types = tuple(sorted(set(types), key=lambda x: x.name))
        super().__init__("Union[{}]".format(",".join(map(str, self.types))))

    def get_type_tag(self, typ):
        return self.types.index(typ)


class Tuple(BaseAnonymousTuple, _HeterogeneousTuple):
    """A tuple of the given item types: ``Tuple((int64, float32))``; the same types
    throughout give a UniTuple, as numba's."""

    def _core_make(cls, types):
        cls.is_types_iterable(types)
        types = tuple(types)
        if len(types) > 256 or not all(isinstance(t, Type) for t in types):
            return None
        return _core.tuple_type(types)

    def __new__(cls, types):
        cls.is_types_iterable(types)
        types = tuple(types)
        if types and all(t == types[0] for t in types[1:]):
            return UniTuple(dtype=types[0], count=len(types))
        return super().__new__(cls)

    def __init__(self, types):
        self.types = tuple(types)
        self.count = len(self.types)
        self.dtype = UnionType(types)
        super().__init__("%s(%s)" % (self.__class__.__name__,
                                     ", ".join(str(i) for i in self.types)))

    @property
    def mangling_args(self):
        return self.__class__.__name__, tuple(t for t in self.types)

    @property
    def key(self):
        return self.types

    def __repr__(self):
        return f"Tuple({tuple(ty for ty in self.types)})"


class BaseNamedTuple(BaseTuple):
    """Named tuple types."""


class NamedUniTuple(_HomogeneousTuple, BaseNamedTuple):
    """A named tuple of one item type. Python-only: cujit's compiler has no named tuples yet."""

    def __init__(self, dtype, count, cls):
        self.dtype = dtype
        self.count = count
        self.fields = tuple(cls._fields)
        self.instance_class = cls
        super().__init__("%s(%s x %d)" % (cls.__name__, dtype, count))

    @property
    def iterator_type(self):
        return UniTupleIter(self)

    @property
    def key(self):
        return self.instance_class, self.dtype, self.count


class NamedTuple(_HeterogeneousTuple, BaseNamedTuple):
    """A named tuple. Python-only: cujit's compiler has no named tuples yet."""

    def __init__(self, types, cls):
        _HeterogeneousTuple.is_types_iterable(types)
        self.types = tuple(types)
        self.count = len(self.types)
        self.fields = tuple(cls._fields)
        self.instance_class = cls
        super().__init__("%s(%s)" % (cls.__name__, ", ".join(str(i) for i in self.types)))

    @property
    def key(self):
        return self.instance_class, self.types


from .abstract import InitialValue  # noqa: E402 (numba's mixin of List and DictType)


class List(MutableSequence, InitialValue):
    """numba's list type: ``list(int64)<iv=None>``, ``reflected list(int64)<iv=None>`` for a
    Python list passed in. The compiler's lists are made by the C core (csrc/types/types.c);
    ``List(int64)`` made from Python is Python-only (a signature with it is UnsupportedError)."""

    mutable = True

    def __init__(self, dtype, reflected=False, initial_value=None, core_name=None):
        self.dtype = dtype
        self.reflected = reflected
        InitialValue.__init__(self, initial_value)
        kind = "reflected list" if reflected else "list"
        super().__init__(core_name or "%s(%s)<iv=%s>" % (kind, dtype, initial_value))

    @property
    def key(self):
        return self.dtype, self.reflected, str(self.initial_value)

    def __repr__(self):
        return f"List({self.dtype}, {self.reflected})"

    @property
    def iterator_type(self):
        return BaseContainerIterator(self)


class ListType(IterableType):
    """numba's type of a typed List (``cujit.typed.List``): ``ListType[int64]``."""

    mutable = True

    def __init__(self, itemty, core_name=None):
        self.item_type = self.dtype = itemty
        super().__init__(core_name or "ListType[%s]" % (itemty,))

    @property
    def key(self):
        return self.item_type

    def __repr__(self):
        return f"ListType({repr(self.item_type)})"

    @property
    def iterator_type(self):
        return BaseContainerIterator(self)


class DictType(IterableType, InitialValue):
    """numba's type of a dict (``cujit.typed.Dict`` and the dicts compiled code makes):
    ``DictType[int64,float64]<iv=None>``; ``DictType(undefined, undefined)`` is an empty
    ``{}`` not yet refined by a ``d[k] = v``."""

    mutable = True

    def __init__(self, keyty, valty, initial_value=None, core_name=None):
        self.key_type = keyty
        self.value_type = valty
        InitialValue.__init__(self, initial_value)
        self.keyvalue_type = Tuple([keyty, valty]) if keyty is not None else None
        super().__init__(core_name or "DictType[%s,%s]<iv=%s>" % (
            keyty if keyty is not None else "undefined",
            valty if valty is not None else "undefined", initial_value))

    @property
    def key(self):
        return self.key_type, self.value_type, str(self.initial_value)

    def is_precise(self):
        return self.key_type is not None and self.value_type is not None

    def __repr__(self):
        return f"DictType({self.key_type}, {self.value_type})"

    @property
    def iterator_type(self):
        return DictIteratorType(self, "keys")


class DictIteratorType(SimpleIteratorType):
    """The iterator over a dict's keys, values or items (``dict_keys(DictType[...])``):
    numba's DictIteratorType, which ``for k in d``, ``d.keys()``, ``d.values()`` and
    ``d.items()`` give."""

    def __init__(self, dict_type, kind):
        self.parent = dict_type
        self.kind = kind
        yield_type = {"keys": dict_type.key_type, "values": dict_type.value_type,
                      "items": dict_type.keyvalue_type}[kind]
        super().__init__("dict_%s(%s)" % (kind, dict_type), yield_type)

    @property
    def key(self):
        return self.parent, self.kind


class Set(Container):
    """numba's set type: ``set(int64)``, ``reflected set(int64)`` for a Python set passed in
    (its changes are written back to the caller's set). The compiler's sets are made by the C
    core (csrc/types/settype.c); ``Set(int64)`` made from Python is Python-only."""

    mutable = True

    def __init__(self, dtype, reflected=False, core_name=None):
        self.dtype = dtype
        self.reflected = reflected
        kind = "reflected set" if reflected else "set"
        super().__init__(core_name or "%s(%s)" % (kind, dtype if dtype is not None
                                                   else "undefined"))

    @property
    def key(self):
        return self.dtype, self.reflected

    @property
    def iterator_type(self):
        return SetIter(self)

    def is_precise(self):
        return self.dtype is not None

    def copy(self, dtype=None, reflected=None):
        return Set(self.dtype if dtype is None else dtype,
                   self.reflected if reflected is None else reflected)

    def __repr__(self):
        return f"Set({self.dtype}, {self.reflected})"


class SetIter(BaseContainerIterator):
    """The iterator over a set's elements (``iter(set(int64))``): numba's SetIter."""
