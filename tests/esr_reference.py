r"""Extended Structural Relevance, the reference: the four expectations and the measures built on them, one
topic at a time, as the paper writes them (the tests check the vectorised kernel that graphsr runs,
:mod:`graphsr.measures.esr.kernel`, against it).

Ali, Consens, Kazai & Lalmas, *Structural relevance: a common basis for the
evaluation of structured document retrieval* (Information Retrieval Journal).

For one topic, a ranked output :math:`R = (t_1, \dots, t_k)` of trees and
assessments :math:`A` (trees :math:`a` with relevance :math:`rel(a)`):

* navigation between trees (Eq 4), over the nodes the trees do not share:

  .. math:: \tilde p(t_i; t_j) = \frac{\sum_{e_j \in t_j \setminus t_i} \sum_{e_i \in t_i \setminus t_j}
            \tilde p(e_i; e_j)}{|t_i|\,|t_j|}

* redundancy (Eq 5): :math:`p(a; R) = 1 - \prod_j (1 - \tilde p(a; t_j))`;
* E[Hits] (Eq 8), E[Misses] (Eq 9), E[Near-misses] (Eq 10), recall-base (Eq 11);
* ESRP@k = E[Hits]/k (Eq 13), ESRR@k = (E[Hits] + E[Near-misses]) / recall-base (Eq 14),
  SRiP@k = E[Hits] / (sum of the sizes of the first k trees) (Eq 18),
  SRiR@k = E[Hits] / T_rel (Eq 19).

Navigation :math:`\tilde p(e_i; e_j)` is the probability of the step
:math:`e_j \to e_i`, row-stochastic over the source's outgoing steps (docs/conventions.md,
navigation: the reading under which the paper's numbers hold), and 0 across
documents.

**Hits against node-level assessments.**  An assessment is a hit at the
first rank m whose tree contains all of its nodes (for element runs and
element assessments: the assessed element is returned at rank m); its gain
is discounted by :math:`p(a; R_{m-1})`, the trees ranked above m, and
shared among the nodes of that tree: it counts
:math:`rel(a)\,(1 - p(a; R_{m-1})) / |t_m|`, as SR's tree relevance (CIKM'08
Eq 9) averages its nodes' relevance, so a rank gives at most one binary hit
(ESRP <= 1) and element runs are unchanged.  Any other assessment is a
miss, and a near-miss with probability :math:`p(a; R)`.

This module holds the reference computation on small per-topic arrays; it is
exact and is what the tests pin against the paper's toy example.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

__all__ = ["ESRTopic", "tree_navigation", "redundancy", "esr_expectations", "esr_measures"]

Navigation = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``nav(to_nodes, from_nodes)`` -> matrix of :math:`\\tilde p(to_i; from_j)` (0 across documents)."""


@dataclass(frozen=True)
class ESRTopic:
    """One topic's ranked trees and assessments, as node-id arrays.

    Node ids are integers unique across documents (the navigation function
    knows which document each belongs to).

    Attributes
    ----------
    results : sequence of array of int
        The retrieved trees in rank order.
    sizes : sequence of float
        Size of each retrieved tree (e.g. characters), for SRiP.
    assessments : sequence of array of int
        The assessed trees (singletons for element assessments).
    rel : array of float
        Relevance value of each assessment (binary, or highlighted characters).
    """

    results: Sequence[np.ndarray]
    sizes: Sequence[float]
    assessments: Sequence[np.ndarray]
    rel: np.ndarray


def tree_navigation(t_i: np.ndarray, t_j: np.ndarray, nav: Navigation) -> float:
    """:math:`\\tilde p(t_i; t_j)`, Eq 4 (nodes shared by the trees are left out)."""
    t_i, t_j = np.asarray(t_i), np.asarray(t_j)
    a = np.setdiff1d(t_i, t_j)
    b = np.setdiff1d(t_j, t_i)
    if len(a) == 0 or len(b) == 0:
        return 0.0
    return float(nav(a, b).sum()) / (len(t_i) * len(t_j))


def redundancy(a: np.ndarray, trees: Sequence[np.ndarray], nav: Navigation) -> float:
    """:math:`p(a; R) = 1 - \\prod_j (1 - \\tilde p(a; t_j))`, Eq 5."""
    keep = 1.0
    for t in trees:
        keep *= 1.0 - tree_navigation(a, t, nav)
    return 1.0 - keep


def _hit_rank(a: np.ndarray, results: Sequence[np.ndarray]) -> int | None:
    for m, t in enumerate(results):
        if np.isin(a, t).all():
            return m
    return None


