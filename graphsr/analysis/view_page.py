"""The view's page: its data packed small (:func:`pack`), and the self-contained HTML page that draws it
(:func:`page`) as a labelled tree one expands, DescribeX's way of showing a summary.

The packed form holds what :func:`~.view.view_data` gives, no more and no less (:func:`unpack` gives it back,
tested), in columns rather than records, so that a page of 4,000 partitions and three runs of 50 topics x 1,000
results stays a few megabytes:

* ``nodes``: one list per field, in the summary's order (a node's index is its SID's number less one);
  ``parent`` an index or -1;
* ``edges`` and ``route_edges``: ``source``, ``target`` (indices) and their numbers, one list each;
* ``counts[run]`` and ``topic_counts[run][topic]``: ``[indices, retrieved, relevant, relevant retrieved,
  relevant reachable]``, the nodes with any;
* ``elements``: the listed elements of every node, node after node (``start[k]`` to ``start[k + 1]``), each as
  ``doc`` (an index into ``docs``, the documents' names sorted, less the index of the element before it in the
  same node: listings run in document order, so most are 0 or small), ``node``, ``length`` and its XPath
  front-coded: the first ``keep`` UTF-16 code units of the XPath before it in the same node, then ``tail`` (a
  node's first keeps none), so that a page decodes one node's listing when it is opened;
* ``judged[topic]``: ``[elements, grades]``; ``retrieved[run][topic]``: ``[elements, ranks]``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

__all__ = ["PAGE_FORMAT", "pack", "unpack", "page"]

#: The version of the packed layout, in its ``format`` field.
PAGE_FORMAT = "graphsr-page/1"

_TEMPLATE = Path(__file__).parent / "templates" / "view.html"
_NODE_FIELDS = ("label", "tag", "depth", "extent", "content_length", "pi", "assessed", "relevant")
_SCALARS = ("graphsr", "collection", "source", "kind", "model", "transitions", "routes", "counts_order")


def _units(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (what a JavaScript string's ``slice`` counts)."""
    return len(text.encode("utf-16-le")) // 2


