"""The diversity measures of one topic, computed as ndeval computes them (see
:mod:`graphsr.measures.diversity.measures` for the formulas): every value of a topic from its judgments as a
boolean matrix (documents x subtopics) and a ranking given as rows of that matrix (-1: a document no judgment
names).  Gains are formed as ndeval forms them, one subtopic after another, each subtopic's gain multiplied by
(1 - alpha) once per document covering it, so that ties in the ideal ranking fall as in ndeval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["TopicValues", "topic_values", "ideal_order", "NDEVAL_DEPTH"]

#: How deep ndeval computes its measures with a cut-off (its DEPTH); graphsr goes deeper where asked.
NDEVAL_DEPTH = 20


@dataclass
class TopicValues:
    """One topic's values at ranks 1..depth (index k - 1) and over the whole ranking."""

    dcg: np.ndarray
    ndcg: np.ndarray
    err: np.ndarray
    nerr: np.ndarray
    precision: np.ndarray
    strec: np.ndarray
    nrbp: float
    nnrbp: float
    ap_ia: float


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


def _normalised(values: np.ndarray, actual: int, alpha: float, weight: np.ndarray) -> np.ndarray:
    """Cumulated ``values`` over the same for ``actual`` subtopics each covered at every rank (ndeval's "ideal
    ideal"), from rank 2 on (ndeval leaves rank 1 as it is)."""
    depth = len(values)
    ideal = np.empty(depth)
    gain = float(actual)
    for i in range(depth):
        ideal[i] = gain * weight[i]
        gain *= 1.0 - alpha
    out = np.cumsum(values)
    ideal = np.cumsum(ideal)
    out[1:] /= ideal[1:]
    return out


def _discounts(depth: int) -> np.ndarray:
    return np.log(2.0) / np.log(np.arange(depth) + 2.0)


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


def _measures(rel: np.ndarray, actual: int, alpha: float, beta: float, depth: int):
    """dcg, err (normalised), nrbp of a ranking's relevance matrix."""
    g = _gains(rel, alpha)
    top = np.zeros(depth)
    top[: min(depth, len(g))] = g[:depth]
    dcg = _normalised(top * _discounts(depth), actual, alpha, _discounts(depth))
    err = _normalised(top / np.arange(1, depth + 1), actual, alpha, 1.0 / np.arange(1, depth + 1))
    nrbp = float(np.sum(g * beta ** np.arange(len(g)))) if len(g) else 0.0
    return dcg, err, nrbp * (1 - (1 - alpha) * beta) / actual


def topic_values(
    judged: np.ndarray, ranking: np.ndarray, alpha: float, beta: float, depth: int, ideal: np.ndarray | None = None
) -> TopicValues:
    """Every diversity value of one topic: ``judged`` its relevance matrix (documents x subtopics), ``ranking``
    the run's documents as rows of it (-1: not judged), ``ideal`` the ideal ranking (:func:`ideal_order`)."""
    zero = np.zeros(depth)
    covered = judged.any(axis=0)
    actual = int(covered.sum())
    if actual == 0:
        return TopicValues(zero, zero.copy(), zero.copy(), zero.copy(), zero.copy(), zero.copy(), 0.0, 0.0, 0.0)
    rel = np.zeros((len(ranking), judged.shape[1]), dtype=bool)
    known = ranking >= 0
    rel[known] = judged[ranking[known]]
    dcg, err, nrbp = _measures(rel, actual, alpha, beta, depth)
    if ideal is None:
        ideal = ideal_order(judged, alpha)
    qdcg, qerr, qnrbp = _measures(judged[ideal], actual, alpha, beta, depth)
    some = dcg != 0
    ndcg, nerr = np.zeros(depth), np.zeros(depth)
    ndcg[some] = dcg[some] / qdcg[some]
    nerr[some] = err[some] / qerr[some]
    pairs = np.zeros(depth)
    seen = np.zeros(depth)
    upto = min(depth, len(ranking))
    if upto:
        pairs[:upto] = np.cumsum(rel[:upto].sum(axis=1))
        seen[:upto] = np.logical_or.accumulate(rel[:upto], axis=0).sum(axis=1)
        pairs[upto:], seen[upto:] = pairs[upto - 1], seen[upto - 1]
    precision = pairs / (np.arange(1, depth + 1) * actual)
    strec = seen / actual
    hits = np.cumsum(rel, axis=0)
    ranks = np.arange(1, len(ranking) + 1)[:, None]
    per_subtopic = np.where(rel, hits / ranks, 0.0).sum(axis=0)
    counts = judged.sum(axis=0)
    ap_ia = float(np.sum(per_subtopic[covered] / counts[covered])) / actual
    return TopicValues(dcg, ndcg, err, nerr, precision, strec, nrbp, nrbp / qnrbp if qnrbp else 0.0, ap_ia)
