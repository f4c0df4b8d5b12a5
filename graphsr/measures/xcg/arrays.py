"""The INEX 2002-2005 element measures of one topic on arrays: :func:`grp_items` (inex-2002),
:func:`grpng_items` (inex-2003) and :func:`xcg_item_gains` (XCG's gains) from a topic's retrieved nodes in rank
order (:class:`~graphsr.measures.tree_arrays.TopicItems`) and its recall-base
(:class:`~graphsr.measures.ideal.RecallBase`), both arrays (:mod:`.kernel` has the definitions).  The tests
compare them with a per-entry transcription of the definitions (``tests/inex_reference.py``): the same
floating-point operations in the same order, equality, not closeness.

What one result does depends on what earlier results of the same document retrieved (characters already
seen, elements already credited); those relations are computed for every pair of a topic's results in one
document at once (a run retrieves few elements of one document for one topic).
"""

from __future__ import annotations

import numpy as np

from ...core.quantisation import quantise_dimension
from ..ideal import RecallBase
from .kernel import grpng_total

__all__ = ["TopicArrays", "grp_items", "grpng_items", "xcg_item_gains"]

_EPS = 1e-12


class TopicArrays:
    """A topic's recall-base keyed by the run's document codes and flat node indices
    (:class:`~graphsr.measures.tree_arrays.NodeArrays`): per assessed element its ``q``, (e, s), whether it is
    relevant and ideal."""

    def __init__(self, base: RecallBase, doc_codes: dict, arrays):
        b = self.base = base
        code = b.doc_codes(doc_codes)
        inside = np.isin(code, arrays.codes) if len(code) else np.zeros(0, dtype=bool)
        self.key = np.full(len(code), -1, dtype=np.int64)  # flat index of each assessed element (-1: not in the run)
        self.key[inside] = arrays.index(code[inside], b.node[inside].astype(np.int64))
        order = np.argsort(self.key, kind="stable")
        self.sorted_key, self.sorted_at = self.key[order], order
        self.q = b.q.astype(float)
        self.e, self.s = b.e, b.s
        self._totals: dict = {}

    def lookup(self, flat: np.ndarray) -> np.ndarray:
        """The recall-base position of each flat node index (-1: not assessed)."""
        if len(self.sorted_key) == 0 or len(flat) == 0:
            return np.full(len(flat), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.sorted_key, flat), len(self.sorted_key) - 1)
        return np.where(self.sorted_key[pos] == flat, self.sorted_at[pos], -1)


def _entry_sums(entry: np.ndarray, values: np.ndarray, entries: int) -> np.ndarray:
    """Per entry, the sum of its items' values, added in item order from 0.0 (as a Python loop adds them)."""
    return np.bincount(entry, weights=values, minlength=entries) if len(entry) else np.zeros(entries)


def grp_items(entry, flat, entries: int, topic: TopicArrays, x: float, u: int) -> float:
    """:func:`~.kernel.grp` from a topic's items (``flat``: their flat node indices)."""
    n = float(topic.base.q.sum())
    if n <= 0:
        return 0.0
    target = x * n
    at = topic.lookup(flat)
    qs = np.where(at >= 0, topic.q[np.maximum(at, 0)], 0.0)
    r, i = _entry_sums(entry, qs, entries), _entry_sums(entry, 1.0 - qs, entries)
    f = np.concatenate(([0.0], np.cumsum(r)))  # f before each entry, added one entry at a time
    j = np.concatenate(([0.0], np.cumsum(i)))
    reach = np.flatnonzero(f[:-1] + r >= target - _EPS)
    if len(reach):
        k = int(reach[0])
        s = target - f[k]
        return target / (target + j[k] + (s * i[k] / (r[k] + 1.0) if r[k] > 0 else 0.0))
    retrieved = np.zeros(len(topic.q), dtype=bool)
    retrieved[at[at >= 0]] = True
    left = np.cumsum(topic.q[~retrieved])  # summed in recall-base order, one by one, as the reference sums them
    rest = float(left[-1]) if len(left) else 0
    i_rest = max(u - rest, 0.0)
    s = target - f[-1]
    return target / (target + j[-1] + s * i_rest / (rest + 1.0))


