"""How the flat baselines score: element runs resolved against the documents, each result one item."""

from __future__ import annotations

import numpy as np

from ..elements import ElementProvider
from .measures import compute_flat_family

__all__ = ["FlatProvider"]


class FlatProvider(ElementProvider):
    """P@k, R@k, AP and nDCG@k of element runs against element assessments (trec_eval's definitions)."""

    NAME = "flat"
    DESCRIPTION = "flat (trec_eval)"
    TITLE = "Flat baselines as trec_eval computes them: P@k, R@k, AP, nDCG@k"

    def prepare(self, measures, qrels, judged, context, shared):
        return {t: np.array([v for v in assessed.values() if v > 0], dtype=float) for t, assessed in judged.items()}

    def compute(self, measures, ranked, doc_codes, values):
        return compute_flat_family(measures, ranked, [values.get(t, np.zeros(0)) for t in ranked.topics])
