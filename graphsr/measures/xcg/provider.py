"""How the INEX 2002-2005 element measures score: element runs against the full and the ideal recall-base."""

from __future__ import annotations

import numpy as np

from ..elements import ElementProvider, judged_grades, topic_entries
from ..ideal import recall_bases
from .kernel import (TopicAssessments, effort_precision, grp, grpng_curve, ideal_gain_vector, mean_average_ep,
                     xcg_gains)

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
        entries_of = topic_entries(ranked, doc_codes)
        out = {m: np.zeros(len(ranked.topics)) for m in measures}
        for t, topic in enumerate(ranked.topics):
            entries, distinct = entries_of[t]
            curves: dict = {}
            for m in measures:
                ta = topics[_config(m)].get(topic)
                if ta is None:
                    continue
                if m.NAME == "GRP":
                    out[m][t] = grp(entries, ta, m["x"], context.num_elements - distinct)
                elif m.NAME == "GRPng":
                    key = ("ng", m["quant"], m["base"])
                    if key not in curves:
                        curves[key] = grpng_curve(entries, ta, m["quant"], m["base"])
                    recall, precision = curves[key]
                    reached = recall >= m["x"] - 1e-12
                    out[m][t] = float(precision[reached].max()) if reached.any() else 0.0
                else:
                    key = ("xcg", _config(m), m["alpha"])
                    if key not in curves:
                        curves[key] = (np.cumsum(xcg_gains(entries, ta, m["alpha"])), ideal_gain_vector(ta))
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
