"""The functions of the containers differential suite (test_containers_differential.py): plain
Python over lists, dicts, strings, tuples, comprehensions, closures and exceptions, each
registered with the kinds of its arguments. The suite compiles each with njit and checks it
against CPython on random inputs (see ARG_KINDS there). Functions stay within what numba
types: homogeneous containers, ints that do not overflow int64. The helpers the functions call
are register_jitable: plain Python when CPython runs a function, compiled inside compiled code."""
import numpy as np

from cujit import literal_unroll, njit
from cujit.extending import register_jitable

CASES = []


def case(kinds):
    """Registers the decorated function with its argument kinds ("L i": a list of ints and an
    int; see test_containers_differential.ARG_KINDS)."""
    def register(fn):
        CASES.append((fn, tuple(kinds.split())))
        return fn
    return register


# ---- lists: building ----

@case("i")
def l_literal(x):
    return [x, x + 1, x * 2]


@case("n")
def l_append_range(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


@case("n")
def l_list_range(n):
    return list(range(n))


@case("n")
def l_comprehension(n):
    return [i * 3 for i in range(n)]


@case("n")
def l_comprehension_if(n):
    return [i for i in range(n) if i % 3 != 1]


@case("n")
def l_nested_comprehension(n):
    return [i * j for i in range(n) for j in range(i)]


@case("L")
def l_copy_by_comprehension(a):
    return [x for x in a]


@case("L")
def l_filter_empty(a):
    return [x for x in a if x > 1000]


@case("L")
def l_map_float(a):
    return [x / 2 for x in a]


@case("L")
def l_of_tuples(a):
    return [(x, -x) for x in a]


@case("F")
def l_float_square(a):
    return [x * x for x in a]


@case("n")
def l_of_lists(n):
    return [[j for j in range(i)] for i in range(n)]


@case("L")
def l_list_of_list_arg(a):
    return list(a)


@case("n")
def l_extend(n):
    out = [0]
    out.extend([i for i in range(n)])
    out.extend(range(3))
    return out


@case("L i")
def l_insert(a, x):
    a.insert(len(a) // 2, x)
    a.insert(0, -1)
    a.insert(100, 7)
    a.insert(-100, 8)
    return a


# ---- lists: reading ----

@case("L")
def l_len(a):
    return len(a)


@case("L i")
def l_index_get(a, i):
    return a[i]


@case("L")
def l_first_last(a):
    return a[0], a[-1]


@case("L")
def l_slice(a):
    return a[1:], a[:-1], a[::2], a[::-1], a[1:4:2]


@case("L i i")
def l_slice_args(a, i, j):
    return a[i:j]


@case("L i")
def l_contains(a, x):
    return x in a, x not in a


@case("L i")
def l_count(a, x):
    return a.count(x) + a.count(a[0])


@case("L i")
def l_index_of(a, x):
    return a.index(x)


@case("L")
def l_index_of_first(a):
    return a.index(a[-1])


@case("L")
def l_sum(a):
    return sum(a)


@case("F")
def l_sum_float(a):
    return sum(a)


@case("L")
def l_min_max(a):
    return min(a), max(a)


@case("F")
def l_min_max_float(a):
    return min(a), max(a)


@case("L")
def l_sorted(a):
    return sorted(a)


@case("F")
def l_sorted_float(a):
    return sorted(a)


@case("L")
def l_sorted_reverse(a):
    return sorted(a, reverse=True)


@case("L")
def l_iterate_sum(a):
    t = 0
    for x in a:
        t += x
    return t


@case("L")
def l_enumerate(a):
    t = 0
    for i, x in enumerate(a):
        t += i * x
    return t


@case("L L")
def l_zip(a, b):
    return [x - y for x, y in zip(a, b)]


@case("L")
def l_reversed_by_index(a):
    return [a[i] for i in range(len(a) - 1, -1, -1)]


@case("L")
def l_truth(a):
    b = [x for x in a if x > 10]
    return bool(a), bool(b), len(b) == 0


@case("L L")
def l_equal(a, b):
    return a == b, a == a, a != b


@case("S")
def l_of_str_join(a):
    return "|".join(a)


@case("S")
def l_of_str_sorted(a):
    return sorted(a)


@case("S s")
def l_of_str_contains(a, s):
    return s in a, a.count(s)


@case("S")
def l_of_str_lengths(a):
    return [len(s) for s in a]


# ---- lists: mutating (reflected: the caller sees the changes) ----

@case("L i")
def l_setitem(a, x):
    a[0] = x
    a[-1] = x + 1
    return a


@case("L")
def l_pop(a):
    last = a.pop()
    return last, a


@case("L")
def l_pop_index(a):
    first = a.pop(0)
    return first, len(a)


@case("L")
def l_pop_until_empty(a):
    t = 0
    while len(a) > 0:
        t = t * 3 + a.pop()
    return t, a


@case("L i")
def l_remove(a, x):
    a.append(x)
    a.remove(x)
    return a


@case("L")
def l_clear(a):
    a.clear()
    a.append(5)
    return a


@case("L")
def l_reverse(a):
    a.reverse()
    return a


@case("L")
def l_sort(a):
    a.sort()
    return a


@case("L")
def l_sort_reverse(a):
    a.sort(reverse=True)
    return a


@case("F")
def l_sort_float(a):
    a.sort()
    return a[0], a[-1]


@case("L")
def l_copy_independent(a):
    b = a.copy()
    b.append(99)
    return len(a), len(b)


@case("L")
def l_del_item(a):
    del a[0]
    return a


@case("L")
def l_augmented_items(a):
    for i in range(len(a)):
        a[i] += i
    return a


@case("L n")
def l_grow_and_shrink(a, n):
    for i in range(n * 10):
        a.append(i)
    for i in range(n * 5):
        a.pop()
    return len(a), sum(a)


@case("L")
def l_append_self_items(a):
    n = len(a)
    for i in range(n):
        a.append(a[i] * 2)
    return a


# ---- lists: errors ----

@case("L")
def l_index_error(a):
    return a[len(a) + 2]


@case("L")
def l_pop_empty_error(a):
    b = [x for x in a if x > 1000]
    return b.pop()


@case("L")
def l_remove_missing(a):
    a.remove(12345)
    return a


@case("L")
def l_index_missing(a):
    return a.index(12345)


@case("L")
def l_min_empty(a):
    return min([x for x in a if x > 1000])


@case("L")
def l_setitem_out_of_range(a):
    a[100] = 1
    return a


# ---- lists: algorithms ----

@case("L")
def l_running_max(a):
    out = []
    best = a[0]
    for x in a:
        if x > best:
            best = x
        out.append(best)
    return out


@case("L")
def l_dedup_sorted(a):
    b = sorted(a)
    out = [b[0]]
    for x in b[1:]:
        if x != out[-1]:
            out.append(x)
    return out


@case("L")
def l_bubble_sort(a):
    n = len(a)
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


@case("L")
def l_prefix_sums(a):
    out = [0]
    for x in a:
        out.append(out[-1] + x)
    return out


@case("L")
def l_partition(a):
    lo = [x for x in a if x < 0]
    hi = [x for x in a if x >= 0]
    return lo, hi


@case("n")
def l_primes(n):
    limit = n * 5 + 2
    sieve = [True for _ in range(limit)]
    out = []
    for i in range(2, limit):
        if sieve[i]:
            out.append(i)
            for j in range(i * i, limit, i):
                sieve[j] = False
    return out


@case("L")
def l_stack_matching(a):
    stack = []
    pairs = 0
    for x in a:
        if x >= 0:
            stack.append(x)
        elif len(stack) > 0:
            stack.pop()
            pairs += 1
    return pairs, stack


@case("L i")
def l_binary_search(a, x):
    b = sorted(a)
    lo, hi = 0, len(b)
    while lo < hi:
        mid = (lo + hi) // 2
        if b[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@case("n")
def l_fibonacci(n):
    f = [0, 1]
    for i in range(n):
        f.append(f[-1] + f[-2])
    return f


@case("L")
def l_transpose_pairs(a):
    rows = [[x, x + 1] for x in a]
    return [[r[0] for r in rows], [r[1] for r in rows]]


# ---- dicts ----

@case("L")
def d_histogram(a):
    d = {}
    for x in a:
        if x in d:
            d[x] += 1
        else:
            d[x] = 1
    return len(d), d[a[0]]


@case("L")
def d_items_sorted(a):
    d = {a[0]: 0}
    for x in a:
        d[x] = d.get(x, 0) + 1
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def d_keys_order(a):
    d = {}
    for x in a:
        d[x] = 1
    return [k for k in d]


@case("L")
def d_values_sum(a):
    d = {}
    for i, x in enumerate(a):
        d[x] = i
    return sum([v for v in d.values()])


@case("L")
def d_keys_list(a):
    d = {x: x * x for x in a}
    return [k for k in d.keys()]


@case("i")
def d_literal(x):
    d = {1: x, 2: x * 2, 3: x * 3}
    return d[1] + d[2] + d[3], len(d)


@case("L i")
def d_get_default(a, x):
    d = {}
    for v in a:
        d[v] = v * 10
    return d.get(x, -1), d.get(a[0], -1)


@case("L i")
def d_contains(a, x):
    d = {v: True for v in a}
    return x in d, x not in d


@case("L")
def d_pop(a):
    d = {v: v + 1 for v in a}
    p = d.pop(a[0])
    return p, len(d), a[0] in d


@case("L i")
def d_pop_default(a, x):
    d = {v: v + 1 for v in a}
    return d.pop(x, -7), len(d)


@case("L")
def d_setdefault(a):
    d = {-1: 0}
    for v in a:
        d.setdefault(v % 3, v)
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def d_delete_reinsert(a):
    d = {v: 1 for v in a}
    for v in a:
        if v in d:
            del d[v]
    for v in a:
        d[v] = 2
    return [(k, v) for k, v in d.items()]


@case("n")
def d_grow(n):
    d = {}
    for i in range(n * 50):
        d[i] = i * 2
    t = 0
    for i in range(n * 50):
        t += d[i]
    return t, len(d)


@case("n")
def d_grow_delete(n):
    d = {}
    for i in range(n * 40):
        d[i] = i
    for i in range(0, n * 40, 2):
        del d[i]
    return len(d), sum([k for k in d])


@case("L")
def d_clear(a):
    d = {v: v for v in a}
    d.clear()
    d[5] = 6
    return len(d), d[5]


@case("L")
def d_copy(a):
    d = {v: v for v in a}
    e = d.copy()
    e[1000] = 1
    return len(d), len(e)


@case("L")
def d_update(a):
    d = {v: 0 for v in a}
    e = {v + 1: 1 for v in a}
    d.update(e)
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def d_popitem(a):
    d = {v: v * 2 for v in a}
    k, v = d.popitem()
    return k, v, len(d)


@case("L")
def d_missing_key(a):
    d = {v: v for v in a}
    return d[12345]


@case("F")
def d_float_keys(a):
    d = {a[0]: 0}
    for x in a:
        d[x] = d.get(x, 0) + 1
    return len(d)


@case("L")
def d_float_values(a):
    d = {}
    for x in a:
        d[x] = x / 4
    return sorted([v for v in d.values()])


@case("L")
def d_tuple_keys(a):
    d = {}
    for x in a:
        d[(x % 3, x % 2)] = x
    return sorted([k for k in d])


@case("L")
def d_tuple_values(a):
    d = {}
    for i, x in enumerate(a):
        d[x] = (i, x)
    return sorted([v for v in d.values()])


@case("S")
def d_str_keys(a):
    d = {a[0]: 0}
    for s in a:
        d[s] = d.get(s, 0) + len(s)
    return sorted([(k, v) for k, v in d.items()])


@case("s")
def d_char_count(s):
    d = {}
    for c in s:
        if c in d:
            d[c] += 1
        else:
            d[c] = 1
    return sorted([(k, v) for k, v in d.items()])


@case("s")
def d_word_count(s):
    d = {"": 0}
    del d[""]
    for w in s.split():
        d[w] = d.get(w, 0) + 1
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def d_list_values(a):
    d = {}
    for x in a:
        k = x % 3
        if k not in d:
            d[k] = [x]
        else:
            d[k].append(x)
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def d_nested(a):
    d = {}
    for x in a:
        inner = {x: x * 2}
        d[x % 2] = inner
    return len(d)


@case("L")
def d_bool_keys(a):
    d = {}
    for x in a:
        d[x > 0] = x
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def d_len_after_overwrite(a):
    d = {}
    for x in a:
        d[0] = x
    return len(d), d[0]


@case("L")
def d_invert(a):
    d = {i: x for i, x in enumerate(a)}
    inv = {}
    for k, v in d.items():
        inv[v] = k
    return sorted([(k, v) for k, v in inv.items()])


@case("L L")
def d_two_lists(a, b):
    d = {}
    for x, y in zip(a, b):
        d[x] = y
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def d_empty_iter(a):
    d = {x: x for x in a if x > 1000}
    t = 0
    for k in d:
        t += k
    return t, len(d)


@case("L")
def d_in_loop_condition(a):
    seen = {}
    first_dup = -1
    for x in a:
        if x in seen:
            first_dup = x
            break
        seen[x] = 1
    return first_dup


@case("n")
def d_memo_fib(n):
    memo = {0: 0, 1: 1}
    for i in range(2, n + 2):
        memo[i] = memo[i - 1] + memo[i - 2]
    return memo[n + 1]


@case("L")
def d_max_by_value(a):
    d = {a[0]: 0}
    for x in a:
        d[x] = d.get(x, 0) + 1
    best, count = a[0], 0
    for k, v in d.items():
        if v > count:
            best, count = k, v
    return best, count


@case("S")
def d_group_by_length(a):
    d = {}
    for s in a:
        n = len(s)
        if n in d:
            d[n] = d[n] + "," + s
        else:
            d[n] = s
    return sorted([(k, v) for k, v in d.items()])


# ---- strings ----

@case("s")
def s_len(s):
    return len(s)


@case("s")
def s_concat(s):
    return s + "!" + s


@case("s n")
def s_repeat(s, n):
    return s * n, n * s


@case("s s")
def s_compare(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


@case("s s")
def s_contains(a, b):
    return a in b, b in a, "é" in a


@case("s i")
def s_index(s, i):
    return s[i]


@case("s")
def s_slices(s):
    return s[1:], s[:3], s[::-1], s[::2], s[-2:]


@case("s i i")
def s_slice_args(s, i, j):
    return s[i:j]


@case("s")
def s_iterate(s):
    out = []
    for c in s:
        out.append(c)
    return out


@case("s")
def s_ord_sum(s):
    t = 0
    for c in s:
        t += ord(c)
    return t


@case("s")
def s_chr_shift(s):
    out = ""
    for c in s:
        out += chr(ord(c) + 1)
    return out


@case("s")
def s_upper_lower(s):
    return s.upper(), s.lower()


@case("s")
def s_strip(s):
    return s.strip(), s.lstrip(), s.rstrip(), s.strip(" a")


@case("s")
def s_split_ws(s):
    return s.split()


@case("s")
def s_split_sep(s):
    return s.split("a")


@case("s")
def s_split_max(s):
    return s.split(" ", 1)


@case("s")
def s_split_join(s):
    return "-".join(s.split())


@case("s s")
def s_startswith(a, b):
    return a.startswith(b), a.endswith(b), a.startswith(a[:2])


@case("s s")
def s_find(a, b):
    return a.find(b), a.find("a"), a.find(b, 1)


@case("s s")
def s_replace(a, b):
    return a.replace("a", b), a.replace(b, "Z")


@case("s")
def s_isdigit_alpha(s):
    return s.isdigit(), s.isalpha()


@case("s")
def s_char_classes(s):
    d, a = 0, 0
    for c in s:
        if c.isdigit():
            d += 1
        elif c.isalpha():
            a += 1
    return d, a


@case("i")
def s_str_int(x):
    return str(x)


@case("f")
def s_str_float(x):
    return str(x)


@case("i f")
def s_fstring(x, y):
    return f"{x}:{y}"


@case("s i")
def s_fstring_str(s, x):
    return f"<{s}|{x}>"


@case("s")
def s_hash_stable(s):
    return hash(s) == hash(s + ""), hash(s[:]) == hash(s)


@case("s")
def s_truth(s):
    return bool(s), not s, len(s) > 0


@case("s")
def s_reverse_words(s):
    return " ".join(s.split()[::-1])


@case("s")
def s_palindrome(s):
    t = s.lower()
    return t == t[::-1]


@case("s")
def s_count_char(s):
    n = 0
    for c in s:
        if c == "a" or c == "é":
            n += 1
    return n


@case("s")
def s_caesar(s):
    out = ""
    for c in s:
        if "a" <= c <= "z":
            out += chr((ord(c) - 97 + 3) % 26 + 97)
        else:
            out += c
    return out


@case("s")
def s_build_list_join(s):
    parts = []
    for c in s:
        parts.append(c + c)
    return "".join(parts)


@case("s s")
def s_concat_compare(a, b):
    return (a + b) == (a + b), (a + b)[len(a):] == b


@case("s")
def s_index_error(s):
    return s[len(s) + 3]


@case("s")
def s_tuple_of_str(s):
    return (s, s + "x", len(s))


@case("S")
def s_longest(a):
    best = a[0]
    for s in a:
        if len(s) > len(best):
            best = s
    return best


@case("S")
def s_sort_strings(a):
    a.sort()
    return a


@case("s")
def s_count_words(s):
    return len(s.split())


@case("s")
def s_compare_chars(s):
    return [c < "m" for c in s]


@case("s n")
def s_pad(s, n):
    out = s
    while len(out) < n:
        out = "." + out
    return out


@case("s")
def s_in_literal_list(s):
    return s in ["a", "é", "", "中文"]


@case("s")
def s_split_then_len(s):
    return [len(w) for w in s.split("-")]


@case("s")
def s_find_all(s):
    out = []
    i = s.find("a")
    while i >= 0:
        out.append(i)
        i = s.find("a", i + 1)
    return out


@case("s")
def s_replace_remove(s):
    return s.replace(" ", "")


@case("n")
def s_digits(n):
    return [c for c in str(n * 12345)]


@case("i")
def s_str_roundtrip_len(x):
    return len(str(x)), str(x) == str(x)


# ---- tuples ----

@case("T")
def t_unpack(t):
    a, b, c = t
    return c, b, a


@case("T")
def t_index(t):
    return t[0] + t[1] * t[2], t[-1]


@case("T")
def t_len_iter(t):
    s = 0
    for x in t:
        s += x
    return len(t), s


@case("T")
def t_slice(t):
    return t[1:], t[::-1]


@case("T T")
def t_compare(a, b):
    return a == b, a < b, a != b


@case("T")
def t_concat(t):
    return t + (7,), t + t


@case("T")
def t_contains(t):
    return 3 in t, t[0] in t


@case("i f")
def t_hetero(x, y):
    t = (x, y, x > 0)
    return t[2], t[1] * 2, t


@case("L")
def t_list_of_tuples_sort(a):
    return sorted([(x % 3, x) for x in a])


@case("T")
def t_hash(t):
    return hash(t) == hash((t[0], t[1], t[2]))


@case("T")
def t_nested(t):
    u = (t, (t[0], 1.5))
    return u[0][1], u[1][1], u


@case("T")
def t_min_max(t):
    return min(t), max(t)


@case("T")
def t_sum_args(t):
    return sum(t)


# ---- comprehensions and control flow ----

@case("n")
def c_squares_dict(n):
    return sorted([(k, v) for k, v in {i: i * i for i in range(n)}.items()])


@case("L")
def c_nested_if(a):
    return [x * y for x in a for y in a if x < y]


@case("L")
def c_conditional_expr(a):
    return [x if x > 0 else -x for x in a]


@case("n")
def c_break_continue(n):
    out = []
    for i in range(n * 3):
        if i % 4 == 3:
            continue
        if i > 20:
            break
        out.append(i)
    return out


@case("n")
def c_while_else(n):
    i = 0
    found = -1
    while i < n:
        if i * i > 30:
            found = i
            break
        i += 1
    else:
        found = -2
    return found


@case("L")
def c_for_else(a):
    for x in a:
        if x == 7:
            break
    else:
        return -1
    return 1


@case("L")
def c_comprehension_of_str(a):
    return [str(x) for x in a]


@case("L")
def c_sum_generator_like(a):
    return sum([x * x for x in a])


@case("L")
def c_nested_loops_list(a):
    out = []
    for i in range(len(a)):
        for j in range(i):
            if a[i] == a[j]:
                out.append((j, i))
    return out


@case("L")
def c_zip_comprehension(a):
    return [x + y for x, y in zip(a, a[1:])]


@case("L")
def c_enumerate_comprehension(a):
    return [i * x for i, x in enumerate(a)]


@case("n")
def c_matrix(n):
    m = [[i * n + j for j in range(n)] for i in range(n)]
    return [m[i][i] for i in range(n)]


# ---- closures and lambdas ----

@case("i")
def f_lambda(x):
    f = lambda y: y * 2 + x  # noqa: E731
    return f(3), f(x)


@case("L")
def f_inner_over_list(a):
    def total():
        return sum(a)
    return total() * 2


@case("i")
def f_default_arg(x):
    def g(y, z=10):
        return y + z
    return g(x), g(x, 1)


@case("i")
def f_keyword_call(x):
    def g(a, b):
        return a - b
    return g(b=x, a=1)


@case("n")
def f_nonlocal(n):
    count = 0

    def bump(k):
        nonlocal count
        count += k
    for i in range(n):
        bump(i)
    return count


@case("L")
def f_lambda_in_loop(a):
    sq = lambda v: v * v  # noqa: E731
    return [sq(x) for x in a]


@case("i")
def f_nested_inner(x):
    def outer(y):
        def inner(z):
            return z + 1
        return inner(y) * 2
    return outer(x)


@case("i")
def f_closure_sees_update(x):
    k = 1

    def g():
        return x * k
    k = 3
    return g()


@case("s")
def f_closure_str(s):
    def wrap(t):
        return "[" + t + "]"
    return wrap(s), wrap(s[::-1])


@case("i")
def f_multiple_returns(x):
    def sign(v):
        if v > 0:
            return 1
        if v < 0:
            return -1
        return 0
    return sign(x), sign(-x), sign(0)


@case("L")
def f_closure_builds_list(a):
    out = []

    def add(v):
        out.append(v * 2)
    for x in a:
        add(x)
    return out


# ---- exceptions ----

@case("i")
def e_catch_value_error(x):
    try:
        if x > 0:
            raise ValueError("positive")
        r = 0
    except ValueError:
        r = 1
    return r


@case("L")
def e_catch_index(a):
    try:
        return a[10]
    except IndexError:
        return -1


@case("L i")
def e_catch_key(a, x):
    d = {v: v for v in a}
    try:
        return d[x]
    except KeyError:
        return -1


@case("i")
def e_catch_zero_div(x):
    try:
        return 10 // x
    except ZeroDivisionError:
        return 0


@case("i")
def e_finally(x):
    out = []
    try:
        if x > 0:
            raise ValueError
        out.append(1)
    except ValueError:
        out.append(2)
    finally:
        out.append(3)
    return out


@case("i")
def e_else(x):
    try:
        y = 100 // (x + 1000)
    except ZeroDivisionError:
        y = -1
    else:
        y += 1
    return y


@case("i")
def e_bare_except(x):
    try:
        if x % 2 == 0:
            raise KeyError(x)
        return 1
    except:  # noqa: E722
        return 2


@case("i")
def e_tuple_of_classes(x):
    try:
        if x > 10:
            raise IndexError
        if x < -10:
            raise KeyError
        return 0
    except (IndexError, KeyError):
        return 1


@case("i")
def e_exception_base(x):
    try:
        if x > 0:
            raise ValueError("x")
        return 0
    except Exception:
        return 1


@case("L")
def e_in_loop(a):
    bad = 0
    for x in a:
        try:
            if x < 0:
                raise ValueError
        except ValueError:
            bad += 1
    return bad


@case("i")
def e_reraise(x):
    try:
        raise ValueError("inner")
    except ValueError:
        if x > 0:
            raise
    return 0


@case("i")
def e_uncaught(x):
    if x > 0:
        raise ValueError("bad value")
    return x


@case("i")
def e_assert(x):
    assert x < 20, "too big"
    return x


@case("L")
def e_catch_pop_empty(a):
    b = [x for x in a if x > 1000]
    try:
        return b.pop()
    except IndexError:
        return -5


@case("s")
def e_catch_str_index(s):
    try:
        return s[20]
    except IndexError:
        return "none"


@case("i")
def e_nested_try(x):
    r = 0
    try:
        try:
            if x > 0:
                raise KeyError
        except KeyError:
            r += 1
            if x > 10:
                raise ValueError
    except ValueError:
        r += 10
    return r


@case("i")
def e_other_class_escapes(x):
    try:
        if x > 0:
            raise KeyError(x)
    except ValueError:
        return -1
    return 0


# ---- mixed ----

@case("s")
def m_word_lengths_dict(s):
    d = {}
    for w in s.split():
        d[w] = len(w)
    return sorted([(k, v) for k, v in d.items()])


@case("S")
def m_index_of_words(a):
    d = {}
    for i, w in enumerate(a):
        if w not in d:
            d[w] = [i]
        else:
            d[w].append(i)
    return sorted([(k, v) for k, v in d.items()])


@case("L")
def m_run_lengths(a):
    out = []
    cur, n = a[0], 0
    for x in a:
        if x == cur:
            n += 1
        else:
            out.append((cur, n))
            cur, n = x, 1
    out.append((cur, n))
    return out


@case("s")
def m_tokenize(s):
    tokens = []
    cur = ""
    for c in s:
        if c == " " or c == "-":
            if len(cur) > 0:
                tokens.append(cur)
            cur = ""
        else:
            cur += c
    if len(cur) > 0:
        tokens.append(cur)
    return tokens


@case("L")
def m_two_sum(a):
    seen = {}
    for i, x in enumerate(a):
        if 10 - x in seen:
            return (seen[10 - x], i)
        seen[x] = i
    return (-1, -1)


@case("L")
def m_stats(a):
    n = len(a)
    mean = sum(a) / n
    var = sum([(x - mean) ** 2 for x in a]) / n
    return mean, var


@case("S")
def m_anagram_groups(a):
    d = {"": 0}
    for w in a:
        key = "".join(sorted([c for c in w]))
        d[key] = d.get(key, 0) + 1
    return sorted([v for v in d.values()])


@case("n")
def m_collatz(n):
    x = n + 1
    steps = []
    while x != 1:
        steps.append(x)
        x = x // 2 if x % 2 == 0 else 3 * x + 1
    return len(steps), steps[:5]


@case("L")
def m_queue_simulation(a):
    q = list(a)
    out = []
    while len(q) > 0:
        x = q.pop(0)
        if x > 0 and x % 2 == 0:
            q.append(x // 2)
        out.append(x)
    return out


@case("s")
def m_vowel_dict(s):
    vowels = {"a": 0, "e": 0, "é": 0, "o": 0}
    for c in s:
        if c in vowels:
            vowels[c] += 1
    return sorted([(k, v) for k, v in vowels.items()])


@case("L")
def m_matrix_rows(a):
    rows = [a[i:i + 3] for i in range(0, len(a), 3)]
    return [sum(r) for r in rows]


@case("L")
def m_dict_of_lists_sum(a):
    d = {0: [0], 1: [0]}
    for x in a:
        d[x % 2].append(x)
    return sum(d[0]), sum(d[1])


# ---- sets ----

@case("L")
def set_from_list(a):
    return sorted(set(a))


@case("L L")
def set_operators(a, b):
    x, y = set(a), set(b)
    return sorted(x | y), sorted(x & y), sorted(x - y), sorted(x ^ y)


@case("L L")
def set_methods(a, b):
    x = set(a)
    return (sorted(x.union(b)), sorted(x.intersection(b)), sorted(x.difference(b)),
            x.issubset(set(b)), x.isdisjoint(set(b)))


@case("L i")
def set_add_discard(a, v):
    s = set(a)
    s.add(v)
    s.discard(a[0])
    return sorted(s), v in s, len(s)


@case("L")
def set_remove_missing(a):
    s = set(a)
    s.remove(12345)
    return len(s)


@case("L")
def set_comprehension(a):
    return sorted({x * x for x in a if x != 0})


@case("L L")
def set_compare(a, b):
    x, y = set(a), set(b)
    return x == y, x <= y, x < (x | y), x >= x


@case("L")
def set_inplace(a):
    s = set(a)
    s |= {100, 101}
    s -= {a[0]}
    s &= set(a) | {100}
    return sorted(s)


@case("s")
def set_of_chars(s):
    return sorted(set(s))


@case("S")
def set_of_strings(a):
    s = set(a)
    return len(s), sorted(s)


@case("L")
def set_empty_then_refined(a):
    s = set()
    for x in a:
        if x > 0:
            s.add(x)
    return sorted(s), len(s) == 0


@case("L")
def set_pop_all(a):
    s = set(a)
    total = 0
    while len(s) > 0:
        total += s.pop()
    return total


@case("F")
def set_of_floats(a):
    return sorted(set(a))


@case("n")
def set_grow(n):
    s = set()
    for i in range(n * 100):
        s.add(i % (n * 7 + 1))
    return len(s), sum(s)


@case("L")
def set_sum_min_max(a):
    s = set(a)
    return sum(s), min(s), max(s)


@case("L")
def set_tuples(a):
    s = {(x % 3, x % 2) for x in a}
    return len(s), (0, 0) in s


# ---- Optional and isinstance ----

@case("L i")
def o_find_index(a, x):
    for i in range(len(a)):
        if a[i] == x:
            return i
    return None


@case("i")
def o_maybe(x):
    r = None
    if x > 0:
        r = x * 2
    if r is None:
        return -1
    return r + 1


@case("L i")
def o_dict_get(a, x):
    d = {v: v * 3 for v in a}
    r = d.get(x)
    return -1 if r is None else r


@case("i")
def o_none_or_value(x):
    if x % 2 == 0:
        return None
    return x


@case("i")
def o_value_used(x):
    v = None if x > 100 else x
    return v + 1


@case("i")
def o_none_used(x):
    v = None if x < 100 else x
    return v + 1


@case("i")
def i_isinstance_int(x):
    return isinstance(x, int), isinstance(x, float), isinstance(x, (float, int))


@case("s")
def i_isinstance_str(s):
    if isinstance(s, str):
        return len(s)
    return -1


@case("L")
def i_isinstance_list(a):
    return isinstance(a, list), isinstance(a, tuple)


@case("T")
def i_isinstance_tuple(t):
    return isinstance(t, tuple), isinstance(t[0], int)


# ---- generators ----

@register_jitable
def _gen_count_up(n):
    for i in range(n):
        yield i * i


@register_jitable
def _gen_pairs(a):
    for i in range(len(a) - 1):
        yield (a[i], a[i + 1])


@register_jitable
def _jit_apply(f, a):
    return [f(x) for x in a]


@register_jitable
def _jit_square(v):
    return v * v


@register_jitable
def _jit_star_sum(first, *rest):
    t = first
    for r in rest:
        t += r
    return t


@njit
def _jit_three(a, b, c):
    return a * 100 + b * 10 + c


@case("n")
def g_sum_generator(n):
    t = 0
    for v in _gen_count_up(n):
        t += v
    return t


@case("n")
def g_list_of_generator(n):
    return list(_gen_count_up(n))


@case("n")
def g_genexpr_sum(n):
    return sum(x * 3 for x in range(n))


@case("n")
def g_genexpr_list(n):
    return list(x for x in range(n) if x % 2 == 0)


@case("n")
def g_next_until_stop(n):
    g = _gen_count_up(n)
    out = []
    try:
        while True:
            out.append(next(g))
    except StopIteration:
        pass
    return out


@case("L")
def g_generator_over_list(a):
    return list(_gen_pairs(a))


@case("n")
def g_max_of_generator(n):
    return max(_gen_count_up(n + 1))


# ---- first-class functions, key=, *args ----

@case("L")
def k_sorted_key(a):
    return sorted(a, key=lambda v: -v)


@case("L")
def k_sorted_key_abs_reverse(a):
    return sorted(a, key=lambda v: abs(v), reverse=True)


@case("S")
def k_sorted_by_length(a):
    return sorted(a, key=lambda s: len(s))


@case("L")
def k_sort_key_in_place(a):
    a.sort(key=lambda v: v % 5)
    return a


@case("L")
def k_min_max_key(a):
    return min(a, key=lambda v: abs(v - 3)), max(a, key=lambda v: v % 7)


@case("L")
def k_apply_lambda(a):
    return _jit_apply(lambda v: v * 2 + 1, a)


@case("L")
def k_apply_jitted(a):
    return _jit_apply(_jit_square, a)


@case("i i")
def k_star_args(x, y):
    return _jit_star_sum(x, y, 3), _jit_star_sum(x, y)


@case("T")
def k_star_call(t):
    return _jit_three(*t)


# ---- lists: more operators ----

@case("L L")
def l_concat(a, b):
    return a + b


@case("L n")
def l_repeat(a, n):
    return a * (n % 4), (n % 3) * a


@case("L L")
def l_iadd(a, b):
    a += b
    return a


@case("L L")
def l_compare_lists(a, b):
    return a == b, a != b, a < b, a <= b, a > b


@case("L L")
def l_slice_assign(a, b):
    a[1:3] = b
    return a


@case("L")
def l_del_slice(a):
    del a[::2]
    return a


@case("L")
def l_np_array_roundtrip(a):
    return int((np.array(a) * 2).sum()), len(np.asarray(a))


@case("S")
def l_of_str_index(a):
    return a.index(a[-1]), a.count(a[0])


# ---- strings: more methods ----

@case("s")
def s_case_methods(s):
    return s.title(), s.capitalize(), s.swapcase(), s.casefold()


@case("s n")
def s_padding(s, n):
    return s.center(n), s.ljust(n, "*"), s.rjust(n), s.zfill(n)


@case("s")
def s_partition(s):
    return s.partition(" "), s.rpartition("-")


@case("s")
def s_rsplit_splitlines(s):
    return s.rsplit(" ", 1), s.splitlines()


@case("i")
def s_int_of_str(x):
    return int(str(x)) + 1, float(str(x)) / 2


@case("s")
def s_int_bad(s):
    return int(s + "x")


@case("s")
def s_more_predicates(s):
    return s.isalnum(), s.isdecimal(), s.isnumeric(), s.istitle(), s.isascii()


@case("s s")
def s_index_rindex(a, b):
    return a.index(b), a.rindex(b)


@case("s")
def s_count_range(s):
    return s.count("a", 1), s.count("", 2, 5)


@case("s")
def s_upper_sharp_s(s):
    return (s + "ß").upper(), ("Σ" + s).lower()


# ---- more mixed cases ----

@case("L")
def x_dict_of_sets(a):
    d = {0: {a[0]}, 1: {a[0]}}
    for x in a:
        d[x % 2].add(x)
    return sorted(d[0]), sorted(d[1])


@case("S")
def x_set_of_lengths(a):
    return sorted({len(s) for s in a})


@case("L")
def x_list_of_sets_sizes(a):
    groups = [set(a[:i + 1]) for i in range(len(a))]
    return [len(g) for g in groups]


@case("s")
def x_char_set_ops(s):
    vowels = set("aeiouéΩ")
    letters = set(s)
    return sorted(letters & vowels), len(letters - vowels)


@case("L")
def x_tuple_list_unpack(a):
    pairs = [(x, x * x) for x in a]
    t = 0
    for p, q in pairs:
        t += q - p
    return t


@case("L")
def x_dict_tuple_values(a):
    d = {x: (x, -x) for x in a}
    return sum([v[1] for v in d.values()])


@case("n")
def x_nested_dicts(n):
    outer = {i: {j: i * j for j in range(i)} for i in range(n)}
    return [len(outer[i]) for i in range(n)]


@case("s")
def x_reverse_each_word(s):
    return " ".join([w[::-1] for w in s.split()])


@case("s")
def x_upper_first_letters(s):
    return [w[0].upper() for w in s.split() if len(w) > 0]


@case("S")
def x_join_sorted(a):
    return ",".join(sorted(a))


@case("L")
def x_enumerate_dict(a):
    d = {}
    for i, x in enumerate(a):
        d[i] = x
    return [d[i] for i in range(len(a))]


@case("L")
def x_list_of_lists_sum(a):
    rows = [[x, x + 1, x + 2] for x in a]
    return [sum(r) for r in rows]


@case("L")
def x_sliding_max(a):
    out = []
    for i in range(len(a) - 2):
        out.append(max(a[i:i + 3]))
    return out


@case("L")
def x_count_pairs(a):
    counts = {}
    for i in range(len(a) - 1):
        key = (a[i] % 3, a[i + 1] % 3)
        counts[key] = counts.get(key, 0) + 1 if key in counts else 1
    return sorted([(k, v) for k, v in counts.items()])


@case("s")
def x_string_to_codes(s):
    return [ord(c) for c in s], "".join([chr(ord(c)) for c in s])


@case("L i")
def x_try_index_default(a, x):
    try:
        return a.index(x)
    except ValueError:
        return -1


@case("L")
def x_try_dict_missing(a):
    d = {v: 1 for v in a}
    n = 0
    for v in range(-5, 5):
        try:
            n += d[v]
        except KeyError:
            n -= 1
    return n


@case("i")
def x_raise_runtime_caught(x):
    try:
        if x > 3:
            raise ValueError("big", x)
        return 0
    except ValueError:
        return 1


@case("i")
def x_raise_runtime_escapes(x):
    if x > 3:
        raise IndexError("index", x, "too big")
    return x


@case("L")
def x_closure_counter(a):
    seen = {a[0]: 0}

    def note(v):
        seen[v] = seen.get(v, 0) + 1
    for v in a:
        note(v)
    return sorted([(k, c) for k, c in seen.items()])


@case("S")
def x_strings_in_tuple(a):
    t = (a[0], len(a[0]))
    return t, t[0] + "!"


@case("L")
def x_optional_max(a):
    best = None
    for x in a:
        if x > 0 and (best is None or x > best):
            best = x
    return best


@case("n")
def x_generator_filter(n):
    return [v for v in _gen_count_up(n) if v % 2 == 1]


@case("L")
def x_sorted_tuples_reverse(a):
    return sorted([(x % 4, -x) for x in a], reverse=True)


@case("L")
def x_min_of_tuples(a):
    return min([(abs(x), x) for x in a])


# ---- unroll / star calls / genexpr ----

@njit
def _star3(a, b, c):
    return a * 100 + b * 10 + c


@case("i")
def u_unroll_mixed(x):
    acc = 0
    for v in literal_unroll((x, 2.5, True)):
        acc += v
    return acc


@case("s i")
def u_unroll_strings(s, x):
    total = 0
    for v in literal_unroll((s, x, "ab")):
        if isinstance(v, str):
            total += len(v)
        else:
            total += v
    return total


@case("T")
def u_unroll_built_tuple(t):
    parts = (t[0], float(t[1]), t[2] > 0, (t[0], t[1]))
    out = []
    for v in literal_unroll(parts):
        if isinstance(v, tuple):
            out.append(float(v[0] - v[1]))
        else:
            out.append(v * 1.5)
    return out


@case("n")
def u_unroll_break(n):
    c = 0
    for v in literal_unroll((1, 2.5, "x", (1,))):
        c += 1
        if c > n:
            break
    return c


@case("L")
def u_unroll_continue(a):
    s = 0.0
    for v in literal_unroll((a[0], float(a[-1]), len(a))):
        if v < 0:
            continue
        s += v
    return s


@case("s")
def u_unroll_last_item(s):
    for v in literal_unroll((1, s)):
        pass
    return v  # noqa: B023 (the loop variable after the loop)


@case("i")
def u_star_then_arg(x):
    return _star3(*(x, 1), x), _star3(x, *(2, x))


@case("T i")
def u_star_two_and_between(t, x):
    return _star3(*(t[0],), x, *(t[2],)), _star3(*(t[0], t[1]), *(t[2],))


@case("T f")
def u_star_displays(t, f):
    return (*t, f), (f, *t, f), (*t, *t)


@case("n i")
def u_genexpr_free(n, m):
    return sum(i * m for i in range(n))


@case("S s")
def u_genexpr_free_filter(words, skip):
    return max(len(w) for w in words if w != skip)
# ---- comprehensions 2 ----

@register_jitable
def _gen_scaled(a, k):
    for x in a:
        yield x * k


@register_jitable
def _gen_letters(s):
    for ch in s:
        if ch != " ":
            yield ch


@register_jitable
def _gen_word_lengths(words):
    for w in words:
        yield len(w)


@case("n")
def cc_multiplication_table(n):
    return [[i * j for j in range(n)] for i in range(n)]


@case("L")
def cc_row_sums_and_maxima(a):
    rows = [[x, -x, x * x] for x in a]
    return [sum(r) for r in rows], [max(r) for r in rows]


@case("L")
def cc_flatten_rows(a):
    rows = [[x, x + 1] for x in a if x % 2 == 0]
    return [v for r in rows for v in r]


@case("L")
def cc_transpose_matrix(a):
    m = [[x + k for x in a] for k in range(3)]
    return [[m[r][c] for r in range(3)] for c in range(len(a))]


@case("L")
def cc_dict_of_lists(a):
    d = {x % 3: [y for y in a if y % 3 == x % 3] for x in a}
    return sorted([(k, sum(v), len(v)) for k, v in d.items()])


@case("L")
def cc_dict_of_sets(a):
    d = {k: {x for x in a if x % 4 == k} for k in range(4)}
    return [len(d[k]) for k in range(4)], [sorted(d[k]) for k in range(4)]


@case("L")
def cc_list_of_sets(a):
    sets = [{x, x + 1, x % 3} for x in a]
    return [sorted(s) for s in sets]


@case("L")
def cc_list_of_dicts(a):
    ds = [{x: x * x, x + 1: 0} for x in a]
    return [len(d) for d in ds], [d[x] for d, x in zip(ds, a)]


@case("n")
def cc_nested_dict_sums(n):
    outer = {i: {j: i + j for j in range(i)} for i in range(n)}
    return [sum([v for v in outer[i].values()]) for i in range(n)]


@case("L")
def cc_comprehension_over_comprehension(a):
    return [y * 2 for y in [x + 1 for x in a if x > 0]]


@case("L")
def cc_set_over_list_comprehension(a):
    return sorted({v % 5 for v in [x * x for x in a]})


@case("L")
def cc_dict_over_dict_items(a):
    d = {x: x * 2 for x in a}
    return sorted([k + v for k, v in {k: v + 1 for k, v in d.items()}.items()])


@case("L")
def cc_lambda_pairs(a):
    f = lambda v: (v, v * v)  # noqa: E731
    return [f(x) for x in a]


@case("L")
def cc_two_lambdas(a):
    inc = lambda v: v + 1  # noqa: E731
    dbl = lambda v: v * 2  # noqa: E731
    return [dbl(inc(x)) for x in a if inc(x) > 0]


@case("L")
def cc_generator_over_list_sum(a):
    return sum(_gen_scaled(a, 3)), max(_gen_scaled(a, -1))


@case("L")
def cc_generator_over_changed_list(a):
    a.append(len(a))
    return [p for p in _gen_scaled(a, 2)], a


@case("s")
def cc_generator_over_string(s):
    return "".join(list(_gen_letters(s)))


@case("S")
def cc_generator_over_list_of_strings(a):
    return list(_gen_word_lengths(a)), [n * 2 for n in _gen_word_lengths(a)]
# ---- tuples 2 ----


@case("S")
def t2_sort_words_by_length(a):
    return sorted([(len(w), w) for w in a])


@case("s")
def t2_sorted_chars_reverse(s):
    return sorted([(c, i) for i, c in enumerate(s)], reverse=True)


@case("S")
def t2_min_max_word_pairs(a):
    pairs = [(w, len(w)) for w in a]
    return min(pairs), max(pairs)


@case("s s")
def t2_compare_str_tuples(a, b):
    x, y = (a, len(b)), (b, len(a))
    return x < y, x <= y, x > y, x >= y, x == y, x != y


@case("T T")
def t2_compare_nested(a, b):
    x = ((a[0], (a[1], "é")), a[2])
    y = ((b[0], (b[1], "e")), b[2])
    return x < y, x >= y, x == y, (x, 1) < (x, 2)


@case("L i")
def t2_compare_list_items(a, i):
    x = ([v for v in a], i)
    y = ([v for v in a if v > i], i)
    return x < y, x <= y, x == y, y > x, (i, [i]) < (i, [i, 0])


@case("i f s")
def t2_slice_hetero(x, y, s):
    t = (x, y, s, x > 0, (s, x))
    return t[1:], t[::-1], t[:0], t[-3:-1], t[::2], t[4:1:-2]


@case("T")
def t2_slice_empty(t):
    e = t[3:]
    return e, e[::-1], t[:100], t[-100:], len(t[1:]), ()[:]


@case("i s")
def t2_contains_hetero(x, s):
    h = (1, 2.5, s, (x, s))
    return x in h, s in h, "中" in h, (x, s) in h, 2.5 in h, x not in h


@case("T i")
def t2_not_in(t, x):
    return x not in t, x in t, -x in t, x in (), x in t[1:]


@case("i f")
def t2_sum_mixed(x, y):
    return sum((x, y, True)), sum(()), sum((x, x > 0)), sum((y,))


@case("T f")
def t2_sum_start(t, y):
    return sum(t, y), sum(t, 100), sum(t[::2], -1)


@case("L s")
def t2_truth_containers(a, s):
    b = [x for x in a if x > 5]
    d = {x: 1 for x in b}
    st = {c for c in s}
    return bool(a), bool(b), not b, bool(d), not d, bool(st), not st, bool(s), not s, bool(())


@case("L")
def t2_while_list(a):
    b = [x for x in a if x % 2 == 0]
    total = 0
    while b:
        total += b.pop()
    d = {x: x for x in a}
    if d:
        total += len(d)
    return total, b


@case("i i s")
def t2_min_of_tuple_args(a, b, s):
    return min((a, s), (b, s)), max((a, s), (b, s + "é")), min((s, a), (s, b), ("", 0))


@case("L")
def t2_sort_tuples_of_lists(a):
    pairs = [(x % 2, [x, -x]) for x in a]
    pairs.sort()
    return pairs, max(pairs), min(pairs)


@case("S")
def t2_group_sorted(a):
    d = {}
    for w in a:
        k = w[:1]
        if k in d:
            d[k].append(len(w))
        else:
            d[k] = [len(w)]
    return sorted([(k, v) for k, v in d.items()])


@case("S")
def t2_tuple_of_strs_min_max(a):
    t = (a[0], a[-1], "é", "")
    return min(t), max(t), a[0] in t, t[1:][::-1]
