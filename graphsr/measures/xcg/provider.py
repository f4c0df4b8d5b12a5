"""How the INEX 2002-2005 element measures score: element runs against the full and the ideal recall-base."""

from __future__ import annotations

import numpy as np

from ..elements import ElementProvider, judged_grades
from ..ideal import recall_bases
from ..tree_arrays import NodeArrays, TopicItems
from .arrays import TopicArrays, grp_items, grpng_items, xcg_item_gains
from .kernel import TopicAssessments, effort_precision, ideal_gain_vector, mean_average_ep

__all__ = ["XCGProvider"]


class XCGProvider(ElementProvider):
    """GRP, GRPng, xCG, nxCG, ep and MAep of element runs against element assessments."""

    NAME = "xcg"
    DESCRIPTION = "INEX 2002-2005 element"
    TITLE = "INEX 2002-2005 element measures: inex-2002 (GRP), inex-2003 (GRPng), XCG"

    def needs(self, kinds, measures=()):
        return {"documents", "size"} if any(m.NAME == "GRP" for m in measures) else {"documents"}

    def prepare(self, measures, qrels, judged, context, shared):
        grades = judged_grades(qrels, judged, context, shared)
        topics = {}
        for config in {_config(m) for m in measures}:
            quant, ideal = config
            topics[config] = {
                topic: TopicAssessments(base, context.documents, None if grades is None else grades.get(topic, {}))
                for topic, base in recall_bases(judged, grades, context.documents, quant, ideal).items()}
        return topics, context

    def compute(self, measures, ranked, doc_codes, prepared):
        topics, context = prepared
        items = TopicItems(ranked)
        docids = {code: d for d, code in doc_codes.items()}
        assessed = {doc_codes[d] for by_topic in topics.values() for ta in by_topic.values() for d in ta.by_doc
                    if d in doc_codes}
        arrays = NodeArrays(context.documents, docids, sorted(assessed | set(np.unique(items.doc).tolist())))
        out = {m: np.zeros(len(ranked.topics)) for m in measures}
        for t, topic in enumerate(ranked.topics):
            entry, doc, node, entries = items.topic(t)
            flat = arrays.index(doc, node)
            curves: dict = {}
            for m in measures:
                ta = topics[_config(m)].get(topic)
                if ta is None:
                    continue
                key = ("base", _config(m))
                if key not in curves:
                    curves[key] = TopicArrays(ta, doc_codes, arrays)
                tops = curves[key]
                if m.NAME == "GRP":
                    out[m][t] = grp_items(entry, flat, entries, tops, m["x"],
                                          context.num_elements - items.distinct(t))
                elif m.NAME == "GRPng":
                    key = ("ng", m["quant"], m["base"])
                    if key not in curves:
                        curves[key] = grpng_items(entry, flat, doc, entries, tops, arrays, m["quant"], m["base"])
                    recall, precision = curves[key]
                    reached = recall >= m["x"] - 1e-12
                    out[m][t] = float(precision[reached].max()) if reached.any() else 0.0
                else:
                    key = ("xcg", _config(m), m["alpha"])
                    if key not in curves:
                        curves[key] = (np.cumsum(xcg_item_gains(entry, flat, doc, entries, tops, arrays, m["alpha"])),
                                       ideal_gain_vector(ta))
                    cg, ci = curves[key]
                    out[m][t] = _xcg_value(m, cg, ci)
        return out


def _config(m) -> tuple:
    if m.NAME == "GRPng":
        return None, "assessed"
    return m["quant"], m.params.get("ideal", "assessed")


def _xcg_value(m, cg: np.ndarray, ci: np.ndarray) -> float:
    if m.NAME in ("xCG", "nxCG"):
        k = m.cutoff
        got = float(cg[min(k, len(cg)) - 1]) if len(cg) else 0.0
        if m.NAME == "xCG":
            return got
        ideal = float(ci[min(k, len(ci)) - 1]) if len(ci) else 0.0
        return got / ideal if ideal > 0 else 0.0
    if m.NAME == "ep":
        return effort_precision(cg, ci, m["x"])
    return mean_average_ep(cg, ci)
