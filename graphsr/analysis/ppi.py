r"""Prediction-powered inference of a mean score, when people judged some topics and a model judged them all.

Angelopoulos, Bates, Fannjiang, Jordan and Zrnic (Science, 2023) and its power-tuned form PPI++ (Angelopoulos,
Duchi and Zrnic, 2023), for the mean of one measure over topics:

* the **labelled** topics are those people judged: for each, the score under people's judgments :math:`y_t` and
  the score under the model's :math:`\hat y_t` (:math:`n` topics);
* the **unlabelled** topics are those only the model judged: the scores :math:`\hat y'_u` (:math:`N` topics).

With the power-tuning weight :math:`\lambda`, the estimate and its interval at confidence :math:`1-\alpha`:

.. math::

    \hat\theta = \lambda\,\overline{\hat y'} + \overline{y - \lambda \hat y}, \qquad
    \hat\theta \pm z_{1-\alpha/2} \sqrt{\frac{\sigma^2(\lambda \hat y')}{N} + \frac{\sigma^2(y - \lambda\hat y)}{n}}

(:math:`\sigma^2` the variance over the values, dividing by their number).  :math:`\lambda = 1` is PPI,
:math:`\lambda = 0` the classical interval of people's scores alone; by default :math:`\lambda` is PPI++'s
choice, the variance-minimising weight clipped to :math:`[0, 1]`,

.. math::

    \lambda = \frac{\mathrm{cov}(y, \hat y)}{(1 + n/N)\; s^2(\hat y \cup \hat y')}

(:math:`\mathrm{cov}` dividing by :math:`n`, :math:`s^2` the sample variance of all the model's scores, dividing
by :math:`n + N - 1`).  These are the reference implementation's formulas (``ppi_mean_pointestimate`` and
``ppi_mean_ci`` of ``ppi-python``, with their defaults), which the tests hold graphsr to value for value.  One
case differs, by design: where every score the model gave is the same, ``ppi-python``'s :math:`\lambda` is
0/0 (nan, and so is its interval, or a weight made of rounding errors); every :math:`\lambda` then gives the same estimate and interval (the model's
term is a constant that cancels), and graphsr reports them with :math:`\lambda = 0`.

The difference between two runs on the same topics is the mean of per-topic differences: the same estimate of
:math:`y_t = a_t - b_t` (:func:`ppi_difference`), whose p-value is the z test of a difference of 0 with the
interval's standard error.  (``ppi-python``'s ``ppi_mean_pval`` chooses its own :math:`\lambda` without clipping
it to [0, 1], unlike its interval; graphsr's p-value uses the interval's weight, so that the two agree: p below
:math:`1 - c` exactly when the interval at confidence :math:`c` leaves out 0.  Given that weight, it is
``ppi_mean_pval``'s value.)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import GraphsrInputError

__all__ = [
    "PPIEstimate",
    "ppi_mean",
    "ppi_difference",
    "run_estimates",
    "pair_estimates",
    "MIN_LABELLED",
    "MIN_UNLABELLED",
]

#: The fewest topics people must have judged (one topic's scores have no spread: its interval would be a point).
MIN_LABELLED = 2
#: The fewest topics only the model judged (with none, there is nothing for the model to add).
MIN_UNLABELLED = 2


class PPIEstimate(NamedTuple):
    """A prediction-powered estimate of a mean: the estimate, its interval, the weight :math:`\\lambda` it used,
    the numbers of labelled and unlabelled topics, and the classical interval from people's scores alone
    (:math:`\\lambda = 0`), to show what the model's judgments added."""

    mean: float
    low: float
    high: float
    lam: float
    labelled: int
    unlabelled: int
    classical: tuple[float, float]
    #: The estimate's standard error, and the two-sided p-value of a true mean of 0 (the z test of ``ppi-python``'s
    #: ``ppi_mean_pval``, with the interval's weight: for a difference of two runs, that they do not differ).
    se: float
    p: float


