"""The low-level extension API (cujit.extending's typeof_impl, type_callable, register_model,
make_attribute_wrapper, lower_builtin, lower_getattr_generic, box, unbox, NativeValue,
intrinsic; cujit.llvm.ir; cujit.core.cgutils): numba's Interval example run unchanged
(interval_extension.py) and compared with the same operations in Python, intrinsics, the
IRBuilder's checks and the errors of a failing typer, lowering, unbox or box."""
import sys

import pytest

import cujit
from cujit import njit, types
from cujit.core import cgutils
from cujit.errors import LoweringError, TypingError, UnsupportedError
from cujit.extending import intrinsic, lower_getattr_generic, models, register_model, unbox
from cujit.llvm import ir

from interval_extension import Interval, IntervalType, interval_type

I64, F64 = ir.IntType(64), ir.DoubleType()


@njit
def inside_interval(interval, x):
    return interval.lo <= x < interval.hi


@njit
def interval_width(interval):
    return interval.width


@njit
def sum_intervals(i, j):
    return Interval(i.lo + j.lo, i.hi + j.hi)


@njit
def passthrough(i):
    return i


@njit
def made_inside(a, b):
    t = (Interval(a, b), Interval(b, a))  # extension values in a tuple, inside the code
    return t[1].lo + Interval(a, b).width


def test_typeof_and_data_model():
    assert cujit.typeof(Interval(1.0, 2.0)) is interval_type
    ctx = cujit.core.lowlevel.BaseContext()
    assert ctx.get_value_type(interval_type) == ir.LiteralStructType([ir.DoubleType()] * 2)
    assert cgutils.create_struct_proxy(interval_type).__name__ == "StructProxy_Interval"


@pytest.mark.parametrize("lo,hi,x", [(1.0, 3.0, 2.0), (1.0, 3.0, 3.0), (-2.5, 0.5, -2.5),
                                     (0.0, 0.0, 0.0)])
def test_attributes_and_property_match_python(lo, hi, x):
    iv = Interval(lo, hi)
    assert inside_interval(iv, x) is (iv.lo <= x < iv.hi)
    w = interval_width(iv)
    assert type(w) is float and w == iv.width


def test_constructor_and_box_round_trip():
    a, b = Interval(1.0, 3.0), Interval(0.5, -1.0)
    r = sum_intervals(a, b)
    assert type(r) is Interval and (r.lo, r.hi) == (1.5, 2.0)
    p = passthrough(a)
    assert type(p) is Interval and p is not a and (p.lo, p.hi) == (1.0, 3.0)
    assert made_inside(1.0, 4.0) == 4.0 + 3.0


def test_boxing_keeps_reference_counts():
    a = Interval(1.0, 2.0)
    passthrough(a)
    before = sys.getrefcount(Interval), sys.getrefcount(a)
    for _ in range(200):
        passthrough(a)
        sum_intervals(a, a)
    assert (sys.getrefcount(Interval), sys.getrefcount(a)) == before


def test_unbox_failure_raises_the_python_error():
    with pytest.raises(TypeError, match="must be real number, not str"):
        inside_interval(Interval("a", 2.0), 1.0)
    bad = Interval(1.0, 2.0)
    del bad.hi  # the example's unbox goes on with NULL: CPython's float_as_double says so
    with pytest.raises(TypeError, match="bad argument type"):
        interval_width(bad)
    assert interval_width(Interval(1.0, 2.5)) == 1.5  # still works afterwards


def test_constructor_types_are_checked():
    @njit
    def ints(a):
        return Interval(a, a).lo
    with pytest.raises(TypingError, match=r"No implementation of function "
                                          r"Function\(<class '.*Interval'>\)(.|\n)*"
                                          r"Interval\(int64, int64\)"):
        ints(1)


def test_nested_extension_values_at_the_boundary_are_refused():
    @njit
    def pair(a, b):
        return (Interval(a, b), 1)
    with pytest.raises(UnsupportedError, match="extension types inside tuples"):
        pair(1.0, 2.0)


class Span:  # a global of an extension type needs its lower_constant, as in numba
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


