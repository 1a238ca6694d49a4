"""cujit.cuda.cudadecl (numba.cuda.cudadecl): the CUDA target's typing registry, for the
low-level extension API: ``registry.register_attr`` takes an AttributeTemplate whose
attributes are typed in CUDA code only."""
from ..core import lowlevel as _lowlevel


class Registry:
    """numba's typing Registry for the CUDA target (register_attr; the other kinds of
    template raise NotImplementedError)."""

    def register_attr(self, template):
        return _lowlevel.infer_getattr(template, target="cuda")

    def register(self, template):
        raise NotImplementedError("cujit.cuda.cudadecl.registry.register: function templates "
                                  "are not supported; use cujit.extending.overload or "
                                  "type_callable")

    register_global = register


registry = Registry()
register_attr = registry.register_attr
