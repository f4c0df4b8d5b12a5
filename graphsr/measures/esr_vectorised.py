r"""ESR expectations for whole runs at once (numpy), with node-level assessments.

The same quantities as :mod:`graphsr.measures.esr` (the reference), for all
topics and cut-offs of a run in one pass.  Assessments are node-level (each
assessed node is a singleton tree ``a``), so Eq 4 between ``a`` and a
retrieved tree ``t_j`` reduces to

.. math:: \tilde p(a; t_j) = [a \notin t_j]\ \frac{\sum_{f \in t_j} \tilde p(a; f)}{|t_j|},

which is non-zero only for trees of ``a``'s document: only those pairs are
enumerated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .inputs import RankedNodes

__all__ = ["ESRInputs", "esr_curves"]


@dataclass(eq=False)
class ESRInputs:
    """A run's ranked trees plus node-level assessments and navigation.

    Parameters
    ----------
    ranked : RankedNodes
        The run (``rel``/``seen`` of its items are not used here).
    item_size : array of float, shape (N,)
        Size (characters) each item adds to its tree's size (SRiP's denominator).
    assess_topic : array of int, shape (n,)
        Topic index of each assessed node (relevance > 0).
    assess_node : array of int, shape (n,)
        Node id of each assessed node (same id space as ``ranked.item_node``).
    assess_doc : array of int, shape (n,)
        Document code of each assessed node (``ranked.result_doc`` codes).
    assess_rel : array of float, shape (n,)
        Relevance value (binary, or highlighted characters).
    nav : callable
        ``nav(to_nodes, from_nodes)`` -> element-wise :math:`\tilde p(to; from)`
        for equal-length arrays of node ids of one document each.
    """

    ranked: RankedNodes
    item_size: np.ndarray
    assess_topic: np.ndarray
    assess_node: np.ndarray
    assess_doc: np.ndarray
    assess_rel: np.ndarray
    nav: Callable[[np.ndarray, np.ndarray], np.ndarray]


def esr_curves(x: ESRInputs, cutoffs: list[int]) -> dict[str, np.ndarray]:
    """E[Hits], E[Near-misses], E[Misses], recall-base and the retrieved size per topic and cut-off.

    Returns
    -------
    dict of str to ndarray of shape (topics, len(cutoffs))
        Keys ``hits``, ``near_misses``, ``misses``, ``recall_base``, ``size``.
    """
    r = x.ranked
    T, K = len(r.topics), len(cutoffs)
    pos = r.result_positions()
    m = r.num_results
    # per result: size, and the topic-local identity of its nodes
    size = np.bincount(r.item_result, weights=x.item_size, minlength=m)
    out = {k: np.zeros((T, K)) for k in ("hits", "near_misses", "misses", "recall_base", "size")}
    for c, k in enumerate(cutoffs):
        out["size"][:, c] = np.bincount(r.result_topic[pos < k], weights=size[pos < k], minlength=T)
    n = len(x.assess_node)
    if n == 0:
        return out
    rel = np.asarray(x.assess_rel, dtype=float)
    if m == 0:  # nothing retrieved: every assessment is a miss
        for c in range(K):
            out["misses"][:, c] = np.bincount(x.assess_topic, weights=rel, minlength=T)
        out["recall_base"] = out["misses"].copy()
        return out
    # hit rank of each assessment: first result of its topic containing the node
    item_topic = r.result_topic[r.item_result]
    key_items = item_topic * (1 << 40) + r.item_node
    key_assess = x.assess_topic * (1 << 40) + x.assess_node
    order = np.lexsort((pos[r.item_result], key_items))
    ks, first_res = key_items[order], r.item_result[order]
    uniq, start = np.unique(ks, return_index=True)
    hit_res = np.full(n, -1, dtype=np.int64)
    loc = np.searchsorted(uniq, key_assess)
    found = (loc < len(uniq)) & (uniq[np.minimum(loc, len(uniq) - 1)] == key_assess)
    hit_res[found] = first_res[start[loc[found]]]
    hit_pos = np.where(hit_res >= 0, pos[np.maximum(hit_res, 0)], np.iinfo(np.int64).max)
    # pairs (assessment, result) of one topic and document: q = p~(a; t_j)
    res_key = r.result_topic * (1 << 40) + r.result_doc
    a_key = x.assess_topic * (1 << 40) + x.assess_doc
    res_order = np.argsort(res_key, kind="stable")
    rk = res_key[res_order]
    lo, hi = np.searchsorted(rk, a_key, "left"), np.searchsorted(rk, a_key, "right")
    counts = hi - lo
    pa = np.repeat(np.arange(n), counts)
    pj = res_order[np.concatenate([np.arange(a, b) for a, b in zip(lo, hi)])] if len(pa) else np.zeros(0, int)
    q = np.zeros(len(pa))
    if len(pa):
        # items of each paired result, against the assessment's node
        n_items = np.bincount(r.item_result, minlength=m)
        item_start = np.concatenate([[0], np.cumsum(n_items)[:-1]])
        rep = n_items[pj]
        pair_of_item = np.repeat(np.arange(len(pa)), rep)
        item_idx = np.repeat(item_start[pj], rep) + (np.arange(rep.sum()) - np.repeat(np.cumsum(rep) - rep, rep))
        nodes = r.item_node[item_idx]
        targets = x.assess_node[pa[pair_of_item]]
        contains = np.bincount(pair_of_item, weights=(nodes == targets).astype(float), minlength=len(pa)) > 0
        p = np.where(nodes == targets, 0.0, x.nav(targets, nodes))
        q = np.bincount(pair_of_item, weights=p, minlength=len(pa)) / n_items[pj]
        q[contains] = 0.0
        q = np.clip(q, 0.0, 1.0)
    pair_pos = pos[pj] if len(pj) else np.zeros(0, int)
    for c, k in enumerate(cutoffs):
        hit = hit_pos < k
        # p(a; R_k): results above k; for hits, results above the hit rank
        limit = np.where(hit, hit_pos, k)
        use = pair_pos < limit[pa]
        surv = np.ones(n)
        np.multiply.at(surv, pa[use], 1.0 - q[use])
        seen = 1.0 - surv
        h = np.where(hit, rel * surv, 0.0)
        nm = np.where(hit, 0.0, rel * seen)
        mi = np.where(hit, 0.0, rel * surv)
        out["hits"][:, c] = np.bincount(x.assess_topic, weights=h, minlength=T)
        out["near_misses"][:, c] = np.bincount(x.assess_topic, weights=nm, minlength=T)
        out["misses"][:, c] = np.bincount(x.assess_topic, weights=mi, minlength=T)
    out["recall_base"] = out["hits"] + out["near_misses"] + out["misses"]
    return out
