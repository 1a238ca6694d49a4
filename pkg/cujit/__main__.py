"""python -m cujit: command-line tools.

    python -m cujit --annotate-html OUT.html SCRIPT.py [ARGS...]
        runs SCRIPT as __main__, then writes the annotated source of every function it
        compiled (cujit.annotation.annotate) to OUT.html.
    python -m cujit --sysinfo
        prints what cujit found: versions, LLVM target, CUDA driver, devices, libnvvm.
"""
import argparse
import os
import types
import sys


def _sysinfo():
    import platform
    from . import __version__, _core, cuda
    print(f"cujit {__version__}, Python {platform.python_version()} ({sys.executable})")
    try:
        import numpy
        print(f"NumPy {numpy.__version__}")
    except ImportError:
        print("NumPy: not installed")
    print(f"CUDA GPU available: {cuda.is_available()}")
    if cuda.is_available():
        for dev in cuda.list_devices():
            print(f"  device {dev.id}: {dev.name} (compute capability {dev.compute_capability})")
    try:
        info = _core.nvvm_info()
        print(f"libnvvm: {info.get('library')} (NVVM {info.get('version')}), "
              f"libdevice: {info.get('libdevice')}")
    except Exception as exc:  # noqa: BLE001  (reported as the answer)
        print(f"libnvvm: not found ({type(exc).__name__}: {str(exc).splitlines()[0]})")


class _ScriptModule:
    """A script run as __main__ in a module this keeps (runpy.run_path drops the script's
    globals on the way out, and with them its jitted functions, before the report)."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.module = types.ModuleType("__main__")
        self.module.__file__ = self.path

    def run(self):
        with open(self.path, "rb") as f:
            code = compile(f.read(), self.path, "exec")
        saved = sys.modules.get("__main__")
        sys.modules["__main__"] = self.module
        sys.path.insert(0, os.path.dirname(self.path))
        try:
            exec(code, self.module.__dict__)
        finally:
            sys.path.remove(os.path.dirname(self.path))
            if saved is not None:
                sys.modules["__main__"] = saved


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m cujit", description=__doc__.splitlines()[0])
    ap.add_argument("--annotate-html", metavar="OUT.html")
    ap.add_argument("--sysinfo", action="store_true")
    ap.add_argument("script", nargs="?")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    ns = ap.parse_args(argv)
    if ns.sysinfo:
        _sysinfo()
        return 0
    if not ns.annotate_html or not ns.script:
        ap.error("give --annotate-html OUT.html SCRIPT.py, or --sysinfo")
    from .annotation import all_dispatchers, annotate
    sys.argv = [ns.script] + ns.args
    status = 0
    script = _ScriptModule(ns.script)  # held until the report is made: its functions live
    try:
        script.run()
    except SystemExit as exc:  # the script's own exit: still write the report
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    report = annotate(*all_dispatchers())
    report.save(ns.annotate_html)
    print(f"cujit: annotated {len(report.texts)} compiled version(s) and "
          f"{len(report.objmode_tables)} object-mode function(s) into {ns.annotate_html}",
          file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
