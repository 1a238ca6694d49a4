"""cujit.cpython: built-in functions and methods of Python objects compiled from Python, as
numba.cpython implements them (numba.cpython.listobj's sort with a key)."""
