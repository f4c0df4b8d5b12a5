"""Judgments per subtopic (intent) of a topic: what the diversity measures score against.

A TREC diversity qrels file (the Web track's) is ``topic subtopic docno grade``: a document is judged once
for each subtopic of its topic.  :class:`SubtopicJudgments` keeps, per topic, the judged documents (ascending)
and a grade per document and subtopic (:data:`NOT_JUDGED` where a document has no line for a subtopic), the
subtopics in the order they first appear in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import QrelsFormatError

__all__ = ["SubtopicJudgments", "NOT_JUDGED"]

#: The grade of a (document, subtopic) no line judges: below every relevance threshold.
NOT_JUDGED = np.iinfo(np.int64).min


@dataclass
class SubtopicJudgments:
    """``topics[topic] = (docs, grades)``: the topic's judged documents in ascending order, and their grades,
    one row per document and one column per subtopic of the topic (``subtopics[topic]``, in order of first
    appearance in the file)."""

    topics: dict[str, tuple[list[str], np.ndarray]] = field(default_factory=dict)
    subtopics: dict[str, list[str]] = field(default_factory=dict)
    source: str | None = None

    @classmethod
    def from_rows(cls, rows, source: str | None = None) -> "SubtopicJudgments":
        """From ``(topic, subtopic, docid, grade, line)`` rows.

        Raises
        ------
        QrelsFormatError
            For a document judged twice for one subtopic of a topic.
        """
        order = {s: k for k, s in enumerate(dict.fromkeys(r[1] for r in rows))}
        seen: dict = {}
        by_topic: dict[str, list] = {}
        for topic, subtopic, docid, grade, line in rows:
            key = (topic, subtopic, docid)
            if key in seen:
                raise QrelsFormatError(
                    f"topic {topic}: document {docid} is judged twice for subtopic {subtopic} (also line {seen[key]})",
                    source,
                    line,
                )
            seen[key] = line
            by_topic.setdefault(topic, []).append((subtopic, docid, grade))
        out = cls(source=source)
        for topic, judged in by_topic.items():
            subs = sorted({s for s, _, _ in judged}, key=order.__getitem__)
            docs = sorted({d for _, d, _ in judged})
            row = {d: k for k, d in enumerate(docs)}
            col = {s: k for k, s in enumerate(subs)}
            grades = np.full((len(docs), len(subs)), NOT_JUDGED, dtype=np.int64)
            for s, d, g in judged:
                grades[row[d], col[s]] = g
            out.topics[topic] = (docs, grades)
            out.subtopics[topic] = subs
        return out

    def several(self) -> bool:
        """Whether some topic has more than one subtopic (else the file is likely plain qrels)."""
        return any(len(s) > 1 for s in self.subtopics.values())
