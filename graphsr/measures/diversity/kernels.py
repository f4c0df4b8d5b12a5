"""The diversity measures of one topic, computed as ndeval computes them (see
:mod:`graphsr.measures.diversity.measures` for the formulas): every value of a topic from its judgments as a
boolean matrix (documents x subtopics) and a ranking given as rows of that matrix (-1: a document no judgment
names).  Gains are formed as ndeval forms them, one subtopic after another, each subtopic's gain multiplied by
(1 - alpha) once per document covering it, so that ties in the ideal ranking fall as in ndeval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["TopicValues", "topic_values", "ideal_order", "ideal_ideal"]

#: Ranks of the "ideal ideal" normaliser summed term by term (chunk by chunk, as one running sum); past them,
#: where the sum still grows, its tail is the Euler-Maclaurin formula's (see :func:`ideal_ideal`).
EXACT_RANKS = 1 << 20
_CHUNK = 1 << 16


@dataclass
class TopicValues:
    """One topic's values, read at any cut-off k (:meth:`at`): the run's and the ideal ranking's cumulated gains
    over their own ranks (past its last rank a ranking adds nothing), so that what is held follows the rankings,
    not the cut-off."""

    run_dcg: np.ndarray  # cumulated gain / log2(i + 1) of the run at ranks 1..len
    ideal_dcg: np.ndarray
    run_err: np.ndarray  # cumulated gain / i
    ideal_err: np.ndarray
    pairs: np.ndarray  # relevant (document, subtopic) pairs in the first i
    seen: np.ndarray  # subtopics covered in the first i
    actual: int  # subtopics some document is relevant to (S)
    alpha: float
    nrbp: float
    nnrbp: float
    ap_ia: float

    def at(self, value: str, k: int, normaliser) -> float:
        """At cut-off ``k`` (any positive int), ``value``: ``pairs`` (relevant pairs over k S), ``seen``
        (subtopics covered over S), ``dcg``, ``err`` (normalised by the "ideal ideal" sum) or ``dcg/ideal``,
        ``err/ideal`` (over an ideal ranking's); ``normaliser(kind, k)`` the "ideal ideal" sum (:func:`ideal_ideal`) of
        ``kind`` 'dcg' or 'err' at k."""
        if self.actual == 0:
            return 0.0
        if value in ("pairs", "seen"):
            counted = _upto(self.pairs if value == "pairs" else self.seen, k)
            return counted / (float(k) * self.actual) if value == "pairs" else counted / self.actual
        kind = value.partition("/")[0]
        run, ideal = (self.run_dcg, self.ideal_dcg) if kind == "dcg" else (self.run_err, self.ideal_err)
        got = _upto(run, k)
        if k > 1:  # (ndeval leaves rank 1 as it is)
            got /= normaliser(kind, k)
        if value == kind:
            return got
        if got == 0:
            return 0.0
        best = _upto(ideal, k)
        return got / (best / normaliser(kind, k) if k > 1 else best)


def _upto(cumulated: np.ndarray, k: int) -> float:
    """A cumulated array's value at rank k (its last value past its end; 0 for an empty one)."""
    return float(cumulated[min(k, len(cumulated)) - 1]) if len(cumulated) else 0.0


def _gains(rel: np.ndarray, alpha: float) -> np.ndarray:
    """Per rank, the novelty-discounted gain of the document there: ``rel`` is the ranking's relevance matrix
    (ranks x subtopics)."""
    n, s = rel.shape
    out = np.zeros(n)
    if not n or not s:
        return out
    decay = np.ones(n + 1)
    for k in range(1, n + 1):  # (1 - alpha)^c as repeated products, as ndeval forms it
        decay[k] = decay[k - 1] * (1.0 - alpha)
    before = np.cumsum(rel, axis=0) - rel
    for j in range(s):  # one subtopic after another, as ndeval adds them
        out += np.where(rel[:, j], decay[before[:, j]], 0.0)
    return out


def _weights(kind: str, first: int, n: int) -> np.ndarray:
    """The rank weights of ranks first+1 .. first+n: 1 / log2(i + 1) ('dcg') or 1 / i ('err')."""
    i = np.arange(first, first + n, dtype=np.float64)
    return np.log(2.0) / np.log(i + 2.0) if kind == "dcg" else 1.0 / (i + 1.0)


def ideal_ideal(actual: int, alpha: float, kind: str, ks) -> np.ndarray:
    """ndeval's collection-independent normaliser at each cut-off of ``ks``: the cumulated gain of ``actual``
    subtopics each covered at every rank, weighted as ``kind`` ('dcg': 1 / log2(i + 1), 'err': 1 / i).

    The sum is formed as ndeval forms it (the gain as repeated products, one running sum), chunk by chunk, so
    that its cost is that of the largest cut-off asked for, not of an array that long -- and it stops where a
    term no longer changes the sum (the terms only decrease, so none after it does).  Past
    :data:`EXACT_RANKS`, a sum still growing (alpha near 0) has its tail summed by the Euler-Maclaurin formula
    (the integral by quadrature, the end corrections to the first derivative): at cut-offs of millions of ranks
    it agrees with the running sum to 1e-9 of its value, the running sum's own rounding over that many terms
    (tested).

    Examples
    --------
    >>> ideal_ideal(2, 0.5, "err", [1, 2, 3]).tolist()
    [2.0, 2.5, 2.6666666666666665]
    """
    ks = [int(k) for k in ks]
    out = np.zeros(len(ks))
    order = sorted(range(len(ks)), key=ks.__getitem__)
    q = 1.0 - alpha
    total, gain, done = 0.0, float(actual), 0  # the running sum of ranks 1..done; the gain of rank done+1
    j = 0
    while j < len(order) and done < EXACT_RANKS:
        n = min(_CHUNK, EXACT_RANKS - done, max(ks[order[j]] - done, 1))
        gains = np.multiply.accumulate(np.r_[gain, np.full(n - 1, q)]) if n > 1 else np.array([gain])
        terms = gains * _weights(kind, done, n)
        sums = np.cumsum(np.r_[total, terms])[1:]
        still = np.flatnonzero(sums != np.r_[total, sums[:-1]])  # ranks whose term changed the sum
        last = int(still[-1]) + 1 if len(still) else 0
        while j < len(order) and ks[order[j]] <= done + n:
            out[order[j]] = sums[ks[order[j]] - done - 1]
            j += 1
        total, gain, done = float(sums[-1]), float(gains[-1]) * q, done + n
        if last < n or gain == 0.0:  # a term left the sum as it was: so does every later one
            out[[order[i] for i in range(j, len(order))]] = total
            return out
    if j < len(order):
        for i in order[j:]:
            out[i] = total + _tail(actual, alpha, kind, done, ks[i])
    return out


def _tail(actual: int, alpha: float, kind: str, a: int, b: int) -> float:
    """The sum of the normaliser's terms of ranks a+1 .. b (0-based i = a .. b-1) by the Euler-Maclaurin
    formula: the integral of f(x) = actual (1 - alpha)^x w(x) from a to b-1, half of f at both ends, and the
    first derivative's correction."""
    import math

    from scipy.integrate import quad

    lq = math.log1p(-alpha) if alpha < 1 else -math.inf

    def f(x: float) -> float:
        w = math.log(2.0) / math.log(x + 2.0) if kind == "dcg" else 1.0 / (x + 1.0)
        return actual * math.exp(lq * x) * w

    def df(x: float) -> float:
        slope = -1.0 / ((x + 2.0) * math.log(x + 2.0)) if kind == "dcg" else -1.0 / (x + 1.0)
        return f(x) * (lq + slope)

    hi = b - 1
    if hi < a:
        return 0.0
    # over log(x) the integrand varies slowly: integrate in u = log(x + 1)
    g = lambda u: f(math.expm1(u)) * math.exp(u)  # noqa: E731
    lo_u, hi_u = math.log1p(a), math.log1p(hi)
    integral, _ = quad(g, lo_u, hi_u, limit=200, epsabs=0.0, epsrel=1e-13)
    return integral + (f(a) + f(hi)) / 2.0 + (df(hi) - df(a)) / 12.0


def ideal_order(judged: np.ndarray, alpha: float) -> np.ndarray:
    """ndeval's ideal ranking of a topic's judged documents (rows of ``judged``, in ascending document order):
    at each rank the document of most novelty-discounted gain, ties to the last (the greatest document id)."""
    n, s = judged.shape
    gain = np.ones(s)
    free = np.ones(n, dtype=bool)
    order = np.empty(n, dtype=np.int64)
    for rank in range(n):
        score = np.zeros(n)
        for j in range(s):
            score += np.where(judged[:, j], gain[j], 0.0)
        score[~free] = -1.0
        best = n - 1 - int(np.argmax(score[::-1]))  # (the last of the highest)
        order[rank] = best
        free[best] = False
        gain[judged[best]] *= 1.0 - alpha
    return order


def _cumulated(rel: np.ndarray, alpha: float):
    """The cumulated gains of a ranking's relevance matrix, weighted as 'dcg' and as 'err', and its NRBP sum."""
    g = _gains(rel, alpha)
    dcg = np.cumsum(g * _weights("dcg", 0, len(g)))
    err = np.cumsum(g / np.arange(1, len(g) + 1))
    return dcg, err, g


def topic_values(
    judged: np.ndarray, ranking: np.ndarray, alpha: float, beta: float, ideal: np.ndarray | None = None
) -> TopicValues:
    """Every diversity value of one topic: ``judged`` its relevance matrix (documents x subtopics), ``ranking``
    the run's documents as rows of it (-1: not judged), ``ideal`` the ideal ranking (:func:`ideal_order`)."""
    empty = np.zeros(0)
    covered = judged.any(axis=0)
    actual = int(covered.sum())
    if actual == 0:
        return TopicValues(empty, empty, empty, empty, empty, empty, 0, alpha, 0.0, 0.0, 0.0)
    rel = np.zeros((len(ranking), judged.shape[1]), dtype=bool)
    known = ranking >= 0
    rel[known] = judged[ranking[known]]
    if ideal is None:
        ideal = ideal_order(judged, alpha)
    dcg, err, g = _cumulated(rel, alpha)
    qdcg, qerr, qg = _cumulated(judged[ideal], alpha)
    nrbp, qnrbp = (
        (float(np.sum(x * beta ** np.arange(len(x)))) if len(x) else 0.0) * (1 - (1 - alpha) * beta) / actual
        for x in (g, qg)
    )
    pairs = np.cumsum(rel.sum(axis=1)).astype(float)
    seen = np.logical_or.accumulate(rel, axis=0).sum(axis=1).astype(float) if len(rel) else empty
    hits = np.cumsum(rel, axis=0)
    ranks = np.arange(1, len(ranking) + 1)[:, None]
    per_subtopic = np.where(rel, hits / ranks, 0.0).sum(axis=0)
    counts = judged.sum(axis=0)
    ap_ia = float(np.sum(per_subtopic[covered] / counts[covered])) / actual
    return TopicValues(dcg, qdcg, err, qerr, pairs, seen, actual, alpha, nrbp, nrbp / qnrbp if qnrbp else 0.0, ap_ia)
