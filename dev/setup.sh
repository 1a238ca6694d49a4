#!/usr/bin/env bash
# Set-up on a fresh Debian 12 / Ubuntu 24.04 machine: installs the system packages (LLVM 14) and
# the Python packages from requirements.txt, builds cujit in place and runs the demo (on the GPU
# when there is one, on the CPU target otherwise). Uses .venv when the system Python refuses pip.
set -euo pipefail
cd "$(dirname "$0")/.."
need_apt=0
command -v llvm-config-14 >/dev/null 2>&1 || [ -n "${LLVM_PREFIX:-}" ] || need_apt=1
command -v cc >/dev/null 2>&1 || need_apt=1
if [ "$need_apt" = 1 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    llvm-14-dev build-essential python3-dev python3-venv python3-pip zlib1g-dev libtinfo-dev
fi
py=$(bash dev/python.sh)
if "$py" -c 'import sys, sysconfig, os; sys.exit(0 if sys.prefix == sys.base_prefix and os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else 1)'; then
  "$py" -m venv .venv
  py=.venv/bin/python
fi
"$py" -m pip install -q -r requirements.txt
"$py" -m pip install -q --no-build-isolation -e .
"$py" examples/demo.py
