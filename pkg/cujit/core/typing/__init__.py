"""cujit.core.typing (numba.core.typing): typing templates of the extension API."""
from . import templates  # noqa: F401
