"""Element runs and assessments resolved against document trees: the inputs of the element families.

Every run line and qrels line must name a document of the collection and a
node that exists in it.  By default a line that does not is an error
(:class:`~graphsr.errors.UnknownNodeError`, with file and line); with
``unknown='warn'`` such lines are dropped, counted and reported, never
silently.  A tree result whose every node was dropped is dropped too.

:mod:`graphsr.measures.element_provider` builds these inputs once for every
family that scores element runs (SR, ESR, ...), through the evaluation's
:class:`~graphsr.measures.provider.Scratch`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

from ..errors import UnknownNodeError
from ..core.document import DocumentTree, resolve_node
from ..core.qrels import ElementQrels
from ..core.run import Run
from .inputs import RankedNodes
from .provider import NoNavigation

__all__ = ["Diagnostics", "locate", "check_qrels", "ranked_nodes", "JudgedNodes", "line_nodes", "resolved"]

#: Columns made from documents' trees by a converter (passages as elements), with the documents and each line's
#: node index there as the converter found it: ``columns -> (documents, node)``, kept while the columns live.
_RESOLVED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def resolved(columns, documents, node: np.ndarray) -> None:
    """Record that each line of ``columns`` (element run or assessment columns) is node ``node[k]`` of its
    document among ``documents``: scoring the columns against these same documents then reads the nodes rather
    than looking each line's XPath up again (:func:`nodes_of_lines`)."""
    if len(node) != len(columns.doc):
        raise ValueError(f"{len(node)} nodes for {len(columns.doc)} lines")
    _RESOLVED[columns] = (documents, np.asarray(node, dtype=np.int64))


def _converted_nodes(columns, documents) -> np.ndarray | None:
    """Each line's node as the converter that made ``columns`` from these very ``documents`` resolved it (None:
    not so made)."""
    kept = _RESOLVED.get(columns)
    return kept[1] if kept is not None and kept[0] is documents else None


def nodes_of_lines(columns, documents) -> np.ndarray:
    """The node index of each line of ``columns`` among ``documents`` (-1: an unknown document or node): as the
    converter that made the columns from these very documents resolved it (:func:`resolved`), else each line's
    XPath looked up (:func:`line_nodes`)."""
    node = _converted_nodes(columns, documents)
    if node is not None:
        return node
    return line_nodes(columns.doc_names, columns.path_names, columns.doc, columns.path, documents)


@dataclass
class Diagnostics:
    """What resolution dropped or noticed, for the warning report."""

    unknown_run_lines: int = 0
    unknown_qrels_lines: int = 0
    dropped_results: int = 0
    examples: list = field(default_factory=list)

    def note(self, message: str) -> None:
        if len(self.examples) < 5:
            self.examples.append(message)

    def messages(self, run_name: str | None = None) -> list[str]:
        out = []
        prefix = f"{run_name}: " if run_name else ""
        if self.unknown_run_lines:
            out.append(
                f"{prefix}{self.unknown_run_lines} run line(s) name unknown documents or nodes and were "
                f"ignored ({self.dropped_results} result(s) left empty and dropped)"
            )
        if self.unknown_qrels_lines:
            out.append(f"{self.unknown_qrels_lines} qrels line(s) name unknown documents or nodes and were ignored")
        out.extend(f"  e.g. {e}" for e in self.examples)
        return out


def locate(
    doc: DocumentTree | None,
    docid: str,
    xpath: str,
    source=None,
    line=None,
    unknown: str = "error",
    diag: Diagnostics | None = None,
) -> int | None:
    """The index of node ``xpath`` in ``doc``; an unknown document or node raises
    :class:`~graphsr.errors.UnknownNodeError` naming the file and line, or with ``unknown='warn'`` is noted
    in ``diag`` and gives None."""
    try:
        return resolve_node({docid: doc} if doc is not None else {}, docid, xpath, source, line)
    except UnknownNodeError as exc:
        if unknown == "error":
            raise
        if diag is not None:
            diag.note(f"{source}:{line}: {exc.message}")
        return None


