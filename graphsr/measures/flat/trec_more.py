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

from ..base import Measure, Param, register
from ..trec_eval import kernels as TK
from ..trec_eval.declared import CUTS, MULTS, RECALLS, TrecMeasure
from .measures import _JUDGED, ALL_TREC, OFFICIAL, _Flat, _gains

__all__ = ["TREC_MORE"]

_SET = ("set", "all_trec")

_LEVEL = Param(
    float, None, "an item is relevant at this whole grade or above (default 1; trec_eval -l)", range="(-inf, inf)"
)


class _TrecFlat(_Flat):
    """A flat measure computed by the ``graphsr trec_eval`` kernel of its trec_eval name, topic by topic."""

    SUPPORTED_PARAMS = {"rel": _LEVEL, "judged_only": _JUDGED}


class _infAP(_TrecFlat):
    NAME = "infAP"
    DESCRIPTION = "inferred average precision (Yilmaz and Aslam 2006; trec_eval infAP)"
    CUTOFF = "none"  # (trec_eval's infAP reads the whole ranking)
    TREC = (
        TrecMeasure(
            "infAP",
            "float",
            description="inferred average precision (pool samples: grade -1 unjudged)",
            kernel=TK.infap,
            order=14,
            sets=ALL_TREC,
        ),
    )
    SUPPORTED_PARAMS = {"rel": _LEVEL}


class _SetP(_TrecFlat):
    NAME = "SetP"
    DESCRIPTION = (
        "precision of the whole retrieved set; relative=true: over min(retrieved, R) (trec_eval set_P, set_relative_P)"
    )
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"rel": _LEVEL, "relative": Param(bool, False, "over min(retrieved, R)"), "judged_only": _JUDGED}
    TREC = (
        TrecMeasure(
            "set_relative_P",
            "float",
            description="set precision over min(retrieved, R)",
            kernel=TK.set_relative_p,
            order=29,
            sets=_SET,
            fixed=(("relative", True),),
        ),
        TrecMeasure(
            "set_P",
            "float",
            description="precision of the whole retrieved set",
            kernel=TK.set_p,
            order=28,
            sets=_SET,
        ),
    )


class _SetR(_TrecFlat):
    NAME = "SetR"
    DESCRIPTION = "recall of the whole retrieved set (trec_eval set_recall)"
    CUTOFF = "none"
    TREC = (
        TrecMeasure(
            "set_recall",
            "float",
            description="recall of the whole retrieved set",
            kernel=TK.set_recall,
            order=30,
            sets=_SET,
        ),
    )
    SUPPORTED_PARAMS = {"rel": _LEVEL}


class _SetF(_TrecFlat):
    NAME = "SetF"
    DESCRIPTION = "F-measure of the retrieved set, (beta + 1) P R / (beta P + R) (trec_eval set_F)"
    CUTOFF = "none"
    TREC = (
        TrecMeasure(
            "set_F",
            "floats",
            (1.0,),
            description="F-measure of the set (parameter: beta)",
            kernel=TK.set_f,
            order=32,
            sets=_SET,
            suffix="beta",
        ),
    )
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
    TREC = (
        TrecMeasure(
            "set_map",
            "float",
            description="set precision times set recall",
            kernel=TK.set_map,
            order=31,
            sets=_SET,
        ),
    )


class _GMAP(_TrecFlat):
    NAME = "GMAP"
    DESCRIPTION = (
        "average precision, aggregated by its geometric mean over topics (values below 0.00001 "
        "count as 0.00001; trec_eval gm_map)"
    )
    CUTOFF = "none"
    AGGREGATE = "gm"
    TREC = (
        TrecMeasure(
            "gm_map",
            "float",
            average="gm",
            per_topic=False,
            description="geometric mean of average precision (floor 0.00001)",
            kernel=TK.gm_ap,
            order=6,
            sets=OFFICIAL,
        ),
    )

    def exact(self):
        return TK.ap  # (per topic: AP; its logarithm is taken where topics are aggregated)


class _GMBpref(_TrecFlat):
    NAME = "GMBpref"
    DESCRIPTION = "bpref, aggregated by its geometric mean over topics (floor 0.00001; trec_eval gm_bpref)"
    CUTOFF = "none"
    AGGREGATE = "gm"
    TREC = (
        TrecMeasure(
            "gm_bpref",
            "float",
            average="gm",
            per_topic=False,
            description="geometric mean of bpref (floor 0.00001)",
            kernel=TK.gm_bpref,
            order=15,
            sets=ALL_TREC,
        ),
    )

    def exact(self):
        return TK.bpref  # (per topic: bpref; its logarithm is taken where topics are aggregated)

    SUPPORTED_PARAMS = {"rel": _LEVEL}


class _RprecMult(_TrecFlat):
    NAME = "RprecMult"
    DESCRIPTION = "precision at x times R documents (trec_eval Rprec_mult_x)"
    CUTOFF = "none"
    AT_PARAM = "mult"
    TREC = (
        TrecMeasure(
            "Rprec_mult",
            "cut_float",
            MULTS,
            description="precision at multiples of R",
            kernel=TK.rprec_mult,
            order=16,
            sets=ALL_TREC,
            suffix="mult",
        ),
    )
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
    TREC = (
        TrecMeasure(
            "relative_P",
            "cut_long",
            CUTS,
            description="precision at cut-offs over min(cut-off, R)",
            kernel=TK.relative_precision,
            order=26,
            sets=ALL_TREC,
            suffix="cutoff",
        ),
    )

    def kernel_params(self):
        return (self.cutoff,)


