"""Span judgments: relevance given as character ranges of a collection's documents, read into the passage
assessments (:class:`~graphsr.core.fol.FOLQrels`) every passage measure scores, as INEX's FOL qrels are.

Two shapes, told apart by their columns:

* **spans**: JSON lines, CSV or TSV with ``query_id, doc_id, start, end, relevance`` -- 0-based, ``end``
  exclusive, counted in code points of the document's text (docs/conventions.md: the decoded file for
  Markdown and text, the text content for XML and HTML); an optional ``content`` column is checked against the
  text it names.
* **Chroma's** ``questions_df.csv`` (its chunking evaluation, as it ships): ``question, references,
  corpus_id``, ``references`` a JSON list of ``{"content", "start_index", "end_index"}``; a query's id is its row
  number counted from 0 (the DataFrame index Chroma's evaluation iterates), unless ``id_column`` names a column.

A span of relevance above 0 is relevant text; one of 0 (or less) makes its document judged without relevant
text.  Relevant spans of one query and document are merged where they overlap or touch (INEX's passages are
disjoint).  A document's best entry point is the start of its first relevant span (the assessors' entry point,
which spans do not carry).  Every span is checked against the collection: a document it does not hold, a range
outside the document's text, a ``content`` other than the text at that range -- one line naming file and line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

import numpy as np

from ..errors import QrelsFormatError
from ._lines import iter_fields
from .records import read_records, record_int, record_number
from .text_ranges import outside, range_problem

__all__ = [
    "read_spans",
    "read_chunk_qrels",
    "document_texts",
    "document_lengths",
    "spans_from_frame",
    "chunk_judgments",
]

_SPAN_COLUMNS = ("query_id", "doc_id", "start", "end", "relevance")
_CHROMA_COLUMNS = ("question", "references", "corpus_id")


def document_texts(collection, docs=None) -> dict[str, str]:
    """Each document's text (docs/conventions.md) by document id: what span offsets count in; with ``docs``,
    only those documents' (the others are not read)."""
    from .collection import list_collection, read_document_text
    from .corpus_source import CorpusSource, corpus_files

    files = corpus_files(collection)
    if files is not None and (docs is not None or len(files) > 1):
        return CorpusSource(files).texts(docs)
    wanted = None if docs is None else set(docs)
    return {s.docid: read_document_text(s) for s in list_collection(collection) if wanted is None or s.docid in wanted}


def document_lengths(collection, docs, trees: dict | None = None) -> dict[str, int]:
    """The lengths of the texts of the documents ``docs`` (those the collection holds), reading no more than
    needed: a JSON lines corpus's lengths from its index where it has one.  With ``trees`` (a dict), each
    document of files is read as its tree, kept there by document id for what reads the trees next (SR and ESR
    over the same documents: read once), and its length is its root's end (offsets count in the text: the root
    spans it whole)."""
    from .corpus_source import CorpusSource, corpus_files

    files = corpus_files(collection)
    if files is not None:
        return CorpusSource(files).lengths(docs)
    if trees is not None:
        from .collection import iter_documents

        wanted = set(docs) - trees.keys()
        for tree in iter_documents(collection, docids=wanted.__contains__):
            trees[tree.docid] = tree
        return {d: int(trees[d].end[0]) for d in docs if d in trees}
    return {d: len(t) for d, t in document_texts(collection, docs).items()}


def _int(value, what: str, path, line: int) -> int:
    return record_int(value, what, path, line, QrelsFormatError)


def _grade(value, path, line: int) -> float:
    return record_number(value, "relevance", path, line, QrelsFormatError)


