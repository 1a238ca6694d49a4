"""np.random.multinomial, np.random.dirichlet and np.random.choice with p= in compiled code
(cujit.np.arraymath, NumPy's legacy algorithms over the compiled generators): for a given
np.random.seed the values equal NumPy's RandomState's, for every size form (None, int, tuple);
result dtypes and shapes exact; NumPy's errors in NumPy's words; the draws' distribution checked
statistically too."""
import numpy as np
import pytest

from cujit import njit

pytestmark = pytest.mark.usefixtures("nrt_balanced")


@njit
def multinomial(seed, n, pvals):
    np.random.seed(seed)
    return np.random.multinomial(n, pvals)


@njit
def multinomial_sized(seed, n, pvals, size):
    np.random.seed(seed)
    return np.random.multinomial(n, pvals, size=size)


@njit
def dirichlet(seed, alpha):
    np.random.seed(seed)
    return np.random.dirichlet(alpha)


@njit
def dirichlet_sized(seed, alpha, size):
    np.random.seed(seed)
    return np.random.dirichlet(alpha, size)


@njit
def choice(seed, a, size, replace, p):
    np.random.seed(seed)
    return np.random.choice(a, size, replace, p)


@njit
def choice_one(seed, a, p):
    np.random.seed(seed)
    return np.random.choice(a, p=p)


def expect(seed, fn, *args, **kw):
    np.random.seed(seed)
    return fn(*args, **kw)


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_multinomial_streams_match_numpy():
    for seed, n, p in [(1, 20, [0.2, 0.3, 0.5]), (2, 1000, [0.1] * 10), (3, 0, [0.5, 0.5]),
                       (4, 7, [0.0, 1.0, 0.0]), (5, 50, [0.9, 0.05, 0.05]), (6, 3, [1.0])]:
        pv = np.array(p)
        same(multinomial(seed, n, pv), expect(seed, np.random.multinomial, n, pv))
        for size in (4, (2, 3), 0):
            same(multinomial_sized(seed, n, pv, size),
                 expect(seed, np.random.multinomial, n, pv, size=size))
    same(multinomial(7, 9, (0.25, 0.75)), expect(7, np.random.multinomial, 9, [0.25, 0.75]))


def test_multinomial_errors():
    with pytest.raises(ValueError, match=r"^n < 0$"):
        multinomial(1, -1, np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match=r"pvals < 0, pvals > 1 or pvals contains NaNs"):
        multinomial(1, 5, np.array([-0.1, 1.1]))
    with pytest.raises(ValueError, match=r"pvals < 0, pvals > 1 or pvals contains NaNs"):
        multinomial(1, 5, np.array([np.nan, 1.0]))
    with pytest.raises(ValueError, match=r"sum\(pvals\[:-1\]\) > 1\.0"):
        multinomial(1, 5, np.array([0.7, 0.7, 0.1]))


def test_dirichlet_streams_match_numpy():
    for seed, alpha in [(1, [0.5, 2.0, 1.0]), (2, [1.0]), (3, [10.0, 0.1, 3.0, 1.0]),
                        (4, [1e-3, 2e-3])]:
        al = np.array(alpha)
        same(dirichlet(seed, al), expect(seed, np.random.dirichlet, al))
        for size in (5, (2, 2)):
            same(dirichlet_sized(seed, al, size), expect(seed, np.random.dirichlet, al, size))
    with pytest.raises(ValueError, match=r"^alpha <= 0$"):
        dirichlet(1, np.array([1.0, 0.0]))


def test_choice_with_p_streams_match_numpy():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    a = np.array([1.5, 2.5, 3.5, 4.5])
    cases = [(a, 10, True, p), (a, (2, 3), True, p), (4, 7, True, p), (a, 3, False, p),
             (a, (2, 2), False, p), (np.arange(10), 6, False, np.array([0.05] * 8 + [0.3] * 2)),
             (np.arange(10, dtype=np.int16), 9, False, np.full(10, 0.1)),
             (a.astype(np.float32)[::-1], 5, True, p[::-1]), (a, 0, True, p)]
    for seed, args in enumerate(cases):
        same(choice(seed, *args), expect(seed, np.random.choice, *args))
    for seed in range(3):
        same(choice_one(seed, a, p), expect(seed, np.random.choice, a, p=p))
        same(choice_one(seed, 4, p), expect(seed, np.random.choice, 4, p=p))


def test_choice_with_p_errors():
    a, p = np.arange(4.0), np.full(4, 0.25)
    with pytest.raises(ValueError, match="'a' and 'p' must have same size"):
        choice(1, a, 2, True, p[:3])
    with pytest.raises(ValueError, match="probabilities are not non-negative"):
        choice(1, a, 2, True, np.array([0.5, 0.5, 0.5, -0.5]))
    with pytest.raises(ValueError, match="probabilities do not sum to 1"):
        choice(1, a, 2, True, np.full(4, 0.3))
    with pytest.raises(ValueError, match="probabilities contain NaN"):
        choice(1, a, 2, True, np.array([np.nan, 0.5, 0.5, 0.0]))
    with pytest.raises(ValueError, match="Cannot take a larger sample than population"):
        choice(1, a, 5, False, p)
    with pytest.raises(ValueError, match="Fewer non-zero entries in p than size"):
        choice(1, a, 3, False, np.array([0.5, 0.5, 0.0, 0.0]))


def test_distributions_statistically():
    # means over many draws (not the stream): multinomial n*p, dirichlet alpha/sum(alpha),
    # choice's frequencies p
    p = np.array([0.2, 0.3, 0.5])
    m = multinomial_sized(11, 30, p, 20000)
    assert (m.sum(axis=1) == 30).all()
    np.testing.assert_allclose(m.mean(axis=0), 30 * p, rtol=0.02)
    alpha = np.array([1.0, 2.0, 5.0])
    d = dirichlet_sized(12, alpha, 20000)
    np.testing.assert_allclose(d.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(d.mean(axis=0), alpha / alpha.sum(), rtol=0.03)
    c = choice(13, 3, 30000, True, p)
    np.testing.assert_allclose(np.bincount(c, minlength=3) / c.size, p, atol=0.01)
