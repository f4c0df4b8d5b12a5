"""The element families' view of a run as arrays: each topic's retrieved nodes in rank order, and the per-node
arrays of the documents they lie in, end to end.

:class:`TopicItems` cuts :class:`~graphsr.measures.inputs.RankedNodes` into topics (a tree result's nodes in
document order, as the families read a tree result: a set); :class:`NodeArrays` puts the per-node arrays of
several documents (text length, parent, subtree end, and any per-node values) one after the other, so that a
node ``(document code, node)`` is one index into flat arrays.  Nothing here builds an object per result.
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from ..core.document import DocumentTree
from .inputs import RankedNodes

__all__ = ["TopicItems", "NodeArrays", "subtree_ends", "NODE_MASK"]

#: The node part of an item's id ``document code << 32 | node``.
NODE_MASK = np.int64(0xFFFFFFFF)


def subtree_ends(depth: np.ndarray) -> np.ndarray:
    """For each node of a document in pre-order (given its depths), the index of the last node of its subtree.

    The subtree of node ``i`` ends before the first later node no deeper than ``i``; a node's last descendant is
    found, for every node at once, by a search over the running minimum of depths from the right.

    >>> subtree_ends(np.array([0, 1, 2, 1, 2, 2])).tolist()
    [5, 2, 2, 5, 4, 5]
    """
    depth = np.asarray(depth, dtype=np.int64)
    n = len(depth)
    out = np.empty(n, dtype=np.int64)
    # for each node, the first later node with depth <= its own: scan depths by level (documents are shallow)
    nxt = np.full(n, n, dtype=np.int64)
    for d in np.unique(depth).tolist():
        at = np.flatnonzero(depth <= d)  # nodes no deeper than d, in order
        mine = np.flatnonzero(depth == d)
        k = np.searchsorted(at, mine, side="right")  # the next node no deeper than d after each node of depth d
        nxt[mine] = np.where(k < len(at), at[np.minimum(k, len(at) - 1)], n)
    out[:] = nxt - 1
    return out


class TopicItems:
    """The retrieved nodes ("items") of each topic of ``ranked``, in rank order, a tree result's nodes in document
    order: per topic, a slice of :attr:`order` (item indices), with each item's entry (its result's rank in the
    topic, from 0), document code and node."""

    def __init__(self, ranked: RankedNodes):
        self.ranked = ranked
        m = len(ranked.result_topic)
        node = ranked.item_node & NODE_MASK
        # within a result: by node (document order); results stay in rank order
        self.order = np.argsort(ranked.item_result * np.int64(1 << 32) + node) if m else np.zeros(0, np.int64)
        item_result = ranked.item_result[self.order]
        self.bounds = np.searchsorted(ranked.result_topic, np.arange(len(ranked.topics) + 1))
        self.item_bounds = np.searchsorted(item_result, self.bounds) if m else np.zeros(len(self.bounds), np.int64)
        self.result = item_result
        self.doc = ranked.item_node[self.order] >> 32
        self.node = node[self.order]

    def topic(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Topic ``t``'s items: their entry (rank in the topic, from 0), document code and node, and the number
        of entries."""
        a, b = self.item_bounds[t], self.item_bounds[t + 1]
        first = self.bounds[t]
        return self.result[a:b] - first, self.doc[a:b], self.node[a:b], int(self.bounds[t + 1] - first)

    def distinct(self, t: int) -> int:
        """How many distinct elements topic ``t``'s items retrieve."""
        a, b = self.item_bounds[t], self.item_bounds[t + 1]
        return int(len(np.unique(self.ranked.item_node[self.order[a:b]])))


class NodeArrays:
    """Per-node arrays of the documents coded in ``codes`` (``docids[code]``), one after the other.

    ``index(doc, node)`` is a node's place in the flat arrays; :attr:`length` (characters of text),
    :attr:`last` (the flat index of the last node of its subtree) and :meth:`values` (any per-document array,
    e.g. SR seen probabilities) are indexed by it.
    """

    def __init__(self, documents: Mapping[str, DocumentTree], docids: Mapping[int, str], codes):
        codes = np.unique(np.asarray(codes, dtype=np.int64))
        self.docs = [documents[docids[int(c)]] for c in codes.tolist()]
        self.codes = codes
        self.ids = [docids[int(c)] for c in codes.tolist()]
        sizes = np.array([len(d) for d in self.docs], dtype=np.int64)
        self.offset = np.concatenate(([0], np.cumsum(sizes)))
        self._base = np.full(int(codes.max()) + 1 if len(codes) else 0, -1, dtype=np.int64)
        self._base[codes] = self.offset[:-1]
        self._cache: dict = {}

    def index(self, doc: np.ndarray, node: np.ndarray) -> np.ndarray:
        """The flat index of each ``(doc code, node)`` (the documents must be among :attr:`codes`)."""
        return self._base[doc] + node

    def _flat(self, name: str, per_doc: Callable[[DocumentTree], np.ndarray], shift: bool = False) -> np.ndarray:
        if name not in self._cache:
            parts = [per_doc(d) + (self.offset[k] if shift else 0) for k, d in enumerate(self.docs)]
            self._cache[name] = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return self._cache[name]

    @property
    def length(self) -> np.ndarray:
        return self._flat("length", lambda d: d.length.astype(float))

    @property
    def last(self) -> np.ndarray:
        """The flat index of the last node of each node's subtree: one pass over the documents end to end (with
        every root at depth 0, no node is shallower than the next document's root: every subtree ends within its
        document)."""
        if "last" not in self._cache:
            depth = (
                np.concatenate([d.depth.astype(np.int64) - (int(d.depth[0]) if len(d) else 0) for d in self.docs])
                if self.docs
                else np.zeros(0, dtype=np.int64)
            )  # (each root at depth 0)
            self._cache["last"] = subtree_ends(depth)
        return self._cache["last"]

    @property
    def start(self) -> np.ndarray:
        """Each node's first character in its document's text."""
        return self._flat("start", lambda d: d.start.astype(np.int64))

    @property
    def end(self) -> np.ndarray:
        """Each node's end (exclusive) in its document's text."""
        return self._flat("end", lambda d: d.end.astype(np.int64))

    @property
    def parent(self) -> np.ndarray:
        """Each node's parent, a flat index (-1 for a root)."""
        if "parent" not in self._cache:
            parts = [
                np.where(d.parent >= 0, d.parent.astype(np.int64) + self.offset[k], -1) for k, d in enumerate(self.docs)
            ]
            self._cache["parent"] = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return self._cache["parent"]

    def values(self, name: str, per_docid: Callable[[str], np.ndarray]) -> np.ndarray:
        """A per-node array given per document id (``per_docid(docid)``), flat."""
        if name not in self._cache:
            parts = [np.asarray(per_docid(i), dtype=float) for i in self.ids]
            self._cache[name] = np.concatenate(parts) if parts else np.zeros(0)
        return self._cache[name]
