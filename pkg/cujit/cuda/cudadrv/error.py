"""numba.cuda.cudadrv.error: the classes code names by this path."""
from ...errors import CudaSupportError  # noqa: F401
from ..linking import NvrtcError  # noqa: F401
