"""A summary as something to explore: its nodes (partitions) with their extent and pi, its edges with the
navigation model's transition probabilities, and where assessments and runs fall on it -- as data (JSON, GraphML,
GEXF) and as one self-contained HTML page (``graphsr view``).

The data is built from the same pieces the other commands use: the partitions of :mod:`.partitions` (summary
and pi), the coverage counts of :func:`~.partitions.coverage_counts` (equal, per run, to ``graphsr coverage``),
and a partition's elements in document order as ``graphsr partition`` lists them.  A page embeds it as
``<script type="application/json" id="graphsr-data">``, packed by :mod:`.view_page`, and draws it with its own
script as a labelled tree one expands (the page loads nothing).
"""

from __future__ import annotations

import json
import os
import re

import numpy as np

from .partitions import Partitions, coverage_counts, coverage_documents, named_documents

__all__ = [
    "view_data",
    "route_transitions",
    "write_view",
    "view_graph",
    "VIEW_FORMATS",
    "DATA_FORMAT",
    "COUNTS",
    "ELEMENT_FIELDS",
]

#: What ``graphsr view --format`` writes.
VIEW_FORMATS = ("html", "json", "graphml", "gexf")

#: The version of the data's layout, in its ``format`` field.
DATA_FORMAT = "graphsr-view/1"

#: The counts per node and run, in this order.
COUNTS = ("retrieved", "relevant", "relevant_retrieved", "relevant_reachable")

#: A listed element's fields, in this order (``judged``: topic -> grade; ``retrieved``: run -> topic -> rank).
ELEMENT_FIELDS = ("docid", "node", "xpath", "length", "judged", "retrieved")


def _transitions(p: Partitions):
    """The model's transition matrix where the model is a weight scheme over the summary (else None)."""
    from ..navigation.steady_state import row_stochastic
    from ..navigation.weights import WEIGHT_SCHEMES, weight_matrix

    weight = p.model.rsplit(":", 1)[-1]
    if weight not in WEIGHT_SCHEMES or (":" in p.model and p.model.rsplit(":", 1)[0] != p.summary.kind.name):
        return None
    return row_stochastic(weight_matrix(p.summary, weight)).tocsr()


def _documents(p: Partitions):
    """A function giving the collection's documents (``docids``: a container to keep), from its files or from
    the store."""
    if p.store is not None:
        from ..store.extents import iter_stored_documents

        return lambda docids=None: iter_stored_documents(p.store, p.collection, docids)
    from ..io.collection import iter_documents

    return lambda docids=None: iter_documents(p.collection, docids=None if docids is None else docids.__contains__)


def _listing(p: Partitions, per_node: int) -> dict[int, list]:
    """Per summary node, its first ``per_node`` elements in document order (docid, then pre-order), as
    ``graphsr partition`` pages them, each ``[docid, node, xpath, length]``: one pass over the documents keeps
    each node's first, a second reads the XPaths of those kept."""
    listing: dict[int, list] = {}
    if per_node <= 0:
        return listing
    documents = _documents(p)
    for doc in documents():  # (in any order: each node's candidates are cut to its first now and then)
        sids = p.summary.assign(doc).tolist()
        for i, k in enumerate(sids):
            rows = listing.setdefault(k, [])
            rows.append((doc.docid, i))
            if len(rows) >= 4 * per_node:
                rows.sort()
                del rows[per_node:]
    wanted: dict[str, list] = {}
    for k, rows in listing.items():
        rows.sort()
        del rows[per_node:]
        for d, i in rows:
            wanted.setdefault(d, []).append((k, i))
    out: dict[int, list] = {k: [] for k in listing}
    for doc in documents(wanted):
        for k, i in wanted[doc.docid]:
            out[k].append([doc.docid, i, doc.xpath(i), int(doc.length[i])])
    for rows in out.values():
        rows.sort(key=lambda r: (r[0], r[1]))
    return out


def route_transitions(p: Partitions, routes=None, routes_model: str | None = None, effort: str = "count"):
    """The transition matrix over the summary's nodes of a navigation model learned from routes: from a log
    (``routes``, a :class:`~graphsr.core.routes.Routes`: its documents read from the collection or the store) or
    a stored route model over this summary (``routes_model``, with a store); and what it is, for the data."""
    from ..errors import GraphsrInputError
    from ..navigation.from_routes import route_model

    if routes_model is not None:
        if p.store is None:
            raise GraphsrInputError("a stored route model (--routes-model) is read from the store: give --store")
        from ..navigation.stored import load_stored_route_model
        from ..store.services import model_record

        record = model_record(p.store, routes_model)
        if record.get("kind") != p.summary.kind.name:
            raise GraphsrInputError(
                f"route model {routes_model!r} is over {record.get('kind')!r}, not the "
                f"{p.summary.kind.name} summary shown"
            )
        model = load_stored_route_model(p.store, routes_model, {})
        return model.nav.P.tocsr(), f"stored route model {routes_model!r} ({record.get('weight')})"
    model = route_model(routes, named_documents(p, routes.docids()), p.summary, effort)
    return model.nav.P.tocsr(), f"routes of {routes.source} ({effort})"


