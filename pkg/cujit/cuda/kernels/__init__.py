"""numba.cuda.kernels: library kernels written with cuda.jit (reduction)."""
