"""The passage family: the official INEX measures of inex_eval 3.1 (iP, MAiP, gP, gR, MAgP, the counts and
ratios) of passage runs, and of element runs as the text their elements cover.

>>> from graphsr.measures.fol import MAgP
>>> MAgP(task="t2i")
MAgP(task=t2i)
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {
        **declared_by(__name__),
        **{"PassageProvider": "provider", "passage_inputs": "provider", "PassageInputs": "inputs"},
    },
)
