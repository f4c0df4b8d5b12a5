"""One small compute per flat measure, over every topic at once (see :mod:`graphsr.measures.flat.measures` for
the formulas and :mod:`graphsr.measures.flat.ranking` for the items).

Each kernel takes the measure, the run's :class:`~graphsr.measures.flat.ranking.Ranking` and the topics'
:class:`~graphsr.measures.flat.judgments.Judgments`, and returns one value per topic; each measure declares its
own (``FAST``).
"""

from __future__ import annotations

import numpy as np

from .exact import trec_kernel
from .judgments import Judgments
from .ranking import Ranking, judged_nonrelevant, relevant

__all__ = ["kernel_of", "compute_flat"]


def _ranking(m, rk: Ranking) -> Ranking:
    return rk.judged_only if m.params.get("judged_only") else rk


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(len(num))
    np.divide(num, den, out=out, where=den > 0)
    return out


def _hits(m, rk: Ranking, cutoff: int | None) -> np.ndarray:
    hit = relevant(rk.grade, m.params.get("rel"))
    return hit & (rk.pos <= cutoff) if cutoff is not None else hit


def precision(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """P@k (trec_eval ``P_k``)."""
    rk = _ranking(m, rk)
    return rk.count(_hits(m, rk, m.cutoff)) / m.cutoff


def recall(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """R@k (trec_eval ``recall_k``)."""
    rk = _ranking(m, rk)
    return _ratio(rk.count(_hits(m, rk, m.cutoff)), j.num_relevant(m.params.get("rel")))


def f1(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """F1@k, the harmonic mean of P@k and R@k: 2 hits / (k + R); no @k: k the items retrieved (ranx's f1)."""
    rk = _ranking(m, rk)
    k = rk.count() if m.cutoff is None else m.cutoff
    return _ratio(2.0 * rk.count(_hits(m, rk, m.cutoff)), k + j.num_relevant(m.params.get("rel")))


def average_precision(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """AP, AP@k (trec_eval ``map``, ``map_cut_k``): the precisions at the relevant items, over R."""
    rk = _ranking(m, rk)
    at = np.flatnonzero(_hits(m, rk, m.cutoff))  # the relevant items: the sums run over them only
    t = rk.topic[at]
    nth = np.arange(1, len(at) + 1) - np.searchsorted(t, np.arange(rk.num_topics))[t]  # hits so far, per topic
    prec = nth / rk.pos[at]
    return _ratio(np.bincount(t, weights=prec, minlength=rk.num_topics), j.num_relevant(m.params.get("rel")))


def ndcg(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """nDCG, nDCG@k (trec_eval ``ndcg``, ``ndcg_cut_k``)."""
    rk = _ranking(m, rk)
    gains, dcg = m.params.get("gains"), m.params.get("dcg", "log2")
    if m.cutoff is not None:  # the items that can count: within the cut-off, or (a gain needs one) assessed
        at = np.flatnonzero(rk.pos <= m.cutoff)
    elif rk.item_result is None:  # one node per item: its assessed value, NaN when not assessed
        at = np.flatnonzero(~np.isnan(rk.item_grade))
    else:
        at = np.arange(rk.size)
    g = rk.item_gains_at(at, gains, dcg)
    keep = g > 0
    at, g = at[keep], g[keep]
    dcg_ = np.bincount(rk.topic[at], weights=g / np.log2(rk.pos[at] + 1.0), minlength=rk.num_topics)
    return _ratio(dcg_, j.ideal_dcg(gains, dcg, m.cutoff))


def reciprocal_rank(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """RR (trec_eval ``recip_rank``): 1 / the rank of the first relevant item; RR@k, which trec_eval lacks, as
    ir_measures computes it (the first k items, ties in score in document order)."""
    rk = _ranking(m, rk)
    pos = _ir_measures_ranks(rk) if m.cutoff is not None else rk.pos
    hit = relevant(rk.grade, m.params.get("rel"))
    if m.cutoff is not None:
        hit &= pos <= m.cutoff
    first = np.full(rk.num_topics, np.inf)
    np.minimum.at(first, rk.topic[hit], pos[hit])
    return np.where(np.isfinite(first), 1.0 / first, 0.0)


def r_precision(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """Rprec (trec_eval ``Rprec``): relevant items among the first R, over R."""
    rk = _ranking(m, rk)
    num_rel = j.num_relevant(m.params.get("rel"))
    hit = relevant(rk.grade, m.params.get("rel")) & (rk.pos <= num_rel[rk.topic])
    return _ratio(rk.count(hit), num_rel)


def bpref(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """Bpref (trec_eval ``bpref``; Buckley and Voorhees 2004)."""
    rel = m.params.get("rel")
    hit = relevant(rk.grade, rel)
    before = rk.running(judged_nonrelevant(rk.grade, rel))[hit].astype(float)  # non-relevant items above
    num_rel, num_nonrel = j.num_relevant(rel), j.num_nonrelevant(rel)
    r, n = num_rel[rk.topic[hit]], num_nonrel[rk.topic[hit]]
    term = np.ones(len(before))
    some = before > 0
    term[some] = 1.0 - np.minimum(before[some], r[some]) / np.minimum(n[some], r[some])
    return _ratio(np.bincount(rk.topic[hit], weights=term, minlength=rk.num_topics), num_rel)


def success(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """Success@k (trec_eval ``success_k``)."""
    rk = _ranking(m, rk)
    return (rk.count(_hits(m, rk, m.cutoff)) > 0).astype(float)


def interpolated_precision(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """IPrec@x (trec_eval ``iprec_at_recall_x``)."""
    rk = _ranking(m, rk)
    rel = m.params.get("rel")
    hit = relevant(rk.grade, rel)
    num_rel = j.num_relevant(rel)
    retrieved = rk.count(hit)
    # the c-th relevant item, c = (long) (x R + 0.9) as trec_eval 9.0.7 and earlier (and pytrec_eval) compute it
    # (trec_eval 9.0.8 rounds x R instead); the 0th relevant item is the first
    need = np.floor(m.params["recall"] * num_rel + 0.9)
    ok = (retrieved > 0) & (need <= retrieved)
    out = np.zeros(rk.num_topics)
    if not ok.any():
        return out
    nth = rk.running(hit)
    prec = nth / rk.pos
    want = np.maximum(need, 1.0)[rk.topic]
    at = np.flatnonzero(hit & (nth == want) & ok[rk.topic])  # the rank from which precision is interpolated
    ends = rk.starts()[1:][rk.topic[at]]
    bounds = np.empty(2 * len(at), dtype=np.int64)
    bounds[0::2], bounds[1::2] = at, ends
    best = np.maximum.reduceat(np.r_[prec, 0.0], bounds)[0::2]  # max of prec over [at, end of topic)
    out[rk.topic[at]] = best
    return out


def num_ret(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """NumRet (trec_eval ``num_ret``; with ``rel=``: ``num_rel_ret``)."""
    return rk.count() if m.params.get("rel") is None else num_rel_ret(m, rk, j)


def num_rel_ret(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """NumRelRet (trec_eval ``num_rel_ret``)."""
    return rk.count(relevant(rk.grade, m.params.get("rel")))


def num_rel(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """NumRel (trec_eval ``num_rel``)."""
    return j.num_relevant(m.params.get("rel"))


def num_q(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """NumQ (trec_eval ``num_q``)."""
    return np.ones(rk.num_topics)


def judged(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """Judged@k (ir_measures): assessed items among the first min(k, retrieved), over their number; items
    tied in score taken in document order, as ir_measures breaks ties."""
    pos = _ir_measures_ranks(rk)
    got = rk.count()
    k = np.minimum(got, m.cutoff) if m.cutoff is not None else got
    return _ratio(rk.count(rk.assessed & (pos <= k[rk.topic])), k)


def err(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """ERR@k as gdeval computes it (ir_measures' ERR): R_i = (2^g - 1) / 2^4 over the first k items, each
    weighted by 1/i and the chance that no earlier item stopped the user (negative and unjudged grades: 0)."""
    at = np.flatnonzero(rk.pos <= m.cutoff)
    g = np.nan_to_num(rk.grade[at], nan=0.0, neginf=0.0)
    if (g > m.MAX_GRADE).any():
        from ...errors import GraphsrInputError

        raise GraphsrInputError(f"{m}: grades go up to {m.MAX_GRADE} (gdeval's), got {float(g.max()):g}")
    r = (2.0 ** np.maximum(g, 0.0) - 1.0) / 2.0**m.MAX_GRADE
    t = rk.topic[at]
    log_keep = np.log1p(-r)  # (r < 1: a grade of 4 stops 15 users in 16)
    total = np.cumsum(log_keep)
    first = np.searchsorted(t, t, side="left")
    before = total - log_keep - np.r_[0.0, total][first]  # what earlier items of the topic left
    return np.bincount(t, weights=r * np.exp(before) / rk.pos[at], minlength=rk.num_topics)


def dcg(m, rk: Ranking, j: Judgments) -> np.ndarray:
    """DCG, DCG@k: nDCG's numerator (ranx's dcg; dcg=exp-log2: dcg_burges)."""
    rk = _ranking(m, rk)
    at = np.flatnonzero(rk.pos <= m.cutoff) if m.cutoff is not None else np.arange(rk.size)
    g = rk.item_gains_at(at, None, m.params.get("dcg", "log2"))
    keep = g > 0
    at, g = at[keep], g[keep]
    return np.bincount(rk.topic[at], weights=g / np.log2(rk.pos[at] + 1.0), minlength=rk.num_topics)


def _ir_measures_ranks(rk: Ranking) -> np.ndarray:
    """The ranks ir_measures' own Judged and RR@k see: in a run ranked by score, each run of items tied in
    score reversed (trec_eval puts ties in decreasing document order, they in increasing order)."""
    if not (rk.by_score and rk.size):
        return rk.pos
    new_group = np.r_[True, (rk.topic[1:] != rk.topic[:-1]) | (rk.scores[1:] != rk.scores[:-1])]
    group = np.cumsum(new_group) - 1
    first = np.flatnonzero(new_group)
    last = np.r_[first[1:], rk.size] - 1
    idx = np.arange(rk.size)
    return rk.pos + (first[group] + last[group] - 2 * idx)


def kernel_of(m):
    """The kernel of flat measure ``m``: the vectorised kernel it declares (``FAST``), else the ``graphsr
    trec_eval`` kernel it is (``exact()``: from its trec_eval name), topic by topic; a measure with neither is a
    declaration error, never scored by another measure's kernel."""
    if getattr(m, "FAST", None) is not None:
        return m.FAST
    if m.exact() is not None:
        return trec_kernel
    raise TypeError(
        f"{m}: a flat measure with no kernel (declare its fast path as FAST, or the trec_eval name it is in TREC)"
    )


def compute_flat(measures, rk: Ranking, j: Judgments) -> dict:
    """Per-topic values of each flat measure."""
    return {m: kernel_of(m)(m, rk, j) for m in measures}
