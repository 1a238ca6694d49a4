"""vectorize / guvectorize with target='cuda' (numba's CUDA ufuncs and gufuncs).

The call path is C (_core.CudaUFunc, csrc/runtime/ufunc_cuda.c): it picks the loop, broadcasts,
moves host data and launches. This module is the Python half: it compiles the scalar (or core)
function as a device function for each signature at decoration, and generates, on first use,
the grid-stride kernel for one loop, a number of loop dimensions and the inputs passed as
scalars. The kernel indexes every operand with the loop indices and calls the device function:

    def __cujit_vectorize_add(n, a0, a1, o0):        # one loop dimension, array inputs
        i = cuda.grid(1)
        step = cuda.gridsize(1)
        while i < n:
            o0[i] = r0(f(c0(a0[i]), c1(a1[i])))       # c*/r0: the loop's NumPy types (casts)
            i += step
"""
import itertools
import linecache

import numpy as np

from .. import _core
from ..npyufunc import check_gufunc_signature, check_scalar_signature
from ..typing import parse_signatures

_serial = itertools.count()


def _numpy_type(t):
    return np.dtype(t.dtype.name if getattr(t, "ndim", None) else t.name).type


def _index(loop_nd):
    return "i" if loop_nd == 1 else ", ".join(f"j{d}" for d in range(loop_nd))


def kernel_source(name, nin, nout, gufunc, loop_nd, scalar_mask, cast):
    """The kernel's source: `cast[k]` says whether input k goes through its loop type c<k>."""
    idx = _index(loop_nd)
    params = ["n"] + [f"a{k}" for k in range(nin)] + [f"o{k}" for k in range(nout)]
    lines = [f"def {name}({', '.join(params)}):",
             "    i = cuda.grid(1)",
             "    step = cuda.gridsize(1)"]
    lines += [f"    s{d} = o0.shape[{d}]" for d in range(1, loop_nd)]
    lines.append("    while i < n:")
    if loop_nd > 1:  # the loop indices of i, last dimension fastest
        lines.append("        r = i")
        for d in range(loop_nd - 1, 0, -1):
            lines += [f"        j{d} = r % s{d}", f"        r = r // s{d}"]
        lines.append("        j0 = r")

    def operand(k):
        x = f"a{k}" if scalar_mask >> k & 1 else f"a{k}[{idx}]"
        return f"c{k}({x})" if cast[k] else x

    inputs = ", ".join(operand(k) for k in range(nin))
    if gufunc:
        outputs = ", ".join(f"o{k}[{idx}]" for k in range(nout))
        lines.append(f"        f({inputs}, {outputs})")
    else:
        lines.append(f"        o0[{idx}] = r0(f({inputs}))")
    lines.append("        i += step")
    return "\n".join(lines) + "\n"


