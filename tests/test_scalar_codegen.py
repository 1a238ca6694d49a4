"""The code of benchmarks/cpu_run.py's scalar kernels (issue 16): properties of the optimised IR
that numba's has too, so the loops run at numba's speed. A contiguous array is indexed with the
item size as a constant (no multiplication by a run-time stride), simple loops and fastmath
reductions are vectorised, and a constant power is multiplications."""
import os
import re
import sys

import numpy as np
import pytest

import cujit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "benchmarks"))
from cpu_run import axpy, distance2, float_sum, int_sum, lennard_jones  # noqa: E402


def body_of(f, *args):
    f(*args)
    ir = f.inspect_llvm(f.signatures[0])
    name = re.search(r"define [^@]*@(cj\.[\w.]+?)\(", ir).group(1)
    start = ir.index(f"@{name}(")
    return ir[start:ir.index("\n}\n", start)]


X = np.linspace(1.0, 2.0, 64)
KERNELS = {
    "int_sum": (cujit.njit(int_sum), (np.arange(64),), "i64"),
    "float_sum_fastmath": (cujit.njit(fastmath=True)(float_sum), (X,), "double"),
    "distance2_fastmath": (cujit.njit(fastmath=True)(distance2), (X, X[::-1].copy()), "double"),
    "axpy": (cujit.njit(axpy), (2.5, X, X, np.empty(64)), "double"),
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_contiguous_loop_is_vectorised(name):
    f, args, elem = KERNELS[name]
    body = body_of(f, *args)
    assert "vector.body" in body
    assert re.search(rf"<\d+ x {elem}>", body)
    # the element size is a constant: no integer multiplication (by a stride) anywhere
    assert not re.search(r"= mul (nuw )?(nsw )?i64", body)


def test_fastmath_reduction_has_fast_vector_adds():
    f, args, _ = KERNELS["distance2_fastmath"]
    body = body_of(f, *args)
    assert re.search(r"fadd fast <\d+ x double>", body)


def test_lennard_jones_has_no_pow():
    f = cujit.njit(lennard_jones)
    body = body_of(f, X, 0.5, 1.1)
    assert "@pow" not in body and "llvm.pow" not in body
    numba = pytest.importorskip("numba")
    assert f(X, 0.5, 1.1) == numba.njit(lennard_jones)(X, 0.5, 1.1)  # numba's products
