"""One check of character ranges against their documents' texts, for every reader that meets one: span judgments,
chunk judgments (through their chunk map), runs of spans and of chunk ids, and the chunk map a measure counts.

A range ``[start, end)`` of a document lies in its text when ``0 <= start < end <= len(text)``, counted as span
offsets count (docs/conventions.md); a document the collection does not hold has no text for a range to lie in.
Judgments and runs get the same message, naming what the range belongs to, its file and its line:

>>> range_problem("span", "d1", 5, 120, 100)
"span [5, 120) of document 'd1': expected 0 <= start < end <= 100 (the document's text)"
>>> range_problem("result", "d9", 0, 10, None)
"result [0, 10): document 'd9' is not in the collection"
>>> range_problem("span", "d1", 5, 10, 100) is None
True
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

__all__ = ["range_problem", "outside", "sizes", "first_outside", "check_run_ranges"]


def range_problem(what: str, doc: str, start: int, end: int, size: int | None) -> str | None:
    """Why ``what`` ``[start, end)`` of ``doc`` does not lie in its text of ``size`` characters (None: the
    collection has no such document), or None where it does."""
    if size is not None and 0 <= start < end <= size:
        return None
    return outside(what, doc, start, end, size)


def outside(what: str, doc: str, start: int, end: int, size: int | None) -> str:
    """The message of a range that does not lie in its document's text (see :func:`range_problem`)."""
    if size is None:
        return f"{what} [{start}, {end}): document {doc!r} is not in the collection"
    return f"{what} [{start}, {end}) of document {doc!r}: expected 0 <= start < end <= {size} (the document's text)"


def sizes(docs, lengths: Mapping[str, int]) -> np.ndarray:
    """Each document's text length by ``lengths``, -1 for one it does not hold (``docs`` a sequence of ids)."""
    return np.array([lengths.get(d, -1) for d in docs], dtype=np.int64)


def first_outside(size: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> int | None:
    """The index of the first range ``[starts[i], ends[i])`` outside a text of ``size[i]`` characters (-1: no
    text), or None."""
    bad = (size < 0) | (starts < 0) | (starts >= ends) | (ends > size)
    return int(np.argmax(bad)) if bad.any() else None


def check_run_ranges(qrels, run) -> None:
    """A passage run's results against the documents' texts where the assessments know them (span and chunk
    judgments read against a collection carry ``text_lengths``): a result outside its document's text is refused
    in one line naming the run's file and line, as a span of the judgments is.

    Raises
    ------
    RunFormatError
        For the first result outside its document's text.
    """
    lengths = getattr(qrels, "text_lengths", None)
    if lengths is None or not hasattr(run, "offset"):
        return
    from ..errors import RunFormatError

    code = np.asarray(run.doc_code, dtype=np.int64)
    every = run.vocab.doc_names()
    if len(code) and (int(code.min()) < 0 or int(code.max()) >= len(every)):  # (not the vocabulary's codes)
        raise ValueError("a run's document codes outside its vocabulary")
    present = np.zeros(len(every), dtype=bool)  # (each document named once: a table by code, no sort)
    present[code] = True
    codes = np.flatnonzero(present)
    size_of = np.full(len(every), -1, dtype=np.int64)
    size_of[codes] = sizes(every[codes].tolist(), lengths)
    start, end = run.offset, run.offset + run.length
    k = first_outside(size_of[code], start, end)
    if k is None:
        return
    doc = every[int(code[k])]
    what = "result (its chunk's range in the chunk map)" if run.chunk_ranges else "result"
    raise RunFormatError(
        outside(what, doc, int(start[k]), int(end[k]), lengths.get(doc)), run.source or run.name, int(run.line[k])
    )
