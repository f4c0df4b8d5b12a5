"""A chunk map held as columns: each chunk id's document, start and end side by side in arrays, looked up by id
through one dict of rows -- what an evaluation reads of a map (:meth:`graphsr.io.chunk_source.ChunkSource.
working_set`), so that a run's hundreds of thousands of chunk ids are placed with array operations, not a tuple
each.  It is a read-only mapping ``{chunk id: (doc_id, start, end)}``, as a dict of the same items reads."""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping

import numpy as np

__all__ = ["ChunkTable", "as_chunk_table"]


class ChunkTable(Mapping):
    """``{chunk id: (doc_id, start, end)}`` as columns (chunk ids distinct, in the order given).

    >>> t = ChunkTable.from_items([("c1", ("a", 0, 5)), ("c2", ("b", 3, 9)), ("c3", ("a", 5, 8))])
    >>> t["c2"], len(t), list(t), t.doc_names
    (('b', 3, 9), 3, ['c1', 'c2', 'c3'], ['a', 'b'])
    >>> t.rows(["c3", "zz"]).tolist()
    [2, -1]
    """

    __slots__ = ("ids", "doc_names", "doc", "start", "end", "_row")

    def __init__(self, ids: list, doc_names: list, doc: np.ndarray, start: np.ndarray, end: np.ndarray):
        self.ids = ids
        self.doc_names = doc_names  # (the documents, each once; ``doc`` codes index it)
        self.doc = np.asarray(doc, dtype=np.int64)
        self.start = np.asarray(start, dtype=np.int64)
        self.end = np.asarray(end, dtype=np.int64)
        self._row = dict(zip(ids, range(len(ids))))
        if len(self._row) != len(ids) or not len(ids) == len(self.doc) == len(self.start) == len(self.end):
            raise ValueError("a chunk table needs distinct chunk ids and one document, start and end each")

    @classmethod
    def from_columns(cls, ids: list, docs: list, start, end) -> "ChunkTable":
        """From a document name per chunk."""
        codes: dict[str, int] = {}
        doc = np.fromiter((codes.setdefault(d, len(codes)) for d in docs), dtype=np.int64, count=len(docs))
        return cls(ids, list(codes), doc, start, end)

    @classmethod
    def from_items(cls, items: Iterable[tuple[str, tuple[str, int, int]]]) -> "ChunkTable":
        """From ``(chunk id, (doc_id, start, end))`` pairs (ids distinct)."""
        pairs = list(items)
        return cls.from_columns(
            [c for c, _ in pairs],
            [v[0] for _, v in pairs],
            np.fromiter((v[1] for _, v in pairs), dtype=np.int64, count=len(pairs)),
            np.fromiter((v[2] for _, v in pairs), dtype=np.int64, count=len(pairs)),
        )

    def then(self, other: "ChunkTable") -> "ChunkTable":
        """This table's chunks, then ``other``'s that it does not hold (``{**self, **other}`` where they agree)."""
        if not len(other):
            return self
        new = np.flatnonzero(~np.fromiter((c in self._row for c in other.ids), dtype=bool, count=len(other)))
        codes = {d: k for k, d in enumerate(self.doc_names)}
        for d in other.doc_names:
            codes.setdefault(d, len(codes))
        names = list(codes)
        remap = np.array([codes[d] for d in other.doc_names], dtype=np.int64)
        return ChunkTable(
            self.ids + [other.ids[k] for k in new.tolist()],
            names,
            np.concatenate([self.doc, remap[other.doc[new]]]),
            np.concatenate([self.start, other.start[new]]),
            np.concatenate([self.end, other.end[new]]),
        )

    def rows(self, ids: Iterable[str]) -> np.ndarray:
        """Each id's row, -1 where the table does not hold it."""
        get = self._row.get
        return np.fromiter((get(c, -1) for c in ids), dtype=np.int64)

    def __getitem__(self, chunk: str) -> tuple[str, int, int]:
        r = self._row[chunk]
        return self.doc_names[self.doc[r]], int(self.start[r]), int(self.end[r])

    def get(self, chunk, default=None):
        r = self._row.get(chunk)
        return default if r is None else (self.doc_names[self.doc[r]], int(self.start[r]), int(self.end[r]))

    def __contains__(self, chunk) -> bool:
        return chunk in self._row

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def values(self):  # type: ignore[override]
        names = self.doc_names
        return list(zip([names[d] for d in self.doc.tolist()], self.start.tolist(), self.end.tolist()))

    def items(self):  # type: ignore[override]
        return list(zip(self.ids, self.values()))

    def __repr__(self) -> str:
        return f"ChunkTable({len(self)} chunks of {len(self.doc_names)} documents)"


def as_chunk_table(chunks: Mapping) -> ChunkTable:
    """``chunks`` as a :class:`ChunkTable`: itself if it is one, else its items in its order."""
    return chunks if isinstance(chunks, ChunkTable) else ChunkTable.from_items(chunks.items())
