r"""Focused and thorough passage measures: character precision and recall down the ranking.

Down each topic's results (inex-rules §1, §3.1; ESR paper Eq 15-17), with running
totals of relevant characters retrieved ``RR`` and characters retrieved ``RS``,

.. math:: P = RR / RS, \qquad R = RR / C_{rel},

every result is a point: recall falls in bucket ``b = floor(100 R)``, which
keeps the best precision reached in it (a point with ``RS = 0`` is skipped; a
bucket above 100, only possible with inconsistent assessments, is an
"impossible recall point" and dropped).  The interpolated precision at level
``j`` is the best precision of the buckets ``>= j``; ``AiP`` is the mean of the
101 levels, ``MAiP`` its mean over topics.

* focused: a result adds its highlighted characters and its length;
* thorough: a result adds only the characters its article had not retrieved
  before (its *new* part ``N``): ``|N ∩ H|`` relevant characters, and ``|N|``
  retrieved characters if the article is relevant, its full length if not
  (non-relevant text is charged each time it is retrieved);
* lenient focused: a passage overlapping a passage of its article kept earlier
  is skipped (adds nothing and is no point).

Per topic also: the article counts ``num_ret`` / ``num_rel_ret`` (distinct
articles retrieved / relevant ones among them), ``ret_size = RS`` and
``rel_ret_size = RR`` at the end of the ranking, and from them ``art_prec``,
``art_rec``, ``art_f1``, ``char_prec``, ``char_rec``, ``char_f1``
(inex-rules §3.1; an F1 with a zero precision or recall is 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .inputs import PassageInputs, highlighted
from .rules import new_characters, skipped_overlaps

__all__ = ["CharacterStats", "character_stats", "interpolated_precision"]


@dataclass
class CharacterStats:
    """Per-topic results of the focused or thorough task (arrays of shape (T,) unless noted)."""

    levels: np.ndarray  # (T, 101) interpolated precision at j / 100
    counts: tuple  # per topic, in the order of the official tool's counts (graphsr.measures.fol.measures.COUNTS)
    ratios: tuple  # per topic, in the order of its ratios (RATIOS)
    point_topic: np.ndarray  # topic of each recall point
    precision: np.ndarray  # P at each point
    recall: np.ndarray  # R at each point
    skipped: int  # lenient focused: results skipped as overlapping
    impossible: int  # points dropped with a recall bucket above 100


def _segment_cumsum(values: np.ndarray, topic: np.ndarray, T: int) -> np.ndarray:
    """Running sums of ``values`` restarted at each topic (results are grouped by topic)."""
    counts = np.bincount(topic, minlength=T)
    first = np.cumsum(counts) - counts
    c = np.cumsum(values)
    return c - np.concatenate([[0], c])[first[topic]]


def _f1(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    den = p + r
    return np.divide(2 * p * r, den, out=np.zeros_like(p), where=(p > 0) & (r > 0))


def character_stats(x: PassageInputs, thorough: bool = False, lenient: bool = False) -> CharacterStats:
    """The focused (or thorough) task's quantities for every topic of ``x``."""
    T = len(x.topics)
    n = len(x.res_group)
    relevant = x.relevant_row
    skip = skipped_overlaps(x) if (lenient and not thorough) else np.zeros(n, dtype=bool)
    if thorough:
        seg_res, seg_s, seg_e = new_characters(x)
        rel = np.bincount(seg_res, weights=highlighted(x, x.res_row[seg_res], seg_s, seg_e), minlength=n)
        new = np.bincount(seg_res, weights=seg_e - seg_s, minlength=n)
        size = np.where(relevant, new, np.maximum(x.res_end - x.res_start, 0)).astype(float)
    else:
        rel = highlighted(x, x.res_row, x.res_start, x.res_end).astype(float)
        size = np.maximum(x.res_end - x.res_start, 0).astype(float)
        rel[skip], size[skip] = 0.0, 0.0
    topic = x.res_topic
    cum_rel, cum_size = _segment_cumsum(rel, topic, T), _segment_cumsum(size, topic, T)
    crel = x.topic_rel_chars.astype(float)
    point = ~skip & (cum_size > 0)
    p_topic = topic[point]
    precision = cum_rel[point] / cum_size[point]
    trel = crel[p_topic]
    recall = np.divide(cum_rel[point], trel, out=np.zeros_like(precision), where=trel > 0)
    bucket = np.floor(recall * 100.0).astype(np.int64)
    ok = bucket <= 100
    best = np.zeros((T, 101))
    cell, value = p_topic[ok] * 101 + bucket[ok], precision[ok]
    if len(cell) and np.all(cell[1:] >= cell[:-1]):  # the usual order (recall grows down a topic): runs of cells
        first = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]])
        best.flat[cell[first]] = np.maximum.reduceat(value, first)
    else:
        np.maximum.at(best.reshape(-1), cell, value)
    levels = np.maximum.accumulate(best[:, ::-1], axis=1)[:, ::-1]
    # per-topic counts (inex-rules §3.1): distinct articles, characters at the end of the ranking
    groups = int(x.res_group.max()) + 1 if n else 0
    group_topic = np.full(groups, -1, dtype=np.int64)
    group_topic[x.res_group] = topic  # a group (topic, article) lies in one topic
    group_relevant = np.zeros(groups, dtype=bool)
    group_relevant[x.res_group] = relevant
    seen = group_topic >= 0
    num_ret = np.bincount(group_topic[seen], minlength=T)
    num_rel_ret = np.bincount(group_topic[seen & group_relevant], minlength=T)
    ret_size = np.bincount(topic, weights=size, minlength=T)
    rel_ret_size = np.bincount(topic, weights=rel, minlength=T)
    counts = (  # (in the order of the official tool's counts, graphsr.measures.fol.measures.COUNTS)
        num_ret.astype(float),
        x.topic_rel_articles.astype(float),
        num_rel_ret.astype(float),
        ret_size,
        crel,
        rel_ret_size,
    )
    art_p = np.divide(num_rel_ret, num_ret, out=np.zeros(T), where=num_ret > 0)
    nrel = x.topic_rel_articles
    art_r = np.divide(num_rel_ret, nrel, out=np.zeros(T), where=nrel > 0)
    ch_p = np.divide(rel_ret_size, ret_size, out=np.zeros(T), where=ret_size > 0)
    ch_r = np.divide(rel_ret_size, crel, out=np.zeros(T), where=crel > 0)
    ratios = (art_p, art_r, _f1(art_p, art_r), ch_p, ch_r, _f1(ch_p, ch_r))  # (in the order of RATIOS)
    return CharacterStats(levels, counts, ratios, p_topic, precision, recall, int(skip.sum()), int((~ok).sum()))


def interpolated_precision(stats: CharacterStats, x: float, T: int) -> np.ndarray:
    """``iP[x]`` per topic: the curve at ``x`` on the 0.01 grid, else ``max{P : R >= x}``."""
    j = round(x * 100)
    if abs(x * 100 - j) < 1e-9 and 0 <= j <= 100:
        return stats.levels[:, j].copy()
    out = np.zeros(T)
    ok = stats.recall >= x
    np.maximum.at(out, stats.point_topic[ok], stats.precision[ok])
    return out
