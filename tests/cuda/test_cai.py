"""__cuda_array_interface__ validation: every malformed dict gets a clear exception (no GPU)."""
import pytest

from cujit import _core


def cai(**over):
    d = {"shape": (3, 4), "typestr": "<f4", "data": (0x10000, False), "version": 3}
    for k, v in over.items():
        if v is KeyError:
            d.pop(k)
        else:
            d[k] = v
    return d


class Producer:
    def __init__(self, iface):
        self.__cuda_array_interface__ = iface


def test_valid_dict_is_normalised():
    r = _core.cai_parse(cai())
    assert r["shape"] == (3, 4)
    assert r["strides"] == (16, 4)  # C-contiguous filled in
    assert r["itemsize"] == 4 and r["size"] == 12
    assert r["data"] == 0x10000 and r["readonly"] is False and r["stream"] is None


def test_object_with_interface_and_explicit_strides():
    r = _core.cai_parse(Producer(cai(strides=(4, 12), data=(0x20000, True), stream=7)))
    assert r["strides"] == (4, 12) and r["readonly"] is True and r["stream"] == 7


@pytest.mark.parametrize("typestr,size", [("|b1", 1), ("<i1", 1), ("<u2", 2), ("<i8", 8),
                                          ("<f2", 2), ("<f8", 8), ("<c8", 8), ("<c16", 16),
                                          ("|u1", 1), ("=i4", 4)])
def test_supported_typestrs(typestr, size):
    assert _core.cai_parse(cai(typestr=typestr, data=(0x10000, False)))["itemsize"] == size


@pytest.mark.parametrize("over,exc,words", [
    ({"shape": KeyError}, ValueError, "missing key 'shape'"),
    ({"typestr": KeyError}, ValueError, "missing key 'typestr'"),
    ({"data": KeyError}, ValueError, "missing key 'data'"),
    ({"version": KeyError}, ValueError, "missing key 'version'"),
    ({"version": 4}, ValueError, "unsupported version"),
    ({"version": "3"}, TypeError, "'version' must be an int"),
    ({"shape": (3, -1)}, ValueError, "negative extent"),
    ({"shape": (2**62, 2**62)}, ValueError, "too large"),
    ({"shape": (2**40, 2**30)}, ValueError, "too large"),
    ({"shape": (2**70,)}, ValueError, "out of range"),
    ({"shape": "34"}, TypeError, "'shape' must be a tuple"),
    ({"shape": (3.0, 4)}, TypeError, "shape of axis 0 must be an int"),
    ({"shape": (1,) * 40}, ValueError, "exceed the limit"),
    ({"typestr": "<x4"}, ValueError, "typestr"),
    ({"typestr": "<f3"}, ValueError, "unsupported typestr"),
    ({"typestr": "f4"}, ValueError, "unknown typestr"),
    ({"typestr": "<f4junk"}, ValueError, "unknown typestr"),
    ({"typestr": ">f8"}, ValueError, "big-endian"),
    ({"typestr": "|O8"}, ValueError, "unsupported typestr"),
    ({"typestr": 4}, TypeError, "'typestr' must be a str"),
    ({"data": (0, False)}, ValueError, "null data pointer"),
    ({"data": (0x10002, False)}, ValueError, "data pointer 0x10002 is misaligned for itemsize 4"),
    ({"data": (-8, False)}, ValueError, "out of range"),
    ({"data": (0x10000,)}, TypeError, "'data' must be a (pointer, read_only) tuple"),
    ({"data": [0x10000, False]}, TypeError, "'data' must be"),
    ({"data": ("0x10000", False)}, TypeError, "data pointer must be an int"),
    ({"data": (0x10000, 0)}, TypeError, "read-only flag"),
    ({"strides": (16, 3)}, ValueError, "misaligned stride"),
    ({"strides": (16,)}, ValueError, "'strides' has 1 entries"),
    ({"strides": "x"}, TypeError, "'strides' must be a tuple"),
    ({"strides": (2**62, 4)}, ValueError, "overflows"),
    ({"stream": 0}, ValueError, "'stream' 0 is disallowed"),
    ({"stream": -1}, ValueError, "not a stream handle"),
    ({"stream": "s"}, TypeError, "'stream' must be an int"),
    ({"mask": object()}, NotImplementedError, "masked"),
])
def test_malformed(over, exc, words):
    with pytest.raises(exc, match="__cuda_array_interface__" if exc is not NotImplementedError
                       else "mask") as info:
        _core.cai_parse(cai(**over))
    assert words in str(info.value)


def test_null_pointer_allowed_for_empty_arrays():
    assert _core.cai_parse(cai(shape=(0, 4), data=(0, False)))["size"] == 0


def test_not_a_dict_and_no_interface():
    with pytest.raises(TypeError, match="must be a dict"):
        _core.cai_parse(Producer([1, 2]))
    with pytest.raises(TypeError, match="no __cuda_array_interface__"):
        _core.cai_parse(object())


def test_property_raising_propagates():
    class Bad:
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("producer broke")
    with pytest.raises(RuntimeError, match="producer broke"):
        _core.cai_parse(Bad())