class CUDAUFunc:
    """The Python half of a CUDA ufunc or gufunc; the object users hold is `.ufunc` (C), which
    looks up here what it does not have itself (py_func, signatures, types, reduce...)."""

    def __init__(self, func, sigs, nin, nout, core, gufunc, layout=None):
        from .compiler import CUDADispatcher
        self.py_func = func
        self.__name__ = getattr(func, "__name__", "ufunc")
        self.__doc__ = func.__doc__
        self.layout = layout
        self.signatures = list(sigs)
        self._gufunc = gufunc
        self._nin, self._nout = nin, nout
        self._kernels = []
        self._device = CUDADispatcher(func, None, {"device": True})
        for sig in self.signatures:  # typing errors show at decoration, as numba's
            self._device.compile(sig)
        self.ufunc = _core.CudaUFunc(self, self.__name__, nin, nout, self.signatures, core,
                                     self._build, gufunc)

    def _loop_types(self, sig):
        args = list(sig.args)
        return args if self._gufunc else args + [sig.return_type]

    @property
    def types(self):
        """NumPy's spelling of the loops ('ff->f'), in signature order."""
        out = []
        for sig in self.signatures:
            chars = [np.dtype(_numpy_type(t)).char for t in self._loop_types(sig)]
            out.append("".join(chars[:self._nin]) + "->" + "".join(chars[self._nin:]))
        return out

    @property
    def ntypes(self):
        return len(self.signatures)

    @property
    def nargs(self):
        return self._nin + self._nout

    def _build(self, loop, loop_nd, scalar_mask):
        """_core.CudaUFunc's callback: the KernelLauncher of a generated kernel."""
        from . import compiler
        from .. import cuda
        sig = self.signatures[loop]
        types = self._loop_types(sig)
        # a gufunc's array arguments are passed as views, so only its scalars are cast
        cast = [not (self._gufunc and getattr(t, "ndim", None)) for t in types[:self._nin]]
        kind = "guvectorize" if self._gufunc else "vectorize"
        name = f"__cujit_{kind}_" + "".join(ch if ch.isalnum() else "_" for ch in self.__name__)
        src = kernel_source(name, self._nin, self._nout, self._gufunc, loop_nd, scalar_mask,
                            cast)
        filename = f"<cujit {kind} kernel {self.__name__} #{next(_serial)}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        namespace = {"cuda": cuda, "f": self._device}
        for k, t in enumerate(types):
            namespace[f"c{k}" if k < self._nin else f"r{k - self._nin}"] = _numpy_type(t)
        exec(compile(src, filename, "exec"), namespace)
        kernel = compiler.CUDADispatcher(namespace[name], None, {"device": False})
        self._kernels.append(kernel)
        return kernel._launcher

    def reduce(self, arg, stream=0):
        """numba's CUDA ufunc reduce: a binary ufunc folded over a 1-D array on the device,
        pairwise (so the operation should be associative); returns the value on the host."""
        from .. import cuda
        if self._gufunc or self._nin != 2:
            raise TypeError(f"reduce needs a binary ufunc; {self.__name__} takes {self._nin} "
                            f"input(s)")
        if isinstance(arg, cuda.DeviceNDArray):
            arr = arg
        elif cuda.is_cuda_array(arg):
            arr = cuda.as_cuda_array(arg)
        else:
            arr = cuda.to_device(np.ascontiguousarray(arg), stream=stream)
        if arr.ndim != 1:
            raise NotImplementedError(f"reduce on the GPU takes 1-D arrays, not {arr.ndim}-D")
        n = arr.shape[0]
        if n == 0:
            raise ValueError(f"zero-size array to reduction operation {self.__name__} which "
                             f"has no identity")
        buf = arr
        if n > 1:
            work = cuda.device_array((n + 1) // 2, dtype=arr.dtype, stream=stream)
        while n > 1:
            half = n // 2
            self.ufunc(buf[:half], buf[half:2 * half], out=work[:half], stream=stream)
            if n % 2:
                work[half:half + 1].copy_to_device(buf[n - 1:n], stream=stream)
            buf, n = work, half + n % 2
        host = buf[:1].copy_to_host(stream=stream)
        if not isinstance(stream, int) and stream is not None:
            stream.synchronize()
        return host[0]


def _signatures(sigs, gufunc):
    if not sigs:
        raise NotImplementedError("vectorize/guvectorize with target='cuda' need signatures "
                                  "(numba's CUDA target has no dynamic ufuncs either)")
    parsed = parse_signatures(sigs)
    for sig in parsed:
        ret = sig.return_type
        if not gufunc and ret is None:
            raise TypeError(f"vectorize signatures need a return type: {sig!r}")
        if not gufunc:
            check_scalar_signature(sig)
        if gufunc and ret is not None and ret.name not in ("none", "void"):
            raise TypeError(f"guvectorize functions return nothing: {sig!r}")
    return parsed


def vectorize(sigs, func):
    parsed = _signatures(sigs, False)
    nin = len(parsed[0].args)
    if any(len(s.args) != nin for s in parsed):
        raise TypeError("every vectorize signature must take the same number of inputs")
    return CUDAUFunc(func, parsed, nin, 1, ((),) * (nin + 1), False).ufunc


def guvectorize(sigs, layout, nin, nout, core, func):
    parsed = _signatures(sigs, True)
    for sig in parsed:
        if len(sig.args) != nin + nout:
            raise TypeError(f"signature {sig!r} has {len(sig.args)} arguments; the layout "
                            f"{layout!r} has {nin + nout}")
        check_gufunc_signature(sig, layout, core)
    sigs = [_core.make_signature(None, tuple(s.args)) for s in parsed]
    return CUDAUFunc(func, sigs, nin, nout, core, True, layout).ufunc