def _values(name: str, values, fewest: int) -> np.ndarray:
    v = np.asarray(values, dtype=float).reshape(-1)
    if len(v) < fewest:
        raise GraphsrInputError(f"a prediction-powered interval needs at least {fewest} {name}, got {len(v)}")
    if not np.isfinite(v).all():
        raise GraphsrInputError(f"a prediction-powered interval needs finite scores: {name} include nan or inf")
    return v


def power_weight(y: np.ndarray, yhat: np.ndarray, yhat_unlabelled: np.ndarray) -> float:
    """PPI++'s :math:`\\lambda` for the mean (clipped to [0, 1]; 0 where the model's scores are all equal)."""
    n, big_n = len(y), len(yhat_unlabelled)
    if np.ptp(yhat) == 0 and np.ptp(yhat_unlabelled) == 0 and yhat[0] == yhat_unlabelled[0]:
        return 0.0  # (the model's scores all equal: every weight gives one answer)
    theta = yhat_unlabelled.mean() + (y - yhat).mean()  # (the estimate at lambda = 1; centring removes it)
    g, gh = y - theta, yhat - theta
    gc, ghc = g - g.mean(), gh - gh.mean()
    covariance = (1 / n) * (gc @ ghc + ghc @ gc)
    variance = float(np.cov(np.concatenate([gh, yhat_unlabelled - theta])))
    return float(np.clip(covariance / (2 * (1 + n / big_n) * variance), 0, 1))


def ppi_mean(y, yhat, yhat_unlabelled, confidence: float = 0.9, lam: float | None = None) -> PPIEstimate:
    """The prediction-powered estimate of the mean score and its two-sided interval at ``confidence`` (``ppi-python``'s
    default is 0.9: ``alpha=0.1``).  ``y`` and ``yhat``: the labelled topics' scores under people's and the
    model's judgments (in one order); ``yhat_unlabelled``: the other topics' scores under the model's.  ``lam``:
    None for PPI++'s choice, or a weight in [0, 1] (1: PPI; 0: the classical interval)."""
    from scipy.special import ndtr, ndtri

    y = _values("topics judged by people", y, MIN_LABELLED)
    yhat = _values("model scores of the topics people judged", yhat, MIN_LABELLED)
    if len(y) != len(yhat):
        raise GraphsrInputError(
            f"people's and the model's scores of the labelled topics differ in number: {len(y)} and {len(yhat)}"
        )
    u = _values("topics judged only by the model", yhat_unlabelled, MIN_UNLABELLED)
    if not 0 < confidence < 1:
        raise GraphsrInputError(f"confidence must lie in (0, 1), got {confidence}")
    if lam is None:
        lam = power_weight(y, yhat, u)
    elif not (np.isfinite(lam) and 0 <= lam <= 1):
        raise GraphsrInputError(f"the power-tuning weight lambda must lie in [0, 1], got {lam}")
    n, big_n = len(y), len(u)
    estimate = float((lam * u).mean(axis=0) + (y - lam * yhat).mean(axis=0))
    spread = float(np.sqrt(((lam * u).std() / np.sqrt(big_n)) ** 2 + ((y - lam * yhat).std() / np.sqrt(n)) ** 2))
    z = float(ndtri(1 - (1 - confidence) / 2.0))
    classical = float(y.mean()), float(z * y.std() / np.sqrt(n))
    p = float(ndtr(-abs(estimate) / max(spread, 1e-16)) * 2)
    return PPIEstimate(
        estimate,
        estimate - z * spread,
        estimate + z * spread,
        float(lam),
        n,
        big_n,
        (classical[0] - classical[1], classical[0] + classical[1]),
        spread,
        p,
    )


def ppi_difference(a, b, a_hat, b_hat, a_unlabelled, b_unlabelled, confidence: float = 0.9, lam: float | None = None):
    """The prediction-powered estimate of mean(a) - mean(b) for two runs scored on the same topics (paired): the
    estimate of the per-topic differences' mean.  ``a``, ``b``: people's scores of the labelled topics;
    ``a_hat``, ``b_hat``: the model's; ``a_unlabelled``, ``b_unlabelled``: the model's on the other topics."""
    pairs = ((a, b), (a_hat, b_hat), (a_unlabelled, b_unlabelled))
    diffs = []
    for x, w in pairs:
        x, w = np.asarray(x, dtype=float), np.asarray(w, dtype=float)
        if x.shape != w.shape:
            raise GraphsrInputError(f"two runs' scores of one set of topics differ in number: {len(x)} and {len(w)}")
        diffs.append(x - w)
    return ppi_mean(diffs[0], diffs[1], diffs[2], confidence, lam)


