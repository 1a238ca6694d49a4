"""while and for loops: range with 1-3 arguments, enumerate, zip, tuples, break/continue."""
from . import F, I, case


@case(gen=lambda rng: (I(rng, 0, 50),), sig="int64(int64)")
def sum_range(n):
    s = 0
    for i in range(n):
        s += i
    return s


@case(gen=lambda rng: (I(rng, -20, 20), I(rng, -20, 20)), sig="int64(int64, int64)")
def range2(a, b):
    s = 0
    for i in range(a, b):
        s += i * i
    return s


@case(gen=lambda rng: (I(rng, -20, 20), I(rng, -20, 20), I(rng, 1, 5) * (1 if rng.random() < 0.5 else -1)))
def range3(a, b, step):
    s = 0
    c = 0
    for i in range(a, b, step):
        s += i
        c += 1
    return s, c


@case(gen=lambda rng: (I(rng, 0, 30),))
def range_negative_step(n):
    s = 0
    for i in range(n, 0, -2):
        s = s * 3 + i
        s %= 1000003
    return s


@case(gen=lambda rng: (I(rng, 0, 60),), sig="int64(int64)")
def while_loop(n):
    i = 0
    s = 0
    while i < n:
        s += i % 7
        i += 1
    return s


@case(gen=lambda rng: (I(rng, 1, 10**6),))
def collatz_steps(n):
    steps = 0
    while n != 1 and steps < 1000:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@case(gen=lambda rng: (I(rng, 0, 100), I(rng, 1, 100)))
def break_loop(n, stop):
    s = 0
    for i in range(n):
        if i >= stop:
            break
        s += i
    return s


@case(gen=lambda rng: (I(rng, 0, 100),))
def continue_loop(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        s += i
    return s


@case(gen=lambda rng: (I(rng, 0, 30), I(rng, 0, 30)))
def nested_loops(n, m):
    s = 0
    for i in range(n):
        for j in range(m):
            s += (i ^ j) & 3
    return s


@case(gen=lambda rng: (I(rng, 0, 20), I(rng, 0, 20)))
def nested_break(n, m):
    count = 0
    for i in range(n):
        for j in range(m):
            if j > i:
                break
            count += 1
    return count


@case(gen=lambda rng: (I(rng, 2, 500),))
def is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


@case(gen=lambda rng: (I(rng, 0, 80),), sig="int64(int64)")
def fib_iter(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@case(gen=lambda rng: (F(rng, 0.1, 100.0),), sig="float64(float64)")
def newton_sqrt(x):
    g = x
    for _ in range(60):
        g = 0.5 * (g + x / g)
    return g


@case(gen=lambda rng: (I(rng, 0, 40),))
def loop_var_after_loop(n):
    i = -1
    for i in range(n):
        pass
    return i


@case(gen=lambda rng: (I(rng, 0, 40),))
def while_true_break(n):
    i = 0
    while True:
        i += 1
        if i > n:
            break
    return i


@case(gen=lambda rng: (I(rng, -5, 5), I(rng, -5, 5), I(rng, -5, 5)))
def for_over_tuple(a, b, c):
    s = 0
    for v in (a, b, c):
        s = s * 10 + v
    return s


@case(gen=lambda rng: (I(rng, 0, 30),))
def enumerate_range(n):
    s = 0
    for i, v in enumerate(range(n, 2 * n)):
        s += i * v
    return s


@case(gen=lambda rng: (I(rng, 0, 30),))
def enumerate_start(n):
    s = 0
    for i, v in enumerate(range(n), 5):
        s += i - v
    return s


@case(gen=lambda rng: (I(rng, 0, 30), I(rng, 0, 30)))
def zip_ranges(n, m):
    s = 0
    for a, b in zip(range(n), range(m, 0, -1)):
        s += a * b
    return s


@case(gen=lambda rng: (F(rng, -1, 1), F(rng, -1, 1), F(rng, -1, 1)))
def zip_tuples(a, b, c):
    s = 0.0
    for x, y in zip((a, b, c), (c, b, a)):
        s += x * y
    return s


@case(gen=lambda rng: (I(rng, 0, 50),))
def for_else(n):
    for i in range(n):
        if i * i > 200:
            break
    else:
        return -1
    return i


@case(gen=lambda rng: (I(rng, 0, 50),))
def while_else(n):
    i = 0
    while i < n:
        if i == 17:
            break
        i += 1
    else:
        i = -i
    return i


@case(gen=lambda rng: (F(rng, 0.0, 2.0), I(rng, 1, 200)))
def float_accumulate(x, n):
    s = 0.0
    for k in range(1, n + 1):
        s += x ** k / k
        if s > 1e6:
            break
    return s


@case(gen=lambda rng: (I(rng, 0, 40),))
def countdown(n):
    out = 0
    while n > 0:
        n -= 1
        if n % 2:
            continue
        out += n
    return out


@case(gen=lambda rng: (I(rng, 1, 30),))
def early_return_in_loop(n):
    for i in range(100):
        if i * n > 500:
            return i
    return -1


@case(gen=lambda rng: (I(rng, 0, 12),))
def triple_nested(n):
    s = 0
    for i in range(n):
        for j in range(i):
            for k in range(j):
                s += 1
    return s


@case(gen=lambda rng: (I(rng, 0, 20),))
def loop_unify_int_float(n):
    acc = 0
    for i in range(n):
        acc = acc + 0.5 * i
    return acc
