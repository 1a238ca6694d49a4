#!/usr/bin/env bash
# Prints the Python that cujit's scripts use: the project's .venv if set-up made one, else python3.
cd "$(dirname "$0")/.."
if [ -x .venv/bin/python ]; then echo .venv/bin/python; else command -v "${PYTHON:-python3}"; fi
