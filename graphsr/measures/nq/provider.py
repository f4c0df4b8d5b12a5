"""How the NQ family scores: every example's answers against its annotators' (:mod:`.kernel`), the official figure
over all examples as the ``all`` value."""

from __future__ import annotations

import numpy as np

from ...errors import GraphsrInputError
from ..provider import Provider, RunScores, input_kind
from .kernel import best_f1, kept, long_stats, recall_at_precision, short_stats

__all__ = ["NQProvider", "ANSWERS_KIND"]

#: The kind of input the family reads (:func:`graphsr.measures.provider.input_kind`).
ANSWERS_KIND = "answers"


class NQProvider(Provider):
    """NQlong*/NQshort* of NQ predictions against NQ annotations."""

    NAME = "nq"
    DESCRIPTION = "Natural Questions"
    TITLE = "Natural Questions' official figures (nq_eval)"
    ASSESSMENTS = RUNS = frozenset({ANSWERS_KIND})

    def check(self, measures, qrels, runs, context) -> None:
        names = ", ".join(map(str, measures))
        kind = input_kind(qrels)
        if kind != ANSWERS_KIND:
            raise GraphsrInputError(
                f"{names}: Natural Questions' figures score NQ annotations (an NQ file, original or simplified) "
                f"with nq_eval's predictions, not {kind} assessments"
            )
        for run in runs:
            if input_kind(run) != ANSWERS_KIND:
                raise GraphsrInputError(f"{run.name}: a {input_kind(run)} run; {names} score nq_eval's predictions")
        super().check(measures, qrels, runs, context)

    def evaluator(self, measures, qrels, context, shared):
        empty = [eid for eid, labels in qrels.annotations.items() if not labels]
        if empty:
            raise GraphsrInputError(
                f"{qrels.source or 'the assessments'}: example {empty[0]} has no annotation"
                + (f" ({len(empty)} examples have none)" if len(empty) > 1 else "")
                + ": NQ's figures need annotated examples (a file without annotations is a collection)"
            )
        return _NQEvaluator(list(measures), qrels)


class _NQEvaluator:
    def __init__(self, measures, qrels):
        self.measures, self.qrels = measures, qrels

    def score(self, run, topics, scratch) -> RunScores:
        gold_ids = list(self.qrels.annotations)
        answers = run.answers
        missing = [e for e in gold_ids if e not in answers]
        extra = [e for e in answers if e not in self.qrels.annotations]
        if missing or extra:
            raise GraphsrInputError(
                f"{run.source or run.name}: the examples predicted are not the examples annotated"
                + (f"; {len(missing)} not predicted (e.g. {missing[0]})" if missing else "")
                + (f"; {len(extra)} not annotated (e.g. {extra[0]})" if extra else "")
                + " (nq_eval scores only the same examples)"
            )
        gold = [self.qrels.annotations[e] for e in gold_ids]
        predicted = [answers[e] for e in gold_ids]
        place = {e: k for k, e in enumerate(gold_ids)}
        rows = np.array([place[t] for t in topics], dtype=np.int64)
        values, overall = {}, {}
        stats_of: dict = {}
        for m in self.measures:
            answer, at, votes = m.key()
            if (answer, votes) not in stats_of:
                stat = long_stats if answer == "long" else short_stats
                stats_of[answer, votes] = stat(gold, predicted, votes)
            stats = stats_of[answer, votes]
            point = best_f1(stats) if at is None else recall_at_precision(stats, at)
            values[m] = kept(stats, point)[rows]
            overall[m] = 0.0 if point is None else float(getattr(point, m.FIGURE))
        return RunScores(values, overall)
