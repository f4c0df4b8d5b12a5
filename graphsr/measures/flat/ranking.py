"""A run's ranked items as trec_eval sees them, for every topic at once: the inputs of the flat kernels.

**Tree results are sets.**  A ranked result (one line of a document or element
run, or the lines of a tree result sharing a rank) is one retrieved item.  A
node earns its credit once, at the first result that holds it: a result's
grade is the highest grade among the nodes it is the *first* to retrieve
(not assessed: unjudged; assessed with a negative grade: unjudged, as
trec_eval reads such grades), and a result whose every node was retrieved
before has no grade at all -- it is neither relevant nor judged (bpref skips
it).  Its gain (nDCG) is the highest gain among those same nodes.  A plain
document run or an element run of single nodes is therefore scored exactly as
trec_eval scores documents, and no flat measure can exceed 1 by retrieving a
relevant node twice, or depend on the order of a tree result's lines.

Arrays are topic-major in rank order, as :class:`~graphsr.measures.inputs.RankedNodes` gives them; every
kernel is a segment reduction over them (``numpy.bincount`` by topic).
"""

from __future__ import annotations

import functools
from ..._records import record

import numpy as np

from ..inputs import RankedNodes

__all__ = ["Ranking", "ranking_of", "first_retrieved", "gain_of", "relevant", "judged_nonrelevant"]

#: The grade of a result whose every node was retrieved before (below any assessed grade, never judged).
REPEATED = -np.inf


def gain_of(grade: np.ndarray, gains: dict | None, dcg: str) -> np.ndarray:
    """nDCG's gain of each grade: the grade, or ``gains[grade]`` (as ir_measures maps grades); 0 unless
    positive (unjudged, negative, non-relevant); ``dcg='exp-log2'``: ``2**g - 1``."""
    g = grade
    if gains:
        g = grade.copy()
        for level, gain in gains.items():
            g[grade == level] = gain
    with np.errstate(invalid="ignore"):
        g = np.where(g > 0, g, 0.0)
    return np.where(g > 0, np.exp2(g) - 1.0, 0.0) if dcg == "exp-log2" else g


def relevant(grade: np.ndarray, rel: float | None) -> np.ndarray:
    """Which grades are relevant: at least ``rel``, or above 0 when ``rel`` is None (NaN never)."""
    with np.errstate(invalid="ignore"):
        return grade >= rel if rel is not None else grade > 0


def judged_nonrelevant(grade: np.ndarray, rel: float | None) -> np.ndarray:
    """Which grades are judged and not relevant: 0 or more, below the threshold."""
    with np.errstate(invalid="ignore"):
        return (grade >= 0) & ~relevant(grade, rel)


