"""Natural Questions' answers: what its annotators marked and what a system predicts, per example.

An NQ example is one question over one Wikipedia page.  Each annotator marks a *long answer* (one of the
page's long-answer candidates, or none), *short answers* (a set of spans inside it, or none) and a yes/no answer
(``yes``, ``no`` or ``none``).  A prediction has the same three parts and a score for each of its long and short
answers (``nq_eval``'s prediction JSON).

A :class:`Span` is given by UTF-8 byte offsets into the page's HTML, by token offsets, or both; ``-1`` marks
what is not given, and all four ``-1`` is the null span (no answer).  Spans are compared as NQ's scorer compares
them: by bytes where both spans have bytes, and, failing that, by tokens where both have tokens.

The classes here are built by :mod:`graphsr.io.nq` and read by the NQ measures
(:mod:`graphsr.measures.nq`); none reads files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .kinds import ANSWERS

__all__ = ["Span", "NULL_SPAN", "Answer", "NQAssessments", "NQPredictions", "YES_NO"]

#: The yes/no answers an annotator or a system gives (lower case: NQ's files write them in capitals).
YES_NO = ("yes", "no", "none")


@dataclass(frozen=True)
class Span:
    """``[start_byte, end_byte)`` and ``[start_token, end_token)``, either pair ``-1, -1`` where not given.

    Raises ``ValueError`` for a pair given by half, or a pair whose start is not before its end (as NQ's
    scorer does)."""

    start_byte: int = -1
    end_byte: int = -1
    start_token: int = -1
    end_token: int = -1

    def __post_init__(self) -> None:
        for a, b, what in ((self.start_byte, self.end_byte, "byte"), (self.start_token, self.end_token, "token")):
            if (a < 0) != (b < 0):
                raise ValueError(f"a {what} span given by half: [{a}, {b})")
            if a >= 0 and a >= b:
                raise ValueError(f"a {what} span that does not start before it ends: [{a}, {b})")

    @property
    def is_null(self) -> bool:
        """No answer: neither bytes nor tokens."""
        return self.start_byte < 0 and self.start_token < 0

    @property
    def has_bytes(self) -> bool:
        return self.start_byte >= 0

    @property
    def has_tokens(self) -> bool:
        return self.start_token >= 0

    def same(self, other: "Span") -> bool:
        """Whether two non-null spans are the same answer: equal bytes where both give bytes; otherwise (or when
        the bytes differ) equal tokens where both give tokens."""
        if (
            self.has_bytes
            and other.has_bytes
            and (self.start_byte, self.end_byte) == (other.start_byte, other.end_byte)
        ):
            return True
        return (
            self.has_tokens
            and other.has_tokens
            and (self.start_token, self.end_token) == (other.start_token, other.end_token)
        )


NULL_SPAN = Span()


def _non_null(spans) -> tuple[Span, ...]:
    return tuple(s for s in spans if not s.is_null)


@dataclass(frozen=True)
class Answer:
    """One annotator's marks, or one prediction: a long answer, a set of short answers, a yes/no answer, and (a
    prediction's) the scores of its long and short answers."""

    long: Span = NULL_SPAN
    short: tuple[Span, ...] = ()
    yes_no: str = "none"
    long_score: float = 0.0
    short_score: float = 0.0

    def __post_init__(self) -> None:
        if self.yes_no not in YES_NO:
            raise ValueError(f"yes_no_answer must be one of YES, NO, NONE, got {self.yes_no!r}")

    @property
    def has_long(self) -> bool:
        return not self.long.is_null

    @property
    def has_short(self) -> bool:
        """Short answer spans, or a yes/no answer."""
        return bool(_non_null(self.short)) or self.yes_no != "none"

    def same_short(self, other: "Answer") -> bool:
        """Whether the non-null short spans of both are the same set (each of either equals one of the other)."""
        mine, theirs = _non_null(self.short), _non_null(other.short)
        return all(any(a.same(b) for b in theirs) for a in mine) and all(any(b.same(a) for a in mine) for b in theirs)


@dataclass
class NQAssessments:
    """Per example, every annotator's :class:`Answer` (``annotations[example_id]``), with the question text and
    the page's URL; ``candidates[example_id]`` the page's long-answer candidates (spans, in the file's order) and
    ``top_level`` whether each is nested in no other candidate (the file's flag).  ``source`` names the file."""

    annotations: Mapping[str, tuple[Answer, ...]]
    questions: Mapping[str, str] = field(default_factory=dict)
    urls: Mapping[str, str] = field(default_factory=dict)
    candidates: Mapping[str, tuple[Span, ...]] = field(default_factory=dict)
    top_level: Mapping[str, tuple[bool, ...]] = field(default_factory=dict)
    source: str | None = None

    #: Answers, neither elements nor passages (:mod:`graphsr.core.kinds`).
    kind = ANSWERS

    @property
    def topics(self) -> list[str]:
        return list(self.annotations)


@dataclass
class NQPredictions:
    """Per example, a system's :class:`Answer` with its scores (``answers[example_id]``); ``name`` the run's name
    and ``source`` its file."""

    answers: Mapping[str, Answer]
    name: str = "run"
    source: str | None = None

    kind = ANSWERS

    @property
    def topics(self) -> list[str]:
        return list(self.answers)
