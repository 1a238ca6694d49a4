"""cujit's types as numba's class hierarchy (numba.core.types; also ``cujit.types``).

``isinstance(t, types.Array)``, ``types.Array(types.float32, 2, 'C')``, ``float32[:, ::1]``,
``types.UniTuple(types.int64, 3)``, ``t.dtype``/``t.ndim``/``t.layout``, ``float64(int32)`` (a
signature), ``cujit.typeof(value)``. A type the compiler knows is one object backed by an
interned C type (made once by the C core, see abstract.py); Optional, CPointer, Record, named
tuples and users' subclasses of ``Type`` are Python-only: compiling with them raises
UnsupportedError naming the type.
"""
import types as _pytypes

import numpy as _np

from ... import _core
from .abstract import (ArrayCompatible, Callable, ConstSized, Container, DTypeSpec, Dummy,
                       Hashable, IterableType, IteratorType, Literal, MutableSequence, Number,
                       Sequence, Sized, Type, TypeRef)
from .common import Buffer, Opaque, SimpleIterableType, SimpleIteratorType
from .containers import (BaseAnonymousTuple, BaseContainerIterator, BaseNamedTuple, BaseTuple,
                         DictIteratorType, DictType, List, ListType, NamedTuple,
                         NamedUniTuple, Set, SetIter, Tuple, UnionType, UniTuple,
                         UniTupleIter, is_homogeneous)
from .functions import BoundFunction, Dispatcher, Function, NumberClass
from .iterators import (ArrayIterator, EnumerateType, Generator, RangeIteratorType, RangeType,
                        ZipType)
from .misc import (CPointer, EllipsisType, Module, NoneType, Omitted, Optional, PyObject,
                   RawPointer, SliceType, StringLiteral, UnicodeIteratorType, UnicodeType,
                   VarArg, literal, maybe_literal, unliteral)
from .npytypes import (Array, DType, NumpyFlatType, NumpyNdEnumerateType, NumpyNdIndexType,
                       Record)
from .scalars import BooleanLiteral, Boolean, Complex, Float, Integer, IntegerLiteral

from .abstract import InitialValue  # noqa: E402,F401 (numba's mixin: List, DictType)

Signature = _core.Signature


def _object_class(obj):
    """The class of a compile-time object's type, and its constructor arguments."""
    if isinstance(obj, _pytypes.ModuleType):
        return Module, (obj,)
    if type(obj) is str:
        return StringLiteral, (obj,)
    if isinstance(obj, Number):
        return NumberClass, (obj,)
    if isinstance(obj, type) and issubclass(obj, _np.generic):
        try:
            return NumberClass, (_core.typeof(_np.empty(0, obj)).dtype,)
        except TypeError:
            pass
    if type(obj).__module__.startswith("cujit") and hasattr(obj, "py_func"):
        return Dispatcher, (obj,)
    return Function, (obj,)


def _iterator_class(kind, yield_type, source, inner):
    if kind == "range":
        return RangeIteratorType, (int64,)
    if kind == "enumerate":
        return EnumerateType, (inner[0], yield_type.types[1])
    if kind == "zip":
        return ZipType, (inner,)
    if kind == "ndindex":
        return NumpyNdIndexType, (len(source),)
    if kind == "unicode":
        return UnicodeIteratorType, (source,)
    if kind.startswith("dict_"):
        return DictIteratorType, (source, kind[5:])
    if kind == "list":
        return BaseContainerIterator, (source,)
    if kind == "set":
        return SetIter, (source,)
    if kind == "generator":  # iter(generator) is the generator
        return type(source), (source.gen_func, source.yield_type, source.arg_types)
    cls = {"array": ArrayIterator, "tuple": UniTupleIter, "flat": NumpyFlatType,
           "ndenumerate": NumpyNdEnumerateType}[kind]
    return cls, (source,)