def _spans(records, lines, path, id_column):
    """(query_id, doc_id, start, end, grade, content or None, line) of every span."""
    if not records:
        raise QrelsFormatError("no span judgments: the file is empty", path)
    keys = set(records[0])
    if set(_CHROMA_COLUMNS) <= keys:
        for row, (r, line) in enumerate(zip(records, lines)):
            qid = str(r[id_column]) if id_column else str(row)
            try:
                refs = json.loads(r["references"])
            except (TypeError, json.JSONDecodeError) as exc:
                raise QrelsFormatError(f"expected the references as a JSON list ({exc})", path, line) from None
            if not isinstance(refs, list):
                raise QrelsFormatError("expected the references as a JSON list", path, line)
            for ref in refs:
                if not isinstance(ref, dict) or not {"start_index", "end_index"} <= set(ref):
                    raise QrelsFormatError(
                        f"expected each reference with start_index and end_index, got {ref!r}", path, line
                    )
                start, end = ref["start_index"], ref["end_index"]  # (JSON's integers as they are; others checked)
                yield (
                    qid,
                    str(r["corpus_id"]),
                    start if type(start) is int else _int(start, "start_index", path, line),
                    end if type(end) is int else _int(end, "end_index", path, line),
                    1.0,
                    ref.get("content"),
                    line,
                )
        return
    missing = [c for c in _SPAN_COLUMNS if c not in keys]
    if missing:
        raise QrelsFormatError(
            f"expected the columns {', '.join(_SPAN_COLUMNS)} (or Chroma's "
            f"{', '.join(_CHROMA_COLUMNS)}); missing {', '.join(missing)}",
            path,
            lines[0],
        )
    for r, line in zip(records, lines):
        missing = [c for c in _SPAN_COLUMNS if c not in r]
        if missing:
            raise QrelsFormatError(f"expected {', '.join(_SPAN_COLUMNS)}; missing {', '.join(missing)}", path, line)
        qid, doc = r["query_id"], r["doc_id"]
        if qid in (None, "") or doc in (None, ""):
            raise QrelsFormatError("expected a query_id and a doc_id", path, line)
        yield (
            str(qid),
            str(doc),
            _int(r["start"], "start", path, line),
            _int(r["end"], "end", path, line),
            _grade(r["relevance"], path, line),
            r.get("content") or None,
            line,
        )


def _kept(rows, keep, judge: str, path: str):
    """The ``(line, record)`` rows whose judge (a record's ``judge``, else ``judge``) is of the kinds ``keep``
    (every row: None); every ``judge`` a record names is checked."""
    from ..core.judges import is_judge, judge_kind, parse_judge

    parse_judge(judge)
    out = []
    for line, r in rows:
        who = r.get("judge") if isinstance(r, dict) else None
        if who in (None, ""):
            who = judge
        elif not isinstance(who, str) or not is_judge(who):
            raise QrelsFormatError(
                f"expected a judge (person, model, model:NAME, checked:NAME) in column judge, got {who!r}", path, line
            )
        if keep is None or judge_kind(who) in keep:
            out.append((line, r))
    return out


def read_spans(
    path: str | os.PathLike,
    collection,
    id_column: str | None = None,
    vocab=None,
    also=(),
    trees: dict | None = None,
    keep: tuple[str, ...] | None = None,
    judge: str = "person",
):
    """Span judgments (see the module docstring) as passage assessments over ``collection``: a path (only the
    documents judged and the documents ``also`` names are read: their text lengths are what runs' ranges are
    checked against), a ``{doc_id: text}`` mapping of the documents' texts, or None (no text: ranges and
    contents are not checked, each document's length is taken as the furthest end judged in it, and the
    assessments say so with ``lengths_known`` False).  ``trees``: as :func:`document_lengths` takes it.
    A record may name its judge (a ``judge`` column: :mod:`graphsr.core.judges`; else it is ``judge``'s);
    ``keep``: the kinds of judge whose spans are read (None: all).

    Raises
    ------
    QrelsFormatError
        In one line naming the file and line: a malformed record, a document the collection does not hold, a
        range that is empty, reversed or outside the document's text, a ``content`` other than the text there.
    """
    path = str(path)
    rows = span_records(path, keep=False)
    chroma = bool(rows) and set(_CHROMA_COLUMNS) <= set(rows[0][1])
    if rows and (keep is not None or judge != "person" or any("judge" in r for _, r in rows)):
        rows = _kept(rows, keep, judge, path)
        if not rows:
            return _empty(path)
    spans = list(_spans([r for _, r in rows], [n for n, _ in rows], path, id_column))
    return _against(spans, collection, path, vocab, also, trees, whole_documents=chroma, references=True)


