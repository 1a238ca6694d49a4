"""numba.core's public corners, at numba's module paths (`cujit.core.runtime`)."""