def _from_core(kind, fields):
    """For the C core (csrc/types/pyclass.c): the class of a C type of `kind` and the
    arguments of its constructor, from the type's fields."""
    if kind in ("none", "void"):
        return NoneType, (kind,)
    if kind == "bool":
        return Boolean, ("bool",)
    if kind == "unicode":
        return UnicodeType, ("unicode_type",)
    if kind == "int":
        bits, signed = fields
        return Integer, (("int%d" if signed else "uint%d") % bits,)
    if kind == "float":
        return Float, ("float%d" % fields[0],)
    if kind == "complex":
        return Complex, ("complex%d" % fields[0], _core.type_by_name("float%d" % (fields[0] // 2)))
    if kind == "array":
        return Array, fields
    if kind == "tuple":
        items = fields[0]
        if items and is_homogeneous(*items):
            return UniTuple, (items[0], len(items))
        return Tuple, (items,)
    if kind == "slice":
        return SliceType, ("slice<a:b:c>" if fields[0] == 3 else "slice<a:b>", fields[0])
    if kind == "range":
        return RangeType, (int64,)
    if kind == "iter":
        return _iterator_class(*fields)
    if kind == "omitted":
        return Omitted, fields
    if kind == "object":
        return _object_class(fields[0])
    if kind == "bound":
        return BoundFunction, fields
    if kind == "list":
        dtype, reflected, core_name = fields
        if reflected == 2:  # a cujit.typed.List
            return ListType, (dtype, core_name)
        return List, (dtype, bool(reflected), None, core_name)
    if kind == "optional":
        return Optional, fields
    if kind == "record":
        return Record, _record_args(*fields)
    if kind == "set":
        dtype, reflected, core_name = fields
        return Set, (dtype, bool(reflected), core_name)
    if kind == "dict":
        keyty, valty, core_name = fields
        return DictType, (keyty, valty, None, core_name)
    if kind == "cpointer":
        return (RawPointer, ("void*",)) if fields[0] is None else (CPointer, fields)
    if kind == "generator":
        return Generator, fields
    raise TypeError(f"cujit.types has no class for C types of kind {kind!r}")


def _record_args(dtype, core_name):
    """Record's constructor arguments for a structured dtype the C core has a type for; an
    array field's type is the array its field access gives (numba's NestedArray)."""
    from ...np.numpy_support import from_dtype  # noqa: F811 (cujit.np, imported late)
    fields = []
    for name, info in dtype.fields.items():
        elem, offset = info[:2]
        if elem.subdtype is not None:
            base, shape = elem.subdtype
            field_type = Array(from_dtype(base), len(shape), "C")
        else:
            field_type = from_dtype(elem)
        fields.append((name, {"type": field_type, "offset": offset,
                              "title": info[2] if len(info) == 3 else None}))
    return fields, dtype.itemsize, dtype.isalignedstruct, dtype, core_name


_core.register_type_factory(_from_core)


def typeof(value):
    """The cujit type of a Python value (as numba.typeof): an instance of this module's
    classes, ``isinstance(typeof(np.zeros(3)), Array)``."""
    return _core.typeof(value)


# ---- the instances (numba.core.types' names) ----
pyobject = PyObject("pyobject")
none = NoneType("none")
void = NoneType("void")  # cujit: kernels' return type, a type of its own (numba: void is none)
ellipsis = EllipsisType("...")
unicode_type = UnicodeType("unicode_type")
voidptr = RawPointer("void*")
optional = Optional
slice2_type = SliceType("slice<a:b>", 2)
slice3_type = SliceType("slice<a:b:c>", 3)

boolean = bool_ = b1 = Boolean("bool")
bool = boolean  # numba's name under NumPy 2 (signature strings take `bool` too)  # noqa: A001

uint8 = Integer("uint8")
uint16 = Integer("uint16")
uint32 = Integer("uint32")
uint64 = Integer("uint64")
int8 = Integer("int8")
int16 = Integer("int16")
int32 = Integer("int32")
int64 = Integer("int64")
intp = ssize_t = int64
uintp = size_t = uint64
intc = int32
uintc = uint32

float16 = Float("float16")
float32 = Float("float32")
float64 = Float("float64")
complex64 = Complex("complex64", float32)
complex128 = Complex("complex128", float64)

range_state64_type = RangeType(int64)
range_iter64_type = RangeIteratorType(int64)

signed_domain = frozenset([int8, int16, int32, int64])
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset([float32, float64])
complex_domain = frozenset([complex64, complex128])
number_domain = real_domain | integer_domain | complex_domain

# NumPy and C names (numba's)
i1, i2, i4, i8 = int8, int16, int32, int64
u1, u2, u4, u8 = uint8, uint16, uint32, uint64
f2, f4, f8 = float16, float32, float64
c8, c16 = complex64, complex128
float_ = float32  # numba's under NumPy < 2
double = float64
char = int8
uchar = byte = uint8
short, ushort = int16, uint16
int_, uint = intp, uintp
long_, ulong = int64, uint64
longlong, ulonglong = int64, uint64
c_bool = py_bool = np_bool_ = boolean
c_uint8 = np_uint8 = uint8
c_uint16 = np_uint16 = uint16
c_uint32 = np_uint32 = uint32
c_uint64 = np_uint64 = uint64
c_uintp = np_uintp = uintp
c_int8 = np_int8 = int8
c_int16 = np_int16 = int16
c_int32 = np_int32 = int32
c_int64 = np_int64 = int64
c_intp = py_int = np_intp = intp
c_float16 = np_float16 = float16
c_float32 = np_float32 = float32
c_float64 = py_float = np_float64 = float64
np_complex64 = complex64
py_complex = np_complex128 = complex128
py_signed_domain = np_signed_domain = signed_domain
np_unsigned_domain = unsigned_domain
py_integer_domain = np_integer_domain = integer_domain
py_real_domain = np_real_domain = real_domain
py_complex_domain = np_complex_domain = complex_domain
py_number_domain = np_number_domain = number_domain

# numba.core.types' __all__ (the instances `from numba.types import *` gives), with cujit's
# long-standing extras
__all__ = """int8 int16 int32 int64 uint8 uint16 uint32 uint64 intp uintp intc uintc ssize_t
size_t boolean float16 float32 float64 complex64 complex128 bool_ byte char uchar short ushort
int_ uint long_ ulong longlong ulonglong float_ double void none b1 i1 i2 i4 i8 u1 u2 u4 u8 f2
f4 f8 c8 c16 optional bool UniTuple Tuple Array typeof unicode_type""".split()
