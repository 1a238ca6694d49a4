"""Dicts in compiled code (issue 13, dicts; numba's typed-dict semantics): the compact ordered
table (abi/dict.c) and CPython's hash (abi/hash.c), displays, `{}`/dict() refined by their
first d[k] = v, every method, iteration in insertion order, dicts of arrays, tuples, lists and
dicts, hash(), cujit.typed.Dict shared with Python, and numba's errors. Differential against
CPython on seeded random operations; exact result types; every test proves with the NRT
counters that each allocation is freed."""
import math

import numpy as np
import pytest

from cujit import njit, typeof, types
from cujit.errors import TypingError, UnsupportedError
from cujit.typed import Dict
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

RNG = np.random.default_rng(1313)




# ---- random operations, differential against CPython ----

def run_ops(ops, keys, vals):
    """Each op on one dict; what each returns, then the final items in order."""
    d = {}
    out = []
    for i in range(len(ops)):
        op, k, v = ops[i], keys[i], vals[i]
        if op == 0:
            d[k] = v
        elif op == 1:
            out.append(d.get(k, -1.0))
        elif op == 2:
            out.append(d.pop(k, -2.0))
        elif op == 3:
            if k in d:
                del d[k]
                out.append(1.0)
        elif op == 4:
            out.append(1.0 if k not in d else 0.0)
        elif op == 5:
            out.append(d.setdefault(k, v))
        elif op == 6:
            out.append(float(len(d)))
        elif op == 7 and len(d) > 0:
            kv = d.popitem()
            out.append(kv[1])
        elif op == 8 and len(d) > 100:
            d.clear()
    ks = [k for k in d]
    vs = [v for v in d.values()]
    for k, v in d.items():
        out.append(v)
    return out, ks, vs


run_ops_jit = njit(run_ops)


def random_ops(n, keys):
    ops = RNG.integers(0, 9, n)
    ops[: n // 3] = 0  # grow past several resizes first
    vals = RNG.standard_normal(n)
    return ops, keys, vals


@pytest.mark.parametrize("seed_keys", [
    lambda n: RNG.integers(-40, 40, n),                        # many hits, deletes, reinserts
    lambda n: RNG.integers(-2**62, 2**62, n),                  # all distinct: growth
    lambda n: RNG.choice([0.0, -0.0, 1.5, np.nan, -1.0, 1.0, np.inf], n),
    lambda n: RNG.integers(-2**31, 2**31, n).astype(np.int32) % 50,   # int32 keys
    lambda n: RNG.integers(0, 256, n).astype(np.uint8),                # uint8 keys
    lambda n: RNG.choice([0.5, -0.0, 0.0, 3.25, np.nan], n).astype(np.float32),
    lambda n: RNG.integers(0, 2, n).astype(np.bool_),                  # bool keys
    # dict.c's inline int64 path: equal hashes (-1 and -2, 0 and 2**61 - 1) of unequal keys
    lambda n: RNG.choice(np.array([-1, -2, 0, 2**61 - 1, 2**61, 1, 1 - 2**61, 2**63 - 1,
                                   -2**63], dtype=np.int64), n),
    lambda n: RNG.integers(0, 2**64, n, dtype=np.uint64) >> RNG.integers(0, 64, n).astype(
        np.uint64),                                                    # uint64 keys
])
def test_random_ops_match_cpython(seed_keys):
    for n in (0, 1, 7, 600):
        ops, keys, vals = random_ops(n, seed_keys(n))
        want = run_ops(ops.tolist(), keys.tolist(), vals.tolist())
        got = run_ops_jit(ops, keys, vals)
        exact(got, want)


def run_pair_ops(ops, a, b, vals):
    """run_ops with tuple keys (an int, a float)."""
    d = {}
    out = []
    for i in range(len(ops)):
        k = (a[i], b[i] * 0.5)
        if ops[i] < 4:
            d[k] = vals[i]
        elif ops[i] < 6:
            out.append(d.pop(k, -2.0))
        else:
            out.append(d.get(k, -1.0))
    return out, [k for k in d], [hash(k) for k in d]


run_pair_ops_jit = njit(run_pair_ops)


def test_tuple_keys_match_cpython():
    for n in (0, 5, 400):
        ops, a, b = RNG.integers(0, 8, n), RNG.integers(-5, 5, n), RNG.integers(-3, 3, n)
        vals = RNG.standard_normal(n)
        want = run_pair_ops(ops.tolist(), a.tolist(), b.tolist(), vals.tolist())
        exact(run_pair_ops_jit(ops, a, b, vals), want)


def test_nan_keys_are_never_found_and_zeros_are_one_key():
    keys = np.array([np.nan, np.nan, 0.0, -0.0, 0.0])
    ops = np.zeros(5, np.int64)
    ks = run_ops_jit(ops, keys, np.arange(5.0))[1]
    assert len(ks) == 3 and ks[0] != ks[0] and ks[1] != ks[1]
    exact(ks[2], 0.0)  # -0.0 found 0.0: the first key stays, as CPython's


# ---- displays, dict(), types ----

@njit
def display(x):
    return {1: x, 2: 2.5, 1: 3}  # noqa: F601 (a later equal key replaces the value)


@njit
def comprehension(n):
    return {i: i * i for i in range(n)}


@njit
def from_dict_call(n):
    d = dict()
    for i in range(n):
        d[(i, i * 0.5)] = i > 1
    return d


def test_display_and_comprehension_types():
    d = display(4.0)
    assert isinstance(d, Dict) and dict(d) == {1: 3.0, 2: 2.5}
    assert str(typeof(d)) == "DictType[int64,float64]<iv=None>"
    assert isinstance(typeof(d), types.DictType)
    assert typeof(d).key_type == types.int64 and typeof(d).value_type == types.float64
    c = comprehension(5)
    assert list(c.items()) == [(i, i * i) for i in range(5)]
    t = from_dict_call(3)
    assert list(t.keys()) == [(0, 0.0), (1, 0.5), (2, 1.0)] and list(t.values()) == [
        False, False, True]
    assert str(typeof(t)) == "DictType[UniTuple(float64 x 2),bool]<iv=None>" or str(
        typeof(t)) == "DictType[Tuple(int64, float64),bool]<iv=None>"


@njit
def from_zip(keys, values):
    return dict(zip(keys, values))


@njit
def from_pair_list(words):
    return dict([(w, len(w)) for w in words])


@njit
def from_enumerate(n):
    return dict(enumerate([i * 0.5 for i in range(n)]))


@pytest.mark.parametrize("seed", range(6))
def test_dict_of_pairs_matches_cpython(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 12))
    keys = [int(k) for k in rng.integers(-4, 5, n)]  # repeats: a later value replaces
    values = [float(v) for v in rng.random(n)]
    got = from_zip(keys, values)
    assert isinstance(got, Dict) and list(got.items()) == list(dict(zip(keys, values)).items())
    words = ["".join(rng.choice(list("abé😀"), int(rng.integers(0, 4)))) for _ in range(n)]
    assert list(from_pair_list(words).items()) == list(dict([(w, len(w)) for w in words]).items())
    assert list(from_enumerate(n).items()) == list(dict(enumerate([i * 0.5 for i in range(n)])).items())