def _earlier_pairs(flat: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair ``(i, j)`` of items of one document with ``j`` ranked before ``i`` (items in rank order)."""
    n = len(flat)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    by_doc = np.argsort(doc, kind="stable")  # a document's items together, in rank order
    d = doc[by_doc]
    first = np.flatnonzero(np.r_[True, d[1:] != d[:-1]])
    size = np.diff(np.r_[first, n])
    rank = np.arange(n) - np.repeat(first, size)  # place among the document's items
    i = np.repeat(np.arange(n), rank)  # item (in by_doc order) with one pair per earlier item
    j = i - (np.arange(len(i)) - np.repeat(np.cumsum(rank) - rank, rank)) - 1
    return by_doc[i], by_doc[j]


def grpng_items(
    entry,
    flat,
    doc,
    entries: int,
    topic: TopicArrays,
    arrays,
    quant: str = "gen",
    base: str = "leaves",
    total: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~.kernel.grpng_curve` from a topic's items: recall and precision after each entry.

    ``total`` (the quantised exhaustivity of the relevant base, which depends on the assessments only) is
    computed by :func:`~.kernel.grpng_total` when not given."""
    if total is None:  # once per topic and parameters, kept with the topic's arrays for the next runs
        if (quant, base) not in topic._totals:
            topic._totals[quant, base] = grpng_total(topic.base, quant, base)
        total = topic._totals[quant, base]
    a, z = arrays.start[flat], arrays.end[flat]
    size = z - a
    # characters of each item that earlier items of its document covered: the union of their ranges within it
    i, j = _earlier_pairs(flat, doc)
    lo, hi = np.maximum(a[i], a[j]), np.minimum(z[i], z[j])
    keep = hi > lo
    i, lo, hi = i[keep], lo[keep], hi[keep]
    width = np.int64(int(z.max()) + 1) if len(z) else np.int64(1)
    order = np.lexsort((lo, i))
    i, lo, hi = i[order], lo[order] + i[order] * width, hi[order] + i[order] * width  # items apart on one line
    reach = np.maximum.accumulate(hi) if len(hi) else hi
    before = np.r_[np.iinfo(np.int64).min, reach[:-1]]
    piece = np.maximum(hi - np.maximum(lo, before), 0)
    overlap = (
        np.bincount(i, weights=piece, minlength=len(flat)).astype(np.int64) if len(i) else np.zeros(len(flat), np.int64)
    )
    new = size - overlap
    at = topic.lookup(flat)
    e = np.where(at >= 0, topic.e[np.maximum(at, 0)], 0)
    s = np.where(at >= 0, topic.s[np.maximum(at, 0)], 0)
    qe, qs = quantise_dimension(e, quant), quantise_dimension(s, quant)
    with np.errstate(divide="ignore", invalid="ignore"):
        r_part = np.where(size > 0, qe * new / size, 0.0)
    last = np.searchsorted(entry, np.arange(entries), side="right") - 1  # each entry's last item
    num_r = np.cumsum(r_part)[last]  # running sums over the items, read after each entry, as the reference reads
    num_p = np.cumsum(qs * new)[last]
    den_p = np.cumsum(new.astype(float))[last]
    recall = num_r / total if total > 0 else np.zeros(entries)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(den_p > 0, num_p / den_p, 0.0)
    return recall, precision


def xcg_item_gains(entry, flat, doc, entries: int, topic: TopicArrays, arrays, alpha: float = 1.0) -> np.ndarray:
    """:func:`~.kernel.xcg_gains` from a topic's items: the gain of each entry (Eq 7-9)."""
    n = len(flat)
    gains = np.zeros(n)
    if n == 0:
        return np.zeros(entries)
    last, parent = arrays.last, arrays.parent
    at = topic.lookup(flat)
    q = np.where(at >= 0, topic.q[np.maximum(at, 0)], 0.0)
    i, j = _earlier_pairs(flat, doc)
    fi, fj = flat[i], flat[j]
    full = np.zeros(n, dtype=bool)  # it, or an ancestor, was retrieved before: seen in full
    full[i[(fj <= fi) & (fi <= last[fj])]] = True
    below = np.zeros(n, dtype=bool)  # some descendant was retrieved before
    below[i[(fi < fj) & (fj <= last[fi])]] = True
    gains[full] = (1.0 - alpha) * q[full]
    gains[~full & ~below] = q[~full & ~below]
    partial = np.flatnonzero(~full & below)
    if len(partial):
        gains[partial] = _partial_gains(partial, flat, i, j, topic, arrays, alpha)
    # Eq 9: the results inside an ideal element's subtree earn together at most its value, in rank order
    y = _ideal_above(flat, topic, parent)
    taken = gains.copy()
    has = np.flatnonzero(y >= 0)
    if len(has):
        order = has[np.argsort(y[has], kind="stable")]  # per ideal element, its items in rank order
        ys = y[order]
        first = np.flatnonzero(np.r_[True, ys[1:] != ys[:-1]])
        ends = np.r_[first[1:], len(order)]
        alone = first[ends - first == 1]  # the usual case: one result in an ideal element's subtree
        taken[order[alone]] = np.minimum(gains[order[alone]], topic.q[ys[alone]])
        for a, b in zip(first[ends - first > 1].tolist(), ends[ends - first > 1].tolist()):
            taken[order[a:b]] = _clamped(gains[order[a:b]], float(topic.q[ys[a]]))
    return _entry_sums(entry, taken, entries)


def _clamped(g: np.ndarray, budget: float) -> np.ndarray:
    """What each of ``g`` takes in turn from ``budget``: ``min(g, what is left)``, left by subtracting one at a
    time (the budget before each is the running difference until it runs out, then nothing is left)."""
    left = np.subtract.accumulate(np.r_[budget, g])[:-1]  # the budget before each, while it lasts
    out = g.copy()
    over = np.flatnonzero(g >= left)
    if len(over):
        k = int(over[0])
        out[k] = left[k]
        out[k + 1 :] = 0.0
    return out


def _ideal_above(flat: np.ndarray, topic: TopicArrays, parent: np.ndarray) -> np.ndarray:
    """The recall-base position of the ideal element that is each node or its nearest ideal ancestor (-1: none)."""
    ideal = topic.base.ideal
    out = np.full(len(flat), -1, dtype=np.int64)
    cur = flat.copy()
    open_ = np.arange(len(flat))
    while len(open_):
        at = topic.lookup(cur[open_])
        hit = (at >= 0) & ideal[np.maximum(at, 0)]
        out[open_[hit]] = at[hit]
        nxt = parent[cur[open_]]
        keep = ~hit & (nxt >= 0)
        open_ = open_[keep]
        cur[open_] = nxt[keep]
    return out


def _partial_gains(partial, flat, i, j, topic: TopicArrays, arrays, alpha: float) -> np.ndarray:
    """Eq 8 for the items some of whose descendants were retrieved before: ``alpha sum_c rv(c) |c| / |e| +
    (1 - alpha) q(e)`` over the relevant children ``c`` (recursively, each judged by what was retrieved before
    the item), evaluated level by level from the deepest, adding children in document order."""
    last, length = arrays.last, arrays.length
    b = topic.base
    relevant_flat = topic.key[(topic.key >= 0) & b.relevant]
    rel_sorted = np.sort(relevant_flat)
    kids_parent = arrays.parent[rel_sorted]  # the relevant assessed elements, by parent then document order
    by_parent = np.argsort(kids_parent, kind="stable")
    kid_parent, kid = kids_parent[by_parent], rel_sorted[by_parent]
    # what each partial item saw: the nodes retrieved before it in its document (pairs grouped by item)
    by_item = np.argsort(i, kind="stable")
    pair_item, pair_seen = i[by_item], flat[j[by_item]]
    # levels of (item, node, parent entry): level 0 is the item itself
    levels = [(partial, flat[partial], np.full(len(partial), -1, dtype=np.int64))]
    states = []
    while True:
        items, nodes, up = levels[-1]
        if len(levels) == 1:
            state = np.full(len(items), 2, dtype=np.int8)  # 0 none, 1 full, 2 partial
        else:  # a node below a partial one: full if retrieved before itself, partial if something below it was
            lo = np.searchsorted(pair_item, items, side="left")
            count = np.searchsorted(pair_item, items, side="right") - lo
            which = np.repeat(np.arange(len(items)), count)
            seen = pair_seen[
                np.repeat(lo, count) + (np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count))
            ]
            v = nodes[which]
            full = np.bincount(which, weights=seen == v, minlength=len(items)) > 0
            inside = np.bincount(which, weights=(seen > v) & (seen <= last[v]), minlength=len(items)) > 0
            state = np.where(full, 1, np.where(inside, 2, 0)).astype(np.int8)
        states.append(state)
        go = np.flatnonzero((state == 2) & (length[nodes] > 0))
        lo = np.searchsorted(kid_parent, nodes[go], side="left")
        count = np.searchsorted(kid_parent, nodes[go], side="right") - lo
        if count.sum() == 0:
            break
        src = np.repeat(go, count)
        pick = np.repeat(lo, count) + (np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count))
        levels.append((items[src], kid[pick], src))
    # from the deepest level up: rv of each (item, node)
    value = None
    for depth in range(len(levels) - 1, -1, -1):
        items, nodes, up = levels[depth]
        state = states[depth]
        at = topic.lookup(nodes)
        qv = np.where(at >= 0, topic.q[np.maximum(at, 0)], 0.0)
        rv = np.where(state == 1, (1.0 - alpha) * qv, qv)
        part = np.zeros(len(items))
        if value is not None:  # children added one at a time in document order from 0.0, as the reference adds
            child_nodes, child_up, child_rv = value
            part = np.bincount(
                child_up, weights=child_rv * length[child_nodes] / length[nodes][child_up], minlength=len(items)
            )
        rv = np.where(state == 2, alpha * part + (1.0 - alpha) * qv, rv)
        value = (nodes, up, rv)
    return value[2]
