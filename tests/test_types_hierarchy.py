"""cujit.types as numba's class hierarchy, compared with numba's own objects: isinstance against
every class both have, constructors, str/repr/name, equality and hashing, domains, the slicing
sugar, signatures, typeof and numpy_support. One small compilation (signatures of a
dispatcher); the rest needs none."""
import collections
import pickle

import numpy as np
import pytest

import cujit
from cujit import types
from cujit.errors import NumbaNotImplementedError, NumbaTypeError, NumbaValueError
from cujit.np import numpy_support

nt = pytest.importorskip("numba.core.types")
nnp = pytest.importorskip("numba.np.numpy_support")
import numba  # noqa: E402

Point = collections.namedtuple("Point", "x y")
# numba 0.61+ prints constructor-like reprs (Array(float32, 1, 'A', False, aligned=True));
# cujit follows those: compare reprs only with a numba that has them
NUMBA_CTOR_REPRS = repr(nt.float32[:]) != str(nt.float32[:])

# the same expression on both modules: `t` is cujit.types or numba.core.types
CASES = {
    "boolean": lambda t: t.boolean, "int8": lambda t: t.int8, "int16": lambda t: t.int16,
    "int32": lambda t: t.int32, "int64": lambda t: t.int64, "uint8": lambda t: t.uint8,
    "uint16": lambda t: t.uint16, "uint32": lambda t: t.uint32, "uint64": lambda t: t.uint64,
    "float16": lambda t: t.float16, "float32": lambda t: t.float32,
    "float64": lambda t: t.float64, "complex64": lambda t: t.complex64,
    "complex128": lambda t: t.complex128, "none": lambda t: t.none,
    "Integer": lambda t: t.Integer("int16"),
    "from_bitwidth": lambda t: t.Integer.from_bitwidth(8, False),
    "Float": lambda t: t.Float("float32"), "Complex": lambda t: t.Complex("complex128", t.float64),
    "array": lambda t: t.Array(t.float32, 2, "C"),
    "array_kw": lambda t: t.Array(dtype=t.uint8, ndim=3, layout="F"),
    "array_readonly": lambda t: t.Array(t.int16, 3, "A", readonly=True),
    "array_0d": lambda t: t.Array(t.complex128, 0, "C"),
    "array_unaligned": lambda t: t.Array(t.float64, 1, "A", aligned=False),
    "array_of_tuples": lambda t: t.Array(t.UniTuple(t.int8, 2), 1, "C"),
    "sugar_1d": lambda t: t.int64[:], "sugar_1d_c": lambda t: t.int64[::1],
    "sugar_c": lambda t: t.float32[:, ::1], "sugar_f": lambda t: t.float32[::1, :],
    "sugar_3d": lambda t: t.float64[:, :, :],
    "unituple": lambda t: t.UniTuple(t.int64, 3),
    "tuple": lambda t: t.Tuple((t.int64, t.float32)),
    "tuple_list": lambda t: t.Tuple([t.boolean, t.complex64]),
    "tuple_same": lambda t: t.Tuple((t.int8, t.int8)),
    "tuple_empty": lambda t: t.Tuple(()),
    "tuple_nested": lambda t: t.Tuple((t.float64[:], t.UniTuple(t.int32, 2))),
    "tuple_of_arrays": lambda t: t.UniTuple(t.float32[:, ::1], 2),
    "from_types": lambda t: t.BaseTuple.from_types([t.int32, t.int32]),
    "named_tuple": lambda t: t.NamedTuple((t.int64, t.float32), Point),
    "named_unituple": lambda t: t.NamedUniTuple(t.int64, 2, Point),
    "named_from_types": lambda t: t.BaseTuple.from_types([t.int32, t.float64], Point),
    "optional": lambda t: t.Optional(t.int64),
    "optional_array": lambda t: t.Optional(t.float64[:]),
    "cpointer": lambda t: t.CPointer(t.float32),
    "cpointer_addrspace": lambda t: t.CPointer(t.int8, 3),
    "voidptr": lambda t: t.voidptr,
    "pyobject": lambda t: t.pyobject,
    "omitted": lambda t: t.Omitted(3), "omitted_none": lambda t: t.Omitted(None),
    "literal_int": lambda t: t.literal(3), "literal_bool": lambda t: t.literal(True),
    "literal_str": lambda t: t.literal("abc"),
    "slice2": lambda t: t.slice2_type, "slice3": lambda t: t.slice3_type,
    "range": lambda t: t.range_state64_type, "range_iter": lambda t: t.range_iter64_type,
    "array_iter": lambda t: t.ArrayIterator(t.float64[:, :]),
    "unituple_iter": lambda t: t.UniTupleIter(t.UniTuple(t.int64, 3)),
    "flat": lambda t: t.NumpyFlatType(t.float32[:, ::1]),
    "ndenumerate": lambda t: t.NumpyNdEnumerateType(t.int32[:]),
    "ndindex": lambda t: t.NumpyNdIndexType(2),
    "dtype": lambda t: t.DType(t.float32), "number_class": lambda t: t.NumberClass(t.int64),
    "module": lambda t: t.Module(np),
    "record": lambda t: t.Record([("a", {"type": t.float64, "offset": 0}),
                                   ("b", {"type": t.int32, "offset": 8})], 16, False),
    "record_aligned": lambda t: t.Record([("x", {"type": t.int8, "offset": 0, "alignment": 1}),
                                           ("y", {"type": t.float64, "offset": 8,
                                                  "alignment": 8})], 16, True),
}
# the types cujit's compiler knows, backed by an interned C type
COMPILABLE = {
    "boolean", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "none", "optional",
    "optional_array", "Integer",
    "from_bitwidth", "Float", "Complex", "array", "array_kw", "array_readonly", "array_0d",
    "sugar_1d", "sugar_1d_c", "sugar_c", "sugar_f", "sugar_3d", "unituple", "tuple",
    "tuple_list", "tuple_same", "tuple_empty", "tuple_nested", "tuple_of_arrays", "from_types",
    "omitted", "omitted_none", "literal_str", "slice2", "slice3", "range", "number_class",
    "module", "cpointer", "voidptr",
}
HIERARCHY = sorted(name for name in dir(nt) if isinstance(getattr(nt, name), type) and
                   issubclass(getattr(nt, name), nt.Type) and hasattr(types, name))


