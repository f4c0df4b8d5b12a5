r"""Where each entry of a ranked list leads: :math:`P(y \to x)` for the ideal elements ``x`` (PRUM §2).

For one topic: the ranked entries (tree results: one or more nodes of one
document), the ideal elements, and a navigation model give, per entry, the
ideal elements it may lead to and with which probability.  A node leads
only within its document; a tree result leads to ``x`` unless none of its
nodes does: :math:`1 - \prod_{e} (1 - P(e \to x))` (Hypothesis 2.2).
Everything is arrays: the topic's retrieved nodes and its ideal elements
(the tests compare with a per-entry transcription, ``tests/inex_reference.py``).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

__all__ = ["item_links"]


def item_links(
    entry: np.ndarray,
    doc: np.ndarray,
    node: np.ndarray,
    entries: int,
    ideal_doc: np.ndarray,
    ideal_node: np.ndarray,
    nav: str,
    arrays=None,
    seen: np.ndarray | None = None,
    routes: Callable | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The kernel's ``(ptr, ideal, prob)`` (:func:`~graphsr.measures.prum.kernel.prum_by_recall`), every entry
    of a topic at once.

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

    Every (item, ideal element of its document) pair gets :math:`P(e \to x)`: ``structural`` (PRUM Eq 9)
    ``len(e)/len(x)`` if ``x`` contains ``e``, ``len(x)/len(e)`` if ``e`` contains ``x``, 1 for ``x = e`` (and
    for nested elements that both have no text), 0 otherwise; ``none`` 1 for ``x = e`` only; ``model``
    ``seen[x]`` (the SR seen probability ``1 - pi(S(x))``); ``routes`` the learned ``p~(x; e)``.  An entry leads
    to ``x`` with :math:`1 - \prod_e (1 - P(e \to x))` over its nodes, multiplied in document order.
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
