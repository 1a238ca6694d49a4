"""cuda.jit(link=[...]) and lto=: which files can be linked into a kernel (numba-cuda's rules and
error texts). The link itself happens where the kernel is loaded (csrc/jit/kernel_link.c): .ptx
and .cu (NVRTC) files by the driver's linker, and with any .cubin, .fatbin, .o, .a or .ltoir
file, or a kernel compiled with lto=True, the whole link by nvJitLink (.ltoir files need
lto=True: nvJitLink links LTO-IR only in a link-time-optimised link)."""
import os

__all__ = ["LinkerError", "NvrtcError", "check_link", "link_files"]


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
    return ext


def check_link(paths, lto=False):
    """Checks link=[...] at decoration: the list, each file's extension and existence; .ltoir
    files only with lto=True (nvJitLink links LTO-IR only into an LTO link)."""
    if isinstance(paths, (str, bytes)) or not isinstance(paths, (list, tuple)):
        raise TypeError(f"link must be a list of file paths, not {paths!r}")
    for path in paths:
        if _kind(path) == "ltoir" and not lto:
            raise LinkerError(f"cannot link {os.fspath(path)}: LTO-IR files need the kernel "
                              f"compiled with lto=True")
        if not os.path.isfile(path):
            raise LinkerError(f"{os.fspath(path)} not found")


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
