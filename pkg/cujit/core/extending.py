"""cujit.extending (numba.core.extending; also ``cujit.extending``): the high-level extension
API. ``overload``, ``register_jitable``, ``overload_method`` and ``overload_attribute`` teach
compiled code (CPU functions, CUDA kernels and device functions) new functions, methods and
attributes written in Python; the typing functions get cujit.types objects
(``isinstance(x, types.Float)``) and return an implementation, compiled for each call.

The low-level API (``typeof_impl``, ``type_callable``, ``register_model``, ``models``,
``make_attribute_wrapper``, ``lower_builtin``, ``lower_getattr``, ``lower_setattr``, ``box``,
``unbox``, ``reflect``, ``NativeValue``, ``intrinsic``) is lowlevel.py, ``infer_global`` and
``infer`` typing/templates.py; ``as_numba_type`` and a few more raise NotImplementedError.
"""
from types import MappingProxyType

from . import types
from .templates import (TARGETS, OverloadTemplate, literally, register_function,
                        register_member)

__all__ = ["overload", "register_jitable", "overload_method", "overload_attribute",
           "overload_classmethod", "literally", "is_jitted", "sentry_literal_args",
           "SentryLiteralArgs", "intrinsic", "typeof_impl", "type_callable", "register_model",
           "models", "make_attribute_wrapper", "lower_builtin", "lower_getattr",
           "lower_getattr_generic", "lower_setattr", "lower_setattr_generic", "lower_cast",
           "box", "unbox", "reflect", "lower_constant", "NativeValue", "infer", "infer_global",
           "infer_getattr", "as_numba_type", "get_cython_function_address", "include_path"]


def _options(jit_options, inline, kwargs):
    """The checked options of an overload: (jit options, target)."""
    target = kwargs.pop("target", "generic")
    if kwargs:
        raise TypeError("overload() got unexpected keyword argument(s): %s"
                        % ", ".join(sorted(kwargs)))
    if not isinstance(target, str) or target.lower() not in TARGETS:
        raise ValueError("Unknown target '%s', has it been registered?" % (target,))
    if inline not in ("never", "always"):
        raise NotImplementedError("overload(inline=%r): cujit takes 'never' or 'always' (LLVM "
                                  "inlines jitted callees itself); a cost-model function is "
                                  "not supported" % (inline,))
    from ..decorators import _check_options
    options = dict(jit_options)
    options.pop("no_cpython_wrapper", None)  # numba's internal defaults: meaningless here
    options.pop("nopython", None)
    _check_options(options, "overload jit_options")
    return options, TARGETS[target.lower()]


def overload(func, jit_options=MappingProxyType({}), strict=True, inline="never",
             prefer_literal=False, **kwargs):
    """numba.extending.overload: the decorated typing function gets the argument types of a
    call of `func` in compiled code and returns its implementation (a function taking the same
    parameters) or None (not for these types: the next overload is tried). Overloads are tried
    in the order they were made, those of the compiling target (target='cpu' or 'cuda') before
    'generic' ones; a user's overload of a function cujit compiles itself (a builtin, a NumPy
    function) is asked first."""
    return _overload(func, jit_options, strict, inline, prefer_literal, kwargs)


def _overload(func, jit_options, strict, inline, prefer_literal, kwargs, shown=None):
    if not callable(func):
        raise TypeError("overload() takes the function to overload, not %r" % (func,))
    options, target = _options(jit_options, inline, dict(kwargs))

    def decorate(typing_func):
        if not callable(typing_func):
            raise TypeError("overload() decorates a typing function, not %r" % (typing_func,))
        register_function(func, OverloadTemplate("function", func, typing_func, options,
                                                 strict, inline, prefer_literal, target,
                                                 shown=shown))
        return typing_func
    return decorate


def register_jitable(*args, **kwargs):
    """numba.extending.register_jitable: `fn` stays a plain Python function and becomes
    callable from compiled code. ``@register_jitable`` or ``@register_jitable(**jit_options)``."""
    def wrap(fn):
        options = dict(kwargs)
        inline = options.pop("inline", "never")

        @_overload(fn, options, False, inline, False, {}, shown=fn)
        def ov_wrap(*args, **kwargs):
            return fn
        return fn

    if kwargs or not args:
        return wrap
    if len(args) != 1 or not callable(args[0]):
        raise TypeError("register_jitable takes a function, or keyword options")
    return wrap(*args)