def check_qrels(
    qrels: ElementQrels, documents: Mapping[str, DocumentTree], unknown: str = "error", diag: Diagnostics | None = None
) -> "JudgedNodes":
    """Judgments keyed by (docid, node index), from the assessments' columns (each distinct XPath of a document
    looked up once); unknown nodes raise or are counted, in the order of :attr:`ElementQrels.judgments`."""
    from ..core.columns import codes_in
    from ..core.document import PLAIN_DOCUMENT_NODE

    diag = diag if diag is not None else Diagnostics()
    c = qrels.columns
    paths = getattr(c, "path", None)
    path_names = getattr(c, "path_names") if paths is not None else [PLAIN_DOCUMENT_NODE]
    paths = paths if paths is not None else np.zeros(len(c), dtype=np.int64)
    topics = c.topics
    slot = codes_in(c.topic_names, dict(zip(topics, range(len(topics)))))[c.topic]
    order = np.argsort(slot, kind="stable")  # by topic, as the judgments view groups them; file order within
    node = _converted_nodes(c, documents)
    if node is None:
        node = line_nodes(c.doc_names, path_names, c.doc, paths, documents)
    node = node[order]
    lost = node < 0
    if lost.any():
        for k in order[lost].tolist()[: 5 if unknown != "error" else 1]:  # raises for 'error'; notes for 'warn'
            docid = c.doc_names[int(c.doc[k])]
            line = int(c.line[k]) if c.line is not None else None
            locate(documents.get(docid), docid, path_names[int(paths[k])], qrels.source, line, unknown, diag)
        diag.unknown_qrels_lines += int(lost.sum())
        order, node = order[~lost], node[~lost]
    judged = JudgedNodes()
    names, docs = c.topic_names, c.doc_names
    for t, d, n, v in zip(c.topic[order].tolist(), c.doc[order].tolist(), node.tolist(), c.value[order].tolist()):
        mine = judged.get(names[t])
        if mine is None:
            mine = judged[names[t]] = {}
        mine[(docs[d], n)] = v
    return judged


def ranked_nodes(
    run: Run,
    judged: Mapping[str, Mapping[tuple[str, int], float]],
    topics: list[str],
    documents: Mapping[str, DocumentTree],
    seen_of: Callable[[str], np.ndarray] | None,
    unknown: str = "error",
    diag: Diagnostics | None = None,
    doc_codes: dict[str, int] | None = None,
) -> RankedNodes:
    """Resolve a run's results for the given topics into :class:`RankedNodes`.

    Parameters
    ----------
    run : Run
    judged : mapping
        ``judged[topic][(docid, node index)] = rel`` (see :func:`check_qrels`).
    topics : list of str
        The topics to evaluate, in output order; a topic absent from the run
        gets no results (its measures are 0).
    documents : mapping of docid to DocumentTree
        At least every document the run names.
    seen_of : callable or None
        ``seen_of(docid)`` -> per-node ``p(e;f)`` of the document (SR Eq 7);
        None: 0 (no navigation).
    unknown : {'error', 'warn'}
    doc_codes : dict, optional
        Document codes to use (and extend); share one dict to give other
        arrays (e.g. ESR assessments) the same codes.  Node ids are
        ``code << 32 | node index``.
    """
    diag = diag if diag is not None else Diagnostics()
    doc_codes = {} if doc_codes is None else doc_codes
    lines = _line_columns(run, documents)
    return _ranked_columns(run, lines, judged, topics, documents, seen_of, unknown, diag, doc_codes)


@dataclass
class _Lines:
    """A run's lines as ranked_nodes reads them: names behind the codes, per-line codes, a key that orders the
    lines of a topic (rank, then file order) and where each result starts (equal topic and ``group``)."""

    topic_names: list
    doc_names: list
    path_names: list
    topic: np.ndarray
    doc: np.ndarray
    path: np.ndarray
    group: np.ndarray  # lines of a topic with one group value form one result; groups ordered as ranked
    score: np.ndarray
    line: np.ndarray | None
    node: np.ndarray | None = None  # each line's node index, where the run's converter resolved it (else None)


def _line_columns(run, documents=None) -> _Lines:
    c = run.columns.as_elements()  # a document run's lines ranked as trec_eval ranks them
    node = _converted_nodes(c, documents) if documents is not None else None
    return _Lines(c.topic_names, c.doc_names, c.path_names, c.topic, c.doc, c.path, c.rank, c.score, c.line, node)


