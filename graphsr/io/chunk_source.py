"""A chunk map on disk, answered by chunk id and by document without being read whole: one file, or a directory
of shards as MS MARCO v2.1 ships its segments (``msmarco_v2.1_doc_segmented_NN.json.gz``).

A file smaller than :func:`~graphsr.io.record_index.index_threshold` is read whole (streaming) when first asked;
a larger one through its index (:mod:`graphsr.io.record_index`), built the first time -- the shards that need
one built side by side, one process a core -- and kept while the file is unchanged.  A chunk id in two files
of a directory is refused when it is looked up, as one given twice in one file is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..errors import RunFormatError
from .chunk_table import ChunkTable

__all__ = ["ChunkSource", "map_files"]


def map_files(path: str | os.PathLike) -> list[str]:
    """The files of a chunk map: the file itself, or a directory's files named as chunk maps are
    (:data:`graphsr.io.chunk_records.MAP_SUFFIXES`, also gzipped), searched recursively, in name order."""
    from .chunk_records import MAP_SUFFIXES

    p = Path(path)
    if p.is_file():
        return [str(p)]
    if not p.is_dir():
        raise RunFormatError("no such file or directory (a chunk map)", p)
    names = MAP_SUFFIXES + tuple(s + ".gz" for s in MAP_SUFFIXES if s != ".parquet")
    from .tree_files import tree_files

    files = sorted(e.path for e in tree_files(p) if e.name.lower().endswith(names))
    if not files:
        raise RunFormatError(f"no chunk map in the directory: expected files named *{', *'.join(names)}", p)
    return files


def _rows(path: str):
    from .chunk_records import iter_chunk_records

    return iter_chunk_records(path)


class ChunkSource:
    """A chunk map's files (see the module docstring)."""

    def __init__(self, path: str | os.PathLike):
        from .record_index import index_threshold

        self.path = str(path)
        self.files = map_files(path)
        threshold = index_threshold()
        self._large = {f for f in self.files if os.path.getsize(f) >= threshold}
        self._whole: dict[str, dict] = {}
        self._indexes: dict = {}

    def _index(self, f: str):
        if f not in self._indexes:  # (every large file's at once: built side by side where none is kept)
            from .record_index import file_indexes

            self._indexes.update(file_indexes(sorted(self._large), "chunks", _rows, RunFormatError))
        return self._indexes[f]

    def _table(self, f: str) -> dict:
        if f not in self._whole:
            table: dict[str, tuple] = {}
            for line, chunk, doc, start, end in _rows(f):
                if chunk in table:
                    raise RunFormatError(f"chunk {chunk!r} is mapped twice (also on line {table[chunk][0]})", f, line)
                table[chunk] = (line, doc, start, end)
            self._whole[f] = table
        return self._whole[f]

    def _gathered(self, got_in, columns) -> ChunkTable:
        """What ``got_in(file)`` finds in each file (``{chunk id: (line, doc_id, start, end)}``), in file order, as a
        table; a chunk id found in two files is refused.  One file's is ``columns(file)``'s table as it is (its
        ids are distinct already)."""
        if len(self.files) == 1:
            return columns(self.files[0])
        found: dict[str, tuple] = {}
        for f in self.files:
            for chunk, values in got_in(f).items():
                if chunk in found:
                    other, line = found[chunk]
                    raise RunFormatError(
                        f"chunk {chunk!r} is mapped twice (also in {other}, line {line[0]})", f, values[0]
                    )
                found[chunk] = (f, values)
        return ChunkTable.from_items((c, tuple(v[1:])) for c, (_, v) in found.items())

    def lookup(self, ids: Iterable[str]) -> ChunkTable:
        """The chunks of ``ids`` the map holds (the others left out)."""
        ids = set(ids)

        def got_in(f: str) -> dict:
            if f in self._large:
                return self._index(f).lookup(ids, RunFormatError)
            table = self._table(f)
            return {c: table[c] for c in ids if c in table}

        def columns(f: str) -> ChunkTable:
            if f in self._large:
                return _index_chunks(self._index(f), ids)
            table = self._table(f)
            return ChunkTable.from_items((c, table[c][1:]) for c in sorted(ids) if c in table)

        return self._gathered(got_in, columns)

    def of_documents(self, docs: Iterable[str]) -> ChunkTable:
        """Every chunk of the documents ``docs``."""
        docs = set(docs)

        def got_in(f: str) -> dict:
            if f in self._large:
                return self._index(f).by_document(docs)
            return {c: v for c, v in self._table(f).items() if v[1] in docs}

        def columns(f: str) -> ChunkTable:
            if f in self._large:
                return _index_documents(self._index(f), docs)
            return ChunkTable.from_items((c, v[1:]) for c, v in self._table(f).items() if v[1] in docs)

        return self._gathered(got_in, columns)

    def working_set(self, ids: Iterable[str], docs_of: Iterable[str] = (), docs: Iterable[str] = ()) -> ChunkTable:
        """All an evaluation reads of the map: the chunks named (``ids``), and every chunk of the documents
        ``docs`` and of the documents of the chunks ``docs_of`` (those judged: the chunks around a judgment)."""
        ids, docs_of = set(ids), set(docs_of)
        if len(self.files) > 1:  # (every id looked up: one in two files is refused)
            named = self.lookup(ids | docs_of)
            around = self.of_documents(set(docs) | {named[c][0] for c in docs_of if c in named})
            return around.then(named)
        judged = self.lookup(docs_of)
        around = self.of_documents(set(docs) | {judged.doc_names[d] for d in judged.doc.tolist()})
        rest = ids.difference(around)  # (one file: a chunk of the documents read already is not looked up again)
        return around.then(self.lookup(rest)) if rest else around

    def whole(self) -> ChunkTable:
        """Every chunk of the map, in file then line order; an empty map is refused."""
        found = self._gathered(
            self._table, lambda f: ChunkTable.from_items((c, v[1:]) for c, v in self._table(f).items())
        )
        if not len(found):
            raise RunFormatError("the chunk map is empty", self.path)
        return found


