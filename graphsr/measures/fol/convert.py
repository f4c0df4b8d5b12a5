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

from ...core.document import DocumentTree
from ...core.fol import FOLQrels, FOLRun, Vocabulary
from ...core.qrels import ElementQrels
from ...core.run import Run
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
    return _passage_columns(run, run.columns.as_elements(), documents, vocab)


def _passage_columns(run: Run, c, documents: Mapping[str, DocumentTree], vocab: Vocabulary | None) -> FOLRun:
    """:func:`passage_run` of a run read into columns, with array operations: each line's text range, then per
    tree result the union of its ranges (touching ranges merge), pieces in text order."""
    import numpy as np

    from ..._numpy import distinct
    from ..elements import line_nodes

    o, starts = c.result_order, c.result_starts
    topic_rank = {t: k for k, t in enumerate(c.topics)}  # results in the run's topic order, then by rank
    t_order = np.array([topic_rank[t] for t in c.topic_names], dtype=np.int64)[c.topic[o][starts[:-1]]]
    results = np.argsort(t_order, kind="stable")  # results sorted by (topic code, rank): reorder topics only
    sizes = np.diff(starts)
    lines = np.concatenate([np.arange(starts[r], starts[r + 1]) for r in results.tolist()]) if len(results) \
        else np.zeros(0, np.int64)
    line = o[lines]
    result = np.repeat(np.arange(len(results)), sizes[results])
    doc, path = c.doc[line], c.path[line]
    node = line_nodes(c.doc_names, c.path_names, doc, path, documents)
    if (node < 0).any():  # the first unknown node, in the order the lines are read: one error naming its line
        k = int(np.flatnonzero(node < 0)[0])
        _range(documents, c.doc_names[int(doc[k])], c.path_names[int(path[k])], run.source,
               int(c.line[line[k]]) if c.line is not None else None)
    begin, end = np.zeros(len(line), dtype=np.int64), np.zeros(len(line), dtype=np.int64)
    for d in distinct(doc).tolist():  # each document's node ranges, gathered per document
        at = np.flatnonzero(doc == d)
        tree = documents[c.doc_names[d]]
        begin[at], end[at] = tree.start[node[at]], tree.end[node[at]]
    first_line = line[np.r_[0, np.cumsum(sizes[results])[:-1]]] if len(results) else line
    keep = end > begin  # empty ranges add nothing
    result, begin, end = result[keep], begin[keep], end[keep]
    order = np.lexsort((begin, result))
    result, begin, end = result[order], begin[order], end[order]
    width = int(end.max()) + 1 if len(end) else 1
    reach = np.maximum.accumulate(end + result * width) - result * width  # furthest end so far in the result
    new = np.r_[True, (result[1:] != result[:-1]) | (begin[1:] > reach[:-1])] if len(result) else np.zeros(0, bool)
    piece = np.cumsum(new) - 1
    p_begin = begin[new]
    p_end = np.zeros(int(new.sum()), dtype=np.int64)
    np.maximum.at(p_end, piece, end)
    p_result = result[new]
    first = first_line[p_result]
    topic = [c.topic_names[t] for t in c.topic[first].tolist()]
    docid = [c.doc_names[d] for d in c.doc[first].tolist()]
    ranks, scores = c.rank[first].tolist(), c.score[first].tolist()
    lines_of = c.line[first].tolist() if c.line is not None else [0] * len(first)
    run_id = run.run_ids[0] if len(run.run_ids) == 1 else None
    return FOLRun.from_columns(run.name, topic, docid, ranks, scores, p_begin.tolist(),
                               (p_end - p_begin).tolist(), lines_of, run_id=run_id, source=run.source or "",
                               vocab=vocab)
