"""cujit.np.numpy_support: NumPy dtypes and cujit types, as numba.np.numpy_support."""
from .. import _core


def from_dtype(dtype):
    """The cujit type of a NumPy dtype: a scalar type, or a Record for a structured dtype
    (numeric, nested-record and fixed-size array fields), as numba's ``from_dtype``.
    Raises ``UnsupportedError`` naming a field cujit cannot type (strings, objects)."""
    return _core.from_dtype(dtype)


__all__ = ["from_dtype"]
