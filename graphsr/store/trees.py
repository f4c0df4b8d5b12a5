"""Stored documents' trees, read back in the form the measures use.

A document loaded with its elements keeps its shape (:mod:`.shapes`): its elements' depths, tags and text
offsets, one property on its Document node.  :func:`stored_trees` reads the shapes of a few thousand documents
per statement and rebuilds their trees with array operations (:func:`graphsr.core.shape_trees.trees_from_columns`),
which costs less than parsing the documents again; documents stored by a graphsr whose shapes held no offsets
are rebuilt from their element nodes, about :data:`ELEMENTS_PER_READ` elements per statement.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from ..core.document import DocumentTree
from ..errors import UnknownNodeError
from .base import GraphStore, StoreError
from ..core.shape_trees import trees_from_columns
from .ids import document_id
from .shapes import SHAPE_PREFIX, ShapeError, decode_columns

__all__ = ["stored_document", "stored_documents", "stored_trees", "element_batches", "ELEMENTS_PER_READ"]


def _xpaths(depths: list[int], tags: list[str]) -> list[str]:
    """The positional XPaths of a document's elements from their depths (the root's 1) and tags in pre-order (as
    :meth:`DocumentTree.xpaths` gives them for the tree :func:`_tree` builds of the same rows)."""
    out: list[str] = []
    top = max(depths, default=0) + 1
    paths = [""] * top  # the path of the open element at each depth
    seen: list[dict | None] = [None] * top  # per open element: its children of each tag so far (made with the first)
    append = out.append
    for d, tag in zip(depths, tags):
        if d > 1:
            counts = seen[d - 1]
            if counts is None:
                counts = seen[d - 1] = {}
            position = counts[tag] = counts.get(tag, 0) + 1
            path = f"{paths[d - 1]}/{tag}[{position}]"
        else:
            path = f"/{tag}[1]"
        paths[d] = path
        seen[d] = None
        append(path)
    return out


def _document_shapes(
    store: GraphStore, codes: list[int], numbers: tuple[int, ...] = (0, 1, 3, 4, 5)
) -> dict[int, tuple]:
    """The stored elements' (pres, depths, tags, node ids, offsets, lengths) in pre-order of the documents coded
    ``codes`` (those with elements stored): on the local store one string per document (``documents_shapes``),
    with the store's own node ids, the columns ``numbers`` as integers and the others as the strings read (a
    caller that needs a few elements' ids does not parse every element's); elsewhere a row per element, and
    None for the ids."""
    out: dict[int, tuple] = {}
    if store.backend == "falkordb":
        for r in store.run("documents_shapes", codes=codes):
            fields = r["shape"].split("\t")
            if len(fields) % 6:  # a tab in a tag (no XML name holds one)
                raise StoreError(f"{store.url}: the stored elements of document {int(r['code'])} do not read back")
            tags = fields[2::6]
            pres, depths, ids, offsets, lengths = (
                list(map(int, fields[k::6])) if k in numbers else fields[k::6] for k in (0, 1, 3, 4, 5)
            )
            if any(b <= a for a, b in zip(pres, pres[1:])):  # collected out of the order asked: put in order
                pres, depths, tags, ids, offsets, lengths = map(
                    list, zip(*sorted(zip(pres, depths, tags, ids, offsets, lengths)))
                )
            out[int(r["code"])] = (pres, depths, tags, ids, offsets, lengths)
        return out
    for r in store.run("documents_elements", codes=codes):
        entry = out.setdefault(int(r["code"]), ([], [], [], None, [], []))
        entry[0].append(int(r["pre"]))
        entry[1].append(int(r["depth"]))
        entry[2].append(r["tag"])
        entry[4].append(int(r["offset"]))
        entry[5].append(int(r["length"]))
    return out


#: Documents whose shapes are read per statement (a shape is about 3.5 bytes an element).
SHAPES_PER_READ = 2_000


def stored_trees(store: GraphStore, collection: str, docids: Iterable[str]) -> dict[str, DocumentTree]:
    """The stored trees of the documents ``docids`` of ``collection`` (those with elements stored), by docid:
    :data:`SHAPES_PER_READ` documents per statement."""
    ids = sorted({document_id(collection, d) for d in docids})
    out: dict[str, DocumentTree] = {}
    for at in range(0, len(ids), SHAPES_PER_READ):
        records = store.run("documents_tree_shapes_by_id", ids=ids[at : at + SHAPES_PER_READ])
        out.update((tree.docid, tree) for tree in _trees_of_records(store, records).values())
    return out


def stored_document(store: GraphStore, collection: str, docid: str) -> DocumentTree:
    """Rebuild a document tree from what the store holds of it (see :func:`stored_trees`).

    Raises
    ------
    UnknownNodeError
        If the document's elements are not stored.
    """
    tree = stored_trees(store, collection, [docid]).get(docid)
    if tree is None:
        raise UnknownNodeError(
            f"document {docid!r} of collection {collection!r} has no stored elements in "
            f"{store.url}; load them with 'graphsr store load --elements'"
        )
    return tree


def stored_documents(store: GraphStore, codes: Iterable[int]) -> dict[int, DocumentTree]:
    """The stored trees of the documents coded ``codes`` (those with elements), by code."""
    codes = sorted({int(c) for c in codes})
    out: dict[int, DocumentTree] = {}
    for at in range(0, len(codes), SHAPES_PER_READ):
        out.update(_trees_of_records(store, store.run("documents_tree_shapes", codes=codes[at : at + SHAPES_PER_READ])))
    return out


def _trees_of_records(store: GraphStore, records: list[dict]) -> dict[int, DocumentTree]:
    """The trees of the documents ``records`` (``code``, ``docid``, ``elements``, ``shape``), by code: from their
    shapes where these hold offsets, all at once; from their stored elements where the shape is older or
    missing (a document with no elements stored is left out).

    Raises
    ------
    StoreError
        If a shape does not read back as the tree of its document.
    """
    out: dict[int, DocumentTree] = {}
    shaped, columns, older = [], [], []
    for r in records:
        n, text = r["elements"], r["shape"]
        if n is None or int(n) <= 0:
            continue
        if not (isinstance(text, str) and text.startswith(SHAPE_PREFIX)):
            older.append(r)
            continue
        try:
            columns.append(decode_columns(text, int(n)))
        except ShapeError as e:
            raise StoreError(
                f"{store.url}: the stored shape of document {r['docid']!r} does not read back ({e}); "
                "load the collection again with --replace"
            ) from None
        shaped.append(r)
    if shaped:
        trees = _trees(
            store,
            [r["docid"] for r in shaped],
            [c.names for c in columns],
            [len(c.depth) for c in columns],
            [(c.depth, c.tag, c.start, c.end) for c in columns],
        )
        out.update((int(r["code"]), t) for r, t in zip(shaped, trees))
    docid_of = {int(r["code"]): r["docid"] for r in older}
    size_of = {int(r["code"]): int(r["elements"]) for r in older}
    for batch in element_batches(sorted(docid_of), size_of.__getitem__):
        read = _document_shapes(store, batch)
        names, sizes, cols = [], [], []
        for _, depths, tags, _, offsets, lengths in read.values():
            vocab: dict[str, int] = {}  # the tags in order of first appearance, as the walkers number them
            tag = np.fromiter((vocab.setdefault(t, len(vocab)) for t in tags), dtype=np.int64, count=len(tags))
            start = np.asarray(offsets, dtype=np.int64)
            names.append(tuple(vocab))
            sizes.append(len(tags))
            cols.append((np.asarray(depths, dtype=np.int64), tag, start, start + np.asarray(lengths, dtype=np.int64)))
        out.update(zip(read, _trees(store, [docid_of[c] for c in read], names, sizes, cols)))
    return out


def _trees(store: GraphStore, docids: list[str], names: list, sizes: list[int], cols: list[tuple]) -> list:
    """The trees of documents from their columns (depth, tag, start, end per document), built all at once by
    :func:`graphsr.core.shape_trees.trees_from_columns`.

    Raises
    ------
    StoreError
        If the columns are not those of trees.
    """
    try:
        depth, tag, start, end = (np.concatenate([c[k] for c in cols]) for k in range(4))
        return trees_from_columns(docids, names, sizes, depth, tag, start, end, store.url)
    except ValueError as e:
        raise StoreError(
            f"{store.url}: stored documents that do not read back as trees ({e}); load the collection again "
            "with --replace"
        ) from None


#: Elements read per statement when stored documents are rebuilt a batch at a time.
ELEMENTS_PER_READ = 200_000


def element_batches(items, elements_of):
    """``items`` (documents, in order) in batches of about :data:`ELEMENTS_PER_READ` elements (``elements_of``
    gives an item's): a batch ends with the item that brings it to the bound, so one large document is a batch
    alone."""
    batch, size = [], 0
    for item in items:
        batch.append(item)
        size += elements_of(item)
        if size >= ELEMENTS_PER_READ:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch
