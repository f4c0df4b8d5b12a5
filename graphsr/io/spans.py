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

import numpy as np

from ..errors import QrelsFormatError
from ._lines import iter_fields
from .records import read_records, record_int, record_number
from .text_ranges import range_problem

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
                yield (
                    qid,
                    str(r["corpus_id"]),
                    _int(ref["start_index"], "start_index", path, line),
                    _int(ref["end_index"], "end_index", path, line),
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


def read_spans(
    path: str | os.PathLike, collection, id_column: str | None = None, vocab=None, also=(), trees: dict | None = None
):
    """Span judgments (see the module docstring) as passage assessments over ``collection``: a path (only the
    documents judged and the documents ``also`` names are read: their text lengths are what runs' ranges are
    checked against), a ``{doc_id: text}`` mapping of the documents' texts, or None (no text: ranges and
    contents are not checked, each document's length is taken as the furthest end judged in it, and the
    assessments say so with ``lengths_known`` False).  ``trees``: as :func:`document_lengths` takes it.

    Raises
    ------
    QrelsFormatError
        In one line naming the file and line: a malformed record, a document the collection does not hold, a
        range that is empty, reversed or outside the document's text, a ``content`` other than the text there.
    """
    path = str(path)
    rows = read_records(path, QrelsFormatError)
    chroma = bool(rows) and set(_CHROMA_COLUMNS) <= set(rows[0][1])
    spans = list(_spans([r for _, r in rows], [n for n, _ in rows], path, id_column))
    return _against(spans, collection, path, vocab, also, trees, whole_documents=chroma, references=True)


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


def _merged(spans) -> list[list[int]]:
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


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
    says that they are the texts' lengths (not the furthest ends judged)."""
    from ..core.fol import FOLQrels

    rows = _judged_rows(spans, texts, lengths, path, whole_documents)
    topic, docid, doc_len, rel_chars, bep, line_of = [], [], [], [], [], []
    p_row, p_start, p_end = [], [], []
    r_row, r_start, r_end = [], [], []
    judged = {}
    for k, ((qid, doc), row) in enumerate(rows.items()):
        for s, e in row.get("raw", ()):
            r_row.append(k)
            r_start.append(s)
            r_end.append(e)
        merged = _merged(row["spans"])
        judged[qid, doc] = [tuple(x) for x in _merged(row["judged"])]
        topic.append(qid)
        docid.append(doc)
        doc_len.append(row["len"])
        rel_chars.append(sum(e - s for s, e in merged))
        bep.append(merged[0][0] if merged else -1)
        line_of.append(row["line"])
        for s, e in merged:
            p_row.append(k)
            p_start.append(s)
            p_end.append(e)
    qrels = FOLQrels.from_columns(topic, docid, doc_len, rel_chars, bep, p_row, p_start, p_end, line_of, path, vocab)
    qrels.judged_spans = judged
    # the documents' text lengths, where the texts are known (runs' ranges are checked against them)
    qrels.text_lengths = (
        known_lengths if known_lengths is not None else {d: len(t) for d, t in texts.items()} if texts else None
    )
    qrels.references = tuple(np.asarray(a, dtype=np.int64) for a in (r_row, r_start, r_end)) if references else None
    return qrels


def _judged_rows(spans, texts, lengths, path: str, whole_documents: bool) -> dict[tuple[str, str], dict]:
    """Per (query, document), in the order first judged: its first line, its relevant spans, the ranges judged
    at all and the document's length; each span checked against its document's text."""
    rows: dict[tuple[str, str], dict] = {}
    for qid, doc, start, end, grade, content, line in spans:
        text = texts.get(doc) if texts else None
        size = len(text) if text is not None else (lengths or {}).get(doc)
        _check_span(doc, start, end, size, text, content, path, line)
        row = rows.setdefault((qid, doc), {"line": line, "spans": [], "judged": [], "len": size})
        row["judged"].append((0, size) if whole_documents else (start, end))
        if grade > 0:
            row["spans"].append((start, end))
            row.setdefault("raw", []).append((start, end))
    return rows


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


def read_chunk_qrels(path: str | os.PathLike, chunks, collection, vocab=None, also=(), trees: dict | None = None):
    """Judgments of chunks (TREC qrels ``qid iter chunk_id grade``, as TREC RAG judges segments) projected onto
    characters through their chunk map (``chunks``: a path, or :func:`graphsr.io.chunks.read_chunk_map`'s
    map), so that a run of another chunking is scored against them: a character is relevant where a judged
    chunk of grade above 0 covers it (the highest grade covering it is above 0); judged non-relevant where only
    chunks of grade 0 or less do; never judged elsewhere (``judged_spans`` says which characters were judged).
    ``collection``, ``also`` and ``trees`` as :func:`read_spans` takes them: with None the chunk map's offsets
    are taken as they are.

    Raises
    ------
    QrelsFormatError
        In one line naming the file and line: not 4 fields, a grade that is not a number, a chunk the map does
        not hold, a chunk outside its document's text.
    """
    from .chunks import read_chunk_map

    path = str(path)
    table = chunks if isinstance(chunks, dict) else read_chunk_map(chunks)

    def spans():
        for line, f in iter_fields(path, QrelsFormatError):  # (graphsr's line files: any line ending, # comments)
            if len(f) != 4:
                raise QrelsFormatError(f"expected 4 fields 'qid iter chunk_id grade', got {len(f)}", path, line)
            where = table.get(f[2])
            if where is None:
                raise QrelsFormatError(f"chunk {f[2]!r} is not in the chunk map", path, line)
            yield f[0], where[0], where[1], where[2], _grade(f[3], path, line), None, line

    return _against(list(spans()), collection, path, vocab, also, trees)


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
