"""The run time of compiled code's allocations (numba.core.runtime): `rtsys`.

    from cujit.core.runtime import rtsys
    rtsys.get_allocation_stats()   # (alloc, free, mi_alloc, mi_free)

Each allocation compiled code makes (csrc/abi/nrt.c) is one meminfo, so `mi_alloc == alloc`
and `mi_free == free`; when the call that allocated has returned and its arrays are gone,
alloc == free."""
from collections import namedtuple

from .. import _core

_nrt_mstats = namedtuple("_nrt_mstats", ["alloc", "free", "mi_alloc", "mi_free"])


class _Runtime:
    """numba's rtsys: statistics of the memory compiled code allocates."""

    def get_allocation_stats(self):
        """(alloc, free, mi_alloc, mi_free) since the process started."""
        made, freed = _core.nrt_stats()
        return _nrt_mstats(made, freed, made, freed)

    def __repr__(self):
        return "cujit.core.runtime.rtsys"


rtsys = _Runtime()
