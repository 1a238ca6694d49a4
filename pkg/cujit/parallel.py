"""numba's parallel names: `prange` (a range whose loop runs on cujit's thread pool in a
function compiled with parallel=True; elsewhere it is range, as numba's) and the pool's
threads: set_num_threads/get_num_threads (per calling thread, as numba's) and get_thread_id.
The pool is csrc/abi/workqueue.c; the loops' outlining csrc/lower/lower_prange.c."""
from . import _core


def prange(*args):
    """numba.prange: range(*args); under parallel=True its loop runs on the thread pool."""
    return range(*args)


def set_num_threads(n):
    """The threads the calling thread's parallel loops use, 1..config.NUMBA_NUM_THREADS."""
    _core.set_num_threads(n)


def get_num_threads():
    """The threads the calling thread's parallel loops use."""
    return _core.get_num_threads()


def get_thread_id():
    """0 outside the pool's workers (and on the thread that started a loop), 1..n-1 on them."""
    return _core.get_thread_id()


def diagnostics(dispatcher, loops):
    """Dispatcher.parallel_diagnostics's printing: `loops` is one version's list of lines, or a
    dict of them by argument types (csrc/jit/dispatcher.c)."""
    versions = loops.items() if isinstance(loops, dict) else [(None, loops)]
    name = getattr(dispatcher.py_func, "__qualname__", "?")
    for argtypes, lines in versions:
        where = "" if argtypes is None else f" for ({', '.join(map(str, argtypes))})"
        print("=" * 80)
        print(f" Parallel diagnostics: function {name}{where} (cujit)")
        print("=" * 80)
        if not lines:
            print("No prange loop ran on the thread pool (none in the function, the function was"
                  " compiled without parallel=True, or this version came from the on-disk"
                  " cache).")
        print("Array expressions and whole-array reductions of 32768 elements or more run on"
              " the pool under parallel=True (by rows).")
        for line in lines:
            print(line)
