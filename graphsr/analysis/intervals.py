r"""How large is a difference between two runs, and how sure is it?  Confidence intervals, effect sizes,
wins/ties/losses, and Tukey's HSD over many runs.

For paired per-topic scores ``a`` and ``b`` of one measure, :math:`d_t = a_t - b_t`:

* **diff**: :math:`\bar d`, the mean of a minus the mean of b over the topics both have;
* **confidence interval** of :math:`\bar d` at ``confidence``: ``t`` -- :math:`\bar d \pm t_{n-1}
  s_d / \sqrt n` (``scipy.stats.ttest_rel(a, b).confidence_interval()``); ``percentile`` and ``bca`` --
  the bootstrap percentile and bias-corrected accelerated intervals of :math:`\bar d` (Efron and Tibshirani
  14.3, as ``scipy.stats.bootstrap``), from ``samples`` resamples drawn in seeded blocks (the same interval
  for any number of threads);
* **effect size** :math:`d_z = \bar d / s_d` (Cohen's d for paired samples);
* **wins, ties, losses**: the topics where :math:`d_t > 0`, :math:`= 0`, :math:`< 0`.

Over ``k`` runs on ``n`` topics all of them share (a topics x runs matrix):

* **randomised Tukey HSD** (Carterette, TOIS 2012): each topic's scores permuted across the runs, ``samples``
  times; the p-value of a pair is :math:`(1 + \#\{\max_i \bar x^*_i - \min_i \bar x^*_i \ge |\bar x_a -
  \bar x_b|\}) / (1 + samples)`, so that the family of all pairs is controlled.  With two runs it is the paired
  randomisation test (the same draws: the same p-value);
* **Tukey HSD of the two-way ANOVA** (topics and runs, no interaction): the residual mean square
  :math:`V_E` on :math:`(n-1)(k-1)` degrees of freedom, :math:`q = |\bar x_a - \bar x_b| / \sqrt{V_E / n}`,
  its p-value from the studentized range distribution, the simultaneous interval :math:`\bar x_a - \bar x_b
  \pm q_{1-\alpha} \sqrt{V_E / n}`, and the effect size :math:`(\bar x_a - \bar x_b) / \sqrt{V_E}` (Sakai's
  :math:`ES_{E2}`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..errors import GraphsrInputError

__all__ = [
    "INTERVALS",
    "t_interval",
    "mean_interval",
    "measure_bounds",
    "bootstrap_interval",
    "effect_size",
    "wins_ties_losses",
    "tukey_randomized",
    "tukey_anova",
]

#: How an interval of a paired difference is formed.
INTERVALS = ("t", "percentile", "bca")
_BLOCK = 1000


def _check(d: np.ndarray, confidence: float) -> None:
    if len(d) < 2:
        raise GraphsrInputError(f"an interval needs at least 2 topics scored for both runs, got {len(d)}")
    if not 0 < confidence < 1:
        raise GraphsrInputError(f"confidence must lie in (0, 1), got {confidence}")


def t_interval(d, confidence: float = 0.95) -> tuple[float, float]:
    """The t interval of the mean of differences ``d``."""
    from scipy import special

    d = np.asarray(d, dtype=float)
    _check(d, confidence)
    n = len(d)
    sd = d.std(ddof=1)
    half = special.stdtrit(n - 1, (1 + confidence) / 2) * sd / np.sqrt(n)  # scipy.stats.t.ppf's own kernel
    return float(d.mean() - half), float(d.mean() + half)


def measure_bounds(name: str) -> tuple[float, float] | None:
    """The range every per-topic value of measure ``name`` lies in, as the measure declares it (``BOUNDS``),
    or None: not bounded, or not a measure graphsr knows.  A name with a label after it in brackets, after a
    space (``SRP@5 [p*:extent]``: one column per navigation model, as ``graphsr demo`` names them), is the
    measure before the label.

    >>> measure_bounds("P@10"), measure_bounds("SRP@5 [p*:extent]"), measure_bounds("SR@5")
    ((0.0, 1.0), (0.0, 1.0), None)
    """
    import re

    from ..errors import GraphsrInputError
    from ..measures import parse_measures

    labelled = re.fullmatch(r"(\S.*?) \[[^\]]*\]", name)
    if labelled:
        name = labelled.group(1)
    try:
        [measure] = parse_measures([name])
    except (GraphsrInputError, ValueError):
        return None
    bounds = getattr(measure, "BOUNDS", None)
    return None if bounds is None else (float(bounds[0]), float(bounds[1]))


#: Resamples of :func:`mean_interval`'s bootstrap (and its seed: the same interval at every run).
MEAN_SAMPLES = 10_000


def mean_interval(values, confidence: float = 0.95, bounds: tuple[float, float] | None = None) -> tuple[float, float]:
    """The interval of the mean of one measure's per-topic ``values``, formed by what the measure declares: for a
    measure bounded to ``bounds`` (every value in [a, b]: P@10, SRP, MAiP, ...), the bootstrap BCa interval
    (:data:`MEAN_SAMPLES` resamples, seed 0), whose ends are means of resampled values and so lie within the
    values' range, hence within the bounds -- where the t interval of a mean near a bound runs past it (0.98
    [0.924, 1.036]); for an unbounded one (SR@k, a count), the t interval.  All values equal: the value."""
    v = np.asarray(values, dtype=float)
    _check(v, confidence)
    if np.ptp(v) == 0:
        return float(v[0]), float(v[0])
    if bounds is None:
        return t_interval(v, confidence)
    return bootstrap_interval(v, confidence, "bca", samples=MEAN_SAMPLES, seed=0)


def _blocks(samples: int, seed: int):
    children = np.random.SeedSequence(seed).spawn((samples + _BLOCK - 1) // _BLOCK)
    return [(child, min(_BLOCK, samples - k * _BLOCK)) for k, child in enumerate(children)]


def _in_blocks(make, samples: int, seed: int, threads: int) -> np.ndarray:
    jobs = _blocks(samples, seed)
    if threads > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(threads) as pool:
            return np.concatenate(list(pool.map(make, jobs)))
    return np.concatenate([make(j) for j in jobs])


def bootstrap_interval(
    d, confidence: float = 0.95, method: str = "bca", samples: int = 10000, seed: int = 0, threads: int = 1
) -> tuple[float, float]:
    """The bootstrap ``percentile`` or ``bca`` interval of the mean of differences ``d``."""
    from scipy.special import ndtr, ndtri

    d = np.asarray(d, dtype=float)
    _check(d, confidence)
    if method not in ("percentile", "bca"):
        raise GraphsrInputError(f"a bootstrap interval is percentile or bca, got {method!r}")
    n = len(d)

    def block(job):
        child, size = job
        return d[np.random.default_rng(child).integers(0, n, size=(size, n))].mean(axis=1)

    means = _in_blocks(block, samples, seed, threads)
    alpha = (1 - confidence) / 2
    low, high = alpha, 1 - alpha
    if method == "bca":
        theta = d.mean()
        z0 = ndtri((np.count_nonzero(means < theta) + np.count_nonzero(means <= theta)) / (2 * len(means)))
        jack = (d.sum() - d) / (n - 1)
        u = jack.mean() - jack
        scale = float(np.abs(u).max())
        u = u / scale if scale > 0 else u  # (the acceleration is scale-free: scaled, tiny values neither underflow)
        den = (u**2).sum()
        a = (u**3).sum() / (6 * den**1.5) if den > 0 else 0.0
        za, zb = ndtri(alpha), ndtri(1 - alpha)
        low = float(ndtr(z0 + (z0 + za) / (1 - a * (z0 + za))))
        high = float(ndtr(z0 + (z0 + zb) / (1 - a * (z0 + zb))))
        if not (np.isfinite(low) and np.isfinite(high)):  # every resample equal: the interval is the point
            return float(theta), float(theta)
    lo, hi = np.percentile(means, [100 * low, 100 * high])
    return float(lo), float(hi)


def effect_size(d) -> float:
    """Cohen's :math:`d_z`: the mean of the differences over their standard deviation (0 when they are all
    equal: no difference; ``inf`` would say nothing)."""
    d = np.asarray(d, dtype=float)
    sd = d.std(ddof=1) if len(d) > 1 else 0.0
    return float(d.mean() / sd) if sd > 0 else 0.0


def wins_ties_losses(a, b) -> tuple[int, int, int]:
    """The topics where ``a`` scores above, equal to, and below ``b``."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return int((a > b).sum()), int((a == b).sum()), int((a < b).sum())


