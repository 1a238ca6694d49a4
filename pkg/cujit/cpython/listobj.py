"""Sorting and min/max by a key function, compiled from Python as numba.cpython.listobj
compiles list.sort: ``sorted(it, key=f, reverse=r)``, ``l.sort(key=f, reverse=r)`` and
``min/max(it, key=f)`` in jitted code are typed and compiled as calls of the functions below
(csrc/typing/sort_key.c), the key a jitted function passed as a value (an njit function, or an
inner function or lambda jitted where it is passed); so are sorts without a key of items the C
sort does not take (tuples, strings: ``sorted_items``, ``sort_items``). Python's semantics: the key is called once
per item, in order; the sort is stable, ``reverse=True`` keeps equal items in their order;
only ``<`` compares keys (``>`` for max, as CPython's max does)."""
import sys

from cujit.decorators import njit

# CPython's words for an empty argument (they changed in 3.12)
if sys.version_info >= (3, 12):
    _MIN_EMPTY = "min() iterable argument is empty"
    _MAX_EMPTY = "max() iterable argument is empty"
else:
    _MIN_EMPTY = "min() arg is an empty sequence"
    _MAX_EMPTY = "max() arg is an empty sequence"


@njit
def _stable_order(keys, reverse):
    """The indices of keys in sorted order: a bottom-up merge sort, taking the right run's item
    only when its key is strictly before the left's (so equal keys keep their order)."""
    n = len(keys)
    order = [i for i in range(n)]
    spare = [i for i in range(n)]
    width = 1
    while width < n:
        lo = 0
        while lo < n - width:
            mid = lo + width
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                left = keys[order[i]]
                right = keys[order[j]]
                take_right = (left < right) if reverse else (right < left)
                if take_right:
                    spare[k] = order[j]
                    j += 1
                else:
                    spare[k] = order[i]
                    i += 1
                k += 1
            while i < mid:
                spare[k] = order[i]
                i += 1
                k += 1
            while j < hi:
                spare[k] = order[j]
                j += 1
                k += 1
            for m in range(lo, hi):
                order[m] = spare[m]
            lo += 2 * width
        width *= 2
    return order


@njit
def sorted_key(iterable, key, reverse=False):
    items = [x for x in iterable]
    keys = [key(x) for x in items]
    order = _stable_order(keys, reverse)
    return [items[i] for i in order]


@njit
def sort_key(lst, key, reverse=False):
    keys = [key(x) for x in lst]
    order = _stable_order(keys, reverse)
    items = [lst[i] for i in order]
    for m in range(len(items)):
        lst[m] = items[m]


@njit
def sorted_items(iterable, reverse=False):
    """sorted() of items the C sort does not take (tuples, strings): compared with `<`."""
    items = [x for x in iterable]
    order = _stable_order(items, reverse)
    return [items[i] for i in order]


@njit
def sort_items(lst, reverse=False):
    order = _stable_order(lst, reverse)
    items = [lst[i] for i in order]
    for m in range(len(items)):
        lst[m] = items[m]


@njit
def min_key(iterable, key):
    items = [x for x in iterable]
    if len(items) == 0:
        raise ValueError(_MIN_EMPTY)
    best = items[0]
    best_key = key(best)
    for m in range(1, len(items)):
        k = key(items[m])
        if k < best_key:
            best = items[m]
            best_key = k
    return best


@njit
def max_key(iterable, key):
    items = [x for x in iterable]
    if len(items) == 0:
        raise ValueError(_MAX_EMPTY)
    best = items[0]
    best_key = key(best)
    for m in range(1, len(items)):
        k = key(items[m])
        if k > best_key:
            best = items[m]
            best_key = k
    return best
