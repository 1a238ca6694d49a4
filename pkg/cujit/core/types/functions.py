"""Function-like types, as numba.core.types.functions: Function, Dispatcher, NumberClass,
BoundFunction. The compiler types a global function, dispatcher, class or number type used in
compiled code as a compile-time object; these classes show those to Python. cujit has no
typing templates on types: calls are typed by the C core, overloads chosen by
cujit.extending's registry; the Callable methods that would need templates raise
NotImplementedError."""
from ... import _core
from .abstract import Callable, DTypeSpec, Dummy, Type
from .common import Opaque

_NO_TEMPLATES = ("cujit types have no typing templates: {} is not in cujit (calls are typed "
                 "by its C core, and overloads by cujit.extending's registry)")


class _TemplateFree(Callable):
    """Callable types whose typing lives in cujit's C core."""

    def get_call_type(self, context, args, kws):
        raise NotImplementedError(_NO_TEMPLATES.format("get_call_type"))

    def get_call_signatures(self):
        raise NotImplementedError(_NO_TEMPLATES.format("get_call_signatures"))

    def get_impl_key(self, sig):
        raise NotImplementedError(_NO_TEMPLATES.format("get_impl_key"))


class Function(_TemplateFree, Opaque):
    """A global function or class used in compiled code (``math.sqrt``, ``np.empty``,
    ``range``): cujit keys it by the Python object (numba by a typing template)."""

    def _core_make(cls, obj):
        t = _core.object_type("object", obj)
        return t if type(t) is cls else None

    def __init__(self, obj):
        self.typing_key = obj
        super().__init__("Function(%r)" % (obj,))

    @property
    def key(self):
        return self.typing_key


class Dispatcher(_TemplateFree, Dummy):
    """The type of a jitted function used as a value (``type(CPUDispatcher(<function f>))``)."""

    def _core_make(cls, dispatcher):
        t = _core.object_type("object", dispatcher)
        return t if type(t) is cls else None

    def __init__(self, dispatcher):
        self._dispatcher = dispatcher
        super().__init__("type(%s)" % dispatcher)

    @property
    def dispatcher(self):
        """The dispatcher this type stands for."""
        return self._dispatcher

    @property
    def key(self):
        return self._dispatcher


class NumberClass(_TemplateFree, DTypeSpec, Opaque):
    """A number type used as a value (``np.float32``, ``cujit.int64``): class(float32)."""

    def _core_make(cls, instance_type):
        if not isinstance(instance_type, Type) or not instance_type._compilable:
            return None
        t = _core.object_type("object", instance_type)
        return t if type(t) is cls else None

    def __init__(self, instance_type):
        self.instance_type = instance_type
        super().__init__("class(%s)" % (instance_type,))

    @property
    def key(self):
        return self.instance_type

    @property
    def dtype(self):
        return self.instance_type


class BoundFunction(_TemplateFree, Opaque):
    """A method bound to its receiver (``a.sum``, ``z.conjugate``)."""

    def __init__(self, this, attr):
        self.this = this
        self.attr = attr
        super().__init__("BoundFunction(%s.%s)" % (this, attr))

    @property
    def key(self):
        return self.this, self.attr
