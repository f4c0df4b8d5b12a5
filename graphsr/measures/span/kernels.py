r"""The span family's arithmetic: pure functions over arrays (no files, no database).

Characters are placed on one global line, ``row * SPAN + offset`` (``row`` an assessment row: one query and
document), as the passage family places them (:mod:`graphsr.measures.fol.inputs`), so that unions and
intersections of many queries' ranges are a few sorts and searches.

>>> import numpy as np
>>> t = union_table(np.array([0, 5, 20]), np.array([10, 12, 30]))
>>> cover(t, np.array([0, 11, 15, 25, 99])).tolist()
[0, 11, 12, 17, 22]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from ..fol.inputs import SPAN

__all__ = ["SpanInputs", "union_table", "cover", "positions", "chroma", "budget", "unjudged", "touching_chunks"]

_I64 = np.int64


@dataclass(eq=False)
class SpanInputs:
    """One run's results and the assessments, on the global character line.

    Results are grouped by topic (``res_topic`` ascending), in ranked order within a topic; ``res_row`` is the
    assessment row of the result's (topic, document), -1 where the document is not judged for the topic.
    ``rel_*`` are the relevant passages (disjoint), ``ref_*`` the references as given (Chroma's: possibly
    overlapping), ``judged_*`` the judged characters (disjoint), all by assessment row; ``row_topic`` is each
    row's topic index (-1: a topic not scored).  ``new_*`` are the parts of each result not read before in its
    topic (``new_res`` the result, ascending; pieces of one result in text order).
    """

    T: int
    res_topic: np.ndarray
    res_row: np.ndarray
    res_start: np.ndarray
    res_end: np.ndarray
    row_topic: np.ndarray
    rel_row: np.ndarray
    rel_start: np.ndarray
    rel_end: np.ndarray
    ref_row: np.ndarray
    ref_start: np.ndarray
    ref_end: np.ndarray
    judged: Callable[[], tuple]
    new_parts: Callable[[], tuple]
    res_score: np.ndarray | None = None  # each result's score, where the run was ranked by it (else None)

    @cached_property
    def new(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(result, start, end) of the parts of results not read before in their topic."""
        return self.new_parts()

    @cached_property
    def judged_table(self):
        """The judged characters as a :func:`union_table`."""
        row, start, end = self.judged()
        return union_table(row * SPAN + start, row * SPAN + end)


def union_table(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The union of ranges ``[starts, ends)`` (global coordinates, any order, empty ones ignored) as disjoint
    sorted pieces: their starts, lengths and the characters before each (for :func:`cover`)."""
    keep = ends > starts
    s, e = starts[keep], ends[keep]
    order = np.argsort(s, kind="stable")
    s, e = s[order], e[order]
    if len(s) == 0:
        z = np.zeros(0, dtype=_I64)
        return z, z, np.zeros(1, dtype=_I64)
    reach = np.maximum.accumulate(e)
    new = np.r_[True, s[1:] > reach[:-1]]  # a piece starts where no earlier range reaches
    first = np.flatnonzero(new)
    last = np.r_[first[1:] - 1, len(s) - 1]
    ps, pe = s[first], reach[last]
    lengths = pe - ps
    return ps, lengths, np.concatenate([[0], np.cumsum(lengths)])


def cover(table: tuple[np.ndarray, np.ndarray, np.ndarray], y: np.ndarray) -> np.ndarray:
    """Characters of the union ``table`` (:func:`union_table`) below global coordinates ``y``."""
    ps, lengths, before = table
    if len(ps) == 0:
        return np.zeros(np.shape(y), dtype=_I64)
    y = np.asarray(y, dtype=_I64)
    j = np.asarray(np.searchsorted(ps, y, side="right") - 1)
    np.maximum(j, 0, out=j)  # (below the first piece: its y - ps[0] is negative, so the count is before[0] = 0)
    inside = np.asarray(y - ps[j], dtype=_I64)
    np.maximum(inside, 0, out=inside)
    np.minimum(inside, lengths[j], out=inside)
    inside += before[j]
    return inside


def positions(topic: np.ndarray) -> np.ndarray:
    """Each item's position (0-based) within its topic, for items grouped by topic in ascending order."""
    topic = np.asarray(topic, dtype=_I64)
    n = len(topic)
    if n == 0:
        return np.zeros(0, dtype=_I64)
    starts = np.flatnonzero(np.r_[True, topic[1:] != topic[:-1]])  # (where each topic's items begin)
    return np.arange(n, dtype=_I64) - np.repeat(starts, np.diff(np.r_[starts, n]))


def _within(x: SpanInputs, row: np.ndarray, start: np.ndarray, end: np.ndarray, table) -> np.ndarray:
    """Characters of ``[start, end)`` of assessment rows ``row`` inside ``table`` (0 where ``row < 0``)."""
    base = np.maximum(row, 0) * SPAN
    inside = cover(table, base + np.maximum(end, start)) - cover(table, base + start)
    return np.where(row >= 0, inside, 0)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros(len(num)), where=den > 0)


