"""Helper classes for defining types, as numba.core.types.common."""
from ...errors import NumbaTypeError, NumbaValueError
from .abstract import ArrayCompatible, Dummy, IterableType, IteratorType


class Opaque(Dummy):
    """A type that is an opaque pointer."""


class SimpleIterableType(IterableType):

    def __init__(self, name, iterator_type):
        self._iterator_type = iterator_type
        super().__init__(name)

    @property
    def iterator_type(self):
        return self._iterator_type


class SimpleIteratorType(IteratorType):

    def __init__(self, name, yield_type):
        self._yield_type = yield_type
        super().__init__(name)

    @property
    def yield_type(self):
        return self._yield_type


class Buffer(IterableType, ArrayCompatible):
    """Objects providing the buffer protocol; the base of Array."""

    mutable = True
    slice_is_copy = False
    aligned = True
    LAYOUTS = frozenset(["C", "F", "CS", "FS", "A"])

    def __init__(self, dtype, ndim, layout, readonly=False, name=None):
        from .misc import unliteral
        _check_buffer_args(dtype, layout)
        self.dtype = unliteral(dtype)
        self.ndim = ndim
        self.layout = layout
        if readonly:
            self.mutable = False
        if name is None:
            type_name = self.__class__.__name__.lower()
            if readonly:
                type_name = "readonly %s" % type_name
            name = "%s(%s, %sd, %s)" % (type_name, dtype, ndim, layout)
        super().__init__(name)

    @property
    def iterator_type(self):
        from .iterators import ArrayIterator
        return ArrayIterator(self)

    @property
    def as_array(self):
        return self

    def copy(self, dtype=None, ndim=None, layout=None):
        return self.__class__(dtype=self.dtype if dtype is None else dtype,
                              ndim=self.ndim if ndim is None else ndim,
                              layout=self.layout if layout is None else layout,
                              readonly=not self.mutable)

    @property
    def key(self):
        return self.dtype, self.ndim, self.layout, self.mutable

    @property
    def is_c_contig(self):
        return self.layout == "C" or (self.ndim <= 1 and self.layout in "CF")

    @property
    def is_f_contig(self):
        return self.layout == "F" or (self.ndim <= 1 and self.layout in "CF")

    @property
    def is_contig(self):
        return self.layout in "CF"


def _check_buffer_args(dtype, layout):
    """numba's checks of an array's dtype and layout, with its messages."""
    from .abstract import Type
    if isinstance(dtype, Buffer):
        raise NumbaTypeError(
            "The dtype of a Buffer type cannot itself be a Buffer type, this is unsupported "
            "behaviour.\nThe dtype requested for the unsupported Buffer was: {}.".format(dtype))
    if not isinstance(dtype, Type):
        raise NumbaTypeError(f"the dtype of an array type must be a cujit type, not {dtype!r}")
    if layout not in Buffer.LAYOUTS:
        raise NumbaValueError("Invalid layout '%s'" % (layout,))
