r"""Tie-aware flat measures (``ties="average"``): each rank measure's expected value over every ordering of the
results tied in score, exactly (McSherry and Najork, "Computing information retrieval performance measures
efficiently in the presence of tied scores", ECIR 2008), not sampled.

A topic's results fall into groups of equal score, in rank order; within a group of ``n`` results of which
``r`` are relevant, every ordering is equally likely.  Then:

* a measure that sums a weight per position times what the item there holds (P@k, R@k, Rprec, NumRelRet,
  Judged@k, DCG and nDCG) has the expectation where each position holds its group's mean (``r / n`` relevant;
  the mean gain);
* AP: at a position ``o`` (1-based) into a group with ``b`` relevant results before the group,
  ``E[rel * (relevant up to here)] = r/n (b + 1) + (o - 1) r (r - 1) / (n (n - 1))``, divided by the position;
* RR: the first relevant result of the first group holding one is at offset ``x`` with probability
  ``C(n - x, r - 1) / C(n, r)``;
* Success@k: one minus the chance that no relevant result falls in the first k: 0 if a group wholly inside
  holds one, else ``C(n - r, m) / C(n, m)`` for the group straddling k with ``m`` positions inside.

The counts that do not depend on order (NumRet, NumRel, NumQ) are as they are; the other measures have no
tie-aware form here and are refused.
"""

from __future__ import annotations

from math import comb

import numpy as np

from ...errors import GraphsrInputError
from ..tie_groups import tie_groups
from .judgments import Judgments
from .ranking import Ranking, relevant

__all__ = ["compute_tie_aware"]