def _index_chunks(index, ids: set) -> ChunkTable:
    """The chunks of ``ids`` an index of one chunk map file holds (:class:`graphsr.io.record_index.FileIndex`),
    by chunk id, as columns; an id held in two of its parts is refused."""
    import numpy as np

    from .record_index import listed

    if len(index.parts) != 1:
        return ChunkTable.from_items((k, v[1:]) for k, v in sorted(index.lookup(ids, RunFormatError).items()))
    wanted_str = sorted(ids)
    wanted = np.array([w.encode("utf-8") for w in wanted_str]) if wanted_str else np.zeros(0, dtype="S1")
    which, rows = index.parts[0].find(wanted)
    records = index.parts[0].columns["records"].take(rows)
    keys = [wanted_str[k] for k in which.tolist()]
    return ChunkTable.from_columns(keys, listed(records["doc"]), records["start"], records["end"])


def _index_documents(index, docs: set) -> ChunkTable:
    """Every chunk of the documents ``docs`` in an index of one chunk map file, by part, document and chunk id,
    as columns; a chunk id held in two of its parts is refused, naming both lines."""
    import numpy as np

    from .record_index import listed

    keys: list = []
    doc: list = []
    start, end = [], []
    for part, rows in index.document_rows(docs):
        records = part.columns["records"].take(rows)
        keys += listed(part.ids.take(rows))
        doc += listed(records["doc"])
        start.append(records["start"])
        end.append(records["end"])
    if len(set(keys)) != len(keys):
        from collections import Counter

        twice = sorted(k for k, n in Counter(keys).items() if n > 1)
        index.lookup(twice, RunFormatError)  # (refuses it, naming both lines)
        raise RunFormatError(f"chunk {twice[0]!r} is given twice", index.path)
    if not start:
        return ChunkTable.from_columns([], [], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    return ChunkTable.from_columns(keys, doc, np.concatenate(start), np.concatenate(end))
