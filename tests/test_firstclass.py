"""First-class jitted functions (issue 13): an njit function passed as an argument, alone or
in a tuple, and called there (numba's Dispatcher type: the callee specialised per function); a
jitted function picked by a compile-time branch; an inner function or lambda passed to another
jitted function (jitted where it is passed, numba's MakeFunctionToJitFunction); and sorting and
min/max by a key= function (sorted, list.sort, min, max), stable as CPython's. Each is compared
with CPython on random inputs, exact types; the NRT counters prove every list is freed."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError, UnsupportedError
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

RNG = np.random.default_rng(1313)




def ints(n, lo=-20, hi=20):
    return [int(v) for v in RNG.integers(lo, hi, n)]


def floats(n):
    return [float(v) for v in np.round(RNG.normal(0, 10, n), 1)]


# ---- jitted functions as values ----

def square(x):
    return x * x


def negate(x):
    return -x


def halve(x):
    return x / 2


sq_j, neg_j, half_j = njit(square), njit(negate), njit(halve)


def apply(f, x):
    return f(x)


def apply_twice(f, x):
    return f(f(x))


def apply_pair(fs, x):
    return fs[0](x) + fs[1](x)


def compose(f, g, x):
    return apply_j(f, g(x))


apply_j, twice_j, pair_j, compose_j = njit(apply), njit(apply_twice), njit(apply_pair), \
    njit(compose)


@pytest.mark.parametrize("x", [3, -7, 2.5])
def test_a_jitted_function_passed_and_called(x):
    for f, py in ((sq_j, square), (neg_j, negate), (half_j, halve)):
        exact(apply_j(f, x), apply(py, x))
        exact(twice_j(f, x), apply_twice(py, x))
    exact(pair_j((sq_j, neg_j), x), apply_pair((square, negate), x))
    exact(compose_j(sq_j, neg_j, x), square(negate(x)))


def test_the_callee_is_specialised_per_function():
    apply_j(sq_j, 2)
    apply_j(neg_j, 2)
    sigs = [str(s) for s in apply_j.signatures]
    assert any("square" in s for s in sigs) and any("negate" in s for s in sigs)
    assert len({s for s in sigs if "int64" in s}) >= 2


def in_a_local_tuple(x):
    fs = (sq_j, neg_j, half_j)
    return fs[0](x) + fs[1](x) + fs[2](x)


USE_SQUARE = True


def chosen_at_compile_time(x):
    f = sq_j if USE_SQUARE else neg_j
    return f(x)


@pytest.mark.parametrize("fn", [in_a_local_tuple, chosen_at_compile_time])
def test_global_jitted_functions_as_values(fn):
    for x in ints(4) + floats(2):
        exact(njit(fn)(x), fn(x))


def chosen_at_run_time(x, flag):
    f = sq_j if flag else neg_j
    return f(x)


def test_a_function_chosen_at_run_time_does_not_unify():
    with pytest.raises(TypingError, match="Cannot unify"):
        njit(chosen_at_run_time)(2, True)


def test_a_python_function_is_no_argument():
    with pytest.raises(TypeError, match="cannot compile for an argument of type function"):
        apply_j(square, 2)


# ---- inner functions and lambdas passed to jitted functions ----

def lambda_passed(x):
    return apply_j(lambda v: v * 3 + 1, x)


def inner_passed(x):
    def cube(v):
        return v * v * v
    return apply_j(cube, x) + twice_j(cube, x)


def lambda_with_default(x):
    return apply_j(lambda v, k=4: v - k, x)


@pytest.mark.parametrize("fn, py", [
    (lambda_passed, lambda x: x * 3 + 1),
    (inner_passed, lambda x: x * x * x + (x * x * x) ** 3),
    (lambda_with_default, lambda x: x - 4),
])
def test_inner_functions_and_lambdas_passed(fn, py):
    # CPython cannot run fn (a jitted callee takes no Python function): py says what it does
    jf = njit(fn)
    for x in ints(3) + [2.5, -1.5]:
        exact(jf(x), py(x))


def reads_enclosing(x):
    k = x + 1
    return apply_j(lambda v: v + k, x)


def test_a_passed_function_that_reads_the_enclosing_scope_says_so():
    with pytest.raises(UnsupportedError, match="reads variable 'k' of the enclosing function"):
        njit(reads_enclosing)(2)


# ---- key= ----

def sorted_lambda(a):
    return sorted(a, key=lambda v: v % 5)


def sorted_lambda_reverse(a):
    return sorted(a, key=lambda v: v % 5, reverse=True)


def sorted_jitted_key(a):
    return sorted(a, key=neg_j)


def sorted_inner_key(a):
    def by_abs(v):
        return abs(v)
    return sorted(a, key=by_abs, reverse=False)


def sorted_tuple(a):
    return sorted((a[0], a[1], a[2]), key=lambda v: -v)


def sorted_range(n):
    return sorted(range(n), key=lambda v: (v * 7) % 5)


def sort_in_place(a):
    a.sort(key=lambda v: v % 3)
    return a


def sort_in_place_reverse(a):
    a.sort(key=sq_j, reverse=True)
    return a


def sort_local_list(n):
    lst = [(i * 37) % 11 for i in range(n)]
    lst.sort(key=lambda v: -v)
    return lst


def min_key(a):
    return min(a, key=lambda v: abs(v - 3))


def max_key(a):
    return max(a, key=lambda v: v % 4)


def max_jitted_key(a):
    return max(a, key=sq_j), min(a, key=sq_j)


LIST_FNS = [sorted_lambda, sorted_lambda_reverse, sorted_jitted_key, sorted_inner_key,
            sorted_tuple, sort_in_place, sort_in_place_reverse, min_key, max_key,
            max_jitted_key]


@pytest.mark.parametrize("fn", LIST_FNS)
def test_key_functions_match_python(fn):
    jf = njit(fn)
    for data in (ints(12), ints(5, 0, 3), [3, 1, 2], floats(9)):
        exact(jf(list(data)), fn(list(data)))


@pytest.mark.parametrize("fn", [sorted_range, sort_local_list])
def test_key_functions_over_ranges_and_local_lists(fn):
    jf = njit(fn)
    for n in (0, 1, 9):
        exact(jf(n), fn(n))


def test_sorting_by_key_is_stable():
    data = [(i * 7) % 10 for i in range(40)]
    # equal keys keep their order, reverse too (Python's guarantee)
    exact(njit(sorted_lambda)(list(data)), sorted_lambda(list(data)))
    exact(njit(sorted_lambda_reverse)(list(data)), sorted_lambda_reverse(list(data)))


def test_float_keys():
    data = floats(10)
    exact(njit(sorted_jitted_key)(list(data)), sorted_jitted_key(list(data)))
    exact(njit(max_jitted_key)(list(data)), max_jitted_key(list(data)))


def empty_min(n):
    return min([i for i in range(n)], key=lambda v: -v)


def test_min_of_nothing_is_pythons_value_error():
    with pytest.raises(ValueError) as want:
        empty_min(0)
    with pytest.raises(ValueError, match=f"^{want.value.args[0]}$".replace("(", r"\(")
                       .replace(")", r"\)")):
        njit(empty_min)(0)


def key_not_a_function(a):
    return sorted(a, key=3)


def reverse_not_an_integer(a):
    return sorted(a, key=neg_j, reverse=1.5)


@pytest.mark.parametrize("fn, words", [
    (key_not_a_function, "Key must be None or a Numba JIT compiled function"),
    (reverse_not_an_integer, r"an integer is required for 'reverse' \(got type float64\)"),
])
def test_numbas_key_errors(fn, words):
    with pytest.raises(TypingError, match=words):
        njit(fn)([1, 2])


def test_a_signature_with_a_function_is_not_cached_on_disk(tmp_path):
    # its type is this process's function object: another process must compile its own
    import sys
    (tmp_path / "fc_mod.py").write_text(
        "from cujit import njit\n"
        "@njit\n"
        "def sq(x):\n    return x * x\n"
        "@njit(cache=True)\n"
        "def app(f, x):\n    return f(x)\n"
        "@njit(cache=True)\n"
        "def plain(x):\n    return x + 1\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import fc_mod
        assert fc_mod.app(fc_mod.sq, 3) == 9 and fc_mod.app((fc_mod.sq), 2.0) == 4.0
        assert fc_mod.plain(1) == 2
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("fc_mod", None)
    cached = list((tmp_path / "__pycache__").glob("*.cjc"))
    assert len(cached) == 1  # plain's entry only
