"""The low-level extension API behind cujit.extending (numba's typeof_impl, type_callable,
register_model, make_attribute_wrapper, lower_builtin, lower_getattr, lower_setattr, box,
unbox, reflect, NativeValue, intrinsic, infer_getattr): new types with a data model, typed by
Python functions and lowered by Python functions that emit LLVM IR through cujit's IRBuilder
(cujit.llvm.ir). Function templates (infer_global) are cujit/core/typing/templates.py.

The C core asks this module (csrc/types/extension_type.c, csrc/lower/lower_extension.c):
``typeof_value`` for arguments of classes it does not know, ``model_layout`` for a user's type
it meets first, and the lowering hooks (lower, unbox, box, constant, cast, reflect). Calls and
attributes go through the overload registry (templates.py): a low-level template's choice is
("lowlevel", return type, argument types or None, lowering function, label), which the core
lowers by calling the function; ``resolve_setattr`` makes that choice for `obj.attr = v`."""
import os

from .. import _core
from ..errors import CujitError, TypingError, UnsupportedError
from ..llvm import ir
from . import types
from .templates import _NO_MATCH, register_function, register_member

_TYPEOF = {}      # Python class -> typeof function
_MODELS = {}      # cujit type class -> model class
_MODEL_OF = {}    # id(type) -> (type, model instance)
_LOWERINGS = {}   # id(func) -> [(argtypes, impl)]
_GETATTRS = {}    # attribute name -> [(type or class, impl(context, builder, typ, value))]
_BOX = {}         # cujit type class -> box function
_UNBOX = {}       # cujit type class -> unbox function
_CONSTANTS = {}   # cujit type class -> lower_constant function
_CASTS = []       # (fromty, toty, impl): lower_cast
_SERIALIZED = []  # objects compiled code points at (pyapi.serialize_object), kept alive
_INTERNAL = {}    # id(impl) -> (impl, its njit dispatcher): context.compile_internal


def _label(kind, func):
    code = getattr(func, "__code__", None)
    where = ("File %s, line %s" % (os.path.basename(code.co_filename), code.co_firstlineno)
             if code else "unknown")
    return "@%s %s (%s)" % (kind, getattr(func, "__qualname__", repr(func)), where)


def _lookup(table, cls):
    for c in cls.__mro__:
        if c in table:
            return table[c]
    return None


# ---- typing: typeof and data models ----

class _TypeofContext:
    """numba's typeof context: `purpose` (argument)."""
    purpose = "argument"


_TYPEOF_CONTEXT = _TypeofContext()
_TYPEOF_BY_CLASS = {}  # a value's class -> its typeof function or None (the call path's cache)


class _TypeofRegistry:
    """typeof_impl.register(cls): the decorated fn(val, c) gives the cujit type of a value."""

    def register(self, cls):
        if not isinstance(cls, type):
            raise TypeError("typeof_impl.register takes a class, not %r" % (cls,))

        def decorate(fn):
            _TYPEOF[cls] = fn
            _TYPEOF_BY_CLASS.clear()
            return fn
        return decorate

    def __call__(self, val, c=None):
        fn = _lookup(_TYPEOF, type(val))
        return fn(val, c or _TYPEOF_CONTEXT) if fn else None


typeof_impl = _TypeofRegistry()


def typeof_value(value):
    cls = type(value)
    try:
        fn = _TYPEOF_BY_CLASS[cls]
    except KeyError:
        fn = _TYPEOF_BY_CLASS[cls] = _lookup(_TYPEOF, cls)
    if fn is None:
        return None
    t = fn(value, _TYPEOF_CONTEXT)
    if t is not None and not isinstance(t, _core.Type):
        raise TypeError("%s returned %r, not a cujit type" % (_label("typeof_impl", fn), t))
    return t


def register_model(typeclass):
    """register_model(T)(ModelClass): values of type class T (or type T) are held as the
    model says (models.StructModel, models.OpaqueModel)."""
    def decorate(model_cls):
        _MODELS[typeclass if isinstance(typeclass, type) else type(typeclass)] = model_cls
        return model_cls
    return decorate


def model_of(typ):
    entry = _MODEL_OF.get(id(typ))
    if entry is None:
        cls = _lookup(_MODELS, type(typ))
        if cls is None:
            return None
        entry = _MODEL_OF[id(typ)] = (typ, cls(None, typ))
    return entry[1]


