"""tests/cpu is a package (so its module names cannot clash with other suites'); its helpers
(_harness, corpus) are imported as top-level modules from this directory."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
