"""cuda.jit, compile_ptx and the kernel dispatcher (numba-cuda's API).

A kernel is compiled once per argument-type signature through the C pipeline
(_core.cuda_compile: bytecode -> typed IR -> LLVM -> libnvvm -> PTX). Eager signatures compile
at decoration; lazy kernels compile at their first launch with the launch's argument types.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from .. import _core
from ..decorators import check_option_values, core_opt_level
from ..typing import parse_signatures
from . import cache as _cache
from . import linking as _linking

__all__ = ["jit", "compile_ptx", "compile_ptx_for_current_device", "compile",
           "CUDADispatcher", "declare_device", "ExternFunction"]

_OPTIONS = {"debug", "lineinfo", "fastmath", "max_registers", "opt", "cache", "device",
            "inline", "link", "boundscheck", "forceinline", "lto", "launch_bounds",
            "extensions"}

# numba's fastmath flags as the bits of the C option (csrc/lower/lower.h, CJ_FASTMATH_*); 1 is
# every flag (fastmath=True, or the set {'fast'})
_FASTMATH_BITS = {"contract": 2, "arcp": 4, "nnan": 8, "ninf": 16, "nsz": 32, "afn": 64,
                  "reassoc": 128}

DEFAULT_CC = (9, 0)


def _check_options(options):
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown cuda.jit option(s): {', '.join(sorted(unknown))}")
    mr = options.get("max_registers")
    if mr is not None and (not isinstance(mr, int) or isinstance(mr, bool) or not 0 < mr < 256):
        raise ValueError(f"max_registers must be an int in 1..255, not {mr!r}")
    check_option_values(options, "cuda.jit")
    inline = options.get("inline", False)
    if inline not in (True, False, "always", "never") or type(inline) is int:
        raise ValueError(f"cuda.jit option inline must be 'always', 'never' or a bool, not "
                         f"{inline!r}")
    _check_launch_bounds(options.get("launch_bounds"))
    _check_extensions(options.get("extensions"))
    if options.get("device") and options.get("link"):
        raise ValueError("link keyword invalid for device function")
    if options.get("link") is not None:
        _linking.check_link(options["link"], bool(options.get("lto")))


def _check_launch_bounds(bounds):
    """numba-cuda's launch_bounds: maxThreadsPerBlock[, minBlocksPerMultiprocessor[,
    maxBlocksPerCluster]], as an int or a tuple."""
    if bounds is None:
        return
    items = (bounds,) if isinstance(bounds, int) else bounds
    if not isinstance(items, tuple) or isinstance(bounds, bool):
        raise TypeError(f"launch_bounds must be an int or a tuple of ints, not {bounds!r}")
    if len(items) > 3:
        raise ValueError(f"Got {len(items)} launch bounds: {bounds}. A maximum of three are "
                         f"supported: (max_threads_per_block, min_blocks_per_sm, "
                         f"max_blocks_per_cluster)")
    for b in items:
        if type(b) is not int or not 0 < b < 2 ** 31:
            raise ValueError(f"launch_bounds must be positive ints, not {bounds!r}")


def _check_extensions(extensions):
    if extensions is None:
        return
    if not isinstance(extensions, (list, tuple)):
        raise TypeError(f"extensions must be a list, not {type(extensions).__name__}")
    for ext in extensions:
        if not callable(getattr(ext, "prepare_args", None)):
            raise TypeError(f"extension {ext!r} has no prepare_args(ty, val, stream, retr) "
                            f"method")


def _launch_bounds(bounds):
    """launch_bounds as the C option: a tuple, or None."""
    return None if bounds is None else (bounds,) if isinstance(bounds, int) else tuple(bounds)


def _fastmath(value):
    """fastmath as the C option: 0, 1 (every flag) or the bits of a flag set."""
    if isinstance(value, bool) or not value:
        return int(bool(value))
    if "fast" in value:
        return 1
    return sum(_FASTMATH_BITS[f] for f in set(value))


def _core_options(options, cc):
    level = core_opt_level(options.get("opt", True))
    return {
        "debug": bool(options.get("debug", False)),
        "lineinfo": bool(options.get("lineinfo", False)),
        "fastmath": _fastmath(options.get("fastmath", False)),
        "max_registers": int(options.get("max_registers") or 0),
        "opt": level,
        "cc": tuple(cc),
        "launch_bounds": _launch_bounds(options.get("launch_bounds")),
        "lto": bool(options.get("lto", False)),
    }


def _current_cc():
    """The compute capability of the current device, or the default when none is present."""
    try:
        from . import get_current_device, is_available
        if is_available():
            return tuple(get_current_device().compute_capability)
    except ImportError:
        pass
    return DEFAULT_CC


class _Compiled:
    """Python's view of one compiled version (one signature) in the C table."""
    __slots__ = ("argtypes", "signature", "restype", "ptx", "llvm", "annotation", "entry",
                 "params", "cc", "result", "_launcher")

    def __init__(self, argtypes, result, launcher=None):
        self._launcher = launcher
        self.result = result
        self.argtypes = argtypes
        self.signature = result["signature"]
        self.restype = result["restype"]
        self.ptx = result["ptx"]
        self.llvm = result["llvm"]
        self.annotation = result["annotation"]
        self.entry = result["entry"]
        self.params = result["params"]
        self.cc = result["cc"]

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The most blocks of `blockdim` threads (int or tuple) this version can run at once
        on the current device, as a grid that syncs (cuda.cg) needs: numba-cuda's."""
        if self._launcher is None:
            raise TypeError("device functions are not launched")
        return self._launcher.max_cooperative_grid_blocks(self.argtypes, blockdim, dynsmemsize)


