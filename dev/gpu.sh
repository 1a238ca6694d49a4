#!/usr/bin/env bash
# On the GPU machine (shared/gpu/README.md): unpack the carried LLVM 14 bundle, build cujit in place
# for that machine's Python, and run pytest there. Usage: bash dev/gpu.sh [pytest args]
# (default: the whole suite). The full log goes to $OUT/pytest.log when $OUT is set.
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${LLVM_BUNDLE:-.gpu/llvm14.tar.xz}
[ -f "$bundle" ] || bundle=../.gpu/llvm14.tar.xz
[ -d /tmp/llvm14 ] || tar -C /tmp -xJf "$bundle"
LLVM_PREFIX=/tmp/llvm14 python3 setup.py -q build_ext --inplace --force -j "$(nproc)" > /tmp/cujit-build.log 2>&1 \
  || { tail -40 /tmp/cujit-build.log; exit 1; }
export PYTHONUNBUFFERED=1
log=${OUT:-/tmp}/pytest.log
set +e
python3 -m pytest -q -p no:cacheprovider -rs "${@:-tests}" 2>&1 | tee "$log" | tail -60
exit "${PIPESTATUS[0]}"
