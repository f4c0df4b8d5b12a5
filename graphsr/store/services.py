"""Services that query the graph and return arrays ready for numpy / scipy.sparse.

Aggregations run in the database (step counts per pair of elements or of
summary nodes, summary statistics); Python receives the aggregated rows.
"""

from __future__ import annotations

import json
from typing import Iterable

import numpy as np

from ..errors import UnknownNodeError
from ..summaries.summary import Summary
from .base import GraphStore, writes
from .trees import stored_documents
from .ids import (
    KEY_SPAN,
    collection_id,
    key_parts,
    key_ranges,
    membership_property,
    node_id,
    node_id_prefix,
    summary_id,
    summary_node_id,
)

__all__ = [
    "element_names",
    "stored_summary",
    "transitions",
    "study_routes",
    "save_model",
    "save_element_model",
    "model_record",
    "list_models",
    "list_summaries",
    "collection_info",
    "collection_dependants",
    "drop_collection",
    "drop_model",
    "drop_study",
    "list_collections",
]


def collection_info(store: GraphStore, collection: str) -> dict:
    """The stored collection's name, path, document and element counts.

    Raises
    ------
    UnknownNodeError
        If no such collection is stored.
    """
    rows = store.run("collection", id=collection_id(collection))
    if not rows:
        raise UnknownNodeError(
            f"no collection {collection!r} in the store {store.url}; load it with 'graphsr store load'"
        )
    return rows[0]


def require_complete_collection(store: GraphStore, collection: str) -> dict:
    """The stored collection's record, refused in one line naming what to do while it is INCOMPLETE (a load
    or a drop that did not finish): its summaries, elements and models built on them would be partial."""
    from ..errors import GraphsrInputError

    info = collection_info(store, collection)
    if info.get("elements") is None or int(info["elements"]) < 0:
        raise GraphsrInputError(
            f"collection {collection!r} is INCOMPLETE (a load or a drop of it did not finish): "
            f"load it again with 'graphsr store load', or drop it"
        )
    return info