@record(eq=False)
class Ranking:
    """Ranked items of several topics.

    Attributes
    ----------
    num_topics : int
    topic : array of int, shape (m,)
        Topic index of each item (non-decreasing).
    pos : array of int, shape (m,)
        1-based rank of each item within its topic.
    grade : array of float, shape (m,)
        The item's grade (see the module docstring): an assessed value, NaN
        when unjudged, ``-inf`` when it retrieves nothing new.
    assessed : array of bool, shape (m,)
        Whether some node of the item is assessed (any value; ir_measures'
        Judged@k).
    item_result, item_grade, item_new : arrays over the nodes
        Each node's item, its assessed value (NaN: not assessed) and whether
        the item is the first to retrieve it (for gains); ``item_result`` and
        ``item_new`` None: one node per item, each new (document runs), which
        saves two arrays the size of the run.
    score : array of float, shape (m,), or a callable returning it
        The run's score of each item (:attr:`scores`; a callable is called
        when a measure first reads them, RR@k's and Judged@k's tie order).
    by_score : bool
        Whether the run was ranked by score (ties in document order are then
        what ir_measures' own implementations would see reversed).
    """

    num_topics: int
    topic: np.ndarray
    pos: np.ndarray
    grade: np.ndarray
    assessed: np.ndarray
    item_result: np.ndarray | None
    item_grade: np.ndarray
    item_new: np.ndarray | None
    score: object
    by_score: bool = False

    @property
    def scores(self) -> np.ndarray:
        """The run's score of each item."""
        if callable(self.score):
            self.score = self.score()
        return self.score

    @property
    def size(self) -> int:
        return len(self.topic)

    def starts(self) -> np.ndarray:
        """Index of each topic's first item, and the number of items at the end (length ``num_topics + 1``)."""
        return np.searchsorted(self.topic, np.arange(self.num_topics + 1))

    def count(self, mask: np.ndarray | None = None, weights: np.ndarray | None = None) -> np.ndarray:
        """Per topic, the number of items in ``mask`` (or the sum of ``weights`` over them)."""
        topic = self.topic if mask is None else self.topic[mask]
        w = None if weights is None else (weights if mask is None else weights[mask])
        return np.bincount(topic, weights=w, minlength=self.num_topics).astype(float)

    def running(self, mask: np.ndarray) -> np.ndarray:
        """For each item, how many items of its topic up to and including it are in ``mask``."""
        c = np.cumsum(mask, dtype=np.int64)
        base = np.r_[0, c][self.starts()[:-1]]
        return c - base[self.topic]

    @functools.cached_property
    def judged_only(self) -> "Ranking":
        """The ranking without its unjudged items (trec_eval ``-J``), ranks renumbered (built once)."""
        with np.errstate(invalid="ignore"):
            keep = self.grade >= 0
        if keep.all():
            return self
        topic = self.topic[keep]
        starts = np.searchsorted(topic, np.arange(self.num_topics + 1))
        pos = np.arange(1, len(topic) + 1) - starts[:-1][topic]
        if self.item_result is None:  # one node per item
            return Ranking(
                self.num_topics,
                topic,
                pos,
                self.grade[keep],
                self.assessed[keep],
                None,
                self.item_grade[keep],
                None,
                lambda: self.scores[keep],
                self.by_score,
            )
        kept_items = keep[self.item_result]
        renumber = np.cumsum(keep) - 1
        return Ranking(
            self.num_topics,
            topic,
            pos,
            self.grade[keep],
            self.assessed[keep],
            renumber[self.item_result[kept_items]],
            self.item_grade[kept_items],
            self.item_new[kept_items],
            lambda: self.scores[keep],
            self.by_score,
        )

    def item_gains_at(self, at: np.ndarray, gains: dict | None, dcg: str) -> np.ndarray:
        """:meth:`item_gains` of the items ``at`` only (with one node per item, only theirs are computed)."""
        if self.item_result is None:
            return gain_of(self.item_grade[at], gains, dcg)
        return self.item_gains(gains, dcg)[at]

    def item_gains(self, gains: dict | None, dcg: str) -> np.ndarray:
        """Each item's gain: the highest gain among the nodes it is first to retrieve (0 if none)."""
        if self.item_result is None:  # one node per item, each new
            return gain_of(self.item_grade, gains, dcg)
        g = np.where(self.item_new, gain_of(self.item_grade, gains, dcg), 0.0)
        out = np.zeros(self.size)
        if len(self.item_result) == self.size:  # one node per item (documents, single elements)
            out[self.item_result] = g
        else:
            np.maximum.at(out, self.item_result, g)
        return out


def first_retrieved(topic_of_item: np.ndarray, node: np.ndarray) -> np.ndarray:
    """Whether each item is the first of its topic to retrieve its node (items in rank order)."""
    n = len(node)
    if n == 0:
        return np.zeros(0, dtype=bool)
    _, dense = np.unique(node, return_inverse=True)
    key = topic_of_item.astype(np.int64) * np.int64(dense.max() + 1) + dense
    _, first = np.unique(key, return_index=True)
    out = np.zeros(n, dtype=bool)
    out[first] = True
    return out


def ranking_of(ranked: RankedNodes, by_score: bool = False) -> Ranking:
    """The items of ``ranked`` with their grades under the rule of the module docstring."""
    m, n = ranked.num_results, len(ranked.item_result)
    topic = ranked.result_topic
    pos = ranked.result_positions() + 1
    grade_items = ranked.grade
    assessed_items = ~np.isnan(grade_items)
    if n == m:  # one node per result: every node is retrieved once (a repeated result is refused on reading)
        new = np.ones(n, dtype=bool)
        order = ranked.item_result
        grade = np.empty(m)
        grade[order] = grade_items
        assessed = np.zeros(m, dtype=bool)
        assessed[order] = assessed_items
    else:
        new = first_retrieved(topic[ranked.item_result], ranked.item_node)
        grade = np.full(m, REPEATED)
        np.fmax.at(grade, ranked.item_result[new], grade_items[new])  # NaN (unjudged) loses to any grade
        has_new = np.bincount(ranked.item_result[new], minlength=m) > 0
        grade[has_new & (grade == REPEATED)] = np.nan  # new nodes, none assessed
        assessed = np.bincount(ranked.item_result, weights=assessed_items, minlength=m) > 0
    return Ranking(
        len(ranked.topics),
        topic,
        pos,
        grade,
        assessed,
        ranked.item_result,
        grade_items,
        new,
        ranked.result_score,
        by_score,
    )
