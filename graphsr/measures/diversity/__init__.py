"""The diversity family: novelty- and intent-aware measures over subtopic judgments, as the TREC Web track's
ndeval computes them (ir_measures' pyndeval provider): ``alpha_nDCG@k``, ``alpha_DCG@k``, ``ERR_IA@k``,
``nERR_IA@k``, ``P_IA@k``, ``StRecall@k``, ``NRBP``, ``nNRBP``, ``AP_IA``.

>>> from graphsr.measures.diversity import alpha_nDCG, NRBP
>>> alpha_nDCG @ 10, NRBP(beta=0.8)
(alpha_nDCG@10, NRBP(beta=0.8))
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(
    __name__, {**declared_by(__name__), **{"DiversityProvider": "provider", "SubtopicJudgments": "kernels"}}
)
