r"""The flat measures researchers report beside SR: trec_eval's standard set, named as ir_measures names them.

Each ranked result is one retrieved *item* (a plain document run: a document;
an element run: an element; a tree result: the set of its nodes, see
:mod:`graphsr.measures.flat.ranking`).  An item is relevant when its grade
is at least ``rel`` (default: above 0), judged non-relevant when its grade
is 0 or more but it is not relevant, and unjudged otherwise (not assessed, or
assessed with a negative grade, which trec_eval reads as "in the pool but not
judged").  For a topic with ``R`` relevant assessed nodes (``NumRel``), ``N``
judged non-relevant ones, and ``rel_i`` = 1 when the item at rank ``i`` is
relevant:

================  =============================================================================  ==================
measure           per topic                                                                      trec_eval name
================  =============================================================================  ==================
``P@k``           :math:`\sum_{i \le k} rel_i / k`                                               ``P_k``
``R@k``           :math:`\sum_{i \le k} rel_i / R`                                               ``recall_k``
``AP``, ``AP@k``  :math:`\frac{1}{R} \sum_{i \le k,\ rel_i} P@i`                                 ``map``, ``map_cut_k``
``nDCG[@k]``      :math:`\sum_{i \le k} g_i / \log_2(i+1)` over the same for the judged gains    ``ndcg``, ``ndcg_cut_k``
                  sorted decreasing (gain = grade, or ``gains[grade]``; ``dcg=exp-log2``:
                  :math:`2^{g}-1`)
``RR[@k]``        :math:`1 / \min\{i \le k : rel_i\}` (0 if none; ``@k`` as ir_measures)        ``recip_rank``
``Rprec``         :math:`\sum_{i \le R} rel_i / R`                                               ``Rprec``
``Bpref``         :math:`\frac{1}{R} \sum_{rel_i} \left(1 - \frac{\min(n_i, R)}{\min(N, R)}         ``bpref``
                  \right)`, :math:`n_i` judged non-relevant items above rank ``i``
``Success@k``     1 if :math:`\sum_{i \le k} rel_i > 0`                                          ``success_k``
``IPrec@x``       :math:`\max_{j \ge i_c} P@j`, ``i_c`` the rank of the ``c``-th relevant        ``iprec_at_recall_x``
                  item, :math:`c = \lfloor xR + 0.9 \rfloor` (0 if fewer are retrieved)
``NumRet``        items retrieved (``rel=``: those relevant at ``rel`` or above); all: sum       ``num_ret``
``NumRelRet``     relevant items retrieved; all: sum                                             ``num_rel_ret``
``NumRel``        ``R``; all: sum                                                                ``num_rel``
``NumQ``          1 per topic; all: the topics averaged                                          ``num_q``
``Judged@k``      items among the first ``min(k, retrieved)`` that are assessed, over their      (ir_measures)
                  number
``ERR@k``         :math:`\sum_{i \le k} \frac{R_i}{i} \prod_{j<i} (1 - R_j)`,                     (ir_measures,
                  :math:`R_i = (2^{g_i} - 1) / 2^4` (grades 0..4; negative and unjudged: 0)       gdeval)
``F1[@k]``        :math:`2 \sum_{i \le k} rel_i / (k + R)`, the harmonic mean of P@k and R@k     (ranx ``f1``)
                  (no @k: k the items retrieved)
``DCG[@k]``       :math:`\sum_{i \le k} g_i / \log_2(i+1)`, not normalised (gain = grade, or     (ranx ``dcg``,
                  ``dcg=exp-log2``: :math:`2^{g}-1`; negative and unjudged: 0)                   ``dcg_burges``)
================  =============================================================================  ==================

``judged_only=true`` (trec_eval ``-J``) removes unjudged items before
scoring.  Items are ranked as trec_eval ranks documents (score descending,
ties by document id descending) or by the rank column of an element run.
Differential tests hold each measure to trec_eval (through pytrec_eval) per
topic and in aggregate, and the two trec_eval lacks, ``Judged@k`` and
``RR@k``, to ir_measures, which breaks ties in score by document id
*ascending* for them: graphsr does the same for these two.

Where trec_eval divides 0 by 0 -- ``IPrec`` of a topic whose ranking is empty
(with ``judged_only``, of only unjudged items) -- graphsr gives 0, not NaN.
trec_eval crashes or loops on a topic whose every grade is negative; graphsr
scores it (nothing relevant).

>>> from graphsr.measures import parse_measure
>>> parse_measure("P@10"), parse_measure("MAP"), parse_measure("nDCG@5"), parse_measure("P(rel=2)@5")
(P@10, AP, nDCG@5, P(rel=2)@5)
>>> parse_measure("IPrec@0.5"), parse_measure("RR(judged_only=true)@10"), parse_measure("NumRet(rel=1)")
(IPrec@0.5, RR(judged_only=True)@10, NumRet(rel=1))
"""

