"""Lists, dicts and sets in compiled code (issue 13): cujit vs numba vs the interpreter, side by
side in one run,
as ratios of cujit's time, and each jit's first call (compile + run); per case the jits take
turns at each timed repeat, so a change of the machine's load hits both.
  (a)  a list of 10**6 floats built with append, its length returned;
  (a2) the same list built by a comprehension;
  (b)  a list of 10**6 random floats (made from an array inside the function) sorted with
       l.sort(), its middle item returned;
  (b2) the list made from the array alone (what (b) spends before sorting);
  (c)  a dict of 10**6 int keys (scattered: i * 7919 mod 2**31) built with d[k] = v, then every
       key looked up once, the values summed.
  (d)  s.split() of a 10 MB string of words (ASCII), the word count returned;
  (d2) the same over a string with a non-ASCII word in it (2-byte code points).
  (e)  word counting over the 10 MB ASCII string: a dict of str -> int, the distinct words'
       count returned.
  (f)  a set of 10**6 int elements (scattered as (c)'s keys) built with s.add, then every
       element and as many missing ones tested with `in`, the hits counted.
Usage: python benchmarks/cpu_containers.py"""
import time
import warnings

import numpy as np

from _common import best_of

N = 10**6


def build_append(n):
    lst = []
    for i in range(n):
        lst.append(i * 0.5)
    return len(lst)


def build_comprehension(n):
    lst = [i * 0.5 for i in range(n)]
    return len(lst)


def sort_floats(a):
    lst = list(a)
    lst.sort()
    return lst[len(lst) // 2]


def list_of_array(a):
    lst = list(a)
    return lst[len(lst) // 2]


def dict_build_lookup(n):
    d = {}
    for i in range(n):
        d[(i * 7919) % 2147483648] = i * 0.5
    total = 0.0
    for i in range(n):
        total += d[(i * 7919) % 2147483648]
    return total


def set_build_membership(n):
    s = set()
    for i in range(n):
        s.add((i * 7919) % 2147483648)
    hits = 0
    for i in range(2 * n):
        if (i * 7919) % 2147483648 in s:
            hits += 1
    return hits


def word_count(s):
    counts = {}
    for word in s.split():  # as numba types it (d.get on an empty {} does not)
        if word in counts:
            counts[word] += 1
        else:
            counts[word] = 1
    return len(counts)


def split_count(s):
    return len(s.split())


def _text(n_bytes, extra_word):
    rng = np.random.default_rng(1)
    words = ["alpha", "beta", "gamma", "delta", "pi", "omega", "x", "lorem", "ipsum", extra_word]
    picks = rng.integers(0, len(words), n_bytes // 5)
    text = " ".join(words[i] for i in picks)
    return text[:n_bytes]


def cases():
    """(title, function, arguments, repeats)."""
    floats = np.random.default_rng(0).random(N)
    return [
        ("(a) 10**6 appends of a float", build_append, (N,), 5),
        ("(a2) [i * 0.5 for i in range(10**6)]", build_comprehension, (N,), 5),
        ("(b) l.sort() of 10**6 random floats", sort_floats, (floats,), 5),
        ("(b2) list(a) of 10**6 floats (the part of (b) before sorting)", list_of_array,
         (floats,), 5),
        ("(c) dict of 10**6 int keys: build, then look each up", dict_build_lookup, (N,), 3),
        ("(d) len(s.split()) of a 10 MB ASCII string", split_count,
         (_text(10 * 10**6, "zeta"),), 3),
        ("(d2) len(s.split()) of a 10 MB string with a non-ASCII word", split_count,
         (_text(10 * 10**6, "ζῆτα"),), 3),
        ("(e) word count of a 10 MB ASCII string into a dict", word_count,
         (_text(10 * 10**6, "zeta"),), 3),
        ("(f) set of 10**6 ints: build with add, then 2 * 10**6 `in` tests",
         set_build_membership, (N,), 3),
    ]


def main():
    import cujit
    jits = {"cujit": cujit.njit}
    try:
        import numba
        jits["numba"] = numba.njit
    except ImportError:
        print("numba not installed: cujit alone")
    table = cases()
    times = {name: [] for name in list(jits) + ["python"]}
    first = {name: [] for name in jits}
    for title, f, args, repeats in table:
        compiled = {}
        for name, jit in jits.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compiled[name] = jit(f)
                t0 = time.perf_counter()
                compiled[name](*args)
                first[name].append(time.perf_counter() - t0)
        best = {name: float("inf") for name in jits}
        for _ in range(repeats):  # the jits take turns, so a change of load hits both
            for name, fn in compiled.items():
                best[name] = min(best[name], best_of(lambda: fn(*args), 1))
        for name in jits:
            times[name].append(best[name])
    for title, f, args, repeats in table:
        times["python"].append(best_of(lambda: f(*args), 1))
    for k, (title, *_rest) in enumerate(table):
        print(title)
        base = times["cujit"][k]
        for name, row in times.items():
            print(f"  {name:6} {1e3 * row[k]:10.2f} ms  {row[k] / base:6.2f}x cujit's time")
        print("  first call: " + "  ".join(f"{n} {1e3 * first[n][k]:.0f} ms" for n in first))
    if "numba" in times:
        print("cujit/numba:", " ".join(f"{times['cujit'][k] / times['numba'][k]:.2f}"
                                       for k in range(len(table))))


if __name__ == "__main__":
    main()