class JudgedNodes(dict):
    """``judged[topic][(docid, node)] = rel`` (see :func:`check_qrels`), with its array form built once for
    the runs read into columns."""

    @classmethod
    def of_documents(cls, columns) -> "JudgedNodes":
        """The judgments of document assessments (:class:`~graphsr.core.columns.DocumentColumns`), each
        document its node 0, with the array form built from the columns directly."""
        judged = cls({t: {} for t in columns.topics})
        tn, dn = columns.topic_names, columns.doc_names
        for t, d, v in zip(columns.topic.tolist(), columns.doc.tolist(), columns.value.tolist()):
            judged[tn[t]][(dn[d], 0)] = v
        slot = np.full(len(tn), -1, dtype=np.int64)
        code = dict(zip(tn, range(len(tn))))
        slot[[code[t] for t in judged]] = np.arange(len(judged))  # each topic code's place in judged's order
        judged._set_arrays(dict(zip(dn, range(len(dn)))), slot[columns.topic], columns.doc, 0, columns.value)
        return judged

    def arrays(self):
        """``(topic index, document index, width, sorted keys, grades)``: each assessment keyed
        ``(topic * width + document) << 32 | node`` (topics in this dict's order), for look-ups by search."""
        if getattr(self, "_arrays", None) is None:
            docs: dict[str, int] = {}
            t, d, node, rel = [], [], [], []
            for k, topic in enumerate(self):
                for (docid, i), v in self[topic].items():
                    t.append(k)
                    d.append(docs.setdefault(docid, len(docs)))
                    node.append(i)
                    rel.append(v)
            self._set_arrays(docs, t, d, node, rel)
        return self._arrays

    def _set_arrays(self, docs: dict, topic, doc, node, rel) -> None:
        width = np.int64(max(len(docs), 1))
        key = ((np.asarray(topic, dtype=np.int64) * width + np.asarray(doc, dtype=np.int64)) << 32) | np.asarray(
            node, dtype=np.int64
        )
        order = np.argsort(key)
        self._arrays = (dict(zip(self, range(len(self)))), docs, width, key[order], np.asarray(rel, dtype=float)[order])


def _ranked_columns(
    run,
    c: _Lines,
    judged,
    topics: list[str],
    documents,
    seen_of,
    unknown: str,
    diag: Diagnostics,
    doc_codes: dict[str, int],
) -> RankedNodes:
    """:func:`ranked_nodes` of a run read into columns, with array operations (Python loops over documents and
    distinct XPaths only)."""
    from ..core.columns import codes_in

    slot = codes_in(c.topic_names, dict(zip(topics, range(len(topics)))))[c.topic]
    kept = np.flatnonzero(slot >= 0)
    kept = kept[np.lexsort((kept, c.group[kept], slot[kept]))]  # by topic slot, rank, file order
    doc, path = c.doc[kept], c.path[kept]
    node = c.node[kept] if c.node is not None else line_nodes(c.doc_names, c.path_names, doc, path, documents)
    lost = node < 0
    if lost.any():
        bad = np.flatnonzero(lost)
        for k in bad[: 5 if unknown != "error" else 1].tolist():  # raises for 'error'; notes examples for 'warn'
            line = int(c.line[kept[k]]) if c.line is not None else None
            docid = c.doc_names[int(doc[k])]
            locate(documents.get(docid), docid, c.path_names[int(path[k])], run.source, line, unknown, diag)
        diag.unknown_run_lines += len(bad)
    # results: runs of equal (topic slot, group) among the kept lines; those left without a node are dropped
    t_line, g_line = slot[kept], c.group[kept]
    new = np.r_[True, (t_line[1:] != t_line[:-1]) | (g_line[1:] != g_line[:-1])] if len(kept) else np.zeros(0, bool)
    result_all = np.cumsum(new) - 1
    if lost.any():
        live = np.bincount(result_all[~lost], minlength=int(new.sum())) > 0
        diag.dropped_results += int((~live).sum())
        keep = ~lost
        kept, doc, node, result_all, new = kept[keep], doc[keep], node[keep], result_all[keep], None
        renumber = np.cumsum(live) - 1
        item_result = renumber[result_all]
        first = np.flatnonzero(np.r_[True, item_result[1:] != item_result[:-1]]) if len(kept) else np.zeros(0, int)
    else:
        item_result = result_all
        first = np.flatnonzero(new)
    # document codes in order of first appearance, sharing (and extending) doc_codes
    mapped = np.full(len(c.doc_names), -1, dtype=np.int64)
    for code in dict.fromkeys(doc[first].tolist()):
        mapped[code] = doc_codes.setdefault(c.doc_names[code], len(doc_codes))
    item_doc = mapped[doc]
    item_node = (item_doc << 32) | node
    grade = _grades(judged, topics, slot[kept], c.doc_names, doc, node)
    relevance = np.where(grade > 0, grade, 0.0)  # not assessed (NaN) or a negative grade: not relevant
    seen = _seen(seen_of, c.doc_names, documents, doc, node)
    return RankedNodes(
        list(topics),
        slot[kept][first],
        item_doc[first],
        item_result,
        item_node,
        relevance,
        seen,
        grade,
        c.score[kept][first],
    )


