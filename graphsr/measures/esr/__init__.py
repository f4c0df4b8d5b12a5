"""The ESR family: Extended Structural Relevance (ESRP, ESRR, SRiP, SRiR, NSRCG, SRPRUM, ...) on element runs
with navigation learned from route steps.

>>> from graphsr.measures.esr import ESRP
>>> ESRP @ 5
ESRP@5
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {
        **declared_by(__name__),
        **{"ESRProvider": "provider", "ESRInputs": "kernel", "esr_curves": "kernel", "esr_curves_many": "kernel"},
    },
)