#: The records of a span judgments file read before its judgments are (for their documents: which chunks of a
#: map an evaluation needs), kept for that reading only: ``(file identity and state, records)``.
_READ_FIRST: list = []


def span_records(path: str, keep: bool) -> list:
    """``(line, record)`` of every record of a span judgments file (:func:`graphsr.io.records.read_records`);
    with ``keep``, kept for the next call without it, which takes them (read once for two readers); a file
    changed meanwhile is read again."""
    from .first_records import _file_key

    key = _file_key(path, False)
    if _READ_FIRST and _READ_FIRST[0] == key and key is not None:
        rows = _READ_FIRST[1]
    else:
        rows = read_records(path, QrelsFormatError)
    _READ_FIRST[:] = [key, rows] if keep else []
    return rows


def _against(spans: list, collection, path: str, vocab, also, trees=None, **kw):
    """Passage assessments from spans read against ``collection`` (see :func:`read_spans`)."""
    if isinstance(collection, dict):
        return _assessments(spans, collection, path, vocab, **kw)
    if collection is None:
        furthest: dict[str, int] = {}
        for _, doc, _, end, _, _, _ in spans:
            furthest[doc] = max(furthest.get(doc, 0), end)
        qrels = _assessments(spans, None, path, vocab, lengths=furthest, **kw)
        qrels.lengths_known = False
        return qrels
    docs = {s[1] for s in spans} | set(also)
    with_content = {s[1] for s in spans if s[5] is not None}
    texts = document_texts(collection, with_content) if with_content else {}
    rest = docs - texts.keys()  # (the lengths of the texts read already are known)
    lengths = {d: len(t) for d, t in texts.items() if d in docs}
    lengths.update(document_lengths(collection, rest, trees) if rest else {})
    return _assessments(spans, texts, path, vocab, lengths=lengths, known_lengths=lengths, **kw)


#: A DataFrame's column names for span judgments: graphsr's and PyTerrier's (``qid``, ``docno``, ``label``).
FRAME_COLUMNS = {
    "query_id": ("query_id", "qid"),
    "doc_id": ("doc_id", "docno"),
    "start": ("start",),
    "end": ("end",),
    "relevance": ("relevance", "label"),
}


def frame_column(frame, key: str, columns=FRAME_COLUMNS) -> str | None:
    """The column of ``frame`` that holds ``key`` (its own name or PyTerrier's), or None."""
    return next((c for c in columns[key] if c in frame.columns), None)


def spans_from_frame(frame, lengths=None, vocab=None):
    """Span judgments from a DataFrame (``query_id``/``qid``, ``doc_id``/``docno``, ``start``, ``end``,
    ``relevance``/``label``; an optional ``content``), as :func:`read_spans` reads a file.  ``lengths``
    (``{doc_id: length of its text}``, from a bound collection) checks each range against its document; without
    it a document's length is taken as the furthest end judged in it.

    Raises
    ------
    QrelsFormatError
        A missing column, an id or offset that is missing or not an integer, a range outside its document.
    """
    names = {k: frame_column(frame, k) for k in FRAME_COLUMNS}
    missing = [k for k, c in names.items() if c is None]
    if missing:
        raise QrelsFormatError(
            f"span judgments as a DataFrame need the columns query_id, doc_id, start, end, "
            f"relevance (or qid, docno, label); missing {', '.join(missing)}"
        )
    content = frame["content"].tolist() if "content" in frame.columns else [None] * len(frame)
    rows = zip(*(frame[names[k]].tolist() for k in FRAME_COLUMNS), content)

    def spans():
        for n, (qid, doc, start, end, grade, text) in enumerate(rows, 1):
            if (
                qid is None
                or doc is None
                or (isinstance(qid, float) and qid != qid)
                or (isinstance(doc, float) and doc != doc)
            ):
                raise QrelsFormatError(f"row {n}: expected a query_id and a doc_id")
            yield (
                str(qid),
                str(doc),
                _int(start, "start", "the span DataFrame", n),
                _int(end, "end", "the span DataFrame", n),
                _grade(grade, "the span DataFrame", n),
                text if isinstance(text, str) else None,
                n,
            )

    spans_list = list(spans())
    known = lengths
    if lengths is None:
        furthest: dict[str, int] = {}
        for _, doc, _, end, _, _, _ in spans_list:
            furthest[doc] = max(furthest.get(doc, 0), end)
        lengths = furthest
    return _assessments(
        spans_list, None, "the span DataFrame", vocab, references=True, lengths=lengths, known_lengths=known
    )