def model_layout(typ):
    model = model_of(typ)
    return None if model is None else model._layout()


def struct_members(typ):
    model = model_of(typ)
    if model is None or not hasattr(model, "_members"):
        raise TypeError("%s has no StructModel registered (register_model)" % (typ,))
    return list(model._members)


# ---- templates the registry (templates.py) asks ----

class _LowLevelTemplate:
    """A low-level callee or attribute: `typer(args) -> (return type, argtypes or None,
    lowering function)` or None."""

    def __init__(self, kind, label, typer, typ=None, typing_func=None, target="generic"):
        self.kind, self._label, self._typer, self.typ = kind, label, typer, typ
        self.typing_func = typing_func or typer
        self.target = target
        self._chosen = {}

    label = property(lambda self: self._label)

    def applies_to(self, receiver):
        return isinstance(receiver, self.typ) if isinstance(self.typ, type) \
            else receiver == self.typ

    def choose(self, args, kwnames):
        found = self._chosen.get((args, kwnames))
        if found is None:
            found = self._chosen[(args, kwnames)] = self._choose(args, kwnames)
        return found

    def _choose(self, args, kwnames):
        if kwnames:
            return "fail", TypingError("%s takes no keyword arguments" % self._label)
        try:
            r = self._typer(*args)
        except CujitError as e:
            return "fail", e
        except Exception as e:
            raise TypingError("%s raised %s: %s" % (self._label, type(e).__name__, e)) from e
        if r is None:
            return "fail", _NO_MATCH
        ret, argtypes, lower = r
        if not isinstance(ret, types.Type):
            raise TypingError("%s: the typer returned %r, not a cujit type"
                              % (self._label, ret))
        return "ok", ("lowlevel", ret, argtypes, lower, self._label)


def _matches(declared, actual):
    if declared is getattr(types, "Any", None) or declared is types.Type:
        return True
    if isinstance(declared, type):
        return isinstance(actual, declared)
    return declared == actual


def _find_lowering(func, args):
    for argtypes, impl in _LOWERINGS.get(id(func), ()):
        if len(argtypes) == len(args) and all(map(_matches, argtypes, args)):
            return impl
        if argtypes and isinstance(argtypes[-1], types.VarArg) and len(args) >= len(argtypes) - 1:
            return impl
    return None


def type_callable(func):
    """type_callable(func)(typer_factory): typer_factory(context) returns a typer that takes
    the argument types of a call of `func` and returns its result type (or None); the call
    is lowered by the matching lower_builtin(func, ...)."""
    def decorate(factory):
        typer = factory(None)
        if not callable(typer):
            raise TypeError("%s must return a typer function" % _label("type_callable", factory))
        label = _label("type_callable", factory)

        def resolve(*args):
            ret = typer(*args)
            if ret is None:
                return None
            lower = _find_lowering(func, args)
            if lower is None:
                raise TypingError("%s: no lower_builtin(%s, %s) lowers this call"
                                  % (label, getattr(func, "__name__", func),
                                     ", ".join(map(str, args))))
            return ret, None, lower
        register_function(func, _LowLevelTemplate("function", label, resolve,
                                                  typing_func=factory))
        return factory
    return decorate


def lower_builtin(func, *argtypes):
    """lower_builtin(func, *types)(impl): impl(context, builder, sig, args) emits the call of
    `func` for argument types matching `types` (types, type classes or types.Any)."""
    def decorate(impl):
        _LOWERINGS.setdefault(id(func), []).append((argtypes, impl))
        return impl
    return decorate


def _attribute(typ, name, typer, label, target="generic"):
    register_member(name, _LowLevelTemplate("attribute", label, typer, typ=typ, target=target))


_ATTR_TYPES = []  # (type or class, target, resolve(recv, attr) -> type or None): what an
#                   attribute's type is, for `obj.attr = v` (numba's resolve_setattr)
_SETATTRS = {}    # attribute name (None: any) -> [(type or class, impl, label)]


def make_attribute_wrapper(typeclass, struct_attr, python_attr):
    """The member `struct_attr` of a StructModel type read as attribute `python_attr`."""
    label = "make_attribute_wrapper(%s, %r, %r)" % (getattr(typeclass, "__name__", typeclass),
                                                    struct_attr, python_attr)

    def typer(recv):
        model = model_of(recv)
        index = model.get_field_position(struct_attr)

        def lower(context, builder, sig, args):
            return builder.extract_value(args[0], index)
        return model.get_member_fe_type(struct_attr), None, lower
    _attribute(typeclass, python_attr, typer, label)
    _ATTR_TYPES.append((typeclass, "generic", lambda recv, attr: model_of(recv)
                        .get_member_fe_type(struct_attr) if attr == python_attr else None))


