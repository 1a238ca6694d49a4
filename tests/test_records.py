"""Records (NumPy structured dtypes) in @njit code: typeof and numba's names, field reads and
writes (attribute and literal-string subscript), nested records, array fields, a.x views,
records passed by reference, casts on assignment, aligned and packed dtypes, several layouts,
and the errors for unsupported fields and unknown names. Differential against NumPy."""
import numpy as np
import pytest

import cujit
from cujit import from_dtype, njit, typeof
from cujit.errors import TypingError, UnsupportedError

try:
    import numba
except ImportError:  # numba is the reference for names where installed
    numba = None

INNER = np.dtype([("a", "u1"), ("b", "f4")])
PACKED = np.dtype([("x", "i4"), ("y", "f8"), ("v", "f8", (3,)), ("inner", INNER),
                   ("c", "c8"), ("flag", "?")])
ALIGNED = np.dtype([("x", "i4"), ("y", "f8"), ("v", "f8", (3,)), ("inner", INNER),
                    ("c", "c8"), ("flag", "?")], align=True)
STATE = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)  # cuda.random's


def make(dt, shape=(5,)):
    a = np.zeros(shape, dt)
    n = a.size
    flat = a.reshape(-1)
    flat["x"] = np.arange(n) - 2
    flat["y"] = np.arange(n) * 0.5
    flat["v"] = np.arange(3 * n).reshape(n, 3)
    flat["inner"]["a"] = np.arange(n) + 200
    flat["inner"]["b"] = np.arange(n) * 0.25
    flat["c"] = np.arange(n) + 1j
    flat["flag"] = np.arange(n) % 2 == 0
    return a


