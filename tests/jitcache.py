"""One njit dispatcher per Python function, for the dtype and layout sweeps: a sweep that wrote
`njit(f)(x)` in its loop made a new dispatcher, and so compiled again, for every input, even
for types already compiled (CI time, not coverage: each type still compiles once)."""
import functools

from cujit import njit

jitted = functools.lru_cache(maxsize=None)(njit)
