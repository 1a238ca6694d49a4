import os
import sys

import pytest

# run from a checkout without installing: the in-place build lives in pkg/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pkg"))


def _gpu_present():
    try:
        from cujit import cuda
        return cuda.is_available()
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if _gpu_present():
        return
    skip = pytest.mark.skip(reason="no CUDA GPU present")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
