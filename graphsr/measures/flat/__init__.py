"""The flat measures users report beside SR: trec_eval's standard set (P, R, AP, nDCG, RR, Rprec, Bpref,
Success, IPrec, NumRet, NumRelRet, NumRel, NumQ) and ir_measures' Judged, on document, element or tree runs, so that no
second tool is needed.

>>> from graphsr.measures.flat import P
>>> P @ 5
P@5
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(__name__, {**declared_by(__name__), **{"FlatProvider": "provider"}})
