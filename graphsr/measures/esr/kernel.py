r"""ESR expectations for whole runs at once (numpy), with node-level assessments.

The same quantities as the reference transcription ``tests/esr_reference.py``, for all
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

from ..._numpy import distinct

from ..inputs import RankedNodes

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
        for equal-length arrays of node ids of one document each.  When it is a
        :class:`~graphsr.navigation.elementwise.NodeTransitions` (a learned model's
        table of states and transitions) and every result is one element, the
        kernel walks the (assessment, result) pairs in one compiled pass
        (``graphsr.measures.esr._survival.accumulate``) instead of building an array
        per pair; the tests check both ways give the same values.
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


def esr_curves_many(
    x: ESRInputs, cutoffs: list[int] | list[list[int]], rels: list[np.ndarray]
) -> list[dict[str, np.ndarray]]:
    """:func:`esr_curves` for each relevance vector in ``rels`` (same run, assessments and navigation).

    ``cutoffs`` is one list for all of them, or one list per relevance vector.
    """
    rels = [np.asarray(r, dtype=float) for r in rels]
    if len(cutoffs) and not isinstance(cutoffs[0], (list, tuple, np.ndarray)):
        cutoffs = [cutoffs] * len(rels)
    if len(cutoffs) != len(rels):
        raise ValueError(f"{len(cutoffs)} cut-off lists for {len(rels)} relevance vectors")
    return _curves(x, [np.asarray(c, dtype=np.int64) for c in cutoffs], rels)


def _prefix_sums(topic: np.ndarray, weight: np.ndarray, T: int, cutoffs: np.ndarray) -> np.ndarray:
    """Per topic and cut-off k, the sum of the weights of the topic's first k items (items topic-major in rank
    order, as results are): one cumulative sum over the items, read at each topic's k-th item.  Shape
    ``(T, len(cutoffs))``."""
    counts = np.bincount(topic, minlength=T)
    ends = np.cumsum(counts)
    cs = np.concatenate(([0.0], np.cumsum(weight, dtype=float)))
    upto = np.minimum(np.asarray(cutoffs, dtype=np.int64)[None, :], counts[:, None])  # items counted
    return cs[(ends - counts)[:, None] + upto] - cs[ends - counts][:, None]


class _Buckets:
    """Where the weights of channels ``(topic rows, rank positions)`` fall in a ``(channel, topic, cut-off)``
    grid: computed once, then :meth:`cumulated` for any weights over the same channels."""

    def __init__(self, channels: list[tuple[np.ndarray, np.ndarray]], T: int, cutoffs: np.ndarray):
        L = max([int(p.max()) + 1 for _, p in channels if len(p)], default=1)
        self.order, bucket_of = _bucket_of(cutoffs, L)
        K, C = len(cutoffs), len(channels)
        self.index = np.concatenate(
            [(c * T + rows) * (K + 1) + bucket_of[positions] for c, (rows, positions) in enumerate(channels)]
        )
        self.shape = (C, T, K + 1)

    def cumulated(self, weights: list[np.ndarray]) -> np.ndarray:
        C, T, K1 = self.shape
        w = np.concatenate([np.asarray(x, dtype=float) for x in weights])
        grid = np.bincount(self.index, weights=w, minlength=C * T * K1).reshape(C, T, K1)
        return _cumulate(grid[:, :, : K1 - 1], self.order)


def _bucket_of(cutoffs: np.ndarray, L: int) -> tuple[np.ndarray, np.ndarray]:
    """The order that sorts the cut-offs, and the bucket of each rank position 0 .. L-1: the number of cut-offs
    at or below it (an event at position p counts for the cut-offs k > p; bucket K: beyond every cut-off)."""
    order = np.argsort(cutoffs, kind="stable")
    ks = cutoffs[order]
    K = len(ks)
    if np.array_equal(ks, np.arange(1, K + 1)):  # every cut-off 1..K: the bucket is the position
        return order, np.minimum(np.arange(L), K)
    return order, np.searchsorted(ks, np.arange(L), side="right")


def _cumulate(grid: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Buckets ``(..., K)`` cumulated along the sorted cut-offs, then put back in the cut-offs' given order."""
    out = np.cumsum(grid, axis=-1)
    if np.any(order != np.arange(len(order))):  # cut-offs given out of order: back to their order
        back = np.empty_like(out)
        back[..., order] = out
        return back
    return out