class SpanType(types.Type):
    def __init__(self):
        super().__init__(name="Span")


span_type = SpanType()
cujit.extending.typeof_impl.register(Span)(lambda val, c: span_type)


@register_model(SpanType)
class SpanModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("lo", types.float64), ("hi", types.int32)])


cujit.extending.make_attribute_wrapper(SpanType, "lo", "lo")
cujit.extending.make_attribute_wrapper(SpanType, "hi", "hi")
GLOBAL_INTERVAL = Interval(1.0, 2.0)
GLOBAL_SPAN = Span(0.25, 7)


@cujit.extending.lower_constant(SpanType)
def constant_span(context, builder, ty, pyval):
    span = cgutils.create_struct_proxy(ty)(context, builder)
    span.lo = context.get_constant(types.float64, pyval.lo)
    span.hi = context.get_constant(types.int32, pyval.hi)
    return span._getvalue()


def test_global_of_an_extension_type_uses_lower_constant():
    @njit
    def f(x):
        return x - GLOBAL_SPAN.lo, GLOBAL_SPAN.hi
    assert f(1.0) == (0.75, 7)
    assert cujit.typeof(f(1.0)[1]) is types.int64  # boxed as a Python int

    @njit
    def g(x):
        return x.lo - GLOBAL_INTERVAL.lo  # Interval has no lower_constant
    with pytest.raises(LoweringError, match="no @lower_constant registered for Interval"):
        g(Interval(3.0, 4.0))


# ---- intrinsics ----

@intrinsic
def add_one(typingctx, x):
    if isinstance(x, types.Integer):
        def codegen(context, builder, sig, args):
            return builder.add(args[0], ir.Constant(ir.IntType(64), 1))
        return types.int64(types.int64), codegen


@intrinsic
def clamp_below(typingctx, x, lo):
    sig = types.float64(types.float64, types.float64)  # lo int64 -> float64: cast by the core

    def codegen(context, builder, sig, args):
        x, lo = args
        out = builder.alloca(context.get_value_type(types.float64))
        builder.store(x, out)
        with builder.if_then(builder.fcmp_ordered("<", x, lo)):
            builder.store(lo, out)
        return builder.load(out)
    return sig, codegen


@intrinsic
def pick(typingctx, c, a, b):
    def codegen(context, builder, sig, args):
        c, a, b = args
        big = context.cast(builder, b, sig.args[2], types.int64)
        out = builder.alloca(ir.IntType(64))
        with builder.if_else(c) as (then, otherwise):
            with then:
                builder.store(builder.mul(a, ir.Constant(ir.IntType(64), 2)), out)
            with otherwise:
                builder.store(builder.sub(big, ir.Constant(ir.IntType(64), 1)), out)
        loaded = builder.load(out)
        return builder.select(c, loaded, loaded)
    return types.int64(types.boolean, types.int64, types.int32), codegen


@intrinsic
def popcount_or_sqrt(typingctx, n, x):
    def codegen(context, builder, sig, args):  # LLVM intrinsics, and a phi
        n, x = args
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(I64, [I64]),
                                               "llvm.ctpop.i64")
        sqrt = builder.module.get_or_insert_function(ir.FunctionType(F64, [F64]),
                                                     "llvm.sqrt.f64")
        start = builder.basic_block
        odd = builder.append_basic_block()
        join = builder.append_basic_block()
        bits = builder.call(ctpop, [n])
        fbits = builder.sitofp(bits, F64)
        builder.cbranch(builder.trunc(bits, ir.IntType(1)), odd, join)
        builder.position_at_end(odd)
        root = builder.call(sqrt, [x])
        builder.branch(join)
        builder.position_at_end(join)
        r = builder.phi(F64)
        r.add_incoming(fbits, start)
        r.add_incoming(root, odd)
        return r
    return types.float64(types.int64, types.float64), codegen


@njit
def use_intrinsics(n, x, flag):
    return (add_one(n), clamp_below(x, 0), pick(flag, n, 7),
            popcount_or_sqrt(n, 16.0))


