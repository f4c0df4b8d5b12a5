"""The flat measures' inputs straight from document columns (TREC document runs and qrels, DataFrames, dicts):
a :class:`~graphsr.measures.flat.ranking.Ranking` and :class:`~graphsr.measures.flat.judgments.Judgments` built
with array operations only, as trec_eval ranks and grades documents (each line one item, one node).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ...core.columns import CHUNK, DENSE_PAIRS, DocumentColumns, codes_in, rank_documents
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
    def _dense(self) -> np.ndarray | None:
        """Every key's grade in one array (NaN: not assessed), where the keys are few enough for it (the array
        within :data:`~graphsr.core.columns.DENSE_PAIRS` bytes, or 8 bytes an assessment): a look-up is then one
        take, where a search needs the keys sorted.  None otherwise."""
        size = len(self.columns.topic_names) * int(self.width)
        if size > max(DENSE_PAIRS, 8 * len(self.key)) // 8:  # (8 bytes a key)
            return None
        table = np.full(size, np.nan)
        table[self.key] = self.grade
        return table

    @cached_property
    def topic_index(self) -> dict[str, int]:
        return dict(zip(self.columns.topic_names, range(len(self.columns.topic_names))))

    @cached_property
    def doc_index(self) -> dict[str, int]:
        return dict(zip(self.columns.doc_names, range(len(self.columns.doc_names))))

    def shares_codes(self, run: DocumentColumns) -> bool:
        """Whether ``run`` was coded with the assessments' own codes (their name -> code dicts, or after their
        names)."""
        if run.coded_as is self.columns:
            return True
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

    def keys_of(self, topic_codes: np.ndarray, doc_codes: np.ndarray) -> np.ndarray:
        """The look-up key of each (topic, document) pair (-1 where either is unknown)."""
        key = topic_codes.astype(np.int64)
        key *= self.width
        key += doc_codes
        key[(topic_codes < 0) | (doc_codes < 0)] = -1
        return key

    def grades_of_keys(self, key: np.ndarray) -> np.ndarray:
        """The grade of each key of :meth:`keys_of` (NaN: not assessed)."""
        out = np.full(len(key), np.nan)
        if not len(self.key) or not len(key):
            return out
        dense = self._dense
        if dense is not None:
            out = dense.take(np.maximum(key, 0))
            out[key < 0] = np.nan
            return out
        known = np.flatnonzero(key >= 0)  # (a run's own documents, unknown to the assessments, are -1: not searched)
        if len(known) < len(key):
            out[known] = self.grades_of_keys(key.take(known))
            return out
        order = np.argsort(key)  # searched in order: each search starts near the last (twice as fast)
        key = key.take(order)
        at = np.searchsorted(self.key, key)
        np.minimum(at, len(self.key) - 1, out=at)
        found = self.key.take(at)
        np.subtract(found, key, out=key)  # 0 where the key is assessed (keys are >= 0, -1 never matches)
        del found
        hit = key == 0
        out[order[hit]] = self.grade.take(at[hit])
        return out


def document_inputs(run: DocumentColumns, judged: JudgedDocuments, topics: list[str]) -> tuple[Ranking, np.ndarray]:
    """The run's ranking over ``topics`` (in that order; other topics' lines left out) and which of
    ``topics`` the run has no line for.

    Lines are ranked as trec_eval ranks them: score descending, ties by document name descending.
    """
    report = dict(zip(topics, range(len(topics))))
    where = codes_in(run.topic_names, report).astype(np.int32)[run.topic]  # each line's slot, -1: not reported
    if (where >= 0).all():  # the usual case: no copy of the columns
        rows = rank_documents(where, run.value, run.doc, run)
    else:
        keep = np.flatnonzero(where >= 0)
        rows = keep[rank_documents(where[keep], run.value[keep], run.doc[keep], run)]
        del keep
    m = len(rows)
    if m < 1 << 31:
        rows = rows.astype(np.int32)
    t = where.take(rows)
    del where
    shared = judged.shares_codes(run)  # codes of one vocabulary: those the assessments know mean the same names
    if not shared:
        topic_map = codes_in(run.topic_names, judged.topic_index)
        doc_map = codes_in(run.doc_names, judged.doc_index)
    grade = np.empty(m)
    for a in range(0, m, CHUNK):  # a chunk at a time: the look-ups' temporary arrays stay small
        part = rows[a : a + CHUNK]
        q_topic, q_doc = run.topic.take(part), run.doc.take(part)
        if shared:
            q_topic[q_topic >= len(judged.columns.topic_names)] = -1
            q_doc[q_doc >= len(judged.columns.doc_names)] = -1
        else:
            q_topic, q_doc = topic_map[q_topic], doc_map[q_doc]
        grade[a : a + CHUNK] = judged.grades_of_keys(judged.keys_of(q_topic, q_doc))
    starts = np.searchsorted(t, np.arange(len(topics) + 1))
    pos = np.arange(1, m + 1, dtype=np.int32)
    first = starts[:-1].astype(np.int32)
    for a in range(0, m, CHUNK):  # each line's rank in its topic
        pos[a : a + CHUNK] -= first.take(t[a : a + CHUNK])
    ranking = Ranking(
        len(topics), t, pos, grade, ~np.isnan(grade), None, grade, None, lambda: run.value[rows], by_score=True
    )  # the scores, read by few measures, are taken when first read
    present = set(run.topics)
    missing = np.array([x not in present for x in topics], dtype=bool)
    return ranking, missing
