"""cuda.jit(link=[...]) and lto=: which files can be linked into a kernel (numba-cuda's rules and
error texts). The link itself happens where the kernel is loaded (csrc/jit/kernel_link.c): .ptx
and .cu (NVRTC) files by the driver's linker, and with any .cubin, .fatbin, .o or .a file the
whole link by nvJitLink (.ltoir needs lto=True: not supported yet)."""
import os

__all__ = ["LinkerError", "NvrtcError", "check_link", "check_lto", "link_files"]


class LinkerError(RuntimeError):
    """numba.cuda.cudadrv.driver.LinkerError: a file could not be linked."""


class NvrtcError(Exception):
    """numba.cuda.cudadrv.error.NvrtcError: NVRTC could not compile a .cu file."""


# numba-cuda's kinds: PTX, CUDA C++ (compiled by NVRTC) and what nvJitLink links
_KINDS = {"ptx", "cu", "o", "a", "cubin", "fatbin", "ltoir"}


def _kind(path):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"link takes a list of file paths, not {path!r}")
    ext = os.path.splitext(os.fspath(path))[1][1:]
    if ext == "":
        raise RuntimeError("Don't know how to link file with no extension")
    if ext not in _KINDS:
        raise RuntimeError(f"Don't know how to link file with extension .{ext}")
    if ext == "ltoir":  # nvJitLink resolves LTO-IR only against LTO-IR kernels (lto=True)
        raise NotImplementedError("cuda.jit(link=[...]): linking .ltoir files needs the kernel "
                                  "compiled with lto=True, which cujit does not support yet")
    return ext


def check_link(paths):
    """Checks link=[...] at decoration: the list, each file's extension and existence."""
    if isinstance(paths, (str, bytes)) or not isinstance(paths, (list, tuple)):
        raise TypeError(f"link must be a list of file paths, not {paths!r}")
    for path in paths:
        _kind(path)
        if not os.path.isfile(path):
            raise LinkerError(f"{os.fspath(path)} not found")


def check_lto():
    raise NotImplementedError("cuda.jit(lto=True): compiling kernels to LTO-IR (NVVM -gen-lto) "
                              "is not supported by cujit yet")


def link_files(paths):
    """((kind, name, bytes), ...) of the files to link, read now (kernel.c links them when a
    version is loaded, .cu compiled by NVRTC for the device's compute capability)."""
    out = []
    for path in paths or ():
        kind = _kind(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise LinkerError(f"{os.fspath(path)} not found") from None
        out.append((kind, os.path.basename(os.fspath(path)), data))
    return tuple(out)