def chroma(x: SpanInputs, k: np.ndarray) -> dict[str, np.ndarray]:
    """Chroma's IoU, precision and recall per topic over each topic's first ``k[t]`` results (the module
    docstring of :mod:`graphsr.measures.span.measures` states the rules)."""
    T = x.T
    first = positions(x.res_topic) < k[x.res_topic] if len(x.res_topic) else np.zeros(0, dtype=bool)
    t, row = x.res_topic[first], x.res_row[first]
    s, e = x.res_start[first], x.res_end[first]
    charged = np.bincount(t, weights=e - s, minlength=T)
    judged = row >= 0
    got = union_table(row[judged] * SPAN + s[judged], row[judged] * SPAN + e[judged])
    rel_topic = x.row_topic[x.rel_row] if len(x.rel_row) else np.zeros(0, dtype=_I64)
    live = rel_topic >= 0
    hit = _within(x, x.rel_row[live], x.rel_start[live], x.rel_end[live], got)
    found = np.bincount(rel_topic[live], weights=hit, minlength=T)
    ref_topic = x.row_topic[x.ref_row] if len(x.ref_row) else np.zeros(0, dtype=_I64)
    live = ref_topic >= 0
    ref_len = x.ref_end[live] - x.ref_start[live]
    missed = ref_len - _within(x, x.ref_row[live], x.ref_start[live], x.ref_end[live], got)
    ref_total = np.bincount(ref_topic[live], weights=ref_len, minlength=T)
    missed_total = np.bincount(ref_topic[live], weights=missed, minlength=T)
    return {
        "iou": _ratio(found, charged + missed_total),
        "precision": _ratio(found, charged),
        "recall": _ratio(found, ref_total),
    }


def _read(x: SpanInputs, budget: int | None, k: int | None):
    """The pieces read: new parts of results, cut at the first ``k`` results and after ``budget`` characters
    per topic; (result, start, end) of each piece."""
    res, s, e = x.new
    if k is not None and k < len(x.res_topic):  # (k past every result keeps them all: any Python int)
        keep = positions(x.res_topic)[res] < k if len(res) else np.zeros(0, dtype=bool)
        res, s, e = res[keep], s[keep], e[keep]
    if budget is not None and len(res):
        t = x.res_topic[res]
        length = e - s
        total = np.cumsum(length)
        start_of = np.searchsorted(t, t, side="left")
        before = total - length - np.r_[0, total][start_of]  # read earlier in the topic
        e = s + np.clip(min(budget, int(total[-1])) - before, 0, length)  # (a budget past all that is read: all)
    return res, s, e


def budget(x: SpanInputs, B: int, rel_chars: np.ndarray) -> dict[str, np.ndarray]:
    """Precision (relevant read / B) and recall (relevant read / ``rel_chars``) of the first ``B`` characters
    read per topic."""
    res, s, e = _read(x, B, None)
    rel = union_table(x.rel_row * SPAN + x.rel_start, x.rel_row * SPAN + x.rel_end)
    hit = np.bincount(x.res_topic[res], weights=_within(x, x.res_row[res], s, e, rel), minlength=x.T)
    return {"precision": hit / float(B), "recall": _ratio(hit, rel_chars.astype(float))}


def budget_end(x: SpanInputs, B: int) -> tuple[np.ndarray, np.ndarray]:
    """Per topic, the rank (1-based) of the last result a budget of ``B`` characters reads (0: none), and
    whether it reads only part of that result's new characters (the budget ends inside it)."""
    res, s, e = _read(x, B, None)
    full = x.new[2]
    rank = np.zeros(x.T, dtype=_I64)
    inside = np.zeros(x.T, dtype=bool)
    read = e > s
    if read.any():
        pos = positions(x.res_topic)
        t, r = x.res_topic[res[read]], res[read]
        np.maximum.at(rank, t, pos[r] + 1)
        cut = read & (e < full)  # (a piece the budget cut short: the last read, in its topic)
        inside[x.res_topic[res[cut]]] = True
    return rank, inside


def unjudged(x: SpanInputs, k: int | None) -> np.ndarray:
    """Per topic, the share of characters read (each once; the first ``k`` results) outside judged text."""
    res, s, e = _read(x, None, k)
    table = x.judged_table
    t = x.res_topic[res]
    read = np.bincount(t, weights=e - s, minlength=x.T)
    judged = np.bincount(t, weights=_within(x, x.res_row[res], s, e, table), minlength=x.T)
    return _ratio(read - judged, read)


def touching_chunks(
    ref_topic: np.ndarray,
    ref_doc: np.ndarray,
    ref_start: np.ndarray,
    ref_end: np.ndarray,
    chunk_doc: np.ndarray,
    chunk_start: np.ndarray,
    chunk_end: np.ndarray,
    T: int,
) -> np.ndarray:
    """Per topic, how many chunks touch one of its references (Chroma's ``highlighted_chunks_count``: a chunk
    whose range meets the reference's, ends touching included), each chunk once.

    >>> touching_chunks(np.array([0, 0, 1]), np.array([0, 0, 1]), np.array([5, 12, 0]), np.array([10, 14, 3]),
    ...                 np.array([0, 0, 0, 1]), np.array([0, 10, 20, 3]), np.array([10, 20, 30, 9]), 2).tolist()
    [2, 1]
    """
    order = np.lexsort((chunk_start, chunk_doc))
    cd, cs, ce = chunk_doc[order], chunk_start[order], chunk_end[order]
    docs, doc_first = np.unique(cd, return_index=True)
    doc_last = np.r_[doc_first[1:], len(cd)]
    longest = np.maximum.reduceat(ce - cs, doc_first) if len(cd) else np.zeros(0, dtype=_I64)
    found: list[set] = [set() for _ in range(T)]
    where = np.searchsorted(docs, ref_doc)
    for t, d, w, a, b in zip(
        ref_topic.tolist(), ref_doc.tolist(), where.tolist(), ref_start.tolist(), ref_end.tolist()
    ):
        if t < 0 or w >= len(docs) or docs[w] != d:
            continue
        lo, hi = int(doc_first[w]), int(doc_last[w])
        i = lo + int(np.searchsorted(cs[lo:hi], a - int(longest[w]), side="left"))
        j = lo + int(np.searchsorted(cs[lo:hi], b, side="right"))
        near = np.arange(i, j)
        found[t].update(near[ce[i:j] >= a].tolist())
    return np.array([len(f) for f in found], dtype=_I64)
