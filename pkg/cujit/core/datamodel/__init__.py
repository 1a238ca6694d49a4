"""cujit.core.datamodel (numba.core.datamodel): data models of extension types."""
from . import models  # noqa: F401
from .models import register_default  # noqa: F401