def _assessments(
    spans,
    texts,
    path: str,
    vocab=None,
    whole_documents: bool = False,
    references: bool = False,
    lengths=None,
    known_lengths=None,
):
    """Passage assessments from ``(query_id, doc_id, start, end, grade, content, line)`` spans, each checked
    against the documents' ``texts``.  The result also carries

    * ``judged_spans``: per (query, document), the characters some span judged at all (relevant or not): what a
      run reads outside them was never judged.  With ``whole_documents`` every character of a document a query
      has spans in was judged (Chroma's references: its evaluation takes the rest of the document as not
      relevant).
    * ``references`` (with ``references``): the relevant spans as given, before merging, as arrays ``(row,
      start, end)`` of assessment rows (Chroma's measures sum their lengths, overlaps included); None
      otherwise (the merged passages are the references).

    Without ``texts``, ``lengths`` gives each document's length (no ``content`` to check); ``known_lengths``
    says that they are the texts' lengths (not the furthest ends judged).

    A row is a (query, document) in the order first judged, its line the first span's; its passages are its
    relevant spans merged where they overlap or touch, in text order; its best entry point the first passage's
    start (-1 without one)."""
    from ..core.fol import FOLQrels

    n = len(spans)
    qid = [x[0] for x in spans]
    doc = [x[1] for x in spans]
    start = np.fromiter((x[2] for x in spans), dtype=np.int64, count=n)
    end = np.fromiter((x[3] for x in spans), dtype=np.int64, count=n)
    relevant = np.fromiter((x[4] > 0 for x in spans), dtype=bool, count=n)
    line = np.fromiter((x[6] for x in spans), dtype=np.int64, count=n)
    size_of = _sizes(set(doc), texts, lengths)
    size = np.fromiter((size_of[d] for d in doc), dtype=np.int64, count=n)
    _check_spans(spans, doc, start, end, size, texts, path)
    keys: dict[tuple[str, str], int] = {}
    row = np.fromiter((keys.setdefault(k, len(keys)) for k in zip(qid, doc)), dtype=np.int64, count=n)
    R = len(keys)
    # (rows are numbered in order of first appearance: a row's first span is where the numbers first reach it)
    first = np.flatnonzero(np.r_[True, row[1:] > np.maximum.accumulate(row)[:-1]]) if n else row
    p_row, p_start, p_end = _union(row[relevant], start[relevant], end[relevant])
    rel_chars = np.bincount(p_row, weights=p_end - p_start, minlength=R).astype(np.int64)
    bep = np.full(R, -1, dtype=np.int64)
    heads = np.flatnonzero(np.r_[True, p_row[1:] != p_row[:-1]]) if len(p_row) else p_row
    bep[p_row[heads]] = p_start[heads]  # (each row's first passage)
    row_names = list(keys)
    if whole_documents:
        judged = {k: [(0, z)] for k, z in zip(row_names, size[first].tolist())}
    else:
        j_row, j_start, j_end = _union(row, start, end)
        bounds = np.searchsorted(j_row, np.arange(R + 1)).tolist()
        pieces = list(zip(j_start.tolist(), j_end.tolist()))
        judged = {k: pieces[bounds[r] : bounds[r + 1]] for r, k in enumerate(row_names)}
    qrels = FOLQrels.from_columns(
        [k[0] for k in row_names],
        [k[1] for k in row_names],
        size[first] if R else np.zeros(0, dtype=np.int64),
        rel_chars,
        bep,
        p_row,
        p_start,
        p_end,
        line[first] if R else np.zeros(0, dtype=np.int64),
        path,
        vocab,
    )
    qrels.judged_spans = judged
    # the documents' text lengths, where the texts are known (runs' ranges are checked against them)
    qrels.text_lengths = (
        known_lengths if known_lengths is not None else {d: len(t) for d, t in texts.items()} if texts else None
    )
    if references:
        by_row = np.argsort(row[relevant], kind="stable")  # (by row, each row's as given)
        qrels.references = (row[relevant][by_row], start[relevant][by_row], end[relevant][by_row])
    else:
        qrels.references = None
    return qrels


