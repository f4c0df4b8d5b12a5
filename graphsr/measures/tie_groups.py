"""Results tied in score, shared by the families that rank by score: each topic's results fall into groups of equal
score (contiguous in rank order), and where such a group lies on both sides of a cut-off the value there rests on
how the tie was broken.  :func:`straddled` counts those topics and :func:`straddle_warning` says so, in the same
words for every family (the flat measures' rank cut-offs, Chroma's measures' and the budget measures').

>>> import numpy as np
>>> topic, pos, score = np.array([0, 0, 0, 1, 1]), np.array([1, 2, 3, 1, 2]), np.array([3.0, 2.0, 2.0, 1.0, 1.0])
>>> straddled(topic, pos, score, {"k=2": 2})
{'k=2': 1}
>>> straddled(topic, pos, score, {"k=1": 1, "k=3": 3})
{'k=1': 1}
>>> straddled(topic, pos, score, {"budget": np.array([3, 2])}, inside={"budget": np.array([True, False])})
{'budget': 1}
"""

from __future__ import annotations

import numpy as np

__all__ = ["tie_groups", "straddled", "straddle_warning"]


def tie_groups(topic: np.ndarray, pos: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each result's group (equal score within a topic, contiguous in rank order: ``topic`` non-decreasing, ``pos``
    the 1-based rank within it), each group's first rank and its size."""
    if not len(topic):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    new = np.r_[True, (topic[1:] != topic[:-1]) | (score[1:] != score[:-1])]
    gid = np.cumsum(new) - 1
    return gid, pos[new], np.bincount(gid, minlength=int(gid[-1]) + 1)


def straddled(topic: np.ndarray, pos: np.ndarray, score: np.ndarray, cuts: dict, inside: dict | None = None) -> dict:
    """Per label of ``cuts`` (``{label: k}``, ``k`` a rank or an array of ranks per topic index), how many topics
    have a group of tied results holding rank ``k`` and a rank past it -- or, where ``inside[label]`` (per topic)
    says the cut falls inside the result at rank ``k`` (a character budget read part of it), a group of two or more
    holding rank ``k``."""
    gid, first, size = tie_groups(topic, pos, score)
    if not len(gid):
        return {}
    last = first + size - 1
    group_topic = topic[np.r_[0, np.cumsum(size)[:-1]]]
    out = {}
    for label, k in cuts.items():
        at = min(int(k), 1 << 62) if np.ndim(k) == 0 else np.asarray(k)[group_topic]  # (any Python int)
        upto = last - 1 + (np.asarray(inside[label])[group_topic] if inside and label in inside else 0)
        crossing = (first <= at) & (at <= upto) & (size > 1)
        n = len(set(group_topic[crossing].tolist()))
        if n:
            out[label] = n
    return out


def straddle_warning(run_name: str, tied: dict, option: str, order: str = "trec_eval's order of tied results") -> str:
    """The line saying where tied results straddle a cut-off (``tied`` from :func:`straddled`, keyed by how the
    cut-off reads, ``k=10``), which ``order`` the values rest on, and how to have every order counted
    (``option``; empty where the measures have no tie-aware form)."""
    where = ", ".join(f"{label} in {n} topic(s)" for label, n in tied.items())
    tail = (
        f"; {option} gives their expected value over every order"
        if option
        else " (these measures have no tie-aware form)"
    )
    return f"{run_name}: results tied in score straddle a cut-off ({where}): the values there rest on {order}{tail}"
