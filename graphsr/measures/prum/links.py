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

from ...model.document import DocumentTree

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
