#!/usr/bin/env bash
# On the GPU machine: build as dev/gpu.sh does, then run pytest under compute-sanitizer's memcheck
# (issue 15). Every CUDA process the tests start, subprocesses included, is checked; the summary
# line "ERROR SUMMARY: N errors" is printed once per process. Usage: bash dev/gpu_memcheck.sh
# [pytest args] (default: the whole suite without the `slow` CPU fuzzing). Logs go to $OUT. CUDA API
# errors are not reported: the suite provokes some on purpose (out-of-memory tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${LLVM_BUNDLE:-.gpu/llvm14.tar.xz}
[ -f "$bundle" ] || bundle=../.gpu/llvm14.tar.xz
[ -d /tmp/llvm14 ] || tar -C /tmp -xJf "$bundle"
[ -f pkg/cujit/_core.cpython-312-x86_64-linux-gnu.so ] ||
  LLVM_PREFIX=/tmp/llvm14 python3 setup.py -q build_ext --inplace --force -j "$(nproc)" > /tmp/cujit-build.log 2>&1 ||
  { tail -40 /tmp/cujit-build.log; exit 1; }
export PYTHONUNBUFFERED=1
out=${OUT:-/tmp}
logs=/tmp/memcheck-logs; rm -rf "$logs"; mkdir -p "$logs"
[ $# -gt 0 ] || set -- -m "not slow" tests
set +e
compute-sanitizer --tool memcheck --leak-check no --report-api-errors no --target-processes all --error-exitcode 86 \
  --log-file "$logs/%p.log" \
  python3 -m pytest -q -p no:cacheprovider -rs "$@" 2>&1 | tee "$out/pytest-memcheck.log" | tail -30
rc=${PIPESTATUS[0]}
echo "== memcheck summaries (one line per CUDA process) =="
grep -h "ERROR SUMMARY" "$logs"/*.log | sort | uniq -c
cat "$logs"/*.log > "$out/memcheck-all.log" 2>/dev/null
grep -h -B2 -A20 "Invalid\|Program hit\|Error" "$logs"/*.log | grep -v "ERROR SUMMARY: 0" | head -80
exit "$rc"
