r"""The INEX 2002-2005 element measures of one topic: inex-2002 (GRP), inex-2003 (GRPng) and XCG.

Inputs: a topic's retrieved nodes in rank order as arrays
(:class:`~graphsr.measures.tree_arrays.TopicItems`), the topic's full
recall-base with quantised values and its ideal elements as arrays
(:class:`~graphsr.measures.ideal.RecallBase`), and the documents' per-node
arrays (element lengths: characters of text); :mod:`.arrays` computes the
curves, this module what depends on the assessments alone and what the
measures read from the cumulated gains.  (The tests compare with a per-entry
transcription of the definitions, ``tests/inex_reference.py``.)

* **GRP** (inex-2002; Kazai-Lalmas A.1 Eq 1, PRUM paper C.1): Raghavan's
  precall with quantised values.  For recall ``x`` the user wants
  ``T = x n`` of relevance, ``n`` the sum of the quantised values of the full
  recall-base; at the first rank ``l`` where the cumulated value reaches
  ``T``, ``precision = T / (T + j + s i / (r + 1))`` with ``j`` the
  irrelevance (``sum 1 - q``) ranked before ``l``, ``r`` and ``i`` the
  relevance and irrelevance of rank ``l`` and ``s = T - f_{l-1}`` what is
  still needed from it.  A value the ranked list does not reach is sought in
  the rest of the collection as one last rank (the PRUM paper's Example 2).
* **GRPng** (inex-2003; Kazai-Lalmas A.2 Eq 3-5): after rank ``k``,
  ``recall = sum_i q_e(e_i) |c_i'| / |c_i| / Rel`` and ``precision = sum_i
  q_s(s_i) |c_i'| / sum_i |c_i'|``, ``|c_i'|`` the characters of ``c_i`` no
  earlier result covered; ``Rel`` sums ``q_e`` over the relevant elements
  without relevant descendants (``Rel^U`` of [4]; ``base=all``: over every
  relevant element, the PRUM paper's C.2).  ``GRPng[x]`` is the highest
  precision at a rank whose recall reaches ``x`` (0 if none does).
* **XCG** (Kazai-Lalmas A.3 Eq 6-9): the gain of a result is its
  quantised value if nothing of it was seen, ``(1 - alpha) q`` if it was
  seen in full (it or an ancestor ranked earlier), and ``alpha sum_j rv(c_j)
  |c_j| / |c| + (1 - alpha) q`` over its relevant children if only some
  descendants were (Eq 8, recursively); then the results inside the subtree
  of an ideal element ``y`` (``y`` included) earn together at most ``q(y)``
  (Eq 9), each taking what is left.  ``xCG@k`` cumulates the gains;
  ``nxCG@k`` divides by the ideal gain vector (the ideal elements' values in
  decreasing order, cumulated); effort-precision at gain-recall ``x``,
  ``ep[x] = i_ideal / i_run`` (the ranks at which the ideal and the run
  reach ``x`` times the total ideal gain; 0 if the run never does), and
  ``MAep = sum ep(gr_i) (gr_i - gr_{i-1})`` over the ranks ``i`` where the
  run gains -- the average of ``ep`` over gain-recall, as AP averages
  precision over recall (so an ideal run scores 1).
"""

from __future__ import annotations

import numpy as np

from ...core.quantisation import quantise_dimension
from ..ideal import RecallBase

__all__ = ["grpng_total", "ideal_gain_vector", "effort_precision", "mean_average_ep"]

_EPS = 1e-12


def grpng_total(base: RecallBase, quant: str = "gen", kind: str = "leaves") -> float:
    """``Rel`` of inex-2003 (GRPng): the quantised exhaustivity summed over the relevant elements -- those without
    a relevant assessed element below them for ``kind='leaves'`` (``Rel^U``), every one for ``kind='all'`` --
    added one by one in recall-base order.  It depends on the assessments only."""
    rel = base.leaf if kind == "leaves" else base.relevant
    return float(sum(quantise_dimension(base.e[rel], quant).tolist()))


def ideal_gain_vector(base: RecallBase) -> np.ndarray:
    """The ideal elements' values in decreasing order, cumulated (xCI)."""
    return np.cumsum(np.sort(base.q[base.ideal])[::-1])


def effort_precision(cg: np.ndarray, ci: np.ndarray, x: float) -> float:
    """``ep[x]``: the rank at which the ideal reaches ``x`` times the total ideal gain over the run's rank."""
    if len(ci) == 0 or ci[-1] <= 0:
        return 0.0
    target = x * ci[-1]
    i_ideal = int(np.searchsorted(ci, target - _EPS)) + 1
    reached = np.flatnonzero(cg >= target - _EPS)
    return i_ideal / (int(reached[0]) + 1) if len(reached) else 0.0


def mean_average_ep(cg: np.ndarray, ci: np.ndarray) -> float:
    """``sum ep(gr_i) (gr_i - gr_{i-1})`` over the ranks where the run gains (gain-recall capped at 1)."""
    if len(ci) == 0 or ci[-1] <= 0:
        return 0.0
    total = ci[-1]
    gr = np.minimum(cg / total, 1.0)
    prev = np.r_[0.0, gr[:-1]]
    out = 0.0
    for i in np.flatnonzero(gr > prev + _EPS):
        i_ideal = int(np.searchsorted(ci, cg[i] - _EPS)) + 1 if cg[i] <= total + _EPS else len(ci)
        out += (i_ideal / (i + 1)) * (gr[i] - prev[i])
    return out
