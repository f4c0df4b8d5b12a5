r"""Structural Relevance: SR@k and SRP@k (Ali, Kazai, Consens & Lalmas, CIKM 2008).

For a ranked list of tree results :math:`R = (t_1, \dots, t_k)` (Eq 1):

.. math:: SR(R) = \sum_{i=1}^{k} rel_{tree}(t_i)\,\bigl(1 - p(t_i; R[t_{i-1}])\bigr)

with the redundancy of :math:`t_i` given the trees ranked above it (Eq 4)

.. math:: p(t_i; R[t_{i-1}]) = 1 - \prod_{j<i} \bigl(1 - p(t_i; t_j)\bigr),

the navigation between two trees (Eq 5)

.. math:: p(t_i; t_j) = \frac{\sum_{f \in t_j}\sum_{e \in t_i} p(e; f)}{|t_i|\,|t_j|},

node navigation (Eq 2, 7): :math:`p(e;e) = 1`, :math:`p(e;f) = 0` across
documents, else :math:`p(e;f) = q_e = 1 - \pi(S(e))`; and the relevance of a
tree as the mean relevance of its nodes (Eq 9).  For singletons Eq 4 is
Eq 3.  ``SRP@k = SR@k / k`` (section 6).

Computation
-----------
Writing :math:`n_i = |t_i|`, :math:`Q_i = \sum_{e \in t_i} q_e` and
:math:`I_{ij} = \sum_{e \in t_i \cap t_j} (1 - q_e)`, Eq 5 for two trees of
one document is

.. math:: p(t_i; t_j) = \frac{Q_i}{n_i} + \frac{I_{ij}}{n_i n_j},

so a result's factor :math:`\prod_j (1 - p(t_i;t_j))` is
:math:`(1 - Q_i/n_i)^{c_i - o_i}` times a product over the :math:`o_i`
earlier results that share nodes with it, :math:`c_i` being the number of
earlier results from the same document.  Only overlapping pairs are
enumerated (a sparse product), so element runs cost O(N).
"""

from __future__ import annotations

import numpy as np

from ..base import Measure, register
from ..inputs import RankedNodes

__all__ = ["SR", "SRP", "sr_components", "compute_sr_family"]


class _SR(Measure):
    """Structural Relevance: expected relevance of the top-k results net of redundancy (CIKM'08 Eq 1)."""

    NAME = "SR"
    TOP_LEVEL = True
    DESCRIPTION = "Structural Relevance (CIKM'08 Eq 1, 4, 5, 7, 9); no cut-off = the whole ranking"
    CUTOFF = "optional"
    FAMILY = "sr"

    @staticmethod
    def kernel(sr: np.ndarray, k: int | None) -> np.ndarray:
        """SR@k from the per-topic sums of net gains over the first k results."""
        return sr.astype(float)


class _SRP(Measure):
    """Structural Relevance in precision: SR@k / k (CIKM'08 section 6)."""

    NAME = "SRP"
    TOP_LEVEL = True
    DESCRIPTION = "SR@k / k (CIKM'08 section 6); equals P@k without navigation and binary relevance"
    CUTOFF = "required"
    FAMILY = "sr"
    BOUNDS = (0.0, 1.0)

    @staticmethod
    def kernel(sr: np.ndarray, k: int) -> np.ndarray:
        """SRP@k = SR@k / k."""
        return sr / k


register(_SR)
register(_SRP)

SR = _SR()
SRP = _SRP()