def _own_classes(obj, prefix):
    return [c.__name__ for c in type(obj).__mro__
            if c.__module__.startswith(prefix) and not c.__name__.startswith("_")]


# strings and containers: the compiler's own (unicode_type, intp) and the Python-made ones
# (a list or dict type made in Python is Python-only; the core makes its own under the names)
CASES.update({
    "unicode": lambda t: t.unicode_type, "unicode_iter": lambda t: t.UnicodeIteratorType(
        t.unicode_type), "intp": lambda t: t.intp, "uintp": lambda t: t.uintp,
    "ellipsis": lambda t: t.ellipsis, "list": lambda t: t.List(t.float64),
    "reflected_list": lambda t: t.List(t.int64, reflected=True),
    "list_type": lambda t: t.ListType(t.int64), "list_type_f": lambda t: t.ListType(t.float32),
    "dict_type": lambda t: t.DictType(t.int64, t.float64),
})
COMPILABLE |= {"unicode", "intp", "uintp"}


def test_the_hierarchy_has_numbas_classes():
    for name in ["Type", "Number", "Integer", "Float", "Complex", "Boolean", "NoneType",
                 "Optional", "Array", "Buffer", "Tuple", "UniTuple", "NamedTuple", "Record",
                 "CPointer", "Literal", "IntegerLiteral", "StringLiteral", "Function",
                 "Dispatcher", "DType", "NumberClass", "Omitted", "BaseTuple", "RawPointer",
                 "SliceType", "RangeType", "IteratorType", "ArrayCompatible", "Opaque"]:
        assert name in HIERARCHY, name
        assert issubclass(getattr(types, name), types.Type)


