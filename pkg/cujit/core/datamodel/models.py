"""cujit.core.datamodel.models (numba.core.datamodel.models): how compiled code holds a
value of a user's type. ``StructModel`` (a struct of members, each a cujit type) and
``PrimitiveModel`` (one LLVM scalar) and ``OpaqueModel`` (a pointer); register one with
``cujit.extending.register_model``."""

__all__ = ["DataModel", "StructModel", "OpaqueModel", "PrimitiveModel", "register_default"]


class DataModel:
    """numba's DataModel base: `fe_type` is the cujit type it is for."""

    def __init__(self, dmm, fe_type):
        self._dmm = dmm
        self._fe_type = fe_type

    @property
    def fe_type(self):
        return self._fe_type

    def _layout(self):
        raise NotImplementedError("cujit: data model %s is not supported (StructModel and "
                                  "OpaqueModel are)" % type(self).__name__)


class StructModel(DataModel):
    """A struct of `members`, a list of (name, cujit type)."""

    def __init__(self, dmm, fe_type, members):
        super().__init__(dmm, fe_type)
        members = list(members)
        if not members:
            raise ValueError("StructModel of %s: no members" % (fe_type,))
        self._members = tuple(name for name, _ in members)
        self._fields = self._members
        self._types = tuple(t for _, t in members)

    def get_field_position(self, field):
        try:
            return self._members.index(field)
        except ValueError:
            raise KeyError("%s does not have a field named %r" % (type(self).__name__, field))

    def get_member_fe_type(self, name):
        return self._types[self.get_field_position(name)]

    def _layout(self):
        return "struct", self._types


class OpaqueModel(DataModel):
    """A pointer (i8*) that compiled code passes around without looking into."""

    def _layout(self):
        return "opaque", ()


class PrimitiveModel(DataModel):
    """numba's PrimitiveModel: a value of one LLVM type `be_type` (cujit.llvm.ir): an integer
    (i1, i8, i16, i32, i64), a half, float or double, or i8* (a pointer compiled code passes
    around)."""

    def __init__(self, dmm, fe_type, be_type):
        super().__init__(dmm, fe_type)
        self._be_type = be_type

    def _layout(self):
        from .. import types
        desc = getattr(self._be_type, "_desc", None)
        if desc == ("ptr", ("i", 8)):
            return "opaque", ()
        scalar = {("i", 1): types.boolean, ("i", 8): types.int8, ("i", 16): types.int16,
                  ("i", 32): types.int32, ("i", 64): types.int64, ("half",): types.float16,
                  ("float",): types.float32, ("double",): types.float64}.get(desc)
        if scalar is None:
            raise NotImplementedError("cujit: PrimitiveModel of %s: only integers, floats and "
                                      "i8* are supported" % (self._be_type,))
        return "primitive", (scalar,)


def register_default(typeclass):
    """numba's register_default: cujit.extending.register_model."""
    from ..lowlevel import register_model
    return register_model(typeclass)
