"""Ideal recall-bases: the elements a user wants, chosen from overlapping assessments (Kazai-Lalmas §4.1).

INEX assessments are overlapping: a relevant paragraph's section and
article are assessed too.  An ideal recall-base keeps, per document, the
non-overlapping elements a user model prefers, from each element's
quantised value ``q`` (:mod:`graphsr.core.quantisation`); the rest of the
full recall-base are near-misses.

* ``assessed``: every assessed element with ``q > 0`` (they may overlap).
* ``kazai`` (Kazai, Lalmas and de Vries 2004; §4.1): on each *relevant
  path* -- from the root to a relevant element without relevant
  descendants -- the element of highest ``q`` is selected (the deeper one on
  ties; none if every ``q`` on the path is 0); then of two overlapping
  selected elements the one on the shorter path (the ancestor) is kept.
* ``piwowarski`` (EvalJ's PRUM; §4.1): ``x`` is ideal iff ``q(x) > 0``,
  every descendant ``z`` has ``q(z) < q(x)``, and every ancestor ``y`` has
  ``q(x) >= q(y)`` or some descendant ``z`` of ``y`` with ``q(z) >= q(y)``.

Only assessed elements take part: elements not assessed have ``q = 0`` and
are not relevant.

Examples
--------
Tree b) of the Kazai-Lalmas paper's Fig 2 (nodes 1..5: a, a/bdy, a/bdy/sec[1],
a/bdy/sec[2], a/bdy/sec[2]/p[1]; SOG values 0.25, 0.75, 0.9, 0.1, 0.25):

>>> parent = np.array([-1, 0, 1, 1, 3])
>>> q = np.array([0.25, 0.75, 0.9, 0.1, 0.25])
>>> (np.flatnonzero(ideal_mask(parent, q, q > 0, "kazai")) + 1).tolist()
[2]
>>> (np.flatnonzero(ideal_mask(parent, q, q > 0, "piwowarski")) + 1).tolist()
[3, 5]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..errors import GraphsrInputError
from ..core.document import DocumentTree
from ..core.quantisation import quantise

__all__ = ["IDEAL_METHODS", "ideal_mask", "RecallBase", "element_values", "recall_base", "recall_bases"]

IDEAL_METHODS = ("assessed", "kazai", "piwowarski")


def ideal_mask(parent: np.ndarray, q: np.ndarray, relevant: np.ndarray, method: str) -> np.ndarray:
    """Which of a document's assessed elements are ideal.

    Parameters
    ----------
    parent : array of int, shape (n,)
        The parent of each assessed element among the assessed elements (-1
        if none of its ancestors is assessed); ancestors come before
        descendants.
    q : array of float, shape (n,)
        Quantised value of each.
    relevant : array of bool, shape (n,)
        Assessed as relevant (an (e, s) pair other than (0, 0), or a value > 0).
    method : {'assessed', 'kazai', 'piwowarski'}

    Returns
    -------
    array of bool, shape (n,)
    """
    n = len(q)
    if method == "assessed":
        return q > 0
    if method not in IDEAL_METHODS:
        raise ValueError(f"method must be one of {IDEAL_METHODS}, got {method!r}")
    ancestors = [_ancestors(parent, v) for v in range(n)]
    desc_max = np.full(n, -np.inf)  # highest q among each element's (assessed) descendants
    has_relevant_desc = np.zeros(n, dtype=bool)
    for v in range(n):
        for a in ancestors[v]:
            desc_max[a] = max(desc_max[a], q[v])
            has_relevant_desc[a] |= bool(relevant[v])
    out = np.zeros(n, dtype=bool)
    if method == "kazai":
        selected = set()
        for leaf in np.flatnonzero(relevant & ~has_relevant_desc):
            path = [*reversed(ancestors[leaf]), leaf]  # root first
            best = max(path, key=lambda v: (q[v], len(ancestors[v])))  # the deeper one on ties
            if q[best] > 0:
                selected.add(best)
        for v in selected:  # of overlapping selections, the shorter path (the ancestor) stays
            if not any(a in selected for a in ancestors[v]):
                out[v] = True
        return out
    for x in range(n):
        if q[x] <= 0 or desc_max[x] >= q[x]:
            continue
        out[x] = all(q[x] >= q[y] or desc_max[y] >= q[y] for y in ancestors[x])
    return out


def _ancestors(parent: np.ndarray, v: int) -> list[int]:
    out = []
    p = int(parent[v])
    while p >= 0:
        out.append(p)
        p = int(parent[p])
    return out


@dataclass
class RecallBase:
    """One topic's full recall-base as arrays: every assessed element, its quantised value, whether it is
    relevant and ideal, its INEX (e, s) pair, and whether it is a relevant *leaf* (relevant, with no relevant
    assessed element below it).

    Elements are grouped by document (documents in first-assessed order, ``doc`` indexing ``doc_names``) and
    in document order within one.
    """

    doc_names: list
    doc: np.ndarray
    node: np.ndarray
    q: np.ndarray
    relevant: np.ndarray
    ideal: np.ndarray
    e: np.ndarray  # exhaustivity (0 for assessments of values)
    s: np.ndarray  # specificity (0 for assessments of values)
    leaf: np.ndarray

    @property
    def docid(self) -> list:
        """The document of each element."""
        return [self.doc_names[d] for d in self.doc.tolist()]

    def doc_codes(self, codes: Mapping[str, int]) -> np.ndarray:
        """Each element's document as a code of ``codes`` (-1: a document ``codes`` lacks)."""
        return (
            np.array([codes.get(d, -1) for d in self.doc_names], dtype=np.int64)[self.doc]
            if len(self.doc)
            else np.zeros(0, dtype=np.int64)
        )

    def ideal_elements(self) -> list[tuple[str, int]]:
        """The ideal elements, as ``(docid, node)``."""
        return [(self.doc_names[self.doc[k]], int(self.node[k])) for k in np.flatnonzero(self.ideal)]

    def near_misses(self) -> list[tuple[str, int]]:
        """The rest of the full recall-base: relevant elements that are not ideal."""
        return [(self.doc_names[self.doc[k]], int(self.node[k])) for k in np.flatnonzero(self.relevant & ~self.ideal)]


