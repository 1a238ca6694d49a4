"""Python lists in compiled code (issue 13, first part; numba's list semantics): the heap list
(abi/list.c, counted by the NRT), literals, `[]` refined by its first append, len, indexing,
assignment, iteration, append, pop, lists of tuples and arrays, lists returned to Python as
Python lists. Differential against CPython on random inputs; exact result types; every test
proves with the NRT counters that each allocation is freed."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError

from cujit.typed import List as TypedList
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

RNG = np.random.default_rng(13)




# ---- literals ----

def lit_ints(x):
    return [x, 2, 3]


def lit_mixed(x):
    return [x, 2.5, True]


def lit_folded():
    return [1, 2, 3, 4]


def lit_tuples(x):
    return [(x, 1.5), (2, x * 0.5)]


def lit_nested_index(x):
    return [x, 2][0] + [1.5, x][-1]


def lit_bools(x):
    return [x > 0, x < 0]


LITERALS = [(lit_ints, (7,)), (lit_folded, ()), (lit_tuples, (3,)), (lit_bools, (1,))]


@pytest.mark.parametrize("fn,args", LITERALS, ids=lambda v: getattr(v, "__name__", ""))
def test_literals(fn, args):
    exact(njit(fn)(*args), fn(*args))


def test_mixed_number_literal_unifies_as_numba():
    exact(njit(lit_mixed)(7), [7.0, 2.5, 1.0])  # numba: list(float64)
    exact(njit(lit_nested_index)(4), 8.0)


# ---- building with append, reading back ----

def build_floats(n):
    out = []
    for i in range(n):
        out.append(i * 0.5)
    return out


def build_ints_then_cast(n):
    out = [1.0]
    for i in range(n):
        out.append(i)  # int into a list(float64): converted, as numba does
    return out


def build_tuples(n):
    out = []
    for i in range(n):
        out.append((i, i * 2.0))
    return out


def summary(n):
    out = []
    for i in range(n):
        out.append(i * i - 3 * i)
    s = 0
    for v in out:
        s += v
    return len(out), s, out[0] if n else -1, out[-1] if n else -1


def pops(n):
    out = []
    for i in range(n):
        out.append(i + 0.25)
    got = []
    while len(out) > 2:
        got.append(out.pop())
        got.append(out.pop(0))
    if len(out) > 0:
        got.append(out.pop(-1))
    return got, out


build_floats_j = njit(build_floats)
build_ints_then_cast_j = njit(build_ints_then_cast)
build_tuples_j = njit(build_tuples)
summary_j = njit(summary)
pops_j = njit(pops)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 100])
def test_append_read_pop_match_python(n):
    exact(build_floats_j(n), build_floats(n))
    exact(build_ints_then_cast_j(n), [float(v) for v in build_ints_then_cast(n)])
    exact(build_tuples_j(n), build_tuples(n))
    exact(summary_j(n), summary(n))
    exact(pops_j(n), pops(n))


def test_assignment_and_negative_indices():
    f = njit(assign_inner)
    for n in (0, 3, 10):
        for k in (0, 1, -1, -3):
            exact(f(n, k), assign_inner(n, k))


def assign_inner(n, k):
    out = [1, 2, 3]
    for i in range(n):
        out.append(i)
    out[k] = 100
    out[-1] = -5
    return out


def test_random_lists_match_python():
    def work(n, seed):
        vals = []
        x = seed
        for i in range(n):
            x = (x * 1103515245 + 12345) % 2147483648
            vals.append(x % 1000 - 500)
        total = 0
        for v in vals:
            total += v
        mid = vals[len(vals) // 2] if len(vals) > 0 else 0
        return vals, total, mid

    f = njit(work)
    for n in RNG.integers(0, 50, size=8):
        seed = int(RNG.integers(0, 1000))
        exact(f(int(n), seed), work(int(n), seed))


# ---- lists of arrays ----

def arrays(n):
    out = [np.zeros(2)]
    for i in range(n):
        out.append(np.ones(2) * i)
    out[0] = np.full(2, 7.0)  # the replaced array is freed
    first = out.pop(0)
    return out, first.sum()


def arrays_of_tuples(n):
    out = []
    for i in range(n):
        out.append((i, np.arange(i)))
    total = 0
    for k, a in out:
        total += k + a.sum()
    return total, len(out)


def test_lists_of_arrays_hold_and_free_them():
    got, first = njit(arrays)(4)
    want, wfirst = arrays(4)
    assert first == wfirst and len(got) == len(want)
    for g, w in zip(got, want):
        exact(g, w)
    total, n = arrays_of_tuples(5)
    exact(njit(arrays_of_tuples)(5), (int(total), n))  # numba: a Python int


def test_list_of_argument_arrays():
    f = njit(lambda a, b: [a, b, a])
    a, b = np.arange(3.0), np.arange(3.0) + 10
    got = f(a, b)
    assert type(got) is list and got[0] is a and got[1] is b and got[2] is a


# ---- lists across jitted calls ----

@njit
def total_of(lst):
    s = 0.0
    for v in lst:
        s += v
    return s


@njit
def push(lst, v):
    lst.append(v)


def test_lists_pass_between_jitted_functions():
    @njit
    def outer(n):
        out = [0.5]
        for i in range(n):
            push(out, i * 1.0)
        return total_of(out), out

    exact(outer(4), (6.5, [0.5, 0.0, 1.0, 2.0, 3.0]))


# ---- errors ----

def test_index_errors_have_pythons_texts():
    get = njit(lambda i: [1, 2, 3][i])
    put = njit(assign_at)
    pop_empty = njit(lambda: build_floats_j(0).pop())
    pop_at = njit(lambda i: [1, 2].pop(i))
    for i in (3, -4, 100):
        with pytest.raises(IndexError, match="^list index out of range$"):
            get(i)
        with pytest.raises(IndexError, match="^list assignment index out of range$"):
            put(i)
        with pytest.raises(IndexError, match="^pop index out of range$"):
            pop_at(i)
    with pytest.raises(IndexError, match="^pop from empty list$"):
        pop_empty()


def assign_at(i):
    out = [1, 2, 3]
    out[i] = 0
    return out


def test_an_empty_list_never_refined_is_numbas_typing_error():
    def never():
        lst = []
        return len(lst)

    with pytest.raises(TypingError, match=r"Cannot infer the type of variable 'lst', have "
                                          r"imprecise type: list\(undefined\)<iv=None>"):
        njit(never)()


def test_heterogeneous_literal_is_a_typing_error():
    with pytest.raises(TypingError, match="Cannot unify int64 and array"):
        njit(lambda x, a: [x, a])(1, np.zeros(2))


def test_unsupported_method_says_so():
    from cujit.errors import UnsupportedError
    with pytest.raises(UnsupportedError, match=r"list.frobnicate\(\) is not supported"):
        njit(lambda: [1].frobnicate())()


def test_list_types_print_as_numbas():
    f = njit(build_floats)
    f(2)
    assert "list(float64)<iv=None>" in str(f.nopython_signatures[0])


def test_refused_in_cuda():
    from cujit import cuda
    from cujit.errors import UnsupportedError

    def kernel(out):
        tmp = [1.0, 2.0]
        out[0] = tmp[0]
    with pytest.raises(UnsupportedError, match="lists are not supported in CUDA code"):
        cuda.compile_ptx(kernel, "void(float64[:])")


# ---- comprehensions (3.11: the nested code inlined; 3.12: PEP 709's inlined opcodes) ----

def comp_plain(n):
    return [i * 2 for i in range(n)]


def comp_if_closure(n, k):
    return [x * k for x in range(n) if x % 2]


def comp_nested(n):
    return [[i * j for j in range(i)] for i in range(n)]


def comp_over_array(a):
    return [v + 1.0 for v in a]


def comp_captured_local(n):
    k = 3
    out = [x + k for x in range(n)]
    k = 4
    return out, k


def comp_keeps_outer_name(n):
    x = 100
    lst = [x for x in range(n)]
    return lst, x


def comp_tuples_and_arrays(n):
    pairs = [(i, np.arange(i)) for i in range(n)]
    return [p[1].sum() + p[0] for p in pairs]


def comp_over_list(n):
    base = [i * 0.5 for i in range(n)]
    return [v * v for v in base if v > 0.5]


@njit
def total_of_comp(n):
    return total_of([float(i) for i in range(n)])


COMPREHENSIONS = [comp_plain, comp_if_closure, comp_nested, comp_captured_local,
                  comp_tuples_and_arrays, comp_over_list]


@pytest.mark.parametrize("fn", COMPREHENSIONS, ids=lambda f: f.__name__)
def test_comprehensions_match_python(fn):
    j = njit(fn)
    for n in (0, 1, 5):
        args = (n, 3) if fn is comp_if_closure else (n,)
        want = fn(*args)
        if fn is comp_tuples_and_arrays:
            want = [int(v) for v in want]  # numba: Python ints
        exact(j(*args), want)


def test_comprehension_over_an_array_and_into_a_call():
    exact(njit(comp_over_array)(np.arange(3.0)), [1.0, 2.0, 3.0])
    exact(total_of_comp(5), 10.0)


def test_comprehension_variable_does_not_leak():
    # 3.11 keeps the comprehension's own variable; 3.12's inlined one keeps its last value in
    # cujit (docs/differences.md)
    import sys
    got = njit(comp_keeps_outer_name)(3)
    exact(got[0], [0, 1, 2])
    if sys.version_info < (3, 12):
        assert got[1] == 100


# ---- methods and builtins ----

def methods_ints(n, x):
    lst = list(range(n))
    lst.extend([10, 11])
    lst.extend(range(3))
    lst.insert(0, -1)
    lst.insert(-1, 99)
    lst.insert(100, 7)
    lst.insert(-100, x)
    lst.remove(10)
    i = lst.index(11)
    c = lst.count(0)
    snapshot = lst.copy()
    lst.reverse()
    del lst[0]
    del lst[-2]
    return lst, snapshot, i, c, x in lst, 1000 in lst, 1000 not in lst


def sorting_floats(vals, rev):
    lst = [v for v in vals]
    up = sorted(lst)
    down = sorted(lst, reverse=True)
    lst.sort(reverse=rev)
    return up, down, lst, sum(lst), min(lst), max(lst)


def sorting_ints(n):
    lst = [(i * 7919) % 13 - 6 for i in range(n)]
    other = sorted(range(n), reverse=True)
    lst.sort()
    return lst, other, sum(lst), min(lst), max(lst)


def slices(n, a, b, s):
    lst = [i * 1.5 for i in range(n)]
    return lst[a:b], lst[::s], lst[a:], lst[:b], lst[::-1]


def list_of_arrays_methods(n):
    lst = list()
    for i in range(n):
        lst.append(np.ones(2) * i)
    twice = lst.copy()
    twice.extend(lst)
    twice.reverse()
    del twice[0]
    lst.clear()
    total = 0.0
    for a in twice:
        total += a[0]
    return len(lst), len(twice), total


def extend_self():
    lst = [1.0, 2.0]
    lst.extend(lst)
    return lst


methods_ints_j = njit(methods_ints)
sorting_floats_j = njit(sorting_floats)
slices_j = njit(slices)


@pytest.mark.parametrize("n", [0, 1, 6])
def test_methods_match_python(n):
    for x in (0, 3, 50):
        exact(methods_ints_j(n, x), methods_ints(n, x))


def test_sorting_matches_python_and_is_stable():
    for size in (1, 2, 9, 200):
        vals = RNG.integers(-5, 5, size=size) * 0.5  # many equal items
        vals[0] = -0.0 if size > 1 else vals[0]
        for rev in (False, True):
            got = sorting_floats_j(vals, rev)
            want = sorting_floats(list(vals.tolist()), rev)
            exact(got, want)
            for g, w in zip(got[:3], want[:3]):  # -0.0 and 0.0 keep their order
                assert [np.signbit(v) for v in g] == [np.signbit(v) for v in w]
    exact(njit(sorting_ints)(30), sorting_ints(30))


def test_slices_match_python():
    for n in (0, 5):
        for a, b, s in ((1, 3, 2), (-2, 10, -1), (0, -1, 3)):
            exact(slices_j(n, a, b, s), slices(n, a, b, s))


def test_methods_on_lists_of_arrays_count_references():
    a, b, total = list_of_arrays_methods(4)
    exact(njit(list_of_arrays_methods)(4), (a, b, float(total)))
    exact(njit(extend_self)(), extend_self())


def test_method_errors_have_numbas_texts():
    remove = njit(lambda x: [1, 2].remove(x))
    index = njit(lambda x: [1, 2].index(x))
    smallest = njit(lambda n: min([i * 1.0 for i in range(n)]))
    largest = njit(lambda n: max([i for i in range(n)]))
    with pytest.raises(ValueError, match=r"^list.remove\(x\): x not in list$"):
        remove(5)
    with pytest.raises(ValueError, match="^value not in list$"):
        index(5)
    with pytest.raises(ValueError, match=r"^min\(\) arg is an empty sequence$"):
        smallest(0)
    with pytest.raises(ValueError, match=r"^max\(\) arg is an empty sequence$"):
        largest(0)
    assert smallest(3) == 0.0 and largest(3) == 2


def test_delete_out_of_range():
    def drop(i):
        lst = [1, 2, 3]
        del lst[i]
        return lst
    f = njit(drop)
    exact(f(-1), [1, 2])
    with pytest.raises(IndexError, match="^list assignment index out of range$"):
        f(3)


# ---- lists passed in from Python (numba's reflected lists) ----

@njit
def mutate(lst):
    lst.append(lst[0] * 2)
    lst[0] = -1
    return len(lst)


@njit
def reads(lst):
    s = 0.0
    for v in lst:
        s += v
    return s


@njit
def same_list(lst):
    return lst


@njit
def sort_in_place(lst):
    lst.sort()


@njit
def raises_after_append(lst):
    lst.append(1)
    raise ValueError("after append")


def test_reflected_list_changes_reach_the_caller():
    a = [3, 4]
    assert mutate(a) == 3 and a == [-1, 4, 6] and all(type(v) is int for v in a)
    b = [2.5, 1.0, 2.0]
    sort_in_place(b)
    assert b == [1.0, 2.0, 2.5]
    assert "reflected list(int64)<iv=None>" in str(mutate.nopython_signatures[0])


def test_reflected_list_untouched_keeps_its_objects():
    vals = [np.float64(1.5), np.float64(2.5)]
    assert reads(vals) == 4.0
    assert all(type(v) is np.float64 for v in vals)  # not written back: unchanged


def test_reflected_list_returned_is_the_callers_list():
    a = [1, 2]
    assert same_list(a) is a


def test_reflected_list_is_written_back_when_the_function_raises():
    a = [5]
    with pytest.raises(ValueError, match="after append"):
        raises_after_append(a)
    assert a == [5, 1]  # numba reflects on the way out either way


def test_reflected_list_of_arrays():
    arrs = [np.zeros(2), np.ones(2)]
    first = arrs[0]

    @njit
    def grow(lst):
        lst.append(lst[1] + 1)
        return lst[1].sum()

    assert grow(arrs) == 2.0 and len(arrs) == 3 and arrs[0] is first
    np.testing.assert_array_equal(arrs[2], [2.0, 2.0])


def test_reflected_list_errors_are_numbas():
    with pytest.raises(ValueError, match="cannot compute fingerprint of empty list"):
        mutate([])
    with pytest.raises(TypeError, match="can't unbox heterogeneous list: int64 != float64"):
        mutate([1, 2.5])
    with pytest.raises(TypeError, match="cannot reflect element of reflected container"):
        mutate([[1], [2]])
    with pytest.raises(TypeError, match="lists inside tuples or lists are not supported"):
        njit(lambda t: t[0])(([1],))


# ---- cujit.typed.List (numba's typed.List) ----

@njit
def typed_work(tl):
    tl.append(10)
    tl[0] = -5
    s = 0
    for v in tl:
        s += v
    return s, tl


def test_typed_list_from_python():
    import cujit
    from cujit.typed import List
    tl = List()
    for v in (3, 1, 2):
        tl.append(v)
    assert len(tl) == 3 and tl[0] == 3 and tl[-1] == 2 and list(tl) == [3, 1, 2]
    assert repr(tl) == "ListType[int64]([3, 1, 2])" and tl._dtype is cujit.int64
    assert tl.pop() == 2 and tl.pop(0) == 3 and list(tl) == [1]
    e = List.empty_list(cujit.float64)
    e.extend([1.5, 2.5])
    e[1] = 4.0
    assert list(e) == [1.5, 4.0] and type(e[0]) is float
    with pytest.raises(IndexError, match="list index out of range"):
        e[5]
    with pytest.raises(IndexError, match="pop from empty list"):
        List.empty_list(cujit.int64).pop()
    assert list(List([(1, 2.0), (3, 4.0)])) == [(1, 2.0), (3, 4.0)]


def test_typed_list_is_shared_with_compiled_code():
    from cujit.typed import List
    tl = List([1, 2])
    total, back = typed_work(tl)
    assert total == 7 and list(tl) == [-5, 2, 10]  # no copy: the function changed it
    assert type(back) is List and list(back) == [-5, 2, 10]
    back.append(1)
    assert len(tl) == 4  # the same memory
    assert "ListType[int64]" in str(typed_work.nopython_signatures[0])


def test_typed_list_limits_are_clear():
    import cujit
    from cujit.errors import UnsupportedError
    from cujit.typed import List
    with pytest.raises(TypeError, match="no item type yet"):
        typed_work(List())
    with pytest.raises(NotImplementedError, match="typed.List of array"):
        List([np.zeros(2)])
    with pytest.raises(UnsupportedError, match="lists are not supported in CUDA code"):
        cujit.cuda.compile_ptx(uses_typed_list, "void(float64[:])")


def uses_typed_list(out):
    tl = TypedList()
    tl.append(1.0)
    out[0] = tl[0]


def test_typed_list_made_in_compiled_code():
    import cujit
    from cujit.typed import List

    @njit
    def make(n):
        floats = List()
        for i in range(n):
            floats.append(i * 0.5)
        ints = List.empty_list(cujit.int64)
        ints.append(n)
        arrays = List()
        for i in range(n):
            arrays.append(np.ones(2) * i)
        return floats, ints, List([i for i in range(n)]), arrays

    floats, ints, copied, arrays = make(3)
    assert type(floats) is List and repr(floats) == "ListType[float64]([0.0, 0.5, 1.0])"
    assert list(ints) == [3] and list(copied) == [0, 1, 2]
    assert arrays.pop().tolist() == [2.0, 2.0] and len(arrays) == 2
    with pytest.raises(NotImplementedError, match="storing array.* from Python"):
        arrays.append(np.zeros(2))

    def never():
        tl = List()
        return len(tl)

    with pytest.raises(TypingError, match=r"imprecise type: ListType\[undefined\]"):
        njit(never)()