def _member(kind, typ, attr, kwargs):
    if not (isinstance(typ, types.Type) or (isinstance(typ, type) and
                                            issubclass(typ, types.Type))):
        raise TypeError("overload_%s: %r is not a cujit type or type class" % (kind, typ))
    if not isinstance(attr, str) or not attr.isidentifier():
        raise TypeError("overload_%s: the %s name must be an identifier, not %r"
                        % (kind, kind, attr))
    strict = kwargs.pop("strict", True)
    kwargs.pop("prefer_literal", None)  # no literal types in cujit: nothing to prefer
    options, target = _options(kwargs.pop("jit_options", {}), kwargs.pop("inline", "never"),
                               kwargs)

    def decorate(typing_func):
        register_member(attr, OverloadTemplate(kind, attr, typing_func, options, strict,
                                               "never", False, target, typ=typ))
        return typing_func
    return decorate


def overload_method(typ, attr, **kwargs):
    """numba.extending.overload_method: method `attr` of values whose type is `typ` (a
    types.Type class, matched with isinstance, or a type). The typing function and the
    implementation take the receiver first."""
    return _member("method", typ, attr, kwargs)


def overload_attribute(typ, attr, **kwargs):
    """numba.extending.overload_attribute: attribute `attr` (read only) of values whose type is
    `typ`; the implementation takes the value and returns the attribute."""
    return _member("attribute", typ, attr, kwargs)


def overload_classmethod(typ, attr, **kwargs):
    """numba.extending.overload_classmethod: not in cujit yet (types used as values, TypeRef,
    are not compiled)."""
    raise NotImplementedError("cujit.extending.overload_classmethod: class methods of types "
                              "(numba's TypeRef) are not in cujit yet")


def is_jitted(function):
    """numba.extending.is_jitted: whether `function` is a cujit-compiled function."""
    from .. import _core
    return isinstance(function, _core.Dispatcher) or hasattr(function,
                                                             "__cujit_device_function__")


def sentry_literal_args(*args, **kwargs):
    """numba.extending.sentry_literal_args: not in cujit (no literal argument types yet)."""
    raise NotImplementedError("cujit.extending.sentry_literal_args: literal argument types "
                              "are not in cujit yet")


SentryLiteralArgs = sentry_literal_args


# ---- the low-level extension API (lowlevel.py) ----

from . import lowlevel as _lowlevel  # noqa: E402
from .datamodel import models  # noqa: E402,F401

typeof_impl = _lowlevel.typeof_impl
type_callable = _lowlevel.type_callable
register_model = _lowlevel.register_model
make_attribute_wrapper = _lowlevel.make_attribute_wrapper
lower_builtin = _lowlevel.lower_builtin
lower_getattr = _lowlevel.lower_getattr
lower_getattr_generic = _lowlevel.lower_getattr_generic
lower_setattr = _lowlevel.lower_setattr
lower_setattr_generic = _lowlevel.lower_setattr_generic
box = _lowlevel.box
unbox = _lowlevel.unbox
reflect = _lowlevel.reflect
NativeValue = _lowlevel.NativeValue
lower_constant = _lowlevel.lower_constant
lower_cast = _lowlevel.lower_cast
intrinsic = _lowlevel.intrinsic
infer_getattr = _lowlevel.infer_getattr
from .typing.templates import infer, infer_global  # noqa: E402


class _LowLevel:
    """A name of numba's low-level API cujit does not have yet: raises NotImplementedError."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(_LOW_LEVEL % self._name)

    def __repr__(self):
        return "<cujit.extending.%s: not in cujit yet>" % self._name


_LOW_LEVEL = "cujit.extending.%s: this part of the low-level extension API is not in cujit yet"
as_numba_type = _LowLevel("as_numba_type")
get_cython_function_address = _LowLevel("get_cython_function_address")
include_path = _LowLevel("include_path")
