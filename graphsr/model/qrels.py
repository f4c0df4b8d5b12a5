"""Element-level assessments: a relevance value in [0, 1] per node.

Nodes that are not listed have relevance 0 (SR paper, section 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from ..errors import QrelsFormatError
from .document import canonical_xpath

__all__ = ["QrelsRow", "ElementQrels"]


@dataclass(frozen=True)
class QrelsRow:
    """One assessment: ``rel`` of node ``(docid, xpath)`` for ``topic``."""

    topic: str
    docid: str
    xpath: str
    rel: float
    line: int | None = None


class ElementQrels:
    """Per topic, the relevance of assessed nodes.

    ``judgments[topic][(docid, canonical_xpath)] = rel``.
    """

    def __init__(self, judgments: dict[str, dict[tuple[str, str], float]], source: str | None = None,
                 lines: dict[tuple[str, str, str], int | None] | None = None):
        self.judgments = judgments
        self.source = source
        self.lines = lines or {}

    def __repr__(self) -> str:
        return f"ElementQrels(topics={len(self.judgments)}, judged={sum(map(len, self.judgments.values()))})"

    @property
    def topics(self) -> list[str]:
        return list(self.judgments)

    def __iter__(self) -> Iterator[tuple[str, str, str, float]]:
        for topic, d in self.judgments.items():
            for (docid, xp), rel in d.items():
                yield topic, docid, xp, rel

    def docids(self) -> set[str]:
        return {docid for d in self.judgments.values() for docid, _ in d}

    def rel(self, topic: str, docid: str, xpath: str) -> float:
        """Relevance of a node (0 if not assessed)."""
        return self.judgments.get(topic, {}).get((docid, canonical_xpath(xpath)), 0.0)

    @classmethod
    def from_rows(cls, rows: Iterable[QrelsRow], source: str | None = None) -> "ElementQrels":
        """Collect assessments, refusing values outside [0, 1] and repeated nodes."""
        judgments: dict[str, dict[tuple[str, str], float]] = {}
        lines: dict[tuple[str, str, str], int | None] = {}
        for row in rows:
            if not (0.0 <= row.rel <= 1.0):
                raise QrelsFormatError(f"relevance must be a number in [0, 1], got {row.rel!r}", source, row.line)
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
        return cls(judgments, source, lines)
