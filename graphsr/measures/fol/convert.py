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
from ..elements import locate, resolved

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
    """Element assessments from passage assessments (see the module docstring), built as columns: per
    (topic, document) the characters highlighted in each element's range counted at once, each element's XPath
    built once with its ancestors'; in topic order (topics in order of first appearance), as
    :meth:`ElementQrels.from_rows` orders them."""
    import numpy as np

    from ...core.columns import AssessmentColumns, codes_of
    from ...errors import QrelsFormatError

    topics, docs = [str(t) for t in qrels.topic], [str(d) for d in qrels.docid]
    lines = qrels.line.tolist() if getattr(qrels, "line", None) is not None else [None] * len(topics)
    first: dict[tuple[str, str], int] = {}
    for k, pair in enumerate(zip(topics, docs)):
        if first.setdefault(pair, k) != k:  # (readers give a pair once; assessments made in code may not)
            t, d = pair
            raise QrelsFormatError(
                f"topic {t}: node {d} {documents[d].xpath(0)} is assessed twice (also line {lines[first[pair]]}); "
                "expected one judgment per node",
                qrels.source or None,
                lines[k],
            )
    order = np.argsort(qrels.pass_row, kind="stable")
    p_row, p_start, p_end = qrels.pass_row[order], qrels.pass_start[order], qrels.pass_end[order]
    bounds = np.searchsorted(p_row, np.arange(len(topics) + 1))
    out_topic, out_doc, out_path, out_value, out_line, out_node = [], [], [], [], [], []
    for k in np.argsort(codes_of(topics)[1], kind="stable").tolist():  # grouped by topic, as from_rows does
        t, d = topics[k], docs[k]
        tree = documents[d]
        a, b = int(bounds[k]), int(bounds[k + 1])
        if b == a:
            nodes, values = np.zeros(1, np.int64), np.zeros(1)
        else:
            lo, hi = p_start[a:b], p_end[a:b]
            before = np.concatenate([[0], np.cumsum(hi - lo)])

            def covered(y):
                i = np.searchsorted(lo, y, side="right") - 1
                j = np.maximum(i, 0)
                return np.where(i >= 0, before[j] + np.clip(y - lo[j], 0, hi[j] - lo[j]), 0)

            length = tree.end - tree.start
            hit = covered(tree.end) - covered(tree.start)
            keep = hit > 0
            keep[0] = True
            nodes = np.flatnonzero(keep)
            values = np.divide(hit[nodes], length[nodes], out=np.zeros(len(nodes)), where=length[nodes] > 0)
        n = len(nodes)
        out_topic += [t] * n
        out_doc += [d] * n
        out_path += tree.xpaths_of(nodes)
        out_node.append(nodes)
        out_value.append(values)
        out_line += [lines[k]] * n
    values = np.concatenate(out_value) if out_value else np.zeros(0)
    known_lines = None if any(x is None for x in out_line) else out_line
    columns = AssessmentColumns.from_lists(out_topic, out_doc, out_path, values, None, known_lines)
    resolved(columns, documents, np.concatenate(out_node) if out_node else np.zeros(0, np.int64))
    return ElementQrels(None, qrels.source or None, columns=columns)


def element_run(run: FOLRun, documents: Mapping[str, DocumentTree], order: str = "file") -> tuple[Run, int]:
    """An element run from a passage or chunk run (see the module docstring), and how many results it left out
    (resolving to an element the topic had already).  With array operations: each document's results resolved
    at once (:func:`graphsr.core.document.containing_nodes`), each element's XPath built once.

    Raises
    ------
    UnknownNodeError
        A result in a document the collection does not hold, naming its file and line.
    """
    import numpy as np

    from ...core.columns import ElementColumns
    from ...core.document import containing_nodes, resolve_node

    names, docs = run.vocab.topic_names(), run.vocab.doc_names()
    if run.ranked or order == "rank":
        rows = np.lexsort((np.arange(len(run)), run.rank, run.topic_code))
    else:
        rows = np.lexsort((run.line, run.topic_code))
    doc_code = np.asarray(run.doc_code)[rows]
    held = np.array([str(docs[d]) in documents for d in range(len(docs))], dtype=bool)
    if len(rows) and not held[doc_code].all():  # the first result, in this order, in a document not held
        k = int(rows[np.flatnonzero(~held[doc_code])[0]])
        resolve_node(documents, str(docs[run.doc_code[k]]), "/", run.source, int(run.line[k]))  # (raises)
    start = np.asarray(run.offset, dtype=np.int64)[rows]
    end = start + np.asarray(run.length, dtype=np.int64)[rows]
    node = np.zeros(len(rows), dtype=np.int64)
    for group in _by_document(doc_code):
        node[group] = containing_nodes(documents[str(docs[doc_code[group[0]]])], start[group], end[group])
    topic_code = np.asarray(run.topic_code, dtype=np.int64)[rows]
    by_key = np.lexsort((np.arange(len(rows)), node, doc_code, topic_code))  # (each key's first place first)
    a, b, c = topic_code[by_key], doc_code[by_key], node[by_key]
    again = np.r_[False, (a[1:] == a[:-1]) & (b[1:] == b[:-1]) & (c[1:] == c[:-1])][: len(rows)]
    kept = np.ones(len(rows), dtype=bool)
    kept[by_key[again]] = False  # a result resolving to an element its topic had at an earlier place is left out
    left_out = int(len(rows) - kept.sum())
    rows, topic_code, doc_code, node = rows[kept], topic_code[kept], doc_code[kept], node[kept]
    topic_starts = np.r_[0, np.flatnonzero(np.diff(topic_code)) + 1] if len(rows) else np.zeros(0, np.int64)
    rank = np.arange(len(rows)) - np.repeat(topic_starts, np.diff(np.r_[topic_starts, len(rows)])) + 1
    paths = [""] * len(rows)
    for group in _by_document(doc_code):
        tree = documents[str(docs[doc_code[group[0]]])]
        for k, xp in zip(group.tolist(), tree.xpaths_of(node[group])):
            paths[k] = xp
    paths = _canonical(paths, np.asarray(run.line)[rows].tolist(), run.source or None)
    columns = ElementColumns.from_lists(
        [str(names[t]) for t in topic_code.tolist()],
        [str(docs[d]) for d in doc_code.tolist()],
        rank.tolist(),
        (-rank.astype(float)).tolist(),
        paths,
        np.asarray(run.line, dtype=np.int64)[rows].tolist(),
    )
    resolved(columns, documents, node)
    return Run.from_element_columns(columns, run.name, run.source or None, run.run_ids), left_out


def _by_document(doc_code):
    """The places of each document's rows (``doc_code``: a code per row), a document at a time, each in row
    order."""
    import numpy as np

    by_doc = np.argsort(doc_code, kind="stable")
    return np.split(by_doc, np.flatnonzero(np.diff(doc_code[by_doc])) + 1) if len(by_doc) else []


def _canonical(paths: list[str], lines: list, source) -> list[str]:
    """The XPaths as :meth:`Run.from_rows` reads them (each distinct one once); one that is not well-formed (a
    tag the walker kept that an XPath cannot name) is an error naming the first line resolving to it."""
    from ...core.document import canonical_xpath
    from ...errors import RunFormatError

    canonical = {}
    for xp in dict.fromkeys(paths):
        try:
            canonical[xp] = canonical_xpath(xp)
        except ValueError as exc:
            raise RunFormatError(str(exc), source, lines[paths.index(xp)]) from None
    return [canonical[xp] for xp in paths]
