"""Number types, as numba.core.types.scalars: Boolean, Integer, Float, Complex and the integer
and boolean literals. The ones the compiler has (bool, int8..uint64, float16..complex128) are
made by the C core: ``Integer('int32') is types.int32``."""
from functools import total_ordering

import numpy as np

from ... import _core
from .abstract import Hashable, Literal, Number


def _core_scalar(cls, name):
    """The C core's scalar type called `name` when it is of class `cls`, else None."""
    try:
        t = _core.type_by_name(name)
    except (KeyError, TypeError):
        return None
    return t if type(t) is cls and t.name == name else None


class Boolean(Hashable):
    """The type of booleans (``types.boolean``, named ``bool``)."""

    def _core_make(cls, name):
        return _core_scalar(cls, name)

    def cast_python_value(self, value):
        return bool(value)


def parse_integer_bitwidth(name):
    for prefix in ("int", "uint"):
        if name.startswith(prefix):
            return int(name[len(prefix):])


def parse_integer_signed(name):
    return name.startswith("int")


@total_ordering
class Integer(Number):
    """Integer types: ``Integer('int32')``, ``Integer.from_bitwidth(16, signed=False)``."""

    def _core_make(cls, name, bitwidth=None, signed=None):
        t = _core_scalar(cls, name)
        if t is None or bitwidth not in (None, t.bitwidth) or signed not in (None, t.signed):
            return None
        return t

    def __init__(self, name, bitwidth=None, signed=None):
        super().__init__(name)
        self.bitwidth = parse_integer_bitwidth(name) if bitwidth is None else bitwidth
        self.signed = parse_integer_signed(name) if signed is None else signed

    @classmethod
    def from_bitwidth(cls, bitwidth, signed=True):
        return cls(("int%d" if signed else "uint%d") % bitwidth)

    def cast_python_value(self, value):
        return getattr(np, self.name)(value)

    def __lt__(self, other):
        if self.__class__ is not other.__class__ or self.signed != other.signed:
            return NotImplemented
        return self.bitwidth < other.bitwidth

    @property
    def maxval(self):
        """The largest value of the type."""
        return (1 << (self.bitwidth - 1)) - 1 if self.signed else (1 << self.bitwidth) - 1

    @property
    def minval(self):
        """The smallest value of the type."""
        return -(1 << (self.bitwidth - 1)) if self.signed else 0


class IntegerLiteral(Literal, Integer):
    """``literal(3)``: Literal[int](3). The compiler types integer constants itself; this
    type is not one it takes in a signature."""

    def __init__(self, value):
        self._literal_init(value)
        basetype = self.literal_type
        Integer.__init__(self, name="Literal[int]({})".format(value),
                         bitwidth=basetype.bitwidth, signed=basetype.signed)


Literal.ctor_map[int] = IntegerLiteral


class BooleanLiteral(Literal, Boolean):
    """``literal(True)``: Literal[bool](True)."""

    def __init__(self, value):
        self._literal_init(value)
        Boolean.__init__(self, name="Literal[bool]({})".format(value))


Literal.ctor_map[bool] = BooleanLiteral


@total_ordering
class Float(Number):
    """Floating-point types: float16, float32, float64."""

    def _core_make(cls, name):
        return _core_scalar(cls, name)

    def __init__(self, *args, **kws):
        super().__init__(*args, **kws)
        assert self.name.startswith("float")
        self.bitwidth = int(self.name[5:])

    def cast_python_value(self, value):
        return getattr(np, self.name)(value)

    def __lt__(self, other):
        if self.__class__ is not other.__class__:
            return NotImplemented
        return self.bitwidth < other.bitwidth


@total_ordering
class Complex(Number):
    """Complex types: complex64 (of float32), complex128 (of float64)."""

    def _core_make(cls, name, underlying_float, **kwargs):
        return None if kwargs else _core_scalar(cls, name)

    def __init__(self, name, underlying_float, **kwargs):
        super().__init__(name, **kwargs)
        self.underlying_float = underlying_float
        assert self.name.startswith("complex")
        self.bitwidth = int(self.name[7:])

    def cast_python_value(self, value):
        return getattr(np, self.name)(value)

    def __lt__(self, other):
        if self.__class__ is not other.__class__:
            return NotImplemented
        return self.bitwidth < other.bitwidth
