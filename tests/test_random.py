"""np.random in compiled code (issue 10; typing/array_random.c, lower/lower_random.c,
abi/random.c): after np.random.seed(s) inside compiled code every stream equals NumPy's legacy
RandomState after the same seed, value for value (MT19937, the legacy polar normals with their
kept second value, masked rejection for randint); one state per thread, apart from NumPy's
own; numba's result types and shapes; NumPy's errors."""
import os
import threading

import numpy as np
import pytest

import cujit
from cujit import njit
from cujit.errors import TypingError, UnsupportedError

SEEDS = [0, 1, 42, 12345, 2**32 - 1]


def mixed(s):
    np.random.seed(s)
    return (np.random.random(), np.random.rand(), np.random.random_sample(),
            np.random.uniform(2.0, 5.0), np.random.uniform(), np.random.randint(0, 100),
            np.random.randint(7), np.random.normal(1.0, 2.0), np.random.normal(),
            np.random.randn(), np.random.standard_normal(), np.random.exponential(2.0),
            np.random.standard_exponential(), np.random.normal(-3, 0.5),
            np.random.randint(-10, 10), np.random.poisson(3.5), np.random.poisson(40.0),
            np.random.binomial(10, 0.3), np.random.binomial(1000, 0.6), np.random.random())


def sized(s):
    np.random.seed(s)
    return (np.random.random(5), np.random.random((2, 3)), np.random.rand(3, 2, 2),
            np.random.randn(7), np.random.uniform(-1.0, 3.0, (4, 2)),
            np.random.normal(0.5, 2.0, 9), np.random.randint(-5, 50, size=(3, 3)),
            np.random.exponential(3.0, 6), np.random.poisson(2.0, 5),
            np.random.poisson(25.0, (2, 2)), np.random.standard_normal((1, 3)),
            np.random.random_sample(0), np.random.normal(size=3),
            np.random.binomial(20, 0.25, (2, 3)), np.random.random())


@pytest.mark.parametrize("seed", SEEDS)
def test_scalar_streams_equal_numpys_legacy_random_state(seed):
    got = njit(mixed)(seed)
    want = mixed(seed)  # the interpreter: NumPy's own RandomState
    assert got == want
    assert [type(v) for v in got] == [type(float(v)) if isinstance(v, float) else int
                                      for v in want]


@pytest.mark.parametrize("seed", SEEDS)
def test_sized_streams_equal_numpys(seed, nrt_balanced):
    got, want = njit(sized)(seed), sized(seed)
    for g, w in zip(got[:-1], want[:-1]):
        assert g.dtype == w.dtype and g.shape == w.shape and g.flags.c_contiguous
        np.testing.assert_array_equal(g, w)
    assert got[-1] == want[-1]  # the stream goes on where NumPy's does


@pytest.mark.slow  # a sweep: dev/test.sh runs it, not the sanitizers
@pytest.mark.parametrize("words", [0, 1, 2, 3, 623, 624, 625])
def test_uniform_arrays_across_regenerations_and_odd_positions(words, nrt_balanced):
    """abi/random.c fills uniform arrays pair by pair from the key: a pair split by a
    regeneration, or an odd number of 32-bit words drawn before, must change nothing."""
    def f(s, words):
        np.random.seed(s)
        for _ in range(words):
            np.random.randint(0, 2**31)  # one 32-bit word each
        return np.random.random(1500), np.random.uniform(-2.0, 2.0, 7), np.random.random()
    for g, w in zip(njit(f)(17, words), f(17, words)):
        np.testing.assert_array_equal(g, w)


@pytest.mark.slow  # a sweep: dev/test.sh runs it, not the sanitizers
@pytest.mark.parametrize("before", [0, 1, 2, 3])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 8, 9])
def test_normal_arrays_with_and_without_a_kept_value(before, n, nrt_balanced):
    """abi/random.c fills normal arrays a pair at a time: a value kept from before, an odd
    count, and the value kept after must be NumPy's."""
    def f(s, before, n):
        np.random.seed(s)
        for _ in range(before):
            np.random.normal()
        return np.random.normal(1.0, 2.0, n), np.random.normal(), np.random.normal()
    got, want = njit(f)(23, before, n), f(23, before, n)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]