@pytest.mark.parametrize("case", sorted(CASES))
def test_type_against_numba(case):
    ours, theirs = CASES[case](types), CASES[case](nt)
    assert type(ours).__name__ == type(theirs).__name__
    assert _own_classes(ours, "cujit.core.types") == _own_classes(theirs, "numba.core.types")
    for name in HIERARCHY:
        assert isinstance(ours, getattr(types, name)) == isinstance(theirs, getattr(nt, name)), \
            name
    assert str(ours) == str(theirs)
    assert repr(ours) == repr(theirs) or not NUMBA_CTOR_REPRS
    assert ours.name == theirs.name
    assert ours._compilable == (case in COMPILABLE)


@pytest.mark.parametrize("case", sorted(CASES))
def test_equality_hash_and_interning(case):
    a, b = CASES[case](types), CASES[case](types)
    assert a == b and not (a != b) and hash(a) == hash(b)
    assert a is b  # one object per type, as numba's interning
    assert a != types.int8 or case in ("int8",)
    if case != "module":  # modules do not pickle
        back = pickle.loads(pickle.dumps(a))
        # the C core keys compile-time objects by identity: an unpickled copy of the string
        # is another object, so another (equal) type
        assert back == a and (back is a or case == "literal_str")


def test_attributes_match_numba():
    for case in ("array", "array_readonly", "sugar_f", "array_0d"):
        ours, theirs = CASES[case](types), CASES[case](nt)
        assert (str(ours.dtype), ours.ndim, ours.layout, ours.mutable, ours.aligned) == \
            (str(theirs.dtype), theirs.ndim, theirs.layout, theirs.mutable, theirs.aligned)
        assert (ours.is_c_contig, ours.is_f_contig, ours.is_contig) == \
            (theirs.is_c_contig, theirs.is_f_contig, theirs.is_contig)
        assert str(ours.copy(layout="A")) == str(theirs.copy(layout="A"))
        assert str(ours.key) == str(theirs.key)
    for name in ("int8", "uint32", "int64"):
        ours, theirs = getattr(types, name), getattr(nt, name)
        assert (ours.bitwidth, ours.signed, ours.minval, ours.maxval) == \
            (theirs.bitwidth, theirs.signed, theirs.minval, theirs.maxval)
    assert types.float16.bitwidth == 16 and types.complex64.underlying_float is types.float32
    tup = types.Tuple((types.int64, types.float32))
    assert tup.types == (types.int64, types.float32) and tup.count == len(tup) == 2
    assert tup[1] is types.float32 and list(tup) == [types.int64, types.float32]
    uni = types.UniTuple(types.int8, 3)
    assert (uni.dtype, uni.count, uni.types, len(uni)) == (types.int8, 3, (types.int8,) * 3, 3)
    assert types.Optional(types.int64).type is types.int64
    assert types.CPointer(types.float32).dtype is types.float32
    assert types.literal(7).literal_value == 7 and types.literal(7).literal_type is types.int64
    assert types.unliteral(types.literal(7)) is types.int64
    assert types.Omitted(3).value == 3
    assert types.NumberClass(types.int64).instance_type is types.int64
    assert types.DType(types.float32).dtype is types.float32
    assert types.slice3_type.has_step and not types.slice2_type.has_step
    assert types.ArrayIterator(types.float64[:, :]).yield_type is types.float64[:]
    assert types.range_state64_type.iterator_type == types.range_iter64_type
    assert types.int8 < types.int16 and types.float32 < types.float64
    assert types.Array(types.float32, 2, "C") is types.float32[:, ::1]
    assert repr(types.float32[:, ::1]) == "Array(float32, 2, 'C', False, aligned=True)"
    assert repr(types.UniTuple(types.int64, 3)) == "UniTuple(int64, 3)"
    assert repr(types.Tuple((types.int64, types.float32))) == "Tuple((int64, float32))"
    assert str(types.Tuple((types.int64, types.float32))) == "Tuple(int64, float32)"
    assert types.Tuple((types.int8, types.int8)) is types.UniTuple(types.int8, 2)


