"""``iter()``, ``next(it, default)``, ``map()`` and ``filter()`` in compiled code, compiled from
Python as numba.cpython.builtins compiles map and filter: each is a jitted generator, so the
iterator it gives can be held in a variable, advanced by ``next()``, and passed to a for-loop,
``list()``, ``sum()``, ``min()``/``max()``, ``sorted()`` or another function; its state is
shared by every name that holds it, as in CPython (a generator is a reference to its frame).

- ``iter(x)`` of a list, homogeneous tuple, string, range, array, set, dict (its keys) or any
  other iterable yields what ``for v in x`` yields; ``iter(g)`` of a generator is ``g`` itself.
  numba types ``iter()`` as the container's own iterator; cujit's is a generator, which every
  consumer of an iterator takes.
- ``next(it, default)``: ``default`` once ``it`` is exhausted (numba has the one-argument form
  only, which the core types: typing/generators); ``next(it)`` raises StopIteration.
- ``map(f, it1, it2, ...)`` stops at the shortest iterable; ``filter(f, it)`` keeps the items
  for which ``f(item)`` is true, ``filter(None, it)`` the true items. ``f`` is a jitted
  function, or an inner function or lambda (jitted where it is passed)."""
import builtins as _bi

from cujit.core import types
from cujit.core.extending import overload


def _is_iterable(x):
    """Whether ``for v in x`` compiles for type x (a heterogeneous tuple does not: numba's
    iter() has no implementation for it either)."""
    return isinstance(x, types.IterableType)


def _omitted(x):
    return x is None or isinstance(x, types.Omitted)


@overload(_bi.iter)
def _ov_iter(x):
    if isinstance(x, types.Generator):
        return lambda x: x
    if not _is_iterable(x):
        return None

    def impl(x):
        for v in x:
            yield v
    return impl


@overload(_bi.next)
def _ov_next(iterator, default=None):
    if _omitted(default) or not isinstance(iterator, types.Generator):
        return None  # next(it): the core's own (generators); no next() of a non-iterator

    def impl(iterator, default=None):
        try:
            return next(iterator)
        except StopIteration:
            return default
    return impl


def _map_zip_impl(n):
    """The generator of map() over 1 + n iterables (n >= 1): zip(*args) does not compile, so
    the impl unpacks the n extra iterables by name."""
    names = ", ".join("it%d" % i for i in range(n))
    items = ", ".join("x%d" % i for i in range(n + 1))
    source = ("def impl(func, iterable, *iterables):\n"
              "    %s, = iterables\n"
              "    for %s in zip(iterable, %s):\n"
              "        yield func(%s)\n" % (names, items, names, items))
    ns = {}
    exec(compile(source, "<cujit map() of %d iterables>" % (n + 1), "exec"), ns)
    return ns["impl"]


@overload(_bi.map)
def _ov_map(func, iterable, *iterables):
    if not _is_iterable(iterable) or not all(_is_iterable(t) for t in iterables):
        return None
    if len(iterables) == 0:
        def impl(func, iterable, *iterables):
            for x in iterable:
                yield func(x)
        return impl
    return _map_zip_impl(len(iterables))


@overload(_bi.filter)
def _ov_filter(func, iterable):
    if not _is_iterable(iterable):
        return None
    if func is None or isinstance(func, types.NoneType):
        def impl_none(func, iterable):
            for x in iterable:
                if x:
                    yield x
        return impl_none

    def impl(func, iterable):
        for x in iterable:
            if func(x):
                yield x
    return impl