def line_nodes(doc_names: list, path_names: list, doc: np.ndarray, path: np.ndarray, documents) -> np.ndarray:
    """The node index of each line's (document, XPath) among ``documents`` (-1: an unknown document or node):
    per document, its distinct XPaths looked up once in the document's index."""
    from ..core.document import PLAIN_DOCUMENT_NODE, PlainDocuments, normalize_xpath

    if isinstance(documents, PlainDocuments) and all(p == PLAIN_DOCUMENT_NODE for p in path_names):
        # plain documents: the one node of each known document, no tree made
        known = np.fromiter((name in documents for name in doc_names), dtype=bool, count=len(doc_names))
        return np.where(known[doc], 0, -1).astype(np.int64)
    if not len(doc):
        return np.zeros(0, dtype=np.int64)
    pw = np.int64(max(len(path_names), 1))
    pairs, pair_of = np.unique(doc.astype(np.int64) * pw + path, return_inverse=True)
    pair_doc, pair_path = pairs // pw, pairs % pw
    pair_node = np.full(len(pairs), -1, dtype=np.int64)
    steps: dict[int, tuple] = {}
    bounds = np.flatnonzero(np.r_[True, pair_doc[1:] != pair_doc[:-1], True])
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        tree = documents.get(doc_names[int(pair_doc[a])]) if documents is not None else None
        if tree is None:
            continue
        codes = pair_path[a:b].tolist()
        for p in codes:
            if p not in steps:
                steps[p] = normalize_xpath(path_names[p])
        pair_node[a:b] = tree.nodes_at([steps[p] for p in codes], keep=False)  # (all of them at once)
    return pair_node[pair_of.ravel()]


def _grades(
    judged, topics: list[str], item_slot: np.ndarray, doc_names: list, doc: np.ndarray, node: np.ndarray
) -> np.ndarray:
    """The assessed value of each item's node (NaN: not assessed)."""
    from ..core.columns import codes_in

    if not isinstance(judged, JudgedNodes):
        judged = JudgedNodes(judged)
    topic_index, doc_index, width, keys, rel = judged.arrays()
    out = np.full(len(doc), np.nan)
    if not len(keys) or not len(doc):
        return out
    t = codes_in(topics, topic_index)[item_slot]
    d = codes_in(doc_names, doc_index)[doc]
    ok = (t >= 0) & (d >= 0)
    key = ((t[ok] * width + d[ok]) << 32) | node[ok]
    at = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
    hit = keys[at] == key
    vals = np.full(len(key), np.nan)
    vals[hit] = rel[at[hit]]
    out[ok] = vals
    return out


def _seen(seen_of, doc_names: list, documents, doc: np.ndarray, node: np.ndarray) -> np.ndarray:
    """``p(e;f)`` of each item's node (0 without navigation)."""
    if seen_of is None or isinstance(seen_of, NoNavigation) or not len(doc):
        return np.zeros(len(doc))
    used = np.flatnonzero(np.bincount(doc, minlength=len(doc_names)) > 0)
    offset = np.zeros(len(doc_names), dtype=np.int64)
    parts, total = [], 0
    for code in used.tolist():
        values = np.asarray(seen_of(doc_names[code]), dtype=float)
        offset[code] = total
        parts.append(values)
        total += len(values)
    return np.concatenate(parts)[offset[doc] + node]
