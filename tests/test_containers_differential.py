"""The containers differential suite (issue 13): every function of containers_catalogue.py
(lists, dicts, strings, tuples, comprehensions, closures, exceptions), compiled with njit, run
on random inputs (empty containers where an argument may be empty, strings beyond ASCII) and
compared with CPython: the same value of exactly the same types, the same changes to list
arguments (numba's reflected lists), or the same exception class. Every test proves with the
NRT counters that compiled code freed all it allocated."""
import copy
import random

import pytest

from cujit import njit
from cujit.errors import CujitError

from containers_catalogue import CASES
from exactness import exact

pytestmark = pytest.mark.usefixtures("nrt_balanced")

ALPHABET = "abc a-Z09é中文😀Ωж"
RUNS = 8  # random inputs per function (plus the kinds' fixed edge values)


def _int(rng):
    return rng.choice([0, 1, -1, 7, 12, rng.randint(-50, 50), rng.randint(-50, 50)])


def _str(rng):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 10)))


# each kind: rng -> a value (lists passed in are never empty: numba cannot type an empty
# reflected list; the functions make empty containers themselves)
ARG_KINDS = {
    "i": _int,
    "n": lambda rng: rng.randint(0, 12),
    "f": lambda rng: rng.choice([0.0, -0.0, 1.5, -2.25, 1e10, rng.uniform(-100, 100)]),
    "L": lambda rng: [rng.randint(-20, 20) for _ in range(rng.randint(1, 12))],
    "F": lambda rng: [round(rng.uniform(-9, 9), 2) for _ in range(rng.randint(1, 10))],
    "s": lambda rng: rng.choice(["", "a", "é", "😀", "ab cd", " a-b "]) if rng.random() < 0.3
    else _str(rng),
    "S": lambda rng: [_str(rng) for _ in range(rng.randint(1, 6))],
    "T": lambda rng: tuple(rng.randint(-9, 9) for _ in range(3)),
}

COMPILED = {}

# what the suite found that cujit does not compile yet (numba does): each an UnsupportedError or
# TypingError today; strict, so a gap that closes fails here until it is taken off the list
KNOWN_GAPS = {}



def _param(fn, kinds):
    gap = KNOWN_GAPS.get(fn.__name__)
    marks = [pytest.mark.xfail(raises=CujitError, strict=True, reason=gap)] if gap else []
    return pytest.param(fn, kinds, id=fn.__name__, marks=marks)




def outcome(fn, args):
    try:
        return "value", fn(*args)
    except Exception as exc:  # noqa: BLE001 (the class is what is compared)
        return "raised", type(exc)


@pytest.mark.parametrize("fn,kinds", [_param(fn, kinds) for fn, kinds in CASES])
def test_against_cpython(fn, kinds):
    compiled = COMPILED.setdefault(fn, njit(fn))
    rng = random.Random(fn.__name__)
    for _ in range(RUNS):
        args = [ARG_KINDS[k](rng) for k in kinds]
        py_args, jit_args = copy.deepcopy(args), copy.deepcopy(args)
        want = outcome(fn, py_args)
        got = outcome(compiled, jit_args)
        if got[0] == "raised" and issubclass(got[1], CujitError):
            compiled(*copy.deepcopy(args))  # a compile error: raised again, with its text
        assert got[0] == want[0], (fn.__name__, args, want, got)
        if want[0] == "raised":
            assert issubclass(got[1], want[1]), (fn.__name__, args, want, got)
        else:
            exact(got[1], want[1], rel_tol=1e-12)  # 3.12's sum() of floats compensates
        exact(jit_args, py_args, rel_tol=1e-12)  # reflected lists: the same changes seen by the caller


def test_the_suite_is_large_and_distinct():
    names = [fn.__name__ for fn, _ in CASES]
    assert len(set(names)) == len(names)
    assert len(CASES) >= 300
    assert set(KNOWN_GAPS) <= set(names)