def test_normal_keeps_its_second_value_and_seed_drops_it():
    def f(s):
        np.random.seed(s)
        a = np.random.normal()  # draws a pair, keeps one
        np.random.seed(s)
        b = np.random.normal()  # the pair again: the kept value was dropped
        c = np.random.normal()  # the kept one
        d = np.random.random()
        return a, b, c, d
    assert njit(f)(3) == f(3)
    assert njit(f)(3)[0] != njit(f)(3)[2]


@pytest.mark.parametrize("low,high", [(0, 1), (0, 2**32), (0, 2**32 - 1), (-5, 2**40),
                                      (-2**62, 2**62), (-2**63, 2**63 - 1), (10, 11),
                                      (0, 2**31 + 1), (-3, 1000003), (2**63 - 2, 2**63 - 1)])
def test_randint_ranges_equal_numpys(low, high, nrt_balanced):
    def f(s, low, high):
        np.random.seed(s)
        return np.random.randint(low, high, 50), np.random.randint(low, high), np.random.random()
    got, want = njit(f)(9, low, high), f(9, low, high)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]


@pytest.mark.slow  # a sweep: dev/test.sh runs it, not the sanitizers
@pytest.mark.parametrize("n", [0, 1, 7, 60, 1000, 10**6, 2**40])
@pytest.mark.parametrize("p", [0.0, 1e-6, 0.02, 0.3, 0.5, 0.8, 0.999, 1.0])
def test_binomial_equals_numpys_by_inversion_and_btpe(n, p, nrt_balanced):
    def f(s, n, p):
        np.random.seed(s)
        return np.random.binomial(n, p, 300), np.random.binomial(n, p), np.random.random()
    got, want = njit(f)(13, n, p), f(13, n, p)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]  # the stream goes on alike (n == 0 and p == 0 draw too)


DISTRIBUTIONS = [
    "lognormal(0.5, 0.8, N)", "lognormal()", "standard_gamma(0.5, N)", "standard_gamma(3.0, N)",
    "standard_gamma(1.0, N)", "standard_gamma(0.0)", "gamma(2.5, 3.0, N)", "gamma(0.3)",
    "chisquare(4.0, N)", "chisquare(0.5, (2, 3))", "beta(0.5, 0.7, N)", "beta(2.0, 3.0, N)",
    "pareto(3.0, N)", "weibull(1.5, N)", "weibull(0.0, N)", "power(2.0, N)",
    "standard_cauchy(N)", "standard_cauchy()", "standard_t(5.0, N)", "laplace(1.0, 2.0, N)",
    "laplace()", "gumbel(1.0, 2.0, N)", "gumbel()", "logistic(1.0, 2.0, N)", "logistic()",
    "rayleigh(2.0, N)", "rayleigh()", "geometric(0.5, N)", "geometric(0.1, N)",
    "geometric(1.0)", "gamma(shape=2.0, scale=0.5, size=N)", "beta(a=3.0, b=0.5)",
    "f(3.0, 7.0, N)", "f(0.5, 0.5)", "wald(1.5, 2.0, N)", "wald(mean=0.1, scale=30.0)",
    "vonmises(2.5, 4.0, N)", "vonmises(-3.0, 1e-6, N)", "vonmises(10.0, 1e-9, N)",
    "vonmises(0.0, 0.0)", "vonmises(1.0, 1e7, N)", "vonmises(0.5, np.nan)",
    "negative_binomial(3.0, 0.4, N)", "negative_binomial(0.5, 0.9, N)",
    "negative_binomial(100.0, 0.01)", "negative_binomial(np.nan, 0.5, 3)", "logseries(0.3, N)",
    "logseries(0.99, N)", "logseries(0.0, 4)", "zipf(1.5, N)", "zipf(3.0, N)", "zipf(1.0001, 5)",
    "triangular(0.0, 0.3, 1.0, N)", "triangular(-2.0, 5.0, 5.0)",
    "triangular(left=1, mode=1, right=4, size=(2, 3))", "hypergeometric(5, 5, 3, N)",
    "hypergeometric(100, 200, 11, N)", "hypergeometric(100, 200, 150, N)",
    "hypergeometric(10**6, 10**6, 10**5, N)", "hypergeometric(50, 50, 100)",
    "hypergeometric(0, 9, 4, 3)",
]


