"""The ESR measures as registered measure objects, computed from :func:`esr_curves`.

Relevance values: ``rel=binary`` (an assessed node with relevance > 0 counts
1) or ``rel=length`` (its highlighted characters, the relevance value times
the node length for element assessments).  Defaults follow the paper's
examples: ESRP/ESRR/SRPRUM binary, SRiP/SRiR/NSRCG by length.

SRiP2/SRiR2 and NSRCG2 (Eq 30-34) add near-misses to the gain of SRiP/SRiR
and NSRCG; the equations themselves are images missing from the seed text,
so this follows its sentence "HiXEval and XCG ... where near-misses are
included": gain = E[Hits] + E[Near-misses].  Near-misses count relevant
text the user reaches outside what was retrieved, so SRiP2 (gain over the
retrieved size) can exceed 1.
"""

from __future__ import annotations

import numpy as np

from ..base import Measure, Param, register
from .kernel import ESRInputs, esr_curves_many

__all__ = [
    "ESRP",
    "ESRR",
    "SRiP",
    "SRiR",
    "SRiP2",
    "SRiR2",
    "NSRCG",
    "NSRCG2",
    "SRPRUM",
    "MASRiP",
    "MASRiP2",
    "MAESRP",
    "compute_esr_family",
    "mean_interpolated",
]

_REL = Param(str, None, "relevance value: binary or length (highlighted characters)", choices=("binary", "length"))


class _ESRMeasure(Measure):
    FAMILY = "esr"
    CUTOFF = "required"
    DEFAULT_REL = "binary"
    SUPPORTED_PARAMS = {"rel": _REL}

    def rel_mode(self) -> str:
        """The relevance value it reads: its ``rel`` (one of the declared choices), else its own default."""
        return self.params.get("rel") or self.DEFAULT_REL


class _At:
    """The curves one measure reads at its cut-off ``k``: hits ``h``, near-misses ``nm``, recall-base ``rb``, the
    size of the first k trees, misses, and the topics' relevant totals ``t_rel``."""

    def __init__(self, curves: dict, column: int, k: int, t_rel: np.ndarray):
        self.h, self.nm, self.rb, self.size, self.misses = (
            curves[key][:, column] for key in ("hits", "near_misses", "recall_base", "size", "misses")
        )
        self.k, self.t_rel = k, t_rel


def _declare(
    name: str,
    desc: str,
    default_rel: str,
    kernel,
    params: dict | None = None,
    cutoff: str = "required",
    bounds: tuple | None = (0.0, 1.0),
    empty: float | None = 0.0,
    every_rank: bool = False,
):
    """Declare and register an ESR measure with its kernel: ``kernel(at, m)`` of the curves at its cut-off
    (:class:`_At`), or, with ``every_rank``, ``kernel(curves, cutoffs, t_rel, m, shared)`` over every rank up to
    its cut-off."""
    cls = type(
        f"_{name.replace('.', '_')}",
        (_ESRMeasure,),
        {
            "NAME": name,
            "DESCRIPTION": desc,
            "DEFAULT_REL": default_rel,
            "CUTOFF": cutoff,
            "BOUNDS": bounds,
            "EMPTY": empty,
            "SUPPORTED_PARAMS": {"rel": _REL, **(params or {})},
            "EVERY_RANK": every_rank,
            "KERNEL": staticmethod(kernel),
        },
    )
    register(cls)
    return cls()


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b, out=np.zeros_like(a, dtype=float), where=b > 0)