def _groups(x: ESRInputs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The results each assessment may meet: those of its topic and document, in rank order.

    Returns ``grouped`` (result numbers, grouped by (topic, assessed document) and in rank order within a group)
    and, per assessment, where its group starts in ``grouped`` and how many results it holds.
    """
    r = x.ranked
    # (topic, document) groups holding assessments, numbered by a dense (topic, assessed document) table
    docs, a_local = np.unique(x.assess_doc, return_inverse=True)
    a_local = a_local.ravel()
    T, D = len(r.topics), len(docs)
    cell, a_group = np.unique(x.assess_topic * D + a_local, return_inverse=True)
    a_group = a_group.ravel()
    G = len(cell)
    # document codes may be negative (documents no result names): shift them to index a lookup array
    lo = min(int(docs[0]), int(r.result_doc.min()))
    local = np.full(max(int(docs[-1]), int(r.result_doc.max())) - lo + 1, -1, dtype=np.int64)
    local[docs - lo] = np.arange(D)
    res_local = local[r.result_doc - lo]
    known = np.flatnonzero(res_local >= 0)  # results in an assessed document: few
    if T * D <= 1 << 24:
        table = np.full(T * D, -1, dtype=np.int64)
        table[cell] = np.arange(G)
        g = table[r.result_topic[known] * D + res_local[known]]
    else:  # too many (topic, document) cells for a table: binary search
        key = r.result_topic[known] * D + res_local[known]
        g = np.minimum(np.searchsorted(cell, key), G - 1)
        g[cell[g] != key] = -1
    inside = g >= 0
    cand, cg = known[inside], g[inside]
    grouped = cand[np.argsort(cg.astype(np.uint16) if G <= 1 << 16 else cg, kind="stable")]  # rank order kept
    gcount = np.bincount(cg, minlength=G)
    gstart = np.cumsum(gcount) - gcount
    return grouped, gstart[a_group], gcount[a_group]


def _pairs(x: ESRInputs) -> tuple[np.ndarray, np.ndarray]:
    """Every (assessment, result) pair of one topic and document, ordered by assessment then rank:
    ``pa`` (assessment) and ``pj`` (result)."""
    n = len(x.assess_node)
    grouped, first, counts = _groups(x)
    pa = np.repeat(np.arange(n), counts)
    offset = np.arange(len(pa)) - np.repeat(np.cumsum(counts) - counts, counts)
    pj = grouped[np.repeat(first, counts) + offset]
    return pa, pj


def _survival_numpy(pa: np.ndarray, q: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`survival` with numpy: the products as cumulated logarithms, a certain step (q = 1) counted apart."""
    zero = q >= 1.0
    any_zero = bool(zero.any())  # a certain step (q = 1): rare, counted apart from the logs
    logs = np.log1p(-np.where(zero, 0.0, q) if any_zero else -q)
    cl = np.empty(len(logs) + 1)
    cl[0] = 0.0
    np.cumsum(logs, out=cl[1:])
    del logs
    first_of = np.searchsorted(pa, np.arange(n))  # start of each assessment's events
    end = np.r_[first_of[1:], len(pa)]
    start = first_of[pa]
    k = len(pa)  # event i's own entries are cl[i], cz[i]: slices, not gathers
    found = cl[:k] - cl[start]
    np.exp(found, out=found)
    found *= q  # S_before - S_after
    # survival of each assessment just before its hit (all its events are above the hit)
    s_hit = np.exp(cl[end] - cl[first_of])
    if any_zero:
        cz = np.r_[0, np.cumsum(zero)]
        found *= cz[:k] == cz[start]
        s_hit *= cz[end] == cz[first_of]
    return found, s_hit


def survival(pa: np.ndarray, q: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each assessment's survival along its events (Eq 4): events grouped by assessment ``pa`` (0 .. n-1,
    non-decreasing), in rank order within one, ``q`` the probability that an event leads to its assessment.

    Returns ``found`` (per event: the survival before it times ``q``, what the event finds) and ``s_hit`` (per
    assessment: the product of ``1 - q`` over its events, 1 without events).  One pass in C
    (``graphsr.measures.esr._survival``) where it was built; cumulated logarithms in numpy otherwise (equal up
    to rounding; the tests compare both).

    >>> found, s_hit = survival(np.array([0, 0, 2]), np.array([0.5, 0.5, 1.0]), 3)
    >>> found.tolist(), s_hit.tolist()
    ([0.5, 0.25, 1.0], [0.25, 1.0, 0.0])
    """
    if _SURVIVAL is not None:
        return _SURVIVAL(np.ascontiguousarray(pa, dtype=np.int64), np.ascontiguousarray(q, dtype=float), int(n))
    return _survival_numpy(pa, q, n)


try:
    from ._survival import accumulate as _ACCUMULATE, survival as _SURVIVAL
except ImportError:  # pragma: no cover - the extension is optional
    _SURVIVAL = _ACCUMULATE = None


def _curves(x: ESRInputs, cutoffs: list[np.ndarray], rels: list[np.ndarray]) -> list[dict[str, np.ndarray]]:
    r = x.ranked
    T = len(r.topics)
    pos = r.result_positions()
    m = r.num_results
    if len(r.item_result) == m:  # element results: one node each
        size, n_items = np.asarray(x.item_size, dtype=float), np.ones(m, dtype=np.int64)
    else:
        size = np.bincount(r.item_result, weights=x.item_size, minlength=m)  # per result
        n_items = np.bincount(r.item_result, minlength=m)  # nodes per result
    outs = [
        {k: np.zeros((T, len(ks))) for k in ("hits", "near_misses", "misses", "recall_base", "size")} for ks in cutoffs
    ]
    n = len(x.assess_node)
    every = distinct(np.concatenate(cutoffs))
    sizes = _prefix_sums(r.result_topic, size, T, every)  # once for every relevance vector
    for out, ks in zip(outs, cutoffs):
        out["size"] = sizes[:, np.searchsorted(every, ks)]
    if m == 0 or n == 0:  # nothing retrieved (every assessment is a miss) or nothing to find
        for out, rel in zip(outs, rels):
            out["misses"][:] = np.bincount(x.assess_topic, weights=rel, minlength=T)[:, None]
            out["recall_base"] = out["misses"].copy()
        return outs
    single = len(r.item_result) == m  # element results: one item per result
    table = getattr(x.nav, "transition_table", None)
    if single and _ACCUMULATE is not None and table is not None:
        return _curves_in_one_pass(x, table(), cutoffs, rels, outs, pos)
    pa, pj = _pairs(x)
    # the items of each pair's result, against the assessment's node
    if single:
        pair_of_item, item_idx = None, pj
    else:
        item_start = np.cumsum(n_items) - n_items
        rep = n_items[pj]
        pair_of_item = np.repeat(np.arange(len(pa)), rep)
        item_idx = np.repeat(item_start[pj], rep) + (np.arange(rep.sum()) - np.repeat(np.cumsum(rep) - rep, rep))
    nodes = r.item_node[item_idx]
    targets = x.assess_node[pa if single else pa[pair_of_item]]
    # hit rank of each assessment: its first pair (rank order) whose tree contains the node
    cp = np.flatnonzero(nodes == targets)
    if not single:
        cp = distinct(pair_of_item[cp])  # containing pairs, ordered by (assessment, rank)
    first = cp[np.r_[True, pa[cp[1:]] != pa[cp[:-1]]]] if len(cp) else cp
    hit_res = np.full(n, -1, dtype=np.int64)
    hit_res[pa[first]] = pj[first]
    never = np.iinfo(np.int64).max
    hit_pos = np.where(hit_res >= 0, pos[np.maximum(hit_res, 0)], never)
    # q = p~(a; t_j) for the results above a's hit rank only (Eq 4: none of them contains a)
    pair_pos = pos[pj]
    use = pair_pos < hit_pos[pa]
    if single:
        kept = np.flatnonzero(use)  # one index for the five arrays
        pa, pj, pair_pos = pa.take(kept), pj.take(kept), pair_pos.take(kept)  # still ordered by (assessment, rank)
        q = x.nav(targets.take(kept), nodes.take(kept))
        del kept
    else:
        pa, pj, pair_pos = pa[use], pj[use], pair_pos[use]  # still ordered by (assessment, rank)
        item_use = use[pair_of_item]
        renumber = np.cumsum(use) - 1
        p = x.nav(targets[item_use], nodes[item_use])
        q = np.bincount(renumber[pair_of_item[item_use]], weights=p, minlength=len(pa)) / n_items[pj]
    q = np.clip(q, 0.0, 1.0, out=q if q.flags.writeable and q.dtype == float else None)
    # Every cut-off at once, by events along the ranking (position p changes cut-offs k > p):
    # each result j above a's hit rank multiplies a's survival S by (1 - q) (E[Near-misses] grows
    # by rel * S_before * q); a's hit at rank m moves rel * (1 - S) out of the near-misses
    # and adds rel * S to E[Hits].  Misses follow: rel of the not-hit minus their near-misses.
    # Survival = a product of (1 - q) along each assessment's events: cumulated logs, with the
    # factors q = 1 (log 0) counted apart.
    found, s_hit = survival(pa, q, n)
    topic_a = x.assess_topic
    hit = hit_res >= 0
    hp, ht, ha = hit_pos[hit], topic_a[hit], topic_a[pa]
    ev_rows, ev_pos = np.concatenate([ha, ht]), np.concatenate([pair_pos, hp])
    hit_share = s_hit[hit] / n_items[hit_res[hit]]
    buckets: dict = {}  # the event grid of each list of cut-offs, shared by the relevance vectors that use it
    for out, rel, ks in zip(outs, rels, cutoffs):
        key = ks.tobytes()
        if key not in buckets:
            buckets[key] = _Buckets([(ev_rows, ev_pos), (ht, hp), (ht, hp)], T, ks)
        weights = [np.concatenate([rel[pa] * found, -rel[hit] * (1.0 - s_hit[hit])]), rel[hit] * hit_share, rel[hit]]
        out["near_misses"], out["hits"], hit_rel = buckets[key].cumulated(weights)
        total = np.bincount(topic_a, weights=rel, minlength=T)
        out["misses"] = total[:, None] - hit_rel - out["near_misses"]
        out["recall_base"] = out["hits"] + out["near_misses"] + out["misses"]
    return outs


def _curves_in_one_pass(
    x: ESRInputs,
    table,
    cutoffs: list[np.ndarray],
    rels: list[np.ndarray],
    outs: list[dict[str, np.ndarray]],
    pos: np.ndarray,
) -> list[dict[str, np.ndarray]]:
    """:func:`_curves` for element runs whose navigation is a transition table: the events (results above each
    assessment's hit that lead to it), the survival and the bucketed sums in one pass in C, with no array per
    (assessment, result) pair.  The same quantities as the numpy path, summed in another order."""
    r = x.ranked
    T = len(r.topics)
    grouped, first, counts = _groups(x)
    g_node = r.item_node.take(grouped)
    g_pos = pos.take(grouped)
    states = table.states
    a_state, g_state = states(x.assess_node), states(g_node)
    width = table.width
    if table.dense is not None:
        args = (True, table.dense.reshape(-1), None, None)  # (a view: no copy)
    else:
        args = (False, table.data, table.indices, table.indptr)
    L = int(g_pos.max()) + 1 if len(g_pos) else 1
    modes, orders = [], []
    for rel, ks in zip(rels, cutoffs):
        order, bucket_of = _bucket_of(ks, L)
        modes.append((rel, bucket_of, len(ks)))
        orders.append(order)
    grids = _ACCUMULATE(
        x.assess_topic, x.assess_node, a_state, first, counts, g_node, g_pos, g_state, *args, width, T, modes
    )
    topic_a = x.assess_topic
    for out, rel, grid, order in zip(outs, rels, grids, orders):
        out["near_misses"], out["hits"], hit_rel = _cumulate(grid, order)
        total = np.bincount(topic_a, weights=rel, minlength=T)
        out["misses"] = total[:, None] - hit_rel - out["near_misses"]
        out["recall_base"] = out["hits"] + out["near_misses"] + out["misses"]
    return outs
