#!/usr/bin/env bash
# Runs the test suite (GPU tests skip themselves when no GPU is present). Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
py=$(bash dev/python.sh)
# on every core when pytest-xdist is installed (requirements.txt); each worker is its own process
workers=$("$py" -c "import xdist" 2>/dev/null && echo "-n auto" || true)
exec "$py" -m pytest -q $workers "$@" tests
