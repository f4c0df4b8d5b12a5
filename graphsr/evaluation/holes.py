"""Holes in the judgments: what runs retrieved that no judgment covers, exported for any judge, and the judge's
grades merged back with who gave them.

:func:`find_holes` reads an evaluation's inputs as :func:`~graphsr.evaluation.inputs.evaluate` does and gives, for
the first ``depth`` results of each topic of each run (in score order, ties as the run ranks them):

* TREC document judgments: each retrieved document no judgment names, with its text (the collection's);
* span or chunk judgments (characters): each stretch of retrieved text no judgment covers, as a span ``[start,
  end)`` of its document with its text -- the retrieved ranges of a topic and document merged, less every
  character judged at all, so that no character is asked twice and a judgment made through one chunking serves
  any other.  An element run's elements are the characters they hold (the collection's documents).

Element assessments have no holes: an element they do not list has relevance 0 by their definition.

A hole is a JSON object: ``query_id``, ``query`` (the query's text), ``doc_id``, ``kind`` (``document`` or
``span``), ``start`` and ``end`` (spans), ``text``.  A judge adds ``relevance`` and ``judge``
(:mod:`graphsr.evaluation.judging`, or any tool that writes those two fields); :func:`merge_judgments` then
writes the judgments with the filled holes, each naming its judge: TREC qrels with a fifth field, or span
judgments with a ``judge`` column.  A filled hole that a judgment already covers is refused.
"""

from __future__ import annotations

import json
import os
from .._records import replace
from typing import Any, Iterable

import numpy as np

from ..core.judges import parse_judge
from ..errors import GraphsrInputError

__all__ = ["find_holes", "read_queries", "merge_judgments", "merge_files", "HOLE_KINDS"]

HOLE_KINDS = ("document", "span")


def regular_file(path, what: str) -> None:
    """Refuse, in one line, a path that is no regular file (missing, a directory, a device or a pipe: nothing
    is read from those)."""
    if not os.path.isfile(path):
        raise GraphsrInputError(f"{path}: {what} must be a file" + ("" if os.path.exists(path) else " (no such file)"))


def json_lines(path: str | os.PathLike, what: str) -> list[tuple[int, Any]]:
    """Each value of the JSON lines file ``path`` with its line number (blank lines skipped); the file must be a
    regular file, and a line that is no JSON is refused in one line naming it."""
    regular_file(path, what)
    values = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    values.append((n, json.loads(line)))
                except ValueError as exc:
                    raise GraphsrInputError(f"{path}:{n}: not a JSON object ({exc})") from None
    return values


def read_queries(path: str | os.PathLike) -> dict[str, str]:
    """Queries' texts by id: TSV lines ``query_id<TAB>text`` (MS MARCO's and TREC RAG's topics files), or JSON
    lines with ``query_id`` (or ``qid``, ``id``) and ``text`` (or ``query``, ``title``)."""
    regular_file(path, "the queries")
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            if line.lstrip().startswith("{"):
                try:
                    rec = json.loads(line)
                except ValueError as exc:
                    raise GraphsrInputError(f"{path}:{n}: not a JSON object ({exc})") from None
                qid = next((rec[k] for k in ("query_id", "qid", "id") if k in rec), None)
                text = next((rec[k] for k in ("text", "query", "title") if k in rec), None)
            else:
                qid, _, text = line.rstrip("\r\n").partition("\t")
                text = text if _ else None
            if qid in (None, "") or not isinstance(text, str) or not text.strip():
                raise GraphsrInputError(f"{path}:{n}: expected a query id and its text ('id<TAB>text', or JSON)")
            qid = str(qid)
            if qid in out:
                raise GraphsrInputError(f"{path}:{n}: query {qid!r} is given twice")
            out[qid] = text
    if not out:
        raise GraphsrInputError(f"{path}: no queries")
    return out


def _ranked(topic: np.ndarray, score: np.ndarray, rank: np.ndarray, depth: int):
    """Rows in topic order, each topic's first ``depth`` by score descending, ties by rank."""
    order = np.lexsort((rank, -score, topic))
    t = topic[order]
    first = np.searchsorted(t, t, side="left")
    return order[(np.arange(len(order)) - first) < depth]