def tukey_randomized(x, samples: int = 10000, seed: int = 0, threads: int = 1) -> np.ndarray:
    """The randomised Tukey HSD p-value of every pair of runs (``p[i, j]``), from the topics x runs matrix ``x``
    (each topic's scores permuted across the runs)."""
    x = np.asarray(x, dtype=float)
    n, k = x.shape
    if n < 2 or k < 2:
        raise GraphsrInputError(f"Tukey's HSD needs at least 2 runs on at least 2 common topics, got {k} on {n}")

    def block(job):
        child, size = job
        rng = np.random.default_rng(child)
        if k == 2:  # a swap is a sign flip of the difference: the draws of the paired randomisation test
            signs = rng.integers(0, 2, size=(size, n), dtype=np.int8) * 2 - 1
            return np.abs((signs * (x[:, 0] - x[:, 1])).mean(axis=1))
        order = np.argsort(rng.random((size, n, k)), axis=2)
        permuted = np.take_along_axis(np.broadcast_to(x, (size, n, k)), order, axis=2).mean(axis=1)
        return permuted.max(axis=1) - permuted.min(axis=1)

    largest = _in_blocks(block, samples, seed, threads)
    means = x.mean(axis=0)
    diff = np.abs(means[:, None] - means[None, :])
    hits = (largest[None, None, :] >= diff[:, :, None] - 1e-12).sum(axis=2)
    p = (hits + 1) / (samples + 1)
    np.fill_diagonal(p, 1.0)
    return p


def tukey_anova(x, confidence: float = 0.95) -> dict:
    """Tukey's HSD from the two-way ANOVA of the topics x runs matrix ``x``: per pair ``(i, j)`` its p-value,
    its simultaneous interval of ``mean_i - mean_j`` and its effect size; and the residual mean square."""
    from scipy import stats

    x = np.asarray(x, dtype=float)
    n, k = x.shape
    if n < 2 or k < 2:
        raise GraphsrInputError(f"Tukey's HSD needs at least 2 runs on at least 2 common topics, got {k} on {n}")
    grand = x.mean()
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + grand
    df = (n - 1) * (k - 1)
    ve = float((resid**2).sum() / df)
    means = x.mean(axis=0)
    diff = means[:, None] - means[None, :]
    se = np.sqrt(ve / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(diff) / se
    p = np.where(
        np.isfinite(q),
        stats.studentized_range.sf(np.where(np.isfinite(q), q, 0.0), k, df),
        np.where(diff == 0, 1.0, 0.0),
    )
    qcrit = float(stats.studentized_range.ppf(confidence, k, df))
    half = qcrit * se
    with np.errstate(divide="ignore", invalid="ignore"):
        es = np.where(ve > 0, diff / np.sqrt(ve), 0.0)
    np.fill_diagonal(p, 1.0)
    return {"p": p, "low": diff - half, "high": diff + half, "effect": es, "mse": ve, "df": df}