@pytest.mark.slow  # a sweep: dev/test.sh runs it, not the sanitizers
@pytest.mark.parametrize("call", DISTRIBUTIONS)
def test_other_distributions_equal_numpys(call, nrt_balanced):
    src = (f"def f(s, N):\n    np.random.seed(s)\n"
           f"    return np.random.{call}, np.random.random()\n")
    scope = {"np": np}
    exec(src, scope)
    f = scope["f"]
    got, want = njit(f)(3, 2000), f(3, 2000)
    np.testing.assert_array_equal(got[0], want[0])
    assert np.asarray(got[0]).dtype == np.asarray(want[0]).dtype
    assert got[1] == want[1]


def test_keywords_and_defaults(nrt_balanced):
    def f(s):
        np.random.seed(s)
        return (np.random.normal(loc=2.0, scale=0.1, size=(2, 2)), np.random.uniform(high=4.0),
                np.random.randint(3, size=4), np.random.randint(low=2, high=9, size=None),
                np.random.exponential(size=2), np.random.poisson(lam=7.5, size=3),
                np.random.random(size=None), np.random.uniform(1, 2, size=np.int32(3)))
    for g, w in zip(njit(f)(11), f(11)):
        np.testing.assert_array_equal(g, w)


def test_choice_shuffle_permutation_equal_numpys(nrt_balanced):
    def f(s, a, x):
        np.random.seed(s)
        return (np.random.choice(a), np.random.choice(a, 6), np.random.choice(a, (2, 2)),
                np.random.choice(9), np.random.choice(9, 3), np.random.permutation(12),
                np.random.permutation(a), np.random.permutation(0), np.random.permutation(-3),
                np.random.shuffle(x), np.random.random())
    a = np.arange(10, 17).astype(np.int32)[::2]
    x1, x2 = np.arange(30.0).reshape(3, 10)[1], np.arange(30.0).reshape(3, 10)[1]
    got, want = njit(f)(5, a, x1), f(5, a, x2)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        if isinstance(w, np.ndarray):  # scalars box as Python numbers, as numba's
            assert g.dtype == w.dtype
    np.testing.assert_array_equal(x1, x2)
    assert sorted(x1) == list(np.arange(10.0, 20.0))
    assert got[7].shape == got[8].shape == (0,)


@pytest.mark.parametrize("replace", [True, False])
@pytest.mark.parametrize("a", [np.arange(10, 20).astype(np.int16)[::-2], 9,
                               np.array([True, False, True, True])])
def test_choice_without_replacement_equals_numpys(a, replace, nrt_balanced):
    """replace=False takes the first items of permutation(len(a)), replace known at run
    time or not."""
    def f(s, a, r):
        np.random.seed(s)
        return (np.random.choice(a, 3, False), np.random.choice(a, replace=False),
                np.random.choice(a, (2, 1), r), np.random.choice(a, None, r),
                np.random.choice(a, size=0, replace=False), np.random.random())
    got, want = njit(f)(4, a, replace), f(4, a, replace)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.shape == w.shape


def test_choice_without_replacement_errors(nrt_balanced):
    for f in (lambda: np.random.choice(3, 5, replace=False),
              lambda: np.random.choice(np.zeros(2), (2, 2), False)):
        with pytest.raises(ValueError, match="Cannot take a larger sample than population"):
            f()
        with pytest.raises(ValueError, match="Cannot take a larger sample than population"):
            njit(f)()
    assert sorted(njit(lambda: np.random.choice(50, 50, replace=False))()) == list(range(50))


def test_shuffle_of_strided_and_small_dtypes():
    @njit
    def shuffle(s, x):
        np.random.seed(s)
        np.random.shuffle(x)
    for dtype in (np.int8, np.bool_, np.float32, np.complex128, np.uint16):
        x = (np.arange(40) % 7).astype(dtype)[::-3]
        y = x.copy()
        shuffle(8, x)
        np.random.seed(8)
        np.random.shuffle(y)
        np.testing.assert_array_equal(x, y)


