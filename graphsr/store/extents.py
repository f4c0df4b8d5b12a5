"""A summary node's stored elements (its extent), read from the store.

Where every document of the collection is stored whole, a node's elements are found by its kind's membership
index (or, for a node only roots fall in, along the documents' ROOT edges) and checked against the node's stored
extent; elsewhere the documents are read in document order a batch at a time.
"""

from __future__ import annotations

import numpy as np

from ..errors import UnknownNodeError
from .base import GraphStore
from .ids import KEY_SPAN, collection_id, membership_property, summary_node_id
from .services import require_memberships
from .trees import _document_shapes, _xpaths, element_batches, stored_documents

__all__ = ["summary_extent", "summary_extent_page", "iter_stored_documents"]


def _extent_params(store: GraphStore, collection: str, kind: str, label: str) -> dict:
    """The parameters of the summary_extent queries: the collection, the kind's membership property and the
    summary node's SID, with its extent and whether it holds roots only (UnknownNodeError for a label the stored
    summary lacks)."""
    require_memberships(store, collection, kind)
    rows = store.run("summary_node_sid", id=summary_node_id(collection, kind, label))
    if not rows:
        raise UnknownNodeError(f"the stored {kind} summary of collection {collection!r} has no node {label!r}")
    return {
        "collection": collection_id(collection),
        "property": membership_property(kind),
        "sid": int(rows[0]["sid"]),
        "extent_size": rows[0]["extent_size"],
        "roots": bool(rows[0]["roots"]),
    }


def _in_document_order(codes: np.ndarray, pres: np.ndarray, docid: dict[int, str]) -> tuple[np.ndarray, np.ndarray]:
    """Elements (document codes, pre-order numbers) of the collection whose documents ``docid`` names, the others
    dropped, in document order: by docid, then pre."""
    known = np.fromiter(docid, dtype=np.int64, count=len(docid))
    rank = np.empty(len(known), dtype=np.int64)
    rank[sorted(range(len(known)), key=lambda i: docid[int(known[i])])] = np.arange(len(known))
    by_code = np.argsort(known)
    known, rank = known[by_code], rank[by_code]
    at = np.minimum(np.searchsorted(known, codes), max(len(known) - 1, 0))
    mine = known[at] == codes if len(known) else np.zeros(len(codes), dtype=bool)
    codes, pres, rank = codes[mine], pres[mine], rank[at[mine]]
    order = np.lexsort((pres, rank))
    return codes[order], pres[order]


def _keys(store: GraphStore, joined: str, listed: str, **params) -> np.ndarray | None:
    """The element keys a query gives with their number: as one string on the local store (``joined``), as a
    list elsewhere (``listed``); None where they are not as many as it counted."""
    if store.backend == "falkordb":
        row = store.run(joined, **params)[0]
        keys = np.array(row["keys"].split(), dtype=np.int64) if row["keys"] else np.empty(0, dtype=np.int64)
    else:
        row = store.run(listed, **params)[0]
        keys = np.array(row["keys"] or [], dtype=np.int64)
    return keys if len(keys) == int(row["n"]) else None


