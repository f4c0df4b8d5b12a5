"""Runs: ranked lists of tree results per topic.

A run line names one node ``(topic, docid, rank, xpath)``; the lines of a
topic that share a rank form one *tree result* (docs/conventions.md, file formats), a set of
nodes of one document returned at one rank.  A single line is a singleton
tree (element retrieval).  A result's nodes need not be connected: SR's
equations (CIKM'08 Eq 1, 4, 5) only use the result as a set of nodes, so a
non-connected set is scored as that set (the SR paper treats an article's
cluster of elements in Relevant-in-Context as one induced subtree, which is
the same set).

Results are ordered by the rank column (ascending), not by score: the rank
is what groups lines into tree results.  The score is kept for reference.
"""

from __future__ import annotations

from .._records import record
from typing import Iterable, Iterator

import numpy as np

from ..errors import DuplicateResultError, RunFormatError
from .columns import DocumentColumns, ElementColumns
from .kinds import DOCUMENTS, ELEMENTS, TREES

__all__ = ["TreeResult", "Run", "RunRow"]


@record(frozen=True, init=False)
class RunRow:
    """One run line: a node returned for a topic at a rank."""

    topic: str
    docid: str
    rank: int
    score: float
    xpath: str
    line: int | None = None

    def __init__(self, topic: str, docid: str, rank: int, score: float, xpath: str, line: int | None = None):
        self.__dict__.update(topic=topic, docid=docid, rank=rank, score=score, xpath=xpath, line=line)


@record(frozen=True, init=False)
class TreeResult:
    """The nodes of one document returned for a topic at one rank."""

    topic: str
    rank: int
    docid: str
    xpaths: tuple[str, ...]  # canonical XPaths, in the order of the run lines
    score: float
    lines: tuple[int | None, ...] = ()

    def __init__(
        self,
        topic: str,
        rank: int,
        docid: str,
        xpaths: tuple[str, ...],
        score: float,
        lines: tuple[int | None, ...] = (),
    ):
        self.__dict__.update(topic=topic, rank=rank, docid=docid, xpaths=xpaths, score=score, lines=lines)

    def __len__(self) -> int:
        return len(self.xpaths)

    @classmethod
    def _trusted(cls, topic: str, rank: int, docid: str, xpaths: tuple[str, ...], score: float) -> "TreeResult":
        """Build without the keyword checks of ``__init__`` (readers that checked the values)."""
        self = object.__new__(cls)
        self.__dict__.update(topic=topic, rank=rank, docid=docid, xpaths=xpaths, score=score, lines=())
        return self


class Run:
    """A ranked list of tree results for each topic.

    Parameters
    ----------
    name : str
        How the run is reported (the ``runid`` line).
    results : dict of str to list of TreeResult
        Per topic, the tree results in rank order.
    source : str, optional
        The file it was read from, for messages.
    by_score : bool
        Whether the ranks were given by sorting the scores (TREC document
        runs, DataFrames and dicts, as trec_eval ranks them), rather than read
        from a rank column.
    columns : DocumentColumns or ElementColumns, optional
        The run's lines as arrays (how readers build runs: :meth:`from_columns`,
        :meth:`from_element_columns`).

    Notes
    -----
    A run holds its lines as columns, however it was made (results given to the constructor become columns);
    the measures score the columns, and :attr:`results` is a view built on first use.  Use :meth:`from_rows`
    to build one from lines; it checks the structure.
    """

    def __init__(
        self,
        name: str,
        results: dict[str, list[TreeResult]] | None = None,
        source: str | None = None,
        run_ids: tuple[str, ...] = (),
        by_score: bool = False,
        columns: DocumentColumns | ElementColumns | None = None,
    ):
        if columns is None:
            if results is None:
                raise ValueError("a run needs its results or its columns")
            columns = _columns_of_results(results)
        self.name = name
        self.columns = columns
        self._results = None
        self.source = source
        self.run_ids = run_ids
        self.by_score = by_score

    @classmethod
    def from_columns(
        cls, columns: DocumentColumns, name: str, source: str | None = None, run_ids: tuple[str, ...] = ()
    ) -> "Run":
        """A run of whole documents, ranked as trec_eval ranks them (score descending, then document name
        descending), from :class:`~graphsr.core.columns.DocumentColumns` of scores; nothing per line is
        built until an element family asks for :attr:`results`.

        Raises
        ------
        DuplicateResultError
            For a document listed twice for one topic (trec_eval refuses duplicates).
        """
        nan = np.flatnonzero(np.isnan(columns.value))
        if len(nan):
            k = int(nan[0])
            raise RunFormatError(
                f"topic {columns.topic_names[columns.topic[k]]}: expected a number as the score of "
                f"document {columns.doc_names[columns.doc[k]]}, got NaN (a run is ranked by its "
                "scores)",
                source,
                columns.line[k] if columns.line is not None else None,
            )
        k = columns.duplicate()
        if k is not None:
            topic, docid = columns.topic_names[columns.topic[k]], columns.doc_names[columns.doc[k]]
            where = columns.line[k] if columns.line is not None else None
            raise DuplicateResultError(
                f"topic {topic}: document {docid} is returned twice; expected each result "
                "once (as trec_eval refuses duplicate documents)",
                source,
                int(where) if where is not None else None,
            )
        return cls(name, None, source, run_ids, by_score=True, columns=columns)

    @classmethod
    def from_element_columns(
        cls,
        columns: ElementColumns,
        name: str,
        source: str | None = None,
        run_ids: tuple[str, ...] = (),
        by_score: bool = False,
    ) -> "Run":
        """An element run from :class:`~graphsr.core.columns.ElementColumns` (canonical XPaths), checked as
        :meth:`from_rows` checks lines, with array operations; nothing per result is built until someone
        asks for :attr:`results`.  ``by_score``: the ranks were given by the scores (see :class:`Run`).

        Raises
        ------
        RunFormatError, DuplicateResultError
            As :meth:`from_rows`.
        """
        if not _well_formed(columns):  # let the line-by-line check say what is wrong, and where
            cls._checked_results(_rows_of(columns), source)
            raise AssertionError("the run's lines break a rule that the line-by-line check did not name")
        return cls(name, None, source, run_ids, by_score, columns=columns)

    @property
    def kind(self) -> str:
        """``documents`` (every line a whole plain document), ``elements`` (one node per result) or ``trees``
        (:mod:`graphsr.core.kinds`)."""
        c = self.columns
        if c.plain:
            return DOCUMENTS
        return ELEMENTS if c.num_results == len(c) else TREES

    @property
    def results(self) -> dict[str, list[TreeResult]]:
        """Per topic, the tree results in rank order: a view of the columns, built on first use."""
        if self._results is None:
            self._results = _element_results(self.columns.as_elements())
        return self._results

    def __repr__(self) -> str:
        return f"Run({self.name!r}, topics={len(self.topics)}, results={self.num_results})"

    @property
    def run_id(self) -> str | None:
        """The run id column's value when every line names the same one, else None."""
        return self.run_ids[0] if len(self.run_ids) == 1 else None

    @property
    def topics(self) -> list[str]:
        return list(self.columns.topics)

    @property
    def num_results(self) -> int:
        return self.columns.num_results

    def __iter__(self) -> Iterator[TreeResult]:
        for rs in self.results.values():
            yield from rs

    def docids(self) -> set[str]:
        """Every document the run names."""
        return set(self.columns.docids)

    @classmethod
    def from_rows(
        cls, rows: Iterable[RunRow], name: str, source: str | None = None, run_ids: tuple[str, ...] = ()
    ) -> "Run":
        """Group run lines into tree results and check them.

        Raises
        ------
        RunFormatError
            If the lines of one (topic, rank) name different documents, or an XPath is malformed.
        DuplicateResultError
            If a node appears twice in one tree result, or the same result
            (same document, same set of nodes) appears at two ranks of a topic.
        """
        from .document import canonical_xpath  # (the trees' module: not imported where only documents are ranked)

        rows = list(rows)
        canonical: dict[str, str] = {}
        paths = []
        for row in rows:
            xp = canonical.get(row.xpath)
            if xp is None:
                try:
                    xp = canonical[row.xpath] = canonical_xpath(row.xpath)
                except ValueError as exc:
                    raise RunFormatError(str(exc), source, row.line) from None
            paths.append(xp)
        lines = [r.line for r in rows]
        columns = ElementColumns.from_lists(
            [r.topic for r in rows],
            [r.docid for r in rows],
            [r.rank for r in rows],
            [r.score for r in rows],
            paths,
            None if any(ln is None for ln in lines) else lines,
        )
        return cls.from_element_columns(columns, name, source, run_ids)

    @staticmethod
    def _checked_results(rows: list[RunRow], source: str | None) -> dict[str, list[TreeResult]]:
        """The tree results of lines, checked line by line (the checks' messages name lines)."""
        from .document import canonical_xpath

        grouped: dict[str, dict[int, list[RunRow]]] = {}
        for row in rows:
            grouped.setdefault(row.topic, {}).setdefault(row.rank, []).append(row)
        results: dict[str, list[TreeResult]] = {}
        for topic, by_rank in grouped.items():
            seen_sets: dict[tuple[str, frozenset], TreeResult] = {}
            out: list[TreeResult] = []
            for rank in sorted(by_rank):
                lines = by_rank[rank]
                first = lines[0]
                xpaths: list[str] = []
                seen_nodes: dict[str, RunRow] = {}
                for row in lines:
                    if row.docid != first.docid:
                        raise RunFormatError(
                            f"topic {topic} rank {rank}: lines sharing a rank form one tree result and must "
                            f"name one document; expected {first.docid!r} (line {first.line}), got {row.docid!r}",
                            source,
                            row.line,
                        )
                    try:
                        xp = canonical_xpath(row.xpath)
                    except ValueError as exc:
                        raise RunFormatError(str(exc), source, row.line) from None
                    if xp in seen_nodes:
                        raise DuplicateResultError(
                            f"topic {topic} rank {rank}: node {row.docid} {xp} appears twice in one tree result "
                            f"(also line {seen_nodes[xp].line}); expected each node once",
                            source,
                            row.line,
                        )
                    seen_nodes[xp] = row
                    xpaths.append(xp)
                res = TreeResult(topic, rank, first.docid, tuple(xpaths), first.score, tuple(r.line for r in lines))
                key = (first.docid, frozenset(xpaths))
                if key in seen_sets:
                    other = seen_sets[key]
                    raise DuplicateResultError(
                        f"topic {topic}: the same result ({first.docid} {', '.join(xpaths)}) is returned at rank "
                        f"{other.rank} and rank {rank}; expected each result once (as trec_eval refuses "
                        "duplicate documents)",
                        source,
                        first.line,
                    )
                seen_sets[key] = res
                out.append(res)
            results[topic] = out
        return results


