"""cujit.core.cgutils (numba.core.cgutils): helpers for lowering functions."""
from ..llvm import ir
from . import lowlevel

__all__ = ["create_struct_proxy", "is_not_null", "is_null", "true_bit", "false_bit",
           "get_or_insert_function"]

true_bit = ir.Constant(ir.IntType(1), 1)
false_bit = ir.Constant(ir.IntType(1), 0)


def is_not_null(builder, value):
    """An i1: whether pointer (or integer) `value` is not null / zero."""
    return builder.icmp_unsigned("!=", value, ir.Constant(value.type, None))


def is_null(builder, value):
    """An i1: whether pointer (or integer) `value` is null / zero."""
    return builder.icmp_unsigned("==", value, ir.Constant(value.type, None))


def create_struct_proxy(typ, kind="value"):
    """numba's struct proxy class for extension type `typ` (a StructModel): instances are made
    with (context, builder[, value=, ref=]); members read and written as attributes;
    ``_getvalue()`` the struct value, ``_getpointer()`` its address."""
    names = lowlevel.struct_members(typ)

    class StructProxy:
        _fe_type = typ

        def __init__(self, context, builder, value=None, ref=None):
            object.__setattr__(self, "_builder", builder)
            llty = context.get_value_type(typ)
            if ref is None:
                ref = builder.alloca(llty)
                builder.store(value if value is not None else ir.Constant(llty, None), ref)
            object.__setattr__(self, "_ref", ref)

        def _gep(self, name):
            if name not in names:
                raise AttributeError("struct %s has no member %r" % (typ, name))
            i32 = ir.IntType(32)
            return self._builder.gep(self._ref, [ir.Constant(i32, 0),
                                                 ir.Constant(i32, names.index(name))])

        def __getattr__(self, name):
            if name.startswith("_"):
                raise AttributeError(name)
            return self._builder.load(self._gep(name))

        def __setattr__(self, name, value):
            self._builder.store(value, self._gep(name))

        def __getitem__(self, index):
            return getattr(self, names[index])

        def __setitem__(self, index, value):
            setattr(self, names[index], value)

        def _getvalue(self):
            return self._builder.load(self._ref)

        def _getpointer(self):
            return self._ref

    StructProxy.__name__ = "StructProxy_%s" % (typ,)
    return StructProxy


def get_or_insert_function(module, fnty, name):
    """The function `name` of `module` (builder.module), declared with `fnty` when new: LLVM's
    intrinsics (``llvm.*``) and, in CUDA code, libdevice's (``__nv_*``)."""
    return module.get_or_insert_function(fnty, name)
