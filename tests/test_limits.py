"""Limits that used to crash or silently miscompile (issue 15): options, signatures, nesting
depth, inference rounds, number edge cases."""
import pytest

import cujit
from cujit import cuda


# ---- options: a clear TypeError/ValueError, never a half-made object ----

@pytest.mark.parametrize("options, exc", [
    (dict(opt=2 ** 100), ValueError),
    (dict(opt=-1), ValueError),
    (dict(opt=4), ValueError),
    (dict(opt="3"), TypeError),
    (dict(opt=1.5), TypeError),
    (dict(fastmath="x"), TypeError),
    (dict(fastmath={"nnan", "bogus"}), ValueError),
    (dict(boundscheck="yes"), TypeError),
    (dict(cache=2 ** 100), TypeError),
    (dict(nogil=[1]), TypeError),
    (dict(error_model=3), TypeError),
    (dict(error_model="fortran"), ValueError),
    (dict(inline="sometimes"), ValueError),
    (dict(debug="x"), TypeError),
])
def test_jit_option_values_are_checked(options, exc):
    with pytest.raises(exc):
        cujit.njit(**options)(lambda x: x)
    with pytest.raises(exc):
        cujit.jit("float64(float64)", **options)(lambda x: x)


def test_jit_good_option_values():
    for options in (dict(opt=0), dict(opt=3), dict(opt=True), dict(fastmath={"nnan", "ninf"}),
                    dict(fastmath=False), dict(boundscheck=None), dict(inline="always"),
                    dict(nogil=True, cache=False)):
        assert cujit.njit(**options)(lambda x: x + 1)(1) == 2


def test_dispatcher_rejects_bad_options_in_c():
    # the C type is reachable directly (cujit.Dispatcher): its own parsing raises cleanly
    for options, exc in ((dict(opt=2 ** 100), ValueError), (dict(opt=9), ValueError),
                         (dict(opt="x"), TypeError), (dict(error_model=3), TypeError),
                         (dict(error_model="c"), ValueError)):
        with pytest.raises(exc):
            cujit._core.Dispatcher(lambda x: x, options)


@pytest.mark.parametrize("options, exc", [
    (dict(opt=2 ** 100), ValueError),
    (dict(fastmath="x"), TypeError),
    (dict(bogus=1), TypeError),
    (dict(boundscheck="x"), TypeError),
])
def test_vectorize_option_values_are_checked(options, exc):
    with pytest.raises(exc):
        cujit.vectorize(["float64(float64)"], **options)(lambda x: x)
    with pytest.raises(exc):
        cujit.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", **options)(
            lambda x, y: None)


def test_vectorize_cache_checked():
    with pytest.raises(TypeError):
        cujit.vectorize(["float64(float64)"], cache="x")(lambda x: x)


@pytest.mark.parametrize("options, exc", [
    (dict(opt=2 ** 100), ValueError),
    (dict(max_registers=2 ** 100), ValueError),
    (dict(debug="x"), TypeError),
    (dict(lineinfo=2 ** 100), TypeError),
    (dict(fastmath="x"), TypeError),
    (dict(device="x"), TypeError),
    (dict(inline="x"), ValueError),
])
def test_cuda_jit_option_values_are_checked(options, exc):
    with pytest.raises(exc):
        cuda.jit(**options)(lambda x: None)