def test_dict_of_what_is_not_pairs_is_numbas_no_match():
    with pytest.raises(TypingError, match="No implementation of function Function\\(<class 'dict'>\\)"):
        njit(lambda a: dict(a))([1, 2])
    with pytest.raises(TypingError, match="No implementation of function Function\\(<class 'dict'>\\)"):
        njit(lambda a: dict(a))([(1, 2, 3)])


# ---- methods ----

@njit
def methods(n):
    d = {0: 0.5}
    for i in range(1, n):
        d[i] = i * 1.5
    e = d.copy()
    e[100] = 1.0
    f = {7: 7.0}
    f.update(d)
    last = f.popitem()
    s = f.setdefault(-1, 4.0) + f.setdefault(0, 9.0)
    g = dict(f)
    d.clear()
    return len(d), len(e), len(f), last, s, len(g), 100 in e, 100 in d, e.get(100, 0.0)


def test_methods():
    n = 20
    d = {0: 0.5}
    for i in range(1, n):
        d[i] = i * 1.5
    e = d.copy()
    e[100] = 1.0
    f = {7: 7.0}
    f.update(d)
    last = f.popitem()
    s = f.setdefault(-1, 4.0) + f.setdefault(0, 9.0)
    want = (0, len(e), len(f), last, s, len(f), True, False, 1.0)
    exact(methods(n), want)


@njit
def key_error(d, k):
    return d[k]


@njit
def del_missing(d, k):
    del d[k]


@njit
def pop_missing(d, k):
    return d.pop(k)


@njit
def popitem_empty(n):
    d = {1: 1}
    for i in range(n):
        d.popitem()
    return 0


@njit
def grow_while_iterating(d):
    for k in d:
        d[k + 1000] = 1.0
    return len(d)


def test_key_errors_are_numbas():
    d = Dict.empty(types.int64, types.float64)
    d[1] = 2.0
    for fn in (key_error, del_missing, pop_missing):
        with pytest.raises(KeyError) as info:
            fn(d, 5)
        assert info.value.args == ()
    with pytest.raises(KeyError, match="dictionary is empty"):
        popitem_empty(2)
    with pytest.raises(RuntimeError, match="dictionary changed size during iteration"):
        grow_while_iterating(d)