class _IPrecAvg(_TrecFlat):
    NAME = "IPrecAvg"
    DESCRIPTION = "interpolated precision averaged over the 11 recall levels 0, 0.1, ..., 1 (trec_eval 11pt_avg)"
    CUTOFF = "none"
    TREC = (
        TrecMeasure(
            "11pt_avg",
            "floats",
            RECALLS,
            description="interpolated precision averaged over recall levels",
            kernel=TK.eleven_point,
            order=18,
            sets=ALL_TREC,
        ),
    )

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
    TREC = (
        TrecMeasure(
            "utility",
            "floats",
            (1.0, -1.0, 0.0, 0.0),
            description="a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret (with -N)",
            kernel=TK.utility,
            order=17,
            sets=_SET,
            suffix="coefficients",
            arity=4,
            resets="bare",
        ),
    )
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
    TREC = (TrecMeasure("binG", "float", description="binary G", kernel=TK.bin_g, order=19, sets=ALL_TREC),)


_GAINS = Param(dict, None, "grade -> gain mapping, e.g. {1:1,2:3} (default: the grade; trec_eval's 1=1,2=3)", _gains)


class _Gained(_TrecFlat):
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"gains": _GAINS, "judged_only": _JUDGED}

    def kernel_params(self):
        return tuple((str(int(k)), float(v)) for k, v in (self["gains"] or {}).items())


class _G(_Gained):
    NAME = "G"
    DESCRIPTION = "G: gains discounted by the cost of reaching them (trec_eval G)"
    TREC = (
        TrecMeasure(
            "G",
            "pairs",
            description="G (graded, cost-discounted gain)",
            kernel=TK.g_measure,
            order=20,
            sets=ALL_TREC,
        ),
    )


class _nDCGRel(_Gained):
    NAME = "nDCGRel"
    DESCRIPTION = "nDCG averaged over the relevant documents (trec_eval ndcg_rel)"
    TREC = (
        TrecMeasure(
            "ndcg_rel",
            "pairs",
            description="nDCG averaged over the relevant documents",
            kernel=TK.ndcg_rel,
            order=22,
            sets=ALL_TREC,
        ),
    )


class _RnDCG(_Gained):
    NAME = "RnDCG"
    DESCRIPTION = "nDCG averaged at the R levels of each grade (trec_eval Rndcg)"
    TREC = (
        TrecMeasure(
            "Rndcg",
            "pairs",
            description="nDCG averaged at the R levels of each grade",
            kernel=TK.rndcg,
            order=23,
            sets=ALL_TREC,
        ),
    )


class _YAAP(_TrecFlat):
    NAME = "YAAP"
    DESCRIPTION = "yet another AP: log((1 + the AP sum) / (1 + R - the AP sum)) (trec_eval yaap)"
    CUTOFF = "none"
    BOUNDS = None
    TREC = (
        TrecMeasure(
            "yaap",
            "float",
            description="yet another AP: log((1 + AP sum) / (1 + R - AP sum))",
            kernel=TK.yaap,
            order=51,
        ),
    )


class _NumNonRelJudgedRet(_TrecFlat):
    NAME = "NumNonRelJudgedRet"
    DESCRIPTION = "judged non-relevant items retrieved; all: sum (trec_eval num_nonrel_judged_ret)"
    CUTOFF = "none"
    INTEGER = True
    AGGREGATE = "sum"
    BOUNDS = None
    TREC = (
        TrecMeasure(
            "num_nonrel_judged_ret",
            "long",
            average="sum",
            description="judged non-relevant retrieved",
            kernel=TK.num_nonrel_judged_ret,
            order=33,
            sets=ALL_TREC,
        ),
    )


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
    TREC = (
        TrecMeasure(
            "rbp",
            "pairs",
            description="rank-biased precision (parameters p=persistence, default 0.9, and "
            "grade=gain; gains over 1 or below 0 rescaled to [0, 1])",
            kernel=TK.rbp,
            order=52,
            sets=ALL_TREC,
            since="10.0",
            persistence=True,
        ),
    )
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
    TREC = (
        TrecMeasure(
            "rbp_resid",
            "pairs",
            description="RBP's residual: what unjudged documents and the ranks past the "
            "ranking could add (0 when no document retrieved is unjudged; parameter p)",
            kernel=TK.rbp_resid,
            order=53,
            sets=ALL_TREC,
            since="10.0",
            persistence=True,
            resets="bare",
        ),
    )
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
    TREC = (
        TrecMeasure(
            "unj",
            "cut_long",
            (5, 10, 20),
            description="unjudged documents in the first k, over k",
            kernel=TK.unjudged,
            order=54,
            sets=ALL_TREC,
            suffix="cutoff",
            since="10.0",
            resets="always",
        ),
    )
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
