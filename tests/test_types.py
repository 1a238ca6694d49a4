"""Type objects, signatures, typeof and unification: exact numba spellings."""
import numpy as np
import pytest

import cujit
from cujit import _core, types


def test_scalar_names():
    assert repr(types.float64) == "float64"
    assert types.intp is types.int64
    assert types.float_ is types.float32
    assert types.bool_ is types.boolean


@pytest.mark.parametrize("spec,expected", [
    (lambda: types.int64[:], "array(int64, 1d, A)"),
    (lambda: types.int64[::1], "array(int64, 1d, C)"),
    (lambda: types.float32[:, ::1], "array(float32, 2d, C)"),
    (lambda: types.float32[::1, :], "array(float32, 2d, F)"),
    (lambda: types.float64[:, :, :], "array(float64, 3d, A)"),
])
def test_array_specs(spec, expected):
    assert str(spec()) == expected


def test_bad_array_specs():
    with pytest.raises(TypeError):
        types.float32[1:2]
    with pytest.raises(TypeError):
        types.float32[::1, ::1]
    with pytest.raises(TypeError):
        types.float32[:, ::1, :]


def test_signature():
    sig = types.float64(types.float64, types.int32)
    assert str(sig) == "float64(float64, int32)"
    assert sig.return_type is types.float64
    assert sig.args == (types.float64, types.int32)
    assert sig == types.float64(types.float64, types.int32)
    assert hash(sig) == hash(types.float64(types.float64, types.int32))
    assert sig != types.float32(types.float64, types.int32)


def test_cast_outside_jit():
    v = types.float32(3)
    assert isinstance(v, np.float32) and v == 3.0


@pytest.mark.parametrize("value,expected", [
    (1, "int64"), (2**63, "uint64"), (1.5, "float64"), (1j, "complex128"), (True, "bool"),
    (None, "none"), (np.float32(1), "float32"), (np.uint16(3), "uint16"),
    ((1, 2), "UniTuple(int64 x 2)"), ((1, 2.0), "Tuple(int64, float64)"),
    (np.zeros(3), "array(float64, 1d, C)"), (np.zeros((2, 3), order="F"), "array(float64, 2d, F)"),
    (np.zeros((4, 4))[:, ::2], "array(float64, 2d, A)"), (np.zeros(3, np.int8), "array(int8, 1d, C)"),
])
def test_typeof(value, expected):
    assert str(cujit.typeof(value)) == expected


def test_typeof_readonly():
    a = np.zeros(3)
    a.setflags(write=False)
    assert str(cujit.typeof(a)) == "readonly array(float64, 1d, C)"


@pytest.mark.parametrize("value", [2**64, (b"s",), b"s", [[1]], object(),
                                   np.zeros(2, dtype="U3")])
def test_typeof_rejects(value):
    with pytest.raises((TypeError, OverflowError)):
        cujit.typeof(value)


def test_typeof_strings_in_containers():
    assert str(cujit.typeof(("s", 1))) == "Tuple(unicode_type, int64)"
    assert str(cujit.typeof(["s"])) == "reflected list(unicode_type)<iv=None>"
