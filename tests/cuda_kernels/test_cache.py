"""cache=True: entries persisted, reused, invalidated by changes, corrupt ones recompiled."""
import json
import os
import struct

import pytest

from cujit import cuda


def _kernel(src_value):
    def k(a):
        i = cuda.grid(1)
        a[i] = a[i] + src_value
    return k


def test_cache_roundtrip_and_corruption(tmp_path, monkeypatch, nvvm):
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path))
    d1 = cuda.jit("void(float32[:])", cache=True)(_kernel(1.0))
    files = list(tmp_path.glob("*.cjk"))
    assert len(files) == 1
    ov1 = d1._overloads[d1.signatures[0]]
    assert not ov1.result.get("cached")

    d2 = cuda.jit("void(float32[:])", cache=True)(_kernel(1.0))
    ov2 = d2._overloads[d2.signatures[0]]
    assert ov2.result.get("cached") and ov2.ptx == ov1.ptx

    # a different closure constant: a different entry
    cuda.jit("void(float32[:])", cache=True)(_kernel(2.0))
    assert len(list(tmp_path.glob("*.cjk"))) == 2

    # other options: another entry
    cuda.jit("void(float32[:])", cache=True, fastmath=True)(_kernel(1.0))
    assert len(list(tmp_path.glob("*.cjk"))) == 3

    # truncate the first entry: it is recompiled, not trusted
    data = files[0].read_bytes()
    files[0].write_bytes(data[: len(data) // 2])
    d3 = cuda.jit("void(float32[:])", cache=True)(_kernel(1.0))
    ov3 = d3._overloads[d3.signatures[0]]
    assert not ov3.result.get("cached") and ov3.ptx == ov1.ptx
    # rewritten whole: the next compile reads it
    d3b = cuda.jit("void(float32[:])", cache=True)(_kernel(1.0))
    assert d3b._overloads[d3b.signatures[0]].result.get("cached")
    data = files[0].read_bytes()

    # flip a byte inside the payload: checksum mismatch, recompiled
    bad = bytearray(data)
    bad[-10] ^= 0xFF
    files[0].write_bytes(bytes(bad))
    d4 = cuda.jit("void(float32[:])", cache=True)(_kernel(1.0))
    assert not d4._overloads[d4.signatures[0]].result.get("cached")


def test_debug_kernels_are_not_cached(tmp_path, monkeypatch, nvvm):
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path))
    cuda.jit("void(float32[:])", cache=True, debug=True)(_kernel(1.0))
    assert list(tmp_path.glob("*.cjk")) == []


def test_cache_key_changes_with_version_and_cc():
    from cujit.cuda import cache
    from cujit import float32
    f = _kernel(1.0)
    k1 = cache.key(f, (float32[:],), {"cc": (9, 0)}, "0.1.0")
    assert k1 != cache.key(f, (float32[:],), {"cc": (8, 0)}, "0.1.0")
    assert k1 != cache.key(f, (float32[:],), {"cc": (9, 0)}, "0.1.1")
    assert k1 != cache.key(_kernel(3.0), (float32[:],), {"cc": (9, 0)}, "0.1.0")


def test_cache_key_follows_globals_and_device_functions():
    # the kernel's entry depends on the globals it reads and on its callees' code
    from cujit import float32
    from cujit.cuda import cache
    ns = {"cuda": cuda, "SCALE": 2.0}
    exec("def helper(x):\n    return x * SCALE\n", ns)
    ns["helper"] = cuda.jit(device=True)(ns["helper"])
    exec("def kern(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = helper(a[i])\n", ns)
    key = lambda: cache.key(ns["kern"], (float32[:],), {"cc": (9, 0)}, "0.1.0")
    k1 = key()
    ns["SCALE"] = 3.0  # read by the callee, not by the kernel itself
    assert key() != k1


def test_entries_stay_in_the_folder_and_foreign_ones_are_recompiled(tmp_path, monkeypatch, nvvm):
    from cujit import caching
    cache = tmp_path / "a" / "b"
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(cache))
    k = _kernel(4.0)
    k.__qualname__ = "../../escaped/k"
    d1 = cuda.jit("void(float32[:])", cache=True)(k)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) == 1 and files[0].parent == cache and files[0].suffix == ".cjk"
    ov1 = d1._overloads[d1.signatures[0]]

    # the same entry signed with another user's secret: not trusted, recompiled, rewritten
    data = files[0].read_bytes()
    hlen = struct.unpack_from("<I", data, caching._HEAD.size - 4)[0]
    key = json.loads(data[caching._HEAD.size:caching._HEAD.size + hlen])["key"]
    from cujit.cuda import cache as kcache
    meta, sections = caching.decode_entry(data, kcache.MAGIC, key, caching.secret())
    files[0].write_bytes(caching.encode_entry(kcache.MAGIC, key, meta, sections, b"y" * 32))
    d2 = cuda.jit("void(float32[:])", cache=True)(k)
    ov2 = d2._overloads[d2.signatures[0]]
    assert not ov2.result.get("cached") and ov2.ptx == ov1.ptx
    d3 = cuda.jit("void(float32[:])", cache=True)(k)
    assert d3._overloads[d3.signatures[0]].result.get("cached")
