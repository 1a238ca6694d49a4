"""Regenerates the literal tables of test_typing_rules.py by compiling with numba (not collected).

    python3 tests/cpu/gen_typing_tables.py > /tmp/tables.py   # then paste into test_typing_rules.py
Each cell is numba's return type for the operation, or 'ERR' where numba raises TypingError.
"""
import os
import sys
import warnings

os.environ["CUJIT_TEST_ORACLE"] = "numba"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness as H  # noqa: E402
from test_typing_rules import (BINOPS, JOINS, SCALARS, UNARY, make_binop, make_join,  # noqa: E402
                               make_unary, result_type)


def table(make, keys, pairs):
    out = {}
    for k in keys:
        f = make(k)
        row = []
        for args in pairs:
            row.append(result_type(f, *args))
        out[k] = row
    return out


def main():
    warnings.simplefilter("ignore")
    pairs = [(a, b) for a in SCALARS for b in SCALARS]
    print("BINOP_TABLE = {")
    for op in BINOPS:
        f = make_binop(op)
        print(f"    {op!r}: [")
        for a in SCALARS:
            cells = [result_type(f, a, b) for b in SCALARS]
            print(f"        {cells!r},  # {a}")
        print("    ],")
    print("}\n")
    print("UNARY_TABLE = {")
    for op in UNARY:
        f = make_unary(op)
        print(f"    {op!r}: {[result_type(f, a) for a in SCALARS]!r},")
    print("}\n")
    print("JOIN_TABLE = {")
    for form in JOINS:
        f = make_join(form)
        print(f"    {form!r}: [")
        for a in SCALARS:
            cells = [result_type(f, a, b, "bool") for b in SCALARS]
            print(f"        {cells!r},  # {a}")
        print("    ],")
    print("}")
    assert H.is_numba()


if __name__ == "__main__":
    main()