def esr_expectations(topic: ESRTopic, nav: Navigation, k: int) -> dict[str, float]:
    """E[Hits], E[Misses], E[Near-misses] and the recall-base of the first k results (Eq 8-11).

    Examples
    --------
    The toy example of the ESR paper (docs/errata.md): article e1 (size 100)
    with e3 (size 30) relevant and e4 relevant; p~(e3;e1) = 0.16,
    p~(e4;e1) = 0.11, p~(e4;e3) = 0; System 3 = (e3, e1, e4) at k = 2:

    >>> P = {(3, 1): 0.16, (4, 1): 0.11}
    >>> nav = lambda to, fr: np.array([[P.get((int(i), int(j)), 0.0) for j in fr] for i in to])
    >>> topic = ESRTopic([np.array([3]), np.array([1]), np.array([4])], [30, 100, 20],
    ...                  [np.array([3]), np.array([4])], np.array([1.0, 1.0]))
    >>> {k: round(v, 4) for k, v in esr_expectations(topic, nav, 2).items()}
    {'hits': 1.0, 'misses': 0.89, 'near_misses': 0.11, 'recall_base': 2.0}
    """
    results = list(topic.results[:k])
    hits = misses = near = 0.0
    for a, rel in zip(topic.assessments, np.asarray(topic.rel, dtype=float).tolist()):
        m = _hit_rank(np.asarray(a), results)
        if m is not None:
            hits += rel * (1.0 - redundancy(a, results[:m], nav)) / len(results[m])
        else:
            p = redundancy(a, results, nav)
            misses += rel * (1.0 - p)
            near += rel * p
    return {"hits": hits, "misses": misses, "near_misses": near, "recall_base": hits + misses + near}


def esr_measures(topic: ESRTopic, nav: Navigation, k: int) -> dict[str, float]:
    """ESRP@k (Eq 13), ESRR@k (Eq 14), SRiP@k (Eq 18) and SRiR@k (Eq 19) with the expectations.

    SRiP and SRiR read relevance values as highlighted characters
    (relevance by length); ``T_rel`` is the sum of the assessments'
    relevance.  Ill-defined ratios (empty recall-base, nothing retrieved)
    are 0.

    Examples
    --------
    The toy example by length (rel(e3) = 30, rel(e4) = 20), System 3 at k = 2:

    >>> P = {(3, 1): 0.16, (4, 1): 0.11}
    >>> nav = lambda to, fr: np.array([[P.get((int(i), int(j)), 0.0) for j in fr] for i in to])
    >>> topic = ESRTopic([np.array([3]), np.array([1]), np.array([4])], [30, 100, 20],
    ...                  [np.array([3]), np.array([4])], np.array([30.0, 20.0]))
    >>> m = esr_measures(topic, nav, 2)
    >>> round(m["SRiP"], 3), round(m["SRiR"], 3)
    (0.231, 0.6)
    """
    e = esr_expectations(topic, nav, k)
    size = float(np.sum(np.asarray(topic.sizes[:k], dtype=float)))
    t_rel = float(np.sum(topic.rel))
    out = dict(e)
    out["ESRP"] = e["hits"] / k
    out["ESRR"] = (e["hits"] + e["near_misses"]) / e["recall_base"] if e["recall_base"] > 0 else 0.0
    out["SRiP"] = e["hits"] / size if size > 0 else 0.0
    out["SRiR"] = e["hits"] / t_rel if t_rel > 0 else 0.0
    return out


def nsrcg(topic: ESRTopic, nav: Navigation, i: int, l: float = 1.0, m: float = 10.0) -> float:
    """NSRCG[i] = CG[i] / CD[i] (Eq 23-25): CG[i] = E[Hits, R_i], CD[i] = i * l * recall-base / m.

    ``l`` is the desired recall, ``m`` the desired effort in ranks.

    Examples
    --------
    Toy example by length, System 3, l = 1, m = 2: NSRCG[2] = 30 / (2 * 50 / 2) = 0.6.

    >>> P = {(3, 1): 0.16, (4, 1): 0.11}
    >>> nav = lambda to, fr: np.array([[P.get((int(a), int(b)), 0.0) for b in fr] for a in to])
    >>> t = ESRTopic([np.array([3]), np.array([1]), np.array([4])], [30, 100, 20],
    ...              [np.array([3]), np.array([4])], np.array([30.0, 20.0]))
    >>> round(nsrcg(t, nav, 2, l=1, m=2), 3)
    0.6
    """
    e = esr_expectations(topic, nav, i)
    cd = i * l * e["recall_base"] / m
    return e["hits"] / cd if cd > 0 else 0.0


def srprum(topic: ESRTopic, nav: Navigation, r: float, k: int | None = None) -> float:
    """SRPRUM = CL(C) / C (Eq 27-29) for desired recall ``r`` (binary relevance).

    C is the first rank cut-off m (up to k, default the whole output) with
    ESRR@m >= r, and CL(C) = E[Hits] + E[Near-misses] at C.  If the output
    never reaches recall r, SRPRUM is 0.

    Examples
    --------
    Toy example, System 3 (binary): ESRR@1 = 0.5, ESRR@2 = 0.555, so for
    r = 0.55 C = 2 and SRPRUM = 1.11 / 2.

    >>> P = {(3, 1): 0.16, (4, 1): 0.11}
    >>> nav = lambda to, fr: np.array([[P.get((int(a), int(b)), 0.0) for b in fr] for a in to])
    >>> t = ESRTopic([np.array([3]), np.array([1]), np.array([4])], [30, 100, 20],
    ...              [np.array([3]), np.array([4])], np.array([1.0, 1.0]))
    >>> round(srprum(t, nav, r=0.55), 3)
    0.555
    """
    k = len(topic.results) if k is None else min(k, len(topic.results))
    for c in range(1, k + 1):
        e = esr_measures(topic, nav, c)
        if e["ESRR"] >= r:
            return (e["hits"] + e["near_misses"]) / c
    return 0.0
