#!/usr/bin/env bash
# Builds the sdist from the checkout's files (tracked, and untracked but not ignored: never a
# build's leftovers such as an egg-info, which would mask a missing MANIFEST.in), installs cujit
# from it into a scratch folder (compiling the C core from what the sdist carries) and runs a
# compiled function there.
set -euo pipefail
cd "$(dirname "$0")/.."
py=$(bash dev/python.sh)
py=$(cd "$(dirname "$py")" && pwd)/$(basename "$py")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/src"
git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$out/src"
"$py" -m build --sdist --no-isolation --outdir "$out" "$out/src" > "$out/build.log" 2>&1 \
  || { tail -20 "$out/build.log"; exit 1; }
# -O0: the point is that the sdist carries every source; the optimised build is tested already
CFLAGS="${CFLAGS:-} -O0" "$py" -m pip install -q --no-build-isolation --no-deps --target "$out/site" "$out"/cujit-*.tar.gz \
  > "$out/install.log" 2>&1 || { tail -20 "$out/install.log"; exit 1; }
got=$(cd "$out" && PYTHONPATH="$out/site" "$py" -c \
  'import cujit; print(cujit.__file__.startswith("'"$out"'"), cujit.njit(lambda x: x + 1)(41))')
[ "$got" = "True 42" ] || { echo "sdist install: expected 'True 42', got '$got'"; exit 1; }
echo "sdist: built, installed from it, ran"