@njit
def views(n):
    d = {i: i * 0.5 for i in range(n)}
    ks = d.keys()
    return (len(ks), len(d.values()), len(d.items()), 2 in d.keys(), (n + 1) in ks,
            3 not in d.keys())


def test_views_have_len_and_keys_have_in():
    exact(views(5), (5, 5, 5, True, False, False))
    exact(views(0), (0, 0, 0, False, False, True))


# ---- values that hold references: arrays, lists, nested dicts ----

@njit
def of_arrays(n):
    d = {}
    for i in range(n):
        d[i] = np.arange(i)
    d[0] = np.ones(3, np.int64)  # replaced: the old array is dropped
    del d[1]
    p = d.pop(2)
    total = p.sum()
    for a in d.values():
        total += a.sum()
    return total, d


@njit
def nested(n):
    outer = {}
    for i in range(n):
        inner = {}
        inner[i] = [i, i + 1]
        outer[(i, -i)] = inner
    return outer


def test_values_holding_references():
    total, d = of_arrays(5)
    assert total == 3 + 1 + 3 + 6 and list(d.keys()) == [0, 3, 4]
    np.testing.assert_array_equal(d[4], np.arange(4.0))
    del d
    o = nested(3)
    assert str(typeof(o)) == ("DictType[UniTuple(int64 x 2),DictType[int64,list(int64)"
                              "<iv=None>]<iv=None>]<iv=None>")
    assert isinstance(o[(2, -2)], Dict) and o[(2, -2)][2] == [2, 3]


# ---- hash() ----

@njit
def hashes(i, f, t, b, n):
    return hash(i), hash(f), hash(t), hash(b), hash(n), hash((t, i))


def test_hash_matches_cpython():
    ints = [0, 1, -1, -2, 2**61 - 2, 2**61 - 1, 2**61, -(2**63), 2**63 - 1, 12345678901]
    floats = [0.0, -0.0, 0.5, -1.5, 1e300, -1e-300, math.inf, -math.inf, 2.0**70, 3.0]
    for i, f in zip(ints, floats):
        t = (i, f, (True, 2))
        got = hashes(i, f, t, i > 0, np.int32(-7))
        assert got == (hash(i), hash(f), hash(t), hash(i > 0), hash(-7), hash((t, i)))
    assert hashes(1, math.nan, (1, 2.0, (False, 1)), True, np.int32(1))[1] == 0  # numba's
    assert hashes(1, 1.0, (1, 2.0, (False, 1)), True, np.uint64(2**64 - 1))[4] == hash(
        2**64 - 1)


# ---- cujit.typed.Dict from Python ----

@njit
def mutate(d):
    d[99] = -1.0
    del d[1]
    return len(d)


def test_typed_dict_shared_with_compiled_code():
    d = Dict.empty(types.int64, types.float64)
    for i in range(10):
        d[i] = i / 2
    assert mutate(d) == 10 and d[99] == -1.0 and 1 not in d
    assert list(d)[:2] == [0, 2] and d.get(1, "x") == "x" and d.pop(0) == 0.0
    assert d.popitem() == (99, -1.0) and len(d) == 8
    assert d == {i: i / 2 for i in range(2, 10)}
    e = Dict()  # typed by its first item, as numba's
    e[(1, 2.5)] = 3
    assert str(e._dict_type) == "DictType[Tuple(int64, float64),int64]<iv=None>"
    assert e.copy() == e and e.setdefault((0, 0.0), 4) == 4
    with pytest.raises(KeyError):
        e[(5, 5.0)]
    with pytest.raises(TypeError, match="no key and value types yet"):
        mutate(Dict())


def test_python_dict_argument_is_refused_as_numba_does():
    with pytest.raises(TypeError, match=r"Cannot determine Numba type of <class 'dict'>"):
        mutate({1: 2.0})


# ---- typing errors ----

def lookup_float_key(d):
    return d[1.5]


def array_key(x):
    return {np.zeros(3): x}


def list_key(x):
    return {[1]: x}


def mixed_values(x):
    return {1: x, 2: np.zeros(2)}


def never_refined():
    d = {}
    return len(d)


@pytest.mark.parametrize("fn, arg, err, text", [
    (lookup_float_key, "dict", TypingError, "cannot safely cast float64 to int64"),
    (array_key, 1.0, TypingError, r"array\(float64, 1d, C\) as key is forbidden"),
    (list_key, 1.0, TypingError, r"list\(int64\)<iv=None> as key is forbidden"),
    (mixed_values, 1.0, TypingError, "Cannot unify float64 and array"),
    (never_refined, None, TypingError, "Cannot infer the type of variable 'd'"),
])
def test_typing_errors(fn, arg, err, text):
    if arg == "dict":
        arg = Dict.empty(types.int64, types.float64)
    with pytest.raises(err, match=text):
        njit(fn)(*(() if arg is None else (arg,)))


