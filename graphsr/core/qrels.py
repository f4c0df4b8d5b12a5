"""Element-level assessments: a relevance value in [0, 1] per node, or an INEX 2002-2005 (e, s) pair.

Nodes that are not listed have relevance 0 (SR paper, section 6).  For
(e, s) assessments the relevance value measures read is the generalised
quantisation of the pair (:mod:`graphsr.core.quantisation`); the measures
of INEX 2002-2005 (PRUM, GRP, xCG, ...) take a ``quant`` parameter instead.
"""

from __future__ import annotations

from .._records import record
from typing import Any, Iterable, Iterator

import numpy as np

from ..errors import DuplicateJudgmentError, QrelsFormatError
from .columns import AssessmentColumns, DocumentColumns
from .kinds import DOCUMENTS, ELEMENTS
from .quantisation import check_grade, quantise

__all__ = ["QrelsRow", "ElementQrels"]


@record(frozen=True, init=False)
class QrelsRow:
    """One assessment: ``rel`` of node ``(docid, xpath)`` for ``topic``."""

    topic: str
    docid: str
    xpath: str
    rel: float
    line: int | None = None
    grade: tuple[int, int] | None = None  # an INEX (e, s) pair; rel is then its generalised quantisation

    def __init__(
        self,
        topic: str,
        docid: str,
        xpath: str,
        rel: float,
        line: int | None = None,
        grade: tuple[int, int] | None = None,
    ):
        self.__dict__.update(topic=topic, docid=docid, xpath=xpath, rel=rel, line=line, grade=grade)


