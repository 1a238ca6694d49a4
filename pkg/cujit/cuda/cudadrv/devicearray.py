"""numba.cuda.cudadrv.devicearray: the device array type and its helpers."""
from ..arrays import DeviceNDArray, DeviceRecord, as_cuda_array, is_cuda_array  # noqa: F401
from ..memory import MappedNDArray  # noqa: F401
