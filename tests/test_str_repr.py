"""repr() of strings and numbers and str()/repr() of bools in compiled code (issue 13), with
CPython's rules: the quote that needs no escape, \\t \\n \\r by name, non-printable code points
as \\xhh / \\uhhhh / \\Uhhhhhhhh; differential against CPython over random strings of every
PEP 393 kind. Every test checks that compiled code freed what it made."""
import random

import pytest

from cujit import njit
from cujit.errors import TypingError

pytestmark = pytest.mark.usefixtures("nrt_balanced")

# printable and not: controls, DEL, Latin-1 no-break space and soft hyphen, line/paragraph
# separators, a surrogate, private use, astral emoji, a tag character, quotes and backslash
ALPHABET = "ab Z9'\"\\\t\n\r\x00\x07\x1f\x7f\x80\x9f\xa0\xadé中\u2028\u2029\ud800\ue000😀\U000e0001"


def _strings(n, seed):
    rng = random.Random(seed)
    fixed = ["", "'", '"', "'\"", "it's", 'say "hi"', "\\", "ß", "😀"]
    return fixed + ["".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 12)))
                    for _ in range(n)]


@njit
def repr_of(x):
    return repr(x)


@njit
def str_of(x):
    return str(x)


@njit
def repr_in_fstring(s, n):
    return "got " + repr(s) + " and " + repr(n) + " " + str(n > 0)


@pytest.mark.parametrize("s", _strings(80, 7))
def test_repr_of_a_string_is_cpythons(s):
    got = repr_of(s)
    assert type(got) is str and got == repr(s)


@pytest.mark.parametrize("x", [True, False, 0, -7, 2**63 - 1, 0.1, -0.0, 1e300, float("inf")])
def test_repr_and_str_of_scalars(x):
    assert repr_of(x) == repr(x)
    assert str_of(x) == str(x)


def test_repr_inside_an_expression():
    assert repr_in_fstring("a'b", 3) == "got " + repr("a'b") + " and 3 True"
    assert repr_in_fstring("", -1) == "got '' and -1 False"


def test_repr_of_what_it_cannot_show_is_a_typing_error():
    @njit
    def f(a):
        return repr(a)

    with pytest.raises(TypingError, match="repr"):
        f([1, 2])
