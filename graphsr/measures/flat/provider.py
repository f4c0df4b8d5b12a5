"""How the flat measures score: element (or plain document) runs resolved against the assessments, each
ranked result one item (:mod:`graphsr.measures.flat.ranking`), every measure its own kernel
(:mod:`graphsr.measures.flat.kernels`).

Topics: a topic the run has no line for scores 0 on every flat measure and
counts once in ``NumQ`` (trec_eval ``-c``: "missing queries contribute 0";
``NumRel`` too).
"""

from __future__ import annotations

import numpy as np

from ..elements import ElementProvider
from .judgments import Judgments
from .kernels import compute_flat
from .ranking import ranking_of

__all__ = ["FlatProvider"]


class FlatProvider(ElementProvider):
    """trec_eval's standard measures (and ir_measures' Judged) of element runs against element assessments."""

    NAME = "flat"
    DESCRIPTION = "flat (trec_eval)"
    TITLE = ("Flat measures as trec_eval computes them (P, R, AP, nDCG, RR, Rprec, Bpref, Success, IPrec, "
             "NumRet, NumRelRet, NumRel, NumQ) and ir_measures' Judged; a tree result is one item")

    def prepare(self, measures, qrels, judged, context, shared):
        """Each topic's assessed grades."""
        return {t: np.fromiter(assessed.values(), dtype=float, count=len(assessed))
                for t, assessed in judged.items()}

    def compute_run(self, measures, run, ranked, doc_codes, grades):
        empty = np.zeros(0)
        judgments = Judgments([grades.get(t, empty) for t in ranked.topics])
        values = compute_flat(measures, ranking_of(ranked, getattr(run, "by_score", False)), judgments)
        missing = np.array([t not in run.results for t in ranked.topics], dtype=bool)
        if missing.any():
            for m in measures:
                values[m][missing] = m.EMPTY
        return values