ESRP = _declare("ESRP", "E[Hits]@k / k (ESR Eq 13)", "binary", lambda v, m: v.h / v.k)
ESRR = _declare(
    "ESRR", "(E[Hits] + E[Near-misses]) / recall-base at k (ESR Eq 14)", "binary", lambda v, m: _ratio(v.h + v.nm, v.rb)
)
SRiP = _declare("SRiP", "E[Hits] / size of the first k trees (ESR Eq 18)", "length", lambda v, m: _ratio(v.h, v.size))
SRiR = _declare("SRiR", "E[Hits] / T_rel (ESR Eq 19)", "length", lambda v, m: _ratio(v.h, v.t_rel))
SRiP2 = _declare(
    "SRiP2",
    "(E[Hits] + E[Near-misses]) / size of the first k trees (ESR Eq 30)",
    "length",
    lambda v, m: _ratio(v.h + v.nm, v.size),
    bounds=None,
)
SRiR2 = _declare(
    "SRiR2",
    "(E[Hits] + E[Near-misses]) / T_rel (ESR Eq 31)",
    "length",
    lambda v, m: _ratio(v.h + v.nm, v.t_rel),
    bounds=None,
)
_LM = {
    "l": Param(float, 1.0, "desired recall", range="(0, inf)"),
    "m": Param(float, 10.0, "desired effort in ranks", range="(0, inf)"),
}
NSRCG = _declare(
    "NSRCG",
    "E[Hits]@k / (k l recall-base / m) (ESR Eq 23-25)",
    "length",
    lambda v, m: _ratio(v.h, v.k * m["l"] * v.rb / m["m"]),
    _LM,
    bounds=None,
)
NSRCG2 = _declare(
    "NSRCG2",
    "(E[Hits] + E[Near-misses])@k / (k l recall-base / m) (ESR Eq 32-34)",
    "length",
    lambda v, m: _ratio(v.h + v.nm, v.k * m["l"] * v.rb / m["m"]),
    _LM,
    bounds=None,
)
SRPRUM = _declare(
    "SRPRUM",
    "CL(C) / C at the first cut-off C with ESRR >= r (ESR Eq 27-29): CL counts expected "
    "hits and near-misses, so it exceeds 1 when the results lead to more relevant elements than there "
    "are ranks (not a precision in [0, 1])",
    "binary",
    lambda curves, cutoffs, t_rel, m, shared: _srprum(curves, cutoffs, m["r"], m.cutoff),
    {"r": Param(float, 0.5, "desired recall", range="(0, 1]")},
    cutoff="optional",
    bounds=None,
    every_rank=True,
)
MASRiP = _declare(
    "MASRiP",
    "SRiP interpolated at 101 recall points of SRiR2, averaged (ESR section 7)",
    "length",
    lambda curves, cutoffs, t_rel, m, shared: _mean_averaged("hits", curves, cutoffs, t_rel, m.cutoff, shared),
    cutoff="optional",
    every_rank=True,
)
MASRiP2 = _declare(
    "MASRiP2",
    "SRiP2 interpolated at 101 recall points of SRiR2, averaged (ESR section 7)",
    "length",
    lambda curves, cutoffs, t_rel, m, shared: _mean_averaged("hits+near", curves, cutoffs, t_rel, m.cutoff, shared),
    cutoff="optional",
    bounds=None,
    every_rank=True,
)
MAESRP = _declare(
    "MAESRP",
    "ESRP interpolated at 101 recall points of ESRR, averaged (ESR section 7)",
    "binary",
    lambda curves, cutoffs, t_rel, m, shared: _mean_averaged("esrp", curves, cutoffs, t_rel, m.cutoff, shared),
    cutoff="optional",
    every_rank=True,
)
HITS = _declare("ESR.Hits", "E[Hits] at k (ESR Eq 8)", "binary", lambda v, m: v.h, bounds=None)
NEAR = _declare("ESR.NearMisses", "E[Near-misses] at k (ESR Eq 10)", "binary", lambda v, m: v.nm, bounds=None)
MISSES = _declare("ESR.Misses", "E[Misses] at k (ESR Eq 9)", "binary", lambda v, m: v.misses, bounds=None, empty=None)
RECALL_BASE = _declare(
    "ESR.RecallBase", "recall-base at k (ESR Eq 11)", "binary", lambda v, m: v.rb, bounds=None, empty=None
)


def compute_esr_family(measures: list[Measure], inputs: dict[str, ESRInputs]) -> dict[Measure, np.ndarray]:
    """Per-topic values of ESR measures.

    Parameters
    ----------
    measures : list of Measure
    inputs : dict
        ``{"binary": ESRInputs, "length": ESRInputs}``: the same run and
        navigation with relevance values of each kind (only those the
        measures need must be present).
    """
    out: dict[Measure, np.ndarray] = {}
    by_rel: dict[str, list] = {}
    for m in measures:
        by_rel.setdefault(m.rel_mode(), []).append(m)
    modes = list(by_rel)
    first = inputs[modes[0]]
    longest = int(np.bincount(first.ranked.result_topic).max()) if first.ranked.num_results else 1
    # a cut-off past every topic's last result reads the curves there (they do not change beyond it), so that
    # what is computed follows the run, not the cut-off; a measure dividing by k still divides by its own k
    reach = {m: None if m.cutoff is None else min(m.cutoff, longest) for m in measures}
    mode_cutoffs = []
    for mode in modes:  # the cut-offs each relevance mode's measures read
        cutoffs = {reach[m] for m in by_rel[mode] if m.cutoff is not None}
        every = [m for m in by_rel[mode] if m.EVERY_RANK]  # measures over every rank up to their k
        if every:
            upto = max(longest if m.cutoff is None else reach[m] for m in every)
            cutoffs |= set(range(1, upto + 1))
        mode_cutoffs.append(sorted(cutoffs) or [1])
    # one navigation pass for every relevance mode (they share run, assessments and navigation)
    all_curves = esr_curves_many(first, mode_cutoffs, [inputs[mode].assess_rel for mode in modes])
    for mode, curves, cutoffs in zip(modes, all_curves, mode_cutoffs):
        ms, x = by_rel[mode], inputs[mode]
        t_rel = np.bincount(x.assess_topic, weights=np.asarray(x.assess_rel, float), minlength=len(x.ranked.topics))
        col = {k: c for c, k in enumerate(cutoffs)}
        sorted_recall: dict = {}  # per relevance mode: recall levels sorted once for the measures sharing them
        for m in ms:
            if m.EVERY_RANK:
                out[m] = m.KERNEL(curves, cutoffs, t_rel, m, sorted_recall)
            else:
                out[m] = m.KERNEL(_At(curves, col[reach[m]], m.cutoff, t_rel), m)
    return out


