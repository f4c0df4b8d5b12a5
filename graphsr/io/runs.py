"""Reader of TREC-like element runs (INEX 2009+).

Format (docs/conventions.md, file formats), whitespace separated::

    topic Q0 file rank score run_id xpath

Lines sharing ``(topic, rank)`` form one tree result.
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import RunFormatError
from ..core.run import Run, RunRow
from .first_records import xpath_like

__all__ = ["read_run", "write_run", "RankOrderWarning"]


def read_run(path: str | os.PathLike, name: str | None = None, vocabulary=None) -> Run:
    """Read an element run file.

    Parameters
    ----------
    path : path-like
        The run file.
    name : str, optional
        How to report the run; default: the path as given.
    vocabulary : ElementQrels, optional
        TREC document assessments whose topic and document codes a TREC document run should share (they are
        then joined without looking names up); any other value is ignored.

    Returns
    -------
    Run

    Raises
    ------
    RunFormatError
        For an element line without 7 fields, a non-integer rank in an
        element run, a non-numeric score, a malformed XPath, lines of one
        (topic, rank) naming two documents, or a file mixing element and TREC
        document lines.
    DuplicateResultError
        For a node repeated within a result or a result repeated at two ranks.

    Notes
    -----
    A TREC document run, ``topic Q0 docno rank score run_id`` (6 fields, or
    more: as trec_eval, fields after the run id are ignored), is read as plain
    documents (each document one element, ``/doc[1]``) and ranked as
    trec_eval ranks it: by score, ties by docno, both descending; the rank
    column is not read (it need not be an integer).  Lines whose first field
    starts with ``#`` are comments.

    Examples
    --------
    >>> import tempfile, os
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".run", delete=False)
    >>> _ = f.write("1 Q0 moby 1 2.0 sys /book[1]/fm[1]\\n1 Q0 moby 1 2.0 sys /book[1]\\n")
    >>> f.close()
    >>> run = read_run(f.name)
    >>> [(r.rank, r.xpaths) for r in run.results["1"]]
    [(1, ('/book[1]/fm[1]', '/book[1]'))]
    >>> os.unlink(f.name)
    """
    from ._lines import c_scanner, read_bytes
    from .first_records import first_record

    scan = c_scanner()
    if scan is not None:  # a well-formed file: columns in C, no object per line
        record = first_record(path, RunFormatError)
        fields = record.split() if record else []
        if len(fields) >= 7 and xpath_like(fields[6]):  # an element run (the line reader explains the others)
            run = _element_run(scan, read_bytes(path, RunFormatError), path, name)
        else:  # a TREC document run
            run = _scan_document_run(scan, path, name, vocabulary)
        if run is not None:
            return run
    return _read_run_lines(path, name)


#: Bytes read at a time by the document run scanner: a run is never held whole in memory, only its columns.
BLOCK = 1 << 20


def _blocks(path):
    """The file's bytes in blocks of whole lines ending LF (through gzip for ``.gz``), a UTF-8 byte order mark
    dropped (:func:`graphsr.io._lines.iter_blocks`)."""
    from ._lines import iter_blocks

    return iter_blocks(path, RunFormatError, BLOCK)


def _line_capacity(path) -> int:
    """At least as many entries as the run file has lines: a plain file's size over the shortest line (six
    one-character fields and their separators, 11 bytes), a gzip file's lines counted in a first pass.  Arrays
    that long are reserved, not written: only the entries filled take memory."""
    if not str(path).endswith(".gz"):
        try:
            return os.path.getsize(path) // 11 + 1
        except OSError:
            pass  # the read below says why
    lines = 0
    ends_open = False
    for block in _blocks(path):
        lines += block.count(b"\n")
        ends_open = not block.endswith(b"\n")
    return lines + ends_open


def _scan_document_run(scan, path, name: str | None, vocabulary=None) -> Run | None:
    """A TREC document run file's run, read by the C scanner a block at a time into columns allocated once; None
    when the scanner declines a line or the file has none.

    With ``vocabulary`` (document assessments read from a file) the run is coded after the assessments' names
    (their codes for the names they know, the next codes for the others) without adding its names to their
    vocabulary: the run's own names stay in the scanner's index, each made a str once at the end.  Line numbers
    are stored only from the first block with a blank or comment line on: before it, entry ``k`` is line
    ``k + 1`` (:class:`~graphsr.core.columns.LineNumbers`), and most runs have no such line."""
    from ..core.columns import DocumentColumns, LineNumbers

    cap = _line_capacity(path)
    if cap == 0:
        return None
    shared = getattr(vocabulary, "columns", None)
    index = shared.own_index() if isinstance(shared, DocumentColumns) else None
    topic_codes, doc_codes = index if index is not None else ({}, {})
    columns = (np.empty(cap, np.int32), np.empty(cap, np.int32), np.empty(cap, np.float64))
    lines = None
    run_ids: dict[str, int] = {}
    n, line = 0, 0
    extend = index is None
    try:
        for block in _blocks(path):
            got = scan.scan_trec_run_into(block, topic_codes, doc_codes, run_ids, *columns, lines, n, line, extend)
            if got < 0:
                return None
            in_block = scan.line_reached() - line  # (the block's lines: every one was read)
            if lines is None and got != in_block:  # some line is not an entry: number the entries from here on
                lines = np.empty(cap, np.int32)
                lines[:n] = np.arange(1, n + 1, dtype=np.int32)
                got = scan.scan_trec_run_into(block, topic_codes, doc_codes, run_ids, *columns, lines, n, line, extend)
            n += got
            line += in_block
        topic_names, doc_names = list(topic_codes), list(doc_codes)
        if not extend:
            topic_names += scan.new_names(0)
            doc_names += scan.new_names(1)
    finally:
        scan.forget()
    if n == 0:
        return None
    topic, doc, score = (c[:n] for c in columns)
    line_column = LineNumbers(n) if lines is None else lines[:n]
    if extend:
        run_columns = DocumentColumns(
            topic_names, doc_names, topic, doc, score, line_column, index=(topic_codes, doc_codes)
        )
    else:
        run_columns = DocumentColumns(topic_names, doc_names, topic, doc, score, line_column, coded_as=shared)
    return Run.from_columns(run_columns, str(path) if name is None else name, str(path), tuple(run_ids))


def _element_run(scan, data: bytes | bytearray, path, name: str | None) -> Run | None:
    """The run of a well-formed element run file, read by the C scanner (None: the line reader reads it)."""
    from ..core.columns import ElementColumns
    from ..core.document import canonical_xpath
    from ._lines import scanned

    topics: dict[str, int] = {}
    docs: dict[str, int] = {}
    paths: dict[str, int] = {}
    got = scanned(scan, "scan_element_run", data, topics, docs, paths)
    if isinstance(got, int) or not len(got[0]):
        return None
    topic, doc, rank, score, path_code, line, run_ids = got
    canonical: dict[str, int] = {}
    try:  # each XPath as written once; two spellings of one node become one code
        remap = np.fromiter(
            (canonical.setdefault(canonical_xpath(p), len(canonical)) for p in paths), dtype=np.int64, count=len(paths)
        )
    except ValueError:
        return None  # the line reader names the line
    columns = ElementColumns(list(topics), list(docs), list(canonical), topic, doc, rank, score, remap[path_code], line)
    return Run.from_element_columns(columns, str(path) if name is None else name, str(path), tuple(run_ids))


_FIELDS = (
    "expected 7 fields 'topic Q0 file rank score run_id xpath' (or 6, a TREC document run 'topic Q0 docno rank "
    "score run_id'), got {}"
)


def _read_run_lines(path, name: str | None) -> Run:
    """The line-by-line run reader: reads what the C scanner declines, and explains every rejected line."""
    from ..core.document import quoted
    from ._lines import iter_fields

    rows: list[RunRow] = []
    columns: tuple[list, list, list, list] = ([], [], [], [])
    run_ids: dict[str, None] = {}
    plain = None
    for lineno, f in iter_fields(path, RunFormatError):
        plain = _line_kind(f, plain, path, lineno)
        topic, _q0, docid, rank_s, score_s, run_id = f[:6]
        rank = 0 if plain else _rank(rank_s, path, lineno)  # (trec_eval reads neither the rank nor what follows)
        try:
            score = float(score_s)
        except ValueError:
            raise RunFormatError(f"expected a numeric score in field 5, got {quoted(score_s)}", path, lineno) from None
        run_ids[run_id] = None
        if plain:  # columns, ranked below as trec_eval ranks them
            columns[0].append(topic)
            columns[1].append(docid)
            columns[2].append(score)
            columns[3].append(lineno)
        else:
            rows.append(RunRow(topic, docid, rank, score, f[6], lineno))
    if not rows and not columns[0]:
        raise RunFormatError(
            "the run is empty: expected at least one line 'topic Q0 file rank score run_id xpath'", path
        )
    name = str(path) if name is None else name
    if plain:
        from ..core.columns import DocumentColumns

        return Run.from_columns(DocumentColumns.from_lists(*columns), name, str(path), tuple(run_ids))
    return Run.from_rows(rows, name, str(path), tuple(run_ids))


def _line_kind(f: list[str], plain: bool | None, path, lineno: int) -> bool:
    """Whether a run line is a TREC document line (True) or an element line, checked against the lines before
    (``plain``: theirs; None for the first)."""
    if len(f) < 6:
        raise RunFormatError(_FIELDS.format(len(f)), path, lineno)
    line_plain = len(f) == 6 or not xpath_like(f[6])
    if plain is not None and plain != line_plain:
        hint = ""
        if len(f) == 8 and f[6].isdigit() and f[7].isdigit():
            hint = " (8 fields look like a passage run with offset and length; this reader takes XPaths)"
        raise RunFormatError(
            "a file mixes TREC document lines ('topic Q0 docno rank score run_id') and element "
            f"lines (an XPath in field 7); expected one kind throughout{hint}",
            path,
            lineno,
        )
    if not line_plain and len(f) != 7:
        raise RunFormatError(_FIELDS.format(len(f)), path, lineno)
    return line_plain


def _rank(text: str, path, lineno: int) -> int:
    """An element line's rank (field 4): an integer of at most 10^18."""
    from ..core.document import quoted

    try:
        rank = int(text)
    except ValueError:
        raise RunFormatError(
            f"expected an integer rank in field 4 (lines sharing a rank form one tree result), got {quoted(text)}",
            path,
            lineno,
        ) from None
    if abs(rank) > 10**18:
        raise RunFormatError(f"expected a rank of at most 10^18 in field 4, got {quoted(text)}", path, lineno)
    return rank