def test_intrinsics():
    assert use_intrinsics(41, -2.5, True) == (42, 0.0, 82, 4.0)  # 41 = 0b101001: 3 bits, odd
    assert use_intrinsics(-1, 3.5, False) == (0, 3.5, 6, 64.0)
    assert use_intrinsics(5, 0.0, True)[3] == 2.0  # 2 bits, even
    with pytest.raises(NotImplementedError, match="only be called from compiled code"):
        add_one(1)


def test_intrinsic_rejecting_types_is_a_typing_error():
    @njit
    def f(x):
        return add_one(x)
    with pytest.raises(TypingError, match=r"add_one\(float64\)"):
        f(1.5)

    @njit
    def g(i):
        return clamp_below(i, 0)  # its signature takes a float64, not an Interval
    with pytest.raises(TypingError, match="argument 0 of type Interval cannot be converted to "
                                          "its signature's float64"):
        g(Interval(1.0, 2.0))


@intrinsic
def hypot_internal(typingctx, x, y):
    def codegen(context, builder, sig, args):  # numba's compile_internal: Python, compiled
        def impl(a, b):
            if b == 0:
                raise ZeroDivisionError("b is zero")
            return (a * a + b * b) ** 0.5 / b
        return context.compile_internal(builder, impl, sig, args)
    return types.float64(types.float64, types.int64), codegen


def test_compile_internal():
    @njit
    def f(x, y):
        return hypot_internal(x, y) + 1.0
    assert f(3.0, 4) == 5.0 / 4 + 1.0
    with pytest.raises(ZeroDivisionError, match="b is zero"):  # its exceptions propagate
        f(1.0, 0)

    # arrays, tuples and extension structs: tests/test_extending_internal.py


# ---- errors ----

def test_lowering_that_raises_names_the_extension_and_line():
    @intrinsic
    def broken(typingctx, x):
        def codegen(context, builder, sig, args):
            return builder.add(args[0], args[0])  # an integer op on doubles
        return types.float64(types.float64), codegen

    @njit
    def f(x):
        return broken(x)
    with pytest.raises(LoweringError) as info:
        f(1.0)
    msg = str(info.value)
    assert "@intrinsic" in msg and "broken" in msg and "operands must be integers" in msg
    assert "return broken(x)" in msg
    assert isinstance(info.value.__cause__, TypeError)


def test_lowering_returning_the_wrong_type():
    @intrinsic
    def wrong(typingctx, x):
        return types.int64(types.int64), lambda c, b, s, a: ir.Constant(ir.DoubleType(), 1.0)

    @njit
    def f(x):
        return wrong(x)
    with pytest.raises(LoweringError, match="returned a value of LLVM type double where the data "
                                            "model says i64"):
        f(1)


def test_invalid_ir_from_a_lowering_is_an_error_not_a_crash():
    @intrinsic
    def undominated(typingctx, c, a):
        def codegen(context, builder, sig, args):
            with builder.if_then(args[0]):
                r = builder.mul(args[1], args[1])
            return r  # defined in the branch only
        return types.int64(types.boolean, types.int64), codegen

    @njit
    def f(c, a):
        return undominated(c, a)
    with pytest.raises(LoweringError, match="does not dominate all uses"):
        f(True, 3)


def test_typer_returning_garbage():
    @intrinsic
    def nonsense(typingctx, x):
        return "nope"

    @njit
    def f(x):
        return nonsense(x)
    with pytest.raises(TypingError, match=r"must return \(signature, codegen\), not 'nope'"):
        f(1)


def test_values_do_not_outlive_their_lowering():
    kept = []

    @intrinsic
    def keep(typingctx, x):
        def codegen(context, builder, sig, args):
            kept.append(args[0])
            return args[0]
        return types.int64(types.int64), codegen

    @njit
    def f(x):
        return keep(x)
    assert f(5) == 5
    with pytest.raises(RuntimeError, match="lowering that has finished"):
        kept[0].type


class Point2Type(types.Type):
    def __init__(self):
        super().__init__(name="Point2")


class Point2:
    def __init__(self, x):
        self.x = x