def run_estimates(people, model, confidence: float = 0.9, lam: float | None = None) -> dict:
    """Each run's prediction-powered estimate of each measure averaged over topics, ``{(run name, measure):
    PPIEstimate}``, from the same runs scored twice: ``people`` against people's judgments, ``model`` against the
    model's (:class:`~graphsr.evaluation.results.Results`, runs in one order).  The labelled topics are those
    ``people`` scored; the unlabelled ones those only ``model`` scored.  Measures reported as other than the mean
    over topics (a sum, a geometric mean) get none.  A topic people judged that the model did not is refused:
    the estimate needs both scores of every labelled topic."""
    out = {}
    for run_p, run_m in zip(people.runs, model.runs, strict=True):
        where = {t: k for k, t in enumerate(run_m.topics)}
        missing = [t for t in run_p.topics if t not in where]
        if missing:
            shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise GraphsrInputError(
                f"{run_p.name}: {len(missing)} topics judged by people have no model judgments ({shown}): a "
                "prediction-powered interval needs the model's score of every topic people judged"
            )
        labelled = np.array([where[t] for t in run_p.topics], dtype=np.int64)
        rest = np.ones(len(run_m.topics), dtype=bool)
        rest[labelled] = False
        for m in people.measures:
            if m not in run_m.values:  # (a statistic of one side's judgments only: judged_by_model)
                continue
            y, ym = run_p.values[m], run_m.values[m]
            if m.AGGREGATE != "mean" or abs(run_p.mean(m) - float(np.mean(y))) > 1e-9:
                continue  # (the estimate of a mean over topics: for measures reported as that mean only)
            out[run_p.name, m] = ppi_mean(y, ym[labelled], ym[rest], confidence, lam)
    return out


def _split(people, model, label: str):
    """The labelled topics (``people``'s, a Series by topic without NaN) and the other topics ``model`` scored."""
    missing = [t for t in people.index if t not in model.index]
    if missing:
        shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
        raise GraphsrInputError(
            f"{label}: {len(missing)} topics judged by people have no model scores ({shown}): a prediction-powered "
            "interval needs the model's score of every topic people judged"
        )
    return people.index, model.index.difference(people.index, sort=False)


def pair_estimates(people, model, a: str, b: str, confidence: float, lam: float | None = None):
    """Runs ``a`` and ``b`` of one measure's topics x runs tables (people's scores and the model's, NaN where a
    run has no score): the estimates of each run's mean and of their difference, on the topics both runs have."""
    p = people[[a, b]].dropna()
    m = model[[a, b]].dropna()
    labelled, rest = _split(p, m, f"runs {a!r} and {b!r}")
    pa, pb = p[a].to_numpy(float), p[b].to_numpy(float)
    ma, mb = m.loc[labelled, a].to_numpy(float), m.loc[labelled, b].to_numpy(float)
    ua, ub = m.loc[rest, a].to_numpy(float), m.loc[rest, b].to_numpy(float)
    return (
        ppi_mean(pa, ma, ua, confidence, lam),
        ppi_mean(pb, mb, ub, confidence, lam),
        ppi_difference(pa, pb, ma, mb, ua, ub, confidence, lam),
    )


def table_estimates(people, model, run: str, confidence: float, lam: float | None = None) -> PPIEstimate:
    """Run ``run``'s estimate of its mean from one measure's topics x runs tables (as :func:`pair_estimates`)."""
    p = people[run].dropna()
    m = model[run].dropna()
    labelled, rest = _split(p, m, f"run {run!r}")
    return ppi_mean(p.to_numpy(float), m.loc[labelled].to_numpy(float), m.loc[rest].to_numpy(float), confidence, lam)