def mean_interpolated(precision: np.ndarray, recall: np.ndarray | None, points: int = 101, reached=None) -> np.ndarray:
    """Per topic (row), the mean over recall levels x = 0, 1/(points-1), ..., 1 of the
    interpolated precision ``max{precision[r] : recall[r] >= x}`` (0 where no rank reaches x).

    ``reached``: :func:`recall_levels` of the recall, computed once for several precisions over the same recall
    (then ``recall`` may be None).

    Examples
    --------
    >>> mean_interpolated(np.array([[1.0, 0.5]]), np.array([[0.5, 1.0]]), points=3).round(4).tolist()
    [0.8333]
    """
    T, K = precision.shape
    if K == 0:
        return np.zeros(T)
    order, i = reached if reached is not None else recall_levels(recall, points)
    ps = precision if order is None else np.take_along_axis(precision, order, axis=1)
    best_from = np.maximum.accumulate(ps[:, ::-1], axis=1)[:, ::-1]  # max precision at recall >= rs[i]
    ip = np.where(i < K, np.take_along_axis(best_from, np.minimum(i, K - 1), axis=1), 0.0)
    return ip.mean(axis=1)


def recall_levels(recall: np.ndarray, points: int = 101):
    """What :func:`mean_interpolated` needs of the recall: the order that sorts each topic's recall (None when
    it is non-decreasing along the ranking already, up to rounding -- the usual case, no sort) and, per topic
    and recall level, the first rank (in that order) reaching the level (K where none does)."""
    T, K = recall.shape
    if K < 2 or (np.diff(recall, axis=1) >= -1e-12).all():
        rs, order = np.maximum.accumulate(recall, axis=1), None
    else:
        order = np.argsort(recall, axis=1, kind="stable")
        rs = np.take_along_axis(recall, order, axis=1)
    levels = np.linspace(0.0, 1.0, points)
    # one search for every topic: shift topic t's recalls (in [0, 1]) and levels by 2t
    shift = 2.0 * np.arange(T)[:, None]
    i = np.searchsorted((rs + shift).ravel(), (levels[None, :] - 1e-12 + shift).ravel(), side="left")
    return order, i.reshape(T, points) - K * np.arange(T)[:, None]


def _upto(ks: np.ndarray, k_max: int | None) -> int:
    """How many of the sorted cut-offs ``ks`` lie at or below ``k_max`` (None: no bound; any Python int)."""
    if k_max is None or not len(ks) or k_max >= int(ks[-1]):
        return len(ks)
    return int(np.searchsorted(ks, k_max, side="right"))


def _mean_averaged(
    gain: str, curves: dict, cutoffs: list[int], t_rel: np.ndarray, k_max: int | None, shared: dict | None = None
) -> np.ndarray:
    """Interpolated precision averaged over 101 recall points: ``gain`` 'esrp' (ESRP over ESRR's recall), 'hits'
    (SRiP over SRiR2's) or 'hits+near' (SRiP2 over SRiR2's)."""
    ks = np.array(cutoffs)
    use = slice(0, _upto(ks, k_max))
    h, nm, rb, size = (curves[key][:, use] for key in ("hits", "near_misses", "recall_base", "size"))
    shared = {} if shared is None else shared
    if gain == "esrp":
        precision = h / ks[use][None, :]
        key = ("ESRR", use.stop)
        if key not in shared:
            shared[key] = recall_levels(_ratio(h + nm, rb))
    else:
        precision = _ratio(h if gain == "hits" else h + nm, size)
        key = ("SRiR2", use.stop)  # MASRiP and MASRiP2 share their recall levels: sorted once
        if key not in shared:
            shared[key] = recall_levels(_ratio(h + nm, np.broadcast_to(t_rel[:, None], h.shape)))
    # a topic's ranks beyond its results add nothing: they repeat its last values, which cannot raise a max
    return mean_interpolated(precision, None, reached=shared[key])


def _srprum(curves: dict, cutoffs: list[int], r: float, k_max: int | None) -> np.ndarray:
    h, nm, rb = curves["hits"], curves["near_misses"], curves["recall_base"]
    esrr = _ratio(h + nm, rb)
    ks = np.array(cutoffs)
    ok = (esrr >= r) & (np.arange(len(ks)) < _upto(ks, k_max))[None, :]
    out = np.zeros(h.shape[0])
    for t in range(h.shape[0]):
        idx = np.flatnonzero(ok[t])
        if len(idx):
            c = idx[0]
            out[t] = (h[t, c] + nm[t, c]) / ks[c]
    return out
