"""Loading collections and their summaries into a store (assessments, runs and routes: :mod:`.named`).

Every write is a MERGE on graphsr's own ids and keys (:mod:`graphsr.store.ids`)
in ``UNWIND`` batches, one transaction per batch: loading the same thing twice
changes nothing, and a load that was interrupted completes when run again.
Collections stream one chunk of documents at a time; summary statistics are
written once the pass is complete (SET, not increment, so re-runs agree).

Element nodes are optional: a collection's documents and summaries are always
stored, its elements (with ROOT and CHILD edges, and their summary
memberships as properties) for all documents (``elements='all'``), none, or a
given set of document ids (the documents that assessments, runs or routes
touch).  A document gets a code, unique in the store, when it is first
stored; its elements are keyed by it (:func:`~graphsr.store.ids.element_key`).
Elements are written per document: a document already complete is skipped,
any other has the leftovers of an interrupted load deleted and is written
afresh under the store's writer lock -- whole documents per statement, each
element created with its edges and no look-up --, or, on a store without a
lock (Neo4j), MERGEd on its unique key, so that two loads at once store
everything once (see ``cypher/collection.cypher``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import GraphsrInputError
from ..core.document import resolve_node
from ..core.qrels import ElementQrels
from ..core.run import Run
from ..summaries.summary import Summary
from .base import SCHEMA_VERSION, GraphStore, writes
from .ids import (
    collection_id,
    document_id,
    summary_id,
    summary_node_id,
)
from .collection_writes import ChangedCollection, CollectionLoad

__all__ = [
    "LoadReport",
    "store_collection",
    "store_summary",
    "run_name",
    "validate_references",
    "collection_id",
    "summary_id",
    "summary_node_id",
    "document_id",
]

#: Elements per chunk of a load under the writer lock (the local store), whose elements go in one statement:
#: the loader's peak stays about 260 MB (the real collection of bench/bench_real.py), and the server folds its
#: matrices half as often as with the 50,000 of a chunk elsewhere.
CHUNK_ELEMENTS_LOCKED = 100_000

#: Documents per chunk under the writer lock: the first chunks small, so that the server has its first statement
#: while the pass reads on (with 8,192 from the first, the server waited for the pass's first eighth of a load of
#: 60,000 small documents), then 8,192 a chunk.
CHUNK_DOCS_LOCKED = (512, 2048, 8192)


@dataclass
class LoadReport:
    """What a load read and wrote: ``documents`` and ``collection_elements`` the collection holds,
    ``elements`` and ``edges`` the rows sent (MERGE makes repeats no-ops)."""

    documents: int = 0
    elements: int = 0
    edges: int = 0
    summary_nodes: dict = field(default_factory=dict)
    seconds: float = 0.0
    collection_elements: int = 0
    replaced: bool = False
    #: With ``replaced``: what the collection held before, and was removed (:class:`Removed`).
    removed: "Removed | None" = None

    @property
    def items(self) -> int:
        return self.documents + self.elements + self.edges + sum(self.summary_nodes.values())


@dataclass
class Removed:
    """What replacing a collection removed: its ``documents`` and ``elements``, what depended on it
    (``dependants``: names by kind, see :func:`~graphsr.store.services.collection_dependants`), the ``nodes``
    removed in all, and the store's counts right after (``counts``: what the new collection's load starts from)."""

    documents: int
    elements: int
    dependants: dict
    nodes: int
    counts: dict

    def describe(self) -> str:
        deps = "".join(f", {_counted(k, v, 3)}" for k, v in self.dependants.items())
        return (
            f"removed its {self.documents:,} documents, {self.elements:,} stored elements{deps}; "
            f"{self.nodes:,} nodes in all"
        )


class DependantsError(GraphsrInputError):
    """A replace would remove what depends on the collection, and was not told to."""


_ONE = {"assessments": "set of assessments", "runs": "run", "studies": "study", "models": "model"}


def _counted(kind: str, names: list[str], shown: int) -> str:
    """``2 runs ('a', 'b')``: a kind of dependant counted, its first names shown."""
    word = _ONE[kind] if len(names) == 1 else ("sets of assessments" if kind == "assessments" else kind)
    more = ", ..." if len(names) > shown else ""
    return f"{len(names)} {word} ({', '.join(map(repr, names[:shown]))}{more})"


def replace_collection(store: GraphStore, name: str, drop_dependants: bool, path=None) -> Removed:
    """Drop collection ``name`` so that another takes its name, saying what went.  What depends on it
    (assessments, runs, studies, models) goes with it only with ``drop_dependants``: without, the replace is
    refused, naming them, before anything is removed -- they were made against the old documents, and may not
    resolve in the new ones.

    Raises
    ------
    DependantsError
        If something depends on the collection and ``drop_dependants`` is false.
    """
    from .services import collection_dependants, collection_info, count_elements, drop_collection

    info = collection_info(store, name)
    dependants = collection_dependants(store, name)
    if dependants and not drop_dependants:
        listed = "; ".join(_counted(k, v, 5) for k, v in dependants.items())
        raise DependantsError(
            f"collection {name!r} would be replaced, but {listed} depend on it: give "
            "--drop-dependants to remove them with it, or load the new collection under another "
            "--name",
            path,
        )
    codes = [int(r["code"]) for r in store.run("collection_codes", id=collection_id(name))]
    elements = count_elements(store, codes)
    nodes = drop_collection(store, name)
    return Removed(int(info.get("documents") or len(codes)), elements, dependants, nodes, store.counts())


def _summary_node_rows(summary: Summary, cname: str, kind: str) -> list[dict]:
    """The rows of merge_summary_nodes: every node of a summary, with its statistics."""
    sid_ = summary_id(cname, kind)
    rows = []
    for s in range(len(summary)):
        a, kids = summary.readable_key(s)
        label = summary.label(s)
        path = list(a) if isinstance(a, tuple) else []
        rows.append(
            {
                "id": summary_node_id(cname, kind, label),
                "summary": sid_,
                "sid": int(s),
                "label": label,
                "path": path,
                "tag": path[-1] if path else a,
                "children": sorted(kids) if kids else [],
                "has_children": kids is not None,
                "extent_size": int(summary.extent_size[s]),
                "content_length": int(summary.content_length[s]),
            }
        )
    return rows


@writes
def store_summary(store: GraphStore, summary: Summary, collection: str) -> None:
    """Write a summary: its node, its summary nodes with statistics, its edges."""
    kind = summary.kind.name
    sid_ = summary_id(collection, kind)
    store.run(
        "merge_summary",
        collection=collection_id(collection),
        id=sid_,
        kind=kind,
        nodes=len(summary),
        edges=len(summary.edge_src),
        documents=int(summary.num_documents),
        elements=int(summary.num_elements),
    )
    store.write("merge_summary_nodes", _summary_node_rows(summary, collection, kind))
    labels = summary.labels()
    store.write(
        "merge_summary_edges",
        [
            {
                "src": summary_node_id(collection, kind, labels[a]),
                "dst": summary_node_id(collection, kind, labels[b]),
                "pairs": int(n),
                "child_length": int(ln),
            }
            for a, b, n, ln in zip(
                summary.edge_src.tolist(),
                summary.edge_dst.tolist(),
                summary.edge_pairs.tolist(),
                summary.edge_child_length.tolist(),
            )
        ],
    )


@writes
def store_collection(
    store: GraphStore,
    path: str | os.PathLike,
    name: str | None = None,
    kinds: Iterable[str] = ("p*",),
    elements: str | Iterable[str] = "none",
    progress: bool = False,
    chunk_docs: int | None = None,
    chunk_elements: int | None = None,
    replace: bool = False,
    drop_dependants: bool = False,
) -> tuple[LoadReport, dict[str, Summary]]:
    """Load a collection, its summaries and (some of) its elements into a store.

    Parameters
    ----------
    store : GraphStore
    path : path-like
        The collection (directory, XML file or tar archive).
    name : str, optional
        The collection's name in the store; default: the directory name.
    kinds : iterable of str
        Summary kinds to build and store.
    elements : 'none', 'all' or iterable of docids
        Which documents' element nodes to store.
    progress : bool
        Progress bar on stderr.
    chunk_docs, chunk_elements : int, optional
        A chunk (parsed, summarised and written while the next is parsed) holds at most this many documents
        and elements (a larger document alone); default :data:`CHUNK_DOCS_LOCKED` (growing to 8,192) and
        :data:`CHUNK_ELEMENTS_LOCKED` under the writer lock, 256 and 50,000 otherwise.
    replace : bool
        If a collection of this name is stored with other documents, drop it and load this one in its place.
        Without it such a load is refused: a collection is never a mix of two.  The same documents again
        (same ids, same element counts) add what was not stored (elements, summary kinds), or resume an
        interrupted load.  ``report.removed`` says what the replace removed.
    drop_dependants : bool
        With ``replace``: remove what depends on the old collection (its assessments, runs, studies and models)
        with it.  Without, a replace of a collection that has some is refused, naming them, before anything is
        removed (:func:`replace_collection`).

    Returns
    -------
    (LoadReport, dict of str to Summary)
    """
    try:
        return _store_collection(
            store, path, name, kinds, elements, progress, chunk_docs, chunk_elements, replace, drop_dependants
        )
    except ChangedCollection:
        if not replace:
            raise
    removed = replace_collection(store, name or Path(path).resolve().name, drop_dependants, path)
    report, summaries = _store_collection(
        store, path, name, kinds, elements, progress, chunk_docs, chunk_elements, False, drop_dependants
    )
    report.replaced, report.removed = True, removed
    return report, summaries


def _store_collection(
    store, path, name, kinds, elements, progress, chunk_docs, chunk_elements, replace, drop_dependants
):
    import time

    from ..io.collection import list_collection
    from ..summaries.parallel import CHUNK_ELEMENTS, scan_collection

    t0 = time.perf_counter()
    if chunk_docs is None:  # under the writer lock a chunk's elements go in one statement: larger chunks
        chunk_docs = CHUNK_DOCS_LOCKED if store.exclusive_writer else 256
    if chunk_elements is None:
        chunk_elements = CHUNK_ELEMENTS_LOCKED if store.exclusive_writer else CHUNK_ELEMENTS
    sources = list_collection(path)
    cname = name or Path(path).resolve().name
    kinds = list(dict.fromkeys(kinds))
    if elements == "all":
        wanted = None
    elif elements == "none":
        wanted = set()
    else:
        wanted = set(elements)
    store.init_schema()
    store.run("merge_store", version=SCHEMA_VERSION)  # before any collection (collections, no Store: schema 1)
    cid = collection_id(cname)
    removed = _same_collection_or_replace(store, cname, {src.docid for src in sources}, path, replace, drop_dependants)
    marked = bool(
        store.run(
            "merge_collection", id=cid, name=cname, path=str(Path(path).resolve()), documents=len(sources), elements=-1
        )[0]["marked"]
    )
    for k in kinds:  # each summary marked as being written (-1) until the pass is over and it is written whole
        store.run(
            "merge_summary",
            collection=cid,
            id=summary_id(cname, k),
            kind=k,
            nodes=-1,
            edges=-1,
            documents=-1,
            elements=-1,
        )
    report = LoadReport(replaced=removed is not None, removed=removed)
    load = CollectionLoad(store, cname, path, kinds, wanted, marked, report)
    load.know([document_id(cname, src.docid) for src in sources])
    try:  # the one pass over the collection (summaries.scan_collection); this module only writes
        summaries = scan_collection(
            sources,
            kinds,
            on_chunk=load.flush_chunk,
            chunk_docs=chunk_docs,
            progress=progress,
            desc=f"loading {cname}",
            chunk_elements=chunk_elements,
        )
        load.settle()
    finally:
        load.close()
    for k, s in summaries.items():
        store_summary(store, s, cname)
        report.summary_nodes[k] = len(s)
    _check_load(store, cname, len(sources), load.held, {k: len(s) for k, s in summaries.items()})  # still INCOMPLETE
    store.run(
        "merge_collection",
        id=cid,
        name=cname,
        path=str(Path(path).resolve()),
        documents=len(sources),
        elements=load.total_elements,
    )
    report.seconds = time.perf_counter() - t0
    report.collection_elements = load.total_elements
    return report, summaries


def _check_load(store: GraphStore, name: str, documents: int, held: dict, summary_nodes: dict[str, int]) -> None:
    """A load's receipt: the documents, element nodes, ROOT edges and summary nodes the store holds for the
    collection (counted along its relationships and by key range) against those read."""
    from .receipts import check_receipt
    from .services import count_elements

    cid = collection_id(name)
    [d] = store.run("load_holds_Document", id=cid)
    stored = int(d["documents"])
    if stored and int(d["codes"]) == stored == int(d["hi"]) - int(d["lo"]) + 1:  # one run of codes: no list of them
        codes: Iterable[int] = range(int(d["lo"]), int(d["hi"]) + 1)
    else:
        codes = [int(r["code"]) for r in store.run("collection_codes", id=cid)]
    roots = int(store.run("load_holds_ROOT", id=cid)[0]["roots"])
    got = {"documents": stored, "element nodes": count_elements(store, codes), "ROOT edges": roots}
    want = {"documents": documents, "element nodes": held["elements"], "ROOT edges": held["roots"]}
    for kind, n in summary_nodes.items():
        want[f"{kind} summary nodes"] = n
        got[f"{kind} summary nodes"] = store.run("summary_nodes_held", id=summary_id(name, kind))[0]["n"]
    check_receipt(
        f"load of collection {name!r}", got, want, "read", "the collection is INCOMPLETE (load it again, or drop it)"
    )


def _same_collection_or_replace(
    store: GraphStore, name: str, docids: set[str], path, replace: bool, drop_dependants: bool
) -> Removed | None:
    """Refuse to load documents ``docids`` as collection ``name`` if it is stored with other documents (a
    complete one with another set; an INCOMPLETE one with some not among them), or drop it first (``replace``,
    see :func:`replace_collection`); what was removed if it was dropped."""
    rows = store.run("collection_documents", id=collection_id(name))
    if not rows:
        return None
    stored = set(rows[0]["docids"] or [])
    complete = rows[0]["elements"] is not None and int(rows[0]["elements"]) >= 0
    if stored == docids or (not complete and stored <= docids):
        return None
    if replace:
        return replace_collection(store, name, drop_dependants, path)
    gone, new = len(stored - docids), len(docids - stored)
    raise GraphsrInputError(
        f"collection {name!r} is stored with other documents ({len(stored)} stored, {gone} of "
        f"them not in this collection; {new} of its {len(docids)} not stored): give --replace "
        "to swap it for this one, or --name another name",
        path,
    )


def validate_references(path: str | os.PathLike, qrels: ElementQrels | None, runs: Iterable[Run]) -> None:
    """Check, before anything is written, that every node the qrels and runs name is in the collection.

    Raises
    ------
    UnknownNodeError
        Naming the file and line of the first reference to a missing
        document or node.
    """
    from ..io.collection import iter_documents, list_collection

    refs: dict[str, list[tuple[str, str | None, int | None]]] = {}
    if qrels is not None:
        for (_, docid, xp), line in sorted(qrels.lines.items(), key=lambda kv: kv[1] or 0):
            refs.setdefault(docid, []).append((xp, qrels.source, line))
    for run in runs:
        for r in run:
            for xp, line in zip(r.xpaths, r.lines or (None,) * len(r.xpaths)):
                refs.setdefault(r.docid, []).append((xp, run.source, line))
    if not refs:
        return
    docs = {d.docid: d for d in iter_documents(list_collection(path), docids=refs.__contains__)}
    for docid, uses in refs.items():
        for xp, source, line in uses:
            resolve_node(docs, docid, xp, source, line)


def run_name(run: Run) -> str:
    """The name a run is stored and reported under: its run id column when it names one, else its name."""
    return run.run_ids[0] if len(run.run_ids) == 1 else run.name