def _sass(ptx, cc):
    """SASS of a PTX module, through ptxas and nvdisasm (or cuobjdump) when installed."""
    tools = []
    for name in ("ptxas", "nvdisasm"):
        path = shutil.which(name)
        if path is None:
            for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                         "/usr/local/cuda"):
                if root and os.path.exists(os.path.join(root, "bin", name)):
                    path = os.path.join(root, "bin", name)
                    break
        if path is None:
            raise RuntimeError(f"inspect_sass needs {name} (CUDA toolkit), which was not found")
        tools.append(path)
    ptxas, nvdisasm = tools
    arch = f"sm_{cc[0]}{cc[1]}"
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        subprocess.run([ptxas, f"-arch={arch}", "-o", cubin, src], check=True,
                       capture_output=True)
        out = subprocess.run([nvdisasm, "-c", cubin], check=True, capture_output=True, text=True)
        return out.stdout


class CUDADispatcher:
    """A cuda.jit kernel or device function. Its compiled versions live in one table in C
    (_core.KernelLauncher, csrc/jit/kernel.c), which launches compile into on a miss."""

    def __init__(self, py_func, sigs, options, sigs_given=None):
        self.py_func = py_func
        self.__name__ = getattr(py_func, "__name__", "kernel")
        self.__qualname__ = getattr(py_func, "__qualname__", self.__name__)
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self.targetoptions = dict(options)
        self.device = bool(options.get("device", False))
        disk = _cache.KernelCache(py_func, self.targetoptions, _core_options) \
            if self.targetoptions.get("cache") else None
        # options without cc: each compilation takes its device's (or compile()'s cc)
        self._launcher = _core.KernelLauncher(py_func, self.__qualname__, self.device,
                                              _core_options(self.targetoptions, DEFAULT_CC),
                                              disk, _linking.link_files(options.get("link")))
        self._specialized = False
        self._specializations = {}
        if self.device:
            # lets kernels call this function (csrc/jit/compile_cuda.c), with its inlining:
            # 'always' (inline='always', numba-cuda's older inline=True, forceinline=True),
            # 'never', or None (NVVM decides)
            self.__cujit_device_function__ = py_func
            inline = options.get("inline", False)
            self.__cujit_inline__ = ("always" if inline is True or options.get("forceinline")
                                     else inline or None)
        if sigs:
            for sig in sigs:
                self.compile(sig)
            self._launcher.lock()
            self._specialized = len(sigs) == 1 and not isinstance(sigs_given, list)

    def __repr__(self):
        kind = "device function" if self.device else "kernel"
        return f"<cujit.cuda {kind} {self.__qualname__}>"

    # ---- compilation ----

    def compile(self, sig, cc=None):
        """Compiles one version for a signature (argument types; a void return for kernels)."""
        [sig] = parse_signatures(sig)
        argtypes = tuple(sig.args)
        ret = sig.return_type
        if not self.device and ret is not None and ret.name not in ("none", "void"):
            raise TypeError(f"kernel {self.__qualname__} must return void, not {ret.name} "
                            f"(signature {sig!r})")
        cc = tuple(cc) if cc is not None else _current_cc()
        result = self._launcher.compile(argtypes, ret if self.device else None, cc)
        return _Compiled(argtypes, result)

    @property
    def _overloads(self):
        """argtypes -> _Compiled, in compile order, read from the C table."""
        launcher = None if self.device else self._launcher
        return {k: _Compiled(k, r, launcher) for k, r in self._launcher.overloads().items()}

    def _attributes(self, signature):
        if self.device:
            raise TypeError("device functions have no launch resources")
        ov = self._overload(signature)
        keys = [ov.argtypes] if ov is not None else list(self._overloads)
        return {k: self._launcher.attributes(k) for k in keys}

    def _one_attribute(self, signature, name):
        values = {k: v[name] for k, v in self._attributes(signature).items()}
        return values if signature is None else next(iter(values.values()))

    def get_regs_per_thread(self, signature=None):
        """Registers per thread (cuFuncGetAttribute), per signature or for one."""
        return self._one_attribute(signature, "regs")

    def get_shared_mem_per_block(self, signature=None):
        return self._one_attribute(signature, "shared")

    def get_local_mem_per_thread(self, signature=None):
        return self._one_attribute(signature, "local")

    def get_const_mem_size(self, signature=None):
        return self._one_attribute(signature, "const")

    def get_max_threads_per_block(self, signature=None):
        return self._one_attribute(signature, "max_threads")

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0, signature=None):
        """overloads[sig].max_cooperative_grid_blocks(...) of the one compiled version (or of
        `signature`): how big a grid that syncs (cuda.cg) may be."""
        ov = self._overload(signature)
        if ov is None:
            if len(self._overloads) != 1:
                raise TypeError(f"{self.__qualname__} has {len(self._overloads)} compiled "
                                f"versions: name one with signature=")
            ov = next(iter(self._overloads.values()))
        return ov.max_cooperative_grid_blocks(blockdim, dynsmemsize)

    def _overload(self, signature):
        if signature is None:
            return None
        if not isinstance(signature, tuple):
            [sig] = parse_signatures(signature)
            signature = tuple(sig.args)
        try:
            return self._overloads[signature]
        except KeyError:
            raise KeyError(f"no compiled version of {self.__qualname__} for {signature!r}") \
                from None

    def _per_signature(self, signature, get):
        ov = self._overload(signature)
        if ov is not None:
            return get(ov)
        return {k: get(v) for k, v in self._overloads.items()}

    @property
    def signatures(self):
        return list(self._overloads)

    @property
    def overloads(self):
        return dict(self._overloads)

    @property
    def nopython_signatures(self):
        return [ov.signature for ov in self._overloads.values()]

    # ---- inspection ----

    def inspect_types(self, signature=None, file=None, pretty=False):
        """Prints each version's source with the typed IR of each line (numba's layout);
        pretty=True returns the annotated report (cujit.annotation) instead."""
        if pretty:
            from ..annotation import annotate
            return annotate(self, signature=signature)
        out = file if file is not None else sys.stdout
        texts = self._per_signature(signature, lambda ov: ov.annotation)
        for text in (texts.values() if isinstance(texts, dict) else [texts]):
            print(text, file=out)
            print("=" * 80, file=out)

    def inspect_llvm(self, signature=None):
        """The LLVM IR handed to NVVM, per signature (or for one)."""
        return self._per_signature(signature, lambda ov: ov.llvm)

    def inspect_asm(self, signature=None):
        """The PTX, per signature (or for one)."""
        return self._per_signature(signature, lambda ov: ov.ptx)

    def inspect_sass(self, signature=None):
        """The SASS (ptxas + nvdisasm), per signature (or for one)."""
        return self._per_signature(signature, lambda ov: _sass(ov.ptx, ov.cc))

    # ---- launching ----

    def __getitem__(self, config):
        if self.device:
            raise TypeError(f"device function {self.__qualname__} cannot be launched; call it "
                            f"from a kernel")
        return self._launcher.configure(config)  # validated in C, before the driver

    # ---- specialization ----

    def specialize(self, *args):
        """A dispatcher fixed to the argument types of `args` (numba-cuda's): it compiles that
        one version now and no other; the same types give the same dispatcher."""
        if self._specialized:
            raise RuntimeError("Dispatcher already specialized")
        if self.device:
            raise TypeError(f"device function {self.__qualname__} cannot be specialized")
        cc = _current_cc()
        argtypes = tuple(_typeof_arg(a) for a in args)
        found = self._specializations.get((cc, argtypes))
        if found is not None:
            return found
        spec = _dispatcher(self.py_func, None, self.targetoptions)
        spec.compile(argtypes, cc)
        spec._launcher.lock()
        spec._specialized = True
        self._specializations[cc, argtypes] = spec
        return spec

    @property
    def specialized(self):
        """True for a dispatcher made by specialize() (or given one signature at decoration)."""
        return self._specialized

    @property
    def extensions(self):
        """numba-cuda's argument preprocessors: objects whose prepare_args(ty, val, stream=,
        retr=) returns (ty, val) for each argument at launch, last extension first; functions
        appended to `retr` run after the launch."""
        return list(self.targetoptions.get("extensions") or [])

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launch over `ntasks` tasks (numba-cuda's forall): a 1-D grid of ceil(ntasks / tpb)
        blocks; the kernel maps cuda.grid(1) to a task and skips those >= ntasks. tpb=0 takes
        the block size of best occupancy (cuOccupancyMaxPotentialBlockSize) for the version the
        arguments select; ntasks=0 launches nothing."""
        if self.device:
            raise TypeError(f"device function {self.__qualname__} cannot be launched; call it "
                            f"from a kernel")
        return self._launcher.forall(ntasks, tpb, stream, sharedmem)  # validated in C

    def __call__(self, *args, **kwargs):
        if self.device:
            raise RuntimeError(f"device function {self.__qualname__} can only be called from "
                               f"kernels and other device functions")
        raise ValueError(f"kernel {self.__qualname__} must be launched with a configuration: "
                         f"{self.__name__}[griddim, blockdim](...)")


class _ExtendedDispatcher(CUDADispatcher):
    """A kernel with extensions: its launches go through _ExtendedLaunch. A class of its own, so
    the launches of other kernels pay nothing for them (not even a test)."""

    def __getitem__(self, config):
        return _ExtendedLaunch(self, CUDADispatcher.__getitem__(self, config), config)


def _dispatcher(py_func, sigs, options, sigs_given=None):
    cls = _ExtendedDispatcher if options.get("extensions") else CUDADispatcher
    return cls(py_func, sigs, options, sigs_given)


def _typeof_arg(value):
    """The type a launch gives `value` (numba-cuda's typeof_pyval): NumPy/scalars by typeof,
    objects exposing __cuda_array_interface__ by its dtype, shape and strides."""
    from .. import from_dtype, typeof
    from ..types import Array
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is None:
        return typeof(value)
    import numpy as np
    dtype = np.dtype(cai["typestr"])
    shape, strides = tuple(cai["shape"]), cai.get("strides")
    c_strides = tuple(int(np.prod(shape[i + 1:], dtype=np.int64)) * dtype.itemsize
                      for i in range(len(shape)))
    layout = "C" if strides is None or tuple(strides) == c_strides else "A"
    return Array(from_dtype(dtype), len(shape), layout)


class _ExtendedLaunch:
    """A configured launch of a kernel with extensions: each argument goes through the
    extensions' prepare_args before the C launch, and `retr` callbacks run after it. Kernels
    without extensions launch from C directly (this path costs nothing to them)."""
    __slots__ = ("_dispatcher", "_launch", "_stream")

    def __init__(self, dispatcher, launch, config):
        self._dispatcher = dispatcher
        self._launch = launch
        self._stream = config[2] if isinstance(config, tuple) and len(config) > 2 else 0

    def __call__(self, *args):
        d = self._dispatcher
        declared = None
        if d._specialized or len(d._overloads) == 1 and d._launcher.locked:
            declared = next(iter(d._overloads))
        retr = []
        prepared = []
        for i, val in enumerate(args):
            ty = declared[i] if declared is not None and i < len(declared) \
                else _typeof_arg(val)
            for ext in reversed(d.extensions):
                ty, val = ext.prepare_args(ty, val, stream=self._stream, retr=retr)
            prepared.append(val)
        result = self._launch(*prepared)
        for wb in retr:
            wb()
        return result


def jit(func_or_sig=None, device=False, **options):
    """cuda.jit: compile a kernel (or a device function with device=True) for the GPU.

    @cuda.jit, @cuda.jit("void(float32[:])"), @cuda.jit(["void(int32[:])", ...]),
    @cuda.jit(device=True), @cuda.jit(debug=True, opt=False), fastmath (bool or flag set),
    max_registers, lineinfo, cache, launch_bounds, inline/forceinline (device functions),
    link=[.ptx/.cu/.cubin/.fatbin/.o/.a files], extensions."""
    options = dict(options, device=device)
    _check_options(options)
    if callable(func_or_sig) and not isinstance(func_or_sig, (_core.Type, _core.Signature,
                                                              str)):
        return _dispatcher(func_or_sig, None, options)
    sigs = parse_signatures(func_or_sig) if func_or_sig is not None else None

    def decorate(func):
        if isinstance(func, CUDADispatcher):
            func = func.py_func
        return _dispatcher(func, sigs, options, func_or_sig)
    return decorate


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False,
                cc=None, opt=True, abi="numba", abi_info=None, output="ptx"):
    """(ptx, return type) of `pyfunc` compiled for `sig`, as numba.cuda.compile_ptx; with
    output='ltoir' (numba-cuda's cuda.compile) the code is LTO-IR bytes for nvJitLink."""
    if output not in ("ptx", "ltoir"):
        raise NotImplementedError(f"compile(output={output!r}): only 'ptx' and 'ltoir' are "
                                  f"supported")
    if abi not in ("numba", "c"):
        raise ValueError(f"abi must be 'numba' or 'c', not {abi!r}")
    if abi == "c":
        raise NotImplementedError("compile_ptx(abi='c') is not supported by cujit yet")
    if hasattr(pyfunc, "py_func"):
        pyfunc = pyfunc.py_func
    [s] = parse_signatures(sig)
    options = {"debug": debug, "lineinfo": lineinfo, "fastmath": fastmath, "opt": opt,
               "lto": output == "ltoir"}
    _check_options(options)
    cc = tuple(cc) if cc is not None else DEFAULT_CC
    ret = s.return_type
    if not device and ret is not None and ret.name not in ("none", "void"):
        raise TypeError(f"a kernel must return void, not {ret.name}")
    result = _core.cuda_compile(pyfunc, tuple(s.args), device, _core_options(options, cc),
                                ret if device else None)
    return result[output], result["restype"]


def compile_ptx_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=False,
                                   fastmath=False, opt=True, abi="numba", abi_info=None,
                                   output="ptx"):
    """compile_ptx for the compute capability of the current device."""
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=_current_cc(), opt=opt, abi=abi, abi_info=abi_info,
                       output=output)


def compile(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None,
            opt=True, abi="numba", abi_info=None, output="ptx"):
    """numba-cuda's cuda.compile: (code, return type); output 'ptx' (str) or 'ltoir' (bytes)."""
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=cc, opt=opt, abi=abi, abi_info=abi_info,
                       output=output)


