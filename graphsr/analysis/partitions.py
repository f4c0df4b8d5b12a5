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
from ..core.document import resolve_node

__all__ = [
    "Partitions",
    "partitions",
    "coverage",
    "memory_partitions",
    "stored_partitions",
    "partition_table",
    "partition_row",
    "partition_page",
    "partition_elements",
    "partition_coverage",
    "coverage_counts",
    "coverage_documents",
    "named_documents",
    "PAGE_COLUMNS",
]


@dataclass
class Partitions:
    """A summary, pi over its nodes, and where the elements come from."""

    summary: object
    pi: object
    model: str
    source: str
    collection: str | None = None  # a path (memory) or a stored collection's name
    store: object = None


def partitions(collection, kind: str = "p*", model: str | None = None, store=None):
    """Every partition (summary node) of a collection as a DataFrame: sid, key, extent_size,
    content_length, pi under ``model``, in_edges and out_edges (``S2:pairs``), as ``graphsr partitions``.

    Parameters
    ----------
    collection : LoadedCollection, path-like or str
        A collection read by :func:`graphsr.load_collection` (its ``kind`` summary is used as built),
        a collection's path (read now), or, with ``store``, a stored collection's name.
    kind : str
        Summary kind: ``p*``, ``p*|c``, ``c`` or ``tag``.
    model : str, optional
        ``KIND:WEIGHT`` (default ``KIND:extent``); with a store, a stored model's name or a weight.
    store : GraphStore, optional

    Examples
    --------
    >>> import graphsr
    >>> table = graphsr.partitions(graphsr.sample("mobydick")["collection"], "p*")
    >>> table.loc[:2, ["sid", "key", "extent_size"]].values.tolist()
    [['S1', '/book', 1], ['S2', '/book/fm', 1], ['S3', '/book/fm/description', 3]]
    """
    return partition_table(_partitions(collection, kind, model, store))


def _partitions(collection, kind, model, store) -> Partitions:
    if store is not None:
        return stored_partitions(store, str(collection), kind, model)
    return memory_partitions(collection, kind, model)


def coverage(collection, qrels, runs, kind: str = "p*", model: str | None = None, store=None):
    """Per run and partition: retrieved, relevant, relevant retrieved and relevant reachable by navigation,
    as ``graphsr coverage`` (see :func:`partition_coverage`); ``collection``, ``kind``, ``model`` and
    ``store`` as in :func:`partitions`; ``qrels`` and ``runs`` read by graphsr (one run or a list)."""
    runs = runs if isinstance(runs, (list, tuple)) else [runs]
    return partition_coverage(_partitions(collection, kind, model, store), qrels, runs)


def memory_partitions(collection, kind: str = "p*", model: str | None = None, progress: bool = False) -> Partitions:
    """Partitions of a collection in memory: a path (read now) or a
    :class:`~graphsr.evaluation.collection.LoadedCollection` holding the ``kind`` summary; ``model``:
    ``SUMMARY:WEIGHT`` (its summary must be ``kind``)."""
    from ..navigation import build_sr_model, parse_model_spec
    from ..summaries import summarize_collection

    spec = parse_model_spec(model or f"{kind}:extent")
    if spec.summary != kind:
        raise GraphsrInputError(f"model {spec} is over the {spec.summary} summary, not {kind}")
    summaries = getattr(collection, "summaries", None)
    if summaries is not None:  # a LoadedCollection
        if kind not in summaries:
            raise GraphsrInputError(
                f"the collection was read without the {kind} summary (load_collection(..., kinds=[{kind!r}]))"
            )
        summary, path = summaries[kind], collection.path
    else:
        summary, path = summarize_collection(collection, [kind], progress=progress)[kind], str(collection)
    return Partitions(summary, build_sr_model(summary, spec.weight).pi, str(spec), "memory", path)


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


PAGE_COLUMNS = ("docid", "node", "xpath", "length")