def lower_getattr(typ, attr):
    """lower_getattr(T, attr)(impl): impl(context, builder, typ, value) reads `attr`; its
    type comes from an AttributeTemplate (infer_getattr)."""
    def decorate(impl):
        _GETATTRS.setdefault(attr, []).append((typ, impl))
        return impl
    return decorate


def lower_getattr_generic(typ):
    """lower_getattr_generic(T)(impl): impl(context, builder, typ, value, attr) for any
    attribute an AttributeTemplate types."""
    def decorate(impl):
        _GETATTRS.setdefault(None, []).append(
            (typ, lambda ctx, b, t, v, attr=None, _impl=impl: _impl(ctx, b, t, v, attr)))
        return impl
    return decorate


def _getattr_lowering(recv, attr):
    for typ, impl in _GETATTRS.get(attr, ()):
        if _matches(typ, recv):
            return impl
    for typ, impl in _GETATTRS.get(None, ()):
        if _matches(typ, recv):
            return lambda ctx, b, t, v: impl(ctx, b, t, v, attr)
    return None


def lower_setattr(typ, attr):
    """lower_setattr(T, attr)(impl): impl(context, builder, sig, args) emits `obj.attr = v`;
    sig is none(T, attribute type), args (obj, v converted to the attribute's type); the
    attribute's type comes from the type's attribute templates (infer_getattr's
    resolve_<attr> or generic_resolve, make_attribute_wrapper), as numba's resolve_setattr."""
    if not isinstance(attr, str) and attr is not None:
        raise TypeError("lower_setattr takes an attribute name, not %r" % (attr,))

    def decorate(impl):
        _SETATTRS.setdefault(attr, []).append((typ, impl, _label("lower_setattr", impl)))
        _SETATTR_CHOSEN.clear()
        return impl
    return decorate


def lower_setattr_generic(typ):
    """lower_setattr_generic(T)(impl): impl(context, builder, sig, args, attr) for the
    attributes no lower_setattr(T, attr) takes."""
    return lower_setattr(typ, None)


_SETATTR_CHOSEN = {}  # (receiver, attr, value type, target) -> the registry's choice


def resolve_setattr(recv, attr, valty, target):
    """The choice for `obj.attr = v` (extensions.c, "setattr"): ("lowlevel", none, (receiver,
    attribute type), lowering, label), or None when no attribute template types `attr`."""
    key = (recv, attr, valty, target)
    if key not in _SETATTR_CHOSEN:
        _SETATTR_CHOSEN[key] = _choose_setattr(recv, attr, valty, target)
    return _SETATTR_CHOSEN[key]


def _choose_setattr(recv, attr, valty, target):
    attrty = None
    for own in (True, False):  # the target's own templates first
        for typ, tgt, resolve in _ATTR_TYPES:
            if attrty is None and (tgt == target if own else tgt == "generic") \
                    and _matches(typ, recv):
                attrty = resolve(recv, attr)
    if attrty is None:
        return None
    for name in (attr, None):
        for typ, impl, label in _SETATTRS.get(name, ()):
            if _matches(typ, recv):
                def lower(ctx, builder, sig, args, impl=impl, generic=name is None):
                    if generic:
                        impl(ctx, builder, sig, args, attr)
                    else:
                        impl(ctx, builder, sig, args)
                return "lowlevel", types.none, (recv, attrty), lower, label
    raise UnsupportedError("No definition for lowering %s.%s = %s" % (recv, attr, valty))


class AttributeTemplate:
    """numba's AttributeTemplate: `key` the type (or class); methods resolve_<attr>(self,
    typ) return the attribute's type, and generic_resolve(self, typ, attr) that of any other
    attribute (or None). Register with infer_getattr."""
    key = None
    generic_resolve = NotImplemented

    def __init__(self, context=None):
        self.context = context

    def resolve(self, value, attr):
        fn = getattr(self, "resolve_%s" % attr, None)
        if fn is not None:
            return fn(value)
        if self.generic_resolve is NotImplemented:
            return None
        return self.generic_resolve(value, attr)


