"""cujit.np: NumPy support, laid out as numba.np is (``arraymath``: the NumPy functions cujit
implements in Python and compiles like any jitted function)."""
