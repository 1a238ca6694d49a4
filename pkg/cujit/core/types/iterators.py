"""Range and iterator types, as numba.core.types.iterators. The compiler's ranges and
iterators are made by the C core (they show in inspect_types and typing errors); building
one in Python gives a Python-only type."""
from ... import _core
from .common import SimpleIterableType, SimpleIteratorType


class RangeType(SimpleIterableType):
    """The state of ``range(...)`` of *dtype* (``range_state64_type``: int64)."""

    def _core_make(cls, dtype):
        from . import int64
        return _core.range_type() if dtype is int64 else None

    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__("range_state_%s" % (dtype,), RangeIteratorType(dtype))

    @property
    def key(self):
        return self.dtype


class RangeIteratorType(SimpleIteratorType):
    """The iterator of a range of *dtype*."""

    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__("range_iter_%s" % (dtype,), dtype)

    @property
    def key(self):
        return self.dtype


class ArrayIterator(SimpleIteratorType):
    """The iterator of an array: yields its elements (1-d) or its sub-arrays."""

    def __init__(self, array_type):
        self.array_type = array_type
        if array_type.ndim == 1:
            yield_type = array_type.dtype
        else:
            yield_type = array_type.copy(ndim=array_type.ndim - 1)
        super().__init__("iter(%s)" % (array_type,), yield_type)

    @property
    def key(self):
        return self.array_type


class EnumerateType(SimpleIteratorType):
    """``enumerate(iterable)``: yields (intp, item)."""

    def __init__(self, iterable_type, dtype):
        from .containers import Tuple
        from . import intp
        self.source_type = iterable_type.iterator_type
        super().__init__("enumerate(%s)" % (iterable_type,), Tuple((intp, dtype)))

    @property
    def key(self):
        return self.source_type


class ZipType(SimpleIteratorType):
    """``zip(*iterables)``: yields tuples of their items."""

    def __init__(self, iterable_types):
        from .containers import Tuple
        self.source_types = tuple(tp.iterator_type for tp in iterable_types)
        yield_type = Tuple([tp.yield_type for tp in self.source_types])
        super().__init__("zip(%s)" % ", ".join(str(tp) for tp in iterable_types), yield_type)

    @property
    def key(self):
        return self.source_types


class Generator(SimpleIteratorType):
    """numba's Generator: the type of a call of a compiled generator function, which yields
    *yield_type*. The C core makes these (its frame: csrc/abi/generator.h)."""

    def __init__(self, gen_func, yield_type, arg_types, state_types=(), has_finalizer=True):
        self.gen_func = gen_func
        self.arg_types = tuple(arg_types)
        self.state_types = tuple(state_types)
        self.has_finalizer = has_finalizer
        name = "%s generator(func=%s, args=%s, has_finalizer=%s)" % (
            yield_type, self.gen_func, self.arg_types, self.has_finalizer)
        super().__init__(name, yield_type)

    @property
    def key(self):
        return (self.gen_func, self.arg_types, self.yield_type, self.has_finalizer,
                self.state_types)
