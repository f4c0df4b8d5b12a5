"""Steady-state (stationary) distributions of navigation chains.

Two solvers:

* :func:`reversible_steady_state` — CIKM'08 Eq 8 for symmetric weights
  (a time-reversible chain): ``pi_e = sum_f w_ef / sum_f sum_g w_fg``.
* :func:`stationary_distribution` — any non-negative weight matrix, read as
  a row-stochastic chain ``P = D^-1 W`` (docs/conventions.md), with zero rows,
  reducible (e.g. disconnected) and periodic chains handled explicitly.
"""

from __future__ import annotations

import numpy as np

from .._numpy import distinct

from ..errors import ConvergenceError

__all__ = ["reversible_steady_state", "stationary_distribution", "row_stochastic"]


def _as_sparse(w):
    import scipy.sparse as sp

    m = sp.csr_matrix(w, dtype=float)
    if m.shape[0] != m.shape[1]:
        raise ValueError(f"expected a square weight matrix, got shape {m.shape}")
    if m.nnz and m.data.min() < 0:
        raise ValueError("expected non-negative weights")
    return m


def reversible_steady_state(w, check_symmetric: bool = True) -> np.ndarray:
    r"""Steady state of a time-reversible chain (CIKM'08 Eq 8).

    .. math:: \pi_e = \frac{\sum_f w_{ef}}{\sum_f \sum_g w_{fg}}

    Parameters
    ----------
    w : array-like or sparse matrix, shape (n, n)
        Symmetric non-negative edge weights.  A self-loop weight ``w_ee``
        counts once in row ``e``.
    check_symmetric : bool
        Refuse a matrix that is not symmetric (Eq 8 assumes
        ``w_ef = w_fe``).  Pass False to apply the formula to a matrix as
        printed (the CIKM'08 tables are not exactly symmetric).

    Returns
    -------
    ndarray of shape (n,)
        Sums to 1; an isolated node gets 0.  If ``w`` is all zero (no edges
        at all, e.g. a one-node summary) every state is absorbing and the
        chain started uniformly stays uniform: ``1/n`` each, so a single
        state gets 1.

    Notes
    -----
    For a symmetric ``w`` this is a stationary distribution of ``P = D^-1 W``
    (detailed balance).  If the graph is disconnected, each component gets a
    share proportional to its total weight: one of many stationary
    distributions, the one Eq 8 defines.

    Examples
    --------
    Table 1 of the SR paper (p*, extent-size weights) as printed:

    >>> W = [[0,1,1,3,3,6,2],[1,0,0,3,0,6,2],[1,0,0,0,3,0,0],[3,3,0,0,0,6,2],
    ...      [3,0,3,0,0,0,0],[6,6,0,6,0,0,0],[2,2,0,2,0,0,0]]
    >>> reversible_steady_state(W).round(3).tolist()
    [0.211, 0.158, 0.053, 0.184, 0.079, 0.237, 0.079]

    A one-node summary (no edges): the single state has probability 1.

    >>> reversible_steady_state([[0]]).tolist()
    [1.0]
    """
    m = _as_sparse(w)
    if check_symmetric and m.nnz and abs(m - m.T).max() > 1e-9 * max(1.0, abs(m).max()):
        raise ValueError(
            "Eq 8 needs symmetric weights (w_ef = w_fe); use stationary_distribution "
            "for a general chain or check_symmetric=False to apply Eq 8 as is"
        )
    rows = np.asarray(m.sum(axis=1)).ravel()
    total = rows.sum()
    n = m.shape[0]
    if total > 0:
        return rows / total
    return np.full(n, 1.0 / n) if n else np.zeros(0)


def row_stochastic(w, dangling: str = "self"):
    """Row-normalise weights into a transition matrix ``P = D^-1 W``.

    Parameters
    ----------
    w : array-like or sparse matrix
    dangling : {'self', 'uniform', 'error'}
        What a state with no outgoing weight does: stay put (an absorbing
        state), jump to a uniformly random state, or raise ``ValueError``.

    Returns
    -------
    scipy.sparse.csr_matrix
    """
    import scipy.sparse as sp

    m = _as_sparse(w)
    n = m.shape[0]
    rows = np.asarray(m.sum(axis=1)).ravel()
    zero = rows <= 0
    inv = np.divide(1.0, rows, out=np.zeros(n), where=~zero)
    p = sp.diags(inv) @ m
    if zero.any():
        if dangling == "error":
            raise ValueError(f"states {np.flatnonzero(zero).tolist()} have no outgoing weight (dangling='error')")
        if dangling == "self":
            p = p + sp.diags(zero.astype(float))
        elif dangling == "uniform":
            fill = sp.csr_matrix(np.outer(zero.astype(float), np.full(n, 1.0 / n)))
            p = p + fill
        else:
            raise ValueError(f"unknown dangling policy {dangling!r}; expected 'self', 'uniform' or 'error'")
    return sp.csr_matrix(p)