from __future__ import annotations

from typing import Any

from ..base import Measure, Param, register
from ..trec_eval import kernels as TK
from ..trec_eval.declared import CUTS, RECALLS, SET_NAMES, TrecMeasure
from . import kernels as FK
from . import ties as TA

__all__ = [
    "P",
    "R",
    "AP",
    "nDCG",
    "RR",
    "Rprec",
    "Bpref",
    "Success",
    "NumRet",
    "NumRelRet",
    "NumRel",
    "NumQ",
    "IPrec",
    "Judged",
    "ERR",
    "DCG",
    "F1",
    "FLAT_MEASURES",
]


def _threshold(v: float) -> float:
    if v <= 0:
        raise ValueError(
            f"rel={v:g} counts every retrieved item as relevant; give a threshold above 0 "
            "(by default an item is relevant when its grade is above 0)"
        )
    return v


def _dcg(v: str) -> str:
    if v not in ("log2", "exp-log2"):
        raise ValueError(f"expected log2 or exp-log2, got {v!r}")
    return v


def _gains(v: dict) -> dict | None:
    """A gain mapping without its identity entries (as ir_measures writes it); None when nothing is left."""
    out = {}
    for k, g in v.items():
        if (
            isinstance(k, bool)
            or isinstance(g, bool)
            or not isinstance(k, (int, float))
            or not isinstance(g, (int, float))
        ):
            raise ValueError(f"expected grade:gain numbers, got {k!r}:{g!r}")
        if k != g:
            out[k] = g
    return out or None


#: The sets trec_eval's counts, its official measures and the rest of its list belong to.
COUNTED = ("official", "set", "all_trec")
OFFICIAL = ("official", "all_trec")
ALL_TREC = ("all_trec",)

_REL = Param(float, None, "an item is relevant at this grade or above (default: above 0)", _threshold, range="(0, inf)")
_JUDGED = Param(bool, False, "drop unjudged items before scoring (trec_eval -J)")


class _Flat(Measure):
    FAMILY = "flat"
    BOUNDS = (0.0, 1.0)
    ANY_SCALE = True  # TREC-style grades (0..4, negative) as trec_eval reads them
    SUPPORTED_PARAMS = {"rel": _REL, "judged_only": _JUDGED}
    #: trec_eval's names of this measure, each with its kernel in ``graphsr trec_eval``
    #: (:mod:`graphsr.measures.trec_eval.kernels`): the one declaration of trec_eval's list
    #: (:mod:`graphsr.measures.trec_table` gathers it).
    TREC: tuple[TrecMeasure, ...] = ()
    #: The vectorised kernel (:mod:`graphsr.measures.flat.kernels`) ``graphsr eval`` scores the measure by, held
    #: to the exact kernel by tests/test_flat_fast_paths.py (a measure trec_eval lacks: to its reference tool).
    FAST: Any = None
    #: Its expected value over the orderings of results tied in score (:mod:`graphsr.measures.flat.ties`).
    TIES: Any = None

    def trec_form(self) -> TrecMeasure | None:
        """The trec_eval name this measure is, with its parameters (None: none is): a ``cutoff`` name where it has
        a cut-off, another where it has none, the names that fix parameters only where it has them."""
        for form in self.TREC:
            if (form.suffix == "cutoff") != (self.cutoff is not None):
                continue
            if all(self.params.get(k) == v for k, v in form.fixed):
                return form
        return None

    def exact(self):
        """The ``graphsr trec_eval`` kernel that is this measure, exactly as trec_eval computes it (None: trec_eval
        has none, e.g. ir_measures' Judged; its fast path is then held to its reference tool)."""
        form = self.trec_form()
        return None if form is None else form.kernel

    def kernel_params(self) -> tuple:
        """The exact kernel's parameters, as ``graphsr trec_eval`` passes them."""
        return ()


class _P(_Flat):
    NAME = "P"
    DESCRIPTION = "precision at k: relevant items in the first k, over k (trec_eval P_k)"
    CUTOFF = "required"
    TREC = (
        TrecMeasure(
            "P",
            "cut_long",
            CUTS,
            description="precision at cut-offs",
            kernel=TK.precision,
            order=11,
            sets=OFFICIAL,
            suffix="cutoff",
        ),
    )
    FAST = staticmethod(FK.precision)
    TIES = staticmethod(TA.precision)

    def kernel_params(self) -> tuple:
        return (self.cutoff,)


