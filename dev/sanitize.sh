#!/usr/bin/env bash
# Rebuilds cujit with ASan+UBSan and runs the suite under it (the interpreter itself is not
# instrumented, so the runtime is preloaded; CPython's own allocations at exit are not leaks of ours).
set -euo pipefail
cd "$(dirname "$0")/.."
py=$(bash dev/python.sh)
CUJIT_SANITIZE=1 "$py" setup.py -q build_ext --inplace --force
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
status=0
workers=$("$py" -c "import xdist" 2>/dev/null && echo "-n auto" || true) # as dev/test.sh
LD_PRELOAD="$asan:$ubsan" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 PYTHONMALLOC=malloc \
  "$py" -m pytest -q -p no:cacheprovider -m "not slow" $workers tests || status=$?
# leave a normal build behind for whoever runs next
"$py" setup.py -q build_ext --inplace --force
exit $status