def stationary_distribution(w, start=None, dangling: str = "self") -> np.ndarray:
    r"""Long-run distribution of the chain ``P = D^-1 W`` from a start distribution.

    Returns the Cesàro limit :math:`\lim_{T\to\infty} \frac1T \sum_{t<T} x_0 P^t`,
    which always exists and is unique for a given start ``x_0``:

    * **irreducible** chains (periodic ones included): the unique
      stationary distribution, whatever the start;
    * **reducible** chains (disconnected summaries, one-way edges): each
      closed communicating class ``C`` receives the probability of being
      absorbed into it from ``x_0``, spread by ``C``'s own stationary
      distribution; transient states get 0;
    * **zero rows** (no outgoing weight) follow ``dangling``
      (see :func:`row_stochastic`).

    Each class's distribution is found by a direct sparse solve, not power
    iteration, so periodic classes need no damping.

    Parameters
    ----------
    w : array-like or sparse matrix, shape (n, n)
        Non-negative weights, not necessarily symmetric.
    start : array-like, optional
        Start distribution ``x_0``; default uniform over the states.
    dangling : {'self', 'uniform', 'error'}

    Returns
    -------
    ndarray of shape (n,), summing to 1.

    Raises
    ------
    ConvergenceError
        If a linear solve fails.

    Examples
    --------
    A periodic two-state chain and a disconnected pair of chains:

    >>> stationary_distribution([[0, 1], [1, 0]]).tolist()
    [0.5, 0.5]
    >>> stationary_distribution([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 3], [0, 0, 1, 0]]).round(3).tolist()
    [0.25, 0.25, 0.286, 0.214]
    """
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components

    p = row_stochastic(w, dangling)
    n = p.shape[0]
    if n == 0:
        return np.zeros(0)
    x0 = np.full(n, 1.0 / n) if start is None else np.asarray(start, dtype=float)
    if x0.shape != (n,) or x0.min() < 0 or not np.isclose(x0.sum(), 1.0):
        raise ValueError("start must be a probability vector over the states")
    ncomp, label = connected_components(p, directed=True, connection="strong")
    # closed classes: no transition leaves the class
    coo = p.tocoo()
    leaving = coo.data > 0
    leaves = np.zeros(ncomp, dtype=bool)
    out_edges = label[coo.row] != label[coo.col]
    leaves[distinct(label[coo.row[leaving & out_edges]])] = True
    closed = np.flatnonzero(~leaves)
    pi = np.zeros(n)
    # absorption probabilities into each closed class from x0
    transient = np.isin(label, np.flatnonzero(leaves))
    t_idx = np.flatnonzero(transient)
    mass = {}
    if len(t_idx):
        q = p[t_idx][:, t_idx]
        # expected visits: y = x0_T (I - Q)^-1  ->  (I - Q)^T y = x0_T
        a = (sp.identity(len(t_idx)) - q).T.tocsc()
        y = _solve(a, x0[t_idx])
        for c in closed:
            members = np.flatnonzero(label == c)
            into = np.asarray(p[t_idx][:, members].sum(axis=1)).ravel()
            mass[c] = x0[members].sum() + float(y @ into)
    else:
        for c in closed:
            mass[c] = x0[label == c].sum()
    for c in closed:
        members = np.flatnonzero(label == c)
        if mass[c] <= 0:
            continue
        pi[members] = mass[c] * _irreducible_stationary(p[members][:, members])
    s = pi.sum()
    return pi / s if s > 0 else pi


def _irreducible_stationary(p) -> np.ndarray:
    import scipy.sparse as sp

    k = p.shape[0]
    if k == 1:
        return np.ones(1)
    # pi (P - I) = 0, sum pi = 1: replace the last equation by the normalisation
    a = (p.T - sp.identity(k)).tolil()
    a[k - 1, :] = np.ones(k)
    b = np.zeros(k)
    b[-1] = 1.0
    x = _solve(a.tocsc(), b)
    x = np.clip(x, 0, None)
    return x / x.sum()


def _solve(a, b) -> np.ndarray:
    from scipy.sparse.linalg import spsolve

    with np.errstate(all="ignore"):
        x = spsolve(a, b)
    x = np.atleast_1d(np.asarray(x, dtype=float))
    if not np.all(np.isfinite(x)):
        raise ConvergenceError("the stationary-distribution linear solve failed (singular system)")
    return x