point2_type = Point2Type()


@register_model(Point2Type)
class Point2Model(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("x", types.int64), ("y", types.int32)])


@lower_getattr_generic(Point2Type)
def point2_getattr(context, builder, typ, value, attr):
    return builder.extract_value(value, ["x", "y"].index(attr))


cujit.core.lowlevel.typeof_impl.register(Point2)(lambda val, c: point2_type)


@unbox(Point2Type)
def unbox_point2(typ, obj, c):
    xo = c.pyapi.object_getattr_string(obj, "x")
    x = c.pyapi.long_as_longlong(xo)
    c.pyapi.decref(xo)
    p = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    p.x = x
    p.y = ir.Constant(ir.IntType(32), 7)
    return cujit.extending.NativeValue(p._getvalue(),
                                       is_error=cgutils.is_not_null(c.builder,
                                                                    c.pyapi.err_occurred()))


def test_generic_getattr_and_missing_box():
    from cujit.core.typing.templates import AttributeTemplate, infer_getattr

    @infer_getattr
    class Point2Attrs(AttributeTemplate):
        key = Point2Type

        def resolve_x(self, typ):
            return types.int64

        def resolve_y(self, typ):
            return types.int32

    @njit
    def f(p):
        return p.x + p.y

    assert f(Point2(5)) == 12
    assert cujit.typeof(f(Point2(5))) is types.int64

    @njit
    def g(p):
        return p
    with pytest.raises(LoweringError, match="no @box registered for Point2"):
        g(Point2(1))


MISUSES = [  # (what the codegen does with x (i64) and y (double), the TypeError it gives)
    (lambda b, x, y: b.fadd(x, x), "floating point"),
    (lambda b, x, y: b.add(x, y), "different types"),
    (lambda b, x, y: b.load(x), "pointer"),
    (lambda b, x, y: b.store(x, b.alloca(F64)), "pointer to its type"),
    (lambda b, x, y: b.alloca(ir.VoidType()), "sized"),
    (lambda b, x, y: b.alloca("i64"), "expected an ir type"),
    (lambda b, x, y: b.extract_value(x, 0), "struct or array"),
    (lambda b, x, y: b.gep(b.alloca(I64), "nope"), "expected an IR value"),
    (lambda b, x, y: b.gep(b.alloca(I64), 5), "list of indices"),
    (lambda b, x, y: b.gep(b.alloca(ir.LiteralStructType([I64])), [x, x]), "i32 constant"),
    (lambda b, x, y: b.call(x, []), "function"),
    (lambda b, x, y: b.cbranch(x, b.basic_block, b.basic_block), "i1"),
    (lambda b, x, y: b.position_at_end(x), "block"),
    (lambda b, x, y: b.trunc(x, ir.IntType(128)), "width"),
    (lambda b, x, y: b.zext(y, I64), "wrong kind"),
    (lambda b, x, y: b.bitcast(x, ir.FloatType()), "same size"),
    (lambda b, x, y: b.icmp_signed("<>", x, x), "unknown comparison"),
    (lambda b, x, y: b.add(x, ir.Constant(ir.VoidType(), None)), "void"),
    (lambda b, x, y: b.add(x, ir.Constant(ir.PointerType(I64), 3)), "cannot make a constant"),
    (lambda b, x, y: ir.PointerType(ir.VoidType()) and b.alloca(ir.PointerType(ir.VoidType())),
     "pointer to void"),
    (lambda b, x, y: b._call_c("system", []), "not callable from cujit"),
    (lambda b, x, y: b.module.get_or_insert_function(ir.FunctionType(I64, []), "getpid"),
     "declaring getpid is not supported"),
    (lambda b, x, y: b.phi(I64).add_incoming(y, b.basic_block), "a value of its type"),
]


@pytest.mark.parametrize("misuse,message", MISUSES)
def test_builder_misuse_is_a_clear_error(misuse, message):
    @intrinsic
    def misuse_it(typingctx, x, y):
        def codegen(context, builder, sig, args):
            misuse(builder, *args)
            return args[0]
        return types.int64(types.int64, types.float64), codegen

    @njit
    def f(x, y):
        return misuse_it(x, y)
    with pytest.raises(LoweringError, match=message) as info:
        f(1, 2.0)
    assert "misuse_it" in str(info.value)


