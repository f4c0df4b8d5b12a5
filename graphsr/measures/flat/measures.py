"""The flat baselines users run beside SR, as trec_eval computes them, on element (or document) runs.

Each ranked result is one retrieved item; its relevance is the highest
assessed value of its nodes (a plain document run: the document's).  With
``rel=`` an item counts as relevant when its value is at least ``rel``, else
when it is above 0.  For a topic with ``R`` relevant assessed elements:

* ``P@k``: relevant items in the first k, over k;
* ``R@k``: relevant items in the first k, over R;
* ``AP`` (also ``MAP``): the mean over the R relevant elements of the
  precision at the rank where each is retrieved (0 if it is not);
* ``nDCG@k``: ``sum_{i<=k} g_i / log2(i + 1)`` over the same for the ideal
  ordering of the assessed values (gain = the assessed value); no cut-off:
  the whole ranking.

Results are taken in the run's rank order; trec_eval sorts by score
(descending, ties by document id descending), the same order when the ranks
follow the scores.

>>> from graphsr.measures import parse_measure
>>> parse_measure("P@10"), parse_measure("MAP"), parse_measure("nDCG@5"), parse_measure("P(rel=0.5)@5")
(P@10, AP, nDCG@5, P(rel=0.5)@5)
"""

from __future__ import annotations

import numpy as np

from ..base import Measure, Param, register

__all__ = ["P", "R", "AP", "nDCG", "compute_flat_family"]

_REL = {"rel": Param(float, None, "an item is relevant at this value or above (default: above 0)")}


class _Flat(Measure):
    FAMILY = "flat"
    BOUNDS = (0.0, 1.0)
    ANY_SCALE = True  # TREC-style grades 0, 1, 2, 3 as trec_eval reads them
    SUPPORTED_PARAMS = dict(_REL)


class _P(_Flat):
    NAME = "P"
    DESCRIPTION = "precision at k: relevant items in the first k, over k (trec_eval P_k)"
    CUTOFF = "required"


class _R(_Flat):
    NAME = "R"
    DESCRIPTION = "recall at k: relevant items in the first k, over the relevant assessed (trec_eval recall_k)"
    CUTOFF = "required"


class _AP(_Flat):
    NAME = "AP"
    DESCRIPTION = "average precision (trec_eval map); @k: the first k items only"
    CUTOFF = "optional"


class _nDCG(_Flat):
    NAME = "nDCG"
    DESCRIPTION = "normalised discounted cumulated gain, gain = assessed value, log2 discount (trec_eval ndcg_cut)"
    CUTOFF = "optional"
    SUPPORTED_PARAMS = {}


register(_P)
register(_R)
register(_AP, "MAP")
register(_nDCG)

P, R, AP, nDCG = _P(), _R(), _AP(), _nDCG()


def compute_flat_family(measures, ranked, relevant_values: list[np.ndarray]) -> dict:
    """Per-topic values; ``relevant_values[t]``: the assessed values (> 0) of topic t's elements."""
    T = len(ranked.topics)
    m_res = len(ranked.result_topic)
    item_rel = np.asarray(ranked.rel, dtype=float)
    best = np.zeros(m_res)
    if len(item_rel):
        np.maximum.at(best, ranked.item_result, item_rel)  # a tree result: its best node
    pos = ranked.result_positions()
    out = {}
    for m in measures:
        values = np.zeros(T)
        threshold = m.params.get("rel")
        for t in range(T):
            mine = ranked.result_topic == t
            gains = best[mine][np.argsort(pos[mine], kind="stable")]
            assessed = relevant_values[t]
            if m.NAME == "nDCG":
                k = m.cutoff or len(gains)
                disc = 1.0 / np.log2(np.arange(2, k + 2))
                ideal = np.sort(assessed)[::-1][:k]
                idcg = float((ideal * disc[:len(ideal)]).sum())
                g = gains[:k]
                values[t] = float((g * disc[:len(g)]).sum()) / idcg if idcg > 0 else 0.0
                continue
            hit = gains >= threshold if threshold is not None else gains > 0
            n_rel = int((assessed >= threshold).sum() if threshold is not None else (assessed > 0).sum())
            if m.NAME == "P":
                values[t] = hit[:m.cutoff].sum() / m.cutoff
            elif m.NAME == "R":
                values[t] = hit[:m.cutoff].sum() / n_rel if n_rel else 0.0
            else:
                h = hit[:m.cutoff] if m.cutoff else hit
                ranks = np.flatnonzero(h) + 1
                values[t] = float((np.arange(1, len(ranks) + 1) / ranks).sum() / n_rel) if n_rel else 0.0
        out[m] = values
    return out
