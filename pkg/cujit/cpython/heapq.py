"""The heapq module in compiled code, compiled from Python as numba.cpython.heapq does:
``heapify heappop heappush heapreplace heappushpop nsmallest nlargest`` on lists (reflected or
typed) of items that compare with ``<`` (numbers, tuples, strings). numba's checks and texts: a
heap that is not a list, or of complex numbers, and an item of another type than the heap's
are TypingErrors; nsmallest/nlargest take an integer n and a list, tuple or array. The
algorithms are CPython's heapq.py (a min-heap; the max-heap helpers for nsmallest), so results
and the order of equal items match CPython's."""
import heapq as _hq

from cujit.core import types
from cujit.core.extending import overload, register_jitable
from cujit.errors import TypingError


@register_jitable
def _siftdown(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


@register_jitable
def _siftup(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


@register_jitable
def _siftdown_max(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if parent < newitem:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


@register_jitable
def _siftup_max(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[rightpos] < heap[childpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown_max(heap, startpos, pos)


@register_jitable
def _heapify(x):
    for i in range(len(x) // 2 - 1, -1, -1):
        _siftup(x, i)


@register_jitable
def _heapify_max(x):
    for i in range(len(x) // 2 - 1, -1, -1):
        _siftup_max(x, i)


def _check_heap(heap):
    if not isinstance(heap, (types.List, types.ListType)):
        raise TypingError("heap argument must be a list")
    if isinstance(heap.dtype, types.Complex):
        raise TypingError("'<' not supported between instances of 'complex' and 'complex'")


def _check_item(heap, item):
    if heap.dtype != item:
        raise TypingError("heap type must be the same as item type")


@overload(_hq.heapify, target="cpu")
def _ov_heapify(x):
    _check_heap(x)

    def impl(x):
        _heapify(x)
    return impl


@overload(_hq.heappop, target="cpu")
def _ov_heappop(heap):
    _check_heap(heap)

    def impl(heap):
        lastelt = heap.pop()
        if len(heap) > 0:
            returnitem = heap[0]
            heap[0] = lastelt
            _siftup(heap, 0)
            return returnitem
        return lastelt
    return impl


@overload(_hq.heappush, target="cpu")
def _ov_heappush(heap, item):
    _check_heap(heap)
    _check_item(heap, item)

    def impl(heap, item):
        heap.append(item)
        _siftdown(heap, 0, len(heap) - 1)
    return impl


@overload(_hq.heapreplace, target="cpu")
def _ov_heapreplace(heap, item):
    _check_heap(heap)
    _check_item(heap, item)

    def impl(heap, item):
        if len(heap) == 0:
            raise IndexError("index out of range")
        returnitem = heap[0]
        heap[0] = item
        _siftup(heap, 0)
        return returnitem
    return impl


@overload(_hq.heappushpop, target="cpu")
def _ov_heappushpop(heap, item):
    _check_heap(heap)
    _check_item(heap, item)

    def impl(heap, item):
        if len(heap) > 0 and heap[0] < item:
            top = heap[0]
            heap[0] = item
            _siftup(heap, 0)
            return top
        return item
    return impl


def _check_n_iterable(n, iterable):
    if not isinstance(n, (types.Integer, types.Boolean)):
        raise TypingError("First argument 'n' must be an integer")
    if not isinstance(iterable, (types.List, types.ListType, types.UniTuple, types.Array)):
        raise TypingError("Second argument 'iterable' must be iterable")


@overload(_hq.nsmallest, target="cpu")
def _ov_nsmallest(n, iterable):
    _check_n_iterable(n, iterable)

    def impl(n, iterable):
        items = [x for x in iterable]
        if n <= 0:
            return items[:0]
        if n >= len(items):
            return sorted(items)
        result = [(items[i], i) for i in range(n)]
        _heapify_max(result)
        top = result[0][0]
        order = n
        for i in range(n, len(items)):
            elem = items[i]
            if elem < top:
                result[0] = (elem, order)
                _siftup_max(result, 0)
                top = result[0][0]
                order += 1
        result.sort()
        return [pair[0] for pair in result]
    return impl


@overload(_hq.nlargest, target="cpu")
def _ov_nlargest(n, iterable):
    _check_n_iterable(n, iterable)

    def impl(n, iterable):
        items = [x for x in iterable]
        if n <= 0:
            return items[:0]
        if n >= len(items):
            return sorted(items, reverse=True)
        result = [(items[i], -i) for i in range(n)]
        _heapify(result)
        top = result[0][0]
        order = -n
        for i in range(n, len(items)):
            elem = items[i]
            if top < elem:
                result[0] = (elem, order)
                _siftup(result, 0)
                top = result[0][0]
                order -= 1
        result.sort(reverse=True)
        return [pair[0] for pair in result]
    return impl
