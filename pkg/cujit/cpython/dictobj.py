"""``dict(iterable)`` in compiled code, compiled from Python as numba.typed.dictobject builds
it: each item of the iterable is a (key, value) pair stored in order, a later key replacing an
earlier one's value; the dict's types are the pairs' (typing/dicts.c calls this)."""
from cujit.decorators import njit


@njit
def dict_from_pairs(iterable):
    d = {}
    for key, value in iterable:
        d[key] = value
    return d
