"""Build of cujit's C core, `cujit._core`.

LLVM 14 is linked statically (only the components used) so the module needs
nothing of LLVM at run time.  Two ways to find it:
  * `llvm-config-14` (or $LLVM_CONFIG) on this machine;
  * $LLVM_PREFIX: a folder with include/, lib/ and link-flags.txt, as made by
    shared/gpu/make-llvm-bundle.sh, for machines without llvm-config.
CUJIT_SANITIZE=1 builds with AddressSanitizer and UndefinedBehaviorSanitizer.
"""
import glob
import os
import shlex
import subprocess

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

LLVM_COMPONENTS = (
    "core bitwriter bitreader irreader analysis ipo passes x86codegen "
    "x86asmparser x86desc x86info orcjit mcjit executionengine runtimedyld "
    "nvptxcodegen nvptxdesc nvptxinfo linker target"
)


def llvm_flags():
    """Returns (include_dirs, extra_link_args) for a static LLVM 14."""
    prefix = os.environ.get("LLVM_PREFIX")
    if prefix:
        flags = os.path.join(prefix, "link-flags.txt")
        if not os.path.isfile(flags):
            raise SystemExit(f"cujit: LLVM_PREFIX={prefix!r} has no link-flags.txt; make the "
                             f"bundle with shared/gpu/make-llvm-bundle.sh")
        with open(flags) as f:
            libs = shlex.split(f.read())
        link = ["-L" + os.path.join(prefix, "lib"), "-Wl,--start-group"]
        return [os.path.join(prefix, "include")], link + libs + ["-Wl,--end-group"]
    config = os.environ.get("LLVM_CONFIG", "llvm-config-14")

    def ask(*args):
        try:
            return subprocess.check_output([config, *args], text=True).split()
        except (OSError, subprocess.CalledProcessError) as e:
            raise SystemExit(
                f"cujit needs LLVM 14's static libraries to build, and {config!r} did not "
                f"answer ({e}). On Debian/Ubuntu: apt-get install llvm-14-dev (bash dev/setup.sh "
                f"does it); or set LLVM_CONFIG to an llvm-config of LLVM 14, or LLVM_PREFIX to a "
                f"bundle made by shared/gpu/make-llvm-bundle.sh.") from None

    include = ask("--includedir")
    libs = ask("--link-static", "--libs", *LLVM_COMPONENTS.split())
    system = ask("--link-static", "--system-libs")
    link = ["-L" + ask("--libdir")[0], "-Wl,--start-group", *libs, "-Wl,--end-group"]
    return include, link + system + ["-lstdc++", "-ldl", "-lm", "-lpthread"]


def core_extension():
    sources = sorted(glob.glob("csrc/**/*.c", recursive=True))
    include, link = llvm_flags()
    cflags = [
        "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror",
        "-Wno-unused-parameter", "-Wno-missing-field-initializers",
        "-Wno-cast-function-type", "-fvisibility=hidden",
    ]
    # keep the build's own optimisation level; debug builds set CFLAGS themselves
    if os.environ.get("CUJIT_SANITIZE"):
        san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
               "-fno-omit-frame-pointer", "-g", "-O1"]
        cflags += san
        link = san + link
    else:
        # no symbols from the static LLVM leak into the process's namespace
        link = link + ["-Wl,--exclude-libs,ALL"]
    return Extension(
        "cujit._core",
        sources=sources,
        include_dirs=["csrc", numpy.get_include(), *include],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
                       ("PY_SSIZE_T_CLEAN", None)],
        extra_compile_args=cflags,
        extra_link_args=link,
    )


class ParallelBuildExt(build_ext):
    """Compiles the C files on every core unless -j says otherwise (pip installs too)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(ext_modules=[core_extension()], cmdclass={"build_ext": ParallelBuildExt})
