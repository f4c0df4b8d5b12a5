"""The documents of a collection read only where an evaluation touches them: their texts and their lengths by
document id, from any collection graphsr reads -- a directory or archive of documents (only the files named are
read), a JSON lines corpus, or a directory of JSON lines shards as MS MARCO v2.1 ships its documents
(``msmarco_v2.1_doc_NN.json.gz``: ``docid``, ``url``, ``title``, ``headings``, ``body``).

A JSON lines corpus gives each document's id as ``doc_id``, ``_id`` (BEIR's) or ``docid`` (MS MARCO's) and its
text as ``text`` or ``body`` (MS MARCO's: segments' ``start_char``/``end_char`` count in it), with an optional
``format`` (markdown, text, html, xml; default text).  A corpus file of at least
:func:`~graphsr.io.record_index.index_threshold` bytes is read through its index
(:mod:`graphsr.io.record_index`: each document's line, byte offset and text length), built once; a document's
text is then read at its offset (in a gzipped file, by decompressing up to it: the documents wanted are read in
offset order, in one pass).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from ..errors import CollectionError
from .corpus_records import CORPUS_SUFFIXES, record_fields

__all__ = ["is_corpus", "corpus_files", "CorpusSource", "record_text"]

_NAMES = CORPUS_SUFFIXES + tuple(s + ".gz" for s in CORPUS_SUFFIXES)


def corpus_files(path: str | os.PathLike) -> list[str] | None:
    """The files of a JSON lines corpus at ``path`` -- the file, or a directory's JSON lines files when it holds
    no other document -- or None where ``path`` is another kind of collection."""
    p = Path(path)
    if p.is_file():
        return [str(p)] if p.name.lower().endswith(_NAMES) and not _framework_file(p) else None
    if not p.is_dir():
        return None
    from .collection import _is_xml

    from .tree_files import tree_files

    names = [(e.path, e.name) for e in tree_files(p)]
    shards = sorted(f for f, name in names if name.lower().endswith(_NAMES))
    if not shards or any(_is_xml(name) for _, name in names) or _framework_file(shards[0]):
        return None
    return shards


def _framework_file(path) -> bool:
    """Whether a JSON lines file is Natural Questions' examples or a RAG framework's nodes (collections of their
    own: :mod:`graphsr.io.nq_collection`, :mod:`graphsr.io.retrieved`), not a corpus of texts."""
    from ..errors import CollectionError
    from .first_records import first_record, is_nodes_record, is_nq_record

    try:
        record = first_record(path, CollectionError)
    except CollectionError:
        return False
    return is_nq_record(record) or is_nodes_record(record)


def is_corpus(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a JSON lines corpus (a file, or a directory of shards)."""
    return corpus_files(path) is not None


def record_text(text: str, kind: str, docid: str, source: str) -> str:
    """A corpus document's text as its offsets count: markdown and text as given, html and xml their text
    content (as :func:`graphsr.io.collection.read_document_text` reads a file of that format)."""
    if kind in ("markdown", "text"):
        return text
    from .collection import text_of

    return text_of(text.encode("utf-8"), "html" if kind == "html" else None, f"{source}: document {docid}", False)


def _json(raw: bytes, path, line: int) -> dict:
    """A corpus line's object (a byte order mark before the first dropped)."""
    try:
        r = json.loads(raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else f"not UTF-8 ({exc.reason})"
        raise CollectionError(f"expected a JSON object per line: {reason}", path, line) from None
    if not isinstance(r, dict):
        raise CollectionError(f"expected a JSON object per line, got {type(r).__name__}", path, line)
    return r


def _rows(path: str):
    """``(line, doc_id, offset, length)`` of every document of a corpus file (length -1 where the text must be
    parsed to be measured: html and xml)."""
    from .record_index import raw_lines

    for offset, line, raw in raw_lines(path, CollectionError):
        if not raw.strip():
            continue
        docid, text, kind = record_fields(_json(raw, path, line), path, line)
        yield line, docid, offset, len(text) if kind in ("markdown", "text") else -1


class CorpusSource:
    """A JSON lines corpus's files (see the module docstring), asked for documents by id."""

    def __init__(self, files: list[str]):
        from .record_index import index_threshold

        self.files = files
        threshold = index_threshold()
        self._large = {f for f in files if os.path.getsize(f) >= threshold}
        self._indexes: dict = {}

    def _index(self, f: str):
        if f not in self._indexes:  # (every large file's at once: built side by side where none is kept)
            from .record_index import file_indexes

            self._indexes.update(file_indexes(sorted(self._large), "documents", _rows, CollectionError))
        return self._indexes[f]

    def _places(self, docs: set[str]) -> dict[str, tuple[str, int, int, int]]:
        """``{doc_id: (file, line, offset, length)}`` of the documents held (a document in two files refused)."""
        found: dict[str, tuple] = {}
        for f in self.files:
            if f in self._large:
                got = {d: (f, *v) for d, v in self._index(f).lookup(docs, CollectionError).items()}
            else:
                got = {d: (f, line, off, n) for line, d, off, n in _rows(f) if d in docs}
            for d, place in got.items():
                if d in found:
                    raise CollectionError(
                        f"duplicate document id {d!r}: also in {found[d][0]}, line {found[d][1]}", f, place[1]
                    )
                found[d] = place
        return found

    def ids(self) -> list[str]:
        """Every document id, in file then line order."""
        return [d for f in self.files for _, d, _, _ in _rows(f)]

    def texts(self, docs: Iterable[str] | None = None) -> dict[str, str]:
        """``{doc_id: text}`` of the documents ``docs`` the corpus holds (None: every document)."""
        places = self._places(set(self.ids() if docs is None else docs))
        out: dict[str, str] = {}
        by_file: dict[str, list] = {}
        for d, (f, line, offset, _) in places.items():
            by_file.setdefault(f, []).append((offset, line, d))
        for f, wanted in by_file.items():
            for (offset, line, d), raw in zip(sorted(wanted), _lines_at(f, sorted(o for o, _, _ in wanted))):
                docid, text, kind = record_fields(_json(raw, f, line), f, line)
                if docid != d:
                    raise CollectionError(f"expected document {d!r} at byte {offset}, found {docid!r}", f, line)
                out[d] = record_text(text, kind, d, f)
        return out

    def lengths(self, docs: Iterable[str]) -> dict[str, int]:
        """``{doc_id: length of its text}`` of the documents ``docs`` the corpus holds (texts read only where
        their format must be parsed to be measured)."""
        places = self._places(set(docs))
        out = {d: n for d, (_, _, _, n) in places.items() if n >= 0}
        parse = [d for d, (_, _, _, n) in places.items() if n < 0]
        if parse:
            out.update({d: len(t) for d, t in self.texts(parse).items()})
        return out


def _lines_at(path: str, offsets: list[int]):
    """The lines starting at ``offsets`` (ascending) of a file's uncompressed bytes, read forward once."""
    if path.endswith(".gz"):
        from .archive_limits import open_bounded

        fh = open_bounded(path, CollectionError, "gzip")
    else:
        fh = open(path, "rb")
    with fh:
        for offset in offsets:
            if fh.tell() != offset:
                fh.seek(offset)
            yield fh.readline()
