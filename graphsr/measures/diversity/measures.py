r"""The diversity family's measures, declared once (the arithmetic is in :mod:`graphsr.measures.diversity.kernels`).

Each topic's judgments say, per document and subtopic (intent), a grade; a document is relevant to a subtopic at
grade ``rel`` or above (default 1).  ``S`` is the number of subtopics some document is relevant to; a subtopic
covered ``c`` times above rank ``i`` gains :math:`(1-\alpha)^c` at rank ``i``, and :math:`g_i` sums those gains
over the subtopics the document at rank ``i`` is relevant to.

==================  ================================================================================================
``alpha_DCG@k``     :math:`\sum_{i \le k} g_i / \log_2(i+1)` over the same for ``S`` subtopics each covered at
                    every rank (Clarke et al. 2008, ndeval's collection-independent normalisation; at k = 1
                    ndeval leaves the sum as it is)
``alpha_nDCG@k``    ``alpha_DCG@k`` over the same of an ideal ranking of the judged documents (built greedily, ties
                    by document id descending, as ndeval builds it); 0 where ``alpha_DCG@k`` is 0
``ERR_IA@k``        :math:`\sum_{i \le k} g_i / i`, normalised as ``alpha_DCG`` (Chapelle et al. 2009)
``nERR_IA@k``       ``ERR_IA@k`` over the ideal ranking's
``P_IA@k``          relevant (document, subtopic) pairs in the first k, over :math:`k S`
``StRecall@k``      subtopics covered in the first k, over ``S``
``NRBP``            :math:`\frac{1 - (1-\alpha)\beta}{S} \sum_i g_i \beta^{i-1}` over the whole ranking (Clarke et
                    al. 2009)
``nNRBP``           ``NRBP`` over the ideal ranking's
``AP_IA``           the mean over the ``S`` subtopics of each one's average precision
==================  ================================================================================================

Results tied in score are ranked by document id ascending, as ir_measures hands runs to ndeval; ``judged_only``
drops the documents no judgment names first.  A topic without a relevant subtopic scores 0 (``nNRBP`` too,
where ndeval divides 0 by 0).  ndeval stops at rank 20; graphsr computes any k, equal to ndeval up to 20.
"""

from __future__ import annotations

from typing import ClassVar

from ..base import Measure, Param, register

__all__ = [
    "alpha_nDCG",
    "alpha_DCG",
    "ERR_IA",
    "nERR_IA",
    "P_IA",
    "StRecall",
    "NRBP",
    "nNRBP",
    "AP_IA",
    "DIVERSITY_MEASURES",
]

_REL = Param(int, 1, "a document is relevant to a subtopic at this grade or above", range="[1, inf)")
_ALPHA = Param(
    float, 0.5, "redundancy intolerance: a subtopic covered c times before gains (1 - alpha)^c", range="[0, 1]"
)
_BETA = Param(float, 0.5, "patience: the chance of reading on to the next document (NRBP)", range="[0, 1)")
_JUDGED = Param(bool, False, "drop the documents no judgment names before scoring")


class _Diversity(Measure):
    FAMILY = "diversity"
    BOUNDS: ClassVar[tuple[float, float] | None] = (0.0, 1.0)
    ANY_SCALE = True
    CUTOFF = "required"
    SUPPORTED_PARAMS = {"rel": _REL, "judged_only": _JUDGED}
    #: Which of the kernel's values it is (:meth:`graphsr.measures.diversity.kernels` ``at``, or a whole ranking's
    #: ``nrbp``, ``nnrbp``, ``ap_ia``).
    VALUE = ""


class _alpha_DCG(_Diversity):
    NAME = "alpha_DCG"
    VALUE = "dcg"
    DESCRIPTION = (
        "alpha-DCG@k (Clarke et al. 2008): novelty-discounted gain over log2(i + 1), over the same for "
        "every subtopic covered at every rank (ndeval's alpha-DCG)"
    )
    BOUNDS = None
    SUPPORTED_PARAMS = {"rel": _REL, "alpha": _ALPHA, "judged_only": _JUDGED}


class _alpha_nDCG(_Diversity):
    NAME = "alpha_nDCG"
    VALUE = "dcg/ideal"
    DESCRIPTION = "alpha-nDCG@k (Clarke et al. 2008): alpha-DCG@k over an ideal ranking's (ndeval's alpha-nDCG)"
    SUPPORTED_PARAMS = {"rel": _REL, "alpha": _ALPHA, "judged_only": _JUDGED}


class _ERR_IA(_Diversity):
    NAME = "ERR_IA"
    VALUE = "err"
    DESCRIPTION = (
        "intent-aware expected reciprocal rank@k (Chapelle et al. 2009), normalised as alpha-DCG (ndeval's ERR-IA)"
    )
    BOUNDS = None


class _nERR_IA(_Diversity):
    NAME = "nERR_IA"
    VALUE = "err/ideal"
    DESCRIPTION = "ERR-IA@k over an ideal ranking's (ndeval's nERR-IA)"


class _P_IA(_Diversity):
    NAME = "P_IA"
    VALUE = "pairs"
    DESCRIPTION = "intent-aware precision@k: relevant (document, subtopic) pairs in the first k, over k S"


class _StRecall(_Diversity):
    NAME = "StRecall"
    VALUE = "seen"
    DESCRIPTION = "subtopic recall@k: subtopics covered in the first k, over S (ndeval's strec)"
    SUPPORTED_PARAMS = {"rel": _REL}


class _NRBP(_Diversity):
    NAME = "NRBP"
    VALUE = "nrbp"
    DESCRIPTION = "novelty- and rank-biased precision (Clarke et al. 2009) over the whole ranking"
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"rel": _REL, "alpha": _ALPHA, "beta": _BETA}


class _nNRBP(_Diversity):
    NAME = "nNRBP"
    VALUE = "nnrbp"
    DESCRIPTION = "NRBP over an ideal ranking's"
    CUTOFF = "none"
    SUPPORTED_PARAMS = {"rel": _REL, "alpha": _ALPHA, "beta": _BETA}


class _AP_IA(_Diversity):
    NAME = "AP_IA"
    VALUE = "ap_ia"
    DESCRIPTION = "intent-aware average precision: the mean over the subtopics of each one's AP (ndeval's MAP-IA)"
    CUTOFF = "none"


#: Every diversity measure class.
DIVERSITY_MEASURES = (_alpha_nDCG, _alpha_DCG, _ERR_IA, _nERR_IA, _P_IA, _StRecall, _NRBP, _nNRBP, _AP_IA)
for _cls in DIVERSITY_MEASURES:
    register(_cls, *(("MAP_IA",) if _cls is _AP_IA else ()))  # (ir_measures' other name for it)

alpha_nDCG, alpha_DCG, ERR_IA, nERR_IA = _alpha_nDCG(), _alpha_DCG(), _ERR_IA(), _nERR_IA()
P_IA, StRecall, NRBP, nNRBP, AP_IA = _P_IA(), _StRecall(), _NRBP(), _nNRBP(), _AP_IA()