class _R(_Flat):
    NAME = "R"
    DESCRIPTION = "recall at k: relevant items in the first k, over the relevant assessed R (trec_eval recall_k)"
    CUTOFF = "required"
    TREC = (
        TrecMeasure(
            "recall",
            "cut_long",
            CUTS,
            description="recall at cut-offs",
            kernel=TK.recall,
            order=13,
            sets=ALL_TREC,
            suffix="cutoff",
        ),
    )
    FAST = staticmethod(FK.recall)
    TIES = staticmethod(TA.recall)

    def kernel_params(self) -> tuple:
        return (self.cutoff,)


class _AP(_Flat):
    NAME = "AP"
    DESCRIPTION = (
        "average precision: the sum of P@i at the ranks i of relevant items, over R (trec_eval map; "
        "@k: map_cut_k, the first k items)"
    )
    TREC = (
        TrecMeasure("map", "float", description="mean average precision", kernel=TK.ap, order=5, sets=OFFICIAL),
        TrecMeasure(
            "map_cut",
            "cut_long",
            CUTS,
            description="average precision at cut-offs",
            kernel=TK.ap_cut,
            order=25,
            sets=ALL_TREC,
            suffix="cutoff",
        ),
    )
    FAST = staticmethod(FK.average_precision)
    TIES = staticmethod(TA.average_precision)

    def kernel_params(self) -> tuple:
        return () if self.cutoff is None else (self.cutoff,)


class _nDCG(_Flat):
    NAME = "nDCG"
    DESCRIPTION = (
        "normalised discounted cumulated gain: sum of gain_i / log2(i + 1) over the same for the "
        "judged gains sorted decreasing; gain = grade, or gains[grade] (trec_eval ndcg; @k: "
        "ndcg_cut_k)"
    )
    SUPPORTED_PARAMS = {
        "dcg": Param(str, "log2", "log2 (gain = grade) or exp-log2 (gain = 2^grade - 1)", _dcg),
        "gains": Param(dict, None, "grade -> gain mapping, e.g. {0:0,1:1,2:3} (as ir_measures)", _gains),
        "judged_only": _JUDGED,
    }
    TREC = (
        TrecMeasure(
            "ndcg",
            "pairs",
            description="normalised discounted cumulative gain (gains: grade=gain)",
            kernel=TK.ndcg,
            order=21,
            sets=ALL_TREC,
        ),
        TrecMeasure(
            "ndcg_cut",
            "cut_long",
            CUTS,
            description="nDCG at cut-offs (grades as gains)",
            kernel=TK.ndcg_cut,
            order=24,
            sets=ALL_TREC,
            suffix="cutoff",
        ),
    )
    FAST = staticmethod(FK.ndcg)
    TIES = staticmethod(TA.ndcg)

    def trec_form(self) -> TrecMeasure | None:
        if self.params.get("dcg") == "exp-log2" or (self.cutoff is not None and self.params.get("gains")):
            return None  # (trec_eval has no exp-log2 gains, and ndcg_cut reads none)
        return super().trec_form()

    def kernel_params(self) -> tuple:
        if self.cutoff is not None:
            return (self.cutoff,)
        return tuple((str(int(k)), float(v)) for k, v in (self.params.get("gains") or {}).items())


class _RR(_Flat):
    NAME = "RR"
    DESCRIPTION = (
        "reciprocal rank of the first relevant item, 0 if none (trec_eval recip_rank; @k: the first k, "
        "as ir_measures, ties in score by document id ascending)"
    )
    TREC = (
        TrecMeasure(
            "recip_rank",
            "float",
            description="reciprocal rank of the first relevant document",
            kernel=TK.recip_rank,
            order=9,
            sets=OFFICIAL,
        ),
    )  # (RR@k is ir_measures', not trec_eval's)
    FAST = staticmethod(FK.reciprocal_rank)
    TIES = staticmethod(TA.reciprocal_rank)


class _Rprec(_Flat):
    NAME = "Rprec"
    DESCRIPTION = "precision at R: relevant items in the first R, over R (trec_eval Rprec)"
    CUTOFF = "none"
    TREC = (
        TrecMeasure(
            "Rprec",
            "float",
            description="precision after R (the number of relevant) documents",
            kernel=TK.rprec,
            order=7,
            sets=OFFICIAL,
        ),
    )
    FAST = staticmethod(FK.r_precision)
    TIES = staticmethod(TA.r_precision)


