#!/usr/bin/env bash
# On the GPU machine: install the carried wheels (.whl: nbclient/ipykernel for the notebooks), build
# with dev/gpu.sh, run the suite (not slow) in 6 parallel shards and the notebooks; logs in $OUT.
set -u
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
bash dev/gpu.sh --co -q tests/test_source_layout.py > ${OUT:-/tmp}/build.log 2>&1 || { tail -30 ${OUT:-/tmp}/build.log; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
files=$( (ls tests/test_*.py; ls -d tests/*/ 2>/dev/null) )
i=0; for f in $files; do echo $f >> /tmp/shard$((i % 6)); i=$((i+1)); done
for s in 0 1 2 3 4 5; do
  (timeout 430 python3 -m pytest -q -p no:cacheprovider -m "not slow" -rfE $(cat /tmp/shard$s) > ${OUT:-/tmp}/shard$s.log 2>&1; echo "rc=$?" >> ${OUT:-/tmp}/shard$s.log) &
done
wait
for s in 0 1 2 3 4 5; do echo "== shard $s"; grep -E "passed|failed|error|rc=" ${OUT:-/tmp}/shard$s.log | tail -3; done
XDG_CACHE_HOME=/tmp/nbc timeout 60 python3 notebooks/run.py > ${OUT:-/tmp}/nb.log 2>&1; echo "notebooks rc=$?"; tail -3 ${OUT:-/tmp}/nb.log
