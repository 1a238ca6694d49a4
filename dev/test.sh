#!/usr/bin/env bash
# Runs the test suite (GPU tests skip themselves when no GPU is present). Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
py=$(bash dev/python.sh)
exec "$py" -m pytest -q "$@" tests