class ElementQrels:
    """Per topic, the relevance of assessed nodes.

    ``judges``: who judged each node, ``{(topic, docid, canonical_xpath): judge}`` (:mod:`graphsr.core.judges`),
    where the file named its judges; None otherwise (a person's, or the file's judge).

    ``judgments[topic][(docid, canonical_xpath)] = rel``; for INEX
    2002-2005 assessments also ``grades[topic][(docid, canonical_xpath)] =
    (e, s)`` (else ``grades`` is None).

    Relevance is SR's scale, [0, 1]; TREC-style grades above 1 (0, 1, 2,
    3, ...) and below 0 (the TREC Web track's -2 for spam) are kept for the
    measures that read grades as trec_eval does (the flat family: P, R, AP,
    nDCG, ...; a negative grade is "assessed, not judged": not relevant, no
    gain, skipped by bpref); :meth:`outside_unit` finds them, and the other
    measures refuse such assessments in one line.

    Assessments are held as columns, however they were made: TREC document assessments as
    :class:`~graphsr.core.columns.DocumentColumns`, element assessments as
    :class:`~graphsr.core.columns.AssessmentColumns` (judgments given to the constructor become columns).
    ``judgments``, ``grades`` and ``lines`` are views of the columns, built on first use.
    """

    def __init__(
        self,
        judgments: dict[str, dict[tuple[str, str], float]] | None = None,
        source: str | None = None,
        lines: dict[tuple[str, str, str], int | None] | None = None,
        grades: dict[str, dict[tuple[str, str], tuple[int, int]]] | None = None,
        columns: DocumentColumns | AssessmentColumns | None = None,
    ):
        if columns is None:
            if judgments is None:
                raise ValueError("assessments need their judgments or their columns")
            columns = _columns_of_judgments(judgments, lines or {}, grades)
        self.columns = columns
        self.source = source
        self._judgments = self._lines = self._grades = None
        #: Judgments per subtopic (diversity qrels; :mod:`graphsr.core.subtopics`), where the file has them: only
        #: the diversity measures score such assessments.
        self.subtopics: Any = None
        self.judges: dict[tuple[str, str, str], str] | None = None

    @classmethod
    def from_columns(cls, columns: DocumentColumns, source: str | None = None) -> "ElementQrels":
        """Assessments of whole documents from :class:`~graphsr.core.columns.DocumentColumns` of relevance
        values (TREC qrels).

        Raises
        ------
        QrelsFormatError
            For a value that is not finite, or a document assessed twice for one topic.
        """
        bad = np.flatnonzero(~np.isfinite(columns.value))
        k = columns.duplicate()
        if len(bad) and (k is None or bad[0] < k):
            where = columns.line[bad[0]] if columns.line is not None else None
            raise QrelsFormatError(
                f"relevance must be a number in [0, 1] (or a TREC-style grade such as 2 or -1), "
                f"got {columns.value[bad[0]]!r}",
                source,
                where,
            )
        if k is not None:
            topic, docid = columns.topic_names[columns.topic[k]], columns.doc_names[columns.doc[k]]
            where = columns.line[k] if columns.line is not None else None
            raise DuplicateJudgmentError(
                f"topic {topic}: document {docid} is assessed twice; expected one judgment "
                "per document (or, in a diversity qrels file, per subtopic)",
                source,
                where,
            )
        return cls(None, source, columns=columns)

    @property
    def kind(self) -> str:
        """``documents`` (every assessment a whole plain document) or ``elements`` (:mod:`graphsr.core.kinds`)."""
        return DOCUMENTS if self.columns.plain else ELEMENTS

    @property
    def judgments(self) -> dict[str, dict[tuple[str, str], float]]:
        """``judgments[topic][(docid, canonical_xpath)] = rel`` (a view of the columns, built on first use)."""
        if self._judgments is None:
            self._judgments, self._lines, self._grades = _views(self.columns)
        return self._judgments

    @property
    def lines(self) -> dict[tuple[str, str, str], int | None]:
        """``lines[(topic, docid, xpath)]``: where each assessment was read (empty when not from a file)."""
        self.judgments
        return self._lines

    @property
    def grades(self) -> dict[str, dict[tuple[str, str], tuple[int, int]]] | None:
        """``grades[topic][(docid, canonical_xpath)] = (e, s)`` for INEX 2002-2005 assessments, else None."""
        if getattr(self.columns, "grade", None) is None:
            return None
        self.judgments
        return self._grades

    def __repr__(self) -> str:
        return f"ElementQrels(topics={len(self.topics)}, judged={len(self.columns)})"

    @property
    def topics(self) -> list[str]:
        return list(self.columns.topics)

    @property
    def max_rel(self) -> float:
        """The largest relevance value assessed (0 if none)."""
        return float(self.columns.value.max(initial=0.0)) if len(self.columns) else 0.0

    def above_one(self) -> tuple[str, int | None] | None:
        """Where a relevance value above 1 is first assessed: (topic, line), or None."""
        found = self.outside_unit()
        return None if found is None or found[2] < 0 else found[:2]

    def outside_unit(self) -> tuple[str, int | None, float] | None:
        """Where a relevance value outside [0, 1] (a TREC-style grade) is first assessed: (topic, line,
        value), or None."""
        c = self.columns
        outside = np.flatnonzero((c.value > 1.0) | (c.value < 0.0))
        if not len(outside):
            return None
        k = int(outside[0])
        return (c.topic_names[c.topic[k]], int(c.line[k]) if c.line is not None else None, float(c.value[k]))

    def __iter__(self) -> Iterator[tuple[str, str, str, float]]:
        for topic, d in self.judgments.items():
            for (docid, xp), rel in d.items():
                yield topic, docid, xp, rel

    def docids(self) -> set[str]:
        return set(self.columns.docids)

    def rel(self, topic: str, docid: str, xpath: str) -> float:
        """Relevance of a node (0 if not assessed)."""
        from .document import canonical_xpath

        return self.judgments.get(topic, {}).get((docid, canonical_xpath(xpath)), 0.0)

    @classmethod
    def from_rows(cls, rows: Iterable[QrelsRow], source: str | None = None) -> "ElementQrels":
        """Collect assessments, refusing non-finite values and repeated nodes (values above 1 or below 0 are
        TREC-style grades: see the class docstring)."""
        from .document import canonical_xpath

        judgments: dict[str, dict[tuple[str, str], float]] = {}
        grades: dict[str, dict[tuple[str, str], tuple[int, int]]] = {}
        lines: dict[tuple[str, str, str], int | None] = {}
        graded = None
        for row in rows:
            if graded is None:
                graded = row.grade is not None
            elif graded != (row.grade is not None):
                raise QrelsFormatError(
                    "a file mixes INEX (e, s) pairs and relevance values; expected one kind throughout",
                    source,
                    row.line,
                )
            if graded:
                try:
                    check_grade(*row.grade)
                except ValueError as exc:
                    raise QrelsFormatError(str(exc), source, row.line) from None
                row = QrelsRow(
                    row.topic, row.docid, row.xpath, float(quantise([row.grade], "gen")[0]), row.line, row.grade
                )
            if not (-float("inf") < row.rel < float("inf")):
                raise QrelsFormatError(
                    f"relevance must be a number in [0, 1] (or a TREC-style grade such as 2 or -1), got {row.rel!r}",
                    source,
                    row.line,
                )
            try:
                xp = canonical_xpath(row.xpath)
            except ValueError as exc:
                raise QrelsFormatError(str(exc), source, row.line) from None
            key = (row.docid, xp)
            topic = judgments.setdefault(row.topic, {})
            if key in topic:
                raise QrelsFormatError(
                    f"topic {row.topic}: node {row.docid} {xp} is assessed twice (also line "
                    f"{lines[(row.topic,) + key]}); expected one judgment per node",
                    source,
                    row.line,
                )
            topic[key] = float(row.rel)
            lines[(row.topic,) + key] = row.line
            if graded:
                grades.setdefault(row.topic, {})[key] = row.grade
        return cls(judgments, source, lines, grades if graded else None)


