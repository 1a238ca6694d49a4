"""cujit.llvm: llvmlite's ``ir`` names for the low-level extension API (``from cujit.llvm
import ir`` where numba's users write ``from llvmlite import ir``), over cujit's own C
builder: cujit does not need llvmlite."""
from . import ir  # noqa: F401
