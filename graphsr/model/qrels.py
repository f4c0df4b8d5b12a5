"""Element-level assessments: a relevance value in [0, 1] per node, or an INEX 2002-2005 (e, s) pair.

Nodes that are not listed have relevance 0 (SR paper, section 6).  For
(e, s) assessments the relevance value measures read is the generalised
quantisation of the pair (:mod:`graphsr.model.quantisation`); the measures
of INEX 2002-2005 (PRUM, GRP, xCG, ...) take a ``quant`` parameter instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np

from ..errors import QrelsFormatError
from .columns import DocumentColumns
from .document import PLAIN_DOCUMENT_NODE, canonical_xpath
from .quantisation import check_grade, quantise

__all__ = ["QrelsRow", "ElementQrels"]


@dataclass(frozen=True)
class QrelsRow:
    """One assessment: ``rel`` of node ``(docid, xpath)`` for ``topic``."""

    topic: str
    docid: str
    xpath: str
    rel: float
    line: int | None = None
    grade: tuple[int, int] | None = None  # an INEX (e, s) pair; rel is then its generalised quantisation


class ElementQrels:
    """Per topic, the relevance of assessed nodes.

    ``judgments[topic][(docid, canonical_xpath)] = rel``; for INEX
    2002-2005 assessments also ``grades[topic][(docid, canonical_xpath)] =
    (e, s)`` (else ``grades`` is None).

    Relevance is SR's scale, [0, 1]; TREC-style grades above 1 (0, 1, 2,
    3, ...) and below 0 (the TREC Web track's -2 for spam) are kept for the
    measures that read grades as trec_eval does (the flat family: P, R, AP,
    nDCG, ...; a negative grade is "assessed, not judged": not relevant, no
    gain, skipped by bpref); :meth:`outside_unit` finds them, and the other
    measures refuse such assessments in one line.

    TREC document assessments are held as :class:`~graphsr.model.columns.DocumentColumns` (``columns``;
    :meth:`from_columns`): the flat measures read the arrays, and ``judgments`` is built only when asked for.
    """

    def __init__(self, judgments: dict[str, dict[tuple[str, str], float]] | None, source: str | None = None,
                 lines: dict[tuple[str, str, str], int | None] | None = None,
                 grades: dict[str, dict[tuple[str, str], tuple[int, int]]] | None = None,
                 columns: DocumentColumns | None = None):
        if judgments is None and columns is None:
            raise ValueError("assessments need their judgments or their columns")
        self._judgments = judgments
        self.source = source
        self._lines = lines or {}
        self.grades = grades
        self.columns = columns

    @classmethod
    def from_columns(cls, columns: DocumentColumns, source: str | None = None) -> "ElementQrels":
        """Assessments of whole documents from :class:`~graphsr.model.columns.DocumentColumns` of relevance
        values (TREC qrels); nothing per line is built until a family asks for :attr:`judgments`.

        Raises
        ------
        QrelsFormatError
            For a value that is not finite, or a document assessed twice for one topic.
        """
        bad = np.flatnonzero(~np.isfinite(columns.value))
        k = columns.duplicate()
        if len(bad) and (k is None or bad[0] < k):
            where = columns.line[bad[0]] if columns.line is not None else None
            raise QrelsFormatError(f"relevance must be a number in [0, 1] (or a TREC-style grade such as 2 or -1), "
                                   f"got {columns.value[bad[0]]!r}", source, where)
        if k is not None:
            topic, docid = columns.topic_names[columns.topic[k]], columns.doc_names[columns.doc[k]]
            where = columns.line[k] if columns.line is not None else None
            raise QrelsFormatError(f"topic {topic}: document {docid} is assessed twice; expected one judgment per "
                                   "document", source, where)
        return cls(None, source, columns=columns)

    @property
    def judgments(self) -> dict[str, dict[tuple[str, str], float]]:
        """``judgments[topic][(docid, canonical_xpath)] = rel`` (built from the columns on first use)."""
        if self._judgments is None:
            self._judgments, self._lines = _document_judgments(self.columns)
        return self._judgments

    @property
    def lines(self) -> dict[tuple[str, str, str], int | None]:
        """``lines[(topic, docid, xpath)]``: where each assessment was read (empty when not from a file)."""
        if self._judgments is None:
            self.judgments
        return self._lines

    def __repr__(self) -> str:
        if self._judgments is None:
            return f"ElementQrels(topics={len(self.topics)}, judged={len(self.columns)})"
        return f"ElementQrels(topics={len(self.judgments)}, judged={sum(map(len, self.judgments.values()))})"

    @property
    def topics(self) -> list[str]:
        if self._judgments is None:
            return list(self.columns.topics)
        return list(self.judgments)

    @property
    def max_rel(self) -> float:
        """The largest relevance value assessed (0 if none)."""
        if self._judgments is None:
            return float(self.columns.value.max(initial=0.0)) if len(self.columns) else 0.0
        return max((v for d in self.judgments.values() for v in d.values()), default=0.0)

    def above_one(self) -> tuple[str, int | None] | None:
        """Where a relevance value above 1 is first assessed: (topic, line), or None."""
        found = self.outside_unit()
        return None if found is None or found[2] < 0 else found[:2]

    def outside_unit(self) -> tuple[str, int | None, float] | None:
        """Where a relevance value outside [0, 1] (a TREC-style grade) is first assessed: (topic, line,
        value), or None."""
        if self._judgments is None:
            c = self.columns
            outside = np.flatnonzero((c.value > 1.0) | (c.value < 0.0))
            if not len(outside):
                return None
            k = int(outside[0])
            return (c.topic_names[c.topic[k]], int(c.line[k]) if c.line is not None else None, float(c.value[k]))
        for topic, d in self.judgments.items():
            for (docid, xp), v in d.items():
                if v > 1.0 or v < 0.0:
                    return topic, self.lines.get((topic, docid, xp)), v
        return None

    def __iter__(self) -> Iterator[tuple[str, str, str, float]]:
        for topic, d in self.judgments.items():
            for (docid, xp), rel in d.items():
                yield topic, docid, xp, rel

    def docids(self) -> set[str]:
        if self._judgments is None:
            return set(self.columns.docids)
        return {docid for d in self.judgments.values() for docid, _ in d}

    def rel(self, topic: str, docid: str, xpath: str) -> float:
        """Relevance of a node (0 if not assessed)."""
        return self.judgments.get(topic, {}).get((docid, canonical_xpath(xpath)), 0.0)

    @classmethod
    def from_rows(cls, rows: Iterable[QrelsRow], source: str | None = None) -> "ElementQrels":
        """Collect assessments, refusing non-finite values and repeated nodes (values above 1 or below 0 are
        TREC-style grades: see the class docstring)."""
        judgments: dict[str, dict[tuple[str, str], float]] = {}
        grades: dict[str, dict[tuple[str, str], tuple[int, int]]] = {}
        lines: dict[tuple[str, str, str], int | None] = {}
        graded = None
        for row in rows:
            if graded is None:
                graded = row.grade is not None
            elif graded != (row.grade is not None):
                raise QrelsFormatError("a file mixes INEX (e, s) pairs and relevance values; expected one kind "
                                       "throughout", source, row.line)
            if graded:
                try:
                    check_grade(*row.grade)
                except ValueError as exc:
                    raise QrelsFormatError(str(exc), source, row.line) from None
                row = QrelsRow(row.topic, row.docid, row.xpath, float(quantise([row.grade], "gen")[0]), row.line,
                               row.grade)
            if not (-float("inf") < row.rel < float("inf")):
                raise QrelsFormatError(f"relevance must be a number in [0, 1] (or a TREC-style grade such as 2 or "
                                       f"-1), got {row.rel!r}", source, row.line)
            try:
                xp = canonical_xpath(row.xpath)
            except ValueError as exc:
                raise QrelsFormatError(str(exc), source, row.line) from None
            key = (row.docid, xp)
            topic = judgments.setdefault(row.topic, {})
            if key in topic:
                raise QrelsFormatError(
                    f"topic {row.topic}: node {row.docid} {xp} is assessed twice (also line "
                    f"{lines[(row.topic,) + key]}); expected one judgment per node", source, row.line)
            topic[key] = float(row.rel)
            lines[(row.topic,) + key] = row.line
            if graded:
                grades.setdefault(row.topic, {})[key] = row.grade
        return cls(judgments, source, lines, grades if graded else None)


def _document_judgments(columns: DocumentColumns):
    """The judgments and lines dicts of document assessments (each document the node ``/doc[1]``)."""
    judgments: dict[str, dict[tuple[str, str], float]] = {t: {} for t in columns.topics}
    lines: dict[tuple[str, str, str], int | None] = {}
    tn, dn = columns.topic_names, columns.doc_names
    line = columns.line.tolist() if columns.line is not None else [None] * len(columns)
    for t, d, v, ln in zip(columns.topic.tolist(), columns.doc.tolist(), columns.value.tolist(), line):
        topic, docid = tn[t], dn[d]
        judgments[topic][(docid, PLAIN_DOCUMENT_NODE)] = v
        lines[(topic, docid, PLAIN_DOCUMENT_NODE)] = ln
    return judgments, lines
