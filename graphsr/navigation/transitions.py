"""Navigation learned from route steps: row-stochastic transitions between states.

A state is an element (the elementary model) or a summary node (a summary
model, which replaces :math:`\\tilde p(e_i; e_j)` by :math:`\\tilde p(S(e_i); S(e_j))`).
Step weights (counts, or summed effort) become probabilities
**row-stochastic over the source's outgoing steps** (docs/conventions.md):
:math:`\\tilde p(to; from) = w(from \\to to) / \\sum_x w(from \\to x)`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["StepNavigation"]


class StepNavigation:
    """:math:`\\tilde p(e_i; e_j)` from step weights between states.

    Parameters
    ----------
    src, dst : array of int
        Source and target state of each (aggregated) step.
    weight : array of float
        Weight of each step (a count, or summed effort).
    n_states : int
        Number of states.
    state_of : array of int
        State of each node id (node ids index it).
    doc_of : array of int
        Document of each node id; navigation across documents is 0.

    Examples
    --------
    The routes of the ESR paper's Fig 5, as docs/errata.md reads them
    (e3->e1 twice, e3->e2 once, e2->e4 twice), elementary model:

    >>> nav = StepNavigation([3, 3, 2], [1, 2, 4], [2, 1, 2], n_states=7, state_of=np.arange(7),
    ...                      doc_of=np.zeros(7, dtype=int))
    >>> round(float(nav.step(3, 1)), 3)
    0.667
    """

    def __init__(self, src, dst, weight, n_states: int, state_of, doc_of):
        import scipy.sparse as sp

        w = sp.coo_matrix(
            (np.asarray(weight, dtype=float), (np.asarray(src), np.asarray(dst))), shape=(n_states, n_states)
        ).tocsr()
        out = np.asarray(w.sum(axis=1)).ravel()
        inv = np.divide(1.0, out, out=np.zeros(n_states), where=out > 0)
        self.P = (sp.diags(inv) @ w).tocsr()  # P[from, to]
        self.state_of = np.asarray(state_of)
        self.doc_of = np.asarray(doc_of)

    def step(self, frm: int, to: int) -> float:
        """Probability of the step from state ``frm`` to state ``to``."""
        return self.P[frm, to]

    def __call__(self, to_nodes, from_nodes) -> np.ndarray:
        """Matrix of :math:`\\tilde p(to_i; from_j)` for node ids (0 across documents)."""
        to_nodes, from_nodes = np.asarray(to_nodes), np.asarray(from_nodes)
        sub = self.P[self.state_of[from_nodes]][:, self.state_of[to_nodes]].toarray().T
        same_doc = self.doc_of[to_nodes][:, None] == self.doc_of[from_nodes][None, :]
        return np.where(same_doc, sub, 0.0)
