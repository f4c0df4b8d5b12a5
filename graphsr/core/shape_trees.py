"""Document trees rebuilt from their elements' columns (depth, tag, text offsets in pre-order), many documents at
a time: what a stored document's shape holds (:mod:`graphsr.store.shapes`).

Each element's parent is the nearest element before it one level up and its position is counted among its
parent's children of its tag; both are computed for a whole batch of documents with a few array operations
(per depth level and one sort), not element by element.

Examples
--------
>>> import numpy as np
>>> [a, b] = trees_from_columns(
...     ["a", "b"], [("x", "y"), ("z",)], [4, 1],
...     np.array([1, 2, 2, 3, 1]), np.array([0, 1, 1, 0, 0]), np.array([0, 0, 2, 2, 0]), np.array([5, 2, 5, 4, 3]))
>>> a.xpaths(), a.parent.tolist(), b.xpaths()
(['/x[1]', '/x[1]/y[1]', '/x[1]/y[2]', '/x[1]/y[2]/x[1]'], [-1, 0, 0, 2], ['/z[1]'])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .document import DocumentTree

__all__ = ["trees_from_columns", "parents_of_depths", "sibling_positions"]


def parents_of_depths(depth: np.ndarray) -> np.ndarray:
    """The parent of every element of trees concatenated in pre-order, from their depths (a root's is 1 and
    gets -1): the nearest element before it one level up."""
    n = len(depth)
    parent = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return parent
    order = np.argsort(depth, kind="stable")  # by depth, each level in pre-order
    at = np.searchsorted(depth[order], np.arange(1, int(depth.max()) + 2))
    for level in range(2, int(depth.max()) + 1):
        above, here = order[at[level - 2] : at[level - 1]], order[at[level - 1] : at[level]]
        parent[here] = above[np.searchsorted(above, here) - 1]
    return parent


def sibling_positions(parent: np.ndarray, tag: np.ndarray) -> np.ndarray:
    """Every element's 1-based position among its parent's children of its tag (``tag`` codes unique across
    the documents concatenated; a root's is 1)."""
    n = len(parent)
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    group = (parent + 1) * (int(tag.max()) + 1) + tag
    order = np.argsort(group, kind="stable")  # by parent and tag, in pre-order within
    g = group[order]
    first = np.ones(n, dtype=bool)
    first[1:] = g[1:] != g[:-1]
    index = np.arange(n)
    ranked = index - np.maximum.accumulate(np.where(first, index, 0)) + 1
    position = np.empty(n, dtype=np.int32)
    position[order] = ranked
    position[parent < 0] = 1
    return position


def trees_from_columns(
    docids: Sequence[str],
    names: Sequence[Sequence[str]],
    sizes: Sequence[int],
    depth: np.ndarray,
    tag: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    source: str | None = None,
) -> list[DocumentTree]:
    """The trees of documents ``docids`` whose elements' columns are concatenated in pre-order: ``sizes`` elements
    each, ``tag`` indexing each document's own ``names``.

    Raises
    ------
    ValueError
        If the columns are not those of trees: a document's first element not at depth 1, an element more than
        one level below the one before it, a tag outside its document's names, an element's text outside its
        parent's.
    """
    counts = np.asarray(sizes, dtype=np.int64)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    if len(depth) != offsets[-1] or (counts <= 0).any():
        raise ValueError(f"columns of {len(depth)} elements for documents of {counts.tolist()[:5]}... elements")
    roots = np.zeros(len(depth), dtype=bool)
    roots[offsets[:-1]] = True
    if (depth[roots] != 1).any() or (depth[~roots] < 2).any() or (depth[1:] > depth[:-1] + 1).any():
        raise ValueError("depths that are not those of trees in pre-order")
    parent = parents_of_depths(depth)
    vocab = np.fromiter((len(v) for v in names), dtype=np.int64, count=len(names))
    first_tag = np.zeros(len(names), dtype=np.int64)
    np.cumsum(vocab[:-1], out=first_tag[1:])
    doc_of = np.repeat(np.arange(len(counts)), counts)
    if len(tag) and ((tag < 0).any() or (tag >= vocab[doc_of]).any()):
        raise ValueError("a tag outside its document's names")
    position = sibling_positions(parent, tag + first_tag[doc_of])
    inner = parent >= 0
    up = parent[inner]
    if (start[inner] < start[up]).any() or (end[inner] > end[up]).any():
        raise ValueError("element text offsets outside their parent's")
    local_parent = (parent - np.where(inner, offsets[:-1][doc_of], 0)).astype(np.int32)
    local_parent[~inner] = -1
    tag32, depth32 = tag.astype(np.int32), depth.astype(np.int32)
    start64, end64 = start.astype(np.int64), end.astype(np.int64)
    out = []
    for k, docid in enumerate(docids):
        a, b = int(offsets[k]), int(offsets[k + 1])
        out.append(
            DocumentTree._trusted(
                docid,
                tuple(names[k]),
                tag32[a:b],
                local_parent[a:b],
                depth32[a:b],
                position[a:b],
                start64[a:b],
                end64[a:b],
                source,
            )
        )
    return out
