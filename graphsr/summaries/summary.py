"""Structural summaries: partitions of a collection's elements with statistics.

Built in one streaming pass over the documents by :func:`build_summary`.
Summary node ``s`` (0-based; shown as ``S{s+1}``) has

* its key (:meth:`Summary.label`), e.g. ``/book/fm/d`` in a p* summary;
* its extent size (number of elements in the part), ``extent_size[s]``;
* its content length (sum of the node lengths, docs/conventions.md, of its
  elements), ``content_length[s]``;
* optionally its extent, the elements themselves (``keep_extents=True``).

The summary graph has an edge A–B when some element of A is the parent of
some element of B.  Edges are kept directed (parent part -> child part) with

* ``pairs``: the number of parent–child element pairs between A and B;
* ``child_length``: the total length of the child elements of those pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from ..core.document import DocumentTree
from ._keys import Keyer
from .kinds import PartitionKind, partition_kind

__all__ = ["Summary", "SummaryBuilder", "build_summary"]


@dataclass(eq=False)
class Summary:
    """A structural summary of a collection (see module docstring).

    Attributes
    ----------
    kind : PartitionKind
    extent_size, content_length : array of int64, one entry per SID
    edge_src, edge_dst : array of int64
        Directed summary edges, parent part -> child part.
    edge_pairs, edge_child_length : array of int64
        Per edge, the number of parent–child element pairs and the total
        length of the child elements.
    num_documents, num_elements : int
    extents : dict of str to array, optional
        ``extents[docid][i]`` is the SID of node ``i`` of that document
        (kept only with ``keep_extents=True``).
    """

    kind: PartitionKind
    extent_size: np.ndarray
    content_length: np.ndarray
    edge_src: np.ndarray
    edge_dst: np.ndarray
    edge_pairs: np.ndarray
    edge_child_length: np.ndarray
    num_documents: int
    _keyer: Keyer = field(repr=False)
    extents: dict[str, np.ndarray] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.extent_size)

    def __repr__(self) -> str:
        return (
            f"Summary(kind={self.kind.name!r}, nodes={len(self)}, edges={len(self.edge_src)}, "
            f"documents={self.num_documents}, elements={self.num_elements})"
        )

    @property
    def num_elements(self) -> int:
        return int(self.extent_size.sum())

    def label(self, sid: int) -> str:
        """The key of summary node ``sid`` as text, e.g. ``/book/fm/d``."""
        return self._keyer.label(int(sid))

    def labels(self) -> list[str]:
        return [self.label(s) for s in range(len(self))]

    def sid(self, label: str) -> int:
        """The SID whose key is ``label``.

        Raises
        ------
        KeyError
        """
        for s in range(len(self)):
            if self.label(s) == label:
                return s
        raise KeyError(f"no summary node {label!r} in this {self.kind.name} summary")

    def assign(self, doc: DocumentTree) -> np.ndarray:
        """SID of every node of ``doc`` (``-1`` where the summary has no such part).

        A document that was part of the collection the summary was built
        from always maps completely.
        """
        return self._keyer.sids_batch([doc], grow=False)

    def assign_many(self, docs: list[DocumentTree]) -> list[np.ndarray]:
        """:meth:`assign` for several documents in one vectorised pass."""
        docs = list(docs)
        if not docs:
            return []
        sids = self._keyer.sids_batch(docs, grow=False)
        cuts = np.cumsum([len(d) for d in docs])[:-1]
        return np.split(sids, cuts)

    def extent(self, sid: int) -> list[tuple[str, int]]:
        """The elements of summary node ``sid`` as ``(docid, pre-order id)``.

        Raises
        ------
        ValueError
            If the summary was built without ``keep_extents=True``.
        """
        if self.extents is None:
            raise ValueError("this summary was built without keep_extents=True; its extents were not kept")
        out = []
        for docid, sids in self.extents.items():
            out.extend((docid, int(i) + 1) for i in np.flatnonzero(sids == sid))
        return out

    def readable_key(self, sid: int) -> tuple:
        """The key of a summary node: (label path tuple or own label, child label set or None)."""
        return self._keyer.keys[int(sid)]

    @classmethod
    def from_parts(
        cls,
        kind: str | PartitionKind,
        keys: list[tuple],
        extent_size,
        content_length,
        edge_src,
        edge_dst,
        edge_pairs,
        edge_child_length,
        num_documents: int = 0,
    ) -> "Summary":
        """Rebuild a summary from its parts (e.g. as a store keeps them), keys in SID order.

        ``keys[s]`` is ``(label path tuple or own label, child label set or None)``
        as :meth:`readable_key` returns; the result assigns documents to
        the same SIDs as the summary that was stored.
        """
        kind = partition_kind(kind)
        i64 = lambda a: np.asarray(a, dtype=np.int64)  # noqa: E731
        return cls(
            kind,
            i64(extent_size),
            i64(content_length),
            i64(edge_src),
            i64(edge_dst),
            i64(edge_pairs),
            i64(edge_child_length),
            num_documents,
            Keyer.restore(kind, keys),
        )

    def edge_weights(self, scheme: str) -> np.ndarray:
        """Per directed edge, the weight of a scheme: ``extent``, ``length`` or ``uniform``."""
        if scheme == "extent":
            return self.edge_pairs.astype(float)
        if scheme == "length":
            return self.edge_child_length.astype(float)
        if scheme == "uniform":
            return np.ones(len(self.edge_src))
        raise ValueError(f"unknown weight scheme {scheme!r}; expected extent, length or uniform")

    def graph(self, directed: bool = False):
        """The summary graph as a networkx graph.

        Nodes are SIDs with attributes ``label``, ``extent_size`` and
        ``content_length``.  Edges carry ``pairs`` and ``child_length``; in
        the undirected graph (default) the two directions of an edge are
        added together.

        Returns
        -------
        networkx.Graph or networkx.DiGraph
        """
        import networkx as nx

        g = nx.DiGraph() if directed else nx.Graph()
        g.graph["kind"] = self.kind.name
        for s in range(len(self)):
            g.add_node(
                s, label=self.label(s), extent_size=int(self.extent_size[s]), content_length=int(self.content_length[s])
            )
        for a, b, n, ln in zip(
            self.edge_src.tolist(), self.edge_dst.tolist(), self.edge_pairs.tolist(), self.edge_child_length.tolist()
        ):
            if g.has_edge(a, b):
                g[a][b]["pairs"] += n
                g[a][b]["child_length"] += ln
            else:
                g.add_edge(a, b, pairs=n, child_length=ln)
        return g

    def to_frame(self):
        """Summary nodes as a pandas DataFrame (sid, label, extent_size, content_length)."""
        import pandas as pd

        return pd.DataFrame(
            {
                "sid": np.arange(len(self)),
                "label": self.labels(),
                "extent_size": self.extent_size,
                "content_length": self.content_length,
            }
        )


class SummaryBuilder:
    """Accumulates a summary document by document (memory bounded by the summary size).

    Documents are buffered, keyed together and folded into the statistics
    with numpy every ``flush_nodes`` nodes.
    """

    def __init__(self, kind: str | PartitionKind, keep_extents: bool = False, flush_nodes: int = 1 << 17):
        self.kind = partition_kind(kind)
        self._keyer = Keyer(self.kind)
        self._keep = keep_extents
        self._extents: dict[str, np.ndarray | None] = {}
        self._flush_nodes = flush_nodes
        self._buf: list[DocumentTree] = []
        self._buffered = 0
        self._size = np.zeros(0, dtype=np.int64)
        self._length = np.zeros(0, dtype=np.int64)
        self._edges: dict[int, list[int]] = {}
        self.num_documents = 0
        # the SIDs of the documents keyed by the last two flushes, by id(document) -> (document, SIDs); kept once
        # someone asks for SIDs (:meth:`sids`), so that a chunk asked for after its flush is not keyed again
        self._flushed: tuple[dict, dict] | None = None

    def add(self, doc: DocumentTree) -> None:
        """Add one document (keyed and counted in batches of about ``flush_nodes`` nodes)."""
        if self._keep and doc.docid in self._extents:
            raise ValueError(f"document {doc.docid!r} was added twice")
        self.num_documents += 1
        self._buf.append(doc)
        if self._keep:
            self._extents[doc.docid] = None
        self._buffered += len(doc.tag)
        if self._buffered >= self._flush_nodes:
            self._flush()

    def flush(self) -> None:
        """Key and count the buffered documents now (SIDs of added documents are then final)."""
        self._flush()

    def sids(self, docs: list[DocumentTree]) -> list[np.ndarray]:
        """SIDs of the nodes of documents already added (flushes first).  Documents keyed by one of the last two
        flushes since this was first called take the SIDs that flush gave them (a key's SID never changes once
        given); any other is keyed again."""
        if self._flushed is None:
            self._flushed = ({}, {})
        self._flush()
        docs = list(docs)
        if not docs:
            return []
        older, newer = self._flushed
        kept = [newer.pop(id(d), None) or older.pop(id(d), None) for d in docs]
        if all(k is not None and k[0] is d for k, d in zip(kept, docs)):
            return [k[1] for k in kept]
        sids = self._keyer.sids_batch(docs, grow=False)
        return np.split(sids, np.cumsum([len(d) for d in docs])[:-1])

    def label(self, sid: int) -> str:
        return self._keyer.label(sid)

    def readable_key(self, sid: int) -> tuple:
        return self._keyer.keys[sid]

    @property
    def num_nodes(self) -> int:
        return len(self._keyer.keys)

    def _flush(self) -> None:
        if not self._buf:
            return
        docs = self._buf
        self._buf = []
        self._buffered = 0
        batch = self._keyer.batch(docs)
        sids = self._keyer.sids_of(batch, grow=True)
        if self._flushed is not None:  # (the older of the two flushes kept is dropped: memory stays bounded)
            bounds = batch.offsets.tolist()
            newer = {id(d): (d, sids[lo:hi]) for d, lo, hi in zip(docs, bounds[:-1], bounds[1:])}
            self._flushed = (self._flushed[1], newer)
        if self._keep:
            offsets = batch.offsets
            for d, lo, hi in zip(docs, offsets[:-1], offsets[1:]):
                self._extents[d.docid] = sids[lo:hi].astype(np.int32)
        lengths, par = batch.length, batch.parent
        n = len(self._keyer.keys)
        self._size = _grow(self._size, n) + np.bincount(sids, minlength=n)
        self._length = _grow(self._length, n) + np.bincount(sids, weights=lengths, minlength=n).astype(np.int64)
        child = np.flatnonzero(par >= 0)
        self._add_edges(sids[par[child]] * (1 << 32) + sids[child], lengths[child])

    def _add_edges(self, key: np.ndarray, child_length: np.ndarray) -> None:
        n = len(self._keyer.keys)
        if n * n <= 1 << 20:  # small summary: count on a dense grid
            dense = (key >> 32) * n + (key & 0xFFFFFFFF)
            counts = np.bincount(dense, minlength=n * n)
            uniq_dense = np.flatnonzero(counts)
            lens = np.bincount(dense, weights=child_length, minlength=n * n)[uniq_dense].astype(np.int64)
            counts = counts[uniq_dense]
            uniq = (uniq_dense // n) * (1 << 32) + uniq_dense % n
        else:
            uniq, inv = np.unique(key, return_inverse=True)
            counts = np.bincount(inv, minlength=len(uniq))
            lens = np.bincount(inv, weights=child_length, minlength=len(uniq)).astype(np.int64)
        self._accumulate_edges(uniq.tolist(), counts.tolist(), lens.tolist())

    def _accumulate_edges(self, keys: list[int], pairs: list[int], lengths: list[int]) -> None:
        """Add pair counts and child lengths to the edges keyed ``src << 32 | dst``."""
        edges = self._edges
        for k, c, ln in zip(keys, pairs, lengths):
            e = edges.get(k)
            if e is None:
                edges[k] = [c, ln]
            else:
                e[0] += c
                e[1] += ln

    def state(self) -> dict:
        """What this builder has counted, in a picklable form :meth:`merge` takes (for parallel builds)."""
        self._flush()
        n = len(self._keyer.keys)
        keys = np.fromiter(self._edges, dtype=np.int64, count=len(self._edges))
        vals = np.array(list(self._edges.values()), dtype=np.int64).reshape(-1, 2)
        return {
            "kind": self.kind.name,
            "hkeys": list(self._keyer.hkeys),
            "keys": list(self._keyer.keys),
            "size": _grow(self._size, n),
            "length": _grow(self._length, n),
            "edge_keys": keys,
            "edge_vals": vals,
            "num_documents": self.num_documents,
        }

    def merge(self, state: dict) -> None:
        """Add what another builder of the same kind counted (see :meth:`state`).

        Key hashes depend only on tag names, so the parts of two builders
        match exactly; merging the states of consecutive chunks of a
        collection in order numbers the SIDs as one sequential pass would.
        """
        if state["kind"] != self.kind.name:
            raise ValueError(f"cannot merge a {state['kind']} summary into a {self.kind.name} summary")
        if self._keep:
            raise ValueError("merging is not supported with keep_extents=True")
        self._flush()
        local = np.array([self._keyer.intern(h, k) for h, k in zip(state["hkeys"], state["keys"])], dtype=np.int64)
        n = len(self._keyer.keys)
        self._size = _grow(self._size, n)
        self._length = _grow(self._length, n)
        np.add.at(self._size, local, state["size"])
        np.add.at(self._length, local, state["length"])
        ek, ev = state["edge_keys"], state["edge_vals"]
        if len(ek):
            src, dst = local[ek >> 32], local[ek & ((1 << 32) - 1)]
            self._accumulate_edges((src * (1 << 32) + dst).tolist(), ev[:, 0].tolist(), ev[:, 1].tolist())
        self.num_documents += state["num_documents"]

    def build(self) -> Summary:
        """The summary of everything added so far."""
        self._flush()
        n = len(self._keyer.keys)
        keys = np.array(sorted(self._edges), dtype=np.int64)
        vals = np.array([self._edges[k] for k in keys.tolist()], dtype=np.int64).reshape(-1, 2)
        return Summary(
            kind=self.kind,
            extent_size=_grow(self._size, n).copy(),
            content_length=_grow(self._length, n).copy(),
            edge_src=keys >> 32,
            edge_dst=keys & ((1 << 32) - 1),
            edge_pairs=vals[:, 0].copy(),
            edge_child_length=vals[:, 1].copy(),
            num_documents=self.num_documents,
            _keyer=self._keyer,
            extents=dict(self._extents) if self._keep else None,
        )


def _grow(a: np.ndarray, n: int) -> np.ndarray:
    if len(a) >= n:
        return a
    out = np.zeros(n, dtype=a.dtype)
    out[: len(a)] = a
    return out


def build_summary(
    documents: Iterable[DocumentTree], kind: str | PartitionKind = "p*", keep_extents: bool = False
) -> Summary:
    """Build a structural summary in one pass over the documents.

    Parameters
    ----------
    documents : iterable of DocumentTree
        E.g. :func:`graphsr.io.iter_documents` of a collection; consumed once.
    kind : {'p*', 'p*|c', 'c', 'tag'}
        The partition (see :mod:`graphsr.summaries.kinds`).
    keep_extents : bool
        Keep, for every document, the SID of each node, so that
        :meth:`Summary.extent` can list a part's elements.  Costs 4 bytes per
        element; off by default so memory does not grow with the collection.

    Returns
    -------
    Summary

    Examples
    --------
    The book of Fig 1-2 of the SR paper (tags abbreviated as in Fig 2):

    >>> from graphsr.core import DocumentTree
    >>> n = lambda t, kids=(): (t, "", list(kids))
    >>> book = DocumentTree.from_nested("moby", n("bk", [
    ...     n("fm", [n("d", [n("n"), n("m"), n("m")]), n("d", [n("n"), n("n")]),
    ...              n("d", [n("n"), n("n"), n("n")])]),
    ...     n("bd", [n("c"), n("c"), n("c")])]))
    >>> s = build_summary([book], "p*")
    >>> s.labels()
    ['/bk', '/bk/fm', '/bk/fm/d', '/bk/fm/d/n', '/bk/fm/d/m', '/bk/bd', '/bk/bd/c']
    >>> s.extent_size.tolist()
    [1, 1, 3, 6, 2, 1, 3]
    >>> len(build_summary([book], "p*|c"))
    8
    """
    b = SummaryBuilder(kind, keep_extents=keep_extents)
    for doc in documents:
        b.add(doc)
    return b.build()
