"""The low-level extension API's attribute assignment and function templates: lower_setattr /
lower_setattr_generic typed by the type's attribute templates (resolve_<attr>,
generic_resolve, make_attribute_wrapper) as numba's resolve_setattr; infer_global with an
AbstractTemplate or a ConcreteTemplate (numba's case selection); the warning of cache=True
for code a low-level lowering emits; reflect (an argument written back to its object after
the call). Differential against plain Python objects."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cujit import njit, types
from cujit.core import cgutils
from cujit.core.typing.templates import (AbstractTemplate, AttributeTemplate, ConcreteTemplate,
                                         infer_getattr, signature)
from cujit.errors import LoweringError, TypingError, UnsupportedError
from cujit.extending import (NativeValue, infer_global, lower_builtin, lower_getattr_generic,
                             lower_setattr, lower_setattr_generic, models, reflect,
                             register_model, type_callable, typeof_impl, unbox)
from cujit.llvm import ir

from interval_extension import Interval

FIELDS = "xyz"


class Point3:
    """A mutable point whose coordinates live in a NumPy buffer compiled code writes."""

    def __init__(self, x=0.0, y=0.0, z=0.0):
        self.buf = np.array([x, y, z])
        self.addr = self.buf.ctypes.data

    x = property(lambda s: s.buf[0], lambda s, v: s.buf.__setitem__(0, v))
    y = property(lambda s: s.buf[1], lambda s, v: s.buf.__setitem__(1, v))
    z = property(lambda s: s.buf[2], lambda s, v: s.buf.__setitem__(2, v))


class Point3Type(types.Type):
    def __init__(self):
        super().__init__(name="Point3")


point3 = Point3Type()
typeof_impl.register(Point3)(lambda val, c: point3)


@register_model(Point3Type)
class Point3Model(models.StructModel):  # a struct holding the buffer's address: mutable
    def __init__(self, dmm, fe_type):
        models.StructModel.__init__(self, dmm, fe_type, [("addr", types.intp)])


@unbox(Point3Type)
def unbox_point3(typ, obj, c):
    addr_obj = c.pyapi.object_getattr_string(obj, "addr")
    addr = c.pyapi.long_as_longlong(addr_obj)
    c.pyapi.decref(addr_obj)
    p = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    p.addr = addr
    return NativeValue(p._getvalue(),
                       is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))


@infer_getattr
class Point3Attrs(AttributeTemplate):
    key = Point3Type

    def resolve_x(self, typ):
        return types.float64

    def generic_resolve(self, typ, attr):  # y and z
        if attr in FIELDS:
            return types.float64


def _slot(builder, value, attr):
    base = builder.inttoptr(builder.extract_value(value, 0), ir.DoubleType().as_pointer())
    return builder.gep(base, [ir.Constant(ir.IntType(64), FIELDS.index(attr))])


SEEN = []  # (attr, signature) each setattr lowering got


@lower_getattr_generic(Point3Type)
def point3_getattr(context, builder, typ, value, attr):
    return builder.load(_slot(builder, value, attr))


@lower_setattr(Point3Type, "x")
def point3_set_x(context, builder, sig, args):
    SEEN.append(("x", str(sig)))
    builder.store(args[1], _slot(builder, args[0], "x"))


@lower_setattr_generic(Point3Type)
def point3_setattr(context, builder, sig, args, attr):
    SEEN.append((attr, str(sig)))
    builder.store(args[1], _slot(builder, args[0], attr))


def move(p, dx, n):
    p.x = p.x + dx
    p.y = n          # an int64 converted to the attribute's float64
    p.z = p.x * p.y
    return p.x + p.y + p.z


move_jit = njit(move)


@pytest.mark.parametrize("start,dx,n", [((1.0, 2.0, 3.0), 0.5, 4), ((0.0, 0.0, 0.0), -2.0, 0),
                                        ((-1.5, 9.0, 1e300), 1e-3, -7)])
def test_setattr_matches_python(start, dx, n):
    want, got = Point3(*start), Point3(*start)
    assert move_jit(got, dx, n) == move(want, dx, n)
    assert got.buf.tolist() == want.buf.tolist()


def test_setattr_lowerings_get_numba_signatures():
    move_jit(Point3(), 1.0, 2)
    assert ("x", "none(Point3, float64)") in SEEN  # the value converted to float64
    assert ("y", "none(Point3, float64)") in SEEN and ("z", "none(Point3, float64)") in SEEN


def test_generic_resolve_types_getattr():
    @njit
    def read(p):
        return p.y - p.z
    assert read(Point3(0.0, 5.0, 1.5)) == 3.5
    with pytest.raises(TypingError, match="Unknown attribute 'w'|has no attribute 'w'"):
        njit(lambda p: p.w)(Point3())


def test_setattr_errors_name_the_problem():
    with pytest.raises(TypingError, match=r"Cannot resolve setattr: \(Point3\)\.w = float64"):
        njit(setattr_w)(Point3())
    with pytest.raises(TypingError, match="cannot be converted to its signature's float64"):
        njit(assign_x)(Point3(), np.zeros(2))
    # make_attribute_wrapper types Interval.lo, but no lower_setattr assigns it (numba's text)
    with pytest.raises(UnsupportedError, match=r"No definition for lowering Interval\.lo = "
                                               r"float64"):
        njit(assign_lo)(Interval(1.0, 2.0))


def point_at(addr):
    """A Point3 over the three doubles at `addr` (plain Python: over a new buffer)."""
    p = Point3()
    p.addr = addr
    return p


@type_callable(point_at)
def type_point_at(context):
    def typer(addr):
        if isinstance(addr, types.Integer):
            return point3
    return typer


@lower_builtin(point_at, types.Integer)
def lower_point_at(context, builder, sig, args):
    p = cgutils.create_struct_proxy(point3)(context, builder)
    p.addr = context.cast(builder, args[0], sig.args[0], types.intp)
    return p._getvalue()


def move_at(addr, v):  # also compiled for CUDA (tests/cuda_kernels/)
    p = point_at(addr)
    p.x = v
    p.y = p.x * 2
    p.z = p.y - 1


def test_setattr_on_a_value_made_in_compiled_code():
    buf = np.zeros(3)
    njit(move_at)(buf.ctypes.data, 1.5)
    assert buf.tolist() == [1.5, 3.0, 2.0]


def setattr_w(p):
    p.w = 1.0


def assign_x(p, a):
    p.x = a


def assign_lo(i):
    i.lo = 3.0


class Broken:
    addr = 0


class BrokenType(types.Type):
    def __init__(self):
        super().__init__(name="Broken")


broken_type = BrokenType()
typeof_impl.register(Broken)(lambda val, c: broken_type)
register_model(BrokenType)(type("BrokenModel", (models.OpaqueModel,), {}))
unbox(BrokenType)(lambda typ, obj, c: NativeValue(obj))


@infer_getattr
class BrokenAttrs(AttributeTemplate):
    key = BrokenType

    def resolve_v(self, typ):
        return types.int64


@lower_setattr(BrokenType, "v")
def broken_set_v(context, builder, sig, args):
    return builder.fadd(args[1], args[1])  # a float op on an int64


def test_setattr_lowering_that_raises_names_it_and_the_line():
    def f(b):
        b.v = 3
    with pytest.raises(LoweringError) as info:
        njit(f)(Broken())
    msg = str(info.value)
    assert "@lower_setattr broken_set_v" in msg and "b.v = 3" in msg
    assert isinstance(info.value.__cause__, TypeError)


# ---- infer_global ----

def hypot2(x, y):
    return x * x + y * y


@infer_global(hypot2)
class Hypot2Typing(AbstractTemplate):
    def generic(self, args, kws):
        if len(args) == 2 and all(isinstance(a, types.Float) for a in args):
            return signature(types.float64, types.float64, types.float64)


@lower_builtin(hypot2, types.float64, types.float64)
def lower_hypot2(context, builder, sig, args):
    x, y = args
    return builder.fadd(builder.fmul(x, x), builder.fmul(y, y))


def twice(x):
    return x + x


@infer_global(twice)
class TwiceTyping(ConcreteTemplate):
    cases = [signature(types.int64, types.int64), signature(types.float64, types.float64),
             signature(types.complex128, types.complex128)]


@lower_builtin(twice, types.int64)
def lower_twice_int(context, builder, sig, args):
    return builder.add(args[0], args[0])


@lower_builtin(twice, types.float64)
def lower_twice_float(context, builder, sig, args):
    return builder.fadd(args[0], args[0])


@lower_builtin(twice, types.complex128)
def lower_twice_complex(context, builder, sig, args):
    re, im = builder.extract_value(args[0], 0), builder.extract_value(args[0], 1)
    return context.make_tuple(builder, types.complex128,
                              [builder.fadd(re, re), builder.fadd(im, im)])


def uses_globals(a, b, n, flag, z):
    return hypot2(a, b), twice(n), twice(a), twice(flag), twice(z), twice(np.float32(a))


uses_globals_jit = njit(uses_globals)


@pytest.mark.parametrize("a,b,n,flag,z", [(3.0, 4.0, 5, True, 1 + 2j),
                                          (-0.5, 2.0, -(2 ** 40), False, -3j)])
def test_infer_global_matches_python(a, b, n, flag, z):
    got, want = uses_globals_jit(a, b, n, flag, z), uses_globals(a, b, n, flag, z)
    assert got == want
    # numba's case choice: int64 for int64 and bool (first of the equally safe), float64 for
    # float32 (promoted), complex128 for complex128
    assert [type(v) for v in got] == [float, int, float, int, complex, float]


def test_infer_global_without_a_match_is_numbas_error():
    with pytest.raises(TypingError) as info:
        njit(lambda n: hypot2(n, n))(3)
    msg = str(info.value)
    assert "No implementation of function Function(<function hypot2" in msg
    assert ">>> hypot2(int64, int64)" in msg
    assert "test_extending_setattr.py: Line" in msg  # where the template is
    with pytest.raises(TypingError, match=r">>> twice\(array\(float64, 1d, C\)\)"):
        njit(lambda a: twice(a))(np.zeros(2))


def test_infer_global_misuse():
    with pytest.raises(TypeError, match="AbstractTemplate or ConcreteTemplate"):
        infer_global(len, types.Function(int))
    with pytest.raises(TypeError, match="cannot infer type for global value 3"):
        infer_global(3)
    with pytest.raises(NotImplementedError, match="infer_global\\(value, typ\\)"):
        infer_global(len, types.float64)

    def nolower(x):
        return x

    @infer_global(nolower)
    class NoLowerTyping(ConcreteTemplate):
        cases = [signature(types.int64, types.int64)]
    with pytest.raises(TypingError, match=r"@infer_global .*NoLowerTyping .*no "
                                          r"lower_builtin\(nolower, int64\)"):
        njit(lambda x: nolower(x))(1)


def test_signature():
    sig = signature(types.float64, types.int64, types.float32)
    assert sig.return_type == types.float64 and sig.args == (types.int64, types.float32)
    assert sig == types.float64(types.int64, types.float32)


# ---- cache=True ----

CACHED = textwrap.dedent("""
    import sys, warnings
    sys.path.insert(0, {tests!r})
    from cujit import njit
    from test_extending_setattr import hypot2, twice

    @njit(cache=True)
    def f(a):
        return hypot2(a, a) + twice(a)

    @njit(cache=True)
    def plain(a):
        return a + 1.0

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        print(f(2.0), plain(2.0), f(3.0))
    print([str(x.message) for x in w])