def sr_components(r: RankedNodes) -> tuple[np.ndarray, np.ndarray]:
    """Per result: tree relevance (Eq 9) and redundancy given the results above it (Eq 4).

    Returns
    -------
    rel_tree, redundancy : ndarray of shape (m,)
        ``SR@k`` of a topic is ``sum(rel_tree * (1 - redundancy))`` over
        its first k results.

    Examples
    --------
    Example 4.4 of the SR paper: ``p(e;f) = 0.5``, t_l = {1,2,3,4,14,15},
    t_r = {1,2,7,14,17}; the redundancy of t_r is 0.55 (docs/errata.md;
    the paper prints 0.45):

    >>> tl = [(e, 1.0, 0.5) for e in (1, 2, 3, 4, 14, 15)]
    >>> tr = [(e, 1.0, 0.5) for e in (1, 2, 7, 14, 17)]
    >>> rel, red = sr_components(RankedNodes.from_lists({"q": [("book", tl), ("book", tr)]}))
    >>> red.round(6).tolist()
    [0.0, 0.55]
    """
    m = r.num_results
    if m == 0:
        return np.zeros(0), np.zeros(0)
    res = r.item_result
    n = np.bincount(res, minlength=m).astype(float)
    rel_tree = np.bincount(res, weights=r.rel, minlength=m) / n
    a = np.bincount(res, weights=r.seen, minlength=m) / n  # Q_i / n_i

    # c_i: earlier results of the same (topic, document)
    group = _codes(r.result_topic, r.result_doc)
    order = np.argsort(group, kind="stable")
    g_sorted = group[order]
    starts = np.r_[0, np.flatnonzero(np.diff(g_sorted)) + 1]
    run_start = np.repeat(starts, np.diff(np.r_[starts, m]))
    c = np.empty(m, dtype=np.int64)
    c[order] = np.arange(m) - run_start

    overlap_i, overlap_val = _overlaps(r, n, a)
    o = np.bincount(overlap_i, minlength=m)
    with np.errstate(invalid="ignore"):
        factor = np.power(np.clip(1.0 - a, 0.0, 1.0), c - o)
    if len(overlap_i):
        np.multiply.at(factor, overlap_i, np.clip(overlap_val, 0.0, 1.0))
    factor = np.clip(factor, 0.0, 1.0)
    return rel_tree, 1.0 - factor


def _codes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One integer code per distinct row of two integer columns, in the rows' sorted order (packed into one
    integer per row and sorted once when that fits in 63 bits, as it does for graphsr's codes)."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    if len(a) and a.min() >= 0 and b.min() >= 0 and (int(a.max()) + 1) * (int(b.max()) + 1) < 1 << 63:
        _, inv = np.unique(a * (int(b.max()) + 1) + b, return_inverse=True)
        return inv.ravel()
    _, inv = np.unique(np.stack([a, b], axis=1), axis=0, return_inverse=True)
    return inv.ravel()


def _overlaps(r: RankedNodes, n: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For pairs j < i of one topic sharing nodes: (i, 1 - p(t_i; t_j))."""
    import scipy.sparse as sp

    m = r.num_results
    item_topic = r.result_topic[r.item_result]
    node = _codes(item_topic, r.item_node)
    u = int(node.max()) + 1 if len(node) else 0
    counts = np.bincount(node, minlength=u)
    shared = counts[node] > 1
    if not shared.any():
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    res, nd, w = r.item_result[shared], node[shared], 1.0 - r.seen[shared]
    incidence = sp.csr_matrix((np.ones(len(res)), (res, nd)), shape=(m, u))
    weighted = sp.csr_matrix((w, (res, nd)), shape=(m, u))
    g = (weighted @ incidence.T).tocoo()
    keep = g.row > g.col
    i, j, inter = g.row[keep], g.col[keep], g.data[keep]
    return i.astype(np.int64), 1.0 - a[i] - inter / (n[i] * n[j])


def compute_sr_family(measures: list[Measure], r: RankedNodes) -> dict[Measure, np.ndarray]:
    """Per-topic values of SR/SRP measures, sharing one pass over the ranking.

    Returns
    -------
    dict of Measure to ndarray of shape (len(r.topics),)
        A topic with no results scores 0.
    """
    rel_tree, red = sr_components(r)
    gain = rel_tree * (1.0 - red)
    pos = r.result_positions()
    t = len(r.topics)
    out: dict[Measure, np.ndarray] = {}
    for m in measures:
        k = m.cutoff
        mask = slice(None) if k is None else pos < k
        sr = np.bincount(r.result_topic[mask], weights=gain[mask], minlength=t)
        out[m] = m.kernel(sr, k)
    return out
