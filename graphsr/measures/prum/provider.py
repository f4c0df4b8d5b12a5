"""How the PRUM family scores: element runs resolved against the documents, ideal elements chosen from the
assessments, and the navigation of each measure's ``nav``."""

from __future__ import annotations

import math

import numpy as np

from ..elements import ElementProvider, judged_grades, topic_entries
from ..ideal import recall_bases
from .kernel import prum_by_recall
from .links import entry_links

__all__ = ["PRUMProvider"]


class PRUMProvider(ElementProvider):
    """PRUM and MAPRUM of element runs against element assessments (PRUM paper Eq 5-8)."""

    NAME = "prum"
    DESCRIPTION = "PRUM"
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
        ideals = {}
        for ideal, quant in {(m["ideal"], m["quant"]) for m in measures}:
            ideals[ideal, quant] = {topic: base.ideal_elements() for topic, base in
                                    recall_bases(judged, grades, context.documents, quant, ideal).items()}
        return ideals, context

    def compute(self, measures, ranked, doc_codes, prepared):
        ideals, context = prepared
        T = len(ranked.topics)
        entries_of = [(entries, context.num_elements - distinct)
                      for entries, distinct in topic_entries(ranked, doc_codes)]
        routes_of = _routes(context, doc_codes) if any(m["nav"] == "routes" for m in measures) else None
        out = {m: np.zeros(T) for m in measures}
        for key in {m.key() for m in measures}:
            nav, ideal, quant = key
            group = [m for m in measures if m.key() == key]
            for t, topic in enumerate(ranked.topics):
                ideal_set = ideals[ideal, quant].get(topic, [])
                size = len(ideal_set)
                if size == 0:
                    continue
                entries, u = entries_of[t]
                ptr, ks, prob = entry_links(entries, ideal_set, nav, context.documents, context.seen_of, routes_of)
                curve = prum_by_recall(size, ptr, ks, prob, u)
                for m in group:
                    if m.NAME == "MAPRUM":
                        out[m][t] = float(curve.mean())
                    else:
                        r = math.ceil(m["x"] * size - 1e-12) if m["x"] is not None else m["r"]
                        out[m][t] = float(curve[min(r, size) - 1]) if r <= size else 0.0
        return out


def _routes(context, doc_codes):
    """``routes_of(docid, e)``: the learned p~(x; e) from node ``e`` to nodes ``x`` of its document."""
    model = context.route_model
    offsets = model.offsets
    codes = dict(doc_codes)
    base = np.full(len(codes) + 1, -1, dtype=np.int64)
    for d, c in codes.items():
        base[c] = offsets.get(d, -1)
    f = model.elementwise(base)

    def routes_of(docid, e):
        code = np.int64(codes[docid]) << 32

        def to(xs):
            return f(code | xs.astype(np.int64), np.full(len(xs), code | e, dtype=np.int64))

        return to

    return routes_of