def _extent_by_index(
    store: GraphStore, params: dict, extent, complete: bool, docid: dict[int, str]
) -> tuple[np.ndarray, np.ndarray] | None:
    """Every stored element of a summary node (document codes, pre-order numbers) in document order, found by
    the membership property's index; None where the index cannot be trusted to give them all.

    Only a node of every complete document is read so (its number of elements is then known, ``extent``, and
    what the index gives, kept to the collection's documents, is checked against it), and never SID 0: the
    local store's index does not find 0.  Its cost is the node's size (about 1 s a million elements), not where
    its elements lie in the collection."""
    sid = int(params["sid"])
    if not complete or extent is None or sid == 0:
        return None
    keys = _keys(
        store, f"summary_extent_by_{params['property']}", f"summary_extent_list_by_{params['property']}", sid=sid
    )
    if keys is None:
        return None
    codes, pres = _in_document_order(keys // KEY_SPAN, keys % KEY_SPAN, docid)
    return (codes, pres) if len(codes) == int(extent) else None


def _extent_of_roots(
    store: GraphStore, params: dict, extent, complete: bool, docid: dict[int, str]
) -> tuple[np.ndarray, np.ndarray] | None:
    """Every stored element of a summary node that holds roots only (no summary edge enters it), as
    :func:`_extent_by_index` gives them, read from the collection's documents' roots; None where their number
    is not the node's extent."""
    keys = _keys(store, "summary_extent_roots", "summary_extent_root_list", **params)
    if keys is None or (complete and extent is not None and len(keys) != int(extent)):
        return None
    return _in_document_order(keys // KEY_SPAN, keys % KEY_SPAN, docid)


def _collection_docids(store: GraphStore, collection_id_: str) -> dict[int, str]:
    """The docids of a stored collection's documents, by document code."""
    if store.backend == "falkordb":
        row = store.run("collection_docids", collection=collection_id_)[0]
        lines = row["lines"].split("\n") if row["lines"] else []
        if len(lines) == int(row["n"]):
            return {int(code): docid for code, _, docid in (line.partition("\t") for line in lines)}
    row = store.run("collection_docid_lists", collection=collection_id_)[0]  # or a docid holds a line break
    return dict(zip(map(int, row["codes"]), row["docids"]))


def _complete(store: GraphStore, params: dict, kind: str) -> bool:
    """Whether every document of the collection holds its elements' memberships of ``kind``."""
    return int(store.run("summary_extent_incomplete", collection=params["collection"], kind=kind)[0]["n"]) == 0


def _extent(
    store: GraphStore, params: dict, extent, complete: bool, roots: bool
) -> tuple[np.ndarray, np.ndarray, dict[int, str]] | None:
    """A node's elements in document order with the collection's docids, by its roots (``roots``: no summary
    edge enters it) or its index; None where neither serves (read them a document at a time then)."""
    docid = _collection_docids(store, params["collection"])
    found = _extent_of_roots(store, params, extent, complete, docid) if roots else None
    if found is None:
        found = _extent_by_index(store, params, extent, complete, docid)
    return None if found is None else (*found, docid)


def summary_extent(store: GraphStore, collection: str, kind: str, label: str) -> list[tuple[str, int]]:
    """The stored elements of a summary node, as (docid, pre-order id) in document order."""
    params = _extent_params(store, collection, kind, label)
    extent, roots = params.pop("extent_size"), params.pop("roots")
    found = _extent(store, params, extent, _complete(store, params, kind), roots)
    if found is not None:
        codes, pres, docid = found
        return [(docid[c], p) for c, p in zip(codes.tolist(), pres.tolist())]
    rows = store.run("summary_extent", **params)
    return [(r["docid"], int(r["pre"])) for r in rows]


def summary_extent_page(
    store: GraphStore, collection: str, kind: str, label: str, skip: int, limit: int | None
) -> tuple[list[tuple[str, int, str, int]], int]:
    """One page of a summary node's stored elements, paged in the database: (docid, pre-order id, XPath,
    length) in document order, and how many there are in all (the XPaths derived from the page's documents)."""
    params = _extent_params(store, collection, kind, label)
    extent, roots = params.pop("extent_size"), params.pop("roots")
    complete = _complete(store, params, kind)
    found = _extent(store, params, extent, complete, roots)
    if found is not None:
        codes, pres, docid = found
        total = len(codes)
        end = total if limit is None else int(skip) + int(limit)
        page = [(docid[c], c, p) for c, p in zip(codes[int(skip) : end].tolist(), pres[int(skip) : end].tolist())]
    else:
        page, total = _extent_page_by_documents(store, params, complete, extent, skip, limit)
    shapes = {}  # per document of the page: its elements' XPaths and lengths by pre-order number
    for code, (pres_, depths, tags, _, _, lengths) in _document_shapes(store, sorted({c for _, c, _ in page})).items():
        shapes[code] = dict(zip(pres_, zip(_xpaths(depths, tags), lengths)))
    return [(d, pre, *shapes[code][pre]) for d, code, pre in page], total


def _extent_page_by_documents(
    store: GraphStore, params: dict, complete: bool, extent, skip: int, limit: int | None
) -> tuple[list[tuple[str, int, int]], int]:
    """A page of a large summary node's elements, its documents read in document order a batch at a time until
    the page is whole: a page near the start reads the first documents only, not every element of the
    collection (then sorted)."""
    documents = sorted(store.run("summary_extent_documents", collection=params["collection"]), key=lambda r: r["docid"])
    total = int(extent) if complete and extent is not None else int(store.run("summary_extent_count", **params)[0]["n"])
    want = total if limit is None else min(total, int(skip) + int(limit))
    found: list[tuple[str, int, int]] = []  # docid, code, pre
    for batch in element_batches(documents, lambda d: int(d["elements"] or 0)):
        if len(found) >= want:
            break
        docid = {int(d["code"]): d["docid"] for d in batch}
        found += sorted(
            (docid[int(r["code"])], int(r["code"]), int(r["pre"]))
            for r in store.run(
                "summary_extent_of_codes", codes=list(docid), property=params["property"], sid=params["sid"]
            )
        )
    return found[int(skip) : want], total


def iter_stored_documents(store: GraphStore, collection: str, docids=None):
    """The stored trees of a collection's documents with elements, in document order (by docid), read a batch of
    about ``trees.ELEMENTS_PER_READ`` elements at a time; ``docids`` (a container), when given, keeps those."""
    documents = sorted(
        (
            r
            for r in store.run("summary_extent_documents", collection=collection_id(collection))
            if r["elements"] and (docids is None or r["docid"] in docids)
        ),
        key=lambda r: r["docid"],
    )
    for batch in element_batches(documents, lambda d: int(d["elements"])):
        trees = stored_documents(store, [int(d["code"]) for d in batch])
        for d in batch:
            tree = trees.get(int(d["code"]))
            if tree is not None:
                yield tree
