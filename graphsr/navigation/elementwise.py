"""Element-wise look-ups of a learned model's transitions for node ids ``code << 32 | i``.

ESR (ESR paper, Eq 4) and PRUM ask, for many pairs of nodes of one document,
the probability :math:`\\tilde p(to; from)` that a user at ``from`` steps to
``to``.  A :class:`NodeTransitions` answers such questions for whole arrays:
node ``i`` of the document coded ``code`` is state
``state_of[base[code] + i]`` and the answer is ``P[state(from), state(to)]``.
It also hands its table (the states and the matrix) to the kernels that walk
the pairs in compiled code.
"""

from __future__ import annotations

import copy

import numpy as np

__all__ = ["NodeTransitions"]

_DENSE_STATES = 4096  # up to this many states the matrix is kept dense (summary models): a flat gather


class NodeTransitions:
    """``f(to_ids, from_ids)`` -> element-wise :math:`\\tilde p(to; from)` for node ids ``code << 32 | i``.

    Parameters
    ----------
    base : array of int
        ``base[code]``: where the document coded ``code`` starts in ``state_of`` (-1 for a document the
        model does not know: every transition from or to it is 0).
    state_of : array of int
        The state of every node the model knows.
    P : scipy.sparse matrix, or ndarray
        Row-stochastic transitions ``P[from, to]`` between states.
    dense_up_to : int
        Up to this many states a sparse ``P`` is kept as a dense array (summary models); above it, as
        sorted CSR rows (elementary models).

    Notes
    -----
    Both nodes of a pair must lie in one document (ESR's and PRUM's pairs do): steps never cross documents,
    so there is no cross-document check.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> P = sp.csr_matrix(np.array([[0.0, 1.0], [0.25, 0.75]]))
    >>> f = NodeTransitions(np.array([0, -1]), np.array([0, 1, 1]), P)
    >>> f(np.array([1, 2, 1]), np.array([0, 1, (1 << 32) | 0])).tolist()
    [1.0, 0.75, 0.0]
    >>> f.states(np.array([2, (1 << 32) | 0])).tolist()
    [1, -1]
    """

    def __init__(self, base: np.ndarray, state_of: np.ndarray, P, dense_up_to: int = _DENSE_STATES):
        self.base = np.asarray(base, dtype=np.int64)
        self.state_of = np.asarray(state_of, dtype=np.int64)
        self.dense: np.ndarray | None
        if isinstance(P, np.ndarray):
            self.dense = np.ascontiguousarray(P, dtype=float)
        elif P.shape[0] <= dense_up_to:
            self.dense = P.toarray()
        else:
            self.dense = None
        self.width = int(P.shape[1])
        if self.dense is None:  # sorted column indices, no duplicates: a binary search finds an entry
            csr = P.tocsr(copy=True)
            csr.sum_duplicates()
            csr.sort_indices()
            self.data = np.asarray(csr.data, dtype=float)
            self.indices = csr.indices.astype(np.int64)
            self.indptr = csr.indptr.astype(np.int64)
            self._csr = csr
        else:
            self._flat = self.dense.reshape(-1)  # one flat gather: three times faster than a 2-d fancy index

    def with_base(self, base: np.ndarray) -> "NodeTransitions":
        """The same states and matrix (shared, not copied) for other document codes."""
        other = copy.copy(self)
        other.base = np.asarray(base, dtype=np.int64)
        return other

    def states(self, ids: np.ndarray) -> np.ndarray:
        """The state of each node id (-1 for a node of a document the model does not know)."""
        ids = np.asarray(ids, dtype=np.int64)
        g = self.base[ids >> 32]
        unknown = g < 0
        g += ids & 0xFFFFFFFF
        if unknown.any():
            g[unknown] = 0
            out = self.state_of.take(g)
            out[unknown] = -1
            return out
        return self.state_of.take(g)

    def transition_table(self) -> "NodeTransitions":
        """The table itself: kernels read :meth:`states`, ``width`` and ``dense`` (or CSR ``data``,
        ``indices``, ``indptr``) to look transitions up without calling back."""
        return self

    def __call__(self, to_ids: np.ndarray, from_ids: np.ndarray) -> np.ndarray:
        to_ids, from_ids = np.asarray(to_ids, dtype=np.int64), np.asarray(from_ids, dtype=np.int64)
        if len(to_ids) == 0:
            return np.zeros(0)
        st, sf = self.states(to_ids), self.states(from_ids)
        unknown = (st < 0) | (sf < 0)
        any_unknown = bool(unknown.any())
        if any_unknown:
            st[unknown] = sf[unknown] = 0
        if self.dense is not None:
            sf *= self.width
            sf += st
            vals = self._flat.take(sf)
        else:
            vals = np.asarray(self._csr[sf, st]).ravel()
        if any_unknown:
            vals[unknown] = 0.0
        return vals