class _Bpref(_Flat):
    NAME = "Bpref"
    DESCRIPTION = (
        "binary preference: over the relevant items, 1 - min(n, R) / min(N, R), n the judged "
        "non-relevant items ranked above, N those assessed; summed over R (trec_eval bpref)"
    )
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"rel": _REL}
    TREC = (
        TrecMeasure(
            "bpref",
            "float",
            description="binary preference: judged non-relevant ranked above relevant",
            kernel=TK.bpref,
            order=8,
            sets=OFFICIAL,
        ),
    )
    FAST = staticmethod(FK.bpref)


class _Success(_Flat):
    NAME = "Success"
    DESCRIPTION = "1 if a relevant item is in the first k, else 0 (trec_eval success_k)"
    CUTOFF = "required"
    TREC = (
        TrecMeasure(
            "success",
            "cut_long",
            (1, 5, 10),
            description="a relevant document in the first k",
            kernel=TK.success,
            order=27,
            sets=ALL_TREC,
            suffix="cutoff",
        ),
    )
    FAST = staticmethod(FK.success)
    TIES = staticmethod(TA.success)

    def kernel_params(self) -> tuple:
        return (self.cutoff,)


class _IPrec(_Flat):
    NAME = "IPrec"
    DESCRIPTION = (
        "interpolated precision at recall x: the highest P@j at or after the rank of the c-th "
        "relevant item, c = floor(x R + 0.9) (the first if c = 0), 0 if fewer are retrieved (trec_eval "
        "iprec_at_recall_x)"
    )
    CUTOFF = "none"
    AT_PARAM = "recall"
    SUPPORTED_PARAMS = {
        "recall": Param(float, None, "recall level (IPrec@0.5)", range="[0, 1]"),
        "rel": _REL,
        "judged_only": _JUDGED,
    }

    def validate(self) -> "Measure":
        from ...errors import MeasureNameError

        super().validate()
        if self.params["recall"] is None:
            raise MeasureNameError("IPrec needs a recall level, e.g. IPrec@0.5")
        return self

    TREC = (
        TrecMeasure(
            "iprec_at_recall",
            "cut_float",
            RECALLS,
            description="interpolated precision at recall levels",
            kernel=TK.iprec_at_recall,
            order=10,
            sets=OFFICIAL,
            suffix="recall",
        ),
    )
    FAST = staticmethod(FK.interpolated_precision)

    def kernel_params(self) -> tuple:
        return (self.params["recall"],)


class _Count(_Flat):
    CUTOFF = "none"
    INTEGER = True
    AGGREGATE = "sum"
    BOUNDS = None


class _NumRet(_Count):
    NAME = "NumRet"
    DESCRIPTION = "items retrieved; with rel=: relevant items retrieved; all: sum (trec_eval num_ret, num_rel_ret)"
    SUPPORTED_PARAMS = {
        "rel": Param(
            float,
            None,
            "count only items relevant at this grade or above (default: every item)",
            _threshold,
            range="(0, inf)",
        )
    }
    TREC = (
        TrecMeasure(
            "num_ret",
            "long",
            average="sum",
            description="documents retrieved",
            kernel=TK.num_ret,
            order=2,
            sets=COUNTED,
            resets="bare",
        ),
    )
    FAST = staticmethod(FK.num_ret)
    TIES = staticmethod(TA.num_ret)

    def trec_form(self) -> TrecMeasure | None:
        return super().trec_form() if self.params.get("rel") is None else None  # (no trec_eval name at rel=)

    def exact(self):
        return super().exact() if self.params.get("rel") is None else TK.num_rel_ret  # (NumRelRet's, at rel)


class _NumRelRet(_Count):
    NAME = "NumRelRet"
    DESCRIPTION = (
        "relevant items retrieved (above 0 by default, as the other measures; with integer grades "
        "NumRet(rel=1)); all: sum (trec_eval num_rel_ret)"
    )
    SUPPORTED_PARAMS = {"rel": _REL}
    TREC = (
        TrecMeasure(
            "num_rel_ret",
            "long",
            average="sum",
            description="relevant documents retrieved",
            kernel=TK.num_rel_ret,
            order=4,
            sets=COUNTED,
        ),
    )
    FAST = staticmethod(FK.num_rel_ret)
    TIES = staticmethod(TA.num_rel_ret)


