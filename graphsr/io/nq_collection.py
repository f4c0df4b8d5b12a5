"""A Natural Questions file (or a directory of its shards) as a collection: each example's page one document,
named by the example's id, its tree from :mod:`graphsr.io.nq_pages` (every long-answer candidate an element).

Listing reads each line's example id without parsing the line (its page is most of it); a page is parsed when
its document is read.  Documents are read in file order, each file forward once (:class:`NQLines`).
"""

from __future__ import annotations

import json
import os
import re

from ..errors import CollectionError
from .first_records import first_record, is_nq_record
from .nq import nq_files, numbered_lines

__all__ = ["is_nq_collection", "nq_sources", "NQLines", "NQ_MEMBER", "read_nq_page", "remembered"]

#: The suffix of an NQ page's member name (``<example_id>.nq``): how readers tell an NQ document from others.
NQ_MEMBER = ".nq"
_ID = re.compile(rb'"example_id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")')


def is_nq_collection(path: str | os.PathLike) -> bool:
    """Whether ``path`` is an NQ file, or a directory of NQ shards (by the first record of its first file)."""
    files = nq_files(path)
    if not files or not os.path.isfile(files[0]):
        return False
    if os.path.isdir(path) and not files[0].lower().endswith((".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")):
        return False
    try:
        return is_nq_record(first_record(files[0], CollectionError))
    except CollectionError:
        return False


def nq_sources(path: str | os.PathLike, source: type) -> list:
    """One ``source`` (:class:`~graphsr.io.collection.CollectionSource`) per example: its id, its file and
    line."""
    out = []
    for name in nq_files(path):
        for line, raw in numbered_lines(name, CollectionError):
            m = _ID.search(raw)
            if m is None:
                raise CollectionError("a line without an example_id: not a Natural Questions example", name, line)
            eid = m.group(1).decode()
            eid = json.loads(eid) if eid.startswith('"') else eid
            out.append(source(eid, name, eid + NQ_MEMBER, len(raw), line))
    return out


class NQLines:
    """A file's lines read forward, once, however many of its documents are asked for in file order (asking for
    an earlier line starts again)."""

    def __init__(self, path: str):
        self.path = path
        self._it = numbered_lines(path, CollectionError)
        self._at = 0

    def line(self, number: int) -> bytes:
        if number <= self._at:
            self.close()
            self._it, self._at = numbered_lines(self.path, CollectionError), 0
        for at, raw in self._it:
            self._at = at
            if at == number:
                return raw
        raise CollectionError(f"no line {number}", self.path)

    def close(self) -> None:
        self._it.close()


#: Pages read already in this process, by file and line (:func:`remembered`): an evaluation that placed its answers
#: on the pages reads them once, not again when the collection is loaded.
_PAGES: dict = {}


class remembered:
    """``with remembered(pages):`` -- pages (``{(file, line): PageTree}``) that :func:`read_nq_page` takes as read,
    for the block's length."""

    def __init__(self, pages: dict):
        self.pages = pages

    def __enter__(self):
        _PAGES.update(self.pages)
        return self

    def __exit__(self, *exc):
        for key in self.pages:
            _PAGES.pop(key, None)


def read_nq_page(source, cache: dict | None = None):
    """The :class:`~graphsr.io.nq_pages.PageTree` of an NQ document (``cache``: open files by path)."""
    from .nq_pages import page_of, page_tree

    known = _PAGES.get((source.path, source.offset))
    if known is not None:
        return known
    cache = {} if cache is None else cache
    key = ("nq", source.path)
    if key not in cache:
        cache[key] = NQLines(source.path)
    raw = cache[key].line(source.offset)
    try:
        record = json.loads(raw)
    except ValueError as exc:
        raise CollectionError(f"not a JSON object: {exc}", source.path, source.offset) from None
    return page_tree(page_of(record, source.path), f"{source.path}:{source.offset}")