class _GenericAttributes:
    """An AttributeTemplate's generic_resolve: under the registry's "*" key, asked for the
    attributes of an extension type no other template names; one template per name."""

    def __init__(self, inst, target):
        self._inst, self.typ, self.target = inst, inst.key, target
        self.kind = "attribute"
        self._by_name = {}

    def applies_to(self, receiver):
        return _matches(self.typ, receiver)

    def for_name(self, attr):
        t = self._by_name.get(attr)
        if t is None:
            label = "%s.generic_resolve" % type(self._inst).__qualname__
            t = self._by_name[attr] = _LowLevelTemplate(
                "attribute", label, _attribute_typer(self._inst.generic_resolve, attr, label,
                                                     generic=True),
                typ=self.typ, target=self.target)
        return t


def _attribute_typer(resolve, attr, label, generic=False):
    def typer(recv):
        ret = resolve(recv, attr) if generic else resolve(recv)
        if ret is None:
            return None
        impl = _getattr_lowering(recv, attr)
        if impl is None:
            raise TypingError("%s: no lower_getattr(%s, %r)" % (label, recv, attr))
        return ret, None, lambda ctx, b, sig, args: impl(ctx, b, sig.args[0], args[0])
    return typer


def infer_getattr(template, target="generic"):
    """infer_getattr(AttributeTemplate subclass): types its resolve_<attr> attributes (and,
    with generic_resolve, any other attribute of an extension type), lowered by lower_getattr
    / lower_getattr_generic and assigned by lower_setattr / lower_setattr_generic (in code for
    `target`: 'generic', 'cpu', 'cuda')."""
    if not (isinstance(template, type) and issubclass(template, AttributeTemplate)):
        raise TypeError("infer_getattr takes a subclass of AttributeTemplate, not %r"
                        % (template,))
    if template.key is None:
        raise TypeError("%s: an AttributeTemplate needs a `key` (the type or type class)"
                        % template.__qualname__)
    inst = template(None)
    for name in dir(template):
        if not name.startswith("resolve_") or name == "resolve_":
            continue
        attr = name[len("resolve_"):]
        label = "%s.%s" % (template.__qualname__, name)
        _attribute(template.key, attr, _attribute_typer(getattr(inst, name), attr, label),
                   label, target)
    if template.generic_resolve is not NotImplemented:
        register_member("*", _GenericAttributes(inst, target))
    _ATTR_TYPES.append((template.key, target, inst.resolve))
    return template



# ---- intrinsic ----

class _Intrinsic:
    """An @intrinsic: callable from compiled code; its typer gets (typingctx, *argtypes) and
    returns (signature, codegen) or None; codegen(context, builder, sig, args) emits it."""

    def __init__(self, typer):
        self._typer = typer
        self.__name__ = getattr(typer, "__name__", "intrinsic")
        self.__qualname__ = getattr(typer, "__qualname__", self.__name__)
        self.__doc__ = typer.__doc__
        label = _label("intrinsic", typer)

        def resolve(*args):
            r = typer(None, *args)
            if r is None:
                return None
            if not (isinstance(r, tuple) and len(r) == 2 and callable(r[1])):
                raise TypingError("%s must return (signature, codegen), not %r" % (label, r))
            sig, codegen = r
            return sig.return_type, tuple(sig.args), codegen
        register_function(self, _LowLevelTemplate("function", label, resolve,
                                                  typing_func=typer))

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("intrinsic %s can only be called from compiled code"
                                  % self.__name__)

    def __repr__(self):
        return "<intrinsic %s>" % self.__name__


