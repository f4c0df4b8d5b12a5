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

__all__ = ["ESRInputs", "esr_curves", "esr_curves_many"]


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

    (:func:`esr_curves_many` computes them for several relevance vectors
    sharing one navigation pass.)

    Returns
    -------
    dict of str to ndarray of shape (topics, len(cutoffs))
        Keys ``hits``, ``near_misses``, ``misses``, ``recall_base``, ``size``.
    """
    return esr_curves_many(x, cutoffs, [x.assess_rel])[0]


def esr_curves_many(x: ESRInputs, cutoffs: list[int], rels: list[np.ndarray]) -> list[dict[str, np.ndarray]]:
    """:func:`esr_curves` for each relevance vector in ``rels`` (same run, assessments and navigation)."""
    return _curves(x, cutoffs, [np.asarray(r, dtype=float) for r in rels])


def _cumulated(rows: np.ndarray, positions: np.ndarray, weights: np.ndarray, shape: tuple[int, int],
               cols: np.ndarray) -> np.ndarray:
    """Weights summed per (topic row, rank position), cumulated along the ranking, read at ``cols``."""
    T, L = shape
    grid = np.bincount(rows * L + positions, weights=weights, minlength=T * L).astype(float).reshape(T, L)
    return np.cumsum(grid, axis=1)[:, cols]


def _curves(x: ESRInputs, cutoffs: list[int], rels: list[np.ndarray]) -> list[dict[str, np.ndarray]]:
    r = x.ranked
    T, K = len(r.topics), len(cutoffs)
    pos = r.result_positions()
    m = r.num_results
    # per result: size, and the topic-local identity of its nodes
    size = np.bincount(r.item_result, weights=x.item_size, minlength=m)
    n_items = np.bincount(r.item_result, minlength=m)  # nodes per result
    base = {k: np.zeros((T, K)) for k in ("hits", "near_misses", "misses", "recall_base", "size")}
    if m:
        L = int(pos.max()) + 2
        cols = np.minimum(np.asarray(cutoffs) - 1, L - 1)  # cut-off k sums positions < k
        base["size"] = _cumulated(r.result_topic, pos, size, (T, L), cols)
    outs = [{k: v.copy() for k, v in base.items()} for _ in rels]
    n = len(x.assess_node)
    if n == 0:
        return outs
    if m == 0:  # nothing retrieved: every assessment is a miss
        for out, rel in zip(outs, rels):
            out["misses"][:] = np.bincount(x.assess_topic, weights=rel, minlength=T)[:, None]
            out["recall_base"] = out["misses"].copy()
        return outs
    # hit rank of each assessment: first result of its topic containing the node
    item_topic = r.result_topic[r.item_result]
    key_items = item_topic * (1 << 40) + r.item_node
    key_assess = x.assess_topic * (1 << 40) + x.assess_node
    # look the (few) assessments up from the items: items are in (topic, rank) order, so an
    # assessment's first matching item is at its first rank
    a_order = np.argsort(key_assess, kind="stable")
    a_sorted = key_assess[a_order]
    loc = np.minimum(np.searchsorted(a_sorted, key_items), n - 1)
    match = np.flatnonzero(a_sorted[loc] == key_items)
    hit_res = np.full(n, m, dtype=np.int64)
    np.minimum.at(hit_res, a_order[loc[match]], r.item_result[match])
    hit_res[hit_res == m] = -1
    hit_pos = np.where(hit_res >= 0, pos[np.maximum(hit_res, 0)], np.iinfo(np.int64).max)
    # pairs (assessment, result) of one topic and document: q = p~(a; t_j)
    res_key = r.result_topic * (1 << 40) + r.result_doc
    a_key = x.assess_topic * (1 << 40) + x.assess_doc
    res_order = np.argsort(res_key, kind="stable")
    rk = res_key[res_order]
    lo, hi = np.searchsorted(rk, a_key, "left"), np.searchsorted(rk, a_key, "right")
    counts = hi - lo
    pa = np.repeat(np.arange(n), counts)
    # the results of each assessment's (topic, document) group, in rank order (stable sort)
    pj = res_order[np.repeat(lo, counts) + np.arange(len(pa)) - np.repeat(np.cumsum(counts) - counts, counts)]
    q = np.zeros(len(pa))
    if len(pa):
        # items of each paired result, against the assessment's node
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
    # Every cut-off at once, by events along the ranking (position p changes cut-offs k > p):
    # each result j above a's hit rank multiplies a's survival S by (1 - q) (E[Near-misses] grows
    # by rel * (S_before - S_after)); a's hit at rank m moves rel * (1 - S) out of the near-misses
    # and adds rel * S to E[Hits].  Misses follow: rel of the not-hit minus their near-misses.
    pair_pos = pos[pj] if len(pj) else np.zeros(0, dtype=np.int64)
    use = pair_pos < hit_pos[pa]
    pa, pair_pos, q = pa[use], pair_pos[use], q[use]  # already ordered by (assessment, rank)
    zero = q >= 1.0
    logs = np.log1p(-np.where(zero, 0.0, q))
    first_of = np.searchsorted(pa, np.arange(n))  # start of each assessment's events
    cl = np.r_[0.0, np.cumsum(logs)]
    cz = np.r_[0, np.cumsum(zero)]
    idx = np.arange(len(pa))
    start = first_of[pa]
    after = np.exp(cl[idx + 1] - cl[start]) * ((cz[idx + 1] - cz[start]) == 0)
    before = np.exp(cl[idx] - cl[start]) * ((cz[idx] - cz[start]) == 0)
    # survival of each assessment just before its hit (all its events are above the hit)
    end = np.searchsorted(pa, np.arange(n), side="right")
    s_hit = np.exp(cl[end] - cl[first_of]) * ((cz[end] - cz[first_of]) == 0)
    topic_a = x.assess_topic
    hit = hit_pos < np.iinfo(np.int64).max
    hp = hit_pos[hit]
    for out, rel in zip(outs, rels):
        out["near_misses"] = (_cumulated(topic_a[pa], pair_pos, rel[pa] * (before - after), (T, L), cols)
                              - _cumulated(topic_a[hit], hp, rel[hit] * (1.0 - s_hit[hit]), (T, L), cols))
        out["hits"] = _cumulated(topic_a[hit], hp, rel[hit] * s_hit[hit] / n_items[hit_res[hit]], (T, L), cols)
        hit_rel = _cumulated(topic_a[hit], hp, rel[hit], (T, L), cols)
        total = np.bincount(topic_a, weights=rel, minlength=T)
        out["misses"] = total[:, None] - hit_rel - out["near_misses"]
        out["recall_base"] = out["hits"] + out["near_misses"] + out["misses"]
    return outs
