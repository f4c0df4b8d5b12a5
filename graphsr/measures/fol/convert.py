"""Element assessments and runs as character passages, for the INEX passage measures.

INEX 2008-2010 scored element runs as passages: an element is the text
range ``[start, end)`` it covers.  Here:

* assessments: the highlighted text of an article is the union of the
  ranges of its elements with relevance > 0 (nested or adjacent elements
  merge); its best entry point is the start of its first highlighted
  passage; assessed articles without relevant elements are judged
  non-relevant;
* runs: a tree result becomes the union of its nodes' ranges, one passage
  per disjoint piece, at the result's rank (pieces in text order).
"""

from __future__ import annotations

from typing import Mapping

from ...model.document import DocumentTree
from ...model.fol import FOLQrels, FOLRun, Vocabulary
from ...model.qrels import ElementQrels
from ...model.run import Run
from ..elements import locate

__all__ = ["passage_qrels", "passage_run"]


def _union(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Disjoint, sorted pieces covering the non-empty ranges.

    >>> _union([(5, 9), (0, 3), (2, 4), (9, 12), (7, 7)])
    [(0, 4), (5, 12)]
    """
    out: list[list[int]] = []
    for a, b in sorted(r for r in ranges if r[1] > r[0]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _range(documents: Mapping[str, DocumentTree], docid: str, xpath: str, source=None, line=None) -> tuple[int, int]:
    """The text range of a node; an unknown document or node is an error naming the file and line."""
    doc = documents.get(docid)
    i = locate(doc, docid, xpath, source, line)
    return int(doc.start[i]), int(doc.end[i])


def passage_qrels(qrels: ElementQrels, documents: Mapping[str, DocumentTree]) -> FOLQrels:
    """FOL assessments from element assessments (see the module docstring)."""
    topic, docid, doc_len, rel_chars, bep, p_row, p_start, p_end = ([] for _ in range(8))
    for t, judged in qrels.judgments.items():
        per_doc: dict[str, list[tuple[int, int]]] = {}
        for (d, xpath), rel in judged.items():
            ranges = per_doc.setdefault(d, [])
            if rel > 0:
                ranges.append(_range(documents, d, xpath, qrels.source, qrels.lines.get((t, d, xpath))))
        for d, ranges in per_doc.items():
            pieces = _union(ranges)
            row = len(topic)
            topic.append(t)
            docid.append(d)
            doc_len.append(int(documents[d].end[0]))
            rel_chars.append(sum(b - a for a, b in pieces))
            bep.append(pieces[0][0] if pieces else -1)
            for a, b in pieces:
                p_row.append(row)
                p_start.append(a)
                p_end.append(b)
    lines = [0] * len(topic)
    return FOLQrels.from_columns(topic, docid, doc_len, rel_chars, bep, p_row, p_start, p_end, lines,
                                 qrels.source or "")


def passage_run(run: Run, documents: Mapping[str, DocumentTree], vocab: Vocabulary | None = None) -> FOLRun:
    """A passage run from an element (tree) run (see the module docstring), in the element run's order
    (topic, then rank)."""
    rows = []
    for t, results in run.results.items():
        for r in results:
            line = next((x for x in r.lines if x is not None), 0)
            lines = r.lines or (None,) * len(r.xpaths)
            for a, b in _union([_range(documents, r.docid, xp, run.source, ln) for xp, ln in zip(r.xpaths, lines)]):
                rows.append((t, r.docid, r.rank, r.score, a, b - a, line))
    cols = list(zip(*rows)) if rows else [()] * 7
    run_id = run.run_ids[0] if len(run.run_ids) == 1 else None
    return FOLRun.from_columns(run.name, *cols, run_id=run_id, source=run.source or "", vocab=vocab)