def _edge_lists(s) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """Each summary node's in and out edges as ``S2:pairs`` strings."""
    ins: dict[int, list[str]] = {}
    outs: dict[int, list[str]] = {}
    for a, b, n in zip(s.edge_src.tolist(), s.edge_dst.tolist(), s.edge_pairs.tolist()):
        outs.setdefault(a, []).append(f"S{b + 1}:{n}")
        ins.setdefault(b, []).append(f"S{a + 1}:{n}")
    return ins, outs


def partition_row(p: Partitions, sid: str) -> dict:
    """One partition's row of :func:`partition_table`, as plain values."""
    k = _sid(p, sid)
    s = p.summary
    ins, outs = _edge_lists(s)
    return {
        "sid": f"S{k + 1}",
        "key": s.label(k),
        "extent_size": int(s.extent_size[k]),
        "content_length": s.content_length[k].item(),
        "pi": float(p.pi[k]),
        "in_edges": " ".join(ins.get(k, [])),
        "out_edges": " ".join(outs.get(k, [])),
    }


def partition_table(p: Partitions):
    """One row per summary node: sid, key, extent_size, content_length, pi, in and out edges (``S2:pairs``)."""
    import pandas as pd

    s = p.summary
    ins, outs = _edge_lists(s)
    return pd.DataFrame(
        {
            "sid": [f"S{k + 1}" for k in range(len(s))],
            "key": [s.label(k) for k in range(len(s))],
            "extent_size": s.extent_size,
            "content_length": s.content_length,
            "pi": p.pi,
            "in_edges": [" ".join(ins.get(k, [])) for k in range(len(s))],
            "out_edges": [" ".join(outs.get(k, [])) for k in range(len(s))],
        }
    )


def _sid(p: Partitions, sid: str) -> int:
    text = sid[1:] if sid[:1] in "Ss" else sid
    if not text.isdigit() or not 1 <= int(text) <= len(p.summary):
        raise GraphsrInputError(f"expected a summary node S1 .. S{len(p.summary)}, got {sid!r}")
    return int(text) - 1


def partition_page(
    p: Partitions, sid: str, limit: int | None = None, offset: int = 0
) -> tuple[list[tuple[str, int, str, int]], int]:
    """The elements of one summary node as rows (docid, node, XPath, length; :data:`PAGE_COLUMNS`) in document
    order, paged, and how many it has in all."""
    k = _sid(p, sid)
    if p.store is not None:  # paged in the database
        from ..store.extents import summary_extent_page

        page, total = summary_extent_page(p.store, p.collection, p.summary.kind.name, p.summary.label(k), offset, limit)
        return [(d, pre - 1, xp, n) for d, pre, xp, n in page], total
    from ..io.collection import iter_documents

    rows = []
    for doc in iter_documents(p.collection):
        for i in (p.summary.assign(doc) == k).nonzero()[0].tolist():
            rows.append((doc.docid, i, doc.xpath(i), int(doc.length[i])))
    rows.sort(key=lambda r: (r[0], r[1]))
    end = None if limit is None else offset + limit
    return rows[offset:end], len(rows)


def partition_elements(p: Partitions, sid: str, limit: int | None = None, offset: int = 0):
    """The elements of one summary node (document, XPath, length), in document order, paged: a DataFrame
    and how many the node has in all."""
    import pandas as pd

    rows, total = partition_page(p, sid, limit, offset)
    return pd.DataFrame(rows, columns=list(PAGE_COLUMNS)), total


