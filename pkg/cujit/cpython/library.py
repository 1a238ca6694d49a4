"""The functions of Python's standard library that cujit compiles from Python, as numba's
overloads: importing this module registers them with cujit.extending's registry (typing
imports it on the first call it types, csrc/typing/extensions.c)."""
from cujit.cpython import (builtins, cmathimpl, functools, heapq, iterators,  # noqa: F401
                           operator, randomimpl, rangeobj)