def view_data(p: Partitions, qrels=None, runs=(), elements_per_node: int = 20, routes=None) -> dict:
    """The view of partitions ``p`` (a summary and pi under a model) with where ``qrels`` and ``runs`` fall.

    Returns a dict of plain values (see the module docstring; ``graphsr view --format json`` writes it):

    * ``nodes``: per summary node ``sid``, ``label`` (its key), ``tag``, ``parent`` (the summary node it is
      reached from with the most element pairs; None for a root), ``depth``, ``extent``, ``content_length``,
      ``pi``, ``assessed`` and ``relevant`` (elements, summed over the topics);
    * ``edges``: per summary edge ``source``, ``target``, ``pairs`` and, where the model is a weight scheme over
      this summary, ``transition`` (the probability of the step) and ``back`` (of the step back);
    * ``runs``, ``topics``; ``counts[run][sid]``: :data:`COUNTS` summed over the topics (as ``graphsr coverage``);
      ``topic_counts[run][topic][sid]`` per topic (nodes with none left out);
    * with ``routes`` (``(matrix, what)`` as :func:`route_transitions` gives them), ``route_edges``: per pair
      of summary nodes a step joins, ``source``, ``target`` and ``transition``, the learned model's
      probability of the step, and ``routes``, what they were learned from;
    * ``elements[sid]``: the assessed or retrieved elements of the node, then its first ``elements_per_node``
      others in document order, each a row of :data:`ELEMENT_FIELDS` (named in ``element_fields``):
      ``[docid, node, xpath, length, {topic: grade}, {run: {topic: rank}}]``.
    """
    from .. import __version__
    from ..core.document import resolve_node
    from ..evaluation.entry import run_labels

    s = p.summary
    n = len(s)
    runs = list(runs)
    if qrels is None and runs:  # (runs alone: where they fall, nothing assessed)
        from ..core.qrels import ElementQrels

        qrels = ElementQrels({})
    docs = coverage_documents(p, qrels, runs) if qrels is not None else {}
    per_run = coverage_counts(p, qrels, runs, by_topic=True, documents=docs) if runs else []
    sids = {d: s.assign(doc) for d, doc in docs.items()}

    assessed, relevant = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    notes: dict[tuple[str, int], dict] = {}  # (docid, node): judged and retrieved

    def note(docid: str, i: int) -> dict:
        entry = notes.get((docid, i))
        if entry is None:
            entry = notes[(docid, i)] = {"judged": {}, "retrieved": {}}
        return entry

    if qrels is not None:
        for topic, judged in qrels.judgments.items():
            for (d, x), v in judged.items():
                i = resolve_node(docs, d, x)
                assessed[sids[d][i]] += 1
                relevant[sids[d][i]] += v > 0
                note(d, i)["judged"][str(topic)] = float(v)
    for run, name in zip(runs, run_labels(runs)):
        for topic, results in run.results.items():
            for r in results:
                for x in r.xpaths:
                    i = resolve_node(docs, r.docid, x)
                    ranks = note(r.docid, i)["retrieved"].setdefault(name, {})
                    ranks.setdefault(str(topic), int(r.rank))

    parent = [None] * n
    best = np.full(n, -1, dtype=np.int64)
    for a, b, pairs in zip(s.edge_src.tolist(), s.edge_dst.tolist(), s.edge_pairs.tolist()):
        if a != b and pairs > best[b]:
            best[b], parent[b] = pairs, a
    depth = [0] * n
    for k in range(n):  # along the parents, which the summary's keys order before their children for p*
        seen, j = 0, k
        while parent[j] is not None and seen <= n:
            j, seen = parent[j], seen + 1
        depth[k] = seen + 1
    nodes = []
    for k in range(n):
        key = s.readable_key(k)[0]
        tag = key[-1] if isinstance(key, tuple) and key else str(key)
        nodes.append(
            {
                "sid": f"S{k + 1}",
                "label": s.label(k),
                "tag": tag,
                "parent": None if parent[k] is None else f"S{parent[k] + 1}",
                "depth": depth[k],
                "extent": int(s.extent_size[k]),
                "content_length": int(s.content_length[k]),
                "pi": float(p.pi[k]),
                "assessed": int(assessed[k]),
                "relevant": int(relevant[k]),
            }
        )
    P = _transitions(p)
    edges = []
    for a, b, pairs in zip(s.edge_src.tolist(), s.edge_dst.tolist(), s.edge_pairs.tolist()):
        e = {"source": f"S{a + 1}", "target": f"S{b + 1}", "pairs": int(pairs)}
        if P is not None:
            e["transition"], e["back"] = float(P[a, b]), float(P[b, a])
        edges.append(e)

    route_edges = []
    if routes is not None:
        R = routes[0].tocoo()
        route_edges = [
            {"source": f"S{a + 1}", "target": f"S{b + 1}", "transition": float(v)}
            for a, b, v in sorted(zip(R.row.tolist(), R.col.tolist(), R.data.tolist()))
            if a < n and b < n and v > 0
        ]  # (a state past the summary's holds nodes it lacks)
    listing = _listing(p, elements_per_node)
    elements: dict[str, list] = {}
    for (d, i), entry in sorted(notes.items()):
        k = int(sids[d][i])
        elements.setdefault(f"S{k + 1}", []).append(
            [d, i, docs[d].xpath(i), int(docs[d].length[i]), entry["judged"], entry["retrieved"]]
        )
    for k, rows in sorted(listing.items()):
        listed = elements.setdefault(f"S{k + 1}", [])
        for d, i, x, length in rows:
            if (d, i) not in notes:
                listed.append([d, i, x, length, {}, {}])

    counts, topic_counts = {}, {}
    for name, total, topics in per_run:
        counts[name] = {f"S{k + 1}": [_plain(v) for v in total[:, k]] for k in range(n) if total[:, k].any()}
        topic_counts[name] = {
            str(t): {f"S{k + 1}": [_plain(v) for v in c[:, k]] for k in range(n) if c[:, k].any()}
            for t, c in topics.items()
        }
    topics = sorted(
        {str(t) for t in (qrels.judgments if qrels is not None else {})} | {str(t) for r in runs for t in r.results},
        key=_topic_order,
    )
    return {
        "format": DATA_FORMAT,
        "graphsr": __version__,
        "collection": str(p.collection),
        "source": p.source,
        "kind": s.kind.name,
        "model": p.model,
        "transitions": P is not None,
        "counts_order": list(COUNTS),
        "nodes": nodes,
        "edges": edges,
        "route_edges": route_edges,
        "routes": routes[1] if routes is not None else None,
        "runs": [name for name, _, _ in per_run],
        "topics": topics,
        "counts": counts,
        "topic_counts": topic_counts,
        "element_fields": list(ELEMENT_FIELDS),
        "elements": elements,
        "elements_per_node": elements_per_node,
    }


