"""cujit: a JIT compiler for Python functions on NVIDIA GPUs and the CPU, with numba's API."""
from . import _core, errors, types
from .annotation import annotate
from .decorators import jit, njit
from .errors import TypingError, UnsupportedError
from .npyufunc import DUFunc, guvectorize, vectorize
from .types import *  # noqa: F401,F403  (numba's type names at top level)
from .types import typeof
from .np.numpy_support import from_dtype
from .typing import parse_signature
from .np.numpy_support import from_dtype  # numba.from_dtype
from .withcontexts import objmode
from .misc.literal import literal_unroll
from .parallel import get_num_threads, get_thread_id, prange, set_num_threads
from . import cuda

__version__ = "0.1.0"


def __getattr__(name):  # numba names not there yet: a clear NotImplementedError
    if name == "extending":  # imported on first use: no registry until someone extends
        import importlib
        return importlib.import_module(".extending", __name__)
    from ._missing import TOP_LEVEL, lookup
    return lookup(TOP_LEVEL, __name__, name)