def test_numbas_streams_agree_for_random_and_normal():
    """numba matches NumPy for these too: a cross-check of the reference."""
    numba = pytest.importorskip("numba")

    def f(s):
        np.random.seed(s)
        return np.random.random(4), np.random.normal(1.0, 3.0, 5), np.random.random()
    for g, w in zip(njit(f)(21), numba.njit(f)(21)):
        np.testing.assert_array_equal(g, w)


@pytest.mark.slow  # compiles every generator in numba too: dev/test.sh, not the sanitizers
def test_result_types_and_shapes_are_numbas(nrt_balanced):
    numba = pytest.importorskip("numba")
    cases = [lambda: np.random.random(), lambda: np.random.random(3),
             lambda: np.random.random((2, 3)), lambda: np.random.rand(),
             lambda: np.random.rand(2, 3), lambda: np.random.randn(4, 1),
             lambda: np.random.uniform(1.0, 2.0, (2, 2)), lambda: np.random.normal(0.0, 1.0, 5),
             lambda: np.random.randint(0, 5), lambda: np.random.randint(0, 5, (2, 3)),
             lambda: np.random.exponential(2.0, 4), lambda: np.random.poisson(3.0),
             lambda: np.random.poisson(3.0, 4), lambda: np.random.permutation(5),
             lambda: np.random.choice(5), lambda: np.random.choice(5, 3),
             lambda: np.random.standard_normal(3), lambda: np.random.randn(),
             lambda: np.random.binomial(10, 0.5), lambda: np.random.binomial(10, 0.5, 3),
             lambda: np.random.gamma(2.0, 1.0, 3), lambda: np.random.geometric(0.5),
             lambda: np.random.geometric(0.5, (2, 2)), lambda: np.random.lognormal(),
             lambda: np.random.choice(5, 3, False), lambda: np.random.choice(5, replace=False),
             lambda: np.random.zipf(2.0), lambda: np.random.logseries(0.5, 3),
             lambda: np.random.triangular(0.0, 1.0, 2.0, (2, 2)),
             lambda: np.random.hypergeometric(5, 5, 3),
             lambda: np.random.hypergeometric(5, 5, 3, 4)]
    for f in cases:
        g, w = njit(f)(), numba.njit(f)()
        assert type(g) is type(w)
        assert np.shape(g) == np.shape(w) and np.asarray(g).dtype == np.asarray(w).dtype
        if isinstance(g, np.ndarray):
            assert g.flags.c_contiguous and g.flags.writeable


def test_distributions_have_their_moments(nrt_balanced):
    @njit
    def draws(s, n):
        np.random.seed(s)
        return (np.random.exponential(2.0, n), np.random.normal(3.0, 0.5, n),
                np.random.uniform(-1.0, 5.0, n), np.random.poisson(4.0, n),
                np.random.poisson(60.0, n), np.random.randint(0, 10, n),
                np.random.binomial(200, 0.3, n))
    exp_, nor, uni, poi, poi_big, ints, bino = draws(2024, 10**5)
    for x, mean, var in [(exp_, 2.0, 4.0), (nor, 3.0, 0.25), (uni, 2.0, 3.0), (poi, 4.0, 4.0),
                         (poi_big, 60.0, 60.0), (ints, 4.5, 8.25), (bino, 60.0, 42.0)]:
        assert abs(x.mean() - mean) < 0.02 * max(1.0, mean)
        assert abs(x.var() - var) < 0.04 * var
    assert exp_.min() >= 0 and -1.0 <= uni.min() and uni.max() < 5.0
    assert set(np.unique(ints)) == set(range(10))


def test_compiled_seed_leaves_numpys_state_alone():
    seed = njit(lambda s: np.random.seed(s))
    draw = njit(lambda: np.random.random())
    np.random.seed(5)
    expected = np.random.random(3)
    np.random.seed(5)
    seed(123)
    assert list(np.random.random(3)) == list(expected)
    seed(77)
    np.random.seed(1)  # and NumPy's seed leaves compiled code's stream alone
    np.random.seed(77)
    first = np.random.random()
    seed(77)
    np.random.seed(0)
    assert draw() == first


