"""numba's documented Interval example (numba docs "Example: an interval type"; the course's
session 4), with the import changed from numba to cujit and nothing else: a new type, its
typeof, constructor typing and lowering, data model, attributes, a property, unboxing and
boxing; and the CUDA registries' typing and lowering of `width` (the course's CUDA part).
Used by tests/test_extending_lowlevel.py and tests/cuda_kernels/."""
from cujit import types
from cujit.extending import (typeof_impl, type_callable, models, register_model,
                             make_attribute_wrapper, lower_builtin, overload_attribute,
                             unbox, box, NativeValue)
from cujit.core import cgutils


class Interval(object):
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi

    def __repr__(self):
        return 'Interval(%f, %f)' % (self.lo, self.hi)

    @property
    def width(self):
        return self.hi - self.lo


class IntervalType(types.Type):
    def __init__(self):
        super(IntervalType, self).__init__(name='Interval')


interval_type = IntervalType()


@typeof_impl.register(Interval)
def typeof_index(val, c):
    return interval_type


@type_callable(Interval)
def type_interval(context):
    def typer(lo, hi):
        if isinstance(lo, types.Float) and isinstance(hi, types.Float):
            return interval_type
    return typer


@register_model(IntervalType)
class IntervalModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [('lo', types.float64), ('hi', types.float64)]
        models.StructModel.__init__(self, dmm, fe_type, members)


make_attribute_wrapper(IntervalType, 'lo', 'lo')
make_attribute_wrapper(IntervalType, 'hi', 'hi')


@overload_attribute(IntervalType, "width")
def get_width(interval):
    def getter(interval):
        return interval.hi - interval.lo
    return getter


@lower_builtin(Interval, types.Float, types.Float)
def impl_interval(context, builder, sig, args):
    typ = sig.return_type
    lo, hi = args
    interval = cgutils.create_struct_proxy(typ)(context, builder)
    interval.lo = lo
    interval.hi = hi
    return interval._getvalue()


@unbox(IntervalType)
def unbox_interval(typ, obj, c):
    lo_obj = c.pyapi.object_getattr_string(obj, "lo")
    hi_obj = c.pyapi.object_getattr_string(obj, "hi")
    lo_native = c.pyapi.float_as_double(lo_obj)
    hi_native = c.pyapi.float_as_double(hi_obj)
    c.pyapi.decref(lo_obj)
    c.pyapi.decref(hi_obj)
    interval = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    interval.lo = lo_native
    interval.hi = hi_native
    is_error = cgutils.is_not_null(c.builder, c.pyapi.err_occurred())
    return NativeValue(interval._getvalue(), is_error=is_error)


@box(IntervalType)
def box_interval(typ, val, c):
    interval = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    lo_obj = c.pyapi.float_from_double(interval.lo)
    hi_obj = c.pyapi.float_from_double(interval.hi)
    class_obj = c.pyapi.unserialize(c.pyapi.serialize_object(Interval))
    res = c.pyapi.call_function_objargs(class_obj, (lo_obj, hi_obj))
    c.pyapi.decref(lo_obj)
    c.pyapi.decref(hi_obj)
    c.pyapi.decref(class_obj)
    return res


# ---- the course's CUDA part: `width` typed and lowered for CUDA code by its registries ----
from cujit.core.typing.templates import AttributeTemplate  # noqa: E402
from cujit.cuda.cudadecl import registry as cuda_registry  # noqa: E402
from cujit.cuda.cudaimpl import lower_attr as cuda_lower_attr  # noqa: E402


@cuda_registry.register_attr
class Interval_attrs(AttributeTemplate):
    key = IntervalType

    def resolve_width(self, mod):
        return types.float64


@cuda_lower_attr(IntervalType, 'width')
def cuda_Interval_width(context, builder, sig, arg):
    lo = builder.extract_value(arg, 0)
    hi = builder.extract_value(arg, 1)
    return builder.fsub(hi, lo)
