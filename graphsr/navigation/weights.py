"""Edge weights of a summary graph as a sparse matrix (SR Eq 8 input).

Schemes (per summary edge A–B, from the parent–child element pairs):

* ``extent``  — the number of parent–child element pairs between A and B
  (in a p* summary, the extent size of the child part);
* ``length``  — the total content length (node length, docs/conventions.md) of the
  child elements of those pairs;
* ``uniform`` — 1 per edge.

The matrix is symmetric: ``W[A, B] = W[B, A]`` = the sum over both
directions; a self-loop (elements of A nested in elements of A, possible in
``tag`` and ``c`` summaries) is counted once, on the diagonal.
"""

from __future__ import annotations

import numpy as np

from .._numpy import distinct

from ..summaries.summary import Summary

__all__ = ["WEIGHT_SCHEMES", "weight_matrix"]

WEIGHT_SCHEMES = ("extent", "length", "uniform")


def weight_matrix(summary: Summary, scheme: str = "extent", symmetric: bool = True):
    """Summary edge weights as a ``scipy.sparse.csr_matrix`` of shape (n, n).

    Parameters
    ----------
    summary : Summary
    scheme : {'extent', 'length', 'uniform'}
    symmetric : bool
        Add the two directions of each edge together (default).  With
        False, ``W[A, B]`` is the weight of parent part A -> child part B.

    Examples
    --------
    >>> from graphsr.core import DocumentTree
    >>> from graphsr.summaries import build_summary
    >>> doc = DocumentTree.from_nested("d", ("a", "", [("b", "xx", []), ("b", "yyy", [])]))
    >>> weight_matrix(build_summary([doc], "p*"), "length").toarray().tolist()
    [[0.0, 5.0], [5.0, 0.0]]
    """
    import scipy.sparse as sp

    if scheme not in WEIGHT_SCHEMES:
        raise ValueError(f"unknown weight scheme {scheme!r}; expected one of {', '.join(WEIGHT_SCHEMES)}")
    n = len(summary)
    w = summary.edge_weights(scheme)
    src, dst = summary.edge_src, summary.edge_dst
    if scheme == "uniform":
        # one per undirected edge, whichever directions exist
        a = np.minimum(src, dst)
        b = np.maximum(src, dst)
        key = distinct(a * (n + 1) + b)
        a, b = key // (n + 1), key % (n + 1)
        m = sp.coo_matrix((np.ones(len(a)), (a, b)), shape=(n, n)).tocsr()
        if not symmetric:
            return sp.coo_matrix((np.ones(len(src)), (src, dst)), shape=(n, n)).tocsr()
        return (m + m.T - sp.diags(m.diagonal())).tocsr()
    d = sp.coo_matrix((w, (src, dst)), shape=(n, n)).tocsr()
    if not symmetric:
        return d
    return (d + d.T - sp.diags(d.diagonal())).tocsr()
