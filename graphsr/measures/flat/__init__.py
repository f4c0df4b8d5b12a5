"""The flat measures users report beside SR: trec_eval's standard set (P, R, AP, nDCG, RR, Rprec, Bpref,
Success, IPrec, NumRet, NumRelRet, NumRel, NumQ) and ir_measures' Judged, on document, element or tree runs, so that no
second tool is needed.

>>> from graphsr.measures.flat import P
>>> P @ 5
P@5
"""

from ..._lazy import lazy_namespace
from .measures import (
    AP,
    FLAT_MEASURES,
    IPrec,
    NumQ,
    NumRel,
    NumRelRet,
    NumRet,
    R,
    RR,
    Bpref,
    Judged,
    P,
    Rprec,
    Success,
    nDCG,
)
from .trec_more import TREC_MORE  # (registers trec_eval's other measures: infAP, SetP, GMAP, ...)

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {"FlatProvider": "provider"},
    [
        "P",
        "R",
        "AP",
        "nDCG",
        "RR",
        "Rprec",
        "Bpref",
        "Success",
        "IPrec",
        "NumRet",
        "NumRelRet",
        "NumRel",
        "NumQ",
        "Judged",
        "FLAT_MEASURES",
        "TREC_MORE",
    ],
)