class _NumRel(_Count):
    NAME = "NumRel"
    DESCRIPTION = "relevant nodes assessed, R; all: sum (trec_eval num_rel; a topic the run lacks counts its own)"
    SUPPORTED_PARAMS = {"rel": _REL}
    EMPTY = None  # with -c, a topic the run lacks still has its relevant documents, as trec_eval counts them
    TREC = (
        TrecMeasure(
            "num_rel",
            "long",
            average="sum",
            description="relevant documents (grade >= -l)",
            kernel=TK.num_rel,
            order=3,
            sets=COUNTED,
            complete=True,
        ),
    )
    FAST = staticmethod(FK.num_rel)
    TIES = FAST  # (order plays no part)


class _NumQ(_Count):
    NAME = "NumQ"
    DESCRIPTION = "1 for each topic scored; all: the number of topics (trec_eval num_q)"
    SUPPORTED_PARAMS = {}
    BOUNDS = (0.0, 1.0)
    EMPTY = 1.0  # a topic the run lacks still counts (trec_eval -c)
    TREC = (
        TrecMeasure(
            "num_q",
            "long",
            average="count",
            per_topic=False,
            description="topics averaged over",
            reads=None,
            kernel=TK.num_q,
            order=1,
            sets=SET_NAMES,
        ),
    )
    FAST = staticmethod(FK.num_q)
    TIES = FAST  # (order plays no part)

    @property
    def DEFAULT(self) -> float:  # noqa: N802 -- ir_measures gives a topic the run lacks 0
        return 0.0


class _Judged(_Flat):
    NAME = "Judged"
    DESCRIPTION = (
        "judgement rate: assessed items among the first min(k, retrieved), over their number "
        "(ir_measures' Judged@k; ties in score in document order, as ir_measures breaks them)"
    )
    SUPPORTED_PARAMS = {}
    FAST = staticmethod(FK.judged)
    TIES = staticmethod(TA.judged)


class _ERR(_Flat):
    NAME = "ERR"
    DESCRIPTION = (
        "expected reciprocal rank at k (Chapelle et al. 2009), as the TREC Web track's gdeval computes "
        "it for ir_measures: stop probability (2^grade - 1) / 2^4 at each of the first k items"
    )
    CUTOFF = "required"
    SUPPORTED_PARAMS = {}
    MAX_GRADE = 4  # gdeval's MAX_JUDGMENT: grades above it are refused
    FAST = staticmethod(FK.err)


class _DCG(_Flat):
    NAME = "DCG"
    DESCRIPTION = (
        "discounted cumulated gain, not normalised: sum of gain_i / log2(i + 1) (Jarvelin and "
        "Kekalainen; gain = grade; dcg=exp-log2: 2^grade - 1, Burges et al.; as ranx's dcg, "
        "dcg_burges); @k: the first k"
    )
    BOUNDS = None
    SUPPORTED_PARAMS = {
        "dcg": Param(str, "log2", "log2 (gain = grade) or exp-log2 (gain = 2^grade - 1)", _dcg),
        "judged_only": _JUDGED,
    }
    FAST = staticmethod(FK.dcg)
    TIES = staticmethod(TA.dcg)


class _F1(_Flat):
    NAME = "F1"
    DESCRIPTION = (
        "F1 at k: the harmonic mean of P@k and R@k, 2 (relevant items in the first k) / (k + R); no @k: "
        "over the whole ranking, k the items retrieved (ranx's f1)"
    )
    FAST = staticmethod(FK.f1)
    TIES = staticmethod(TA.f1)


register(_P, "Precision")
register(_R, "Recall")
register(_AP, "MAP")
register(_nDCG)
register(_RR, "MRR")
register(_Rprec)
register(_Bpref)
register(_Success)
register(_IPrec)
register(_NumRet)
register(_NumRelRet)
register(_NumRel)
register(_NumQ)
register(_Judged)
register(_ERR)
register(_DCG)
register(_F1)

P, R, AP, nDCG, RR, Rprec, Bpref = _P(), _R(), _AP(), _nDCG(), _RR(), _Rprec(), _Bpref()
Success, IPrec, NumRet, NumRelRet = _Success(), _IPrec(), _NumRet(), _NumRelRet()
NumRel, NumQ, Judged = _NumRel(), _NumQ(), _Judged()
ERR, DCG, F1 = _ERR(), _DCG(), _F1()

#: Every flat measure class.
FLAT_MEASURES = (
    _P,
    _R,
    _AP,
    _nDCG,
    _RR,
    _Rprec,
    _Bpref,
    _Success,
    _IPrec,
    _NumRet,
    _NumRelRet,
    _NumRel,
    _NumQ,
    _Judged,
    _ERR,
    _DCG,
    _F1,
)
