"""numba.misc.literal's ``literal_unroll``. In the interpreter it returns its argument, as
numba's does. In compiled CPU code (csrc/typing/literal_unroll.c) ``for x in
literal_unroll(t)`` over a tuple of one item type or a list is the loop over it; numba unrolls
a loop over a heterogeneous tuple once per item type, which cujit does not do yet: such a tuple
is an UnsupportedError naming it, as is literal_unroll in CUDA code."""
from cujit.decorators import njit


def literal_unroll(container):
    """Marks a loop over ``container`` to be unrolled per item (numba.literal_unroll)."""
    return container


@njit
def _same(container):
    # what the call compiles to for a homogeneous container: the container itself
    return container
