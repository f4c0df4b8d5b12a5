"""What RAG frameworks' retrievers return, read as graphsr's runs and trees -- duck-typed: LlamaIndex, LangChain
and Haystack are never imported.

A retrieved unit is read from the object a framework gives, or from its dict (``to_dict()``, JSON lines):

==============================  ============================================================================
LlamaIndex ``NodeWithScore``    ``.node`` and ``.score`` (dict: ``{"node": {...}, "score": s}``)
LlamaIndex ``TextNode``         ``node_id`` (``id_``), ``ref_doc_id`` (the SOURCE relationship),
                                ``start_char_idx``, ``end_char_idx``, the PARENT relationship, ``text``
LangChain ``Document``          ``page_content``, ``metadata["start_index"]`` (``add_start_index=True``),
                                the document in ``metadata["source"]`` (or ``doc_key``), ``id``
Haystack ``Document``           ``content``, ``meta["split_idx_start"]``, ``meta["source_id"]``,
                                ``meta["__parent_id"]`` (hierarchical splitters), ``id``, ``score``
graphsr's record                ``node_id``, ``doc_id``, ``start``, ``end``, ``parent_id``, ``text``
==============================  ============================================================================

**Offsets.**  A unit without a parent counts its offsets in its document.  A unit with a parent counts them as
its framework does: LlamaIndex's ``HierarchicalNodeParser`` splits each parent node as if it were a document, so
a child's ``start_char_idx`` counts in its parent's text.  Which of the two a unit uses is read from the texts --
its text found at its offsets in its parent's text (relative) or in its parent's span of the document (absolute)
-- and a unit whose text is at neither is refused, never placed by guess.

**The hierarchy** (:class:`NodeHierarchy`: every node a parser built, and the documents where given) is each
document's tree: its nodes nested as their parents say, labelled by level (``l1`` the largest chunks), so that SR
and ESR navigate what an auto-merging retriever navigates.  A file of it (JSON lines of the documents and the
nodes, in any of the shapes above) is a collection (``--collection``): a record with a text and no offsets is a
document.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import numpy as np

from ..errors import GraphsrInputError, RunFormatError
from .first_records import is_nodes_record

__all__ = ["Unit", "unit_of", "NodeHierarchy", "read_hierarchy", "retrieved_run", "is_nodes_record", "spans_of"]


@dataclass(frozen=True)
class Unit:
    """One node or document: its id, its document, its offsets as given, its parent's id and its text."""

    node_id: str
    doc: str
    start: int | None
    end: int | None
    parent: str | None
    text: str | None

    @property
    def is_document(self) -> bool:
        return self.start is None and self.parent is None and self.text is not None


def _get(obj: Any, *names: str, default=None):
    """The first of ``names`` an object has as an attribute, or a dict as a key."""
    for name in names:
        if isinstance(obj, Mapping):
            if name in obj:
                return obj[name]
        elif hasattr(obj, name):
            return getattr(obj, name)
    return default


def _related(node: Any, kind: str) -> str | None:
    """A LlamaIndex node's related node id (``kind``: ``"1"`` SOURCE, ``"4"`` PARENT)."""
    if isinstance(node, Mapping):
        rel = (node.get("relationships") or {}).get(kind)
        return None if rel is None else str(rel.get("node_id"))
    attr = {"1": "source_node", "4": "parent_node"}[kind]
    rel = getattr(node, attr, None)
    return None if rel is None else str(rel.node_id)