def element_names(store: GraphStore, keys: Iterable[int]) -> dict[int, tuple[str, str]]:
    """``(docid, XPath)`` of stored elements by key (XPaths derived from their documents' stored trees)."""
    keys = [int(k) for k in keys]
    trees = stored_documents(store, {k // KEY_SPAN for k in keys})
    out = {}
    for k in keys:
        code, pre = key_parts(k)
        tree = trees.get(code)
        if tree is not None and 0 < pre <= len(tree):
            out[k] = (tree.docid, tree.xpath(pre - 1))
    return out


def list_collections(store: GraphStore) -> list[dict]:
    """The stored collections: name, path, documents, elements and ``complete`` (False while a load that
    failed midway has not been run again)."""
    rows = store.run("collections")
    for r in rows:
        r["complete"] = r.get("elements") is not None and int(r["elements"]) >= 0
    return rows


def list_summaries(store: GraphStore) -> list[dict]:
    return store.run("summaries")


def stored_summary(store: GraphStore, collection: str, kind: str) -> Summary:
    """Rebuild a stored summary (statistics, edges and keys) as a :class:`Summary`.

    Raises
    ------
    UnknownNodeError
        If the summary is not stored.
    GraphsrInputError
        If the collection is INCOMPLETE (:func:`require_complete_collection`).
    """
    require_complete_collection(store, collection)
    sid_ = summary_id(collection, kind)
    head = store.run("summary", id=sid_)
    if not head:
        raise UnknownNodeError(f"no {kind} summary of collection {collection!r} in the store {store.url}")
    nodes = store.run("summary_nodes", id=sid_)
    edges = store.run("summary_edges", id=sid_)
    keys = []
    for r in nodes:
        a = tuple(r["path"]) if r["path"] else r["tag"]
        keys.append((a, frozenset(r["children"] or []) if r["has_children"] else None))
    col = lambda rows, k: [int(x[k]) for x in rows]  # noqa: E731
    return Summary.from_parts(
        kind,
        keys,
        col(nodes, "extent_size"),
        col(nodes, "content_length"),
        col(edges, "src"),
        col(edges, "dst"),
        col(edges, "pairs"),
        col(edges, "child_length"),
        int(head[0]["documents"]),
    )


def require_memberships(store: GraphStore, collection: str, kind: str) -> None:
    """Refuse, in one line naming what to load, when elements of ``collection`` are stored without their
    ``kind`` memberships (they were loaded with other summary kinds): a partition's elements would be missing."""
    from ..errors import GraphsrInputError

    missing = int(store.run("documents_missing_kind", id=collection_id(collection), kind=kind)[0]["n"])
    if missing:
        raise GraphsrInputError(
            f"collection {collection!r}: the elements of {missing} document(s) are stored without "
            f"their {kind} memberships (they were loaded with other summary kinds): load it again "
            f"with --kind '{kind}' and the same --elements"
        )


def require_study(store: GraphStore, collection: str, study: str) -> str:
    """The id of a study whose routes were loaded whole; one line naming what to load otherwise."""
    from ..errors import GraphsrInputError

    stid = node_id("Study", collection, study)
    rows = store.run("study_state", study=stid)
    if not rows:
        raise GraphsrInputError(
            f"no study {study!r} in collection {collection!r}: load its routes with 'graphsr store "
            f"routes LOG --collection {collection} --study {study}'"
        )
    if rows[0]["complete"] is False:
        raise GraphsrInputError(
            f"study {study!r} of collection {collection!r} is INCOMPLETE (a load of its routes did "
            f"not finish): load its routes again with 'graphsr store routes LOG --collection "
            f"{collection} --study {study}'"
        )
    return stid


def transitions(store: GraphStore, collection: str, study: str, kind: str | None = None) -> dict[str, np.ndarray]:
    """Route steps of a study counted per pair of states, aggregated in the database.

    States are elements (``kind=None``; ``src``/``dst`` are element keys, plus
    ``docid`` and the 0-based node indices ``src_index``/``dst_index``) or
    the summary nodes of a stored summary (``src``/``dst`` are SIDs).
    Returns arrays ``src``, ``dst``, ``steps`` (count), ``inverse_effort``
    (the sum of each step's 1 / duration_ms) and ``untimed`` (steps without
    a positive duration), ready for ``scipy.sparse.coo_matrix``.
    """
    stid = require_study(store, collection, study)
    extra = {}
    if kind is None:
        rows = store.run("element_transitions", study=stid)
        src = np.array([int(r["src"]) for r in rows], dtype=np.int64)
        dst = np.array([int(r["dst"]) for r in rows], dtype=np.int64)
        extra = {
            "docid": np.array([r["docid"] for r in rows], dtype=object),
            "src_index": np.array([int(r["src_pre"]) - 1 for r in rows], dtype=np.int64),
            "dst_index": np.array([int(r["dst_pre"]) - 1 for r in rows], dtype=np.int64),
        }
    else:
        require_memberships(store, collection, kind)
        rows = store.run("summary_transitions", study=stid, property=membership_property(kind))
        src = np.array([int(r["src"]) for r in rows], dtype=np.int64)
        dst = np.array([int(r["dst"]) for r in rows], dtype=np.int64)
    return {
        "src": src,
        "dst": dst,
        "steps": np.array([int(r["steps"]) for r in rows], dtype=np.int64),
        "inverse_effort": np.array([float(r["inverse_effort"] or 0) for r in rows]),
        "untimed": np.array([int(r["untimed"] or 0) for r in rows], dtype=np.int64),
        **extra,
    }


def study_routes(store: GraphStore, collection: str, study: str):
    """The steps of a study's routes as a pandas DataFrame (route_id, step, docid, src, dst, ...)."""
    import pandas as pd

    rows = store.run("study_routes", study=require_study(store, collection, study))
    names = element_names(store, {int(r[k]) for r in rows for k in ("src", "dst")})
    for r in rows:
        r["docid"], r["src"] = names[int(r["src"])]
        r["dst"] = names[int(r["dst"])][1]
    return pd.DataFrame(rows, columns=["route_id", "step", "docid", "src", "dst", "duration_ms", "user_id", "topic_id"])


@writes
def save_model(
    store: GraphStore,
    name: str,
    collection: str,
    kind: str,
    pi: np.ndarray,
    *,
    weight: str,
    solver: str,
    source: str = "summary",
    params: dict | None = None,
    weights: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> None:
    """Store a derived navigation model: its parameters, pi per summary node and optionally its weights.

    Saving under an existing name replaces that model's values.
    """
    summary = stored_summary(store, collection, kind)
    if len(pi) != len(summary):
        raise ValueError(f"pi has {len(pi)} entries, the stored {kind} summary has {len(summary)} nodes")
    mid = node_id("Model", name)
    labels = summary.labels()
    store.run(
        "merge_model",
        summary=summary_id(collection, kind),
        id=mid,
        name=name,
        collection=collection,
        kind=kind,
        weight=weight,
        solver=solver,
        source=source,
        params=json.dumps(params or {}),
    )
    store.run("delete_model_values", id=mid)
    store.run("delete_model_weights", id=mid)
    store.write(
        "merge_model_pi",
        [
            {"model": mid, "node": summary_node_id(collection, kind, labels[s]), "pi": p, "exact": repr(p)}
            for s, p in enumerate(np.asarray(pi, dtype=float).tolist())
        ],
    )
    pairs = 0
    if weights is not None:
        src, dst, val = weights
        rows = [
            {
                "model": mid,
                "src": summary_node_id(collection, kind, labels[a]),
                "dst": summary_node_id(collection, kind, labels[b]),
                "value": v,
                "exact": repr(v),
            }
            for a, b, v in zip(
                np.asarray(src).tolist(), np.asarray(dst).tolist(), np.asarray(val, dtype=float).tolist()
            )
        ]
        pairs = len({(r["src"], r["dst"]) for r in rows})
        store.write("merge_model_weights", rows)
    from .receipts import check_receipt

    [held] = store.run("model_holds", id=mid)
    check_receipt(
        f"model {name!r}",
        {"PI edges": held["pi"], "WEIGHT edges": held["weights"]},
        {"PI edges": len(pi), "WEIGHT edges": pairs},
        "computed",
        "build it again",
    )


@writes
def save_element_model(
    store: GraphStore, name: str, collection: str, *, weight: str, source: str, params: dict | None = None
) -> None:
    """Store an elementary route model's parameters (its weights stay the study's steps)."""
    store.run(
        "merge_element_model",
        id=node_id("Model", name),
        name=name,
        collection=collection,
        weight=weight,
        solver="general",
        source=source,
        params=json.dumps(params or {}),
    )


def model_record(store: GraphStore, name: str) -> dict:
    """A stored model: its parameters, ``pi`` (array by SID), ``summary`` (rebuilt) and ``weights``.

    An elementary route model (``kind`` 'elements') has its parameters only.

    Raises
    ------
    UnknownNodeError
        If no model of that name is stored (the message lists the stored ones).
    """
    mid = node_id("Model", name)
    rows = store.run("model", id=mid)
    if not rows:
        known = ", ".join(r["name"] for r in list_models(store)) or "none"
        raise UnknownNodeError(f"no model named {name!r} in the store {store.url}; stored models: {known}")
    rec = dict(rows[0])
    rec["params"] = json.loads(rec["params"] or "{}")
    if rec["kind"] == "elements":
        return rec
    summary = stored_summary(store, rec["collection"], rec["kind"])
    pi = np.zeros(len(summary))
    for r in store.run("model_pi", id=mid):
        pi[int(r["sid"])] = float(r["pi"])
    rec["pi"] = pi
    rec["summary"] = summary
    w = store.run("model_weights", id=mid)
    rec["weights"] = (
        np.array([int(r["src"]) for r in w], dtype=np.int64),
        np.array([int(r["dst"]) for r in w], dtype=np.int64),
        np.array([float(r["value"]) for r in w]),
    )
    return rec


def list_models(store: GraphStore) -> list[dict]:
    return store.run("models")


_UNDER_COLLECTION = ("Document", "Summary", "SummaryNode", "Study", "Route", "Step", "Qrels", "Topic", "Run")


#: What may depend on a collection, by label, with the word a person reads for them.
DEPENDANTS = {"Qrels": "assessments", "Run": "runs", "Study": "studies", "Model": "models"}


def collection_dependants(store: GraphStore, name: str) -> dict[str, list[str]]:
    """What depends on collection ``name``, by kind (``assessments``, ``runs``, ``studies``, ``models``): the
    names stored under it (kinds with none left out)."""
    out = {}
    for label, kind in DEPENDANTS.items():
        names = [str(r["name"]) for r in store.run(f"dependants_{label}", name=name)]
        if names:
            out[kind] = names
    return out


@writes
def drop_collection(store: GraphStore, name: str) -> int:
    """Remove a collection with everything stored under it and the models built over it, in bounded batches
    (the collection is INCOMPLETE until the last one); returns the nodes removed.

    Raises
    ------
    UnknownNodeError
        If no such collection is stored.
    """
    if not any(r["name"] == name for r in store.run("collections")):
        raise UnknownNodeError(
            f"no collection {name!r} in the store; stored: "
            + (", ".join(sorted(r["name"] for r in store.run("collections"))) or "none")
        )
    cid = node_id("Collection", name)
    prefixes = [node_id_prefix(label, name) for label in _UNDER_COLLECTION]
    documents = [(int(r["code"]), int(r["elements"] or 0)) for r in store.run("collection_codes", id=cid)]
    codes = [code for code, _ in documents]
    before = count_elements(store, codes) + 1  # (by the key index; what is keyed under it, below)
    store.run("mark_collection_dropping", id=cid)  # INCOMPLETE until the last batch
    removed = 0
    # the elements first, a batch of documents at a time by key range (elements have no id to match a prefix);
    # each batch names its documents, so no statement passes over the documents emptied before
    batch: list[int] = []
    size, most = 0, _drop_batch(store)
    for code, n in documents + [(None, 0)]:
        if code is not None:
            batch.append(code)
            size += n
        if batch and (size >= most or code is None):
            rows = store.run("drop_document_elements", codes=batch)
            removed += int(rows[0]["removed"]) if rows else 0
            batch, size = [], 0
    # counted with its elements gone: the count scans every node (no index serves STARTS WITH), now far fewer
    before += int(store.run("count_under", prefixes=prefixes, name=name)[0]["n"])
    removed += _drop_in_batches(store, cid, prefixes, name)
    left = count_elements(store, codes) + int(store.run("count_under", prefixes=prefixes, name=name)[0]["n"])
    _check_drop(f"drop of collection {name!r}", before, removed, left)
    store.release_memory()
    return removed


def count_elements(store: GraphStore, codes: Iterable[int]) -> int:
    """The element nodes the store holds for the documents coded ``codes`` (a load's or a drop's receipt): one scan
    of the key index per run of consecutive codes, not one per document; where the store has not built that index
    (:meth:`GraphStore.index_ready`), one scan of every element: counted in the server for one run of codes (a
    collection loaded at once), else counted per code."""
    ranges = key_ranges(codes)
    if not store.index_ready("Element"):
        if len(ranges) == 1:
            lo, hi = ranges[0][0] // KEY_SPAN, ranges[0][1] // KEY_SPAN - 1
            return int(store.run("elements_in_code_range", lo=lo, hi=hi)[0]["n"])
        wanted = set(map(int, codes))
        return sum(int(r["n"]) for r in store.run("elements_per_code") if int(r["code"]) in wanted)
    return sum(
        int(store.run("elements_in_key_ranges", ranges=ranges[i : i + 10_000])[0]["n"])
        for i in range(0, len(ranges), 10_000)
    )


def _check_drop(what: str, before: int, removed: int, left: int) -> None:
    """A drop's receipt: the nodes it removed against those it found, and none left behind."""
    from .receipts import check_receipt

    check_receipt(
        what, {"nodes": before, "nodes left": 0}, {"nodes": removed, "nodes left": left}, "removed", "drop it again"
    )


#: Nodes removed per transaction by a drop (on a Bolt server; the local store takes :data:`LOCAL_DROP_FACTOR`
#: times as many).
DROP_BATCH = 50_000

#: The local store removes this many times :data:`DROP_BATCH` nodes a statement: each statement also costs it about
#: 0.3 s of matrix upkeep on a graph of 12 million items, whatever it removes (music-svg's 6.2 million elements:
#: 65 s in batches of 50,000, 40 s in batches of 200,000).
LOCAL_DROP_FACTOR = 4


def _drop_batch(store: GraphStore) -> int:
    return DROP_BATCH * (LOCAL_DROP_FACTOR if store.backend == "falkordb" else 1)


def _drop_in_batches(store: GraphStore, node: str, prefixes: list[str], collection: str | None) -> int:
    """Remove what is keyed under ``prefixes`` (and the models built over ``collection``) in bounded
    transactions, then ``node`` itself; returns the nodes removed."""
    removed, most = 0, _drop_batch(store)
    while True:
        rows = store.run("drop_under_batch", prefixes=prefixes, name=collection or "", limit=most)
        got = int(rows[0]["removed"]) if rows else 0
        removed += got
        if got < most:
            break
    rows = store.run("drop_node", id=node)
    return removed + (int(rows[0]["removed"]) if rows else 0)


@writes
def drop_model(store: GraphStore, name: str) -> int:
    """Remove a stored model (one transaction); raises UnknownNodeError if there is none of that name."""
    model_record(store, name)  # raises, listing the stored models
    rows = store.run("drop_model", id=node_id("Model", name))
    return int(rows[0]["removed"]) if rows else 0


@writes
def drop_study(store: GraphStore, collection: str, study: str) -> int:
    """Remove a study of a collection with its routes and steps, in bounded batches (the study is INCOMPLETE
    until the last one); returns the nodes removed.  Models learned from it stay (an element route model then finds no steps)."""
    stid = node_id("Study", collection, study)
    prefixes = [node_id_prefix("Route", collection, study), node_id_prefix("Step", collection, study)]
    if not store.run("study_state", study=stid):
        raise UnknownNodeError(f"no study {study!r} of collection {collection!r} in the store")
    before = int(store.run("count_under", prefixes=prefixes, name="")[0]["n"]) + 1
    store.run("mark_study_dropping", id=stid)  # INCOMPLETE until the last batch
    removed = _drop_in_batches(store, stid, prefixes, None)
    left = int(store.run("count_under", prefixes=prefixes, name="")[0]["n"]) + len(store.run("study_state", study=stid))
    _check_drop(f"drop of study {study!r}", before, removed, left)
    return removed
