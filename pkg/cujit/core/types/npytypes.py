"""NumPy types, as numba.core.types.npytypes: Array, Record, DType and the array iterators.
Arrays of numbers are made by the C core (``Array(float32, 2, 'C') is float32[:, ::1]``);
other arrays, records and dtypes are Python-only for now."""
import collections

from ... import _core
from .abstract import DTypeSpec, MutableSequence, Type
from .common import Buffer, Opaque, SimpleIteratorType, _check_buffer_args


class Array(Buffer):
    """A NumPy array type: ``Array(float64, 2, 'C')``, ``Array(int8, 1, 'A', readonly=True)``;
    ``float64[:, ::1]`` spells the first. ``dtype``, ``ndim``, ``layout`` ('C', 'F' or 'A'),
    ``mutable``, ``aligned``. cujit makes 0-d and 1-d 'F' arrays 'C' (one layout for one
    memory order)."""

    def _core_make(cls, dtype, ndim, layout, readonly=False, name=None, aligned=True):
        _check_buffer_args(dtype, layout)
        if name is not None or not aligned or type(ndim) is not int or len(layout) != 1:
            return None
        return _core.array_type(dtype, ndim, layout, bool(readonly))

    def __init__(self, dtype, ndim, layout, readonly=False, name=None, aligned=True):
        if readonly:
            self.mutable = False
        if not aligned or (isinstance(dtype, Record) and not dtype.aligned):
            self.aligned = False
        if name is None:
            type_name = "array"
            if not self.mutable:
                type_name = "readonly " + type_name
            if not self.aligned:
                type_name = "unaligned " + type_name
            name = "%s(%s, %sd, %s)" % (type_name, dtype, ndim, layout)
        super().__init__(dtype, ndim, layout, name=name)

    @property
    def mangling_args(self):
        return self.__class__.__name__, [self.dtype, self.ndim, self.layout,
                                         "mutable" if self.mutable else "readonly",
                                         "aligned" if self.aligned else "unaligned"]

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        return Array(dtype=self.dtype if dtype is None else dtype,
                     ndim=self.ndim if ndim is None else ndim,
                     layout=self.layout if layout is None else layout,
                     readonly=not self.mutable if readonly is None else readonly,
                     aligned=self.aligned)

    @property
    def key(self):
        return self.dtype, self.ndim, self.layout, self.mutable, self.aligned

    def is_precise(self):
        return self.dtype.is_precise()

    @property
    def box_type(self):
        """The Python type an array of this type boxes to."""
        import numpy as np
        return np.ndarray

    def __repr__(self):
        return (f"Array({self.dtype!r}, {self.ndim}, '{self.layout}', "
                f"{not self.mutable}, aligned={self.aligned})")


_RecordField = collections.namedtuple("_RecordField", "type,offset,alignment,title")