def partition_coverage(p: Partitions, qrels, runs):
    """Per run and partition: the elements the run retrieves there, the relevant assessed elements
    there, the relevant ones it retrieves, and the relevant ones it does not retrieve but a user reaches by
    navigation -- their expected number under the SR model: a relevant element ``e`` of a document from which
    the run retrieves ``m`` elements for the topic is reached with probability ``1 - (1 - q_e)^m``,
    ``q_e = 1 - pi(S(e))`` (SR Eq 7).  Counts are summed over the topics.  Runs are named as
    :func:`graphsr.evaluate` names them (their run ids).

    The documents come from the collection's files (memory) or are rebuilt
    from the stored elements (store; the documents the runs and assessments
    name must be stored with their elements).
    """
    import pandas as pd

    rows = []
    for name, counts, _ in coverage_counts(p, qrels, runs):
        for k in range(counts.shape[1]):
            if counts[:, k].any():
                rows.append(
                    {
                        "run": name,
                        "sid": f"S{k + 1}",
                        "key": p.summary.label(k),
                        "retrieved": int(counts[0, k]),
                        "relevant": int(counts[1, k]),
                        "relevant_retrieved": int(counts[2, k]),
                        "relevant_reachable": float(counts[3, k]),
                    }
                )
    return pd.DataFrame(
        rows, columns=["run", "sid", "key", "retrieved", "relevant", "relevant_retrieved", "relevant_reachable"]
    )


def coverage_counts(p: Partitions, qrels, runs, by_topic: bool = False, documents: dict | None = None):
    """The counts of :func:`partition_coverage` as arrays: per run ``(name, counts, topics)``, ``counts`` of shape
    (4, summary nodes) -- retrieved, relevant, relevant retrieved, relevant reachable, summed over the topics --
    and, with ``by_topic``, ``topics[topic]`` the same counts of each topic the run answers (else None).  The
    sums are taken in one fixed order, so the totals are the same to the last digit however they are asked.
    ``documents`` (docid: tree), when given, holds the documents the runs and assessments name."""
    import numpy as np

    from ..evaluation.entry import run_labels

    docs = documents if documents is not None else coverage_documents(p, qrels, runs)
    sids = {d: p.summary.assign(doc) for d, doc in docs.items()}
    q = 1.0 - np.asarray(p.pi, dtype=float)
    n = len(p.summary)

    def node(docid: str, xpath: str) -> int:
        return resolve_node(docs, docid, xpath)

    relevant = {t: {(d, node(d, x)) for (d, x), v in judged.items() if v > 0} for t, judged in qrels.judgments.items()}
    out = []
    for run, name in zip(runs, run_labels(runs)):
        counts = np.zeros((4, n))
        topics: dict[str, np.ndarray] | None = {} if by_topic else None
        for topic, results in run.results.items():
            mine = topics.setdefault(topic, np.zeros((4, n))) if topics is not None else None
            got = {(r.docid, node(r.docid, x)) for r in results for x in r.xpaths}
            for d, i in got:
                counts[0, sids[d][i]] += 1
                if mine is not None:
                    mine[0, sids[d][i]] += 1
            per_doc: dict[str, int] = {}
            for d, _ in got:
                per_doc[d] = per_doc.get(d, 0) + 1
            for d, i in sorted(relevant.get(topic, ())):  # a fixed order: sums equal to the last digit
                s = sids[d][i]
                row, value = (
                    (2, 1.0)
                    if (d, i) in got
                    else (3, 1.0 - (1.0 - q[s]) ** per_doc[d])
                    if d in per_doc
                    else (None, 0.0)
                )
                if row is not None:
                    counts[row, s] += value
                    if mine is not None:
                        mine[row, s] += value
        for topic, rel in relevant.items():
            if topic in run.results:
                for d, i in rel:
                    counts[1, sids[d][i]] += 1
                    if topics is not None:
                        topics[topic][1, sids[d][i]] += 1
        out.append((name, counts, topics))
    return out


def coverage_documents(p: Partitions, qrels, runs) -> dict:
    """The documents (docid: tree) the assessments and runs name, from the collection's files or the store."""
    return named_documents(p, qrels.docids().union(*(r.docids() for r in runs)))


def named_documents(p: Partitions, wanted: set[str]) -> dict:
    """The documents (docid: tree) of ``wanted``, from the collection's files or the store."""
    if p.store is not None:
        from ..store.trees import stored_trees

        return stored_trees(p.store, p.collection, wanted)
    from ..io.collection import iter_documents

    return {d.docid: d for d in iter_documents(p.collection, docids=wanted.__contains__)}
