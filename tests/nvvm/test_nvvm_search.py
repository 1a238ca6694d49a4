"""Finding libnvvm and libdevice: loaded on first use, never at import; $CUJIT_LIBNVVM,
$CUDA_HOME and pip's wheel layout; a missing library is a clear NvvmError naming the places."""
import json
import os
import subprocess
import sys

import pytest

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "pkg")


def run_python(code, **env_changes):
    env = dict(os.environ)
    env["PYTHONPATH"] = PKG + os.pathsep + env.get("PYTHONPATH", "")
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.fixture(scope="module")
def real(core):
    return core.nvvm_info()


def test_import_does_not_load_libnvvm():
    code = ("import cujit, cujit._core\n"
            "print(any('libnvvm' in line for line in open('/proc/self/maps')))")
    run = run_python(code, CUJIT_LIBNVVM="/nonexistent/libnvvm.so")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"


def test_missing_library_names_the_path():
    code = ("from cujit import _core\n"
            "try:\n"
            "    _core.nvvm_compile_ir('define void @f() { ret void }')\n"
            "except _core.NvvmError as e:\n"
            "    print('NvvmError', e)\n")
    run = run_python(code, CUJIT_LIBNVVM="/nonexistent/libnvvm.so")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("NvvmError libnvvm could not be loaded from $CUJIT_LIBNVVM")
    assert "/nonexistent/libnvvm.so" in run.stdout


def test_info_with_missing_library_raises():
    run = run_python("from cujit import _core\n_core.nvvm_info()",
                     CUJIT_LIBNVVM="/nonexistent/libnvvm.so")
    assert run.returncode != 0 and "cujit.errors.NvvmError" in run.stderr


def test_not_libnvvm_is_refused(tmp_path):
    fake = tmp_path / "libnvvm.so"
    fake.write_bytes(b"not an ELF file")
    run = run_python("from cujit import _core\n_core.nvvm_info()", CUJIT_LIBNVVM=str(fake))
    assert run.returncode != 0 and str(fake) in run.stderr


def test_explicit_path(real):
    code = "from cujit import _core\nimport json\nprint(json.dumps(_core.nvvm_info()))"
    run = run_python(code, CUJIT_LIBNVVM=real["library"])
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["library"] == real["library"]


def _fake_toolkit(root, real, lib_subdir):
    (root / lib_subdir).mkdir(parents=True)
    os.symlink(os.path.realpath(real["library"]), root / lib_subdir / "libnvvm.so")
    (root / "nvvm" / "libdevice").mkdir(parents=True, exist_ok=True)
    os.symlink(os.path.realpath(real["libdevice"]),
               root / "nvvm" / "libdevice" / "libdevice.10.bc")


@pytest.mark.parametrize("lib_subdir", ["nvvm/lib64", "lib", "lib64"])
def test_cuda_home_comes_first(tmp_path, real, lib_subdir):
    _fake_toolkit(tmp_path, real, lib_subdir)
    code = "from cujit import _core\nimport json\nprint(json.dumps(_core.nvvm_info()))"
    run = run_python(code, CUJIT_LIBNVVM=None, CUDA_HOME=str(tmp_path), CUDA_PATH=None)
    assert run.returncode == 0, run.stderr
    info = json.loads(run.stdout)
    assert info["library"] == str(tmp_path / lib_subdir / "libnvvm.so")
    assert info["libdevice"] == str(tmp_path / "nvvm" / "libdevice" / "libdevice.10.bc")
    # and the whole back end works from there
    ptx = run_python("from cujit import _core\n"
                     "print(_core.nvvm_compile_ir('define void @f() { ret void }'))",
                     CUJIT_LIBNVVM=None, CUDA_HOME=str(tmp_path), CUDA_PATH=None)
    assert ".target sm_90" in ptx.stdout, ptx.stderr


def test_cuda_path_after_cuda_home(tmp_path, real):
    _fake_toolkit(tmp_path / "b", real, "lib")
    code = "from cujit import _core\nprint(_core.nvvm_library_candidates())"
    run = run_python(code, CUJIT_LIBNVVM=None, CUDA_HOME=str(tmp_path / "a"),
                     CUDA_PATH=str(tmp_path / "b"))
    files = eval(run.stdout)
    assert files[0] == str(tmp_path / "b" / "lib" / "libnvvm.so")


