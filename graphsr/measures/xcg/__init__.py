"""The INEX 2002-2005 element measures: inex-2002 (GRP), inex-2003 (GRPng) and XCG (xCG, nxCG, ep, MAep), on
INEX (e, s) or graded element assessments, with ideal recall-bases (:mod:`graphsr.measures.ideal`).

>>> from graphsr.measures.xcg import nxCG
>>> nxCG(quant="sog") @ 10
nxCG(quant=sog)@10
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(__name__, {**declared_by(__name__), **{"XCGProvider": "provider"}})