ARRAY_1D = types.float64[:]
PAIR = types.UniTuple(types.int64, 2)


@njit
def empty_in_compiled_code(n):
    d = Dict.empty(key_type=types.int64, value_type=ARRAY_1D)
    for i in range(n):
        d[i] = np.ones(i)
    e = Dict.empty(PAIR, types.float32)
    e[(1, 2)] = 3
    return d, e


def test_dict_empty_in_compiled_code():
    d, e = empty_in_compiled_code(3)
    assert str(typeof(d)) == "DictType[int64,array(float64, 1d, A)]<iv=None>"
    assert [a.sum() for a in d.values()] == [0.0, 1.0, 2.0]
    assert str(typeof(e)) == "DictType[UniTuple(int64 x 2),float32]<iv=None>"
    exact(e[(1, 2)], 3.0)
    with pytest.raises(TypingError, match=r"Function\(Dict.empty\)"):
        njit(lambda: Dict.empty(types.int64))()
    assert dict(class_call_in_compiled_code(3)) == {0: 0.0, 1: 0.5, 2: 1.0}


@njit
def class_call_in_compiled_code(n):
    d = Dict()  # typed by its first d[k] = v, as numba's
    for i in range(n):
        d[i] = i * 0.5
    return d


def kernel_with_dict(out):
    d = {1: 2.0}
    out[0] = d[1]


def kernel_with_hash(out):
    out[0] = hash(out[0])


def test_cuda_code_has_no_dicts():
    import cujit.cuda
    with pytest.raises(UnsupportedError, match="dicts are not supported in CUDA code"):
        cujit.cuda.compile_ptx(kernel_with_dict, "void(float64[:])")
    with pytest.raises(UnsupportedError, match=r"hash\(\) is not supported in CUDA code"):
        cujit.cuda.compile_ptx(kernel_with_hash, "void(float64[:])")


def test_big_values_from_python_are_refused_not_overrun():
    d = big_value_dict(1)
    with pytest.raises(NotImplementedError, match="more than 2048 bytes"):
        d[1]
    with pytest.raises(NotImplementedError, match="more than 2048 bytes"):
        d.popitem()


@njit
def big_value_dict(n):
    t = (n, n, n, n, n, n, n, n)
    t2 = (t, t, t, t, t, t, t, t)
    return {n: (t2, t2, t2, t2, t2)}  # 2560 bytes a value


@njit
def complex_keys(zs, w):
    d = {}
    for i in range(len(zs)):
        d[zs[i]] = i
    return [k for k in d], d.get(w, -1), hash(w), hash(np.complex64(w))


def test_complex_keys_and_hash():
    zs = np.array([1 + 2j, -0.0 + 0j, 0j, 1 + 2j, complex(np.inf, -1), 3.5 - 1j])
    for w in (1 + 2j, 0j, 2j, complex(np.inf, -1), -1 + 0j):
        want = {}
        for i, z in enumerate(zs.tolist()):
            want[z] = i
        exact(complex_keys(zs, w), (list(want), want.get(w, -1), hash(w),
                                    hash(complex(np.complex64(w)))))


# ---- string keys (abi/hash.c's CJ_KEY_STR: the strings' own hash and equality) ----

def word_count(text):
    counts = {}
    for word in text.split():  # as numba types it (d.get on an empty {} does not)
        if word in counts:
            counts[word] += 1
        else:
            counts[word] = 1
    return counts


def literal_keys(k):
    d = {"alpha": 1, "béta": 2, "中文": 3}
    d["x" + k] = 4
    total = 0
    for key in d:
        total += d[key] * len(key)
    return total, "béta" in d, ("x" + k) in d, k in d, len(d)


@njit
def string_key_hashes(text):
    d = {}
    for w in text.split():
        d[w] = hash(w)
    return d


def test_word_count_matches_python():
    rng = np.random.default_rng(11)
    words = ["a", "bb", "ccc", "é", "中", "😀", "", "a b"]
    for n in (0, 1, 50, 400):
        text = " ".join(words[i] for i in rng.integers(0, len(words), n))
        got = njit(word_count)(text)
        assert dict(got) == word_count(text)
        assert list(got.keys()) == list(word_count(text).keys())  # insertion order
        assert typeof(got) == types.DictType(types.unicode_type, types.int64)


def test_literal_and_computed_string_keys():
    for k in ("", "y", "é"):
        assert njit(literal_keys)(k) == literal_keys(k)


def test_string_keys_hash_as_python():
    got = string_key_hashes("x héllo x")
    assert dict(got) == {"x": hash("x"), "héllo": hash("héllo")}
