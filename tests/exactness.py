"""exact(got, want): the one comparison of the container tests. Equal values of exactly the
same Python types, through lists, tuples and sets; floats equal with the same sign of zero (or
both NaN), or within `rel_tol` when one is given; arrays of the same dtype, shape and values."""
import math

import numpy as np


def exact(got, want, rel_tol=0.0):
    assert type(got) is type(want), (got, want)
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            exact(g, w, rel_tol)
    elif isinstance(want, (set, frozenset)):
        assert len(got) == len(want) and got == want, (got, want)
        for g in got:
            exact(g, next(w for w in want if w == g), rel_tol)
    elif isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
        np.testing.assert_array_equal(got, want)
    elif isinstance(want, float) and want != want:
        assert got != got, (got, want)
    elif isinstance(want, float) and rel_tol:
        assert math.isclose(got, want, rel_tol=rel_tol, abs_tol=rel_tol), (got, want)
    elif isinstance(want, float):
        assert got == want and math.copysign(1, got) == math.copysign(1, want), (got, want)
    else:
        assert got == want, (got, want)
