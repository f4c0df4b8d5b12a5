"""The assessed side of the flat measures: per topic, how many nodes are relevant, judged non-relevant, and the
ideal gains."""

from __future__ import annotations

import numpy as np

from .ranking import gain_of, judged_nonrelevant, relevant

__all__ = ["Judgments"]


class Judgments:
    """The grades assessed for each of ``num_topics`` topics (negative grades included), flattened.

    >>> j = Judgments([np.array([2.0, 1.0, 0.0, -1.0]), np.array([])])
    >>> j.num_relevant(None).tolist(), j.num_relevant(2.0).tolist(), j.num_nonrelevant(None).tolist()
    ([2.0, 0.0], [1.0, 0.0], [1.0, 0.0])
    """

    def __init__(self, per_topic: list[np.ndarray]):
        self.num_topics = len(per_topic)
        sizes = [len(g) for g in per_topic]
        self.topic = np.repeat(np.arange(self.num_topics), sizes)
        self.grade = np.concatenate(per_topic).astype(float) if per_topic else np.zeros(0)
        self._ideal: dict = {}

    @classmethod
    def from_arrays(cls, num_topics: int, topic: np.ndarray, grade: np.ndarray) -> "Judgments":
        """From each assessment's topic index and grade (any order).

        >>> j = Judgments.from_arrays(2, np.array([1, 0, 1]), np.array([1.0, 0.0, 2.0]))
        >>> j.num_relevant(None).tolist()
        [0.0, 2.0]
        """
        self = cls.__new__(cls)
        self.num_topics = num_topics
        self.topic = np.asarray(topic, dtype=np.int64)
        self.grade = np.asarray(grade, dtype=float)
        self._ideal = {}
        return self

    def _count(self, mask: np.ndarray) -> np.ndarray:
        return np.bincount(self.topic[mask], minlength=self.num_topics).astype(float)

    def num_relevant(self, rel: float | None) -> np.ndarray:
        """``R`` of each topic: nodes assessed at ``rel`` or above (above 0 by default)."""
        return self._count(relevant(self.grade, rel))

    def num_nonrelevant(self, rel: float | None) -> np.ndarray:
        """``N`` of each topic: nodes assessed 0 or above but not relevant."""
        return self._count(judged_nonrelevant(self.grade, rel))

    def ideal_dcg(self, gains: dict | None, dcg: str, cutoff: int | None) -> np.ndarray:
        """Each topic's ideal DCG: its positive gains in decreasing order, discounted by log2(rank + 1), the
        first ``cutoff`` of them (all without one)."""
        key = (tuple(sorted((gains or {}).items())), dcg, cutoff)
        if key not in self._ideal:
            g = gain_of(self.grade, gains, dcg)
            keep = g > 0
            g, topic = g[keep], self.topic[keep]
            order = np.lexsort((-g, topic))
            g, topic = g[order], topic[order]
            starts = np.searchsorted(topic, np.arange(self.num_topics + 1))
            rank = np.arange(1, len(g) + 1) - starts[:-1][topic]
            use = rank <= cutoff if cutoff is not None else np.ones(len(g), dtype=bool)
            self._ideal[key] = np.bincount(
                topic[use], weights=g[use] / np.log2(rank[use] + 1.0), minlength=self.num_topics
            )
        return self._ideal[key]