def test_each_thread_has_its_own_state():
    seed = njit(lambda s: np.random.seed(s))
    draw = njit(lambda: np.random.random())
    results, ready = {}, threading.Barrier(2)

    def work(s):
        seed(s)
        ready.wait()  # the other thread seeds too before anyone draws
        results[s] = [draw() for _ in range(200)]
    threads = [threading.Thread(target=work, args=(s,)) for s in (10, 20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in (10, 20):
        np.random.seed(s)
        assert results[s] == list(np.random.random(200))


def test_unseeded_threads_start_from_fresh_entropy():
    draw = njit(lambda: np.random.random(4))
    got = []
    threads = [threading.Thread(target=lambda: got.append(tuple(draw()))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 3


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_draws_from_fresh_entropy():
    """numba's rule: after fork the child's generator is seeded anew, so children of one
    seeded parent do not repeat its stream."""
    seed = njit(lambda s: np.random.seed(s))
    draw = njit(lambda: np.random.random(3))
    seed(99)
    draw()  # the parent's state is in use
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.write(w, draw().tobytes())
        os._exit(0)
    os.close(w)
    child = np.frombuffer(os.read(r, 24), dtype=np.float64)
    os.close(r)
    os.waitpid(pid, 0)
    np.random.seed(99)
    np.random.random(3)
    parent_next = np.random.random(3)
    assert list(draw()) == list(parent_next)  # the parent's stream goes on
    assert child.shape == (3,) and list(child) != list(parent_next)


def test_numpys_value_errors():
    cases = [(lambda: np.random.randint(5, 5), ValueError, "low >= high"),
             (lambda: np.random.randint(7, 3, 2), ValueError, "low >= high"),
             (lambda: np.random.randint(0), ValueError, "high <= 0"),
             (lambda: np.random.randint(-4), ValueError, "high <= 0"),
             (lambda: np.random.seed(-1), ValueError, r"Seed must be between 0 and 2\*\*32 - 1"),
             (lambda: np.random.seed(2**32), ValueError, "Seed must be between"),
             (lambda: np.random.normal(0.0, -1.0), ValueError, "scale < 0"),
             (lambda: np.random.normal(0.0, -0.0, 3), ValueError, "scale < 0"),
             (lambda: np.random.exponential(-2.0), ValueError, "scale < 0"),
             (lambda: np.random.uniform(0.0, np.inf), OverflowError, "Range exceeds"),
             (lambda: np.random.poisson(-1.0), ValueError, "lam < 0 or lam is NaN"),
             (lambda: np.random.poisson(np.nan), ValueError, "lam < 0 or lam is NaN"),
             (lambda: np.random.poisson(1e19), ValueError, "lam value too large"),
             (lambda: np.random.choice(0), ValueError, "a must be greater than 0"),
             (lambda: np.random.choice(-1, 2), ValueError, "a must be greater than 0"),
             (lambda: np.random.binomial(-1, 0.5), ValueError, "n < 0"),
             (lambda: np.random.binomial(3, 1.5, 2), ValueError, r"p < 0, p > 1 or p is NaN"),
             (lambda: np.random.binomial(3, np.nan), ValueError, r"p < 0, p > 1 or p is NaN")]
    cases += [(lambda: np.random.lognormal(0.0, -1.0), ValueError, "sigma < 0"),
              (lambda: np.random.standard_gamma(-0.0), ValueError, "shape < 0"),
              (lambda: np.random.gamma(1.0, -1.0, 2), ValueError, "scale < 0"),
              (lambda: np.random.chisquare(0.0), ValueError, "df <= 0"),
              (lambda: np.random.beta(1.0, 0.0), ValueError, "b <= 0"),
              (lambda: np.random.pareto(-1.0), ValueError, "a <= 0"),
              (lambda: np.random.weibull(-1.0), ValueError, "a < 0"),
              (lambda: np.random.power(0.0), ValueError, "a <= 0"),
              (lambda: np.random.standard_t(0.0), ValueError, "df <= 0"),
              (lambda: np.random.laplace(0.0, -1.0), ValueError, "scale < 0"),
              (lambda: np.random.rayleigh(-1.0), ValueError, "scale < 0"),
              (lambda: np.random.geometric(0.0), ValueError,
               r"p <= 0, p > 1 or p contains NaNs"),
              (lambda: np.random.geometric(np.nan, 3), ValueError, r"p <= 0, p > 1"),
              (lambda: np.random.f(0.0, 1.0), ValueError, "dfnum <= 0"),
              (lambda: np.random.wald(1.0, -2.0), ValueError, "scale <= 0"),
              (lambda: np.random.vonmises(0.0, -1.0), ValueError, "kappa < 0"),
              (lambda: np.random.negative_binomial(0.0, 0.5), ValueError, "n <= 0"),
              (lambda: np.random.negative_binomial(1.0, 1.5), ValueError,
               r"p < 0, p > 1 or p is NaN"),
              (lambda: np.random.logseries(1.0), ValueError, r"p < 0, p >= 1 or p is NaN"),
              (lambda: np.random.zipf(1.0, 2), ValueError, r"a <= 1 or a is NaN"),
              (lambda: np.random.zipf(np.nan), ValueError, r"a <= 1 or a is NaN"),
              (lambda: np.random.triangular(2.0, 1.0, 3.0), ValueError, "left > mode"),
              (lambda: np.random.triangular(0.0, 3.0, 2.0, 4), ValueError, "mode > right"),
              (lambda: np.random.triangular(1.0, 1.0, 1.0), ValueError, "left == right"),
              (lambda: np.random.hypergeometric(-1, 2, 1), ValueError, "ngood < 0"),
              (lambda: np.random.hypergeometric(2, -1, 1, 3), ValueError, "nbad < 0"),
              (lambda: np.random.hypergeometric(2, 2, 0), ValueError, "nsample < 1"),
              (lambda: np.random.hypergeometric(2, 2, 5), ValueError,
               r"ngood \+ nbad < nsample")]
    for f, exc, text in cases:
        with pytest.raises(exc, match=text):
            f()  # NumPy says so ...
        with pytest.raises(exc, match=text):
            njit(f)()  # ... and so does compiled code
    empty = np.zeros(0)
    with pytest.raises(ValueError, match="'a' cannot be empty"):
        njit(lambda a: np.random.choice(a))(empty)
    assert njit(lambda a: np.random.choice(a, 0))(empty).shape == (0,)  # NumPy's too
    assert njit(lambda: np.random.randint(3, 1, size=0))().shape == (0,)
    assert np.isnan(njit(lambda: np.random.normal(1.0, np.nan))())  # NaN passes, as in NumPy


def test_typing_errors():
    with pytest.raises(TypingError, match="size must be None, an int or a tuple of ints"):
        njit(lambda: np.random.random(2.5))()
    with pytest.raises(TypingError, match="size must be None, an int or a tuple of ints"):
        njit(lambda: np.random.normal(0.0, 1.0, (2, 1.5)))()
    with pytest.raises(TypingError, match="low must be an integer"):
        njit(lambda: np.random.randint(1.5, 3))()
    with pytest.raises(TypingError, match="loc must be a real number"):
        njit(lambda: np.random.normal(1j))()
    with pytest.raises(TypingError, match="x must be a writable 1-D array"):
        njit(lambda a: np.random.shuffle(a))(np.zeros((2, 2)))
    with pytest.raises(TypingError, match="missing required argument 'low'"):
        njit(lambda: np.random.randint())()
    with pytest.raises(TypingError, match="unexpected keyword argument 'dtype'"):
        njit(lambda: np.random.randint(3, dtype=np.int32))()
    with pytest.raises(TypingError, match="takes integer dimensions"):
        njit(lambda: np.random.rand(2.0))()
    # choice(..., p=) is supported: tests/test_random_multi.py
    with pytest.raises(TypingError, match="replace must be a bool"):
        njit(lambda: np.random.choice(5, 2, 1.5))()


def test_refused_in_cuda():
    from cujit import cuda

    def kernel(out):
        out[0] = np.random.random()
    with pytest.raises(UnsupportedError, match=r"np.random.random\(\) is not supported in CUDA "
                                               r"code .*cujit.cuda.random"):
        cuda.compile_ptx(kernel, "void(float64[:])")