def run_from_columns(
    topics: list[str],
    docids: list[str],
    scores: list[float],
    xpaths: list[str] | None,
    name: str,
    source: str | None = None,
    run_ids: tuple[str, ...] | None = None,
    empty_topics: tuple[str, ...] = (),
    ranks=None,
) -> Run:
    """A run from per-line columns (a DataFrame's, records'), into columns (no object per line or result).

    Without ``xpaths`` each line is a whole document, ranked as trec_eval ranks documents (score, then document
    name, both descending; ``ranks`` is not read, as trec_eval reads no rank).  With ``xpaths`` (element lines)
    the lines mean what a run file's lines mean: given ``ranks``, the lines of a topic that share a rank are one
    tree result, ranked by rank (where the scores order the results otherwise, the ranks are followed and a
    :class:`RankOrderWarning` says so once); without ``ranks`` each line is a result of its own, ranked by score,
    then document name, both descending, then in the given order -- never merged with another line.

    Raises
    ------
    RunFormatError
        For a malformed XPath, or a rank that is not an integer.
    DuplicateResultError
        For a node twice in one result, or one result at two ranks.
    """
    run_ids = (name,) if run_ids is None else run_ids
    if xpaths is None:  # whole documents: columns, ranked when scored
        from ..core.columns import DocumentColumns

        return Run.from_columns(
            DocumentColumns.from_lists(topics, docids, scores, empty_topics=empty_topics), name, source, run_ids
        )
    if empty_topics:  # (element runs name their topics by their lines)
        raise ValueError("empty_topics applies to whole-document runs (xpaths=None)")
    from ..core.columns import ElementColumns, codes_of, name_order
    from ..core.document import canonical_xpath

    where = f"{source}: " if source else "a run: "
    path_names, path = codes_of(xpaths)
    canonical: dict[str, int] = {}
    try:  # each XPath as written once; two spellings of one node become one code
        remap = np.fromiter(
            (canonical.setdefault(canonical_xpath(x), len(canonical)) for x in path_names),
            dtype=np.int64,
            count=len(path_names),
        )
    except ValueError as exc:
        raise RunFormatError(f"{where}{exc}") from None
    path = remap[path]
    topic_names, topic = codes_of(topics)
    doc_names, doc = codes_of(docids)
    score = np.asarray(scores, dtype=float)
    n = len(topic)
    if ranks is not None:  # as a run file: lines sharing (topic, rank) are one result, in rank order
        rank = _integer_ranks(ranks, where)
        _warn_if_scores_disagree(topic, rank, score, topic_names, name)
        columns = ElementColumns(topic_names, doc_names, list(canonical), topic, doc, rank, score, path, None)
        return Run.from_element_columns(columns, name, source, run_ids)
    # a result per line: per topic by score, then document name, both descending, then in the given order
    doc_rank = np.empty(len(doc_names), dtype=np.int64)
    doc_rank[name_order(doc_names)] = np.arange(len(doc_names))
    order = np.lexsort((np.arange(n), -doc_rank[doc], -score, topic))
    t = topic[order]
    first_of_topic = np.r_[True, t[1:] != t[:-1]] if n else np.zeros(0, bool)
    start = np.maximum.accumulate(np.where(first_of_topic, np.arange(n), 0))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - start + 1
    columns = ElementColumns(topic_names, doc_names, list(canonical), topic, doc, rank, score, path, None)
    return Run.from_element_columns(columns, name, source, run_ids, by_score=True)


