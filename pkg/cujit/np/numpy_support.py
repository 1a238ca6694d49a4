"""NumPy dtypes <-> cujit types, as numba.np.numpy_support: ``from_dtype``, ``as_dtype``.
Scalar dtypes map through the C core's own table (the one typeof uses); structured dtypes map
to ``types.Record``, the compiler's own record type when it supports the fields."""
import numpy as np

from .. import _core
from ..core import types
from ..errors import NumbaNotImplementedError


def from_dtype(dtype):
    """The cujit type of a NumPy dtype (or scalar class: ``np.float32``); a structured dtype
    gives a Record. NumbaNotImplementedError for a dtype cujit has no type for."""
    if type(dtype) is type and issubclass(dtype, np.generic):
        dtype = np.dtype(dtype)
    elif getattr(dtype, "fields", None) is not None:
        return from_struct_dtype(dtype)
    if not isinstance(dtype, np.dtype):
        raise NumbaNotImplementedError(dtype)
    if dtype.subdtype is not None:
        raise NumbaNotImplementedError(f"{dtype}: cujit has no nested array types")
    try:
        return _core.typeof(np.empty(0, dtype)).dtype  # the C core's dtype table
    except TypeError:
        raise NumbaNotImplementedError(dtype) from None


def as_dtype(nbtype):
    """The NumPy dtype of a cujit type; NumbaNotImplementedError when there is none."""
    nbtype = types.unliteral(nbtype)
    if isinstance(nbtype, (types.Complex, types.Integer, types.Float)):
        return np.dtype(str(nbtype))
    if isinstance(nbtype, types.Boolean):
        return np.dtype("?")
    if isinstance(nbtype, types.Record):
        return as_struct_dtype(nbtype)
    if isinstance(nbtype, (types.DType, types.NumberClass)):
        return as_dtype(nbtype.dtype)
    if isinstance(nbtype, types.PyObject):
        return np.dtype(object)
    raise NumbaNotImplementedError(f"{nbtype} cannot be represented as a NumPy dtype")


def from_struct_dtype(dtype):
    """The Record type of a structured dtype: the compiler's own (csrc/types/record.c), whose
    fields are numbers, nested records and fixed-size arrays of them; any other field (strings,
    objects, datetimes, the other byte order) is an UnsupportedError naming it."""
    return _core.from_dtype(dtype)


def as_struct_dtype(rec):
    """The structured dtype of a Record type."""
    if not isinstance(rec, types.Record):
        raise TypeError(f"{rec} is not a Record type")
    names, formats, offsets, titles = [], [], [], []
    for k, t in rec.members:
        if not rec.is_title(k):
            names.append(k)
            formats.append(as_dtype(t))
            offsets.append(rec.offset(k))
            titles.append(rec.fields[k].title)
    spec = {"names": names, "formats": formats, "offsets": offsets, "itemsize": rec.size,
            "titles": titles}
    return np.dtype(spec, align=rec.aligned)
