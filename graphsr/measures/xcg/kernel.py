r"""The INEX 2002-2005 element measures of one topic: inex-2002 (GRP), inex-2003 (GRPng) and XCG.

Inputs: the ranked entries (a tree result's nodes in run order; an element
run has one node per entry), the topic's full recall-base with quantised
values and its ideal elements (:class:`~graphsr.measures.ideal.RecallBase`),
and the documents (element lengths: characters of text).

* **GRP** (inex-2002; Kazai-Lalmas A.1 Eq 1, PRUM paper C.1): Raghavan's
  precall with quantised values.  For recall ``x`` the user wants
  ``T = x n`` of relevance, ``n`` the sum of the quantised values of the full
  recall-base; at the first rank ``l`` where the cumulated value reaches
  ``T``, ``precision = T / (T + j + s i / (r + 1))`` with ``j`` the
  irrelevance (``sum 1 - q``) ranked before ``l``, ``r`` and ``i`` the
  relevance and irrelevance of rank ``l`` and ``s = T - f_{l-1}`` what is
  still needed from it.  A value the ranked list does not reach is sought in
  the rest of the collection as one last rank (the PRUM paper's Example 2).
* **GRPng** (inex-2003; Kazai-Lalmas A.2 Eq 3-5): after rank ``k``,
  ``recall = sum_i q_e(e_i) |c_i'| / |c_i| / Rel`` and ``precision = sum_i
  q_s(s_i) |c_i'| / sum_i |c_i'|``, ``|c_i'|`` the characters of ``c_i`` no
  earlier result covered; ``Rel`` sums ``q_e`` over the relevant elements
  without relevant descendants (``Rel^U`` of [4]; ``base=all``: over every
  relevant element, the PRUM paper's C.2).  ``GRPng[x]`` is the highest
  precision at a rank whose recall reaches ``x`` (0 if none does).
* **XCG** (Kazai-Lalmas A.3 Eq 6-9): the gain of a result is its
  quantised value if nothing of it was seen, ``(1 - alpha) q`` if it was
  seen in full (it or an ancestor ranked earlier), and ``alpha sum_j rv(c_j)
  |c_j| / |c| + (1 - alpha) q`` over its relevant children if only some
  descendants were (Eq 8, recursively); then the results inside the subtree
  of an ideal element ``y`` (``y`` included) earn together at most ``q(y)``
  (Eq 9), each taking what is left.  ``xCG@k`` cumulates the gains;
  ``nxCG@k`` divides by the ideal gain vector (the ideal elements' values in
  decreasing order, cumulated); effort-precision at gain-recall ``x``,
  ``ep[x] = i_ideal / i_run`` (the ranks at which the ideal and the run
  reach ``x`` times the total ideal gain; 0 if the run never does), and
  ``MAep = sum ep(gr_i) (gr_i - gr_{i-1})`` over the ranks ``i`` where the
  run gains -- the average of ``ep`` over gain-recall, as AP averages
  precision over recall (so an ideal run scores 1).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ...core.document import DocumentTree
from ...core.quantisation import quantise_dimension
from ..ideal import RecallBase

__all__ = ["TopicAssessments", "grp", "grpng_curve", "grpng_total", "xcg_gains", "ideal_gain_vector", "effort_precision",
           "mean_average_ep"]

_EPS = 1e-12


class TopicAssessments:
    """A topic's recall-base indexed by document: ``q``, relevant, ideal and (e, s) of each assessed node."""

    def __init__(self, base: RecallBase, documents: Mapping[str, DocumentTree], grades=None):
        self.base, self.documents = base, documents
        self.by_doc: dict[str, dict[int, int]] = {}
        for k, (d, n) in enumerate(zip(base.docid, base.node.tolist())):
            self.by_doc.setdefault(d, {})[n] = k
        self.grades = grades  # {(docid, node): (e, s)} or None
        self._last: dict[str, np.ndarray] = {}
        self._children: dict[str, dict[int, list[int]]] = {}

    def q(self, docid: str, node: int) -> float:
        k = self.by_doc.get(docid, {}).get(node)
        return 0.0 if k is None else float(self.base.q[k])

    def last(self, docid: str) -> np.ndarray:
        if docid not in self._last:
            from ..prum.links import subtree_last

            self._last[docid] = subtree_last(self.documents[docid])
        return self._last[docid]

    def relevant_children(self, docid: str, node: int) -> list[int]:
        """The assessed relevant elements whose parent is ``node``."""
        if docid not in self._children:
            parent = self.documents[docid].parent
            kids: dict[int, list[int]] = {}
            for n, k in self.by_doc.get(docid, {}).items():
                if self.base.relevant[k] and parent[n] >= 0:
                    kids.setdefault(int(parent[n]), []).append(n)
            self._children[docid] = kids
        return self._children[docid].get(node, [])

    def ideal_above(self, docid: str, node: int) -> int | None:
        """The ideal element that is ``node`` or its nearest ideal ancestor (its recall-base number)."""
        assessed = self.by_doc.get(docid, {})
        parent = self.documents[docid].parent
        n = node
        while n >= 0:
            k = assessed.get(n)
            if k is not None and self.base.ideal[k]:
                return k
            n = int(parent[n])
        return None


