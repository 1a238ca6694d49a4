"""cujit.cuda.cg: numba-cuda's cooperative groups (numba.cuda.cg). Inside a kernel,
``g = cuda.cg.this_grid()`` is the whole grid and ``g.sync()`` waits until every thread of the
grid has reached it (it returns 0, as numba-cuda's); ``cuda.cg.this_thread_block().sync()`` is
``cuda.syncthreads()``. A kernel that syncs its grid is launched cooperatively: all its blocks
must be resident at once (``kernel.max_cooperative_grid_blocks(blockdim)`` says how many can
be), or the launch raises. On the host these objects only raise, as the other intrinsics do."""
from .intrinsics import Namespace, _intrinsic

__all__ = ["this_grid", "this_thread_block", "GridGroup", "ThreadBlock"]


class GridGroup(Namespace):
    """The grid of the running kernel: ``.sync()`` is a grid-wide barrier."""


class ThreadBlock(Namespace):
    """The running thread block: ``.sync()`` is a block-wide barrier."""


_grid = _intrinsic("cg.grid_group", GridGroup("cg.grid_group", ["sync"]))
_block = _intrinsic("cg.thread_block", ThreadBlock("cg.thread_block", ["sync"]))
this_grid = _intrinsic("cg.this_grid")
this_thread_block = _intrinsic("cg.this_thread_block")