def _groups(rk: Ranking) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each item's group (equal score within a topic, contiguous in rank order), each group's first position
    and its size."""
    return tie_groups(rk.topic, rk.pos, rk.scores)


def _group_mean(rk: Ranking, values: np.ndarray) -> np.ndarray:
    """Each item's group's mean of ``values``."""
    gid, _, size = _groups(rk)
    return (np.bincount(gid, weights=values.astype(float), minlength=len(size)) / np.maximum(size, 1))[gid]


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(len(num))
    np.divide(num, den, out=out, where=den > 0)
    return out


def _ranking(m, rk: Ranking) -> Ranking:
    return rk.judged_only if m.params.get("judged_only") else rk


def _expected_hits(m, rk: Ranking) -> np.ndarray:
    return _group_mean(rk, relevant(rk.grade, m.params.get("rel")))


def precision(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    return rk.count(rk.pos <= m.cutoff, _expected_hits(m, rk)) / m.cutoff


def recall(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    inside = rk.pos <= m.cutoff if m.cutoff is not None else np.ones(rk.size, dtype=bool)
    return _ratio(rk.count(inside, _expected_hits(m, rk)), j.num_relevant(m.params.get("rel")))


def f1(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """2 E[hits] / (k + R): F1@k is linear in the hits."""
    rk = _ranking(m, rk)
    inside = rk.pos <= m.cutoff if m.cutoff is not None else np.ones(rk.size, dtype=bool)
    k = rk.count() if m.cutoff is None else m.cutoff
    return _ratio(2.0 * rk.count(inside, _expected_hits(m, rk)), k + j.num_relevant(m.params.get("rel")))


def r_precision(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    num_rel = j.num_relevant(m.params.get("rel"))
    return _ratio(rk.count(rk.pos <= num_rel[rk.topic], _expected_hits(m, rk)), num_rel)


def num_rel_ret(m, rk: Ranking, j: Judgments) -> np.ndarray:
    return rk.count(relevant(rk.grade, m.params.get("rel")))


def num_ret(m, rk: Ranking, j: Judgments) -> np.ndarray:
    return rk.count() if m.params.get("rel") is None else num_rel_ret(m, rk, j)


def average_precision(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    hit = relevant(rk.grade, m.params.get("rel")).astype(float)
    gid, first, size = _groups(rk)
    r = np.bincount(gid, weights=hit, minlength=len(size))
    starts = np.r_[0, np.cumsum(size)[:-1]] if len(size) else np.zeros(0, dtype=np.int64)
    before = rk.running(hit > 0)[starts] - hit[starts] if len(size) else r  # relevant in the topic's groups before
    n, rr, b = size[gid].astype(float), r[gid], before[gid]
    o = rk.pos - first[gid] + 1
    pair = np.where(n > 1, rr * (rr - 1) / np.maximum(n * (n - 1), 1), 0.0)
    expected = rr / n * (b + 1) + (o - 1) * pair
    keep = rk.pos <= m.cutoff if m.cutoff is not None else np.ones(rk.size, dtype=bool)
    sums = np.bincount(rk.topic[keep], weights=(expected / rk.pos)[keep], minlength=rk.num_topics)
    return _ratio(sums, j.num_relevant(m.params.get("rel")))


def reciprocal_rank(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    hit = relevant(rk.grade, m.params.get("rel"))
    gid, first, size = _groups(rk)
    r = np.bincount(gid, weights=hit, minlength=len(size)).astype(int)
    out = np.zeros(rk.num_topics)
    done = np.zeros(rk.num_topics, dtype=bool)
    starts = np.r_[0, np.cumsum(size)[:-1]] if len(size) else np.zeros(0, dtype=np.int64)
    for g in np.flatnonzero(r > 0).tolist():
        t = int(rk.topic[starts[g]])
        if done[t]:
            continue
        done[t] = True
        n, k, p = int(size[g]), int(r[g]), int(first[g])
        total = comb(n, k)
        out[t] = sum(
            comb(n - x, k - 1) / total / (p + x - 1)
            for x in range(1, n - k + 2)
            if m.cutoff is None or p + x - 1 <= m.cutoff
        )
    return out


def success(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    hit = relevant(rk.grade, m.params.get("rel"))
    gid, first, size = _groups(rk)
    r = np.bincount(gid, weights=hit, minlength=len(size)).astype(int)
    starts = np.r_[0, np.cumsum(size)[:-1]] if len(size) else np.zeros(0, dtype=np.int64)
    none = np.ones(rk.num_topics)  # the chance that no relevant result is in the first k
    for g in np.flatnonzero(r > 0).tolist():
        t, n, k, p = int(rk.topic[starts[g]]), int(size[g]), int(r[g]), int(first[g])
        inside = max(0, min(n, m.cutoff - p + 1))
        none[t] *= comb(n - k, inside) / comb(n, inside)
    return 1.0 - none


def ndcg(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    if rk.item_result is not None and len(rk.item_result) != rk.size:
        raise GraphsrInputError(
            f"{m}: ties='average' scores runs of one node per result (documents, single elements), not tree results"
        )
    gains, dcg = m.params.get("gains"), m.params.get("dcg", "log2")
    g = _group_mean(rk, rk.item_gains(gains, dcg))
    keep = rk.pos <= m.cutoff if m.cutoff is not None else np.ones(rk.size, dtype=bool)
    dcg_ = np.bincount(rk.topic[keep], weights=(g / np.log2(rk.pos + 1.0))[keep], minlength=rk.num_topics)
    return _ratio(dcg_, j.ideal_dcg(gains, dcg, m.cutoff))


def dcg(m, rk: Ranking, j: Judgments) -> np.ndarray:
    rk = _ranking(m, rk)
    if rk.item_result is not None and len(rk.item_result) != rk.size:
        raise GraphsrInputError(
            f"{m}: ties='average' scores runs of one node per result (documents, single elements), not tree results"
        )
    g = _group_mean(rk, rk.item_gains(None, m.params.get("dcg", "log2")))
    keep = rk.pos <= m.cutoff if m.cutoff is not None else np.ones(rk.size, dtype=bool)
    return np.bincount(rk.topic[keep], weights=(g / np.log2(rk.pos + 1.0))[keep], minlength=rk.num_topics)


def judged(m, rk: Ranking, j: Judgments) -> np.ndarray:
    got = rk.count()
    k = np.minimum(got, m.cutoff) if m.cutoff is not None else got
    return _ratio(rk.count(rk.pos <= k[rk.topic], _group_mean(rk, rk.assessed)), k)


def compute_tie_aware(measures, rk: Ranking, j: Judgments) -> dict:
    """Per-topic expected values of ``measures`` over the orderings of tied results (see the module
    docstring).

    Raises
    ------
    GraphsrInputError
        For a measure with no tie-aware form here.
    """
    out = {}
    for m in measures:
        kernel = getattr(m, "TIES", None)  # (declared by each measure that has one)
        if kernel is None:
            from ..base import registry

            scored = ", ".join(n for n, cls in registry().items() if n == cls.NAME and getattr(cls, "TIES", None))
            raise GraphsrInputError(
                f"{m}: no tie-aware value (ties='average' scores {scored}); score it with ties='trec_eval'"
            )
        out[m] = kernel(m, rk, j)
    return out
