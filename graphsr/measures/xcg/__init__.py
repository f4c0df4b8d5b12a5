"""The INEX 2002-2005 element measures: inex-2002 (GRP), inex-2003 (GRPng) and XCG (xCG, nxCG, ep, MAep), on
INEX (e, s) or graded element assessments, with ideal recall-bases (:mod:`graphsr.measures.ideal`).

>>> from graphsr.measures.xcg import nxCG
>>> nxCG(quant="sog") @ 10
nxCG(quant=sog)@10
"""

from ..._lazy import lazy_namespace
from . import measures as _declared
from .measures import *  # noqa: F403 (the family's measures, as its declarations name them)

__getattr__, __dir__, __all__ = lazy_namespace(__name__, {"XCGProvider": "provider"}, _declared.__all__)
