"""Chunk runs: the results of chunk retrieval as passages of a collection's documents, read into the passage
runs (:class:`~graphsr.core.fol.FOLRun`) every passage measure scores.

A chunk run is either

* **spans**: JSON lines with ``query_id, doc_id, start, end`` and ``score`` or ``rank`` (0-based, ``end``
  exclusive, code points of the document's text, as span judgments count them); or
* **chunk ids**: a TREC run (``qid Q0 chunk_id rank score run_id``) whose ids a **chunk map** resolves:
  JSON lines, CSV, TSV or Parquet with ``chunk_id, doc_id, start, end``, or MS MARCO v2.1's segment files as
  they ship (``docid`` such as ``msmarco_v2.1_doc_00_0#3_1234``, ``start_char``, ``end_char``: the segment's
  document is the id before ``#``).

Each query's results are ranked by score, descending: ties in a run of chunk ids as trec_eval breaks them (the
chunk id, descending, compared as bytes), so its measures over the ids and the passage measures read one
ranking; ties in span lines in file order; by rank when only ranks are given.  A chunk the map does not hold is one error naming the file and line
(``unknown="warn"`` drops it and counts, as graphsr's other readers do).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..errors import RunFormatError
from .chunk_table import ChunkTable, as_chunk_table
from .records import is_json_lines, read_records, record_int, record_number

__all__ = ["read_chunk_map", "read_chunk_run", "chunk_run_from_frame", "make_chunks", "write_chunk_map"]


def read_chunk_map(path: str | os.PathLike) -> ChunkTable:
    """A chunk map: each chunk id's ``(doc_id, start, end)`` (see the module docstring), from a file or a
    directory of shards (:data:`MAP_SUFFIXES`), read whole: an evaluation reads only the chunks its inputs name
    (:class:`graphsr.io.chunk_source.ChunkSource`).  A read-only mapping held as columns
    (:class:`~graphsr.io.chunk_table.ChunkTable`), in file then line order.

    Raises
    ------
    RunFormatError
        In one line naming the file and line: missing columns, a range that is empty or reversed, a chunk id
        given twice.
    """
    from .chunk_source import ChunkSource

    return ChunkSource(path).whole()


def read_chunk_run(
    path: str | os.PathLike,
    chunks: str | os.PathLike | dict | None = None,
    name: str | None = None,
    vocab=None,
    unknown: str = "error",
):
    """A chunk run as a passage run (see the module docstring): spans in JSON lines, or a TREC run of chunk ids
    with ``chunks`` (a chunk map's path, or the map :func:`read_chunk_map` gives).

    Raises
    ------
    RunFormatError
        In one line naming the file and line: a malformed record, a chunk the map does not hold (unless
        ``unknown="warn"``), a TREC run without a chunk map.
    """
    path = str(path)
    if unknown not in ("error", "warn"):
        raise RunFormatError(f"unknown must be error or warn, got {unknown!r}", path)
    rows = []  # (query, doc, start, end, score, rank, line, run_id, chunk_id or "")
    dropped = 0
    if is_json_lines(path):
        for line, r in read_records(path, RunFormatError):
            missing = [c for c in ("query_id", "doc_id", "start", "end") if c not in r]
            if missing or ("score" not in r and "rank" not in r):
                raise RunFormatError(
                    "expected query_id, doc_id, start, end and score or rank; missing "
                    + ", ".join(missing + ([] if "score" in r or "rank" in r else ["score"])),
                    path,
                    line,
                )
            start = record_int(r["start"], "start", path, line, RunFormatError)
            end = record_int(r["end"], "end", path, line, RunFormatError)
            if not 0 <= start < end:
                raise RunFormatError(f"expected 0 <= start < end, got [{start}, {end})", path, line)
            score = _score(r.get("score"), path, line)
            rank = record_int(r["rank"], "rank", path, line, RunFormatError) if "rank" in r else None
            rows.append((str(r["query_id"]), str(r["doc_id"]), start, end, score, rank, line, r.get("run_id"), ""))
    else:
        if chunks is None:
            raise RunFormatError("a run of chunk ids needs a chunk map (--chunks MAP) to say where each chunk is", path)
        table = as_chunk_table(chunks) if isinstance(chunks, Mapping) else read_chunk_map(chunks)
        return _chunk_id_run(path, table, name or path, vocab, unknown)
    if dropped:
        import sys

        print(
            f"graphsr: warning: {path}: {dropped} result(s) name a chunk the map does not hold; left out",
            file=sys.stderr,
        )
    return _ranked_run(rows, name or path, path, vocab)


#: TREC runs of chunk ids scanned in this process, by file and state, the last few kept: an evaluation reads a
#: run's chunk ids (which chunks of the map it needs) and then the run itself, from one scan.
_SCANNED: dict = {}
_SCANS_KEPT = 2


def scanned_chunk_run(path: str):
    """A TREC run of chunk ids as graphsr's columnar TREC run reader gives it (one pass in C where it is built),
    scanned once while the file is unchanged (the last :data:`_SCANS_KEPT` kept).

    Raises
    ------
    RunFormatError
        For what the reader refuses, and for an element run (not a run of chunk ids).
    """
    from ..core.columns import DocumentColumns
    from .first_records import _file_key
    from .runs import read_run

    key = _file_key(path, True)
    run = _SCANNED.get(key) if key is not None else None
    if run is None:
        run = read_run(path)
        if not isinstance(getattr(run, "columns", None), DocumentColumns):
            raise RunFormatError(
                "expected 6 fields 'qid Q0 chunk_id rank score run_id' (a run of chunk ids), got an element run",
                path,
            )
        if key is not None:
            _SCANNED[key] = run
            while len(_SCANNED) > _SCANS_KEPT:
                del _SCANNED[next(iter(_SCANNED))]
    return run


#: The last run's chunk ids looked up in a chunk table: ``(scanned run, table, rows)``, the run and the table the
#: very objects (a run's documents are found before the run is read, from the same look-ups).
_PLACES: list = []


def chunk_places(path: str, table: ChunkTable) -> tuple:
    """``(run, rows)``: the TREC run of chunk ids at ``path`` (:func:`scanned_chunk_run`) and each of its chunk
    names' row in the chunk table (-1 for a chunk it does not hold), name by name; looked up once for the run
    and table last asked for."""
    run = scanned_chunk_run(path)
    if _PLACES and _PLACES[0] is run and _PLACES[1] is table:
        return run, _PLACES[2]
    rows = table.rows(run.columns.doc_names)
    _PLACES[:] = [run, table, rows]
    return run, rows


def _chunk_id_run(path: str, table: ChunkTable, name: str, vocab, unknown: str):
    """A TREC run of chunk ids as a ranked passage run (:func:`scanned_chunk_run`), resolved through the chunk
    map with array operations: each chunk id looked up once, however many lines name it."""
    import numpy as np

    from ..core.fol import FOLRun, Vocabulary

    run, where = chunk_places(path, table)
    c = run.columns
    if not np.isfinite(c.value).all():
        k = int(np.flatnonzero(~np.isfinite(c.value))[0])
        raise RunFormatError(
            f"expected a finite score, got {c.value[k]!r} (a run is ranked by its scores)",
            path,
            int(c.line[k]) if c.line is not None else None,
        )
    names = list(c.doc_names)
    held = where >= 0
    keep = _known(c, names, held, path, unknown)
    vocab = vocab or Vocabulary()
    # each name's document, "" for a chunk the map does not hold; the documents coded in order of first use, as
    # the vocabulary codes a name list
    code = np.where(held, table.doc[np.maximum(where, 0)], -1) if len(where) else np.zeros(0, dtype=np.int64)
    used, first = np.unique(code, return_index=True)
    used = used[np.argsort(first, kind="stable")]
    vocab_code = vocab.doc_codes([table.doc_names[d] if d >= 0 else "" for d in used.tolist()])
    local = np.zeros(len(table.doc_names) + 1, dtype=np.int64)
    local[used + 1] = vocab_code  # (code -1, no document, at 0)
    chunk_doc = local[code + 1]
    chunk_start = np.where(held, table.start[np.maximum(where, 0)], 0) if len(where) else code
    chunk_end = np.where(held, table.end[np.maximum(where, 0)], 0) if len(where) else code
    every = np.flatnonzero(keep)
    rows = _ranked_rows(every, c.topic, c.value, lambda: _byte_ranks(names)[c.doc])
    in_order = rows is every and len(rows) == len(c.doc)  # (every line, in the file's order: no gather needed)
    topic_code = vocab.topic_codes(list(c.topic_names))
    doc = c.doc if in_order else c.doc[rows]
    lines = np.asarray(c.line[rows] if c.line is not None else rows + 1, dtype=np.int64)
    run_ids = tuple(run.run_ids)
    ids = np.full(len(rows), 0 if len(run_ids) == 1 else -1, dtype=np.int64)
    return FOLRun(
        name,
        vocab,
        topic_code[c.topic if in_order else c.topic[rows]] if len(rows) else np.zeros(0, dtype=np.int64),
        chunk_doc[doc] if len(rows) else np.zeros(0, dtype=np.int64),
        np.arange(1, len(rows) + 1),
        c.value.astype(float) if in_order else c.value[rows].astype(float),
        chunk_start[doc],
        chunk_end[doc] - chunk_start[doc],
        lines,
        ids,
        run_ids if len(run_ids) == 1 else (),
        path,
        ranked=True,
        chunk_ranges=True,
    )


def _ranked_rows(rows, topic, score, name_rank):
    """``rows`` by topic (first appearance), score descending, chunk id descending (trec_eval's ties), then file
    order: as they are where the file is in that order already (as retrievers write runs), checked in one pass.
    ``name_rank()`` gives each line's chunk id's place in byte order, asked for only where scores tie."""
    import numpy as np

    t, v = topic[rows], score[rows]
    same_topic = t[1:] == t[:-1]
    if ((t[1:] > t[:-1]) | (same_topic & (v[1:] < v[:-1]))).all():  # (no tie to order: the names are not needed)
        return rows
    n = name_rank()[rows]
    later = (t[1:] > t[:-1]) | (same_topic & ((v[1:] < v[:-1]) | ((v[1:] == v[:-1]) & (n[1:] < n[:-1]))))
    if later.all():
        return rows
    return rows[np.lexsort((-n, -v, t))]  # (a stable sort: equal keys stay in file order)


def _byte_ranks(names: list):
    """Each name's place among ``names`` in the order of their UTF-8 bytes (trec_eval's order of ids)."""
    import numpy as np

    # (UTF-8 keeps the order of code points, which is how Python compares str: no name need be encoded; NULs
    # inside and at the end of names are ordered as bytes order them, which NumPy's fixed-width bytes would drop)
    order = np.fromiter(sorted(range(len(names)), key=names.__getitem__), dtype=np.int64, count=len(names))
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return rank


def _known(c, names: list, held, path: str, unknown: str):
    """Which lines of a run of chunk ids name a chunk the map holds (``held``: of each name); a chunk it does not
    is an error naming its line (``unknown="warn"``: the lines left out, counted on stderr)."""
    import numpy as np

    known = np.array(held, dtype=bool)
    keep = known[c.doc] if len(c.doc) else np.zeros(0, dtype=bool)
    if keep.all():
        return keep
    k = int(np.flatnonzero(~keep)[0])
    if unknown != "warn":
        raise RunFormatError(
            f"chunk {names[int(c.doc[k])]!r} is not in the chunk map",
            path,
            int(c.line[k]) if c.line is not None else None,
        )
    import sys

    print(
        f"graphsr: warning: {path}: {int((~keep).sum())} result(s) name a chunk the map does not hold; left out",
        file=sys.stderr,
    )
    return keep


def _ranked_run(rows, name: str, source: str, vocab=None):
    """A passage run in ranked order from ``(query, doc, start, end, score, rank, line, run_id, chunk_id)`` rows
    (see the module docstring for the order)."""
    from ..core.fol import FOLRun

    order: dict[str, list] = {}
    for row in rows:
        order.setdefault(row[0], []).append(row)
    ranked = []
    for query_rows in order.values():
        if all(r[4] is not None for r in query_rows):
            query_rows = sorted(query_rows, key=lambda r: r[8].encode(), reverse=True)  # (stable sorts: the
            query_rows = sorted(query_rows, key=lambda r: -r[4])  # score, then the id, then the file order)
        else:
            query_rows = sorted(query_rows, key=lambda r: r[5])
        ranked.extend(query_rows)
    runs = [r[7] for r in ranked]
    return FOLRun.from_columns(
        name,
        [r[0] for r in ranked],
        [r[1] for r in ranked],
        list(range(1, len(ranked) + 1)),
        [r[4] if r[4] is not None else -float(r[5]) for r in ranked],
        [r[2] for r in ranked],
        [r[3] - r[2] for r in ranked],
        [r[6] for r in ranked],
        None if all(x is None for x in runs) else [str(x) for x in runs],
        source,
        vocab,
        ranked=True,
    )


#: A DataFrame's column names for a chunk run of spans: graphsr's and PyTerrier's (``qid``, ``docno``).
FRAME_COLUMNS = {
    "query_id": ("query_id", "qid"),
    "doc_id": ("doc_id", "docno"),
    "start": ("start",),
    "end": ("end",),
    "score": ("score",),
}


def chunk_run_from_frame(frame, name: str = "run", vocab=None):
    """A chunk run from a DataFrame of spans (``query_id``/``qid``, ``doc_id``/``docno``, ``start``, ``end``,
    ``score``; an optional ``run_id``), ranked as a span file is (score descending, ties in row order).

    Raises
    ------
    RunFormatError
        A missing column, a missing id, an offset that is not an integer, a score that is not a number.
    """
    names = {k: next((c for c in cols if c in frame.columns), None) for k, cols in FRAME_COLUMNS.items()}
    missing = [k for k, c in names.items() if c is None]
    if missing:
        raise RunFormatError(
            f"a chunk run as a DataFrame needs the columns query_id, doc_id, start, end, score "
            f"(or qid, docno); missing {', '.join(missing)}"
        )
    where = "the run DataFrame"
    run_ids = frame["run_id"].tolist() if "run_id" in frame.columns else [None] * len(frame)
    rows = []
    for n, (qid, doc, start, end, score, rid) in enumerate(
        zip(*(frame[names[k]].tolist() for k in FRAME_COLUMNS), run_ids), 1
    ):
        if (
            qid is None
            or doc is None
            or (isinstance(qid, float) and qid != qid)
            or (isinstance(doc, float) and doc != doc)
        ):
            raise RunFormatError(f"row {n}: expected a query_id and a doc_id")
        s, e = record_int(start, "start", where, n, RunFormatError), record_int(end, "end", where, n, RunFormatError)
        if not 0 <= s < e:
            raise RunFormatError(f"row {n}: expected 0 <= start < end, got [{s}, {e})")
        sc = _score(score, where, n)
        if sc is None:
            raise RunFormatError(f"row {n}: expected a score")
        rows.append((str(qid), str(doc), s, e, sc, None, n, rid, ""))
    return _ranked_run(rows, name, "", vocab)


def _score(value, path, line: int) -> float | None:
    if value is None:
        return None
    return record_number(value, "score", path, line, RunFormatError, " (a run is ranked by its scores)")


def make_chunks(collection, size: int, step: int | None = None, by: str = "characters") -> dict[str, tuple]:
    """A chunking of a collection as a chunk map ``{chunk_id: (doc_id, start, end)}`` (ids ``DOC_k``, in
    document then text order), to score several chunkings against one set of span judgments:

    * ``by="characters"``: ``size`` characters every ``step`` (default ``size``: no overlap; ``step < size``
      overlaps the next chunk by ``size - step``), the last chunk of a document ending with it;
    * ``by="blocks"``: the top-level blocks of each document's tree (Markdown's paragraphs, lists, code,
      tables, sections; an XML or HTML root's children) packed in order while a chunk spans at most ``size``
      characters (the blank lines between blocks go with them), a longer block cut every ``size``.

    Offsets count in each document's text (docs/conventions.md).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.md").write_text("One.\\n\\nTwo two.\\n\\nThree three three.\\n")
    >>> make_chunks(d, 8)
    {'a_0': ('a', 0, 8), 'a_1': ('a', 8, 16), 'a_2': ('a', 16, 24), 'a_3': ('a', 24, 32), 'a_4': ('a', 32, 35)}
    >>> make_chunks(d, 8, step=6)["a_1"], len(make_chunks(d, 8, step=6))
    (('a', 6, 14), 6)
    >>> make_chunks(d, 16, by="blocks")  # (the third paragraph, 19 characters, is cut at 16)
    {'a_0': ('a', 0, 15), 'a_1': ('a', 16, 32), 'a_2': ('a', 32, 35)}
    """
    from .collection import iter_documents

    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError(f"size must be a positive integer, got {size!r}")
    step = size if step is None else step
    if not isinstance(step, int) or isinstance(step, bool) or step < 1:
        raise ValueError(f"step must be a positive integer, got {step!r}")
    if by not in ("characters", "blocks"):
        raise ValueError(f"by must be 'characters' or 'blocks', got {by!r}")
    out: dict[str, tuple] = {}
    for tree in sorted(iter_documents(collection), key=lambda t: t.docid):
        length = int(tree.end[0])
        ranges = _blocks(tree, size) if by == "blocks" else _fixed(length, size, step)
        for k, (s, e) in enumerate(ranges):
            out[f"{tree.docid}_{k}"] = (tree.docid, s, e)
    return out


def _fixed(length: int, size: int, step: int) -> list[tuple[int, int]]:
    out, start = [], 0
    while start < length:
        out.append((start, min(start + size, length)))
        if start + size >= length:
            break
        start += step
    return out


def _blocks(tree, size: int) -> list[tuple[int, int]]:
    pieces: list[tuple[int, int]] = []
    for i in range(1, len(tree)):
        if tree.parent[i] == 0:
            s, e = int(tree.start[i]), int(tree.end[i])
            pieces.extend((a, min(a + size, e)) for a in range(s, e, size))
    out: list[list[int]] = []
    for s, e in pieces:
        if out and e - out[-1][0] <= size:
            out[-1][1] = e
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def write_chunk_map(chunks: dict, path: str | os.PathLike) -> int:
    """Write a chunk map as JSON lines (``chunk_id, doc_id, start, end``; gzipped for a name ending ``.gz``),
    counted against the map: the number of chunks written."""
    import json

    from .atomic import atomic_write

    with atomic_write(path, "the chunk map", RunFormatError) as fh:
        for c, (d, s, e) in chunks.items():
            fh.write(json.dumps({"chunk_id": c, "doc_id": d, "start": s, "end": e}) + "\n")
    written = len(read_chunk_map(path))
    if written != len(chunks):
        raise RunFormatError(f"wrote {written} chunks, expected {len(chunks)} (a chunk id given twice?)", path)
    return written
