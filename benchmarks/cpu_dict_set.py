"""cpu_containers.py's (c) and (f) (a dict of 10**6 int keys built then looked up; a set of
10**6 ints built then 2 * 10**6 `in` tests), cujit and numba called alternately in one process:
on a shared machine whose load drifts, timing one jit's cases minutes after the other's says
more about the load than about the code. The best of 7 alternate calls each, in process time
(what the calls cost this process, whatever else runs) and in wall time.
Usage: python benchmarks/cpu_dict_set.py"""
import time

import _common  # noqa: F401 (the in-place package on the path)
from cpu_containers import N, dict_build_lookup, set_build_membership

REPEATS = 7


def alternate(fns, arg):
    """Per function: (best process time, best wall time) over REPEATS alternate calls."""
    for fn in fns:
        fn(arg)  # compile and warm
    best = [[float("inf"), float("inf")] for _ in fns]
    for _ in range(REPEATS):
        for k, fn in enumerate(fns):
            c0, w0 = time.process_time(), time.perf_counter()
            fn(arg)
            best[k][0] = min(best[k][0], time.process_time() - c0)
            best[k][1] = min(best[k][1], time.perf_counter() - w0)
    return best


def main():
    import cujit
    import numba
    for title, fn in (("(c) dict build + lookup", dict_build_lookup),
                      ("(f) set build + `in`", set_build_membership)):
        (cc, cw), (nc, nw) = alternate([cujit.njit(fn), numba.njit(fn)], N)
        print(f"{title}: process cujit {1e3 * cc:.1f} ms numba {1e3 * nc:.1f} ms "
              f"({cc / nc:.2f}x); wall {1e3 * cw:.1f} / {1e3 * nw:.1f} ms ({cw / nw:.2f}x)")


if __name__ == "__main__":
    main()
