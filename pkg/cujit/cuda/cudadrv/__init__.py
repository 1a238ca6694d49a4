"""numba.cuda.cudadrv's module layout, for code that names its classes by full path."""
from . import devicearray, driver, error  # noqa: F401