def test_instances_and_aliases_match_numba():
    names = [n for n in nt.__all__ if n not in ("ffi", "ffi_forced_object", "deferred_type")]
    names += ["voidptr", "pyobject", "slice2_type", "slice3_type", "range_state64_type",
              "range_iter64_type", "np_float64", "py_int", "c_uint8", "np_intp"]
    for name in names:
        if name == "void":
            continue  # cujit's void is a NoneType of its own (see below)
        ours, theirs = getattr(types, name), getattr(nt, name)
        if isinstance(theirs, type):
            assert ours is getattr(types, name.capitalize(), ours), name  # `optional`
            continue
        assert str(ours) == str(theirs) and type(ours).__name__ == type(theirs).__name__, name
    assert types.float_ is types.float32  # numba's name under NumPy < 2, kept
    assert isinstance(types.void, types.NoneType) and str(types.void) == "void"


@pytest.mark.parametrize("domain", ["signed_domain", "unsigned_domain", "integer_domain",
                                    "real_domain", "complex_domain", "number_domain",
                                    "np_integer_domain", "py_number_domain"])
def test_domains(domain):
    ours, theirs = getattr(types, domain), getattr(nt, domain)
    assert isinstance(ours, frozenset)
    assert sorted(map(str, ours)) == sorted(map(str, theirs))
    assert all(t._compilable for t in ours)
    assert types.int32 in types.integer_domain and types.float32 not in types.integer_domain


@pytest.mark.parametrize("spec", [(slice(None),), (slice(None, None, 1),),
                                  (slice(None), slice(None, None, 1)),
                                  (slice(None, None, 1), slice(None)),
                                  (slice(None),) * 4])
def test_slicing_sugar(spec):
    key = spec if len(spec) > 1 else spec[0]
    for dtype in ("int8", "float32", "complex128", "boolean"):
        ours, theirs = getattr(types, dtype)[key], getattr(nt, dtype)[key]
        assert isinstance(ours, types.Array) and ours._compilable
        assert str(ours) == str(theirs)
        assert repr(ours) == repr(theirs) or not NUMBA_CTOR_REPRS


def test_slicing_sugar_rejects():
    for key in [slice(1, 2), 0, (slice(None, None, 1),) * 2, (slice(None), slice(None, None, 1),
                                                               slice(None)), ()]:
        with pytest.raises(TypeError):
            types.float32[key]


def test_constructor_errors_are_numbas():
    with pytest.raises(NumbaValueError, match="Invalid layout 'X'"):
        types.Array(types.float32, 2, "X")
    with pytest.raises(NumbaTypeError, match="cannot itself be a Buffer type"):
        types.Array(types.float32[:], 1, "C")
    with pytest.raises(ValueError):  # NumbaValueError is a ValueError too
        types.Array(types.int8, 1, "Z")
    with pytest.raises(TypeError, match="Cannot be constructed directly"):
        types.Literal(3)
    with pytest.raises(TypeError):
        types.Optional(types.none)
    with pytest.raises(TypeError, match="Int value is too large: 18446744073709551616"):
        types.literal(2**64)
    assert types.literal(2**63).literal_type is types.uint64


def test_signatures_by_calling_a_type():
    sig = types.float64(types.int64, types.float32[:, ::1])
    theirs = nt.float64(nt.int64, nt.float32[:, ::1])
    assert sig.return_type is types.float64 and str(sig.return_type) == str(theirs.return_type)
    assert [str(a) for a in sig.args] == [str(a) for a in theirs.args]
    assert isinstance(sig.args[1], types.Array)
    assert str(types.void(types.int32[:])) == "void(array(int32, 1d, A))"
    assert types.none() == types.none()
    with pytest.raises(TypeError, match="takes types to make a signature"):
        types.float64(types.int64, 3)


