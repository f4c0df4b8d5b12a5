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

And back, so that the element families (SR, ESR, PRUM, the flat measures)
score passage inputs -- span judgments and chunk runs over Markdown, HTML or
XML trees -- with navigation between their elements:

* assessments (:func:`element_qrels`): each element with highlighted text
  is relevant by the share of its characters highlighted (the specificity
  HiXEval measures by length), in [0, 1]; each assessed document's root is
  listed too (0 without highlighted text), so that the document counts as
  judged; an element without highlighted text is not listed (it scores 0);
* runs (:func:`element_run`): a passage or chunk resolves to the smallest
  element containing it (:func:`graphsr.core.document.containing_node`: the
  section or paragraph a reader opens to read it; a chunk that is an element
  is that element); a later result resolving to an element already
  returned for the topic is left out and counted (the reader has it
  already).  Results keep their ranked order (file order for an INEX passage
  run, unless ``order="rank"``).
"""

from __future__ import annotations

from typing import Mapping

from ...core.document import DocumentTree
from ...core.fol import FOLQrels, FOLRun, Vocabulary
from ...core.qrels import ElementQrels
from ...core.run import Run
from ..elements import locate

__all__ = ["passage_qrels", "passage_run", "element_qrels", "element_run"]


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
    i = locate(doc, docid, xpath, source, line)  # (raises for a document the collection does not hold)
    assert doc is not None
    return int(doc.start[i]), int(doc.end[i])


def passage_qrels(qrels: ElementQrels, documents: Mapping[str, DocumentTree]) -> FOLQrels:
    """FOL assessments from element assessments (see the module docstring)."""
    topic: list = []
    docid: list = []
    doc_len: list = []
    rel_chars: list = []
    bep: list = []
    p_row: list = []
    p_start: list = []
    p_end: list = []
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
    return FOLQrels.from_columns(
        topic, docid, doc_len, rel_chars, bep, p_row, p_start, p_end, lines, qrels.source or ""
    )


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
    lines = (
        np.concatenate([np.arange(starts[r], starts[r + 1]) for r in results.tolist()])
        if len(results)
        else np.zeros(0, np.int64)
    )
    line = o[lines]
    result = np.repeat(np.arange(len(results)), sizes[results])
    doc, path = c.doc[line], c.path[line]
    node = line_nodes(c.doc_names, c.path_names, doc, path, documents)
    if (node < 0).any():  # the first unknown node, in the order the lines are read: one error naming its line
        k = int(np.flatnonzero(node < 0)[0])
        _range(
            documents,
            c.doc_names[int(doc[k])],
            c.path_names[int(path[k])],
            run.source,
            int(c.line[line[k]]) if c.line is not None else None,
        )
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
    return FOLRun.from_columns(
        run.name,
        topic,
        docid,
        ranks,
        scores,
        p_begin.tolist(),
        (p_end - p_begin).tolist(),
        lines_of,
        run_id=run_id,
        source=run.source or "",
        vocab=vocab,
    )


def element_qrels(qrels: FOLQrels, documents: Mapping[str, DocumentTree]) -> ElementQrels:
    """Element assessments from passage assessments (see the module docstring)."""
    import numpy as np

    from ...core.qrels import QrelsRow

    rows = []
    topics, docs = qrels.topic, qrels.docid
    order = np.argsort(qrels.pass_row, kind="stable")
    p_row, p_start, p_end = qrels.pass_row[order], qrels.pass_start[order], qrels.pass_end[order]
    bounds = np.searchsorted(p_row, np.arange(len(topics) + 1))
    for k in range(len(topics)):
        t, d = str(topics[k]), str(docs[k])
        tree = documents[d]
        a, b = int(bounds[k]), int(bounds[k + 1])
        lo, hi = p_start[a:b], p_end[a:b]
        line = int(qrels.line[k]) if getattr(qrels, "line", None) is not None else None
        if b == a:
            rows.append(QrelsRow(t, d, tree.xpath(0), 0.0, line))
            continue
        before = np.concatenate([[0], np.cumsum(hi - lo)])

        def covered(y):
            i = np.searchsorted(lo, y, side="right") - 1
            j = np.maximum(i, 0)
            return np.where(i >= 0, before[j] + np.clip(y - lo[j], 0, hi[j] - lo[j]), 0)

        length = tree.end - tree.start
        hit = covered(tree.end) - covered(tree.start)
        for i in np.flatnonzero((hit > 0) | (np.arange(len(tree)) == 0)).tolist():
            rows.append(QrelsRow(t, d, tree.xpath(i), float(hit[i] / length[i]) if length[i] else 0.0, line))
    return ElementQrels.from_rows(rows, qrels.source or None)


def element_run(run: FOLRun, documents: Mapping[str, DocumentTree], order: str = "file") -> tuple[Run, int]:
    """An element run from a passage or chunk run (see the module docstring), and how many results it left out
    (resolving to an element the topic had already).

    Raises
    ------
    UnknownNodeError
        A result in a document the collection does not hold, naming its file and line.
    """
    import numpy as np

    from ...core.document import containing_node, resolve_node
    from ...core.run import RunRow

    names, docs = run.vocab.topic_names(), run.vocab.doc_names()
    if run.ranked or order == "rank":
        rows_order = np.lexsort((np.arange(len(run)), run.rank, run.topic_code))
    else:
        rows_order = np.lexsort((run.line, run.topic_code))
    rows, seen, left_out = [], set(), 0
    rank: dict[str, int] = {}
    for r in rows_order.tolist():
        t, d = str(names[run.topic_code[r]]), str(docs[run.doc_code[r]])
        tree = documents.get(d)
        if tree is None:
            resolve_node(documents, d, "/", run.source, int(run.line[r]))  # (raises: one message for all readers)
        assert tree is not None
        start = int(run.offset[r])
        node = containing_node(tree, start, start + int(run.length[r]))
        key = (t, d, node)
        if key in seen:
            left_out += 1
            continue
        seen.add(key)
        rank[t] = rank.get(t, 0) + 1
        rows.append(RunRow(t, d, rank[t], -float(rank[t]), tree.xpath(node), int(run.line[r])))
    return Run.from_rows(rows, run.name, run.source or None, run.run_ids), left_out
