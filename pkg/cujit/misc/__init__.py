"""cujit.misc: numba.misc's public helpers (literal_unroll)."""
