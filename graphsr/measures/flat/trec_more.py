"""The rest of trec_eval's measures, beside the standard set of :mod:`.measures`: infAP, the set measures, GMAP,
precision at multiples of R, relative precision, the 11-point average, utility, G, binG, the nDCG variants and
trec_eval 10.0's rank-biased precision, its residual and the unjudged rate,
computed topic by topic by the kernels of ``graphsr trec_eval`` (:mod:`graphsr.measures.trec_eval.kernels`),
so that they equal trec_eval's numbers; ir_measures' spellings (``infAP``, ``SetP``, ``SetR``, ``SetF``,
``SetAP``, ``SetP(relative=true)``) are theirs.

They read grades as trec_eval does: whole numbers, an item relevant at ``rel`` or above (default 1), a negative
grade "in the pool, not judged", an item not assessed "not in the pool".  Fractional grades (SR's [0, 1]
element assessments) are read as the other flat measures read them: relevant above 0 (or at ``rel``), the
relevant ones counting as grade 1 (the gains of G and the nDCG variants are then binary).  A tree result
counts as one item, graded as :mod:`graphsr.measures.flat.ranking` grades it.

>>> from graphsr.measures import parse_measure
>>> parse_measure("SetF(beta=0.5)"), parse_measure("GMAP"), parse_measure("RelP@10"), parse_measure("RprecMult@1.5")
(SetF(beta=0.5), GMAP, RelP@10, RprecMult@1.5)
>>> parse_measure("RBP(p=0.8)"), parse_measure("rbp_resid"), parse_measure("Unj@10")
(RBP(p=0.8), RBPResid, Unj@10)
"""

from __future__ import annotations

import math

import numpy as np

from ..base import Measure, Param, register
from .measures import _JUDGED, _Flat, _gains

__all__ = ["TREC_MORE", "trec_kernel"]

_LEVEL = Param(
    float, None, "an item is relevant at this whole grade or above (default 1; trec_eval -l)", range="(-inf, inf)"
)


class _TrecFlat(_Flat):
    """A flat measure computed by a ``graphsr trec_eval`` kernel (``KERNEL``), topic by topic; ``VALUE``: which
    of the kernel's values (for kernels of several cut-offs)."""

    KERNEL = ""
    SUPPORTED_PARAMS = {"rel": _LEVEL, "judged_only": _JUDGED}

    def kernel_params(self):
        """The kernel's parameters, as ``graphsr trec_eval`` passes them."""
        return ()


class _infAP(_TrecFlat):
    NAME = "infAP"
    DESCRIPTION = "inferred average precision (Yilmaz and Aslam 2006; trec_eval infAP)"
    KERNEL = "infAP"
    SUPPORTED_PARAMS = {"rel": _LEVEL}


class _SetP(_TrecFlat):
    NAME = "SetP"
    DESCRIPTION = (
        "precision of the whole retrieved set; relative=true: over min(retrieved, R) (trec_eval set_P, set_relative_P)"
    )
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"rel": _LEVEL, "relative": Param(bool, False, "over min(retrieved, R)"), "judged_only": _JUDGED}

    @property
    def KERNEL(self):  # noqa: N802
        return "set_relative_P" if self["relative"] else "set_P"


class _SetR(_TrecFlat):
    NAME = "SetR"
    DESCRIPTION = "recall of the whole retrieved set (trec_eval set_recall)"
    CUTOFF = "none"
    KERNEL = "set_recall"
    SUPPORTED_PARAMS = {"rel": _LEVEL}


class _SetF(_TrecFlat):
    NAME = "SetF"
    DESCRIPTION = "F-measure of the retrieved set, (beta + 1) P R / (beta P + R) (trec_eval set_F)"
    CUTOFF = "none"
    KERNEL = "set_F"
    SUPPORTED_PARAMS = {
        "rel": _LEVEL,
        "beta": Param(float, 1.0, "weight of recall", range="[0, inf)"),
        "judged_only": _JUDGED,
    }

    def kernel_params(self):
        return (self["beta"],)


class _SetAP(_TrecFlat):
    NAME = "SetAP"
    DESCRIPTION = "set precision times set recall (trec_eval set_map)"
    CUTOFF = "none"
    KERNEL = "set_map"


class _GMAP(_TrecFlat):
    NAME = "GMAP"
    DESCRIPTION = (
        "average precision, aggregated by its geometric mean over topics (values below 0.00001 "
        "count as 0.00001; trec_eval gm_map)"
    )
    CUTOFF = "none"
    AGGREGATE = "gm"
    KERNEL = "map"


class _GMBpref(_TrecFlat):
    NAME = "GMBpref"
    DESCRIPTION = "bpref, aggregated by its geometric mean over topics (floor 0.00001; trec_eval gm_bpref)"
    CUTOFF = "none"
    AGGREGATE = "gm"
    KERNEL = "bpref"
    SUPPORTED_PARAMS = {"rel": _LEVEL}