class Record(Type):
    """A NumPy structured dtype: *fields* is a list of ``(name, {'type': t, 'offset': n,
    ['alignment': n], ['title': s]})``, *size* the record's size in bytes. The compiler's records (numbers, nested records and
    fixed-size arrays as fields: csrc/types/record.c) are instances made by the core; others
    (string fields...) are Python-only, and a signature with one raises UnsupportedError."""

    mutable = True

    def __init__(self, fields, size, aligned, numpy_dtype=None, core_name=None):
        # the compiler's records keep the dtype they came from and the core's name (numba's,
        # nestedarray fields included)
        self._numpy_dtype = numpy_dtype
        fields = self._normalize_fields(fields)
        self.fields = dict(fields)
        self.size = size
        self.aligned = aligned
        desc = []
        for k, infos in fields:
            extra = ""
            if infos.alignment is not None:
                extra += ";alignment={}".format(infos.alignment)
            elif infos.title is not None:
                extra += ";title={}".format(infos.title)
            desc.append("{}[type={};offset={}{}]".format(k, infos.type, infos.offset, extra))
        super().__init__(core_name or "Record({};{};{})".format(",".join(desc), self.size,
                                                                self.aligned))
        self.bitwidth = self.dtype.itemsize * 8

    @classmethod
    def _normalize_fields(cls, fields):
        return [(name, _RecordField(type=infos["type"], offset=infos["offset"],
                                    alignment=infos.get("alignment"), title=infos.get("title")))
                for name, infos in sorted(fields, key=lambda x: (x[1]["offset"], x[0]))]

    @classmethod
    def make_c_struct(cls, name_types):
        """A record laid out as a C struct of the (name, number type) pairs."""
        from ...np.numpy_support import as_dtype
        from .abstract import Number
        from .scalars import Complex
        offset, fields, max_align = 0, [], 1
        for k, ty in name_types:
            if not isinstance(ty, Number):
                raise TypeError("Only Number and NestedArray types are supported, "
                                "found: {}. ".format(ty))
            size = as_dtype(ty).itemsize
            align = size // 2 if isinstance(ty, Complex) else size  # C's natural alignment
            offset += -offset % align
            fields.append((k, {"type": ty, "offset": offset, "alignment": align}))
            offset += size
            max_align = max(max_align, align)
        return Record(fields, size=offset + -offset % max_align, aligned=True)

    @property
    def key(self):
        return self.name

    def __len__(self):
        return len(self.fields)

    def offset(self, key):
        """The byte offset of a field."""
        return self.fields[key].offset

    def typeof(self, key):
        """The type of a field."""
        return self.fields[key].type

    def alignof(self, key):
        """The alignment given for a field, or None."""
        return self.fields[key].alignment

    def has_titles(self):
        return any(fd.title is not None for fd in self.fields.values())

    def is_title(self, key):
        return self.fields[key].title == key

    @property
    def members(self):
        """The (name, type) of the fields, in offset order."""
        ordered = sorted(self.fields.items(), key=lambda x: x[1].offset)
        return [(k, v.type) for k, v in ordered]

    @property
    def dtype(self):
        """The NumPy structured dtype."""
        if self._numpy_dtype is not None:
            return self._numpy_dtype
        from ...np.numpy_support import as_struct_dtype
        return as_struct_dtype(self)

    def __repr__(self):
        fields = [f"('{f_name}', " + f"{{'type': {repr(f_info.type)}, " +
                  f"'offset': {f_info.offset}, " + f"'alignment': {f_info.alignment}, " +
                  f"'title': {f_info.title}, " + "}" + ")"
                  for f_name, f_info in self.fields.items()]
        fields = "[" + ", ".join(fields) + "]"
        return f"Record({fields}, {self.size}, {self.aligned})"


class DType(DTypeSpec, Opaque):
    """The type of a NumPy dtype object of a known type: ``DType(float32)``, named
    dtype(float32). Python-only."""

    def __init__(self, dtype):
        if not isinstance(dtype, Type):
            raise TypeError(f"DType takes a cujit type, not {dtype!r}")
        self._dtype = dtype
        Opaque.__init__(self, "dtype(%s)" % (dtype,))

    @property
    def key(self):
        return self.dtype

    @property
    def dtype(self):
        return self._dtype

    def __getitem__(self, arg):
        return self.dtype[arg]


class NumpyFlatType(SimpleIteratorType, MutableSequence):
    """``a.flat`` of an array type."""

    def __init__(self, arrty):
        self.array_type = arrty
        self.dtype = arrty.dtype
        super().__init__("array.flat({arrayty})".format(arrayty=arrty), arrty.dtype)

    @property
    def key(self):
        return self.array_type


class NumpyNdEnumerateType(SimpleIteratorType):
    """``np.ndenumerate(a)`` of an array type."""

    def __init__(self, arrty):
        from .containers import Tuple, UniTuple
        from . import intp
        self.array_type = arrty
        yield_type = Tuple((UniTuple(intp, arrty.ndim), arrty.dtype))
        super().__init__("ndenumerate({arrayty})".format(arrayty=arrty), yield_type)

    @property
    def key(self):
        return self.array_type


class NumpyNdIndexType(SimpleIteratorType):
    """``np.ndindex(shape)`` of *ndim* dimensions."""

    def __init__(self, ndim):
        from .containers import UniTuple
        from . import intp
        self.ndim = ndim
        super().__init__("ndindex(ndim={ndim})".format(ndim=ndim), UniTuple(intp, ndim))

    @property
    def key(self):
        return self.ndim
