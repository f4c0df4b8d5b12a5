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

from ..base import Measure, Param, register

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


_REL = Param(float, None, "an item is relevant at this grade or above (default: above 0)", _threshold, range="(0, inf)")
_JUDGED = Param(bool, False, "drop unjudged items before scoring (trec_eval -J)")


class _Flat(Measure):
    FAMILY = "flat"
    BOUNDS = (0.0, 1.0)
    ANY_SCALE = True  # TREC-style grades (0..4, negative) as trec_eval reads them
    SUPPORTED_PARAMS = {"rel": _REL, "judged_only": _JUDGED}
    #: The ``graphsr trec_eval`` kernel (:mod:`graphsr.measures.trec_eval.kernels`) that is this measure, exactly
    #: as trec_eval computes it ("": none, e.g. ir_measures' Judged); a measure with a vectorised kernel in
    #: :data:`graphsr.measures.flat.kernels.KERNELS` is scored by that fast path, which tests hold to it.
    KERNEL = ""

    def kernel_params(self) -> tuple:
        """The exact kernel's parameters, as ``graphsr trec_eval`` passes them."""
        return ()


class _P(_Flat):
    NAME = "P"
    DESCRIPTION = "precision at k: relevant items in the first k, over k (trec_eval P_k)"
    CUTOFF = "required"
    KERNEL = "P"

    def kernel_params(self) -> tuple:
        return (self.cutoff,)


class _R(_Flat):
    NAME = "R"
    DESCRIPTION = "recall at k: relevant items in the first k, over the relevant assessed R (trec_eval recall_k)"
    CUTOFF = "required"
    KERNEL = "recall"

    def kernel_params(self) -> tuple:
        return (self.cutoff,)


class _AP(_Flat):
    NAME = "AP"
    DESCRIPTION = (
        "average precision: the sum of P@i at the ranks i of relevant items, over R (trec_eval map; "
        "@k: map_cut_k, the first k items)"
    )

    @property
    def KERNEL(self) -> str:  # type: ignore[override]  # noqa: N802
        return "map" if self.cutoff is None else "map_cut"

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

    @property
    def KERNEL(self) -> str:  # type: ignore[override]  # noqa: N802 -- trec_eval has no exp-log2 gains
        if self.params.get("dcg") == "exp-log2" or (self.cutoff is not None and self.params.get("gains")):
            return ""
        return "ndcg" if self.cutoff is None else "ndcg_cut"

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

    @property
    def KERNEL(self) -> str:  # type: ignore[override]  # noqa: N802 -- RR@k is ir_measures', not trec_eval's
        return "recip_rank" if self.cutoff is None else ""


class _Rprec(_Flat):
    NAME = "Rprec"
    DESCRIPTION = "precision at R: relevant items in the first R, over R (trec_eval Rprec)"
    CUTOFF = "none"
    KERNEL = "Rprec"


class _Bpref(_Flat):
    NAME = "Bpref"
    DESCRIPTION = (
        "binary preference: over the relevant items, 1 - min(n, R) / min(N, R), n the judged "
        "non-relevant items ranked above, N those assessed; summed over R (trec_eval bpref)"
    )
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"rel": _REL}
    KERNEL = "bpref"


class _Success(_Flat):
    NAME = "Success"
    DESCRIPTION = "1 if a relevant item is in the first k, else 0 (trec_eval success_k)"
    CUTOFF = "required"
    KERNEL = "success"

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

    KERNEL = "iprec_at_recall"

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

    @property
    def KERNEL(self) -> str:  # type: ignore[override]  # noqa: N802
        return "num_ret" if self.params.get("rel") is None else "num_rel_ret"


class _NumRelRet(_Count):
    NAME = "NumRelRet"
    DESCRIPTION = (
        "relevant items retrieved (above 0 by default, as the other measures; with integer grades "
        "NumRet(rel=1)); all: sum (trec_eval num_rel_ret)"
    )
    SUPPORTED_PARAMS = {"rel": _REL}
    KERNEL = "num_rel_ret"


class _NumRel(_Count):
    NAME = "NumRel"
    DESCRIPTION = "relevant nodes assessed, R; all: sum (trec_eval num_rel; a topic the run lacks counts its own)"
    SUPPORTED_PARAMS = {"rel": _REL}
    EMPTY = None  # with -c, a topic the run lacks still has its relevant documents, as trec_eval counts them
    KERNEL = "num_rel"


class _NumQ(_Count):
    NAME = "NumQ"
    DESCRIPTION = "1 for each topic scored; all: the number of topics (trec_eval num_q)"
    SUPPORTED_PARAMS = {}
    BOUNDS = (0.0, 1.0)
    EMPTY = 1.0  # a topic the run lacks still counts (trec_eval -c)

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


class _ERR(_Flat):
    NAME = "ERR"
    DESCRIPTION = (
        "expected reciprocal rank at k (Chapelle et al. 2009), as the TREC Web track's gdeval computes "
        "it for ir_measures: stop probability (2^grade - 1) / 2^4 at each of the first k items"
    )
    CUTOFF = "required"
    SUPPORTED_PARAMS = {}
    MAX_GRADE = 4  # gdeval's MAX_JUDGMENT: grades above it are refused


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

P, R, AP, nDCG, RR, Rprec, Bpref = _P(), _R(), _AP(), _nDCG(), _RR(), _Rprec(), _Bpref()
Success, IPrec, NumRet, NumRelRet = _Success(), _IPrec(), _NumRet(), _NumRelRet()
NumRel, NumQ, Judged = _NumRel(), _NumQ(), _Judged()
ERR, DCG = _ERR(), _DCG()

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
)