class _RprecMult(_TrecFlat):
    NAME = "RprecMult"
    DESCRIPTION = "precision at x times R documents (trec_eval Rprec_mult_x)"
    CUTOFF = "none"
    AT_PARAM = "mult"
    KERNEL = "Rprec_mult"
    SUPPORTED_PARAMS = {
        "mult": Param(float, None, "the multiple of R (RprecMult@1.5)", range="(0, inf)"),
        "rel": _LEVEL,
        "judged_only": _JUDGED,
    }

    def kernel_params(self):
        return (self["mult"],)

    def validate(self) -> "Measure":
        from ...errors import MeasureNameError

        super().validate()
        if self["mult"] is None:
            raise MeasureNameError("RprecMult needs a multiple of R, e.g. RprecMult@1.5")
        return self


class _RelP(_TrecFlat):
    NAME = "RelP"
    DESCRIPTION = "relevant items in the first k, over min(k, R) (trec_eval relative_P_k)"
    CUTOFF = "required"
    KERNEL = "relative_P"

    def kernel_params(self):
        return (self.cutoff,)


class _IPrecAvg(_TrecFlat):
    NAME = "IPrecAvg"
    DESCRIPTION = "interpolated precision averaged over the 11 recall levels 0, 0.1, ..., 1 (trec_eval 11pt_avg)"
    CUTOFF = "none"
    KERNEL = "11pt_avg"

    def kernel_params(self):
        return tuple(k / 10 for k in range(11))


class _Utility(_TrecFlat):
    NAME = "Utility"
    DESCRIPTION = (
        "a rel_ret + b nonrel_ret + c rel_missed + d nonrel_missed, the last over a collection of "
        "docs documents (trec_eval utility, -N)"
    )
    CUTOFF = "none"
    BOUNDS = None
    KERNEL = "utility"
    SUPPORTED_PARAMS = {
        "a": Param(float, 1.0, "per relevant item retrieved", range="(-inf, inf)"),
        "b": Param(float, -1.0, "per non-relevant item retrieved", range="(-inf, inf)"),
        "c": Param(float, 0.0, "per relevant item missed", range="(-inf, inf)"),
        "d": Param(float, 0.0, "per non-relevant document missed", range="(-inf, inf)"),
        "docs": Param(int, 0, "documents in the collection (trec_eval -N)", range="[0, inf)"),
        "rel": _LEVEL,
        "judged_only": _JUDGED,
    }

    def kernel_params(self):
        return (self["a"], self["b"], self["c"], self["d"])


class _binG(_TrecFlat):
    NAME = "binG"
    DESCRIPTION = "binary G: the relevant items' 1 / log2(rank + 1 - relevant above), over R (trec_eval binG)"
    CUTOFF = "none"
    KERNEL = "binG"


_GAINS = Param(dict, None, "grade -> gain mapping, e.g. {1:1,2:3} (default: the grade; trec_eval's 1=1,2=3)", _gains)


class _Gained(_TrecFlat):
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"gains": _GAINS, "judged_only": _JUDGED}

    def kernel_params(self):
        return tuple((str(int(k)), float(v)) for k, v in (self["gains"] or {}).items())


class _G(_Gained):
    NAME = "G"
    DESCRIPTION = "G: gains discounted by the cost of reaching them (trec_eval G)"
    KERNEL = "G"


class _nDCGRel(_Gained):
    NAME = "nDCGRel"
    DESCRIPTION = "nDCG averaged over the relevant documents (trec_eval ndcg_rel)"
    KERNEL = "ndcg_rel"


class _RnDCG(_Gained):
    NAME = "RnDCG"
    DESCRIPTION = "nDCG averaged at the R levels of each grade (trec_eval Rndcg)"
    KERNEL = "Rndcg"


class _YAAP(_TrecFlat):
    NAME = "YAAP"
    DESCRIPTION = "yet another AP: log((1 + the AP sum) / (1 + R - the AP sum)) (trec_eval yaap)"
    CUTOFF = "none"
    BOUNDS = None
    KERNEL = "yaap"


class _NumNonRelJudgedRet(_TrecFlat):
    NAME = "NumNonRelJudgedRet"
    DESCRIPTION = "judged non-relevant items retrieved; all: sum (trec_eval num_nonrel_judged_ret)"
    CUTOFF = "none"
    INTEGER = True
    AGGREGATE = "sum"
    BOUNDS = None
    KERNEL = "num_nonrel_judged_ret"


def _all_gains(v: dict) -> dict | None:
    """A gain mapping, every entry kept (an entry grade=grade still widens the range RBP rescales over)."""
    _gains(v)  # (checks the entries)
    return dict(v) or None