def test_models_holding_iterators_are_refused():  # arrays: tests/test_extending_arrays.py
    class HoldsIterType(types.Type):
        def __init__(self):
            super().__init__(name="HoldsIter")

    @register_model(HoldsIterType)
    class HoldsIterModel(models.StructModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, [("it", types.range_iter64_type)])

    with pytest.raises(UnsupportedError, match="a data model member: type range_iter_int64"):
        types.int64(HoldsIterType())


class Handle:
    def __init__(self, fd):
        self.fd = fd


class HandleType(types.Type):
    def __init__(self):
        super().__init__(name="Handle")


handle_type = HandleType()
cujit.extending.typeof_impl.register(Handle)(lambda val, c: handle_type)


@register_model(HandleType)
class HandleModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.IntType(64))


@unbox(HandleType)
def unbox_handle(typ, obj, c):
    fd = c.pyapi.object_getattr_string(obj, "fd")
    native = c.pyapi.long_as_longlong(fd)
    c.pyapi.decref(fd)
    return cujit.extending.NativeValue(native, is_error=cgutils.is_not_null(
        c.builder, c.pyapi.err_occurred()))


@cujit.extending.box(HandleType)
def box_handle(typ, val, c):
    fd = c.pyapi.long_from_longlong(val)
    cls = c.pyapi.unserialize(c.pyapi.serialize_object(Handle))
    res = c.pyapi.call_function_objargs(cls, (fd,))
    c.pyapi.decref(fd)
    c.pyapi.decref(cls)
    return res


@intrinsic
def next_handle(typingctx, h):
    def codegen(context, builder, sig, args):  # the value is the raw i64
        return builder.add(args[0], ir.Constant(I64, 1))
    return handle_type(handle_type), codegen


def test_primitive_model():
    @njit
    def bump(h):
        return next_handle(next_handle(h))
    r = bump(Handle(40))
    assert type(r) is Handle and r.fd == 42
    assert cujit.core.lowlevel.BaseContext().get_value_type(handle_type) == I64


class Celsius:
    def __init__(self, degrees):
        self.degrees = degrees


class CelsiusType(types.Type):
    def __init__(self):
        super().__init__(name="Celsius")

    def can_convert_to(self, typingctx, other):  # numba's hook: Celsius -> any float
        if isinstance(other, types.Float):
            return "unsafe"


celsius_type = CelsiusType()


@register_model(CelsiusType)
class CelsiusModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("degrees", types.float64)])


@cujit.extending.type_callable(Celsius)
def type_celsius(context):
    return lambda d: celsius_type if isinstance(d, types.Float) else None


@cujit.extending.lower_builtin(Celsius, types.Float)
def make_celsius(context, builder, sig, args):
    return builder.insert_value(ir.Constant(context.get_value_type(celsius_type), None),
                                context.cast(builder, args[0], sig.args[0], types.float64), 0)


@cujit.extending.lower_cast(CelsiusType, types.Float)
def celsius_to_float(context, builder, fromty, toty, val):
    return context.cast(builder, builder.extract_value(val, 0), types.float64, toty)


def test_lower_cast():
    @njit("float32(float64)")
    def declared(d):
        return Celsius(d)  # the declared return type: Celsius -> float32 by lower_cast
    assert declared(21.5) == 21.5 and cujit.typeof(declared(1.0)) is types.float64

    @njit
    def merged(d, flag):
        x = Celsius(d) if flag else 0.5  # two branches: unified to float64 (can_convert_to)
        return x
    assert (merged(3.0, True), merged(3.0, False)) == (3.0, 0.5)

    @njit
    def no_conversion(i):
        x = i if i.lo > 0 else 0.5  # Interval has no can_convert_to
        return x
    with pytest.raises(TypingError):
        no_conversion(Interval(1.0, 2.0))
