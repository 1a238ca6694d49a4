"""Run under the CUDA simulator (CUJIT_ENABLE_CUDASIM=1): cuda.reduce's kernel itself, as
Python, against NumPy: the grid-stride loop (unrolled steps and the tail), partial warps and
blocks, the last block's pass over the partials, init, size= and res=. The simulator has no
shuffles, so this is the shared-memory block reduction; the shuffle tree runs in
test_reduce_gpu.py. Invoked by test_reduce.py in a subprocess."""
import numpy as np

from cujit import cuda

assert cuda.SIMULATOR


def largest(a, b):
    return a if a > b else b


total = cuda.reduce(lambda a, b: a + b)
top = cuda.Reduce(largest)

# 4 blocks of 256 (one simulated SM): 13500 elements take a step of 8, one of 4, then the tail
a = np.random.default_rng(1).integers(-1000, 1000, 13_500).astype(np.float64)
got = total(a, init=2.5)
assert got == a.sum() + 2.5 and type(got) is np.float64, (got, a.sum() + 2.5)
d = cuda.to_device(a.astype(np.int32))
assert top(d, init=-5000) == a.max() and top(d, size=33, init=-5000) == a[:33].max()
assert top(d, init=10_000) == 10_000  # init takes part in the reduction
res = cuda.device_array(3, dtype=np.int32)
assert total(d, size=300, res=res, init=1) is None
assert res.copy_to_host()[0] == a[:300].sum() + 1
print("ALL OK")
