"""cujit's types under numba's names: ``from cujit import float32, int64, void``."""
from . import _core

_SCALARS = [
    "boolean", "bool_", "b1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "intp", "uintp", "intc", "uintc", "byte", "char", "short", "int_", "longlong",
    "ulonglong", "float16", "float32", "float64", "double", "f2", "f4", "f8", "i1", "i2",
    "i4", "i8", "u1", "u2", "u4", "u8", "complex64", "complex128", "c8",
    "c16", "none", "void",
]

for _name in _SCALARS:
    globals()[_name] = _core.type_by_name(_name)
# numba's float_ is float32 and its int_ is intp
float_ = _core.type_by_name("float32")
Type = _core.Type
Signature = _core.Signature
typeof = _core.typeof


def UniTuple(dtype, count):
    """A homogeneous tuple type, as numba's ``types.UniTuple(int64, 3)``."""
    return _core.tuple_type((dtype,) * count)


def Tuple(items):
    """A tuple type of the given item types, as numba's ``types.Tuple((int64, float64))``."""
    return _core.tuple_type(tuple(items))


def Array(dtype, ndim, layout, readonly=False):
    """An array type, as numba's ``types.Array(float64, 2, 'C')``."""
    return _core.array_type(dtype, ndim, layout, readonly)


__all__ = [n for n in _SCALARS] + ["float_", "UniTuple", "Tuple", "Array", "typeof"]