_P_RBP = Param(float, 0.9, "persistence: the chance of reading on to the next item", range="[0, 1)")
_RBP_DIFFERS = (
    "graphsr's is trec_eval 10.0's (p=0.9 by default, graded gains rescaled to [0, 1]), ir_measures' "
    "its providers' (p=0.8 by default, binary relevance at rel=); write RBP(p=0.8) for the first"
)


class _RBP(_TrecFlat):
    NAME = "RBP"
    DESCRIPTION = (
        "rank-biased precision (Moffat and Zobel 2008): (1 - p) sum of gain_i p^(i-1), gain = grade, or "
        "gains[grade], rescaled to [0, 1] when one lies outside (trec_eval 10.0 rbp)"
    )
    CUTOFF = "none"
    KERNEL = "rbp"
    IR_DIFFERS = _RBP_DIFFERS
    SUPPORTED_PARAMS = {
        "p": _P_RBP,
        "judged_only": _JUDGED,
        "gains": Param(
            dict,
            None,
            "grade -> gain mapping, e.g. {0:0,1:0.5,2:1} (default: the grade; trec_eval's 0=0,1=0.5,2=1)",
            _all_gains,
        ),
    }

    def kernel_params(self):
        return (("p", self["p"]),) + tuple((str(int(k)), float(v)) for k, v in (self["gains"] or {}).items())


class _RBPResid(_TrecFlat):
    NAME = "RBPResid"
    DESCRIPTION = (
        "RBP's residual: p^n plus (1 - p) sum of p^(i-1) over the unjudged items of the n retrieved, "
        "what they and the ranks past the ranking could add; 0 when no item retrieved is unjudged "
        "(trec_eval 10.0 rbp_resid)"
    )
    CUTOFF = "none"
    KERNEL = "rbp_resid"
    IR_DIFFERS = _RBP_DIFFERS
    SUPPORTED_PARAMS = {"p": _P_RBP}

    def kernel_params(self):
        return (("p", self["p"]),)


class _Unj(_TrecFlat):
    NAME = "Unj"
    DESCRIPTION = (
        "unjudged items (not assessed, or a negative grade) among the first k, over k; a ranking "
        "shorter than k counts its missing ranks as judged (trec_eval 10.0 unj_k)"
    )
    CUTOFF = "required"
    KERNEL = "unj"
    SUPPORTED_PARAMS = {}

    def kernel_params(self):
        return (self.cutoff,)


#: The measure classes of this module.
TREC_MORE = (
    _infAP,
    _SetP,
    _SetR,
    _SetF,
    _SetAP,
    _GMAP,
    _GMBpref,
    _RprecMult,
    _RelP,
    _IPrecAvg,
    _Utility,
    _binG,
    _G,
    _nDCGRel,
    _RnDCG,
    _YAAP,
    _NumNonRelJudgedRet,
    _RBP,
    _RBPResid,
    _Unj,
)
for _cls in TREC_MORE:
    register(_cls)


def trec_kernel(m, rk, j) -> np.ndarray:
    """Per-topic values of ``m`` from the run's :class:`~.ranking.Ranking` and the :class:`~.judgments.Judgments`,
    each topic as ``graphsr trec_eval`` sees it (items above the grade level relevant; not assessed: not in the
    pool; a negative grade: in the pool, unjudged; an item retrieving nothing new: not in the pool)."""
    from ..trec_eval.kernels import KERNELS, NOT_IN_POOL, UNJUDGED, Ranked, grade_counts
    from .ranking import relevant

    if m.params.get("judged_only"):
        rk = rk.judged_only
    threshold = m.params.get("rel")
    grade, assessed = rk.grade, j.grade
    graded = np.isfinite(grade)
    if (grade[graded] == np.round(grade[graded])).all() and (assessed == np.round(assessed)).all():
        level = 1 if threshold is None else math.ceil(threshold)
    else:  # fractional grades: relevant ones are grade 1, the other judged ones 0
        level = 1
        grade = np.where(graded & (grade >= 0), relevant(grade, threshold).astype(float), grade)
        assessed = np.where(assessed >= 0, relevant(assessed, threshold).astype(float), assessed)
    rel = np.where(
        np.isnan(grade) | np.isneginf(grade), NOT_IN_POOL, np.where(grade < 0, UNJUDGED, np.nan_to_num(grade, neginf=0))
    ).astype(np.int64)
    starts = rk.starts()
    order = np.argsort(j.topic, kind="stable")
    jt, jg = j.topic[order], assessed[order]
    jstarts = np.searchsorted(jt, np.arange(j.num_topics + 1))
    kernel = KERNELS[m.KERNEL]
    params = m.kernel_params()
    docs = m.params.get("docs", 0) or 0
    out = np.zeros(rk.num_topics)
    for t in range(rk.num_topics):
        g = jg[jstarts[t] : jstarts[t + 1]]
        out[t] = kernel(Ranked(rel[starts[t] : starts[t + 1]], *grade_counts(g[g >= 0]), level, docs), params)[0]
    return out
