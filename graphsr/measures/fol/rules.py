"""Which passage runs the official tool refuses, and graphsr's lenient alternatives (inex-rules §0, §1).

The official tool stops evaluating a run (inex-rules §0, errors) at

* **overlap** -- in the focused, Relevant in Context and T2I tasks, a passage
  sharing at least one character with an earlier passage of the same article
  (zero-length passages share none);
* **interleave** -- in Relevant in Context, T2I and Best in Context, an
  article that appears again after another article;
* **repeat** -- in Best in Context, two consecutive results for one article.

``--lenient`` scores such runs instead, not as the official tool would: the
focused task skips a passage overlapping a passage of its article *kept*
earlier (it adds neither characters nor a recall point); RiC and T2I score the
union of an article's passages; BiC scores an article's first result.
Interleaved articles are refused either way.  The thorough task allows
overlap: :func:`new_characters` gives the part of each passage not retrieved
before in its article (inex-rules §1).

"Earlier" is the evaluation order: results are grouped by topic and a group
(topic, article) lies in one topic, so within a group the lower index is the
earlier result.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from ..._numpy import distinct

from .inputs import SPAN, PassageInputs

__all__ = ["Violation", "first_violation", "skipped_overlaps", "new_characters", "article_blocks"]

_MAX_PAIRS = 20_000_000  # above this many candidate pairs, overlapping groups are walked in Python


@dataclass(frozen=True)
class Violation:
    """A result that breaks a rule of the official tool: ``kind`` is ``overlap``, ``interleave`` or
    ``repeat``; ``result`` and ``earlier`` index the inputs' results."""

    kind: str
    result: int
    earlier: int


def _ends(x: PassageInputs) -> np.ndarray:
    return np.maximum(x.res_end, x.res_start)


def suspect_groups(x: PassageInputs) -> np.ndarray:
    """Groups with two non-empty passages that share a character."""
    n = len(x.res_group)
    if n < 2:
        return np.zeros(0, dtype=np.int64)
    per_group = np.bincount(x.res_group)
    if int(per_group.max()) < 2:  # no article with two results
        return np.zeros(0, dtype=np.int64)
    g, a, b = x.res_group, x.res_start, _ends(x)
    same = g[1:] == g[:-1]
    blocks = n - int(same.sum())
    if blocks == int(np.count_nonzero(per_group)) and bool((a[1:][same] >= a[:-1][same]).all()):
        # the usual run: an article's results together and in document order -- no sort needed; a running
        # maximum of the ends restarts at each block because block keys grow along the array
        block = np.concatenate([[0], np.cumsum(~same)])
        reach = np.maximum.accumulate(block * SPAN + b)
        nonempty = b > a
        clash = np.zeros(n, dtype=bool)
        clash[1:] = same & (block[1:] * SPAN + a[1:] < reach[:-1]) & nonempty[1:]
        # an empty passage never overlaps; one before a clash may have raised nothing (its end = its start)
        return distinct(g[clash])
    if x.by_group_start is not None:  # (the order the grouping's sort gave)
        order = x.by_group_start
    elif int(x.res_group.max()) < (1 << 30) and int(x.res_start.min()) >= 0 and int(x.res_start.max()) < (1 << 32):
        order = np.argsort((x.res_group << 32) | x.res_start)  # one integer sort instead of a lexsort
    else:
        order = np.lexsort((x.res_start, x.res_group))
    g = x.res_group[order]
    gs, ge = g * SPAN + x.res_start[order], g * SPAN + _ends(x)[order]
    nonempty = ge > gs
    gs, ge, g = gs[nonempty], ge[nonempty], g[nonempty]
    if len(g) < 2:
        return np.zeros(0, dtype=np.int64)
    run_end = np.maximum.accumulate(ge)
    clash = np.zeros(len(g), dtype=bool)
    clash[1:] = (g[1:] == g[:-1]) & (gs[1:] < run_end[:-1])
    return distinct(g[clash])


