"""The array form of ranked tree results that the measures compute on.

Measures never read files or databases: they take a :class:`RankedNodes`
(built by :mod:`graphsr.measures.elements` from a run, assessments and a navigation
model, or directly by a test) and return per-topic values.
"""

from __future__ import annotations

from .._records import record

import numpy as np

__all__ = ["RankedNodes"]


@record(eq=False)
class RankedNodes:
    """Ranked tree results of several topics, flattened to arrays.

    Results are numbered ``0 .. m-1`` grouped by topic, in rank order within
    a topic; their nodes ("items") are numbered ``0 .. N-1``.

    Parameters
    ----------
    topics : list of str
        Topic ids; ``result_topic`` indexes into it.
    result_topic : array of int, shape (m,)
        Topic index of each result (non-decreasing).
    result_doc : array of int, shape (m,)
        Document code of each result (a tree result lies in one document).
    item_result : array of int, shape (N,)
        Result of each item (non-decreasing; every result has >= 1 item).
    item_node : array of int, shape (N,)
        Node id of each item, unique per (document, node) across the run.
    rel : array of float, shape (N,)
        Assessed relevance of each item's node, in [0, 1].
    seen : array of float, shape (N,)
        ``p(e;f)`` for the item's node e and any other node f of the same
        document (SR Eq 7: ``1 - pi(S(e))``; 0 without navigation).
    grade : array of float, shape (N,), optional
        The assessed value of each item's node as the assessments give it
        (negative grades included; NaN: not assessed), for the measures that
        tell unjudged from non-relevant (trec_eval's); ``rel`` is its
        relevance, 0 for negative or missing grades.  Default: ``rel``.
    result_score : array of float, shape (m,), optional
        The run's score of each result (NaN where unknown).

    Examples
    --------
    Two singleton results of one document for one topic:

    >>> r = RankedNodes.from_lists({"q1": [("d", [(1, 1.0, 0.5)]), ("d", [(2, 0.0, 0.5)])]})
    >>> r.result_positions().tolist()
    [0, 1]
    """

    topics: list
    result_topic: np.ndarray
    result_doc: np.ndarray
    item_result: np.ndarray
    item_node: np.ndarray
    rel: np.ndarray
    seen: np.ndarray
    grade: np.ndarray | None = None
    result_score: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.result_topic = np.asarray(self.result_topic, dtype=np.int64)
        self.result_doc = np.asarray(self.result_doc, dtype=np.int64)
        self.item_result = np.asarray(self.item_result, dtype=np.int64)
        self.item_node = np.asarray(self.item_node, dtype=np.int64)
        self.rel = np.asarray(self.rel, dtype=float)
        self.seen = np.asarray(self.seen, dtype=float)
        m, n = len(self.result_topic), len(self.item_result)
        if len(self.result_doc) != m:
            raise ValueError(f"result_doc has {len(self.result_doc)} entries, expected {m}")
        for name in ("item_node", "rel", "seen"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries, expected {n}")
        if m and (
            np.any(np.diff(self.result_topic) < 0)
            or self.result_topic.min() < 0
            or self.result_topic.max() >= len(self.topics)
        ):
            raise ValueError("result_topic must be non-decreasing topic indices")
        if n:
            steps = np.diff(self.item_result)
            if steps.min(initial=0) < 0 or self.item_result[0] < 0 or self.item_result[-1] >= m:
                raise ValueError("item_result must be non-decreasing result indices")
            # non-decreasing from 0 to m-1 by steps of at most 1: every result has a node
            if self.item_result[0] != 0 or self.item_result[-1] != m - 1 or steps.max(initial=0) > 1:
                raise ValueError("every result needs at least one node")
        elif m:
            raise ValueError("every result needs at least one node")
        if n and not (self.rel.min() >= 0 and np.isfinite(self.rel).all()):
            # values above 1 are TREC-style grades, for the measures that take them (Measure.ANY_SCALE)
            raise ValueError("rel must be non-negative and finite")
        if n and (self.seen.min() < 0 or self.seen.max() > 1):
            raise ValueError("seen probabilities must lie in [0, 1]")
        self.grade = self.rel.copy() if self.grade is None else np.asarray(self.grade, dtype=float)
        if len(self.grade) != n:
            raise ValueError(f"grade has {len(self.grade)} entries, expected {n}")
        if self.result_score is None:
            self.result_score = np.full(m, np.nan)
        self.result_score = np.asarray(self.result_score, dtype=float)
        if len(self.result_score) != m:
            raise ValueError(f"result_score has {len(self.result_score)} entries, expected {m}")

    @property
    def num_results(self) -> int:
        return len(self.result_topic)

    def result_positions(self) -> np.ndarray:
        """0-based position of each result within its topic's ranking."""
        m = self.num_results
        if m == 0:
            return np.zeros(0, dtype=np.int64)
        counts = np.bincount(self.result_topic, minlength=len(self.topics))
        first = np.cumsum(counts) - counts  # first result of each topic (results are topic-major)
        return np.arange(m) - first[self.result_topic]

    @classmethod
    def from_lists(cls, ranking: dict) -> "RankedNodes":
        """Build from ``{topic: [(docid, [(node, rel, seen), ...]), ...]}`` (tests and examples).

        ``node`` identifies the node within its document.
        """
        topics = list(ranking)
        docs: dict = {}
        nodes: dict = {}
        rt, rd, ir, inode, rel, seen = [], [], [], [], [], []
        for t, results in enumerate(ranking.values()):
            for docid, items in results:
                r = len(rt)
                rt.append(t)
                rd.append(docs.setdefault(docid, len(docs)))
                for node, rv, sv in items:
                    ir.append(r)
                    inode.append(nodes.setdefault((docid, node), len(nodes)))
                    rel.append(rv)
                    seen.append(sv)
        return cls(topics, rt, rd, ir, inode, rel, seen)