""")


def test_cache_of_code_a_lowering_emits_warns_and_recompiles(tmp_path):
    script = tmp_path / "cached.py"
    script.write_text(CACHED.format(tests=os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for run in range(2):  # the second process: no entry for f was written, plain is loaded
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                             env=env, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert lines[0] == "12.0 3.0 24.0"
        assert lines[1].count("Cannot cache compiled function") == 1  # once per function
        assert ('Cannot cache compiled function "f" as it uses the low-level extension '
                '@infer_global Hypot2Typing') in lines[1]
    assert len(list((tmp_path / "__pycache__").glob("*.cjc"))) == 1  # plain's entry only


# ---- reflect: after the call, an argument's native value written back to its object ----

class Probe:
    def __init__(self, lo, hi):
        self.lo, self.hi, self.seen = lo, hi, None


class ProbeType(types.Type):
    def __init__(self):
        super().__init__(name="Probe")


probe_type = ProbeType()
typeof_impl.register(Probe)(lambda val, c: probe_type)


@register_model(ProbeType)
class ProbeModel(models.StructModel):  # the object's address kept to reflect onto it
    def __init__(self, dmm, fe_type):
        members = [("lo", types.float64), ("hi", types.float64), ("parent", types.intp)]
        models.StructModel.__init__(self, dmm, fe_type, members)


@unbox(ProbeType)
def unbox_probe(typ, obj, c):
    p = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    for name in ("lo", "hi"):
        attr = c.pyapi.object_getattr_string(obj, name)
        setattr(p, name, c.pyapi.float_as_double(attr))
        c.pyapi.decref(attr)
    p.parent = c.builder.ptrtoint(obj, ir.IntType(64))
    return NativeValue(p._getvalue(),
                       is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))


@reflect(ProbeType)
def reflect_probe(typ, val, c):
    p = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    obj = c.builder.inttoptr(p.parent, ir.IntType(8).as_pointer())
    width = c.pyapi.float_from_double(c.builder.fsub(p.hi, p.lo))
    failed = c.builder.icmp_signed("!=", c.pyapi.object_setattr_string(obj, "seen", width),
                                   ir.Constant(ir.IntType(32), 0))
    c.pyapi.decref(width)
    with c.builder.if_then(failed):
        c.set_error()  # the setattr's exception is raised by the call


@infer_getattr
class ProbeAttrs(AttributeTemplate):
    key = ProbeType

    def resolve_lo(self, typ):
        return types.float64


@lower_getattr_generic(ProbeType)
def probe_getattr(context, builder, typ, value, attr):
    return builder.extract_value(value, 0)


probe_lo = njit(lambda p, q: p.lo + q.lo)


def test_reflect_runs_after_each_call_for_each_argument():
    p, q = Probe(1.0, 4.0), Probe(-2.0, 0.5)
    assert probe_lo(p, q) == -1.0
    assert (p.seen, q.seen) == (3.0, 2.5)
    p.hi = 10.0
    probe_lo(p, p)
    assert p.seen == 9.0


class Frozen(Probe):
    __slots__ = ()

    def __setattr__(self, name, value):
        if name == "seen" and hasattr(self, "seen"):
            raise AttributeError("Frozen probes are read-only")
        object.__setattr__(self, name, value)


def test_reflect_setting_its_error_raises_the_python_exception():
    with pytest.raises(AttributeError, match="Frozen probes are read-only"):
        probe_lo(Frozen(1.0, 2.0), Probe(0.0, 1.0))
    assert probe_lo(Probe(1.0, 2.0), Probe(0.0, 1.0)) == 1.0  # still works afterwards


def test_unbox_cleanup_is_refused():
    class Clean:
        pass

    class CleanType(types.Type):
        def __init__(self):
            super().__init__(name="Clean")
    typeof_impl.register(Clean)(lambda val, c: CleanType())
    register_model(CleanType)(type("CleanModel", (models.OpaqueModel,), {}))
    unbox(CleanType)(lambda typ, obj, c: NativeValue(obj, cleanup=lambda: None))
    with pytest.raises(LoweringError, match=r"NativeValue\(cleanup=...\) is not supported"):
        njit(lambda x: 1)(Clean())
