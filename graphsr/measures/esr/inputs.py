"""Building the ESR measures' inputs from a run, assessments, documents and a learned navigation model.

Relevance values: ``binary`` counts an assessed node with relevance > 0 as 1;
``length`` counts its highlighted characters, taken as the relevance value
(the highlighted share, in [0, 1]) times the node length.  A tree's size is
the sum of its nodes' lengths.

:class:`ESRInputBuilder` flattens the assessments once and caches node
lengths, so that scoring many runs against one set of assessments does the
Python-level work once.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ...core.document import DocumentTree
from ...navigation.from_routes import RouteModel
from ..inputs import RankedNodes
from .kernel import ESRInputs

__all__ = ["ESRInputBuilder"]


class ESRInputBuilder:
    """ESR inputs of runs scored against one set of assessments, documents and navigation model.

    Parameters
    ----------
    judged : mapping of topic to {(docid, node index): relevance}
        Node-level assessments; nodes with relevance 0 are not relevant.
    documents : mapping of docid to DocumentTree
    model : RouteModel
    """

    def __init__(
        self,
        judged: Mapping[str, Mapping[tuple[str, int], float]],
        documents: Mapping[str, DocumentTree],
        model: RouteModel,
    ):
        self.documents, self.model = documents, model
        docs: dict[str, int] = {}
        doc: list[int] = []
        idx: list[int] = []
        rel: list[float] = []
        self._span: dict[str, tuple[int, int]] = {}
        for topic, assessed in judged.items():
            first = len(idx)
            for (docid, i), value in assessed.items():
                if value > 0:
                    doc.append(docs.setdefault(docid, len(docs)))
                    idx.append(i)
                    rel.append(value)
            self._span[topic] = (first, len(idx))
        self._docids = list(docs)
        self._doc = np.array(doc, dtype=np.int64)
        self._idx = np.array(idx, dtype=np.int64)
        self._rel = np.array(rel, dtype=float)
        # node lengths of every document met so far, concatenated; _start[g] = first node of document g
        self._known: dict[str, int] = {}  # g of each document met so far
        self._parts: list[np.ndarray] = []
        self._start = np.zeros(1, dtype=np.int64)
        self._base = np.zeros(0, dtype=np.int64)  # first state of document g in the model, -1 if unknown
        self._all = np.zeros(0)

    def _doc_starts(self, doc_codes: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        """Per document code: first node in the concatenated lengths, and in the model's states
        (-1 for a document without a tree, or that the model does not know)."""
        known = self._known
        codes = np.fromiter(doc_codes.values(), dtype=np.int64, count=len(doc_codes))
        g = np.fromiter((known.get(d, -1) for d in doc_codes), dtype=np.int64, count=len(doc_codes))
        if (g < 0).any():
            new = [d for d, k in zip(doc_codes, g.tolist()) if k < 0 and d in self.documents]
            if new:  # documents not met before: append their lengths (the Python loop runs once per document)
                self._parts += [self.documents[d].length.astype(float) for d in new]
                for d in new:
                    known[d] = len(known)
                self._start = np.concatenate([[0], np.cumsum([len(x) for x in self._parts])])
                self._base = np.concatenate([self._base, [self.model.offsets.get(d, -1) for d in new]]).astype(np.int64)
                self._all = np.concatenate(self._parts)
                g = np.fromiter((known.get(d, -1) for d in doc_codes), dtype=np.int64, count=len(doc_codes))
        n = int(codes.max()) + 1 if len(codes) else 0
        start, base = np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)
        ok = g >= 0
        start[codes[ok]] = self._start[g[ok]]
        base[codes[ok]] = self._base[g[ok]]
        return start, base

    def __call__(self, ranked: RankedNodes, doc_codes: dict[str, int]) -> dict[str, ESRInputs]:
        """``{"binary": ESRInputs, "length": ESRInputs}`` for one run.

        ``doc_codes`` must be the dict :func:`~graphsr.measures.elements.ranked_nodes`
        filled; documents assessed but not retrieved are added to it.
        """
        spans = [self._span.get(t, (0, 0)) for t in ranked.topics]
        counts = np.array([b - a for a, b in spans], dtype=np.int64)
        take = np.concatenate([np.arange(a, b) for a, b in spans]) if spans else np.zeros(0, np.int64)
        take = take.astype(np.int64)
        a_topic = np.repeat(np.arange(len(spans)), counts)
        q_doc = self._doc[take]
        needed = np.flatnonzero(np.bincount(q_doc, minlength=len(self._docids)))
        code_of = np.full(len(self._docids), -1, dtype=np.int64)
        code_of[needed] = [doc_codes.setdefault(self._docids[d], len(doc_codes)) for d in needed.tolist()]
        a_code, a_idx, a_rel = code_of[q_doc], self._idx[take], self._rel[take]
        start, base = self._doc_starts(doc_codes)

        def lengths(codes: np.ndarray, idx: np.ndarray) -> np.ndarray:
            first = start[codes]
            if (first < 0).any():
                missing = sorted({k for k, c in doc_codes.items() if start[c] < 0} & set(map(int, codes)))
                raise KeyError(f"no document tree for {missing[:5]}")
            return self._all[first + idx]

        a_len = a_rel * lengths(a_code, a_idx)
        size = lengths(ranked.item_node >> 32, ranked.item_node & 0xFFFFFFFF)
        nav = self.model.elementwise(base)
        arrays = (a_topic, (a_code << 32) | a_idx, a_code)
        return {
            "binary": ESRInputs(ranked, size, *arrays, np.ones(len(a_rel)), nav),
            "length": ESRInputs(ranked, size, *arrays, a_len, nav),
        }
