"""The ptxas/NVVM fixtures of tests/cuda_kernels, shared with the ufunc tests."""
import importlib.util
import os

_path = os.path.join(os.path.dirname(__file__), "..", "cuda_kernels", "conftest.py")
_spec = importlib.util.spec_from_file_location("cuda_kernels_conftest", _path)
_kernels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kernels)

assemble = _kernels.assemble
nvvm = _kernels.nvvm
