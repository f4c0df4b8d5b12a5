"""Summary partitions: which structural types a collection has, how big, how likely navigation into them is
(pi), and which elements fall in one -- from a collection read in memory or from the graph store, through
the same functions.

A partition is a summary node: SID, its key in readable form (label path
and, for ``p*|c`` and ``c``, the child labels), its extent (elements),
content length, pi under a navigation model, and its edges in the summary
graph with their weights.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import GraphsrInputError

__all__ = ["Partitions", "memory_partitions", "stored_partitions", "partition_table", "partition_elements"]


@dataclass
class Partitions:
    """A summary, pi over its nodes, and where the elements come from."""

    summary: object
    pi: object
    model: str
    source: str
    collection: str | None = None  # a path (memory) or a stored collection's name
    store: object = None


def memory_partitions(collection, kind: str = "p*", model: str | None = None, progress: bool = False) -> Partitions:
    """Partitions of a collection read in memory; ``model``: ``SUMMARY:WEIGHT`` (its summary must be ``kind``)."""
    from ..navigation import build_sr_model, parse_model_spec
    from ..summaries import summarize_collection

    spec = parse_model_spec(model or f"{kind}:extent")
    if spec.summary != kind:
        raise GraphsrInputError(f"model {spec} is over the {spec.summary} summary, not {kind}")
    summary = summarize_collection(collection, [kind], progress=progress)[kind]
    return Partitions(summary, build_sr_model(summary, spec.weight).pi, str(spec), "memory", str(collection))


def stored_partitions(store, collection: str, kind: str = "p*", model: str | None = None) -> Partitions:
    """Partitions of a stored collection; ``model``: a stored model's name, or a weight scheme (default extent)."""
    from ..navigation import build_sr_model
    from ..navigation.stored import load_stored_model
    from ..store.services import stored_summary

    summary = stored_summary(store, collection, kind)
    if model and model not in ("extent", "length", "uniform"):
        stored = load_stored_model(store, model)
        if len(stored.pi) != len(summary):
            raise GraphsrInputError(f"model {model!r} is not over the {kind} summary of {collection!r}")
        return Partitions(summary, stored.pi, model, store.url, collection, store)
    weight = model or "extent"
    return Partitions(summary, build_sr_model(summary, weight).pi, f"{kind}:{weight}", store.url, collection, store)


def partition_table(p: Partitions):
    """One row per summary node: sid, key, extent_size, content_length, pi, in and out edges (``S2:pairs``)."""
    import pandas as pd

    s = p.summary
    ins: dict[int, list[str]] = {}
    outs: dict[int, list[str]] = {}
    for a, b, n in zip(s.edge_src.tolist(), s.edge_dst.tolist(), s.edge_pairs.tolist()):
        outs.setdefault(a, []).append(f"S{b + 1}:{n}")
        ins.setdefault(b, []).append(f"S{a + 1}:{n}")
    return pd.DataFrame({"sid": [f"S{k + 1}" for k in range(len(s))], "key": [s.label(k) for k in range(len(s))],
                         "extent_size": s.extent_size, "content_length": s.content_length, "pi": p.pi,
                         "in_edges": [" ".join(ins.get(k, [])) for k in range(len(s))],
                         "out_edges": [" ".join(outs.get(k, [])) for k in range(len(s))]})


def _sid(p: Partitions, sid: str) -> int:
    text = sid[1:] if sid[:1] in "Ss" else sid
    if not text.isdigit() or not 1 <= int(text) <= len(p.summary):
        raise GraphsrInputError(f"expected a summary node S1 .. S{len(p.summary)}, got {sid!r}")
    return int(text) - 1


def partition_elements(p: Partitions, sid: str, limit: int | None = None, offset: int = 0):
    """The elements of one summary node (document, XPath, length), in document order, paged."""
    import pandas as pd

    k = _sid(p, sid)
    rows = []
    if p.store is not None:
        from ..store.services import stored_document, summary_extent

        docs = {}
        for docid, pre in summary_extent(p.store, p.collection, p.summary.kind.name, p.summary.label(k)):
            doc = docs.get(docid) or docs.setdefault(docid, stored_document(p.store, p.collection, docid))
            rows.append((docid, pre - 1, doc.xpath(pre - 1), int(doc.length[pre - 1])))
    else:
        from ..io.collection import iter_documents

        for doc in iter_documents(p.collection):
            for i in (p.summary.assign(doc) == k).nonzero()[0].tolist():
                rows.append((doc.docid, i, doc.xpath(i), int(doc.length[i])))
    rows.sort(key=lambda r: (r[0], r[1]))
    end = None if limit is None else offset + limit
    frame = pd.DataFrame(rows[offset:end], columns=["docid", "node", "xpath", "length"])
    return frame, len(rows)
