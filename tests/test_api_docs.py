"""docs/api.md is generated from the docstrings (dev/api_docs.py): it must be current, and every
public name documented."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API = os.path.join(ROOT, "docs", "api.md")


def test_api_reference_is_current_and_complete():
    with open(API) as f:
        text = f.read()
    assert "(no docstring)" not in text
    made_with = re.search(r"with Python (\d+)\.(\d+)", text)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_ENABLE_CUDASIM")}
    env["PYTHONPATH"] = os.path.join(ROOT, "pkg")
    if made_with and tuple(map(int, made_with.groups())) == sys.version_info[:2]:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "dev", "api_docs.py"), "--check"],
                           env=env, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
    # on another Python (signatures may print differently) the names must still all be there
    for name in ("cujit.jit", "cujit.njit", "cujit.annotate", "cujit.cuda.to_device",
                 "cujit.cuda.stream", "cujit.cuda.compile_ptx"):
        assert f"### `{name}(" in text, name
