r"""Where each entry of a ranked list leads: :math:`P(y \to x)` for the ideal elements ``x`` (PRUM §2).

For one topic: the ranked entries (tree results: one or more nodes of one
document), the ideal elements, and a navigation model give, per entry, the
ideal elements it may lead to and with which probability.  A node leads
only within its document; a tree result leads to ``x`` unless none of its
nodes does: :math:`1 - \prod_{e} (1 - P(e \to x))` (Hypothesis 2.2).
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from ...core.document import DocumentTree

__all__ = ["subtree_last", "node_links", "entry_links"]


def subtree_last(doc: DocumentTree) -> np.ndarray:
    """For each node (pre-order), the index of the last node of its subtree."""
    depth = doc.depth
    n = len(depth)
    last = np.arange(n, dtype=np.int64)
    stack: list[int] = []
    for i in range(n):
        d = depth[i]
        while stack and depth[stack[-1]] >= d:
            last[stack.pop()] = i - 1
        stack.append(i)
    for j in stack:
        last[j] = n - 1
    return last


def node_links(nav: str, e: int, xs: np.ndarray, doc: DocumentTree, last: np.ndarray | None = None,
               seen: np.ndarray | None = None, routes: Callable | None = None) -> np.ndarray:
    r""":math:`P(e \to x)` from node ``e`` to nodes ``xs`` of the same document.

    ``structural`` (PRUM Eq 9): ``len(e)/len(x)`` if ``x`` contains ``e``,
    ``len(x)/len(e)`` if ``e`` contains ``x``, 1 for ``x = e`` (and for
    nested elements that both have no text), 0 otherwise; ``none``: 1 for
    ``x = e`` only; ``model``: ``seen[x]`` (the SR seen probability
    ``1 - pi(S(x))``); ``routes``: ``routes(x)`` (the learned ``p~(x; e)``).
    """
    same = xs == e
    if nav == "none":
        return same.astype(float)
    if nav == "structural":
        length = doc.length
        le, lx = float(length[e]), length[xs].astype(float)
        up = (xs < e) & (e <= last[xs])  # x contains e
        down = (xs > e) & (xs <= last[e])  # e contains x
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(up, np.where(lx > 0, le / lx, 1.0), 0.0)
            p = np.where(down, (lx / le) if le > 0 else 1.0, p)
        return np.where(same, 1.0, p)
    if nav == "model":
        return np.where(same, 1.0, seen[xs])
    return np.where(same, 1.0, routes(xs))


def entry_links(entries: list[list[tuple[str, int]]], ideal: list[tuple[str, int]], nav: str,
                documents: Mapping[str, DocumentTree], seen_of: Callable | None = None,
                routes_of: Callable | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's ``(ptr, ideal, prob)`` (:func:`~graphsr.measures.prum.kernel.prum_by_recall`).

    Parameters
    ----------
    entries : list of list of (docid, node)
        The ranked entries in rank order, each a tree result's nodes.
    ideal : list of (docid, node)
        The ideal elements; their position is their number.
    nav : str
        ``structural``, ``none``, ``model`` or ``routes``.
    seen_of : callable, optional
        ``seen_of(docid)`` -> per-node SR seen probability (``nav='model'``).
    routes_of : callable, optional
        ``routes_of(docid, e)`` -> function of target nodes giving ``p~(x; e)`` (``nav='routes'``).
    """
    by_doc: dict[str, tuple[list[int], list[int]]] = {}
    for k, (docid, node) in enumerate(ideal):
        nodes, ks = by_doc.setdefault(docid, ([], []))
        nodes.append(node)
        ks.append(k)
    arrays = {d: (np.array(n, dtype=np.int64), np.array(k, dtype=np.int64)) for d, (n, k) in by_doc.items()}
    lasts: dict[str, np.ndarray] = {}
    seens: dict[str, np.ndarray] = {}
    ptr = [0]
    out_k: list[np.ndarray] = []
    out_p: list[np.ndarray] = []
    for entry in entries:
        docid = entry[0][0]
        if docid in arrays:
            xs, ks = arrays[docid]
            doc = documents[docid]
            miss = np.ones(len(xs))
            for _, e in entry:
                last = seen = routes = None
                if nav == "structural":
                    last = lasts.get(docid)
                    if last is None:
                        last = lasts[docid] = subtree_last(doc)
                elif nav == "model":
                    seen = seens.get(docid)
                    if seen is None:
                        seen = seens[docid] = seen_of(docid)
                elif nav == "routes":
                    routes = routes_of(docid, e)
                miss *= 1.0 - node_links(nav, e, xs, doc, last, seen, routes)
            p = 1.0 - miss
            hit = p > 0
            out_k.append(ks[hit])
            out_p.append(p[hit])
            ptr.append(ptr[-1] + int(hit.sum()))
        else:
            ptr.append(ptr[-1])
    cat = (lambda xs, dt: np.concatenate(xs) if xs else np.zeros(0, dtype=dt))
    return np.array(ptr, dtype=np.int64), cat(out_k, np.int64), cat(out_p, float)


