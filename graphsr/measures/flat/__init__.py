"""The flat measures users report beside SR: trec_eval's standard set (P, R, AP, nDCG, RR, Rprec, Bpref,
Success, IPrec, NumRet, NumRelRet, NumRel, NumQ) and ir_measures' Judged, on document, element or tree runs, so that no
second tool is needed.

>>> from graphsr.measures.flat import P
>>> P @ 5
P@5
"""

from ..._lazy import lazy_namespace
from . import measures as _declared
from .measures import *  # noqa: F403 (the family's measures, as its declarations name them)
from .trec_more import TREC_MORE  # (registers trec_eval's other measures: infAP, SetP, GMAP, ...)

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__, {"FlatProvider": "provider"}, [*_declared.__all__, "TREC_MORE"]
)