def _subtract(ranges: list[tuple[int, int]], judged: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of ``ranges`` less every character of ``judged`` (both ``[start, end)``), in order."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(ranges):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    for js, je in sorted(judged):
        cut: list[tuple[int, int]] = []
        for s, e in out:
            if je <= s or js >= e:
                cut.append((s, e))
                continue
            if s < js:
                cut.append((s, js))
            if je < e:
                cut.append((je, e))
        out = cut
    return out


def find_holes(inputs, queries: dict[str, str], depth: int, options=None) -> tuple[list[dict], list[str]]:
    """The holes (see the module docstring) of ``inputs``' runs in their first ``depth`` results per topic, for
    the topics ``queries`` gives texts of; and the run topics left out for want of a query text."""
    from ..core.kinds import DOCUMENTS, PASSAGES
    from ..io.spans import document_texts
    from .inputs import Options, evaluate

    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise GraphsrInputError(f"the depth of the holes must be a positive integer, got {depth!r}")
    if not inputs.collection:
        raise GraphsrInputError("finding the holes' texts needs the collection (the documents' texts)")
    options = replace(options or Options(), progress=False)
    kind = inputs.kind()
    if kind == PASSAGES:
        from ..measures.span.measures import unjudged_chars as cover
    elif kind == DOCUMENTS:
        from ..measures.flat.measures import Judged as cover
    else:
        raise GraphsrInputError(
            f"holes are found in TREC document, chunk and span judgments, not in {kind} assessments"
        )
    done = evaluate(inputs if kind == PASSAGES else replace(inputs, collection=None), [cover], options)
    for failed in done.errors:
        raise failed
    found: dict[tuple, dict] = {}  # (topic, doc[, start]) -> hole, in the order first retrieved
    left_out: set[str] = set()
    if kind == DOCUMENTS:
        judged = set(zip(*(np.asarray(done.qrels.columns.topic_names)[done.qrels.columns.topic].tolist(),
                          np.asarray(done.qrels.columns.doc_names)[done.qrels.columns.doc].tolist())))  # fmt: skip
        for run in done.runs:
            for topic, results in run.results.items():
                if topic not in queries:
                    left_out.add(topic)
                    continue
                for r in results[:depth]:
                    if (topic, r.docid) not in judged:
                        found.setdefault((topic, r.docid), {"query_id": topic, "doc_id": r.docid})
        texts = document_texts(inputs.collection, {d for _, d in found})
        missing = sorted({d for _, d in found if d not in texts})
        if missing:
            raise GraphsrInputError(f"the collection holds no document {', '.join(missing[:5])}: no text to judge")
        holes = [
            {"query_id": t, "query": queries[t], "doc_id": d, "kind": "document", "text": texts[d]} for t, d in found
        ]
        return holes, sorted(left_out)
    qrels = done.qrels
    spans = qrels.judged_spans
    rows = dict(zip(zip(qrels.vocab.topic_names()[qrels.topic_code].tolist(),
                        qrels.vocab.doc_names()[qrels.doc_code].tolist()), qrels.doc_len.tolist()))  # fmt: skip
    retrieved: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for run in done.runs:
        if run.kind != PASSAGES:  # an element run: its elements as the characters they hold
            from ..measures.fol.convert import passage_run

            run = passage_run(run, done.context.documents, qrels.vocab)
        names_t, names_d = run.vocab.topic_names(), run.vocab.doc_names()
        take = _ranked(run.topic_code, run.score, run.rank, depth)
        for k in take.tolist():
            topic, doc = str(names_t[run.topic_code[k]]), str(names_d[run.doc_code[k]])
            if topic not in queries:
                left_out.add(topic)
                continue
            start = int(run.offset[k])
            retrieved.setdefault((topic, doc), []).append((start, start + int(run.length[k])))
    texts = document_texts(inputs.collection, {d for _, d in retrieved})
    holes = []
    for (topic, doc), ranges in retrieved.items():
        if doc not in texts:
            raise GraphsrInputError(f"the collection holds no document {doc!r}: no text to judge")
        covered: list[tuple[int, int]] = (
            spans.get((topic, doc), [])
            if spans is not None
            else ([(0, rows[topic, doc])] if (topic, doc) in rows else [])
        )
        for s, e in _subtract(ranges, covered):
            holes.append(
                {
                    "query_id": topic,
                    "query": queries[topic],
                    "doc_id": doc,
                    "kind": "span",
                    "start": s,
                    "end": e,
                    "text": texts[doc][s:e],
                }  # fmt: skip
            )
    return holes, sorted(left_out)


def _filled(records: Iterable[dict], where: str) -> list[dict]:
    out = []
    for n, rec in enumerate(records, 1):
        if not isinstance(rec, dict) or rec.get("kind") not in HOLE_KINDS:
            raise GraphsrInputError(f"{where}:{n}: not a hole (kind document or span)")
        for field in ("query_id", "doc_id", "relevance", "judge"):
            if rec.get(field) in (None, ""):
                raise GraphsrInputError(f"{where}:{n}: a filled hole needs {field}")
        parse_judge(rec["judge"])
        grade = rec["relevance"]
        if (
            isinstance(grade, bool)
            or not isinstance(grade, (int, float))
            or grade != grade
            or abs(grade) == float("inf")
        ):
            raise GraphsrInputError(f"{where}:{n}: relevance must be a finite number, got {grade!r}")
        if rec["kind"] == "span" and not (
            isinstance(rec.get("start"), int) and isinstance(rec.get("end"), int) and 0 <= rec["start"] < rec["end"]
        ):
            raise GraphsrInputError(
                f"{where}:{n}: a span needs integer start < end, got {rec.get('start')!r}, {rec.get('end')!r}"
            )
        out.append(rec)
    return out


def read_filled(path: str | os.PathLike) -> list[dict]:
    """Filled holes from a JSON lines file (each checked: kind, ids, a finite relevance, a judge, a span's range)."""
    return _filled([rec for _, rec in json_lines(path, "the filled holes")], str(path))


def _grade_text(value) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def merge_judgments(qrels, filled: Iterable[dict], out, chunks=None, qrels_judge: str = "person") -> int:
    """Write ``qrels``' judgments and the ``filled`` holes' to ``out``, each naming its judge (``qrels_judge`` for
    a judgment that names none): TREC qrels with a fifth field for document judgments; span judgments (JSON lines
    with a ``judge`` column) for span judgments and for chunk qrels (each chunk's judgment as its span, through
    the chunk map ``chunks``: they score alike).  A filled hole already judged is refused.  The number of
    judgments written (every one counted against what was read)."""
    from ..io.atomic import atomic_path

    parse_judge(qrels_judge)
    filled = _filled(filled, "the filled holes")
    kinds = {r["kind"] for r in filled}
    if len(kinds) > 1:
        raise GraphsrInputError("the filled holes mix documents and spans: merge each kind into its own judgments")
    from ..io import formats

    fmt = formats.detect(os.fspath(qrels), formats.ASSESSMENTS, None, chunks is not None)
    if fmt.name == "element":
        return _merge_documents(qrels, filled, out, qrels_judge, atomic_path)
    if fmt.name not in ("spans", "chunk ids"):
        raise GraphsrInputError(f"{qrels}: holes are merged into TREC, chunk and span judgments, not {fmt.name} ones")
    return _merge_spans(qrels, fmt.name, filled, out, chunks, qrels_judge, atomic_path)


def _merge_documents(qrels, filled, out, qrels_judge, atomic_path) -> int:
    from ..io.qrels import judged_document_lines

    if any(r["kind"] != "document" for r in filled):
        raise GraphsrInputError(f"{qrels}: document judgments take filled document holes, not spans")
    lines = list(judged_document_lines(qrels, qrels_judge))
    judged = {(t, d) for _, t, _, d, _, _ in lines}
    written = 0
    with atomic_path(out, "the merged judgments") as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            for _, topic, iteration, doc, rel, who in lines:
                fh.write(f"{topic} {iteration} {doc} {_grade_text(rel)} {who}\n")
                written += 1
            for r in filled:
                key = (str(r["query_id"]), str(r["doc_id"]))
                if key in judged:
                    raise GraphsrInputError(f"topic {key[0]}, document {key[1]}: filled, but already judged in {qrels}")
                judged.add(key)
                fh.write(f"{key[0]} 0 {key[1]} {_grade_text(r['relevance'])} {r['judge']}\n")
                written += 1
        _counted(tmp, written, len(lines) + len(filled), out)
    return written


def _counted(path, written: int, expected: int, out) -> None:
    """The lines of ``path`` counted against the judgments that were to be written (before it is put in place)."""
    with open(path, "rb") as fh:
        lines = sum(1 for _ in fh)
    if not written == lines == expected:
        raise GraphsrInputError(f"{out}: {lines} lines written for {expected} judgments")


def _original_spans(qrels, fmt: str, chunks, qrels_judge: str) -> list[dict]:
    """The judgments of a span or chunk judgments file as span records with their judges."""
    from ..core.judges import is_judge
    from ..io._lines import iter_fields
    from ..io.records import read_records

    if fmt == "spans":
        out = []
        for line, r in read_records(qrels, GraphsrInputError):
            if "references" in r:
                raise GraphsrInputError(f"{qrels}: Chroma's questions are merged as span judgments: convert them first")
            who = r.get("judge") or qrels_judge
            parse_judge(who)
            out.append({"query_id": str(r["query_id"]), "doc_id": str(r["doc_id"]), "start": int(r["start"]),
                        "end": int(r["end"]), "relevance": float(r["relevance"]), "judge": who})  # fmt: skip
        return out
    from ..io.chunks import read_chunk_map

    table = read_chunk_map(chunks)
    out = []
    for line, f in iter_fields(qrels, GraphsrInputError):
        who = f[4] if len(f) == 5 and is_judge(f[4]) else qrels_judge
        where = table.get(f[2])
        if where is None:
            raise GraphsrInputError(f"{qrels}:{line}: chunk {f[2]!r} is not in the chunk map")
        out.append({"query_id": f[0], "doc_id": where[0], "start": int(where[1]), "end": int(where[2]),
                    "relevance": float(f[3]), "judge": who})  # fmt: skip
    return out


def _merge_spans(qrels, fmt: str, filled, out, chunks, qrels_judge, atomic_path) -> int:
    if any(r["kind"] != "span" for r in filled):
        raise GraphsrInputError(f"{qrels}: span and chunk judgments take filled span holes, not documents")
    original = _original_spans(qrels, fmt, chunks, qrels_judge)
    judged: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for r in original:
        judged.setdefault((r["query_id"], r["doc_id"]), []).append((r["start"], r["end"]))
    written = 0
    with atomic_path(out, "the merged judgments") as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            for r in original:
                r = {**r, "relevance": int(r["relevance"]) if float(r["relevance"]).is_integer() else r["relevance"]}
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
                written += 1
            for r in filled:
                key = (str(r["query_id"]), str(r["doc_id"]))
                s, e = r["start"], r["end"]
                if any(js < e and s < je for js, je in judged.get(key, ())):
                    raise GraphsrInputError(
                        f"topic {key[0]}, document {key[1]} [{s}, {e}): filled, but judged already in {qrels}"
                    )
                judged.setdefault(key, []).append((s, e))
                fh.write(json.dumps({"query_id": key[0], "doc_id": key[1], "start": s, "end": e,
                                     "relevance": r["relevance"], "judge": r["judge"]}, ensure_ascii=False) + "\n")  # fmt: skip
                written += 1
        _counted(tmp, written, len(original) + len(filled), out)
    return written


def merge_files(first, second, out, second_judge: str = "model", first_judge: str = "person") -> tuple[int, int]:
    """Two TREC judgments files (documents or chunk ids) as one, each judgment naming its judge: every judgment of
    ``first`` (``first_judge``'s where a line names none), then those of ``second`` (``second_judge``'s) for
    what ``first`` does not judge -- a judgment of both is ``first``'s, and each left out is counted.  The numbers
    of judgments written and of ``second``'s left out."""
    from ..io.atomic import atomic_path
    from ..io.qrels import judged_document_lines

    parse_judge(first_judge)
    parse_judge(second_judge)
    regular_file(first, "the judgments")
    regular_file(second, "the judgments")
    ours = list(judged_document_lines(first, first_judge))
    theirs = list(judged_document_lines(second, second_judge))
    judged = {(t, d) for _, t, _, d, _, _ in ours}
    kept = [x for x in theirs if (x[1], x[3]) not in judged]
    if len({(x[1], x[3]) for x in kept}) != len(kept):
        repeated = next(x for k, x in enumerate(kept) if (x[1], x[3]) in {(y[1], y[3]) for y in kept[:k]})
        raise GraphsrInputError(f"{second}:{repeated[0]}: topic {repeated[1]} judges {repeated[3]} twice")
    written = 0
    with atomic_path(out, "the merged judgments") as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            for _, topic, iteration, doc, rel, who in ours + kept:
                fh.write(f"{topic} {iteration} {doc} {_grade_text(rel)} {who}\n")
                written += 1
        _counted(tmp, written, len(ours) + len(kept), out)
    return written, len(theirs) - len(kept)
