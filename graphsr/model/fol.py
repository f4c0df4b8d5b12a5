"""Passage (FOL) assessments and runs as flat arrays.

INEX 2009-2010 judged passages as character ranges: FOL = (file, offset,
length), offsets counting text characters from 0 (SPEC section 3).  Both
classes here are built by the readers of :mod:`graphsr.io.fol` and read by
the measures of :mod:`graphsr.measures.fol`; neither reads files.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["FOLQrels", "FOLRun"]


@dataclass(eq=False)
class FOLQrels:
    """Judged articles and their highlighted passages, for every topic.

    Rows are judged (topic, article) pairs; passages are grouped by row and
    sorted by offset within a row, non-overlapping.

    Parameters
    ----------
    topic, docid : arrays of str, shape (J,)
    doc_len, rel_chars : arrays of int, shape (J,)
        Article length and highlighted characters (the sum of its passages).
    bep : array of int, shape (J,)
        Best entry point offset, -1 for an article without highlights.
    pass_row, pass_start, pass_end : arrays of int, shape (P,)
        Row of each passage and its characters ``[start, end)``.
    source : str
        The file read, for messages.
    """

    topic: np.ndarray
    docid: np.ndarray
    doc_len: np.ndarray
    rel_chars: np.ndarray
    bep: np.ndarray
    pass_row: np.ndarray
    pass_start: np.ndarray
    pass_end: np.ndarray
    source: str = ""
    _rows: tuple = field(default=None, repr=False)  # look-up structures of rows()

    @property
    def topics(self) -> list[str]:
        """Judged topics, in file order."""
        return list(dict.fromkeys(self.topic.tolist()))

    def rows(self, topics: np.ndarray, docids: np.ndarray) -> np.ndarray:
        """Row of each (topic, docid) pair, -1 where not judged (hashed look-ups, no Python loop)."""
        import pandas as pd

        if self._rows is None:
            topic_vocab, doc_vocab = pd.Index(pd.unique(self.topic)), pd.Index(pd.unique(self.docid))
            key = topic_vocab.get_indexer(self.topic) * np.int64(len(doc_vocab)) + doc_vocab.get_indexer(self.docid)
            order = np.argsort(key, kind="stable")
            self._rows = (topic_vocab, doc_vocab, key[order], order)
        topic_vocab, doc_vocab, keys, order = self._rows
        if len(topics) == 0 or len(keys) == 0:
            return np.full(len(topics), -1, dtype=np.int64)
        t = topic_vocab.get_indexer(np.asarray(topics, dtype=object))
        d = doc_vocab.get_indexer(np.asarray(docids, dtype=object))
        key = t * np.int64(len(doc_vocab)) + d
        pos = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
        found = (t >= 0) & (d >= 0) & (keys[pos] == key)
        return np.where(found, order[pos], -1).astype(np.int64)

    def __len__(self) -> int:
        return len(self.topic)

    def relevant_articles(self, topic: str) -> int:
        """Number of articles of ``topic`` with highlighted text."""
        return int(((self.topic == topic) & (self.rel_chars > 0)).sum())


@dataclass(eq=False)
class FOLRun:
    """A passage run: one row per result, in (topic, rank) order.

    Parameters
    ----------
    name : str
        Run name used in reports.
    topic, docid : arrays of str, shape (N,)
    rank : array of int, shape (N,)
    score : array of float, shape (N,)
    offset, length : arrays of int, shape (N,)
        The passage ``[offset, offset + length)``.
    line : array of int, shape (N,)
        Line (or result number) in the source, for messages.
    source : str
    run_ids : tuple of str
        Run ids named in the file.
    """

    name: str
    topic: np.ndarray
    docid: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    offset: np.ndarray
    length: np.ndarray
    line: np.ndarray
    source: str = ""
    run_ids: tuple = ()

    def __len__(self) -> int:
        return len(self.topic)

    @property
    def topics(self) -> list[str]:
        """Topics of the run, in run order."""
        return list(dict.fromkeys(self.topic.tolist()))