@pytest.mark.parametrize("name,value", [("int8", 3), ("uint16", 7), ("float32", 1.5),
                                        ("complex64", 1 + 2j), ("boolean", 2),
                                        ("float64", "2.5")])
def test_cast_python_value(name, value):
    ours, theirs = getattr(types, name)(value), getattr(nt, name)(value)
    assert type(ours) is type(theirs) and ours == theirs


@pytest.mark.parametrize("value", [
    1, 2**63, 1.5, 1j, True, None, np.float32(1), np.uint16(3), np.complex64(1), (1, 2),
    (1, 2.0), ((1, 2), 3.0), np.zeros(3), np.zeros((2, 3), order="F"), np.zeros((4, 4))[:, ::2],
    np.zeros(3, np.int8), np.zeros((), np.float32), (np.zeros(2), 1),
])
def test_typeof_against_numba(value):
    ours, theirs = cujit.typeof(value), numba.typeof(value)
    assert type(ours).__name__ == type(theirs).__name__
    assert str(ours) == str(theirs)
    assert repr(ours) == repr(theirs) or not NUMBA_CTOR_REPRS
    for name in HIERARCHY:
        assert isinstance(ours, getattr(types, name)) == isinstance(theirs, getattr(nt, name))
    assert ours._compilable and ours is cujit.typeof(value)


def test_typeof_readonly_array():
    a = np.zeros(3)
    a.setflags(write=False)
    t = cujit.typeof(a)
    assert isinstance(t, types.Array) and not t.mutable
    assert repr(t) == "Array(float64, 1, 'C', True, aligned=True)"
    assert str(t) == str(numba.typeof(a)) and t is types.Array(types.float64, 1, "C", True)


DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_support(dtype):
    ours, theirs = numpy_support.from_dtype(np.dtype(dtype)), nnp.from_dtype(np.dtype(dtype))
    assert str(ours) == str(theirs) and ours._compilable
    assert numpy_support.from_dtype(np.dtype(dtype).type) is ours
    assert cujit.from_dtype(np.dtype(dtype)) is ours  # numba.from_dtype
    assert numpy_support.as_dtype(ours) == nnp.as_dtype(theirs) == np.dtype(dtype)


def test_numpy_support_records_and_errors():
    dt = np.dtype([("a", np.float64), ("b", np.int32)], align=True)
    ours, theirs = numpy_support.from_dtype(dt), nnp.from_dtype(dt)
    assert isinstance(ours, types.Record) and str(ours) == str(theirs)
    assert numpy_support.as_dtype(ours) == dt and ours.members == [("a", types.float64),
                                                                 ("b", types.int32)]
    assert ours.offset("b") == 8 and ours.typeof("a") is types.float64 and len(ours) == 2
    made = types.Record.make_c_struct([("a", types.int8), ("b", types.float64)])
    assert str(made) == str(nt.Record.make_c_struct([("a", nt.int8), ("b", nt.float64)]))
    with pytest.raises(NumbaNotImplementedError):
        numpy_support.from_dtype(np.dtype("U3"))
    with pytest.raises(NumbaNotImplementedError, match="cannot be represented"):
        numpy_support.as_dtype(types.float64[:])
    with pytest.raises(NotImplementedError):  # NumbaNotImplementedError is one too
        numpy_support.as_dtype(types.CPointer(types.int8))


class Interval(types.Type):
    """A user's type, as numba's extending tutorial makes one."""

    def __init__(self):
        super().__init__(name="Interval")


def test_user_subclass_is_a_type():
    t = Interval()
    assert t is Interval() and t == Interval() and hash(t) == hash(Interval())
    assert isinstance(t, types.Type) and not isinstance(t, types.Number)
    assert str(t) == repr(t) == "Interval" and not t.is_internal and types.int64.is_internal
    assert t != types.int64 and not t._compilable
    assert pickle.loads(pickle.dumps(t)) is t
    with pytest.raises(TypeError, match="abstract"):
        type("Half", (types.IterableType,), {})()


