"""How the INEX 2002-2005 element measures score: element runs against the full and the ideal recall-base."""

from __future__ import annotations

import numpy as np

from ..element_provider import ElementProvider, judged_grades
from ..ideal import recall_bases
from ..tree_arrays import NodeArrays, TopicItems
from .arrays import TopicArrays

__all__ = ["XCGProvider"]


class XCGProvider(ElementProvider):
    """GRP, GRPng, xCG, nxCG, ep and MAep of element runs against element assessments."""

    NAME = "xcg"
    DESCRIPTION = "INEX 2002-2005 element"
    TITLE = "INEX 2002-2005 element measures: inex-2002 (GRP), inex-2003 (GRPng), XCG"

    def needs(self, kinds, measures=()):
        return {"documents", "size"} if any(m.NEEDS_SIZE for m in measures) else {"documents"}

    def prepare(self, measures, qrels, judged, context, shared):
        grades = judged_grades(qrels, judged, context, shared)
        topics = {
            config: recall_bases(judged, grades, context.documents, *config)
            for config in {m.config() for m in measures}
        }
        return topics, context

    def compute(self, measures, ranked, doc_codes, prepared):
        topics, context = prepared
        items = TopicItems(ranked)
        docids = {code: d for d, code in doc_codes.items()}
        assessed = {
            doc_codes[d]
            for by_topic in topics.values()
            for base in by_topic.values()
            for d in base.doc_names
            if d in doc_codes
        }
        arrays = NodeArrays(context.documents, docids, sorted(assessed | set(np.unique(items.doc).tolist())))
        out = {m: np.zeros(len(ranked.topics)) for m in measures}
        for t, topic in enumerate(ranked.topics):
            entry, doc, node, entries = items.topic(t)
            curves: dict = {}
            for m in measures:
                base = topics[m.config()].get(topic)
                if base is None:
                    continue
                key = ("base", m.config())
                if key not in curves:
                    curves[key] = TopicArrays(base, doc_codes, arrays)
                view = _TopicView(
                    entry,
                    arrays.index(doc, node),
                    doc,
                    entries,
                    curves[key],
                    arrays,
                    base,
                    context.num_elements - items.distinct(t) if context.num_elements is not None else None,
                    curves,
                )
                out[m][t] = m.topic_value(view)
        return out


class _TopicView:
    """What a measure reads of one topic (:meth:`~graphsr.measures.xcg.measures._ElementINEX.topic_value`): its
    items, their flat node indexes, its recall-base (``base``) and its arrays keyed as the run's (``tops``), the
    unranked rest of the collection, and a cache of the curves measures share (:meth:`cached`)."""

    def __init__(self, entry, flat, doc, entries, tops, arrays, base, unranked, cache: dict):
        self.entry, self.flat, self.doc, self.entries, self.tops = entry, flat, doc, entries, tops
        self.arrays, self.base, self.unranked, self._cache = arrays, base, unranked, cache

    def cached(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]
