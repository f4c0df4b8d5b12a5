"""A per-entry transcription of the INEX 2002-2005 element measures (inex-2002 GRP, inex-2003 GRPng, XCG's gains)
and of PRUM's navigation links, from lists of ``(docid, node)``: the oracle the package's array kernels
(:mod:`graphsr.measures.xcg.arrays`, :func:`graphsr.measures.prum.links.item_links`) are compared with, number for
number (the same floating-point operations in the same order).  It reads as the definitions do (Kazai-Lalmas
A.1-A.3, PRUM Eq 9 and Hypothesis 2.2): one entry, one node at a time.
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from graphsr.core.document import DocumentTree
from graphsr.core.quantisation import quantise_dimension
from graphsr.measures.ideal import RecallBase
from graphsr.measures.xcg.kernel import ideal_gain_vector as _ideal_gain_vector

_EPS = 1e-12


def subtree_last(doc: DocumentTree) -> np.ndarray:
    """For each node (pre-order), the index of the last node of its subtree."""
    depth = doc.depth
    n = len(depth)
    last = np.arange(n, dtype=np.int64)
    stack: list[int] = []
    for i in range(n):
        d = depth[i]
        while stack and depth[stack[-1]] >= d:
            last[stack.pop()] = i - 1
        stack.append(i)
    for j in stack:
        last[j] = n - 1
    return last


def node_links(
    nav: str,
    e: int,
    xs: np.ndarray,
    doc: DocumentTree,
    last: np.ndarray | None = None,
    seen: np.ndarray | None = None,
    routes: Callable | None = None,
) -> np.ndarray:
    r""":math:`P(e \to x)` from node ``e`` to nodes ``xs`` of the same document.

    ``structural`` (PRUM Eq 9): ``len(e)/len(x)`` if ``x`` contains ``e``,
    ``len(x)/len(e)`` if ``e`` contains ``x``, 1 for ``x = e`` (and for
    nested elements that both have no text), 0 otherwise; ``none``: 1 for
    ``x = e`` only; ``model``: ``seen[x]`` (the SR seen probability
    ``1 - pi(S(x))``); ``routes``: ``routes(x)`` (the learned ``p~(x; e)``).
    """
    same = xs == e
    if nav == "none":
        return same.astype(float)
    if nav == "structural":
        length = doc.length
        le, lx = float(length[e]), length[xs].astype(float)
        up = (xs < e) & (e <= last[xs])  # x contains e
        down = (xs > e) & (xs <= last[e])  # e contains x
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(up, np.where(lx > 0, le / lx, 1.0), 0.0)
            p = np.where(down, (lx / le) if le > 0 else 1.0, p)
        return np.where(same, 1.0, p)
    if nav == "model":
        return np.where(same, 1.0, seen[xs])
    return np.where(same, 1.0, routes(xs))


def entry_links(
    entries: list[list[tuple[str, int]]],
    ideal: list[tuple[str, int]],
    nav: str,
    documents: Mapping[str, DocumentTree],
    seen_of: Callable | None = None,
    routes_of: Callable | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's ``(ptr, ideal, prob)`` (:func:`~graphsr.measures.prum.kernel.prum_by_recall`).

    Parameters
    ----------
    entries : list of list of (docid, node)
        The ranked entries in rank order, each a tree result's nodes.
    ideal : list of (docid, node)
        The ideal elements; their position is their number.
    nav : str
        ``structural``, ``none``, ``model`` or ``routes``.
    seen_of : callable, optional
        ``seen_of(docid)`` -> per-node SR seen probability (``nav='model'``).
    routes_of : callable, optional
        ``routes_of(docid, e)`` -> function of target nodes giving ``p~(x; e)`` (``nav='routes'``).
    """
    by_doc: dict[str, tuple[list[int], list[int]]] = {}
    for k, (docid, node) in enumerate(ideal):
        nodes, ks = by_doc.setdefault(docid, ([], []))
        nodes.append(node)
        ks.append(k)
    arrays = {d: (np.array(n, dtype=np.int64), np.array(k, dtype=np.int64)) for d, (n, k) in by_doc.items()}
    lasts: dict[str, np.ndarray] = {}
    seens: dict[str, np.ndarray] = {}
    ptr = [0]
    out_k: list[np.ndarray] = []
    out_p: list[np.ndarray] = []
    for entry in entries:
        docid = entry[0][0]
        if docid in arrays:
            xs, ks = arrays[docid]
            doc = documents[docid]
            miss = np.ones(len(xs))
            for _, e in entry:
                last = seen = routes = None
                if nav == "structural":
                    last = lasts.get(docid)
                    if last is None:
                        last = lasts[docid] = subtree_last(doc)
                elif nav == "model":
                    seen = seens.get(docid)
                    if seen is None:
                        seen = seens[docid] = seen_of(docid)
                elif nav == "routes":
                    routes = routes_of(docid, e)
                miss *= 1.0 - node_links(nav, e, xs, doc, last, seen, routes)
            p = 1.0 - miss
            hit = p > 0
            out_k.append(ks[hit])
            out_p.append(p[hit])
            ptr.append(ptr[-1] + int(hit.sum()))
        else:
            ptr.append(ptr[-1])
    cat = lambda xs, dt: np.concatenate(xs) if xs else np.zeros(0, dtype=dt)
    return np.array(ptr, dtype=np.int64), cat(out_k, np.int64), cat(out_p, float)


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
    r = sum(
        float(topic.base.q[k])
        for k, key in enumerate(zip(topic.base.docid, topic.base.node.tolist()))
        if key not in retrieved
    )
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
        rel = [
            k
            for k in rel
            if not topic.relevant_children(b.docid[k], int(b.node[k]))
            and not _has_relevant_descendant(topic, b.docid[k], int(b.node[k]))
        ]
    return float(sum(quantise_dimension([grades.get((b.docid[k], int(b.node[k])), (0, 0))[0]], quant)[0] for k in rel))


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
    return _ideal_gain_vector(topic.base)
