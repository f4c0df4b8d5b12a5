"""Passage (FOL) assessments and runs as flat arrays.

INEX 2009-2010 judged passages as character ranges: FOL = (file, offset,
length), offsets counting text characters from 0 (docs/conventions.md).  The
classes here are built by the readers of :mod:`graphsr.io.fol` and read by
the passage measures; none reads files.

Topic and article names are stored as integer codes of a
:class:`Vocabulary`.  A run read with the vocabulary of its assessments
(``read_fol_run(path, vocab=qrels.vocab)``, as the command line does) is
joined to them by integer look-ups; otherwise the run is recoded once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from .kinds import PASSAGES

__all__ = ["Vocabulary", "FOLQrels", "FOLRun"]

_I64 = np.int64


class Vocabulary:
    """Topic and article names and their integer codes (codes count up from 0 in order of first use).

    Examples
    --------
    >>> v = Vocabulary()
    >>> v.doc_codes(["a", "b", "a"]).tolist(), v.doc_names().tolist()
    ([0, 1, 0], ['a', 'b'])
    """

    def __init__(self) -> None:
        self.topics: dict[str, int] = {}
        self.docs: dict[str, int] = {}
        self._names: dict[str, np.ndarray] = {}

    def topic_codes(self, names: Iterable[str]) -> np.ndarray:
        t = self.topics
        return np.fromiter((t.setdefault(n, len(t)) for n in names), dtype=_I64)

    def doc_codes(self, names: Iterable[str]) -> np.ndarray:
        d = self.docs
        return np.fromiter((d.setdefault(n, len(d)) for n in names), dtype=_I64)

    def _array(self, which: str, table: dict) -> np.ndarray:
        a = self._names.get(which)
        if a is None or len(a) != len(table):
            a = np.empty(len(table), dtype=object)
            a[:] = list(table)
            self._names[which] = a
        return a

    def topic_names(self) -> np.ndarray:
        """Object array: the name of each topic code."""
        return self._array("topics", self.topics)

    def doc_names(self) -> np.ndarray:
        """Object array: the name of each article code."""
        return self._array("docs", self.docs)


class _Named:
    """Names of the topic and article codes of each row."""

    #: Passage runs and assessments (:mod:`graphsr.core.kinds`).
    kind = PASSAGES

    vocab: Vocabulary
    topic_code: np.ndarray
    doc_code: np.ndarray

    @property
    def topic(self) -> np.ndarray:
        """Topic name of each row (object array)."""
        return self.vocab.topic_names()[self.topic_code]

    @property
    def docid(self) -> np.ndarray:
        """Article name of each row (object array)."""
        return self.vocab.doc_names()[self.doc_code]

    @property
    def topics(self) -> list[str]:
        """The topics, in order of first appearance in the file."""
        first = np.sort(np.unique(self.topic_code, return_index=True)[1])
        return self.vocab.topic_names()[self.topic_code[first]].tolist()


@dataclass(eq=False)
class FOLQrels(_Named):
    """Judged articles and their highlighted passages, for every topic.

    Rows are judged (topic, article) pairs in file order; passages are
    grouped by row and sorted by offset within a row, disjoint.

    Parameters
    ----------
    vocab : Vocabulary
    topic_code, doc_code : arrays of int, shape (J,)
    doc_len, rel_chars : arrays of int, shape (J,)
        Article length and highlighted characters (the sum of its passages).
    bep : array of int, shape (J,)
        Best entry point offset, -1 for an article without highlights.
    pass_row, pass_start, pass_end : arrays of int, shape (P,)
        Row of each passage and its characters ``[start, end)``.
    line : array of int, shape (J,)
        Line of each row in the source.
    source : str
        The file read, for messages.
    """

    vocab: Vocabulary
    topic_code: np.ndarray
    doc_code: np.ndarray
    doc_len: np.ndarray
    rel_chars: np.ndarray
    bep: np.ndarray
    pass_row: np.ndarray
    pass_start: np.ndarray
    pass_end: np.ndarray
    line: np.ndarray
    source: str = ""
    _keys: tuple = field(default=None, repr=False)  # sorted (topic, doc) keys of rows()
    #: span and chunk judgments (:mod:`graphsr.io.spans`): per (topic, doc), the ``[start, end)`` ranges judged at
    #: all; None where every character of a judged document was judged (INEX's assessments)
    judged_spans: dict | None = field(default=None, repr=False)
    #: each document's text length where the texts were read (runs' ranges are checked against them), else None
    text_lengths: Mapping | None = field(default=None, repr=False)
    #: the relevant spans as judged, before merging, ``(row, start, end)`` arrays; None: the passages themselves
    references: tuple | None = field(default=None, repr=False)
    #: False where no text was read to measure the documents (their lengths are the furthest ends judged)
    lengths_known: bool = field(default=True, repr=False)

    @classmethod
    def from_columns(
        cls,
        topic,
        docid,
        doc_len,
        rel_chars,
        bep,
        pass_row,
        pass_start,
        pass_end,
        line=None,
        source: str = "",
        vocab: Vocabulary | None = None,
    ) -> "FOLQrels":
        """Assessments from name lists and numbers (see the class parameters)."""
        vocab = vocab or Vocabulary()
        n = len(topic)
        line = np.arange(1, n + 1, dtype=_I64) if line is None else np.asarray(line, dtype=_I64)
        return cls(
            vocab,
            vocab.topic_codes(topic),
            vocab.doc_codes(docid),
            *(np.asarray(a, dtype=_I64) for a in (doc_len, rel_chars, bep, pass_row, pass_start, pass_end)),
            line,
            source,
        )

    def rows(self, topic_code: np.ndarray, doc_code: np.ndarray) -> np.ndarray:
        """Row of each (topic, article) pair given as codes of this vocabulary, -1 where not judged."""
        width = (
            _I64(1) << 32
        )  # codes stay below 2**31; a fixed width keeps the sorted keys valid as the vocabulary grows
        if self._keys is None:
            key = self.topic_code * width + self.doc_code
            order = np.argsort(key, kind="stable")
            self._keys = (width, key[order], order)
        _, keys, order = self._keys
        topic_code, doc_code = np.asarray(topic_code, dtype=_I64), np.asarray(doc_code, dtype=_I64)
        if len(topic_code) == 0 or len(keys) == 0:
            return np.full(len(topic_code), -1, dtype=_I64)
        key = topic_code * width + doc_code
        pos = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
        return np.where(keys[pos] == key, order[pos], -1).astype(_I64)

    def __len__(self) -> int:
        return len(self.topic_code)

    def relevant_articles(self, topic: str) -> int:
        """Number of articles of ``topic`` with highlighted text."""
        code = self.vocab.topics.get(topic, -1)
        return int(((self.topic_code == code) & (self.rel_chars > 0)).sum())


@dataclass(eq=False)
class FOLRun(_Named):
    """A passage run: one row per result, **in file order** (the official tool reads neither the rank
    nor the score column; evaluation may still order by rank on request).

    Parameters
    ----------
    name : str
        Run name used in reports.
    vocab : Vocabulary
    topic_code, doc_code : arrays of int, shape (N,)
    rank : array of int, shape (N,)
    score : array of float, shape (N,)
    offset, length : arrays of int, shape (N,)
        The passage ``[offset, offset + length)``.
    line : array of int, shape (N,)
        Line (or result number) in the source, for messages.
    run_id_code : array of int, shape (N,)
        Index into ``run_ids`` of each line's run id (-1 where none is named).
    run_ids : tuple of str
        Run ids named in the file, in order of first use.
    source : str
    ranked : bool
        The rows are already in ranked order (chunk runs, :func:`graphsr.io.chunks.read_chunk_run`, sorted as
        they are read): scored in this order, whatever ``order`` evaluation is given.
    chunk_ranges : bool
        The ranges are a chunk map's (a run of chunk ids): messages about a range say so.
    """

    name: str
    vocab: Vocabulary
    topic_code: np.ndarray
    doc_code: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    offset: np.ndarray
    length: np.ndarray
    line: np.ndarray
    run_id_code: np.ndarray
    run_ids: tuple = ()
    source: str = ""
    ranked: bool = False
    chunk_ranges: bool = False

    @classmethod
    def from_columns(
        cls,
        name: str,
        topic,
        docid,
        rank,
        score,
        offset,
        length,
        line,
        run_id=None,
        source: str = "",
        vocab: Vocabulary | None = None,
        ranked: bool = False,
    ) -> "FOLRun":
        """A run from per-line columns (names as strings); ``run_id`` is one name for every line, a
        sequence of names (one per line) or None."""
        vocab = vocab or Vocabulary()
        n = len(topic)
        if run_id is None:
            ids, codes = (), np.full(n, -1, dtype=_I64)
        elif isinstance(run_id, str):
            ids, codes = (run_id,), np.zeros(n, dtype=_I64)
        else:
            table: dict[str, int] = {}
            codes = np.fromiter((table.setdefault(r, len(table)) for r in run_id), dtype=_I64, count=n)
            ids = tuple(table)
        return cls(
            name,
            vocab,
            vocab.topic_codes(topic),
            vocab.doc_codes(docid),
            np.asarray(rank, dtype=_I64),
            np.asarray(score, dtype=float),
            np.asarray(offset, dtype=_I64),
            np.asarray(length, dtype=_I64),
            np.asarray(line, dtype=_I64),
            codes,
            ids,
            source,
            ranked,
        )

    def __len__(self) -> int:
        return len(self.topic_code)

    def recoded(self, vocab: Vocabulary) -> "FOLRun":
        """The same run with codes of ``vocab`` (itself if it already uses it)."""
        if vocab is self.vocab:
            return self
        t = vocab.topic_codes(self.vocab.topic_names().tolist())
        d = vocab.doc_codes(self.vocab.doc_names().tolist())
        return FOLRun(
            self.name,
            vocab,
            t[self.topic_code] if len(t) else self.topic_code.copy(),
            d[self.doc_code] if len(d) else self.doc_code.copy(),
            self.rank,
            self.score,
            self.offset,
            self.length,
            self.line,
            self.run_id_code,
            self.run_ids,
            self.source,
            self.ranked,
            self.chunk_ranges,
        )

    @property
    def run_id(self) -> str | None:
        """The run id column's value when every line names the same one, else None."""
        return self.run_ids[0] if len(self.run_ids) == 1 and (self.run_id_code >= 0).all() else None

    def last_run_id(self, mask: np.ndarray | None = None) -> str | None:
        """The run id of the last line (among ``mask``) that names one, as the official tool's header."""
        codes = self.run_id_code if mask is None else self.run_id_code[mask]
        named = codes[codes >= 0]
        return self.run_ids[int(named[-1])] if len(named) else None