def intrinsic(*args, **kwargs):
    """numba's @intrinsic (also @intrinsic(prefer_literal=...))."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return _Intrinsic(args[0])
    return lambda fn: _Intrinsic(fn)


# ---- boxing ----

class NativeValue:
    """What an unbox function returns: the native `value` and an i1 `is_error`."""

    def __init__(self, value, is_error=None, cleanup=None):
        self.value, self.is_error, self.cleanup = value, is_error, cleanup


def box(typeclass):
    """box(T)(fn): fn(typ, val, c) makes the Python object (an i8*) of a native value."""
    def decorate(fn):
        _BOX[typeclass if isinstance(typeclass, type) else type(typeclass)] = fn
        return fn
    return decorate


def unbox(typeclass):
    """unbox(T)(fn): fn(typ, obj, c) returns NativeValue of a Python object (i8*)."""
    def decorate(fn):
        _UNBOX[typeclass if isinstance(typeclass, type) else type(typeclass)] = fn
        return fn
    return decorate


_REFLECT = {}     # cujit type class -> reflect function


def reflect(typeclass):
    """reflect(T)(fn): fn(typ, val, c) runs after a call of compiled code, for each argument
    of type T, with its native value (numba's reflect_native_value: writing changes back to
    the Python object the value came from); `c` has context, builder, pyapi, is_error,
    set_error(), box(typ, val), reflect(typ, val)."""
    def decorate(fn):
        _REFLECT[typeclass if isinstance(typeclass, type) else type(typeclass)] = fn
        return fn
    return decorate


def lower_constant(typeclass):
    """lower_constant(T)(impl): impl(context, builder, ty, pyval) makes the native value of a
    global Python object of type T (typed by typeof_impl) used in compiled code."""
    def decorate(fn):
        _CONSTANTS[typeclass if isinstance(typeclass, type) else type(typeclass)] = fn
        return fn
    return decorate


def lower_cast(fromty, toty):
    """lower_cast(fromty, toty)(impl): impl(context, builder, fromty, toty, val) converts a
    value where typing converts between the types (a signature's argument, a declared return
    type, two branches' values): allowed where the types' can_convert_to / can_convert_from
    (or unify) say so, as in numba. Types or type classes."""
    def decorate(impl):
        _CASTS.append((fromty, toty, impl))
        return impl
    return decorate


def unify_types(a, b):
    """What extension type `a` and type `b` unify to (the types' numba hooks), or None."""
    for x, y in ((a, b), (b, a)):
        r = x.unify(None, y)
        if r is not None:
            return r
    if a.can_convert_to(None, b) or b.can_convert_from(None, a):
        return b
    if b.can_convert_to(None, a) or a.can_convert_from(None, b):
        return a
    return None


def _cast(fromty, toty, builder, value):
    for f, t, impl in _CASTS:
        if _matches(f, fromty) and _matches(t, toty):
            return impl(BaseContext(builder), builder, fromty, toty, value)
    raise NotImplementedError("no @lower_cast(%s, %s) registered" % (fromty, toty))


# ---- what lowering functions get ----

class BaseContext:
    """The `context` of lowering functions (numba's BaseContext, the parts cujit has)."""

    def __init__(self, builder=None):
        self._builder = builder

    def get_value_type(self, ty):
        return ir._type_from_desc(_core.llvm_type_desc(ty))

    get_data_type = get_value_type

    def get_constant(self, ty, value):
        return ir.Constant(self.get_value_type(ty), int(value) if isinstance(value, bool)
                           else value)

    def get_constant_generic(self, builder, ty, value):
        return self.get_constant(ty, value)

    def get_dummy_value(self):
        return ir.Constant(ir.LiteralStructType([]), [])

    def cast(self, builder, val, fromty, toty):
        return val if fromty == toty else builder._cast(val, fromty, toty)

    def compile_internal(self, builder, impl, sig, args, locals=None):
        """Compiles Python function `impl` for `sig` (with njit) and calls it, as a call of a
        jitted function (CPU code: linked in; CUDA code: a device function); arguments and
        results of any type (an array result is held until the calling function returns)."""
        if locals:
            raise NotImplementedError("cujit: compile_internal(locals=...) is not supported")
        entry = _INTERNAL.get(id(impl))
        if entry is None:
            from ..decorators import njit
            entry = _INTERNAL[id(impl)] = (impl, njit(impl))
        value, ret = builder._call_jitted(entry[1], tuple(sig.args), list(args))
        return self.cast(builder, value, ret, sig.return_type)

    def make_tuple(self, builder, typ, values):
        t = self.get_value_type(typ)
        agg = ir.Constant(t, None)
        for i, v in enumerate(values):
            agg = builder.insert_value(agg, v, i)
        return agg


class PythonAPI:
    """c.pyapi: calls of CPython's C API from box and unbox functions (numba's PythonAPI)."""

    def __init__(self, builder):
        self.builder = builder
        self.pyobj = ir.PointerType(ir.IntType(8))

    def _call(self, name, *args):
        return self.builder._call_c(name, list(args))

    def object_getattr_string(self, obj, attr):
        return self._call("PyObject_GetAttrString", obj, self.builder._cstring(attr))

    def object_setattr_string(self, obj, attr, val):
        return self._call("PyObject_SetAttrString", obj, self.builder._cstring(attr), val)

    def float_as_double(self, obj):
        return self._call("PyFloat_AsDouble", obj)

    def float_from_double(self, val):
        return self._call("PyFloat_FromDouble", val)

    def long_as_longlong(self, obj):
        return self._call("PyLong_AsLongLong", obj)

    def long_from_longlong(self, val):
        return self._call("PyLong_FromLongLong", val)

    def number_as_float(self, obj):
        return self._call("PyNumber_Float", obj)

    def bool_from_bool(self, val):
        return self._call("PyBool_FromLong", self.builder.zext(val, ir.IntType(64)))

    def object_istrue(self, obj):
        return self._call("PyObject_IsTrue", obj)

    def incref(self, obj):
        self._call("Py_IncRef", obj)

    def decref(self, obj):
        self._call("Py_DecRef", obj)

    def err_occurred(self):
        return self._call("PyErr_Occurred")

    def get_null_object(self):
        return ir.Constant(self.pyobj, None)

    def serialize_object(self, obj):
        _SERIALIZED.append(obj)  # compiled code points at it: kept for the process
        return self.builder._const_object(obj)

    def unserialize(self, ptr):
        self.incref(ptr)  # numba's unserialize gives a new reference
        return ptr

    def call_function_objargs(self, callee, objargs):
        return self._call("PyObject_CallFunctionObjArgs", callee, *objargs,
                          self.get_null_object())

    def call_method(self, *args, **kwargs):
        raise NotImplementedError("cujit: pythonapi.call_method is not supported yet")


class _BoxContext:
    """The `c` of box and unbox functions."""

    def __init__(self, builder):
        self.builder = builder
        self.context = BaseContext(builder)
        self.pyapi = PythonAPI(builder)


class _ReflectContext(_BoxContext):
    """The `c` of reflect functions (numba's _ReflectContext)."""

    def __init__(self, builder):
        super().__init__(builder)
        self.env_manager = None
        self.is_error = builder.alloca(ir.IntType(1))
        builder.store(ir.Constant(ir.IntType(1), 0), self.is_error)

    def set_error(self):
        self.builder.store(ir.Constant(ir.IntType(1), 1), self.is_error)

    def box(self, typ, val):
        return _box(typ, self.builder, val)

    def reflect(self, typ, val):
        flag = _reflect(typ, self.builder, val)
        if flag is not None:
            with self.builder.if_then(flag):
                self.set_error()


def _reflect(typ, builder, value):
    fn = _lookup(_REFLECT, type(typ))
    if fn is None:
        return None
    c = _ReflectContext(builder)
    fn(typ, value, c)
    return builder.load(c.is_error)


def _lower(fn, builder, sig, args):
    return fn(BaseContext(builder), builder, sig, args)


def _unbox(typ, builder, obj):
    fn = _lookup(_UNBOX, type(typ))
    if fn is None:
        raise TypeError("no @unbox registered for %s: it cannot be passed in" % (typ,))
    nv = fn(typ, obj, _BoxContext(builder))
    if not isinstance(nv, NativeValue):
        raise TypeError("%s returned %r, not a NativeValue" % (_label("unbox", fn), nv))
    if nv.cleanup is not None:
        raise NotImplementedError("%s: NativeValue(cleanup=...) is not supported by cujit yet "
                                  "(release what the unbox made in a @reflect of the type)"
                                  % _label("unbox", fn))
    return nv.value, nv.is_error


def _box(typ, builder, value):
    fn = _lookup(_BOX, type(typ))
    if fn is None:
        raise TypeError("no @box registered for %s: it cannot be returned" % (typ,))
    return fn(typ, value, _BoxContext(builder))


_core.set_type_extension_hooks(typeof_value, model_layout, unify_types)
def _constant(typ, builder, pyval):
    fn = _lookup(_CONSTANTS, type(typ))
    if fn is None:
        raise NotImplementedError("no @lower_constant registered for %s: a global of this type "
                                  "cannot be used in compiled code" % (typ,))
    return fn(BaseContext(builder), builder, typ, pyval)


_core.set_lowering_hooks(_lower, _unbox, _box, _constant, _cast, _reflect)