def _shared(a: str, b: str) -> int:
    """The number of leading characters ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    k = 0
    while k < n and a[k] == b[k]:
        k += 1
    return k


def _edges(edges: list[dict], index: dict, fields: tuple[str, ...]) -> dict:
    out = {"source": [index[e["source"]] for e in edges], "target": [index[e["target"]] for e in edges]}
    for f in fields:
        out[f] = [e[f] for e in edges]
    return out


def _sparse(table: dict, index: dict) -> list[list]:
    keys = sorted(table, key=index.__getitem__)
    return [[index[s] for s in keys], *([table[s][c] for s in keys] for c in range(4))]


def pack(data: dict) -> dict:
    """The view's data (:func:`~.view.view_data`) in the page's packed layout (see the module docstring)."""
    sids = [n["sid"] for n in data["nodes"]]
    index = {s: k for k, s in enumerate(sids)}
    nodes = {f: [n[f] for n in data["nodes"]] for f in _NODE_FIELDS}
    nodes["parent"] = [-1 if n["parent"] is None else index[n["parent"]] for n in data["nodes"]]
    edge_fields = ("pairs", "transition", "back") if data["transitions"] else ("pairs",)
    docs = {d: k for k, d in enumerate(sorted({row[0] for rows in data["elements"].values() for row in rows}))}
    start: list[int] = [0]
    doc: list[int] = []
    node: list[int] = []
    length: list[int] = []
    keep: list[int] = []
    tail: list[str] = []
    judged: dict[str, list] = {}
    retrieved: dict[str, dict] = {r: {} for r in data["runs"]}
    for sid in sids:
        previous, before = "", 0
        for d, i, xpath, size, grades, ranks in data["elements"].get(sid, []):
            e = len(doc)
            doc.append(docs[d] - before)
            before = docs[d]
            node.append(i)
            length.append(size)
            k = _shared(previous, xpath)
            keep.append(_units(xpath[:k]))
            tail.append(xpath[k:])
            previous = xpath
            for t, v in grades.items():
                pair = judged.setdefault(t, [[], []])
                pair[0].append(e)
                pair[1].append(v)
            for r, by_topic in ranks.items():
                for t, rank in by_topic.items():
                    pair = retrieved.setdefault(r, {}).setdefault(t, [[], []])
                    pair[0].append(e)
                    pair[1].append(rank)
        start.append(len(doc))
    for by_topic in retrieved.values():
        for t, (es, ranks) in by_topic.items():
            order = sorted(range(len(es)), key=lambda j: (ranks[j], es[j]))
            by_topic[t] = [[es[j] for j in order], [ranks[j] for j in order]]
    return {
        "format": PAGE_FORMAT,
        **{k: data[k] for k in _SCALARS},
        "sids": sids,
        "nodes": nodes,
        "edges": _edges(data["edges"], index, edge_fields),
        "route_edges": _edges(data.get("route_edges", []), index, ("transition",)),
        "runs": data["runs"],
        "topics": data["topics"],
        "counts": {r: _sparse(data["counts"][r], index) for r in data["runs"]},
        "topic_counts": {
            r: {t: _sparse(table, index) for t, table in data["topic_counts"][r].items()} for r in data["runs"]
        },
        "docs": list(docs),
        "elements": {"start": start, "doc": doc, "node": node, "length": length, "keep": keep, "tail": tail},
        "judged": judged,
        "retrieved": retrieved,
        "elements_per_node": data["elements_per_node"],
    }


def unpack(packed: dict, view_format: str) -> dict:
    """The view's data again from its packed layout (what the page decodes; tests compare the two)."""
    sids = packed["sids"]
    nodes = packed["nodes"]
    out_nodes = []
    for k, sid in enumerate(sids):
        row = {"sid": sid, **{f: nodes[f][k] for f in _NODE_FIELDS}}
        row["parent"] = None if nodes["parent"][k] < 0 else sids[nodes["parent"][k]]
        out_nodes.append(row)

    def edges(columns: dict) -> list[dict]:
        fields = [f for f in columns if f not in ("source", "target")]
        return [
            {"source": sids[a], "target": sids[b], **{f: columns[f][j] for f in fields}}
            for j, (a, b) in enumerate(zip(columns["source"], columns["target"]))
        ]

    def table(sparse: list[list]) -> dict:
        return {sids[k]: [sparse[c][j] for c in range(1, 5)] for j, k in enumerate(sparse[0])}

    el = packed["elements"]
    grades: dict[int, dict] = {}
    for t, (es, vs) in packed["judged"].items():
        for e, v in zip(es, vs):
            grades.setdefault(e, {})[t] = v
    ranks: dict[int, dict] = {}
    for r, by_topic in packed["retrieved"].items():
        for t, (es, rs) in by_topic.items():
            for e, rank in zip(es, rs):
                ranks.setdefault(e, {}).setdefault(r, {})[t] = rank
    elements: dict[str, list] = {}
    for k, sid in enumerate(sids):
        previous, d = b"", 0
        for e in range(el["start"][k], el["start"][k + 1]):
            d += el["doc"][e]
            xpath = previous[: 2 * el["keep"][e]].decode("utf-16-le") + el["tail"][e]
            previous = xpath.encode("utf-16-le")
            listed = [packed["docs"][d], el["node"][e], xpath, el["length"][e], grades.get(e, {}), ranks.get(e, {})]
            elements.setdefault(sid, []).append(listed)
    return {
        "format": view_format,
        **{k: packed[k] for k in _SCALARS},
        "nodes": out_nodes,
        "edges": edges(packed["edges"]),
        "route_edges": edges(packed["route_edges"]),
        "runs": packed["runs"],
        "topics": packed["topics"],
        "counts": {r: table(packed["counts"][r]) for r in packed["runs"]},
        "topic_counts": {r: {t: table(s) for t, s in packed["topic_counts"][r].items()} for r in packed["runs"]},
        "element_fields": ["docid", "node", "xpath", "length", "judged", "retrieved"],
        "elements": elements,
        "elements_per_node": packed["elements_per_node"],
    }


def page(data: dict) -> str:
    """The self-contained HTML page of the view's data (its strings already made safe): the packed data in a
    ``<script type="application/json" id="graphsr-data">``, drawn by the page's own script, which loads
    nothing."""
    embedded = json.dumps(pack(data), ensure_ascii=False, separators=(",", ":")).replace(
        "<", "\\u003c"
    )  # (no "</script" or "<!--")
    title = f"{data['kind']} summary of {Path(data['collection']).name or data['collection']}"
    parts = {"TITLE": _escape(title), "DATA": embedded}
    return re.sub(r"\{\{(TITLE|DATA)\}\}", lambda m: parts[m.group(1)], _TEMPLATE.read_text(encoding="utf-8"))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