def _members(x: PassageInputs, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Results of ``groups``, by group and in evaluation order within a group, and the group sizes."""
    members = np.flatnonzero(np.isin(x.res_group, groups))
    members = members[np.argsort(x.res_group[members], kind="stable")]
    g = x.res_group[members]
    sizes = np.diff(np.flatnonzero(np.r_[True, g[1:] != g[:-1], True])) if len(g) else np.zeros(0, np.int64)
    return members, sizes


def _overlapping_pairs(x: PassageInputs, members: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (earlier i, later j) of one group whose passages share a character (positions in members)."""
    within = np.arange(len(members)) - np.repeat(np.cumsum(sizes) - sizes, sizes)  # position in the group
    pj = np.repeat(np.arange(len(members)), within)
    pi = pj - (np.arange(len(pj)) - np.repeat(np.cumsum(within) - within, within)) - 1
    a, b = x.res_start[members], _ends(x)[members]
    hit = np.maximum(a[pi], a[pj]) < np.minimum(b[pi], b[pj])
    return pi[hit], pj[hit]


def _pair_count(sizes: np.ndarray) -> int:
    return int((sizes * (sizes - 1) // 2).sum())


def _first_overlap(x: PassageInputs) -> Violation | None:
    suspects = suspect_groups(x)
    if len(suspects) == 0:
        return None
    members, sizes = _members(x, suspects)
    if _pair_count(sizes) > _MAX_PAIRS:
        return _walk_first_overlap(x, members)
    pi, pj = _overlapping_pairs(x, members, sizes)
    j = members[pj]
    k = int(np.argmin(x.res_seq[j] * np.int64(len(x.res_seq) + 1) + j))  # first offender in the tool's order
    earlier = int(members[pi[pj == pj[k]]].min())
    return Violation("overlap", int(j[k]), earlier)


def _walk_first_overlap(x: PassageInputs, members: np.ndarray) -> Violation | None:
    best = None
    spans: dict[int, list[tuple[int, int, int]]] = {}
    for i in np.sort(members).tolist():
        a, b = int(x.res_start[i]), int(max(x.res_end[i], x.res_start[i]))
        seen = spans.setdefault(int(x.res_group[i]), [])
        hit = next((k for s, e, k in seen if max(a, s) < min(b, e)), None)
        if hit is not None and (best is None or x.res_seq[i] < x.res_seq[best.result]):
            best = Violation("overlap", i, hit)
        seen.append((a, b, i))
    return best


def article_blocks(x: PassageInputs) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) of each run of consecutive results of one article (an article rank)."""
    n = len(x.res_group)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = x.res_group[1:] != x.res_group[:-1]
    starts = np.flatnonzero(new)
    return starts, np.append(starts[1:], n)


def _first_interleave(x: PassageInputs, starts: np.ndarray) -> Violation | None:
    groups = x.res_group[starts]
    _, first_block, inverse = np.unique(groups, return_index=True, return_inverse=True)
    again = np.flatnonzero(first_block[inverse.ravel()] < np.arange(len(groups)))
    if len(again) == 0:
        return None
    res = starts[again]
    k = int(np.argmin(x.res_seq[res]))
    return Violation("interleave", int(res[k]), int(starts[first_block[inverse.ravel()[again[k]]]]))


def _first_repeat(x: PassageInputs, starts: np.ndarray, ends: np.ndarray) -> Violation | None:
    many = np.flatnonzero(ends - starts > 1)
    if len(many) == 0:
        return None
    second = starts[many] + 1
    k = int(np.argmin(x.res_seq[second]))
    return Violation("repeat", int(second[k]), int(second[k] - 1))


def first_violation(x: PassageInputs, kinds: set[str]) -> Violation | None:
    """The first result, in the tool's order, that breaks one of the rules ``kinds``."""
    found = []
    if "overlap" in kinds:
        found.append(_first_overlap(x))
    if kinds & {"interleave", "repeat"}:
        starts, ends = article_blocks(x)
        if "interleave" in kinds:
            found.append(_first_interleave(x, starts))
        if "repeat" in kinds:
            found.append(_first_repeat(x, starts, ends))
    found = [v for v in found if v is not None]
    return min(found, key=lambda v: (x.res_seq[v.result], v.result)) if found else None


def skipped_overlaps(x: PassageInputs) -> np.ndarray:
    """Lenient focused task: results overlapping a result of their article kept earlier (skipped)."""
    skip = np.zeros(len(x.res_group), dtype=bool)
    suspects = suspect_groups(x)
    if len(suspects) == 0:
        return skip
    members, sizes = _members(x, suspects)
    if _pair_count(sizes) > _MAX_PAIRS:
        return _walk_skips(x, members, skip)
    pi, pj = _overlapping_pairs(x, members, sizes)
    # j is skipped iff it overlaps an earlier kept i: a fixed point reached in at most (longest chain) steps
    skipped = np.zeros(len(members), dtype=bool)
    for _ in range(int(sizes.max()) + 1):
        now = np.zeros(len(members), dtype=bool)
        now[pj[~skipped[pi]]] = True
        if np.array_equal(now, skipped):
            break
        skipped = now
    skip[members[skipped]] = True
    return skip


def _walk_skips(x: PassageInputs, members: np.ndarray, skip: np.ndarray) -> np.ndarray:
    """The sequential rule of :func:`skipped_overlaps`."""
    kept: dict[int, list[tuple[int, int]]] = {}
    for i in np.sort(members).tolist():
        a, b = int(x.res_start[i]), int(x.res_end[i])
        spans = kept.setdefault(int(x.res_group[i]), [])
        if any(max(a, s) < min(b, e) for s, e in spans):
            skip[i] = True
        else:
            spans.append((a, b))
    return skip


def new_characters(x: PassageInputs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thorough task (inex-rules §1): the part of each passage its article had not retrieved before, as
    segments ``(result, start, end)`` (a result may have none or several)."""
    n = len(x.res_group)
    idx = np.arange(n, dtype=np.int64)
    suspects = suspect_groups(x)
    if len(suspects) == 0:
        return idx, x.res_start.copy(), _ends(x)
    plain = ~np.isin(x.res_group, suspects)
    seg = [(idx[plain], x.res_start[plain], _ends(x)[plain])]
    members, _ = _members(x, suspects)
    res, s_out, e_out = [], [], []
    covered: dict[int, tuple[list[int], list[int]]] = {}
    for i in np.sort(members).tolist():
        a, b = int(x.res_start[i]), int(max(x.res_end[i], x.res_start[i]))
        starts, ends = covered.setdefault(int(x.res_group[i]), ([], []))
        # covered intervals are disjoint and sorted; those touching [a, b) are ends[k] >= a, starts[k] <= b
        lo, hi = bisect_left(ends, a), bisect_right(starts, b)
        pos = a
        for k in range(lo, hi):
            if starts[k] > pos:
                res.append(i)
                s_out.append(pos)
                e_out.append(min(starts[k], b))
            pos = max(pos, ends[k])
        if pos < b:
            res.append(i)
            s_out.append(pos)
            e_out.append(b)
        if b > a:
            merged_s = min([a] + starts[lo:hi])
            merged_e = max([b] + ends[lo:hi])
            starts[lo:hi] = [merged_s]
            ends[lo:hi] = [merged_e]
    seg.append((np.array(res, dtype=np.int64), np.array(s_out, dtype=np.int64), np.array(e_out, dtype=np.int64)))
    return tuple(np.concatenate(parts) for parts in zip(*seg))