def grp(entries: list[list[tuple[str, int]]], topic: TopicAssessments, x: float, u: int) -> float:
    """inex-2002 precision at recall ``x`` (see the module docstring); ``u``: elements not ranked."""
    n = float(topic.base.q.sum())
    if n <= 0:
        return 0.0
    target = x * n
    f = j = 0.0
    for entry in entries:
        qs = [topic.q(d, e) for d, e in entry]
        r, i = sum(qs), sum(1.0 - q for q in qs)
        if f + r >= target - _EPS:
            s = target - f
            return target / (target + j + (s * i / (r + 1.0) if r > 0 else 0.0))
        f += r
        j += i
    retrieved = {(d, e) for entry in entries for d, e in entry}
    r = sum(float(topic.base.q[k]) for k, key in enumerate(zip(topic.base.docid, topic.base.node.tolist()))
            if key not in retrieved)
    i = max(u - r, 0.0)
    s = target - f
    return target / (target + j + s * i / (r + 1.0))


def grpng_curve(entries, topic: TopicAssessments, quant: str = "gen", base: str = "leaves"):
    """inex-2003 recall and precision after each rank (arrays), from the (e, s) assessments."""
    grades = topic.grades or {}
    total = grpng_total(topic, quant, base)
    covered: dict[str, list[tuple[int, int]]] = {}
    num_r = num_p = den_p = 0.0
    recall, precision = [], []
    for entry in entries:
        for d, e in entry:
            doc = topic.documents[d]
            a, z = int(doc.start[e]), int(doc.end[e])
            size = z - a
            ranges = covered.setdefault(d, [])
            new = size - _overlap(ranges, a, z)
            ranges.append((a, z))
            es = grades.get((d, e), (0, 0))
            qe, qs = quantise_dimension([es[0], es[1]], quant).tolist()
            if size > 0:
                num_r += qe * new / size
            num_p += qs * new
            den_p += new
        recall.append(num_r / total if total > 0 else 0.0)
        precision.append(num_p / den_p if den_p > 0 else 0.0)
    return np.array(recall), np.array(precision)


def grpng_total(topic: TopicAssessments, quant: str = "gen", base: str = "leaves") -> float:
    """``Rel`` of :func:`grpng_curve`: the quantised exhaustivity summed over the relevant elements (those
    without relevant descendants for ``base='leaves'``), which depends on the assessments only."""
    grades = topic.grades or {}
    b = topic.base
    rel = [k for k in range(len(b.q)) if b.relevant[k]]
    if base == "leaves":
        rel = [k for k in rel if not topic.relevant_children(b.docid[k], int(b.node[k]))
               and not _has_relevant_descendant(topic, b.docid[k], int(b.node[k]))]
    return float(sum(quantise_dimension([grades.get((b.docid[k], int(b.node[k])), (0, 0))[0]], quant)[0]
                     for k in rel))


