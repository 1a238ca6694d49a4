"""numba.cuda.cudadrv.driver: the classes code names by this path."""
from ...errors import CudaAPIError, CudaSupportError  # noqa: F401
from ..linking import LinkerError  # noqa: F401