class RankOrderWarning(UserWarning):
    """An element run's ranks order its results otherwise than its scores do: graphsr follows the ranks."""


def _integer_ranks(ranks, where: str) -> np.ndarray:
    """A rank column as integers (1.0 is 1; 1.5, nan or a name are refused)."""
    try:
        values = np.asarray(ranks, dtype=float)
    except (TypeError, ValueError):
        raise RunFormatError(f"{where}expected integer ranks (lines sharing a rank form one tree result)") from None
    bad = ~np.isfinite(values) | (values != np.round(values)) | (np.abs(values) > 1e18)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise RunFormatError(
            f"{where}expected integer ranks (lines sharing a rank form one tree result), got "
            f"{ranks[k]!r} in row {k + 1}"
        )
    return values.astype(np.int64)


def _warn_if_scores_disagree(topic: np.ndarray, rank: np.ndarray, score: np.ndarray, topic_names, name: str):
    """One :class:`RankOrderWarning` if, in some topic, a later rank has a higher score than an earlier one."""
    import warnings

    if len(topic) < 2:
        return
    order = np.lexsort((rank, topic))
    t, r, s = topic[order], rank[order], score[order]
    later = (t[1:] == t[:-1]) & (r[1:] > r[:-1]) & (s[1:] > s[:-1])
    if later.any():
        k = int(np.flatnonzero(later)[0])
        topics = len(np.unique(t[1:][later]))
        warnings.warn(
            f"run {name!r}: its ranks order the results otherwise than its scores in {topics} topic(s) "
            f"(topic {topic_names[t[k]]}: rank {r[k + 1]} has score {s[k + 1]:g}, above rank {r[k]}'s "
            f"{s[k]:g}); graphsr follows the ranks, as a run file's",
            RankOrderWarning,
            stacklevel=4,
        )


