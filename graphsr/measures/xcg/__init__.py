"""The INEX 2002-2005 element measures: inex-2002 (GRP), inex-2003 (GRPng) and XCG (xCG, nxCG, ep, MAep), on
INEX (e, s) or graded element assessments, with ideal recall-bases (:mod:`graphsr.measures.ideal`).

>>> from graphsr.measures.xcg import nxCG
>>> nxCG(quant="sog") @ 10
nxCG(quant=sog)@10
"""

from ..provider import lazy_family_provider
from .measures import GRP, MAep, GRPng, ep, nxCG, xCG

__all__ = ["GRP", "GRPng", "xCG", "nxCG", "ep", "MAep", "XCGProvider"]

__getattr__ = lazy_family_provider(__name__, "xcg", "XCGProvider")
