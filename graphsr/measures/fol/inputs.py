r"""The official INEX passage measures (inex_eval 3.1), vectorised over a whole run: the inputs.

The definitions follow docs/inex-rules.md (cited
below as inex-rules §n), which records how the official tool computes every line
it prints; graphsr reproduces every line of the tool's outputs there.

* Results are taken **in file order** (inex-rules §0): the tool reads neither the
  rank nor the score column.  :class:`PassageInputs` holds them grouped by
  topic, in the evaluation order within each topic.
* Focused and thorough (inex-rules §1, §3.1-3.2; ESR paper Eq 15-17): character
  precision and recall down the ranking, recall bucketed as ``floor(100 R)``,
  the best precision per bucket, interpolated from above over 101 levels
  (:mod:`graphsr.measures.fol.focused`).
* Relevant in Context, T2I and Best in Context (inex-rules §2, §3.3): an article
  score per article rank, then generalized precision and recall
  (:mod:`graphsr.measures.fol.context`).
* Which runs the tool refuses (inex-rules §0, errors) and the lenient alternatives
  are in :mod:`graphsr.measures.fol.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["PassageInputs", "highlighted", "covered", "irrelevant_position", "SPAN"]

SPAN = np.int64(1) << 40  # global coordinate of an assessment row's character: row * SPAN + offset


@dataclass(eq=False)
class PassageInputs:
    """One passage run aligned with FOL assessments.

    Results are grouped by topic (in ``topics`` order), in the evaluation
    order within each topic.  ``res_group`` numbers the (topic, article)
    pairs of the run; ``res_row`` is the assessment row of the result's
    article (-1 if not judged); ``res_seq`` orders results as the tool meets
    them (the file line; the position when ordered by rank), to name the
    first result that breaks a rule.

    Parameters
    ----------
    topics : list of str
        The evaluated topics; ``res_topic`` and the per-topic arrays index it.
    res_topic, res_group, res_row, res_start, res_end, res_seq : arrays of int, shape (N,)
    row_rel_chars, row_bep, row_doc_len : arrays of int, shape (J,)
        Highlighted characters, best entry point (-1: none) and length per assessment row.
    pass_row, pass_start, pass_end : arrays of int, shape (P,)
        Highlighted passages, sorted by (row, start), disjoint.
    topic_rel_chars, topic_rel_articles : arrays of int, shape (T,)
        Highlighted characters (C_rel) and relevant articles (N_rel) of each topic.
    qrels_rel_chars, qrels_rel_articles : int
        The same summed over every topic of the assessments (the in-context
        tasks' "all" counts, inex-rules §3.3).
    by_group_start : array of int, shape (N,), optional
        An order of the results by group, then start (None: not known; the
        rules sort them where they need it).
    """

    topics: list
    res_topic: np.ndarray
    res_group: np.ndarray
    res_row: np.ndarray
    res_start: np.ndarray
    res_end: np.ndarray
    res_seq: np.ndarray
    row_rel_chars: np.ndarray
    row_bep: np.ndarray
    row_doc_len: np.ndarray
    pass_row: np.ndarray
    pass_start: np.ndarray
    pass_end: np.ndarray
    topic_rel_chars: np.ndarray
    topic_rel_articles: np.ndarray
    qrels_rel_chars: int = 0
    qrels_rel_articles: int = 0
    by_group_start: np.ndarray | None = None

    @property
    def relevant_row(self) -> np.ndarray:
        """Per result: its article is judged and has highlighted text."""
        row = self.res_row
        return (row >= 0) & (self.row_rel_chars[np.maximum(row, 0)] > 0) if len(self.row_rel_chars) else row >= 0

    @cached_property
    def pass_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Highlighted passages in global coordinates: starts, lengths, and the characters before each."""
        gs = self.pass_row * SPAN + self.pass_start
        lengths = self.pass_end - self.pass_start
        return gs, lengths, np.concatenate([[0], np.cumsum(lengths)])


def highlighted(x: PassageInputs, row: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Highlighted characters within ``[start, end)`` of assessment rows ``row`` (0 where ``row < 0``).

    Examples
    --------
    >>> z = np.zeros(0, int)
    >>> x = PassageInputs([], z, z, z, z, z, z, np.array([30]), np.array([10]), np.array([100]),
    ...                   np.array([0, 0]), np.array([10, 60]), np.array([20, 80]), z, z)
    >>> highlighted(x, np.array([0, 0, -1]), np.array([0, 15, 0]), np.array([100, 65, 100])).tolist()
    [30, 10, 0]
    """
    row, start, end = (np.asarray(a, dtype=np.int64) for a in (row, start, end))
    out = np.zeros(len(row), dtype=np.int64)
    if len(x.pass_row) == 0 or len(row) == 0:
        return out
    live = np.flatnonzero((row >= 0) & (x.row_rel_chars[np.maximum(row, 0)] > 0))  # only these rows have any
    base, s = row[live] * SPAN, start[live]
    out[live] = covered(x, base + np.maximum(end[live], s)) - covered(x, base + s)
    return out


def covered(x: PassageInputs, y: np.ndarray) -> np.ndarray:
    """Highlighted characters at global coordinates ``< y`` (every row's passages before ``y``)."""
    gs, lengths, before = x.pass_tables
    if len(gs) == 0:
        return np.zeros(np.shape(y), dtype=np.int64)
    i = np.searchsorted(gs, y, side="right") - 1
    j = np.maximum(i, 0)
    inside = np.clip(y - gs[j], 0, lengths[j])
    return np.where(i >= 0, before[j] + inside, 0)


def irrelevant_position(x: PassageInputs, c: np.ndarray) -> np.ndarray:
    r"""The smallest global coordinate ``y`` with ``y - covered(y) >= c``: where the ``c``-th
    non-highlighted character (counted globally) ends.

    ``y - covered(y)`` is flat inside a highlighted passage and rises by one
    per character outside; at the start of passage ``k`` it is
    ``a_k = gs_k - before_k``.  With ``k`` the number of passages with
    ``a_k < c``, ``y = c + before_k``.
    """
    gs, _, before = x.pass_tables
    a = gs - before[:-1]
    k = np.searchsorted(a, c, side="left")
    return c + before[k]