def _first_repeat(key: np.ndarray):
    """The index of the first entry of ``key`` that an earlier entry has, or None."""
    if len(key) < 2:
        return None
    order = np.argsort(key, kind="stable")
    same = np.flatnonzero(key[order][1:] == key[order][:-1])
    return None if len(same) == 0 else int(order[same + 1].min())


def _check_same_result_twice(t, d, sc, pa, new, result, topics, docs, paths, where) -> None:
    """One document's results at two scores must differ in their nodes (as trec_eval refuses a document twice)."""
    from ..errors import DuplicateResultError

    starts = np.flatnonzero(new)
    if len(starts) < 2:
        return
    pair = t[starts] * np.int64(max(len(docs), 1)) + d[starts]
    if _first_repeat(pair) is None:  # every (topic, document) has one result: nothing to compare
        return
    seen: dict[tuple, float] = {}
    ends = np.r_[starts[1:], len(t)]
    for a, b in zip(starts.tolist(), ends.tolist()):  # rare: a document at two scores
        key = (int(t[a]), int(d[a]), frozenset(pa[a:b].tolist()))
        if key in seen:
            nodes = ", ".join(paths[x] for x in pa[a:b].tolist())
            raise DuplicateResultError(
                f"{where}topic {topics[t[a]]}: the same result ({docs[d[a]]} {nodes}) has "
                f"scores {seen[key]:g} and {float(sc[a]):g}; expected each result once (as "
                "trec_eval refuses duplicate documents)"
            )
        seen[key] = float(sc[a])


def write_run(run: Run, path: str | os.PathLike, run_id: str | None = None) -> None:
    """Write an element run as ``topic Q0 file rank score run_id xpath`` lines (a tree result: one line per
    node, sharing its rank), topics in the run's order; atomically (no partial file on failure)."""
    from pathlib import Path

    run_id = run_id or (run.run_ids[0] if run.run_ids else Path(run.name).stem)
    if not run_id or any(c.isspace() for c in run_id):
        raise RunFormatError(f"a run id is one word, got {run_id!r}", path)
    from .atomic import atomic_write

    with atomic_write(path, "the run", RunFormatError) as out:
        for topic, results in run.results.items():
            for r in results:
                for xp in r.xpaths:
                    out.write(f"{topic} Q0 {r.docid} {r.rank} {r.score:.6g} {run_id} {xp}\n")