def element_values(
    judged: Mapping[tuple[str, int], float], grades: Mapping[tuple[str, int], tuple] | None, quant: str | None
) -> dict[tuple[str, int], tuple[float, bool]]:
    """``(q, relevant)`` of each assessed element: ``q`` its quantised value (the assessed value itself
    without ``quant``, for graded assessments), ``relevant`` whether it was assessed relevant."""
    if grades is None:
        if quant is not None:
            raise GraphsrInputError(
                f"quant={quant} maps INEX (e, s) assessments; these assessments give one "
                "relevance value per element (leave quant out)"
            )
        return {key: (float(v), v > 0) for key, v in judged.items()}
    keys = [key for key in judged if key in grades]
    pairs = np.array([grades[key] for key in keys], dtype=np.int64).reshape(-1, 2)
    q = quantise(pairs, quant or "gen")
    return {key: (float(v), bool(pair.any())) for key, v, pair in zip(keys, q, pairs)}


def recall_base(
    judged: Mapping[tuple[str, int], float],
    grades,
    documents: Mapping[str, DocumentTree],
    quant: str | None,
    method: str,
) -> RecallBase:
    """One topic's :class:`RecallBase` with the ideal elements of ``method`` (:data:`IDEAL_METHODS`).

    ``judged`` and ``grades`` are keyed by ``(docid, node index)``.
    """
    values = element_values(judged, grades, quant)
    by_doc: dict[str, list[int]] = {}
    for docid, node in values:
        by_doc.setdefault(docid, []).append(node)
    docs, nodes, qs, rels, ideal, leaf, es = [], [], [], [], [], [], []
    for k, (docid, ns) in enumerate(by_doc.items()):
        ns = np.array(sorted(ns), dtype=np.int64)
        q = np.array([values[(docid, n)][0] for n in ns])
        rel = np.array([values[(docid, n)][1] for n in ns], dtype=bool)
        parent = _assessed_parents(documents[docid].parent, ns)
        docs.append(np.full(len(ns), k, dtype=np.int64))
        nodes.append(ns)
        qs.append(q)
        rels.append(rel)
        ideal.append(ideal_mask(parent, q, rel, method))
        leaf.append(rel & ~_above(parent, rel))
        if grades is not None:
            es.append(np.array([grades[(docid, n)] for n in ns.tolist()], dtype=np.int64).reshape(-1, 2))
    cat = lambda xs, dt: np.concatenate(xs) if xs else np.zeros(0, dtype=dt)
    pairs = cat(es, np.int64).reshape(-1, 2) if grades is not None else np.zeros((sum(map(len, nodes)), 2), np.int64)
    return RecallBase(
        list(by_doc),
        cat(docs, np.int64),
        cat(nodes, np.int64),
        cat(qs, float),
        cat(rels, bool),
        cat(ideal, bool),
        pairs[:, 0].copy(),
        pairs[:, 1].copy(),
        cat(leaf, bool),
    )


def _above(parent: np.ndarray, marked: np.ndarray) -> np.ndarray:
    """Which elements have a marked element below them, from each element's nearest assessed ancestor
    (``parent``, -1 for none): every ancestor of a marked element, level by level up."""
    out = np.zeros(len(parent), dtype=bool)
    up = parent[marked]
    while len(up):
        up = up[up >= 0]
        up = up[~out[up]]  # (an ancestor already marked has its own ancestors marked, or queued)
        out[up] = True
        up = parent[np.unique(up)]
    return out


def recall_bases(
    judged, grades, documents: Mapping[str, DocumentTree], quant: str | None, method: str
) -> dict[str, RecallBase]:
    """:func:`recall_base` of every topic of ``judged`` (``grades``: per topic, or None for graded values)."""
    return {
        topic: recall_base(assessed, None if grades is None else grades.get(topic, {}), documents, quant, method)
        for topic, assessed in judged.items()
    }


def _assessed_parents(parent: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """For sorted assessed nodes of one document, the index (in ``nodes``) of the nearest assessed ancestor."""
    where = {int(n): k for k, n in enumerate(nodes)}
    out = np.full(len(nodes), -1, dtype=np.int64)
    for k, n in enumerate(nodes):
        p = int(parent[n])
        while p >= 0 and p not in where:
            p = int(parent[p])
        out[k] = where.get(p, -1)
    return out
