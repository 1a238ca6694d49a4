"""Launch configurations: kernel[griddim, blockdim(, stream(, sharedmem))].

The configuration is validated here, before the driver sees it (numba's rules: ints or tuples of
1 to 3 positive ints, at most 1024 threads per block); the configured object can be kept and
called repeatedly.
"""
import operator

__all__ = ["configure", "LaunchConfiguration"]

MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK_DIMS = (1024, 1024, 64)
MAX_GRID_DIMS = (2 ** 31 - 1, 65535, 65535)


def _dim3(value, what, limits):
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an int or a tuple of 1 to 3 ints, not {value!r}")
    if not isinstance(value, tuple):
        if isinstance(value, list):
            value = tuple(value)
        else:
            try:
                value = (operator.index(value),)
            except TypeError:
                raise ValueError(f"{what} must be an int or a tuple of 1 to 3 ints, not "
                                 f"{value!r}") from None
    if not 1 <= len(value) <= 3:
        raise ValueError(f"{what} must have 1 to 3 dimensions, not {len(value)}: {value!r}")
    dims = []
    for v in value:
        if isinstance(v, bool):
            raise ValueError(f"{what} items must be ints, not {v!r}")
        try:
            v = operator.index(v)
        except TypeError:
            raise ValueError(f"{what} items must be ints, not {v!r}") from None
        if v <= 0:
            raise ValueError(f"{what} must be positive, got {value!r}")
        dims.append(v)
    while len(dims) < 3:
        dims.append(1)
    for v, limit, axis in zip(dims, limits, "xyz"):
        if v > limit:
            raise ValueError(f"{what}.{axis} = {v} exceeds the maximum {limit}")
    return tuple(dims)


class LaunchConfiguration:
    """A kernel with its grid, block, stream and dynamic shared memory size."""
    __slots__ = ("dispatcher", "griddim", "blockdim", "stream", "sharedmem", "_launch")

    def __init__(self, dispatcher, griddim, blockdim, stream=0, sharedmem=0):
        self.dispatcher = dispatcher
        self.griddim = _dim3(griddim, "griddim", MAX_GRID_DIMS)
        self.blockdim = _dim3(blockdim, "blockdim", MAX_BLOCK_DIMS)
        bx, by, bz = self.blockdim
        if bx * by * bz > MAX_THREADS_PER_BLOCK:
            raise ValueError(f"blockdim {blockdim!r} has {bx * by * bz} threads per block; the "
                             f"maximum is {MAX_THREADS_PER_BLOCK}")
        try:
            sharedmem = operator.index(sharedmem)
        except TypeError:
            raise ValueError(f"sharedmem must be an int (bytes), not {sharedmem!r}") from None
        if sharedmem < 0:
            raise ValueError(f"sharedmem must not be negative, not {sharedmem}")
        self.stream = stream
        self.sharedmem = sharedmem
        self._launch = dispatcher._launcher.launch

    def __repr__(self):
        return (f"<launch of {self.dispatcher.__qualname__} grid={self.griddim} "
                f"block={self.blockdim} sharedmem={self.sharedmem}>")

    def __call__(self, *args):
        self._launch(self.griddim, self.blockdim, self.stream, self.sharedmem, args)


def configure(dispatcher, config):
    if not isinstance(config, tuple):
        raise ValueError(f"a kernel launch needs [griddim, blockdim], not [{config!r}]")
    if not 2 <= len(config) <= 4:
        raise ValueError(f"a kernel launch takes [griddim, blockdim(, stream(, sharedmem))], "
                         f"got {len(config)} items")
    return LaunchConfiguration(dispatcher, *config)
