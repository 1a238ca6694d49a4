"""Extension values holding arrays: a StructModel with an array member (numba's usual
container type), made by its lower_builtin, read by make_attribute_wrapper, used by
overload_method, passed between jitted functions, through branches and loops. Compared with
the same Python class run by the interpreter; NRT allocation counters back to where they
were (cujit.core.runtime.rtsys, numba's); such values do not cross into Python (a clear
UnsupportedError, the wrapper has no unbox/box of arrays)."""
import gc

import numpy as np
import pytest

import cujit
from cujit import njit, types
from cujit.core import cgutils
from cujit.core.runtime import rtsys
from cujit.errors import UnsupportedError
from cujit.extending import (lower_builtin, make_attribute_wrapper, models, overload_method,
                             register_model, type_callable, typeof_impl, unbox, NativeValue)


class Holder:
    """The Python class: an array and a scale."""

    def __init__(self, data, scale):
        self.data, self.scale = data, float(scale)

    def total(self):
        return (self.data * self.scale).sum()


class HolderType(types.Type):
    def __init__(self, array):
        self.array = array
        super().__init__(name="Holder(%s)" % (array,))


@type_callable(Holder)
def type_holder(context):
    def typer(data, scale):
        if isinstance(data, types.Array) and data.ndim == 1 and isinstance(scale, types.Float):
            return HolderType(data)
    return typer


@register_model(HolderType)
class HolderModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("data", fe_type.array), ("scale", types.float64)]
        models.StructModel.__init__(self, dmm, fe_type, members)


make_attribute_wrapper(HolderType, "data", "data")
make_attribute_wrapper(HolderType, "scale", "scale")


@lower_builtin(Holder, types.Array, types.Float)
def impl_holder(context, builder, sig, args):
    h = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    h.data = args[0]  # borrowed, as numba's lowering gets it: the holder's variable counts it
    h.scale = context.cast(builder, args[1], sig.args[1], types.float64)
    return h._getvalue()


@overload_method(HolderType, "total")
def ov_total(h):
    return lambda h: (h.data * h.scale).sum()


def scaled_copy(h):
    return Holder(h.data * h.scale, 1.0)  # a new array, held by a new holder


scaled_copy_jit = njit(scaled_copy)


def use(a, s, n):
    h = Holder(a, s)
    for i in range(n):  # a holder carried by a loop, replaced each time (the old one freed)
        h = scaled_copy_jit(h) if i % 2 == 0 else Holder(h.data + 1.0, s)
    other = h if n > 2 else Holder(a[::-1].copy(), 2.0)  # two branches' holders merge
    return h.total() + other.total(), h.data.sum(), other.scale


def keep(a, s):
    return Holder(a * 3.0, s).data  # the array outlives its holder


use_jit, keep_jit = njit(use), njit(keep)


def live():
    gc.collect()
    stats = rtsys.get_allocation_stats()
    return stats.alloc - stats.free


def _use_py(a, s, n):
    h = Holder(a, s)
    for i in range(n):
        h = scaled_copy(h) if i % 2 == 0 else Holder(h.data + 1.0, s)
    other = h if n > 2 else Holder(a[::-1].copy(), 2.0)
    return h.total() + other.total(), h.data.sum(), other.scale


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_holder_matches_python_and_frees_everything(n):
    a = np.arange(5.0)
    use_jit(a, 0.5, n)  # compiled once, outside the count
    before = live()
    assert use_jit(a, 0.5, n) == _use_py(a, 0.5, n)
    assert live() == before
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]  # the argument untouched


def test_array_taken_out_of_a_holder_outlives_it():
    a = np.arange(3.0)
    keep_jit(a, 1.0)
    before = live()
    r = keep_jit(a, 2.0)
    assert r.tolist() == [0.0, 3.0, 6.0] and live() == before + 1
    del r
    assert live() == before


class Boxed:
    pass


class BoxedType(HolderType):
    pass


typeof_impl.register(Boxed)(lambda val, c: BoxedType(types.float64[::1]))
register_model(BoxedType)(HolderModel)
unbox(BoxedType)(lambda typ, obj, c: NativeValue(
    cgutils.create_struct_proxy(typ)(c.context, c.builder)._getvalue()))


def test_holders_do_not_cross_into_python():
    with pytest.raises(UnsupportedError, match=r"extension type Holder\(array\(float64, 1d, "
                                               r"C\)\) holds arrays: its values can be made and "
                                               r"used in compiled code, not passed in from or "
                                               r"returned to Python"):
        njit(lambda a: Holder(a, 1.0))(np.zeros(2))
    with pytest.raises(UnsupportedError, match="holds arrays"):
        njit(lambda b: b.scale)(Boxed())
    assert isinstance(cujit.typeof(Boxed()), BoxedType)


def test_primitive_models_cannot_hold_arrays():
    class BadType(types.Type):
        def __init__(self):
            super().__init__(name="Bad")

    @register_model(BadType)
    class BadModel(models.PrimitiveModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, types.float64[:])

    with pytest.raises(NotImplementedError, match="PrimitiveModel of array"):
        types.int64(BadType())