def _int(value: Any, what: str, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise GraphsrInputError(f"{where}: {what} must be an integer, got {value!r}")
    return int(value)


def unit_of(obj: Any, doc_key: str = "source", where: str = "a retrieved unit") -> tuple[Unit, float | None]:
    """The :class:`Unit` an object or dict is (see the module docstring), and its score where it has one."""
    score = None
    inner = _get(obj, "node")
    if inner is not None and _get(obj, "score", default="absent") != "absent":  # NodeWithScore
        score = _get(obj, "score")
        obj = inner
    if _get(obj, "start_char_idx", default="absent") != "absent" or _get(obj, "id_") is not None:  # LlamaIndex
        node_id = str(_get(obj, "node_id", "id_"))
        doc = _related(obj, "1") or _get(obj, "ref_doc_id")
        start = _int(_get(obj, "start_char_idx"), "start_char_idx", where)
        end = _int(_get(obj, "end_char_idx"), "end_char_idx", where)
        text = _get(obj, "text")
        if text is None and isinstance(obj, Mapping):  # (LlamaIndex 0.12+ writes a Document's text in a resource)
            text = (obj.get("text_resource") or {}).get("text")
        unit = Unit(node_id, str(doc if doc is not None else node_id), start, end, _related(obj, "4"), text)
    elif _get(obj, "page_content") is not None:  # LangChain
        meta = _get(obj, "metadata") or {}
        text = _get(obj, "page_content")
        start = _int(meta.get("start_index"), "metadata start_index", where)
        doc = meta.get(doc_key)
        if doc is None:
            raise GraphsrInputError(f"{where}: a LangChain document without metadata[{doc_key!r}] (its document)")
        node_id = _get(obj, "id") or meta.get("id") or f"{doc}@{start}"
        unit = Unit(str(node_id), str(doc), start, None if start is None else start + len(text), None, text)
    elif _get(obj, "meta") is not None and _get(obj, "content", default="absent") != "absent":  # Haystack
        meta = _get(obj, "meta") or {}
        text = _get(obj, "content")
        start = _int(meta.get("split_idx_start"), "meta split_idx_start", where)
        doc = meta.get("source_id") or _get(obj, "id")
        end = None if start is None or text is None else start + len(text)
        parent = meta.get("__parent_id")
        unit = Unit(str(_get(obj, "id")), str(doc), start, end, None if parent is None else str(parent), text)
        score = _get(obj, "score") if score is None else score
    elif _get(obj, "doc_id") is not None:  # graphsr's own record
        start = _int(_get(obj, "start"), "start", where)
        end = _int(_get(obj, "end"), "end", where)
        parent = _get(obj, "parent_id")
        node_id = _get(obj, "node_id") or _get(obj, "doc_id")
        text = _get(obj, "text")
        unit = Unit(str(node_id), str(_get(obj, "doc_id")), start, end, None if parent is None else str(parent), text)
        score = _get(obj, "score") if score is None else score
    else:
        raise GraphsrInputError(
            f"{where}: not a retrieved unit graphsr reads (LlamaIndex's nodes, LangChain's or Haystack's documents, "
            "or {doc_id, start, end})"
        )
    if unit.start is not None and (unit.end is None or not 0 <= unit.start <= unit.end):
        raise GraphsrInputError(f"{where}: node {unit.node_id} has offsets [{unit.start}, {unit.end})")
    if score is not None and (isinstance(score, bool) or not isinstance(score, (int, float)) or score != score):
        raise GraphsrInputError(f"{where}: node {unit.node_id} has score {score!r}, not a number")
    return unit, None if score is None else float(score)


class NodeHierarchy:
    """Every node a parser built (and the documents, where given), each node's offsets in its document
    (:meth:`span`), and each document's tree (:meth:`tree`)."""

    def __init__(self, units: Iterable[Unit], source: str | None = None):
        self.source = source
        self.units: dict[str, Unit] = {}
        self.texts: dict[str, str] = {}
        for u in units:
            if u.is_document:
                self.texts[u.node_id] = u.text or ""
                continue
            if u.node_id in self.units:
                raise GraphsrInputError(f"{source or 'the hierarchy'}: node {u.node_id} is given twice")
            self.units[u.node_id] = u
        self._spans: dict[str, tuple[str, int, int]] = {}
        self._trees: dict = {}

    def span(self, node_id: str) -> tuple[str, int, int]:
        """``(document, start, end)`` of a node, in its document's characters (see the module docstring)."""
        got = self._spans.get(node_id)
        if got is not None:
            return got
        chain = []
        u: Unit | None = self.units.get(node_id)
        if u is None:
            raise GraphsrInputError(f"{self.source or 'the hierarchy'}: no node {node_id}")
        while u is not None and u.node_id not in self._spans:
            chain.append(u)
            u = self.units.get(u.parent) if u.parent is not None else None
            if u is None and chain[-1].parent is not None and chain[-1].parent not in self.texts:
                raise GraphsrInputError(
                    f"{self.source or 'the hierarchy'}: node {chain[-1].node_id}'s parent {chain[-1].parent} is "
                    "not in the hierarchy"
                )
        for unit in reversed(chain):
            self._spans[unit.node_id] = self._place(unit)
        return self._spans[node_id]

    def _place(self, u: Unit) -> tuple[str, int, int]:
        if u.start is None or u.end is None:
            raise GraphsrInputError(f"{self.source or 'the hierarchy'}: node {u.node_id} has no offsets")
        s, e, where = u.start, u.end, self.source or "the hierarchy"
        parent_id: str | None = u.parent
        doc = u.doc
        if parent_id is not None and parent_id in self.texts and parent_id not in self.units:
            doc = parent_id  # (its parent is its document: Haystack's first level)
            parent_id = None
        if parent_id is None:
            text = self.texts.get(doc)
            if text is not None and u.text is not None and text[s:e] != u.text:
                raise GraphsrInputError(f"{where}: node {u.node_id}'s text is not at [{s}, {e}) of document {doc}")
            return doc, s, e
        doc, ps, pe = self._spans[parent_id]
        parent = self.units[parent_id]
        if parent.text is not None and u.text is not None:
            if parent.text[s:e] == u.text and ps + e <= pe:
                return doc, ps + s, ps + e  # counted in the parent's text (LlamaIndex, Haystack)
            if ps <= s and e <= pe and parent.text[s - ps : e - ps] == u.text:
                return doc, s, e  # counted in the document
            raise GraphsrInputError(
                f"{where}: node {u.node_id}'s text is at [{s}, {e}) neither of its parent {parent_id}'s text nor "
                "of the document"
            )
        if ps <= s and e <= pe:
            return doc, s, e
        return doc, ps + s, ps + e

    def documents(self) -> list[str]:
        return sorted({self.span(n)[0] for n in self.units} | set(self.texts))

    def tree(self, doc: str):
        """The tree of document ``doc``: a ``doc`` root over its text, its nodes nested as their parents say
        (children in text order), labelled ``l1``, ``l2``, ... by level."""
        got = self._trees.get(doc)
        if got is not None:
            return got
        from ..core.document import DocumentTree

        nodes = [n for n in self.units if self.span(n)[0] == doc]
        children: dict[str | None, list[str]] = {}
        for n in nodes:
            up = self.units[n].parent
            children.setdefault(up if up in self.units else None, []).append(n)
        for kids in children.values():
            kids.sort(key=lambda k: (self.span(k)[1], -self.span(k)[2], k))
        length = max([self.span(n)[2] for n in nodes] + [len(self.texts.get(doc, ""))])
        tags = ["doc"]
        tag, parent, depth, position, start, end = [0], [-1], [1], [1], [0], [length]
        ids: list[str | None] = [None]
        stack = [(k, 0, 2) for k in reversed(children.get(None, []))]
        counters: dict[int, dict[str, int]] = {}
        while stack:
            n, par, d = stack.pop()
            label = f"l{d - 1}"
            if label not in tags:
                tags.append(label)
            pos = counters.setdefault(par, {}).get(label, 0) + 1
            counters[par][label] = pos
            _, s, e = self.span(n)
            i = len(tag)
            tag.append(tags.index(label))
            parent.append(par)
            depth.append(d)
            position.append(pos)
            start.append(s)
            end.append(e)
            ids.append(n)
            stack.extend((k, i, d + 1) for k in reversed(children.get(n, [])))
        a = [np.asarray(x) for x in (tag, parent, depth, position, start, end)]
        tree = DocumentTree(doc, tuple(tags), a[0], a[1], a[2], a[3], a[4], a[5], self.source)
        self._trees[doc] = (tree, {n: k for k, n in enumerate(ids) if n is not None})
        return self._trees[doc]

    def xpath(self, node_id: str) -> tuple[str, str]:
        """``(document, XPath)`` of a node in its document's tree."""
        doc = self.span(node_id)[0]
        tree, index = self.tree(doc)
        return doc, tree.xpath(index[node_id])


def read_hierarchy(nodes: Any, doc_key: str = "source") -> NodeHierarchy:
    """A :class:`NodeHierarchy` from a parser's nodes (objects or dicts) and documents, or from a JSON lines file
    of them."""
    if isinstance(nodes, (str, os.PathLike)):
        from .records import read_records

        units = [unit_of(r, doc_key, f"{nodes}:{line}")[0] for line, r in read_records(str(nodes), GraphsrInputError)]
        return NodeHierarchy(units, str(nodes))
    return NodeHierarchy((unit_of(n, doc_key)[0] for n in nodes), None)


def spans_of(results: Mapping[str, Iterable[Any]], hierarchy: NodeHierarchy | None = None, doc_key: str = "source"):
    """``(query, document, start, end, score, rank)`` of every retrieved unit, in the order retrieved, offsets in
    the documents' characters (through ``hierarchy`` for a unit with a parent)."""
    rows = []
    for query, got in results.items():
        for rank, obj in enumerate(got, 1):
            unit, score = unit_of(obj, doc_key, f"query {query}, result {rank}")
            if unit.parent is not None:
                if hierarchy is None:
                    raise GraphsrInputError(
                        f"query {query}, result {rank}: node {unit.node_id} has a parent, so its offsets count in "
                        "its parent's text: give the hierarchy the parser built (nodes=...) to place it"
                    )
                doc, start, end = hierarchy.span(unit.node_id)
            elif hierarchy is not None and unit.node_id in hierarchy.units:
                doc, start, end = hierarchy.span(unit.node_id)
            else:
                if unit.start is None or unit.end is None:
                    raise GraphsrInputError(f"query {query}, result {rank}: node {unit.node_id} has no offsets")
                doc, start, end = unit.doc, unit.start, unit.end
            rows.append((str(query), doc, start, end, score, rank))
    return rows


def retrieved_run(
    results: Mapping[str, Iterable[Any]] | str | os.PathLike,
    nodes: Any = None,
    name: str = "run",
    doc_key: str = "source",
):
    """A span run (:class:`~graphsr.core.fol.FOLRun`) of what a retriever returned: ``{query_id: [units]}`` in
    the order retrieved, or a JSON lines file of them (each record a unit, with its ``query_id``);
    ``nodes``: the hierarchy (:func:`read_hierarchy`'s input, or a :class:`NodeHierarchy`) for units with
    parents.  Ranked by score where every unit has one and they do not rise down the list, else as retrieved.

    Raises
    ------
    GraphsrInputError
        A unit graphsr cannot read or place (see the module docstring).
    """
    from ..core.fol import FOLRun

    source = ""
    if isinstance(results, (str, os.PathLike)):
        source = str(results)
        results = _results_file(source)
        name = source if name == "run" else name
    hierarchy = nodes if isinstance(nodes, NodeHierarchy) or nodes is None else read_hierarchy(nodes, doc_key)
    rows = spans_of(results, hierarchy, doc_key)
    ranked = []
    for q in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == q]
        scores = [r[4] for r in mine]
        by_score = all(s is not None for s in scores) and all(a >= b for a, b in zip(scores, scores[1:]))
        for k, (query, doc, start, end, score, rank) in enumerate(mine, 1):
            if end <= start:
                raise RunFormatError(f"query {query}, result {rank}: an empty span [{start}, {end})", source or None)
            ranked.append((query, doc, start, end, score if by_score else -float(k), k))
    return FOLRun.from_columns(
        name,
        [r[0] for r in ranked],
        [r[1] for r in ranked],
        [r[5] for r in ranked],
        [r[4] for r in ranked],
        [r[2] for r in ranked],
        [r[3] - r[2] for r in ranked],
        list(range(1, len(ranked) + 1)),
        None,
        source,
        None,
        ranked=True,
    )


def _results_file(path: str) -> dict[str, list]:
    from .records import read_records

    results: dict[str, list] = {}
    for line, record in read_records(path, RunFormatError):
        query = record.get("query_id")
        if query is None:
            raise RunFormatError("a retrieved unit without its query_id", path, line)
        results.setdefault(str(query), []).append(record)
    return results


def write_spans(rows, path: str | os.PathLike) -> int:
    """Write :func:`spans_of`'s rows as graphsr's span run (JSON lines); the number of lines written."""
    with open(path, "w", encoding="utf-8") as fh:
        for query, doc, start, end, score, rank in rows:
            record = {"query_id": query, "doc_id": doc, "start": start, "end": end, "rank": rank}
            if score is not None:
                record["score"] = score
            fh.write(json.dumps(record) + "\n")
    return len(rows)
