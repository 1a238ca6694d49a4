"""The seed course's kernels, written once over a `cuda` module and scalar types, so the same
source compiles with cujit and with numba-cuda (for register comparisons and GPU runs)."""


def make(cuda, float32, device_mandel=True):
    """Returns {name: (python function, signature string)}."""

    def mandel(x, y, max_iters):
        c = complex(x, y)
        z = 0.0j
        for i in range(max_iters):
            z = z * z + c
            if (z.real * z.real + z.imag * z.imag) >= 4:
                return i
        return 255

    if device_mandel:
        mandel_dev = cuda.jit(device=True)(mandel)
    else:
        mandel_dev = None

    def create_fractal(min_x, max_x, min_y, max_y, image, iters):
        height = image.shape[0]
        width = image.shape[1]
        pixel_size_x = (max_x - min_x) / width
        pixel_size_y = (max_y - min_y) / height
        x, y = cuda.grid(2)
        if x < width and y < height:
            real = min_x + x * pixel_size_x
            imag = min_y + y * pixel_size_y
            color = mandel_dev(real, imag, iters)
            image[y, x] = color

    def create_fractal_inline(min_x, max_x, min_y, max_y, image, iters):
        height = image.shape[0]
        width = image.shape[1]
        pixel_size_x = (max_x - min_x) / width
        pixel_size_y = (max_y - min_y) / height
        x, y = cuda.grid(2)
        if x < width and y < height:
            real = min_x + x * pixel_size_x
            imag = min_y + y * pixel_size_y
            c = complex(real, imag)
            z = 0.0j
            color = 255
            for i in range(iters):
                z = z * z + c
                if (z.real * z.real + z.imag * z.imag) >= 4:
                    color = i
                    break
            image[y, x] = color

    def add(x, y, out):
        start = cuda.grid(1)
        stride = cuda.gridsize(1)
        for i in range(start, x.shape[0], stride):
            out[i] = x[i] + y[i]

    def add_simple(r, x, y):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = x[i] + y[i]

    def count(global_counter):
        cuda.atomic.add(global_counter, 0, 1)

    TILE = 32

    def transpose(a, out):
        tile = cuda.shared.array((32, 33), float32)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        x = cuda.blockIdx.x * TILE + tx
        y = cuda.blockIdx.y * TILE + ty
        if x < a.shape[1] and y < a.shape[0]:
            tile[ty, tx] = a[y, x]
        cuda.syncthreads()
        x = cuda.blockIdx.y * TILE + tx
        y = cuda.blockIdx.x * TILE + ty
        if x < out.shape[1] and y < out.shape[0]:
            out[y, x] = tile[tx, ty]

    def normalize(x):
        i = cuda.grid(1)
        mean = float32(0.0)
        for j in range(x.shape[1]):
            mean += x[i, j]
        mean /= x.shape[1]
        for j in range(x.shape[1]):
            x[i, j] = x[i, j] / mean

    def increment_kernel(a, value):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += value

    def reciprocal(x, out):
        i = cuda.grid(1)
        if i <= x.shape[0]:  # the course's off-by-one, caught by debug=True
            out[i] = 1.0 / x[i]

    return {
        "create_fractal": (create_fractal,
                           "void(float64, float64, float64, float64, uint8[:, :], int64)"),
        "create_fractal_inline": (create_fractal_inline,
                                  "void(float64, float64, float64, float64, uint8[:, :], int64)"),
        "add": (add, "void(float32[:], float32[:], float32[:])"),
        "add_simple": (add_simple, "void(int64[:], int64[:], int64[:])"),
        "count": (count, "void(int32[:])"),
        "transpose": (transpose, "void(float32[:, :], float32[:, :])"),
        "normalize": (normalize, "void(float32[:, :])"),
        "increment_kernel": (increment_kernel, "void(float32[:], float32)"),
        "reciprocal": (reciprocal, "void(float64[:], float64[:])"),
    }
