"""How the flat measures score: element (or plain document) runs resolved against the assessments, each
ranked result one item (:mod:`graphsr.measures.flat.ranking`), every measure its own kernel
(:mod:`graphsr.measures.flat.kernels`).

Topics: a topic the run has no line for scores 0 on every flat measure and
counts once in ``NumQ`` (trec_eval ``-c``: "missing queries contribute 0";
``NumRel`` too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.columns import DocumentColumns
from ..element_provider import ElementProvider
from ..provider import RunScores
from .columnar import JudgedDocuments, document_inputs
from .judgments import Judgments
from .kernels import compute_flat
from .ranking import ranking_of

__all__ = ["FlatProvider"]


class FlatProvider(ElementProvider):
    """trec_eval's standard measures (and ir_measures' Judged) of element runs against element assessments."""

    NAME = "flat"
    DESCRIPTION = "flat (trec_eval)"
    TIE_AWARE = True  # (per measure: those without a tie-aware form are refused by compute_tie_aware)
    TITLE = (
        "Flat measures as trec_eval computes them (P, R, AP, nDCG, RR, Rprec, Bpref, Success, IPrec, "
        "NumRet, NumRelRet, NumRel, NumQ) and ir_measures' Judged; a tree result is one item"
    )

    def needs_of(self, measures, qrels, runs, kinds):
        """Document assessments and runs (columns) need nothing: each document is its own item."""
        if _columnar(qrels) and all(_columnar(r) for r in runs):
            return set()
        return super().needs_of(measures, qrels, runs, kinds)

    def evaluator(self, measures, qrels, context, shared):
        if not _columnar(qrels):
            return super().evaluator(measures, qrels, context, shared)
        return _DocumentEvaluator(self, list(measures), qrels, context, shared)

    def prepare(self, measures, qrels, judged, context, shared):
        """Each topic's assessed grades, and how ties are scored."""
        return (
            {t: np.fromiter(assessed.values(), dtype=float, count=len(assessed)) for t, assessed in judged.items()},
            context,
        )

    def compute_run(self, measures, run, ranked, doc_codes, prepared):
        grades, context = prepared
        empty = np.zeros(0)
        judgments = Judgments([grades.get(t, empty) for t in ranked.topics])
        got = flat_values(measures, ranking_of(ranked, getattr(run, "by_score", False)), judgments, context, run.name)
        answered = set(run.topics)
        missing = np.array([t not in answered for t in ranked.topics], dtype=bool)
        if missing.any():
            for m in measures:
                if m.EMPTY is not None:  # (None: computed from the assessments, as for an empty ranking)
                    got.values[m][missing] = m.EMPTY
        return got


def flat_values(measures, ranking, judgments, context, run_name: str) -> RunScores:
    """The flat measures' per-topic values of one run: with ties in trec_eval's order (the default), saying
    where tied results straddle a cut-off; or with ``context.ties == 'average'``, each measure's expected value
    over the orderings of tied results (:mod:`graphsr.measures.flat.ties`)."""
    from ..tie_groups import straddle_warning, straddled
    from .ties import compute_tie_aware

    if getattr(context, "ties", "trec_eval") == "average":
        return RunScores(compute_tie_aware(measures, ranking, judgments))
    warnings = []
    cutoffs = sorted({m.cutoff for m in measures if m.cutoff is not None})
    tied = straddled(ranking.topic, ranking.pos, ranking.scores, {f"k={k}": k for k in cutoffs}) if cutoffs else {}
    if tied:
        option = context.option("ties=average") if context is not None else "ties='average'"
        warnings.append(straddle_warning(run_name, tied, option))
    return RunScores(compute_flat(measures, ranking, judgments), warnings=warnings)


def _columnar(obj) -> bool:
    return isinstance(getattr(obj, "columns", None), DocumentColumns)


class _DocumentEvaluator:
    """Scores document runs against document assessments from their columns (no object per line); an element
    run against them goes the element way."""

    def __init__(self, provider: FlatProvider, measures, qrels, context, shared):
        self.provider, self.measures, self.qrels, self.context, self.shared = (
            provider,
            measures,
            qrels,
            context,
            shared,
        )
        self.judged = shared.get("flat:documents", lambda: JudgedDocuments(qrels.columns))
        self._element: Any = None  # (the element way, built when an element run comes)

    def score(self, run, topics, scratch) -> RunScores:
        if not _columnar(run):
            if self._element is None:
                self._element = ElementProvider.evaluator(
                    self.provider, self.measures, self.qrels, self.context, self.shared
                )
            return self._element.score(run, topics, scratch)
        ranking, missing = document_inputs(run.columns, self.judged, topics)
        got = flat_values(self.measures, ranking, self.judged.judgments(topics), self.context, run.name)
        if missing.any():
            for m in self.measures:
                if m.EMPTY is not None:
                    got.values[m][missing] = m.EMPTY
        return got
