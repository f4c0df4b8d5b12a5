"""How the diversity family scores: TREC document runs against diversity qrels (``topic subtopic docno
grade``, :mod:`graphsr.io.subtopics`), each topic by :func:`graphsr.measures.diversity.kernels.topic_values`.

The judgments per subtopic are the assessments' own where their reader kept them (a file that judges a
document under several subtopics), else they are read from the assessments' file (a diversity qrels file
judging each document under one subtopic reads as plain qrels first).  Results tied in score are ranked by
document id ascending, as ir_measures hands them to ndeval.
"""

from __future__ import annotations

import os

import numpy as np

from ...core.columns import DocumentColumns
from ...errors import GraphsrInputError
from ..provider import ELEMENT, Provider, RunScores
from .kernels import ideal_ideal, ideal_order, topic_values

__all__ = ["DiversityProvider"]


class DiversityProvider(Provider):
    """Novelty and intent-aware measures (ndeval's) of document runs against judgments per subtopic."""

    NAME = "diversity"
    DESCRIPTION = "diversity (ndeval)"
    TITLE = (
        "Novelty- and intent-aware measures over subtopic judgments, as the TREC Web track's ndeval computes "
        "them (alpha_nDCG, ERR_IA, P_IA, StRecall, NRBP, AP_IA and their kin)"
    )
    ASSESSMENTS = RUNS = frozenset({ELEMENT})

    def check(self, measures, qrels, runs, context) -> None:
        super().check(measures, qrels, runs, context)
        names = ", ".join(map(str, measures))
        for run in runs:
            if not isinstance(getattr(run, "columns", None), DocumentColumns):
                raise GraphsrInputError(f"{names}: score TREC document runs; {run.name} is an element run")
        subtopics_of(qrels, names)

    def evaluator(self, measures, qrels, context, shared):
        return _DiversityEvaluator(list(measures), subtopics_of(qrels, ", ".join(map(str, measures))))


def subtopics_of(qrels, names: str):
    """The assessments' judgments per subtopic (read from their file where the reader did not keep them)."""
    subs = getattr(qrels, "subtopics", None)
    if subs is not None:
        return subs
    source = getattr(qrels, "source", None)
    plain = isinstance(getattr(qrels, "columns", None), DocumentColumns)
    if not (plain and source and os.path.isfile(source)):
        raise GraphsrInputError(
            f"{names}: need judgments per subtopic, a diversity qrels file ('topic subtopic "
            "docno grade', as the TREC Web track's)"
        )
    from ...io.subtopics import read_subtopic_qrels

    return read_subtopic_qrels(source)


class _DiversityEvaluator:
    def __init__(self, measures, subtopics):
        self.measures, self.subtopics = measures, subtopics
        self._ideal: dict = {}
        self._normaliser: dict = {}  # (subtopics, alpha, kind) -> {cut-off: ndeval's "ideal ideal" sum}

    def score(self, run, topics, scratch) -> RunScores:
        c: DocumentColumns = run.columns
        per_topic: dict[str, list] = {}
        for t, d, s in zip(c.topic.tolist(), c.doc.tolist(), c.value.tolist()):
            per_topic.setdefault(c.topic_names[t], []).append((c.doc_names[d], s))
        groups: dict = {}
        for m in self.measures:
            groups.setdefault(
                (m["rel"], _param(m, "alpha", 0.5), _param(m, "beta", 0.5), bool(m.params.get("judged_only"))), []
            ).append(m)
        values = {m: np.zeros(len(topics)) for m in self.measures}
        rankings: dict[str, np.ndarray] = {}  # per topic, its documents in rank order as rows of its judgments
        for topic in topics:
            judged = self.subtopics.topics.get(topic)
            if judged is not None:
                row = {d: i for i, d in enumerate(judged[0])}
                retrieved = sorted(per_topic.get(topic, ()), key=lambda x: (-x[1], x[0]))
                rankings[topic] = np.array([row.get(d, -1) for d, _ in retrieved], dtype=np.int64)
        for (rel, alpha, beta, judged_only), ms in groups.items():
            for k, topic in enumerate(topics):
                if topic not in rankings:
                    continue
                relevant = self.subtopics.topics[topic][1] >= rel
                ranking = rankings[topic]
                if judged_only:
                    ranking = ranking[ranking >= 0]
                key = (topic, rel, alpha)
                if key not in self._ideal:
                    self._ideal[key] = ideal_order(relevant, alpha)
                v = topic_values(relevant, ranking, alpha, beta, self._ideal[key])
                for m in ms:
                    values[m][k] = _value(m, v, self.normaliser(v.actual, alpha, ms))
        return RunScores(values)

    def normaliser(self, actual: int, alpha: float, measures):
        """``(kind, k) -> the "ideal ideal" sum``: at every cut-off of ``measures``, computed once per number of
        subtopics and alpha."""
        ks = sorted({m.cutoff for m in measures if m.cutoff is not None})
        for kind in ("dcg", "err"):
            key = (actual, alpha, kind)
            known = self._normaliser.setdefault(key, {})
            wanted = [k for k in ks if k not in known]
            if wanted and actual:
                known.update(zip(wanted, ideal_ideal(actual, alpha, kind, wanted).tolist()))
        return lambda kind, k: self._normaliser[actual, alpha, kind][k]


def _param(m, name: str, default: float) -> float:
    return float(m.params.get(name, default)) if name in m.SUPPORTED_PARAMS else default


def _value(m, v, normaliser) -> float:
    if m.VALUE in ("nrbp", "nnrbp", "ap_ia"):  # (over the whole ranking)
        return getattr(v, m.VALUE)
    return v.at(m.VALUE, m.cutoff or 1, normaliser)
