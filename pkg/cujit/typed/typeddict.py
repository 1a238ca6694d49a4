"""numba.typed.typeddict's ``Dict``: a dict of one key type and one value type, shared with
compiled code without copying (its C base is csrc/jit/typed_dict.c; mutations either side
are seen by the other). ``Dict()`` takes its types from the first item stored,
``Dict.empty(key_type, value_type)`` is typed from the start; a dict built in compiled code
comes back as one. The mapping methods beyond the C base's come from MutableMapping."""
from collections.abc import ItemsView, MutableMapping, ValuesView

from .._core import TypedDict as _TypedDict


class _Values(ValuesView):
    def __iter__(self):
        return iter(self._mapping._values_list())


class _Items(ItemsView):
    def __iter__(self):
        return iter(self._mapping._items_list())


class Dict(_TypedDict, MutableMapping):
    """numba's typed.Dict: ``Dict.empty(types.int64, types.float64)``, or ``Dict()`` typed by
    its first item; the mapping protocol (``d[k]``, ``d[k] = v``, ``del``, ``in``, ``len``,
    iteration in insertion order, get, pop, popitem, setdefault, update, clear, copy, keys,
    values, items, ``==``). Passed to jitted functions it is the same memory; dicts they return
    come back as one. ``_dict_type`` is its ``cujit.types.DictType``."""

    __slots__ = ()

    def values(self):
        return _Values(self)

    def items(self):
        return _Items(self)

    def __repr__(self):
        body = "{%s}" % ", ".join("%r: %r" % kv for kv in self._items_list())
        return "%s(%s)" % (self._dict_type if self._dict_type is not None
                           else "DictType[undefined,undefined]<iv=None>", body)

    def __str__(self):
        return "{%s}" % ", ".join("%r: %r" % kv for kv in self._items_list())

    def __eq__(self, other):
        if not isinstance(other, (MutableMapping, dict)):
            return NotImplemented
        return dict(self._items_list()) == dict(other.items())

    __hash__ = None


_TypedDict._register(Dict)
