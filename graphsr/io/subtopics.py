"""Reader of TREC diversity qrels, ``topic subtopic docno grade``: one judgment per document and subtopic
(:class:`~graphsr.core.subtopics.SubtopicJudgments`)."""

from __future__ import annotations

import os

from ..core.subtopics import SubtopicJudgments
from ..errors import QrelsFormatError

__all__ = ["read_subtopic_qrels", "MAX_GRADE"]

#: The largest grade (in magnitude) a diversity qrels line may give: what a 64-bit integer holds, but the one
#: value kept to mark a pair not judged.
MAX_GRADE = 2**63 - 1


def read_subtopic_qrels(path: str | os.PathLike) -> SubtopicJudgments:
    """Read diversity qrels: ``topic subtopic docno grade`` lines, the grade a whole number (negative: judged
    not relevant).

    Raises
    ------
    QrelsFormatError
        For a line without 4 fields, a grade that is not a whole number within +-:data:`MAX_GRADE`, or a document
        judged twice for one subtopic.
    """
    from ._lines import iter_fields

    rows = []
    for lineno, f in iter_fields(path, QrelsFormatError):
        if len(f) != 4:
            raise QrelsFormatError(
                f"expected 4 fields 'topic subtopic docno grade' (diversity qrels), got {len(f)}", path, lineno
            )
        topic, subtopic, docid, grade = f
        try:
            value = int(grade)
        except ValueError:
            raise QrelsFormatError(f"expected a whole grade in field 4, got {grade!r}", path, lineno) from None
        if not -MAX_GRADE <= value <= MAX_GRADE:  # (kept as 64-bit integers)
            raise QrelsFormatError(
                f"expected a whole grade in field 4 within +-{MAX_GRADE:,}, got {grade!r}", path, lineno
            )
        rows.append((topic, subtopic, docid, value, lineno))
    if not rows:
        raise QrelsFormatError("the qrels file is empty: expected lines 'topic subtopic docno grade'", path)
    return SubtopicJudgments.from_rows(rows, os.fspath(path))