def _sizes(docs, texts, lengths) -> dict:
    """Each document's text length: its text's where ``texts`` holds it, else ``lengths``'s; -1 where neither
    knows it (a document the collection does not hold)."""
    out = {}
    for d in docs:
        text = texts.get(d) if texts else None
        size = len(text) if text is not None else (lengths or {}).get(d)
        out[d] = -1 if size is None else size
    return out


def _check_spans(spans, doc: list, start, end, size, texts, path: str) -> None:
    """Every span within its document's text, holding its ``content`` where given and the text is known; the
    first that does not is refused, naming its line."""
    bad = (size < 0) | (start < 0) | (start >= end) | (end > size)
    first_bad = int(np.argmax(bad)) if bad.any() else len(spans)
    if texts:
        for k in range(first_bad):
            content = spans[k][5]
            if content is None:
                continue
            text = texts.get(doc[k])
            if text is not None and text[spans[k][2] : spans[k][3]] != content:
                _check_span(doc[k], spans[k][2], spans[k][3], len(text), text, content, path, spans[k][6])
    if first_bad < len(spans):
        s = spans[first_bad]
        size_k = int(size[first_bad])
        raise QrelsFormatError(outside("span", s[1], s[2], s[3], None if size_k < 0 else size_k), path, s[6])