def _plain(v):
    v = float(v)
    return int(v) if v.is_integer() else v


def _topic_order(t: str):
    return (0, int(t), t) if t.isdigit() else (1, 0, t)


def view_graph(data: dict):
    """The view's data as a networkx DiGraph (what GraphML and GEXF are written from): nodes by SID with
    their fields and, per run, its counts (``<run>:<count>``); edges with pairs and transitions."""
    import networkx as nx

    g = nx.DiGraph(kind=data["kind"], model=data["model"], collection=data["collection"])
    for node in data["nodes"]:
        attrs = {k: v for k, v in node.items() if k != "sid" and v is not None}
        for run in data["runs"]:
            values = data["counts"][run].get(node["sid"], [0, 0, 0, 0])
            attrs.update({f"{run}:{c}": float(v) for c, v in zip(COUNTS, values)})
        g.add_node(node["sid"], **attrs)
    for e in data["edges"]:
        g.add_edge(e["source"], e["target"], **{k: v for k, v in e.items() if k not in ("source", "target")})
    for e in data.get("route_edges", []):  # a step the routes take: on its summary edge, or an edge of its own
        if g.has_edge(e["source"], e["target"]):
            g[e["source"]][e["target"]]["route_transition"] = e["transition"]
        else:
            g.add_edge(e["source"], e["target"], route_transition=e["transition"])
    return g


#: What no XML 1.0 document may hold (C0 controls but tab, newline and carriage return; lone surrogates, which
#: no UTF-8 file holds either; U+FFFE and U+FFFF).
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    r"""``text`` with each character no XML 1.0 document (and no UTF-8 file) may hold written as its escape:
    a control character ``\x01`` as the four characters ``\x01``, a lone surrogate ``\udc80`` as ``\udc80``.

    >>> safe_text("run\x01a"), safe_text("ok\ttab")
    ('run\\x01a', 'ok\ttab')
    """
    return _UNSAFE.sub(lambda m: _escaped(m.group()), text) if _UNSAFE.search(text) else text


def _safe(value):
    """The view's data with every string, keys included, made :func:`safe_text`."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, dict):
        return {_safe(k): _safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_safe(v) for v in value]
    return value


def write_view(data: dict, path: str | os.PathLike, form: str = "html") -> None:
    """Write the view's data as ``form``: ``html`` (the page), ``json``, ``graphml`` or ``gexf``.

    Every string (a run id, a document's name, the collection's path) is written as :func:`safe_text` makes
    it: characters that XML 1.0 forbids (control characters) or that UTF-8 cannot encode (lone surrogates, from
    file names that are not UTF-8) are written as their escapes, so that every format parses (GraphML and GEXF
    in networkx and Gephi, JSON in any reader), the same way in all four."""
    from ..io.atomic import atomic_write

    if form not in VIEW_FORMATS:
        raise ValueError(f"unknown view format {form!r}; expected one of {', '.join(VIEW_FORMATS)}")
    data = _safe(data)
    if form in ("graphml", "gexf"):
        import io

        import networkx as nx

        buffer = io.BytesIO()
        (nx.write_graphml if form == "graphml" else nx.write_gexf)(view_graph(data), buffer)
        text = buffer.getvalue().decode("utf-8")
    elif form == "json":
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    else:
        from .view_page import page

        text = page(data)
    with atomic_write(path, f"the view ({form})") as out:
        out.write(text)
