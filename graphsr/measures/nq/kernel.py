"""Natural Questions' official figures (the rules of ``nq_eval.py``), as pure functions.

Per example, a long or a short answer gives four numbers (:func:`long_stats`, :func:`short_stats`): whether the
gold has that answer (at least ``votes`` annotators -- NQ's default two -- marked one), whether the prediction
gives one, whether it is correct (exactly one annotator's: the same candidate for a long answer; the same set of
spans, or the same yes/no answer, for a short answer), and the prediction's score.

Over examples, :func:`threshold_points` ranks them by score (highest first) and takes precision and recall at
each distinct score, every example scored at least that high counted as answered; :func:`best_f1` is the first
point of greatest F1 (``nq_eval``'s best-threshold F1, precision and recall), :func:`recall_at_precision` the
first point of greatest recall among those of precision at least a target (its R@P table).  Nothing here reads
files.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from ...core.answers import Answer

__all__ = ["Stats", "long_stats", "short_stats", "threshold_points", "Point", "best_f1", "recall_at_precision"]


class Stats(NamedTuple):
    """Per example: gold has the answer, the prediction gives one, it is correct, its score."""

    has_gold: np.ndarray
    has_pred: np.ndarray
    correct: np.ndarray
    score: np.ndarray


def _stats(rows: list) -> Stats:
    if not rows:
        return Stats(np.zeros(0, bool), np.zeros(0, bool), np.zeros(0, bool), np.zeros(0))
    g, p, c, s = zip(*rows)
    return Stats(np.array(g, bool), np.array(p, bool), np.array(c, bool), np.array(s, float))


def long_stats(gold: Sequence[Sequence[Answer]], predicted: Sequence[Answer], votes: int = 2) -> Stats:
    """The long answer's four numbers for each example (``gold[k]``: its annotators' answers, ``predicted[k]``
    the system's)."""
    rows = []
    for labels, pred in zip(gold, predicted):
        has_gold = sum(a.has_long for a in labels) >= votes
        has_pred = pred.has_long
        correct = has_gold and has_pred and any(a.has_long and a.long.same(pred.long) for a in labels)
        rows.append((has_gold, has_pred, correct, pred.long_score))
    return _stats(rows)


def short_stats(gold: Sequence[Sequence[Answer]], predicted: Sequence[Answer], votes: int = 2) -> Stats:
    """The short answer's four numbers for each example: a yes/no prediction is correct where an annotator gave
    that yes/no answer; short spans where an annotator's non-null spans are the same set."""
    rows = []
    for labels, pred in zip(gold, predicted):
        has_gold = sum(a.has_short for a in labels) >= votes
        has_pred = pred.has_short
        correct = False
        if has_gold and has_pred:
            if pred.yes_no != "none":
                correct = any(a.yes_no == pred.yes_no for a in labels)
            else:
                correct = any(a.same_short(pred) for a in labels)
        rows.append((has_gold, has_pred, correct, pred.short_score))
    return _stats(rows)


class Point(NamedTuple):
    """One threshold: precision, recall and F1 counting every example scored at least ``threshold``."""

    precision: float
    recall: float
    f1: float
    threshold: float


def _divide(x: np.ndarray, y) -> np.ndarray:
    """``x / y``, 0 where ``y`` is 0."""
    y = np.asarray(y, dtype=float)
    out = np.zeros(np.broadcast(x, y).shape)
    np.divide(x, y, out=out, where=y != 0)
    return out


def threshold_points(stats: Stats) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall, F1 and the threshold at every distinct score, highest score first."""
    if not len(stats.score):
        nothing = np.zeros(0)
        return nothing, nothing, nothing, nothing
    order = np.argsort(-stats.score, kind="stable")
    score = stats.score[order]
    correct = np.cumsum(stats.correct[order])
    answered = np.cumsum(stats.has_pred[order])
    gold = int(stats.has_gold.sum())
    last = np.flatnonzero(np.append(score[1:] != score[:-1], True))  # the last example of each distinct score
    p = _divide(correct[last].astype(float), answered[last])
    r = _divide(correct[last].astype(float), gold)
    f1 = _divide(2 * p * r, p + r)
    return p, r, f1, score[last]


def best_f1(stats: Stats) -> Point:
    """The point of greatest F1, the first (highest threshold) where several tie; all zero where F1 is 0
    everywhere (or there is no example)."""
    p, r, f1, threshold = threshold_points(stats)
    if not len(f1) or f1.max() <= 0:
        return Point(0.0, 0.0, 0.0, 0.0)
    k = int(np.argmax(f1))
    return Point(float(p[k]), float(r[k]), float(f1[k]), float(threshold[k]))


def recall_at_precision(stats: Stats, target: float) -> Point | None:
    """The point of greatest recall among those whose precision is at least ``target``, the first where several
    tie; None where no such point has recall above 0."""
    p, r, f1, threshold = threshold_points(stats)
    ok = p >= target
    if not ok.any() or r[ok].max() <= 0:
        return None
    k = int(np.flatnonzero(ok & (r == r[ok].max()))[0])
    return Point(float(p[k]), float(r[k]), float(f1[k]), float(threshold[k]))


def kept(stats: Stats, point: Point | None) -> np.ndarray:
    """Per example, 1 where its answer counts at ``point`` (scored at least its threshold) and is correct."""
    if point is None or (point.f1 <= 0 and point.recall <= 0):
        return np.zeros(len(stats.score))
    return (stats.correct & (stats.score >= point.threshold)).astype(float)