@pytest.mark.parametrize("make", [lambda: types.Optional(types.Dispatcher(add)),
                                  lambda: types.CPointer(types.int8, 3),
                                  lambda: CASES["record"](types), lambda: Interval(),
                                  lambda: types.literal(3), lambda: types.DType(types.int8),
                                  lambda: types.NamedTuple((types.int8, types.float32), Point),
                                  lambda: types.Array(types.float64, 1, "A", aligned=False)])
def test_unsupported_types_raise_naming_the_type(make):
    t = make()
    with pytest.raises(cujit.UnsupportedError, match="not supported by cujit's compiler"):
        types.void(t)
    with pytest.raises(cujit.UnsupportedError, match=str(t).replace("(", r"\(")
                       .replace(")", r"\)").replace("[", r"\[").replace("*", r"\*")):
        cujit.njit((types.int64, t))(lambda a, b: a)
    with pytest.raises(cujit.UnsupportedError):
        cujit.njit(types.int64(t))(lambda a: 1)
    with pytest.raises(cujit.UnsupportedError):  # inside a tuple: the tuple is Python-only
        cujit.njit((types.UniTuple(t, 2),))(lambda a: 1)


def test_unsupported_type_in_signature_string():
    with pytest.raises(cujit.UnsupportedError, match=r"int8_3\* \(CPointer\)"):
        cujit.njit("void(CPointer(int8, 3))")(lambda p: None)
    # a pointer compiles (jitted callers pass one), but no Python value converts to it
    f = cujit.njit("void(CPointer(float32))")(lambda p: None)
    assert [str(t) for t in f.signatures[0]] == ["float32*"]
    with pytest.raises(TypeError, match="No matching definition"):
        f(1)


def _add(a, b):
    return a[0] + b


add = cujit.njit(_add)


def test_dispatcher_signatures_are_hierarchy_objects():
    add(np.zeros(3), 1)
    (arr, num), = add.signatures
    assert isinstance(arr, types.Array) and arr is types.float64[::1] and num is types.int64
    sig = add.nopython_signatures[0]
    assert isinstance(sig.return_type, types.Float) and sig.return_type is types.float64
    assert add.signatures == [(types.Array(types.float64, 1, "C"), types.int64)]
    import io
    out = io.StringIO()
    add.inspect_types(file=out)  # numba's header: the name and the reprs of the arguments
    assert out.getvalue().splitlines()[0] == \
        "_add (Array(float64, 1, 'C', False, aligned=True), int64)"


def test_core_types_is_types():
    import cujit.core.types
    assert cujit.core.types is types and cujit.types is types
    assert cujit.float32 is types.float32 and cujit.typeof is not None


OPTIONAL_F64 = types.Optional(types.float64)


def _objmode_optional(x):
    with cujit.objmode(y=OPTIONAL_F64):
        y = x
    return y


def test_optional_objmode_output():
    f = cujit.njit(_objmode_optional)
    assert f(1.5) == 1.5 and type(f(1.5)) is float
    assert f(None) is None  # an Optional output takes None (numba's)
    assert f.nopython_signatures[0].return_type is OPTIONAL_F64


def test_object_types():
    import math
    d = types.Dispatcher(add)
    assert type(d) is types.Dispatcher and d.dispatcher is add and d._compilable
    assert str(d) == f"type({add})" and d is types.Dispatcher(add)
    fn = types.Function(math.sqrt)
    assert fn.key is math.sqrt and str(fn) == f"Function({math.sqrt!r})" and fn._compilable
    assert types.Module(math).pymod is math
    assert types.NumberClass(types.float32).dtype is types.float32
    with pytest.raises(NotImplementedError, match="no typing templates: get_call_type is not"):
        fn.get_call_type(None, (types.float64,), {})
