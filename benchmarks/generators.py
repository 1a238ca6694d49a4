"""Generators: a for loop over a compiled generator in compiled code against the same loop
written without one (the cost of resuming a frame), and a compiled generator iterated by
Python's sum() against CPython's own generator.
Usage: python benchmarks/generators.py [n]"""
import sys

from _common import best_of


def gen(n):
    for i in range(n):
        if i % 3:
            yield i * 2


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    from cujit import njit
    jgen = njit(gen)

    @njit
    def sum_gen(n):
        s = 0
        for x in jgen(n):
            s += x
        return s

    @njit
    def sum_loop(n):
        s = 0
        for i in range(n):
            if i % 3:
                s += i * 2
        return s

    assert sum_gen(n) == sum_loop(n)
    m = n // 10
    assert sum(jgen(m)) == sum(gen(m))
    print("compiled, n=%d: for over a generator %.2f ms, the plain loop %.2f ms"
          % (n, best_of(lambda: sum_gen(n), 5) * 1e3, best_of(lambda: sum_loop(n), 5) * 1e3))
    print("from Python, n=%d: sum(cujit generator) %.1f ms, sum(CPython generator) %.1f ms"
          % (m, best_of(lambda: sum(jgen(m)), 5) * 1e3, best_of(lambda: sum(gen(m)), 5) * 1e3))


if __name__ == "__main__":
    main()