def _union(row: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ranges ``[start, end)`` of each row merged where they overlap or touch: ``(row, start, end)`` of the
    pieces, by row and in text order (ranges non-empty, offsets at least 0)."""
    if not len(row):
        z = np.zeros(0, dtype=np.int64)
        return z, z.copy(), z.copy()
    order = np.lexsort((end, start, row))
    r, s, e = row[order], start[order], end[order]
    width = int(e.max()) + 1
    if int(r.max()) > 0 and int(r.max()) + 1 > (1 << 62) // width:  # (rows end to end would overflow: each alone)
        parts = []
        for k in np.unique(r).tolist():
            _, ks, ke = _union(np.zeros(int((r == k).sum()), dtype=np.int64), s[r == k], e[r == k])
            parts.append((np.full(len(ks), k, dtype=np.int64), ks, ke))
        return tuple(np.concatenate(p) for p in zip(*parts))  # type: ignore[return-value]
    base = r * width
    reach = np.maximum.accumulate(base + e) - base  # (the furthest end so far in the row: rows start higher)
    new = np.ones(len(r), dtype=bool)
    new[1:] = (r[1:] != r[:-1]) | (s[1:] > reach[:-1])
    heads = np.flatnonzero(new)
    last = np.r_[heads[1:] - 1, len(r) - 1]
    return r[heads], s[heads], reach[last]


def _check_span(doc: str, start: int, end: int, size, text, content, path: str, line: int) -> None:
    """A span within its document's text (of ``size`` characters), holding ``content`` where given and known."""
    problem = range_problem("span", doc, start, end, size)
    if problem is not None:
        raise QrelsFormatError(problem, path, line)
    if content is not None and text is not None and text[start:end] != content:
        got = text[start:end]
        raise QrelsFormatError(
            f"span [{start}, {end}) of document {doc!r} holds {got[:40]!r}"
            f"{'...' if len(got) > 40 else ''}, not the content given "
            f"({str(content)[:40]!r}{'...' if len(str(content)) > 40 else ''})",
            path,
            line,
        )


def _empty(path: str):
    """Passage assessments of no judgment (a judge's share of a file that holds none of theirs)."""
    from ..core.fol import FOLQrels

    return FOLQrels.from_columns([], [], [], [], [], [], [], [], source=path)


def read_chunk_qrels(
    path: str | os.PathLike,
    chunks,
    collection,
    vocab=None,
    also=(),
    trees: dict | None = None,
    keep: tuple[str, ...] | None = None,
    judge: str = "person",
):
    """Judgments of chunks (TREC qrels ``qid iter chunk_id grade``, as TREC RAG judges segments) projected onto
    characters through their chunk map (``chunks``: a path, or :func:`graphsr.io.chunks.read_chunk_map`'s
    map), so that a run of another chunking is scored against them: a character is relevant where a judged
    chunk of grade above 0 covers it (the highest grade covering it is above 0); judged non-relevant where only
    chunks of grade 0 or less do; never judged elsewhere (``judged_spans`` says which characters were judged).
    ``collection``, ``also`` and ``trees`` as :func:`read_spans` takes them: with None the chunk map's offsets
    are taken as they are.  A line may name its judge in a fifth field (:mod:`graphsr.core.judges`; else it is
    ``judge``'s); ``keep``: the kinds of judge whose judgments are read (None: all).

    Raises
    ------
    QrelsFormatError
        In one line naming the file and line: not 4 fields, a grade that is not a number, a chunk the map does
        not hold, a chunk outside its document's text.
    """
    from .chunks import read_chunk_map

    path = str(path)
    table = chunks if isinstance(chunks, Mapping) else read_chunk_map(chunks)

    from ..core.judges import is_judge, judge_kind, parse_judge

    parse_judge(judge)

    def spans():
        for line, f in iter_fields(path, QrelsFormatError):  # (graphsr's line files: any line ending, # comments)
            if len(f) == 5 and is_judge(f[4]):
                who = f[4]
            elif len(f) == 4:
                who = judge
            else:
                raise QrelsFormatError(
                    f"expected 4 fields 'qid iter chunk_id grade' (and a judge after them), got {len(f)}", path, line
                )
            if keep is not None and judge_kind(who) not in keep:
                continue
            where = table.get(f[2])
            if where is None:
                raise QrelsFormatError(f"chunk {f[2]!r} is not in the chunk map", path, line)
            yield f[0], where[0], where[1], where[2], _grade(f[3], path, line), None, line

    found = list(spans())
    if not found and keep is not None:
        return _empty(path)
    return _against(found, collection, path, vocab, also, trees)


def chunk_judgments(qrels, chunks) -> dict[str, dict[str, int]]:
    """Span judgments onto one chunking's chunks, as chunk-id retrieval is judged (for trec_eval's measures over
    chunk ids): ``{query_id: {chunk_id: 1}}`` for every chunk of ``chunks`` (a chunk map) sharing at least one
    character with a relevant span of the query in its document.  Chunks sharing none are left out (not
    relevant to trec_eval's measures).

    >>> from graphsr.core.fol import FOLQrels
    >>> q = FOLQrels.from_columns(["1"], ["a"], [100], [10], [20], [0], [20], [30])
    >>> chunk_judgments(q, {"a0": ("a", 0, 20), "a1": ("a", 15, 25), "a2": ("a", 30, 40), "b0": ("b", 0, 9)})
    {'1': {'a1': 1}}
    """
    from bisect import bisect_left

    by_doc: dict[str, list[tuple[int, int, str]]] = {}
    for cid, (doc, start, end) in chunks.items():
        by_doc.setdefault(doc, []).append((start, end, cid))
    starts, longest = {}, {}
    for doc, items in by_doc.items():
        items.sort()
        starts[doc] = [a for a, _, _ in items]
        longest[doc] = max(b - a for a, b, _ in items)
    topics, docs = qrels.topic.tolist(), qrels.docid.tolist()
    out: dict[str, dict[str, int]] = {}
    for row, s, e in zip(qrels.pass_row.tolist(), qrels.pass_start.tolist(), qrels.pass_end.tolist()):
        doc = str(docs[row])
        items = by_doc.get(doc, [])
        first = bisect_left(starts[doc], s - longest[doc]) if items else 0  # (no chunk before reaches s)
        for start, end, cid in items[first:]:
            if start >= e:
                break
            if end > s:
                out.setdefault(str(topics[row]), {})[cid] = 1
    return out
