"""Environment variables (numba's numba.core.config): the one rule for reading them.

Every setting is read as CUJIT_<NAME>, and, for settings numba has, as NUMBA_<NAME> when the
CUJIT_ name is not set, so a ported program's environment keeps working. docs/environment.md
lists them all. The C core reads a few itself (CUJIT_DUMP, CUJIT_UB_CHECK, CUJIT_LIBNVVM,
CUJIT_LIBDEVICE, CUJIT_CUDA_DRIVER, CUJIT_STAGING_THREADS): those have no NUMBA_ name.
"""
import os

# the settings whose numba name is honoured too
NUMBA_NAMES = frozenset({"CACHE_DIR", "OPT", "NUM_THREADS", "CUDA_MEMORY_MANAGER", "ENABLE_CUDASIM",
                         "CUDA_MAX_PENDING_DEALLOCS_COUNT", "CUDA_MAX_PENDING_DEALLOCS_RATIO"})


def env(name, default=None):
    """The value of CUJIT_<name>, else NUMBA_<name> (for the settings numba has), else
    `default`; an empty value counts as not set."""
    value = os.environ.get("CUJIT_" + name)
    if not value and name in NUMBA_NAMES:
        value = os.environ.get("NUMBA_" + name)
    return value if value else default


def env_name(name):
    """The variable a setting was read from, for messages."""
    if not os.environ.get("CUJIT_" + name) and name in NUMBA_NAMES and \
            os.environ.get("NUMBA_" + name):
        return "NUMBA_" + name
    return "CUJIT_" + name


def __getattr__(name):
    """numba's config.NUMBA_NUM_THREADS (the pool's threads: CUJIT_NUM_THREADS or
    NUMBA_NUM_THREADS, read by the C pool at its first use, else the CPUs) and
    NUMBA_DEFAULT_NUM_THREADS (the CPUs)."""
    if name == "NUMBA_NUM_THREADS":
        from . import _core
        return _core.workqueue_size()
    if name == "NUMBA_DEFAULT_NUM_THREADS":
        return os.cpu_count() or 1
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