def item_links(entry: np.ndarray, doc: np.ndarray, node: np.ndarray, entries: int, ideal_doc: np.ndarray,
               ideal_node: np.ndarray, nav: str, arrays=None, seen: np.ndarray | None = None,
               routes: Callable | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r""":func:`entry_links` from arrays, every entry of a topic at once.

    Parameters
    ----------
    entry, doc, node : arrays of int
        The topic's retrieved nodes ("items") in rank order, a tree result's nodes in document order: each
        one's entry (0 .. ``entries`` - 1), document code and node.
    entries : int
        The number of entries.
    ideal_doc, ideal_node : arrays of int
        The ideal elements' document codes (-1: a document no item names) and nodes; their position is their
        number.
    nav : str
        ``structural``, ``none``, ``model`` or ``routes``.
    arrays : NodeArrays, optional
        The documents' per-node arrays (``structural``: lengths and subtree ends; ``model``: ``seen``).
    seen : array, optional
        Per flat node of ``arrays``: the SR seen probability (``nav='model'``).
    routes : callable, optional
        ``routes(to_ids, from_ids)`` -> the learned p~(x; e) for node ids ``code << 32 | node``
        (``nav='routes'``).

    Every (item, ideal element of its document) pair gets :math:`P(e \to x)` (:func:`node_links`); an entry
    leads to ``x`` with :math:`1 - \prod_e (1 - P(e \to x))` over its nodes, multiplied in document order as
    :func:`entry_links` multiplies them, so both give the same numbers.
    """
    K = len(ideal_doc)
    by_doc = np.argsort(ideal_doc, kind="stable")  # ideal elements of one document together, in number order
    sorted_doc = ideal_doc[by_doc]
    lo = np.searchsorted(sorted_doc, doc, side="left")
    counts = np.searchsorted(sorted_doc, doc, side="right") - lo
    counts[doc < 0] = 0
    item = np.repeat(np.arange(len(doc)), counts)
    k = by_doc[np.repeat(lo, counts) + (np.arange(len(item)) - np.repeat(np.cumsum(counts) - counts, counts))]
    e, x, d = node[item], ideal_node[k], doc[item]
    same = x == e
    if nav == "none":
        p = same.astype(float)
    elif nav == "structural":
        ge, gx = arrays.index(d, e), arrays.index(d, x)
        length, last = arrays.length, arrays.last
        le, lx = length[ge], length[gx]
        up = (gx < ge) & (ge <= last[gx])  # x contains e
        down = (gx > ge) & (gx <= last[ge])  # e contains x
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(up, np.where(lx > 0, le / lx, 1.0), 0.0)
            p = np.where(down, np.where(le > 0, lx / le, 1.0), p)
        p = np.where(same, 1.0, p)
    elif nav == "model":
        p = np.where(same, 1.0, seen[arrays.index(d, x)])
    else:
        p = np.where(same, 1.0, routes((d << 32) | x, (d << 32) | e))
    # per (entry, ideal element): the product of (1 - p) over the entry's nodes, in their order
    key = entry[item] * np.int64(K) + k
    order = np.argsort(key, kind="stable")
    key, miss = key[order], 1.0 - p[order]
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else np.zeros(0, dtype=np.int64)
    prob = 1.0 - np.multiply.reduceat(miss, first) if len(first) else np.zeros(0)
    hit = prob > 0
    which = key[first][hit]
    per_entry = np.bincount(which // max(K, 1), minlength=entries) if len(which) else np.zeros(entries, np.int64)
    ptr = np.concatenate(([0], np.cumsum(per_entry))).astype(np.int64)
    return ptr, (which % max(K, 1)).astype(np.int64), prob[hit]