def _has_relevant_descendant(topic: TopicAssessments, docid: str, node: int) -> bool:
    last = topic.last(docid)
    b = topic.base
    return any(node < n <= last[node] and b.relevant[k] for n, k in topic.by_doc.get(docid, {}).items())


def _overlap(ranges: list[tuple[int, int]], a: int, z: int) -> int:
    """Characters of [a, z) inside the union of ``ranges``."""
    pieces = sorted((max(a, x), min(z, y)) for x, y in ranges if min(z, y) > max(a, x))
    total, end = 0, a
    for x, y in pieces:
        x = max(x, end)
        if y > x:
            total += y - x
            end = y
    return total


def xcg_gains(entries, topic: TopicAssessments, alpha: float = 1.0) -> np.ndarray:
    """The gain ``rv`` of each rank (Eq 7-9; a tree result earns the sum over its nodes, in run order)."""
    retrieved: dict[str, set[int]] = {}
    budget = {int(k): float(topic.base.q[k]) for k in np.flatnonzero(topic.base.ideal)}
    gains = np.zeros(len(entries))
    for r, entry in enumerate(entries):
        for d, e in entry:
            got = retrieved.setdefault(d, set())
            gain = _rv(topic, d, e, got, alpha)
            y = topic.ideal_above(d, e)
            if y is not None:
                gain = min(gain, budget[y])
                budget[y] -= gain
            gains[r] += gain
            got.add(e)
    return gains


def _rv(topic: TopicAssessments, d: str, e: int, got: set[int], alpha: float) -> float:
    q = topic.q(d, e)
    parent = topic.documents[d].parent
    n = e
    while n >= 0:  # it, or an ancestor, was retrieved: seen in full
        if n in got:
            return (1.0 - alpha) * q
        n = int(parent[n])
    last = topic.last(d)
    if not any(e < g <= last[e] for g in got):  # nothing of it seen
        return q
    length = topic.documents[d].length
    size = float(length[e])
    part = 0.0
    if size > 0:
        for c in topic.relevant_children(d, e):
            part += _rv(topic, d, c, got, alpha) * float(length[c]) / size
    return alpha * part + (1.0 - alpha) * q


def ideal_gain_vector(topic: TopicAssessments) -> np.ndarray:
    """The ideal elements' values in decreasing order, cumulated (xCI)."""
    b = topic.base
    return np.cumsum(np.sort(b.q[b.ideal])[::-1])


def effort_precision(cg: np.ndarray, ci: np.ndarray, x: float) -> float:
    """``ep[x]``: the rank at which the ideal reaches ``x`` times the total ideal gain over the run's rank."""
    if len(ci) == 0 or ci[-1] <= 0:
        return 0.0
    target = x * ci[-1]
    i_ideal = int(np.searchsorted(ci, target - _EPS)) + 1
    reached = np.flatnonzero(cg >= target - _EPS)
    return i_ideal / (int(reached[0]) + 1) if len(reached) else 0.0


def mean_average_ep(cg: np.ndarray, ci: np.ndarray) -> float:
    """``sum ep(gr_i) (gr_i - gr_{i-1})`` over the ranks where the run gains (gain-recall capped at 1)."""
    if len(ci) == 0 or ci[-1] <= 0:
        return 0.0
    total = ci[-1]
    gr = np.minimum(cg / total, 1.0)
    prev = np.r_[0.0, gr[:-1]]
    out = 0.0
    for i in np.flatnonzero(gr > prev + _EPS):
        i_ideal = int(np.searchsorted(ci, cg[i] - _EPS)) + 1 if cg[i] <= total + _EPS else len(ci)
        out += (i_ideal / (i + 1)) * (gr[i] - prev[i])
    return out
