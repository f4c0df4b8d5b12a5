"""How the PRUM family scores: element runs resolved against the documents, ideal elements chosen from the
assessments, and the navigation of each measure's ``nav``."""

from __future__ import annotations


import numpy as np

from ..element_provider import ElementProvider, judged_grades
from ..ideal import recall_bases
from ..tree_arrays import NodeArrays, TopicItems
from .kernel import prum_by_recall
from .links import item_links

__all__ = ["PRUMProvider"]


class PRUMProvider(ElementProvider):
    """PRUM and MAPRUM of element runs against element assessments (PRUM paper Eq 5-8)."""

    NAME = "prum"
    DESCRIPTION = "Precision-Recall with User Modelling"
    TITLE = "Precision-Recall with User Modelling (PRUM, TOIS 2007)"

    def needs(self, kinds, measures=()):
        out = {"documents", "size"}
        navs = {m["nav"] for m in measures}
        if "model" in navs:
            out.add("navigation")
        if "routes" in navs:
            out.add("routes")
        return out

    def prepare(self, measures, qrels, judged, context, shared):
        grades = judged_grades(qrels, judged, context, shared)
        ideals = {
            (ideal, quant): recall_bases(judged, grades, context.documents, quant, ideal)
            for ideal, quant in {(m["ideal"], m["quant"]) for m in measures}
        }
        return ideals, context

    def compute(self, measures, ranked, doc_codes, prepared):
        ideals, context = prepared
        T = len(ranked.topics)
        items = TopicItems(ranked)
        navs = {m["nav"] for m in measures}
        docids = {code: d for d, code in doc_codes.items()}
        ideal_codes = {
            key: {topic: _ideal_arrays(base, doc_codes) for topic, base in by_topic.items()}
            for key, by_topic in ideals.items()
        }
        linked = {int(c) for by_topic in ideal_codes.values() for d, _ in by_topic.values() for c in d[d >= 0]}
        arrays = NodeArrays(context.documents, docids, sorted(linked & set(np.unique(items.doc).tolist())))
        seen = arrays.values("seen", context.seen_of) if "model" in navs else None
        routes = _routes(context, doc_codes) if "routes" in navs else None
        out = {m: np.zeros(T) for m in measures}
        for key in {m.key() for m in measures}:
            nav, ideal, quant = key
            group = [m for m in measures if m.key() == key]
            for t, topic in enumerate(ranked.topics):
                ideal_doc, ideal_node = ideal_codes[ideal, quant].get(topic, _NO_IDEAL)
                size = len(ideal_doc)
                if size == 0:
                    continue
                entry, doc, node, entries = items.topic(t)
                ptr, ks, prob = item_links(entry, doc, node, entries, ideal_doc, ideal_node, nav, arrays, seen, routes)
                curve = prum_by_recall(size, ptr, ks, prob, context.num_elements - items.distinct(t))
                for m in group:
                    out[m][t] = m.value(curve, size)
        return out


_NO_IDEAL = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))


def _ideal_arrays(base, doc_codes: dict) -> tuple[np.ndarray, np.ndarray]:
    """A topic's ideal elements (of its :class:`~graphsr.measures.ideal.RecallBase`, in recall-base order) as
    document codes of the run (-1: a document the run does not name) and nodes."""
    k = np.flatnonzero(base.ideal)
    return base.doc_codes(doc_codes)[k], base.node[k]


def _routes(context, doc_codes):
    """``f(to_ids, from_ids)``: the learned p~(x; e) for node ids ``code << 32 | node`` of the run's documents."""
    model = context.route_model
    offsets = model.offsets
    base = np.full(len(doc_codes) + 1, -1, dtype=np.int64)
    for d, c in doc_codes.items():
        base[c] = offsets.get(d, -1)
    return model.elementwise(base)
