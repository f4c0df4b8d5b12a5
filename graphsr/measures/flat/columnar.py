"""The flat measures' inputs straight from document columns (TREC document runs and qrels, DataFrames, dicts):
a :class:`~graphsr.measures.flat.ranking.Ranking` and :class:`~graphsr.measures.flat.judgments.Judgments` built
with array operations only, as trec_eval ranks and grades documents (each line one item, one node).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ...model.columns import DocumentColumns, codes_in
from .judgments import Judgments
from .ranking import Ranking

__all__ = ["document_inputs", "JudgedDocuments"]


class JudgedDocuments:
    """Document assessments keyed for look-ups: built once per evaluation, shared by every run.

    ``key`` holds ``topic * D + document`` (codes of the assessments' own names, ``D`` their number of
    documents) sorted, ``grade`` the grades in that order.
    """

    def __init__(self, columns: DocumentColumns):
        self.columns = columns
        self.width = np.int64(max(len(columns.doc_names), 1))
        key = columns.topic * self.width + columns.doc
        order = np.argsort(key)  # keys are unique (a document is assessed once per topic)
        self.key, self.grade = key[order], columns.value[order]

    @cached_property
    def topic_index(self) -> dict[str, int]:
        return dict(zip(self.columns.topic_names, range(len(self.columns.topic_names))))

    @cached_property
    def doc_index(self) -> dict[str, int]:
        return dict(zip(self.columns.doc_names, range(len(self.columns.doc_names))))

    def shares_codes(self, run: DocumentColumns) -> bool:
        """Whether ``run`` was coded with the assessments' own name -> code dicts."""
        mine = self.columns.index
        return mine is not None and run.index is not None and run.index[0] is mine[0] and run.index[1] is mine[1]

    def judgments(self, topics: list[str]) -> Judgments:
        """The grades of each of ``topics`` (none for a topic not assessed)."""
        c = self.columns
        slot = np.full(len(c.topic_names), -1, dtype=np.int64)
        codes = codes_in(topics, self.topic_index)
        assessed = codes >= 0
        slot[codes[assessed]] = np.flatnonzero(assessed)
        where = slot[c.topic]
        keep = where >= 0
        return Judgments.from_arrays(len(topics), where[keep], c.value[keep])

    def grades_of(self, topic_codes: np.ndarray, doc_codes: np.ndarray) -> np.ndarray:
        """The grade of each (topic, document) pair, in the assessments' codes (-1: not a name they know);
        NaN where not assessed."""
        out = np.full(len(topic_codes), np.nan)
        known = (topic_codes >= 0) & (doc_codes >= 0)
        key = topic_codes[known] * self.width + doc_codes[known]
        at = np.searchsorted(self.key, key)
        at_ok = at < len(self.key)
        hit = np.zeros(len(key), dtype=bool)
        hit[at_ok] = self.key[at[at_ok]] == key[at_ok]
        vals = np.full(len(key), np.nan)
        vals[hit] = self.grade[at[hit]]
        out[known] = vals
        return out


def _ranked(topic: np.ndarray, score: np.ndarray, doc: np.ndarray, run: DocumentColumns) -> np.ndarray:
    """The order of lines by topic, score descending and, among lines of a topic with equal scores, document
    name descending (trec_eval's order); names are compared only when some scores tie.

    One integer sort: each line's key is its topic, then the rank of its score among the distinct scores
    (descending), then the rank of its document's name (descending), packed into one int64.
    """
    n = len(topic)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    by_score = np.argsort(-score)  # (sorts below need no stability: equal keys get equal ranks, or are unique)
    ordered = score[by_score]
    rank_sorted = np.cumsum(np.r_[True, ordered[1:] != ordered[:-1]]) - 1
    score_rank = np.empty(n, dtype=np.int64)
    score_rank[by_score] = rank_sorted
    levels = np.int64(rank_sorted[-1] + 1)
    names = np.int64(max(len(run.doc_names), 1))
    if (int(topic.max()) + 1) * int(levels) * int(names) >= 1 << 62:  # too many to pack: sort key by key
        return np.lexsort((-run.doc_order[doc], -score, topic))
    key = topic * levels + score_rank
    order = np.argsort(key)
    k = key[order]
    if not (k[1:] == k[:-1]).any():
        return order
    key = key * names + (names - 1 - run.doc_order[doc])  # (topic, document) pairs are unique: so are keys
    return np.argsort(key)


def document_inputs(run: DocumentColumns, judged: JudgedDocuments, topics: list[str]) -> tuple[Ranking, np.ndarray]:
    """The run's ranking over ``topics`` (in that order; other topics' lines left out) and which of
    ``topics`` the run has no line for.

    Lines are ranked as trec_eval ranks them: score descending, ties by document name descending.
    """
    report = dict(zip(topics, range(len(topics))))
    where = codes_in(run.topic_names, report)[run.topic]  # each line's report slot, -1: not reported
    keep = np.flatnonzero(where >= 0)
    rows = keep[_ranked(where[keep], run.value[keep], run.doc[keep], run)]
    t = where[rows]
    q_topic, q_doc = run.topic[rows], run.doc[rows]
    if judged.shares_codes(run):  # codes of one vocabulary: those the assessments know mean the same names
        q_topic = np.where(q_topic < len(judged.columns.topic_names), q_topic, -1)
        q_doc = np.where(q_doc < len(judged.columns.doc_names), q_doc, -1)
    else:
        q_topic = codes_in(run.topic_names, judged.topic_index)[q_topic]
        q_doc = codes_in(run.doc_names, judged.doc_index)[q_doc]
    grade = judged.grades_of(q_topic, q_doc)
    m = len(rows)
    starts = np.searchsorted(t, np.arange(len(topics) + 1))
    pos = np.arange(1, m + 1) - starts[:-1][t]
    items = np.arange(m)
    ranking = Ranking(len(topics), t, pos, grade, ~np.isnan(grade), items, grade, np.ones(m, dtype=bool),
                      run.value[rows], by_score=True)
    present = set(run.topics)
    missing = np.array([x not in present for x in topics], dtype=bool)
    return ranking, missing