def test_pip_wheel_layouts_are_searched(tmp_path, real):
    site = tmp_path / "site"
    _fake_toolkit(site / "nvidia" / "cu13", real, "lib")           # nvidia-nvvm (CUDA 13)
    _fake_toolkit(site / "nvidia" / "cu12", real, "lib")
    _fake_toolkit(site / "nvidia" / "cu9", real, "lib")
    _fake_toolkit(site / "nvidia" / "cuda_nvcc", real, "nvvm/lib64")  # nvidia-cuda-nvcc-cu12
    code = "from cujit import _core\nprint(_core.nvvm_library_candidates())"
    run = run_python(code, CUJIT_LIBNVVM=None, CUDA_HOME=None, CUDA_PATH=None,
                     PYTHONPATH=PKG + os.pathsep + str(site))
    files = eval(run.stdout)
    wheel = [f for f in files if f.startswith(str(site))]
    assert wheel == [str(site / "nvidia" / "cu13" / "lib" / "libnvvm.so"),
                     str(site / "nvidia" / "cu12" / "lib" / "libnvvm.so"),
                     str(site / "nvidia" / "cu9" / "lib" / "libnvvm.so"),
                     str(site / "nvidia" / "cuda_nvcc" / "nvvm" / "lib64" / "libnvvm.so")]
    # system toolkits come before wheels
    assert files.index(wheel[0]) == len(files) - 4


def test_libdevice_override_and_absence(tmp_path, real):
    code = ("from cujit import _core\n"
            "print(_core.nvvm_compile_ir('define void @f() { ret void }')[:2])\n"
            "ir = '''declare float @__nv_sinf(float)\n"
            "define float @f(float %x) {\n  %y = call float @__nv_sinf(float %x)\n  ret float %y\n}'''\n"
            "try:\n"
            "    _core.nvvm_compile_ir(ir)\n"
            "except _core.NvvmError as e:\n"
            "    print('NvvmError', e)\n"
            "print(_core.nvvm_info()['libdevice'])\n")
    run = run_python(code, CUJIT_LIBDEVICE=str(tmp_path / "missing.bc"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "//"  # no libdevice needed: compiles
    assert lines[1].startswith("NvvmError libdevice not found at $CUJIT_LIBDEVICE=")
    assert lines[-1] == "None"


def test_nothing_found_lists_the_search(tmp_path):
    """With /usr/local hidden (a private mount namespace) and no wheels, the error lists the
    places searched."""
    code = ("from cujit import _core\n"
            "try:\n"
            "    _core.nvvm_info()\n"
            "except _core.NvvmError as e:\n"
            "    print(e)\n")
    if os.path.realpath(sys.executable).startswith("/usr/local/"):
        pytest.skip("this Python lives under /usr/local, which the test hides")
    env = dict(os.environ, PYTHONPATH=PKG, CUDA_HOME=str(tmp_path / "nowhere"))
    env.pop("CUJIT_LIBNVVM", None)
    env.pop("CUDA_PATH", None)
    try:
        run = subprocess.run(["unshare", "-m", "sh", "-c",
                              f"mount -t tmpfs none /usr/local && exec {sys.executable} -c \"$0\"",
                              code], capture_output=True, text=True, env=env, timeout=120)
    except FileNotFoundError:
        pytest.skip("unshare not available")
    if run.returncode != 0 and run.stderr.startswith(("unshare:", "mount:")):
        pytest.skip(f"cannot make a mount namespace here: {run.stderr.strip()}")
    assert run.stdout.startswith("libnvvm (the CUDA toolkit's NVVM compiler) was not found")
    for place in (f"{tmp_path}/nowhere/nvvm/lib64/libnvvm.so*", f"{tmp_path}/nowhere/lib/libnvvm.so*",
                  "/usr/local/cuda/nvvm/lib64/libnvvm.so*", "/usr/local/cuda/lib64/libnvvm.so*",
                  "nvidia/cu*/", "CUJIT_LIBNVVM"):
        assert place in run.stdout, place


def test_usr_local_cuda_versions_newest_first(tmp_path):
    """/usr/local/cuda first, then /usr/local/cuda-X.Y by version (12.10 before 12.9), in a
    private mount namespace with a made-up /usr/local."""
    if os.path.realpath(sys.executable).startswith("/usr/local/"):
        pytest.skip("this Python lives under /usr/local, which the test hides")
    setup = ("mount -t tmpfs none /usr/local && "
             "for v in cuda cuda-11.8 cuda-12.9 cuda-12.10 cuda-13.0; do "
             "mkdir -p /usr/local/$v/lib && touch /usr/local/$v/lib/libnvvm.so; done && "
             f"exec {sys.executable} -c \"$0\"")
    code = "from cujit import _core\nprint(_core.nvvm_library_candidates())"
    env = dict(os.environ, PYTHONPATH=PKG)
    for key in ("CUJIT_LIBNVVM", "CUDA_HOME", "CUDA_PATH"):
        env.pop(key, None)
    try:
        run = subprocess.run(["unshare", "-m", "sh", "-c", setup, code], capture_output=True,
                             text=True, env=env, timeout=120)
    except FileNotFoundError:
        pytest.skip("unshare not available")
    if run.returncode != 0 and run.stderr.startswith(("unshare:", "mount:")):
        pytest.skip(f"cannot make a mount namespace here: {run.stderr.strip()}")
    assert run.returncode == 0, run.stderr
    files = [f for f in eval(run.stdout) if f.startswith("/usr/local/")]
    assert files == [f"/usr/local/{v}/lib/libnvvm.so"
                     for v in ("cuda", "cuda-13.0", "cuda-12.10", "cuda-12.9", "cuda-11.8")]