def same(a, b):
    """Field by field (the padding bytes of an aligned dtype are not data)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype
    for name in a.dtype.names:
        if a.dtype[name].names:
            same(a[name], b[name])
        else:
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    return True


@njit
def read_all(a):
    t = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        t += r.x * r.y + r["y"] + r.v[0] - r.v[2] + r.inner.a + a[i].inner["b"]
        t += r.c.imag + r.flag
    return t


def expected_read_all(a):
    return float(np.sum(a["x"] * a["y"] + a["y"] + a["v"][:, 0] - a["v"][:, 2] +
                        a["inner"]["a"] + a["inner"]["b"].astype(np.float64) + a["c"].imag +
                        a["flag"]))


@njit
def write_all(a):
    for i in range(a.shape[0]):
        r = a[i]
        r.x += 1                      # a record view aliases the array
        a[i].y = r.x * 1.5
        r["v"][1] = i * 10.0
        r.v[2] += r.v[0]
        r.inner.a = 255 - i
        a[i].inner["b"] = 0.5 * i
        r.c = complex(i, -i)
        r.flag = i == 1
        r.x = 2.9                     # float -> int32: truncates, as numba casts
        a[i]["x"] += i


def expected_write_all(a):
    n = a.shape[0]
    i = np.arange(n)
    a["y"] = (a["x"] + 1) * 1.5
    a["v"][:, 1] = i * 10.0
    a["v"][:, 2] += a["v"][:, 0]
    a["inner"]["a"] = 255 - i
    a["inner"]["b"] = 0.5 * i
    a["c"] = i - 1j * i
    a["flag"] = i == 1
    a["x"] = 2 + i


@pytest.mark.parametrize("dt", [PACKED, ALIGNED], ids=["packed", "aligned"])
def test_field_reads_match_numpy(dt):
    a = make(dt)
    assert read_all(a) == pytest.approx(expected_read_all(a))


@pytest.mark.parametrize("dt", [PACKED, ALIGNED], ids=["packed", "aligned"])
def test_field_writes_match_numpy(dt):
    a, b = make(dt), make(dt)
    write_all(a)
    expected_write_all(b)
    assert same(a, b)


@njit
def fill2d(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j].x = i * 10 + j
            a[i, j]["y"] = a[i, j].x * 0.5


@pytest.mark.parametrize("layout", ["C", "F", "A"])
def test_layouts(layout):
    base = make(ALIGNED, (4, 6))
    a = {"C": base, "F": np.asfortranarray(base), "A": base[:, ::2]}[layout]
    b = a.copy()
    fill2d(a)
    i, j = np.indices(b.shape)
    b["x"] = i * 10 + j
    b["y"] = b["x"] * 0.5
    assert same(a, b) and a.flags.f_contiguous == (layout == "F")
    assert typeof(a).layout == layout


@njit
def bump(r, k):
    r.s0 += k
    r["s1"] ^= r.s0
    return r.s1


@njit
def bump_all(st):
    t = np.uint64(0)
    for i in range(st.shape[0]):
        t += bump(st[i], np.uint64(i))  # a jitted callee writes through the record
    return t


def test_records_passed_by_reference():
    st = np.zeros(4, STATE)
    st["s0"] = [1, 2, 3, 2 ** 63]
    st["s1"] = 7
    ref = st.copy()
    total = bump_all(st)
    ref["s0"] += np.arange(4, dtype=np.uint64)
    ref["s1"] ^= ref["s0"]
    assert same(st, ref)
    assert total == np.sum(ref["s1"], dtype=np.uint64)
    # a single record (np.void of a[i]) as the argument: the caller sees the writes
    r = st[2]
    assert bump(r, np.uint64(5)) == st[2]["s1"]
    assert st[2]["s0"] == ref[2]["s0"] + 5


@njit
def field_views(a):
    y = a.y
    y[1] = 7.5
    return y.sum() + a["x"].sum(), a.inner


def test_array_field_views():
    a = make(PACKED)
    total, inner = field_views(a)
    assert a["y"][1] == 7.5
    assert total == pytest.approx(a["y"].sum() + a["x"].sum())
    assert inner.dtype == INNER and np.array_equal(inner, a["inner"])


@njit
def copy_record(a, i, j):
    a[i] = a[j]
    return a[i]


def test_record_assignment_and_return():
    a = make(ALIGNED)
    r = copy_record(a, 0, 3)
    assert same(a[0], a[3])
    assert isinstance(r, np.void) and r.dtype == ALIGNED and same(r, a[3])


def test_typeof_and_names():
    a = make(PACKED)
    rec = typeof(a[0])
    assert str(rec).startswith("Record(x[type=int32;offset=0],y[type=float64;offset=4],"
                               "v[type=nestedarray(float64, (3,));offset=12],")
    assert str(rec).endswith(";50;False)")
    assert from_dtype(PACKED) is rec and from_dtype(STATE) is typeof(np.zeros(1, STATE)[0])
    assert str(typeof(a)) == "unaligned array(%s, 1d, C)" % rec
    assert str(typeof(np.zeros((2, 2), STATE))) == (
        "array(Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True), 2d, C)")
    assert from_dtype(STATE)[:, ::1] is typeof(np.zeros((2, 2), STATE))
    assert str(read_all.nopython_signatures[0].args[0]) == str(typeof(make(PACKED)))
    if numba is not None:
        for dt in (PACKED, ALIGNED, STATE):
            x = np.zeros((2, 3), dt)
            assert str(typeof(x)) == str(numba.typeof(x))
            assert str(typeof(x[0, 0])) == str(numba.typeof(x[0, 0]))


def test_cache_describes_record_types():
    import json
    from cujit import caching
    for dt in (PACKED, ALIGNED, STATE):
        for t in (from_dtype(dt), typeof(np.zeros((2, 2), dt)),
                  typeof(np.zeros((2, 4), dt)[:, ::2]), typeof(np.zeros(2, dt)[::-1])):
            desc = json.loads(json.dumps(caching._describe_type(t)))
            assert caching._rebuild_type(desc) is t
    assert from_dtype(PACKED).dtype == PACKED


@pytest.mark.parametrize("dt, field", [
    ([("s", "U3"), ("x", "i4")], "s"),
    ([("x", "i4"), ("o", "O")], "o"),
    ([("x", "i4"), ("in", [("d", "M8[s]")])], "d"),
    ([("x", ">i4")], "x"),
])
def test_unsupported_fields_name_the_field(dt, field):
    with pytest.raises(UnsupportedError, match="record field '%s'" % field):
        typeof(np.zeros(2, dt))
    with pytest.raises(UnsupportedError, match="record field '%s'" % field):
        from_dtype(np.dtype(dt))


@njit
def moves(a):
    # what an array of records takes part in without being read as numbers
    t = 0.0
    for r in a:
        t += r.y
    for i, r in enumerate(a.flat):
        t += i * r.x
    for idx, r in np.ndenumerate(a):
        t += r.x
    b = a.copy()
    b[0] = b[len(b) - 1]
    b[1:3] = a[0]
    return t, b, a.T[0].y, a[np.array([2, 0])], a[a.x > 0]


def test_records_move_through_iteration_copies_and_indexing():
    a = make(ALIGNED)
    t, b, y0, fancy, masked = moves(a)
    assert t == pytest.approx(a["y"].sum() + (np.arange(5) * a["x"]).sum() + a["x"].sum())
    want = a.copy()
    want[0] = want[4]
    want[1:3] = a[0]
    assert same(b, want) and y0 == a[0]["y"]
    assert same(fancy, a[[2, 0]]) and same(masked, a[a["x"] > 0])


@pytest.mark.parametrize("src", [
    "a + 1", "a[0] == a[1]", "a.sum()", "np.sqrt(a)", "abs(a[0])", "np.concatenate((a, a))",
    "a.reshape(5)",
])
def test_records_are_not_numbers(src):
    g = {"np": np}
    exec("def f(a):\n    return " + src, g)
    with pytest.raises(TypingError, match="records or arrays of records|Unknown attribute"):
        njit(g["f"])(make(PACKED))


@njit
def item_of_argument(a):
    return a[1:][2], (a.T[0], 1)


@njit
def item_of_a_copy(a):
    b = a.copy()
    return b[1]


@njit
def item_of_a_fancy_copy(a):
    return 1, a[np.array([1, 2])][0]


def test_returned_records_must_be_the_arguments():
    # a record holds no reference to its array: one of an array the function made would be
    # read after the function freed it, so only records in the caller's memory are returned
    a = make(ALIGNED)
    r, (t, one) = item_of_argument(a)
    assert same(r, a[3]) and same(t, a[0]) and one == 1
    for f in (item_of_a_copy, item_of_a_fancy_copy):
        with pytest.raises(UnsupportedError, match="cannot return a record unless"):
            f(a)


FROZEN = make(PACKED)  # a global array: frozen into the module as read-only constants


@njit
def read_frozen(i):
    return FROZEN[i].y + FROZEN[i].v[2] + FROZEN[i].inner.a


def test_read_only_records():
    assert read_frozen(3) == FROZEN[3]["y"] + FROZEN[3]["v"][2] + FROZEN[3]["inner"]["a"]
    ro = make(ALIGNED)
    ro.setflags(write=False)
    for body in ("a[1].x = 1", "a[1]['inner'].b = 1", "r = a[1]\n    r.y += 1"):
        g = {}
        exec("def f(a):\n    " + body, g)
        with pytest.raises(TypingError, match="Cannot modify readonly array"):
            njit(g["f"])(ro)
    g = {}
    exec("def f(a):\n    a[1].v[0] = 1", g)
    with pytest.raises(TypingError, match="readonly array\\(float64, 1d, C\\)"):
        njit(g["f"])(ro)


@njit
def unknown_field(a):
    return a[0]["zz"]


@njit
def unknown_attr(a):
    return a[0].zz


@njit
def assign_array_field(a):
    a[0].v = 1.0


@njit
def assign_complex_to_int(a):
    a[0].x = 1j


@njit
def assign_attr_of_array(a):
    a.shape = 3


@njit
def runtime_field(a, i):
    return a[0][i]


def test_errors():
    a = make(PACKED)
    fields = "\\('x', 'y', 'v', 'inner', 'c', 'flag'\\)"
    with pytest.raises(TypingError, match="Field 'zz' was not found in record with fields " +
                       fields):
        unknown_field(a)
    with pytest.raises(TypingError, match="Field 'zz' was not found"):
        unknown_attr(a)
    with pytest.raises(UnsupportedError, match="array field 'v' as a whole"):
        assign_array_field(a)
    with pytest.raises(TypingError, match="cannot assign complex128 to field 'x' of type int32"):
        assign_complex_to_int(a)
    with pytest.raises(UnsupportedError, match="attribute assignment"):
        assign_attr_of_array(a)
    with pytest.raises(TypingError, match="constant field name"):
        runtime_field(a, 1)
    with pytest.raises(TypeError, match="arrays of dtype"):
        typeof(np.zeros(2, "V8"))
