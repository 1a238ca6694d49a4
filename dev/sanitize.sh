#!/usr/bin/env bash
# Rebuilds cujit with ASan+UBSan and runs the suite under it (the interpreter itself is not
# instrumented, so the runtime is preloaded; CPython's own allocations at exit are not leaks of ours).
set -euo pipefail
cd "$(dirname "$0")/.."
py=$(bash dev/python.sh)
# the normal build is kept aside (its objects stay in build/temp*: the sanitized ones go to a
# folder of their own) and put back after, instead of compiling everything a third time
so=pkg/cujit/_core$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
saved=""
if [ -f "$so" ]; then saved=$(mktemp); cp "$so" "$saved"; fi
CUJIT_SANITIZE=1 "$py" setup.py -q build_ext --inplace --force --build-temp build/sanitize
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
status=0
workers=$("$py" -c "import xdist" 2>/dev/null && echo "-n auto" || true) # as dev/test.sh
LD_PRELOAD="$asan:$ubsan" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 PYTHONMALLOC=malloc \
  "$py" -m pytest -q -p no:cacheprovider -m "not slow" $workers tests || status=$?
# leave a normal build behind for whoever runs next
if [ -n "$saved" ]; then
  cp "$saved" "$so" && rm -f "$saved"
else
  "$py" setup.py -q build_ext --inplace --force
fi
exit $status