def _columns_of_results(results: dict[str, list[TreeResult]]) -> ElementColumns:
    """The columns of tree results given per topic in rank order (each node one line; a topic with no result
    is kept as an empty topic)."""
    topics, docids, ranks, scores, paths, lines = [], [], [], [], [], []
    for topic, ranked in results.items():
        last = None
        for r in ranked:
            if last is not None and r.rank <= last:
                raise ValueError(
                    f"topic {topic}: results must come in rank order, each at a rank of its own; got "
                    f"rank {r.rank} after rank {last}"
                )
            if not r.xpaths:
                raise ValueError(f"topic {topic} rank {r.rank}: a tree result needs at least one node")
            last = r.rank
            n = len(r.xpaths)
            topics += [topic] * n
            docids += [r.docid] * n
            ranks += [r.rank] * n
            scores += [r.score] * n
            paths += r.xpaths
            lines += r.lines if len(r.lines) == n else [None] * n
    empty = tuple(t for t, ranked in results.items() if not ranked)
    known = None if any(x is None for x in lines) else lines
    return ElementColumns.from_lists(topics, docids, ranks, scores, paths, known, empty)


def _well_formed(c: ElementColumns) -> bool:
    """Whether the lines pass :meth:`Run.from_rows`' checks: each tree result names one document and each of
    its nodes once, and no result (document and set of nodes) comes at two ranks of a topic."""
    if len(c) == 0:
        return True
    o, starts = c.result_order, c.result_starts
    sizes = np.diff(starts)
    result = np.repeat(np.arange(len(sizes)), sizes)  # the result of each line, in result order
    doc, path = c.doc[o], c.path[o]
    if (doc != doc[starts[:-1]][result]).any():
        return False
    width = np.int64(max(len(c.path_names), 1))
    if _repeats(result * width + path):
        return False
    single = sizes == 1
    first = starts[:-1]
    topic = c.topic[o][first]
    docs = np.int64(max(len(c.doc_names), 1))
    key = (topic[single] * docs + doc[first][single]) * width + path[first][single]
    if _repeats(key):
        return False
    if not single.all():  # tree results: compare their sets of nodes, per topic and document
        seen = set()
        for r in np.flatnonzero(~single).tolist():
            nodes = frozenset(path[starts[r] : starts[r + 1]].tolist())
            sig = (int(topic[r]), int(doc[starts[r]]), nodes)
            if sig in seen:
                return False
            seen.add(sig)
    return True


def _repeats(key: np.ndarray) -> bool:
    s = np.sort(key)
    return bool((s[1:] == s[:-1]).any())


def _rows_of(c: ElementColumns) -> list[RunRow]:
    tn, dn, pn = c.topic_names, c.doc_names, c.path_names
    lines = c.line.tolist() if c.line is not None else [None] * len(c)
    return [
        RunRow(tn[t], dn[d], r, s, pn[p], ln)
        for t, d, r, s, p, ln in zip(
            c.topic.tolist(), c.doc.tolist(), c.rank.tolist(), c.score.tolist(), c.path.tolist(), lines
        )
    ]


def _element_results(c: ElementColumns) -> dict[str, list[TreeResult]]:
    """Tree results per topic in rank order, each one's nodes in file order."""
    o, starts = c.result_order, c.result_starts.tolist()
    tn, dn, pn = c.topic_names, c.doc_names, c.path_names
    topic, doc, rank, score, path = (
        c.topic[o].tolist(),
        c.doc[o].tolist(),
        c.rank[o].tolist(),
        c.score[o].tolist(),
        c.path[o].tolist(),
    )
    line = c.line[o].tolist() if c.line is not None else None
    results: dict[str, list[TreeResult]] = {t: [] for t in c.topics}
    for a, b in zip(starts[:-1], starts[1:]):
        results[tn[topic[a]]].append(
            TreeResult(
                tn[topic[a]],
                rank[a],
                dn[doc[a]],
                tuple(pn[p] for p in path[a:b]),
                score[a],
                tuple(line[a:b]) if line is not None else (),
            )
        )
    return results
