"""The NQ family: Natural Questions' official figures (``nq_eval.py``'s best-threshold F1, precision and recall of
long and short answers, and its recall at precision targets) over NQ annotations and predictions.

>>> from graphsr.measures.nq import NQlongF1, NQshortR
>>> NQlongF1, NQshortR(at=0.75)
(NQlongF1, NQshortR[0.75])
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(__name__, {**declared_by(__name__), **{"NQProvider": "provider"}})
