"""cujit.cuda.cudaimpl (numba.cuda.cudaimpl): the CUDA target's lowering registry, for the
low-level extension API: ``lower_attr(T, name)`` (numba's lower_getattr for CUDA code),
``lower_setattr``, ``lower`` (lower_builtin)."""
from ..core import lowlevel as _lowlevel


class Registry:
    """numba's lowering Registry for the CUDA target."""

    def lower_getattr(self, ty, attr):
        return _lowlevel.lower_getattr(ty, attr)

    def lower_getattr_generic(self, ty):
        return _lowlevel.lower_getattr_generic(ty)

    def lower_setattr(self, ty, attr):
        return _lowlevel.lower_setattr(ty, attr)

    def lower_setattr_generic(self, ty):
        return _lowlevel.lower_setattr_generic(ty)

    def lower(self, func, *argtypes):
        return _lowlevel.lower_builtin(func, *argtypes)


registry = Registry()
lower_attr = registry.lower_getattr
lower_getattr = registry.lower_getattr
lower_getattr_generic = registry.lower_getattr_generic
lower_setattr = registry.lower_setattr
lower_setattr_generic = registry.lower_setattr_generic
lower = registry.lower