def _columns_of_judgments(judgments: dict, lines: dict, grades: dict | None) -> AssessmentColumns:
    """The columns of judgments given per topic (their lines and (e, s) grades, when known); the XPaths are
    kept as given (canonical, as :meth:`ElementQrels.from_rows` makes them)."""
    topics, docids, paths, values, es, at = [], [], [], [], [], []
    for topic, assessed in judgments.items():
        by_node = grades.get(topic, {}) if grades is not None else None
        for (docid, xp), v in assessed.items():
            topics.append(topic)
            docids.append(docid)
            paths.append(xp)
            values.append(v)
            at.append(lines.get((topic, docid, xp)))
            if by_node is not None:
                es.append(by_node.get((docid, xp), (0, 0)))
    empty = tuple(t for t, assessed in judgments.items() if not assessed)
    return AssessmentColumns.from_lists(
        topics,
        docids,
        paths,
        values,
        es if grades is not None else None,
        None if any(x is None for x in at) else at,
        empty,
    )


def _views(columns: DocumentColumns | AssessmentColumns):
    """The judgments, lines and grades dicts of assessments' columns (a document's node is ``/doc[1]``)."""
    from .document import PLAIN_DOCUMENT_NODE

    judgments: dict[str, dict[tuple[str, str], float]] = {t: {} for t in columns.topics}
    lines: dict[tuple[str, str, str], int | None] = {}
    tn, dn = columns.topic_names, columns.doc_names
    n = len(columns)
    line = np.asarray(columns.line).tolist() if columns.line is not None else [None] * n
    path = columns.path.tolist() if hasattr(columns, "path") else [0] * n
    pn = columns.path_names if hasattr(columns, "path_names") else [PLAIN_DOCUMENT_NODE]
    for t, d, p, v, ln in zip(columns.topic.tolist(), columns.doc.tolist(), path, columns.value.tolist(), line):
        topic, key = tn[t], (dn[d], pn[p])
        judgments[topic][key] = v
        lines[(topic,) + key] = ln
    grade = getattr(columns, "grade", None)
    if grade is None:
        return judgments, lines, None
    grades: dict[str, dict[tuple[str, str], tuple[int, int]]] = {}
    for t, d, p, (e, s) in zip(columns.topic.tolist(), columns.doc.tolist(), path, grade.tolist()):
        grades.setdefault(tn[t], {})[(dn[d], pn[p])] = (e, s)
    return judgments, lines, grades