class ExternFunction:
    """An external device function declared by declare_device (numba-cuda's ExternFunction):
    kernels call it with the declared signature; the code defining it (extern "C"
    __device__ int name(ret_t *ret, args...), numba's ABI) comes from its own link files or
    from the calling kernel's link=[...]."""

    def __init__(self, name, sig, link=None):
        self.name = name
        self.sig = sig
        self.link = list(link or [])
        params = ", ".join(f"a{i}" for i in range(len(sig.args)))
        # the parameters a call is folded against (csrc/typing/jitted_calls.c)
        stub = eval(f"lambda {params}: None", {})  # noqa: S307 (made from ints only)
        stub.__code__ = stub.__code__.replace(co_name=name)  # errors name the function
        stub.__name__ = stub.__qualname__ = name
        self.__cujit_device_function__ = stub
        # the link files travel with every kernel that calls it (csrc/jit/compile_cuda.c)
        self.__cujit_extern__ = (name, sig.return_type, tuple(sig.args),
                                 _linking.link_files(self.link))

    def __repr__(self):
        return f"<cujit.cuda external device function {self.name}{self.sig!r}>"

    def __call__(self, *args):
        raise RuntimeError(f"external device function {self.name} can only be called from "
                           f"kernels and device functions")


def declare_device(name, sig, link=None):
    """numba-cuda's declaration of an external device function: an ExternFunction that kernels
    call; its code comes from `link` (files linked into every kernel that calls it) or from
    the calling kernel's link=[...] (.ptx, .cu, .cubin, ...)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"declare_device: the name must be a C identifier, not {name!r}")
    [s] = parse_signatures(sig)
    if s.return_type is None:
        raise TypeError("Return type must be provided for device declarations")
    if link is not None:
        _linking.check_link(link)
    return ExternFunction(name, s, link)
